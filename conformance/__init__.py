"""conformance: property-based conversion parity checking for deep-learning frameworks.

Random models with data-dependent control flow, nested inputs and keyword arguments are drawn by the
strategies of :mod:`conformance.strategies`, rendered as real framework source (:mod:`conformance.render`),
converted along every path a framework offers (:mod:`conformance.paths`) and judged against eager mode by a
sound oracle (:func:`~conformance.diagnose`, :func:`~conformance.assert_parity`). The public names:

* :func:`~conformance.check` and :func:`~conformance.assert_conforms`: every conversion path of a model of your own,
  on your inputs;
* :func:`~conformance.check_case`: one generated case along one path (what a pytest property asserts on);
* :func:`~conformance.diagnose` and :func:`~conformance.assert_parity`: the oracle on outputs you computed yourself;
* :class:`~conformance.Program`, :class:`~conformance.Case`, :class:`~conformance.InputSet` and
  :func:`~conformance.materialize`: the framework-neutral IR and its inputs.

Also public, one module per concern: :mod:`conformance.strategies` (Hypothesis strategies),
:mod:`conformance.results` (results files), :mod:`conformance.paths` (conversion paths, and paths of your
own as plug-ins) and :mod:`conformance.program.ops` (op records). Importing this package imports no
framework.
"""

from conformance.check import (
    CheckError,
    CheckReport,
    ConformanceMismatch,
    PathResult,
    assert_conforms,
    check,
)
from conformance.judge.oracle import ParityError, Report, assert_parity, diagnose
from conformance.program.case import Case, InputSet, materialize
from conformance.program.ir import ProgramError
from conformance.program.program import Program
from conformance.run.runner import check as check_case
from conformance.version import __version__

__all__ = ["Case", "CheckError", "CheckReport", "ConformanceMismatch", "InputSet", "ParityError", "PathResult",
           "Program", "ProgramError", "Report", "assert_conforms", "assert_parity", "check", "check_case",
           "diagnose", "materialize", "__version__"]
