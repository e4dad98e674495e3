"""conformance: property-based conversion parity checking for deep-learning frameworks.

Random models with data-dependent control flow, nested inputs and keyword arguments are generated
(:mod:`conformance.strategies`), rendered as real framework source (:mod:`conformance.render`),
converted along every path a framework offers (:mod:`conformance.paths`) and judged against eager
mode by a sound oracle (:mod:`conformance.oracle`). :func:`check` runs the same paths and oracle on a
model of your own (:mod:`conformance.check`). Importing this package imports no framework.
"""

__version__ = "0.1.0"

from .case import Case, InputSet, materialize  # noqa: E402
from .check import CheckError, CheckReport, assert_conforms, check  # noqa: E402
from .ir import Program, ProgramError  # noqa: E402
from .oracle import ParityError, Report, assert_parity, diagnose  # noqa: E402

__all__ = ["Case", "CheckError", "CheckReport", "InputSet", "ParityError", "Program", "ProgramError", "Report", "assert_conforms", "assert_parity", "check", "diagnose",
           "materialize", "__version__"]
