"""conformance: property-based conversion parity checking for deep-learning frameworks.

Random models with data-dependent control flow, nested inputs and keyword arguments are generated
(:mod:`conformance.strategies`), rendered as real framework source (:mod:`conformance.render`),
converted along every path a framework offers (:mod:`conformance.paths`) and judged against eager
mode by a sound oracle (:mod:`conformance.oracle`). :func:`check` runs the same paths and oracle on a
model of your own (:mod:`conformance.check`). Importing this package imports no framework.
"""

from conformance.check import CheckError, CheckReport, assert_conforms, check  # noqa: E402
from conformance.judge.oracle import ParityError, Report, assert_parity, diagnose  # noqa: E402
from conformance.program.case import Case, InputSet, materialize  # noqa: E402
from conformance.program.ir import ProgramError  # noqa: E402
from conformance.program.program import Program  # noqa: E402
from conformance.version import __version__  # noqa: E402,F401

__all__ = ["Case", "CheckError", "CheckReport", "InputSet", "ParityError", "Program", "ProgramError", "Report",
           "assert_conforms", "assert_parity", "check", "diagnose", "materialize", "__version__"]
