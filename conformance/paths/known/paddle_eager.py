"""Paddle's dygraph itself: what every Paddle path meets because eager does it.
"""

from conformance.paths.known.factories import Failure, known_bug, missing_kernel

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
    missing_kernel(
        "paddle_eager.float16_cpu_gradient",
        reason=("Paddle's CPU has no float16 kernel for the gradient of some ops (exp_grad, log1p_grad, tile_grad), "
                "so dygraph cannot differentiate them in float16"),
        phases=('eager',),
        errors=('RuntimeError',),
        message=r"The kernel with key \(CPU, .*float16\) of kernel `\w+_grad` is not registered",
        modes=frozenset({'grad', 'train'}),
        details=("Paddle's CPU registers float16 forward kernels for some ops whose backward kernels it does not "
                 "(exp_grad, log1p_grad, tile_grad among this suite's ops: 'The kernel with key (CPU, "
                 "Undefined(AnyLayout), float16) of kernel `exp_grad` is not registered', the registered types "
                 "listed), so dygraph cannot differentiate a float16 program through them on the CPU, and no path is "
                 "judged on it in grad and train mode. Provenance: the kernel registry's own message; seen in the "
                 "paddle campaigns seed 0 and 1 of 2026-11-29 (cases e04cae4b9280, 08adc87e9214)."),
        example=Failure('eager', mode="grad", error_types=('RuntimeError', 'Exception'),
                        message=("(NotFound) The kernel with key (CPU, Undefined(AnyLayout), float16) of kernel "
                                 "`exp_grad` is not registered. Selected wrong DataType `float16`."),
                        ops=('exp',)),
    ),
)
