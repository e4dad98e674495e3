"""``paddle.amp.auto_cast`` in a to_static program (bfloat16 on the CPU): what it refuses and gets wrong.
"""

from conformance.paths.known.factories import Failure, known_bug, refusal

RECORDS = (
    refusal(
        "paddle_amp.no_cpu_bf16",
        reason=("Paddle computes bfloat16 on the CPU only with oneDNN's bf16 kernels, which need AVX512: without "
                "them a bf16 program aborts the process"),
        errors=('NoBfloat16Kernels',),
        versions=">=3.0",
        found="2026-11-21 (paddle 3.3.1)",
        details=("Paddle computes bfloat16 on the CPU only with oneDNN's bf16 kernels, which need AVX512 "
                 "(paddle.base.core.supports_bfloat16()); on a CPU without them every bf16 operator of the program "
                 "aborts the process (onednn_op raises dnnl::error, then std::terminate), so the path refuses "
                 "before running it. Provenance: found by conformance 2026-11-21 (paddle 3.3.1); "
                 "paddle/amp/auto_cast.py: amp on the CPU is off."),
        example=Failure('convert',
                        error_types=('NoBfloat16Kernels', 'RuntimeError', 'Exception'),
                        message=("this CPU has no oneDNN bfloat16 support (paddle.base.core.supports_bfloat16() i"
                                 "s False): running the bfloat16 program would abort the process"),
                        constructs=('dict_input', 'dynamic_dim', 'for_kwarg', 'if_kwarg', 'if_tensor', 'kwargs',
                                    'list_input', 'nested_input'),
                        ops=('add', 'linear', 'mul', 'mul_scalar', 'neg', 'relu', 'tanh')),
    ),
    known_bug(
        "paddle_amp.no_bf16_kernel",
        reason=("paddle.amp.auto_cast(O1, bfloat16) in a to_static program feeds bfloat16 to operators that have no "
                "bfloat16 kernel on the CPU"),
        errors=('TypeError',),
        message=r"Check data type error for op: \w+, input: (\w+), \1\.dtype: bfloat16",
        versions=">=3.0",
        found="2026-11-23 (paddle 3.3.1)",
        details=("known bug: paddle.amp.auto_cast(O1, bfloat16) in a to_static program feeds bfloat16 to operators "
                 "that have no bfloat16 kernel on the CPU (max_pool2d_with_index of adaptive max pooling, einsum, "
                 "median, atan2...), instead of keeping them in float32: the program fails to build ('Check data "
                 "type error for op: einsum, input: x, x.dtype: bfloat16, and expected_dtype: ... float32, "
                 "float64'). Provenance: found by conformance 2026-11-23 (paddle 3.3.1), seed-1 to_static_amp "
                 "campaign."),
        example=Failure('convert',
                        error_types=('TypeError',),
                        message="Check data type error for op: a, input: a, a.dtype: bfloat16"),
    ),
    known_bug(
        "paddle_amp.empty_matmul_output",
        reason=("A to_static program under paddle.amp.auto_cast(O1, bfloat16) fails on paddle.matmul over a "
                "zero-size contraction dim"),
        phases=('convert', 'run'),
        errors=('ValueError',),
        message="dst_tensor `[^`]*` shall be defined",
        versions=">=3.0",
        ops=('matmul_empty',),
        script="paddle_amp_empty_matmul_segv.py",
        found="2026-11-28 (paddlepaddle 3.3.1)",
        details=("known bug: a to_static program under paddle.amp.auto_cast(O1, bfloat16) that returns "
                 "paddle.matmul over a zero-size contraction dim (x of shape [2, 1, 0], `matmul(x, x, "
                 "transpose_y=True)`) leaves its output undefined: the first run fails ('dst_tensor `` shall be "
                 "defined', run_program) or segfaults in CreateTensorFromValue; dygraph gives zeros. Provenance: "
                 "found by conformance 2026-11-28 (paddlepaddle 3.3.1), campaign seed 0, case 19e6a7a5db30; "
                 "cases/standalone/paddle_amp_empty_matmul_segv.py."),
        example=Failure('convert',
                        error_types=('ValueError',),
                        message="dst_tensor `` shall be defined",
                        ops=('matmul_empty',)),
    ),
    known_bug(
        "paddle_amp.tensor_array_loop_cast",
        reason=("Under paddle.amp.auto_cast(O1, bfloat16) a to_static while loop that appends to a list does not "
                "convert: AMP casts the TensorArray too"),
        errors=('NotImplementedError',),
        message=r"in cast_value_in_amp[\s\S]*Only support paddle::dialect::DenseTensorType",
        versions=">=3.3",
        ops=('lstm', 'gru'),
        case="paddle-to-static-amp-rnn-tensor-array-loop.json",
        found="2026-11-28 (paddle 3.3.1)",
        details=("known bug: under paddle.amp.auto_cast(O1, bfloat16) a to_static while loop over a dynamic dim "
                 "that appends to a list (an RNN's steps: a TensorArray) does not convert: while_loop casts every "
                 "loop variable for AMP (cast_value_in_amp), the TensorArray too, and the cast refuses it ('Only "
                 "support paddle::dialect::DenseTensorType ...'); without auto_cast it converts. Provenance: found "
                 "by conformance 2026-11-28 (paddle 3.3.1), clean campaign seed 1, case 2f81b2559dd0; "
                 "cases/paddle-to-static-amp-rnn-tensor-array-loop.json."),
        example=Failure('convert',
                        error_types=('NotImplementedError',),
                        message="in cast_value_in_ampOnly support paddle::dialect::DenseTensorType",
                        ops=('lstm',)),
    ),
)
