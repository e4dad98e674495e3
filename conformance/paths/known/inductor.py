"""Inductor, ``torch.compile``'s default backend: what it gets wrong.
"""

from conformance.paths.known.factories import Failure, writes_wrong

RECORDS = (
    writes_wrong(
        "inductor.inductor_floor_divide",
        reason=("Inductor lowers a floating floor division as floor(a / b), which gives +-inf where eager gives NaN "
                "for an infinite dividend"),
        phases=('compare',),
        divergences=('nonfinite',),
        versions=">=2.0",
        ops=('floor_div', 'floor_divide_scalar', 'ceil_div'),
        issue="https://github.com/pytorch/pytorch/issues/188048",
        case="paddle-onnx-floor-divide-infinite.json",
        found="2026-11-28 (torch 2.13.0)",
        details=("known bug: inductor lowers a floating floor division (a // b, torch.floor_divide, "
                 "torch.div(rounding_mode='floor')) as floor(a / b) where eager computes Python's fmod-based "
                 "quotient: an infinite dividend gives +-inf where eager gives NaN (selected here; a quotient just "
                 "below an integer also rounds up, 1.0 // 0.1: 10, eager 9, a value divergence left unnamed); "
                 "aot_eager agrees with eager. Provenance: https://github.com/pytorch/pytorch/issues/188048 (its "
                 "fix, PR #188049, is not in torch 2.13.0's lowering; on the CPU too), "
                 "https://github.com/pytorch/pytorch/issues/197895; found by conformance 2026-11-28 (torch 2.13.0) "
                 "transplanting cases/paddle-onnx-floor-divide-infinite.json."),
        example=Failure('compare', divergences=(('nonfinite', '[0]'),), ops=('add', 'floor_div')),
    ),
)
