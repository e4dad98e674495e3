"""Paddle's dygraph itself: what every Paddle path meets because eager does it.
"""

from conformance.paths.known.factories import Failure, known_bug

RECORDS = (
    known_bug(
        "paddle_eager.integer_divide_overflow_sigfpe",
        reason="Dygraph `x // y` and `x % y` of int64 tensors with x = -2**63 and y = -1 kill the process with SIGFPE",
        phases=('crash',),
        errors=('SIGFPE',),
        message=r"(floor_divide|remainder)_ad_func\(|phi::(FloorDivide|Remainder)\w*Kernel<(long|int),",
        versions=">=3.3",
        ops=('floor_div', 'ceil_div', 'remainder'),
        script="paddle_integer_floor_divide_overflow_sigfpe.py",
        found="2026-11-28 (paddle 3.3.1)",
        details=("known bug: dygraph `x // y` (paddle.floor_divide) and `x % y` (paddle.remainder) of int64 tensors "
                 "with x = -2**63 (the type's minimum, an edge value) and y = -1 kill the process with SIGFPE: the "
                 "quotient overflows and x86's integer division traps; Paddle checks a zero divisor, not this "
                 "overflow (numpy wraps to -2**63). Provenance: found by conformance 2026-11-28 (paddle 3.3.1), "
                 "clean campaign seed 5, case ffdc14d424bf; "
                 "cases/standalone/paddle_integer_floor_divide_overflow_sigfpe.py."),
        example=Failure('crash', error_types=('SIGFPE',), message="floor_divide_ad_func(", ops=('floor_div',)),
    ),
)
