"""Known bugs of dygraph Paddle itself, the reference (:data:`EAGER`): a crash of the eager reference takes every
path's task of the case with it (conformance.run.campaign records each as lost with the crash's log), so
:mod:`conformance.paths.paddle` adds these to every Paddle path's records, the eager path's included."""

from conformance.paths.records import Limitation

INTEGER_DIVIDE_OVERFLOW_SIGFPE = Limitation(
    reason="known bug: dygraph `x // y` (paddle.floor_divide) and `x % y` (paddle.remainder) of int64 tensors with x "
           "= -2**63 (the type's minimum, an edge value) and y = -1 kill the process with SIGFPE: the quotient "
           "overflows and x86's integer division traps; Paddle checks a zero divisor, not this overflow (numpy wraps "
           "to -2**63)",
    phase="crash", errors=("SIGFPE",), ops=("floor_div", "ceil_div", "remainder"),
    message=r"(floor_divide|remainder)_ad_func\(|phi::(FloorDivide|Remainder)\w*Kernel<(long|int),", outcome=None,
    versions=">=3.3",
    reference="found by conformance 2026-11-28 (paddle 3.3.1), clean campaign seed 5, case ffdc14d424bf; "
              "cases/standalone/paddle_integer_floor_divide_overflow_sigfpe.py")

#: Every Paddle path's (a crash of the eager reference is recorded on each).
EAGER = (INTEGER_DIVIDE_OVERFLOW_SIGFPE,)
