"""``paddle.jit.to_static(full_graph=False)``: SOT bytecode translation and its fallback to the AST: what it refuses
and gets wrong.
"""

from conformance.paths.known.factories import Failure, known_bug, refuses_with, writes_wrong

RECORDS = (
    known_bug(
        "sot.signbit_dynamic_dim",
        reason=("paddle.signbit under SOT with a dynamic dim fails when the program runs ('Broadcast dimension "
                "mismatch' in its copysign)"),
        phases=('run',),
        errors=('ValueError',),
        message=r"in signbit\s+neg_zero_x = paddle\.copysign[\s\S]*Broadcast dimension mismatch",
        versions=">=3.3",
        case="paddle-to-static-signbit-dynamic-dim.json",
        details=("known bug: paddle.signbit in an AST to_static program with a dynamic dim fails when the program "
                 "runs ('Broadcast dimension mismatch' in its copysign: it builds its ones from the static shape, "
                 "-1 read as 0); SOT too, once a new batch size makes it translate with a dynamic dim. Provenance: "
                 "cases/paddle-to-static-signbit-dynamic-dim.json."),
        example=Failure('run',
                        error_types=('ValueError',),
                        message="in signbit neg_zero_x = paddle.copysignBroadcast dimension mismatch"),
    ),
    known_bug(
        "sot.put_along_axis_dynamic_dim",
        reason=("paddle.put_along_axis under SOT's dynamic shapes fails its Python-side shape check, comparing the "
                "unknown dim (-1) with the real one"),
        phases=('run',),
        errors=('RuntimeError', 'InnerError'),
        message=(r"Size does not match at dimension \d+ expected index paddle\.Size\(\[[^\]]*\]\) to be smaller than "
                 r"self paddle\.Size\(\[[^\]]*-1"),
        versions=">=3.0",
        found="2026-11-23 (paddle 3.3.1)",
        details=("known bug: paddle.put_along_axis in a program with a dynamic dim (input_spec None; SOT's dynamic "
                 "shapes) fails its Python-side shape check, comparing the unknown dim (-1) as a size ('Size does "
                 "not match at dimension 0 expected index paddle.Size([1, 1, 2]) to be smaller than self "
                 "paddle.Size([-1, 3, 4])'); dygraph and a fixed-shape input_spec run it (case "
                 "paddle-put-along-axis-dynamic-dim.json). Provenance: paddle/tensor/manipulation.py "
                 "(put_along_axis); found by conformance 2026-11-23 (paddle 3.3.1)."),
        example=Failure('run',
                        error_types=('RuntimeError',),
                        message=("Size does not match at dimension 1 expected index paddle.Size([]) to be smaller"
                                 " than self paddle.Size([-1")),
    ),
    known_bug(
        "sot.inplace_api_keywords",
        reason=("Under SOT, an in-place API called with keyword arguments (`paddle.masked_fill_(x=x, ...)`) does "
                "not convert ('tuple index out of range')"),
        errors=('InnerError',),
        message="tuple index out of range",
        versions=">=3.3",
        ops=('masked_fill_keywords',),
        issue="https://github.com/PaddlePaddle/Paddle/issues/79220",
        case="paddle-to-static-inplace-api-keyword-arguments.json",
        details=("known bug: an in-place API called with keyword arguments (`paddle.masked_fill_(x=x, mask=m, "
                 "value=0.0)`) does not convert: the static graph's in-place wrapper reads its tensor from args[0] "
                 "('tuple index out of range'); called positionally it converts. Provenance: "
                 "https://github.com/PaddlePaddle/Paddle/issues/79220; "
                 "cases/paddle-to-static-inplace-api-keyword-arguments.json."),
        example=Failure('convert',
                        error_types=('InnerError',),
                        message="tuple index out of range",
                        ops=('masked_fill_keywords',)),
    ),
    writes_wrong(
        "sot.rotation_inplace",
        reason="Three accumulators rotated (`a, b, c = c, a, b`), then `a.add_(x)`, in a loop",
        phases=('compare',),
        divergences=('value',),
        versions=">=3.3",
        ops=('rotate_accumulate',),
        case="torch-script-tuple-rotation-inplace.json",
        found="2026-11-28 (paddle 3.3.1)",
        details=("known bug: three accumulators rotated (`a, b, c = c, a, b`), then `a.add_(x)`, in a loop: SOT's "
                 "translation returns the accumulators' first values (zeros: eager 6x, SOT 0), although it keeps a "
                 "plain `a.add_(x)` in a loop. Provenance: found by conformance 2026-11-28 (paddle 3.3.1) "
                 "transplanting pytorch#75794; cases/torch-script-tuple-rotation-inplace.json."),
        example=Failure('compare', divergences=(('value', '[0]'),), ops=('rotate_accumulate',)),
    ),
    refuses_with(
        "sot.inplace_on_view",
        reason=("SOT falls back to the AST translation, which refuses an in-place operator on a tensor that is a "
                "view in dygraph (static graphs have no views)"),
        errors=('InnerError',),
        message="output variable is a viewed Tensor in dygraph",
        versions=">=3.0",
        details=("to_static's SOT falls back to the AST translation, which refuses an in-place operator on a tensor "
                 "that is a view in dygraph (static graphs have no views): the refusal comes wrapped in SOT's "
                 "InnerError. Provenance: paddle/utils/inplace_utils.py (the refusal's own message)."),
        example=Failure('convert',
                        error_types=('InnerError',),
                        message="output variable is a viewed Tensor in dygraph"),
    ),
    known_bug(
        "sot.inplace_input_write_lost",
        reason=("Under SOT, `v.tanh_()` on an input, then `atanh(v)`, in a forward that also computes an unused "
                "conv2d: the input is not written and atanh reads the old values"),
        phases=('compare',),
        divergences=('value', 'nonfinite'),
        where=r"\['inputs'\]",
        versions=">=3.3",
        ops=('input_inplace',),
        paths=('paddle.to_static_sot',),
        case="paddle-sot-inplace-input-write-lost.json",
        script="paddle_sot_inplace_input_write_lost.py",
        found="2026-11-29 (paddlepaddle 3.3.1)",
        details=("known bug: `v.tanh_(); v = paddle.atanh(v); out = F.conv2d(v, w0, b0, ...); unused = "
                 "F.conv2d(u, w1, b1)` with v and u inputs: SOT's translated forward neither writes tanh(v) into the "
                 "caller's v nor feeds it to atanh, which reads the old v (NaN where |v| > 1; eager: finite, v "
                 "written); without the unused conv2d, or without its bias, SOT is right (AST to_static loses "
                 "every such write: `pir_ast.to_static_input_write`). "
                 "Provenance: found by conformance 2026-11-29 (paddlepaddle 3.3.1), campaign seed 0, 300 s, case "
                 "0baf059497f3 (reduced by conformance triage to 6 statements); "
                 "cases/paddle-sot-inplace-input-write-lost.json, "
                 "cases/standalone/paddle_sot_inplace_input_write_lost.py."),
        example=Failure('compare', divergences=(('nonfinite', "['outputs']"), ('value', "['inputs'][0]['k1']")),
                        ops=('atanh', 'conv2d_grouped', 'input_inplace')),
    ),
)
