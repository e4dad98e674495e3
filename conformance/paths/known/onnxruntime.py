"""onnxruntime (its CPU provider): what it refuses and computes wrong, whichever exporter wrote the file.
"""

from conformance.paths.known.factories import Failure, known_bug, missing_kernel, refuses_with, writes_wrong

RECORDS = (
    missing_kernel(
        "onnxruntime.no_kernel",
        reason=("onnxruntime's CPU provider has no kernel for some ONNX ops in some dtypes (Acos, Asin, Softplus in "
                "float32 only) and refuses such a model"),
        errors=('NotImplemented',),
        message=r"Could not find an implementation for \w+\(\d+\) node",
        versions=">=2.0",
        paths=('torch.onnx_dynamo', 'torch.onnx_torchscript', 'torch.onnx_dynamo_openvino',
               'torch.onnx_torchscript_openvino', 'tf.onnx'),
        reference="https://github.com/microsoft/onnxruntime/blob/main/docs/OperatorKernels.md",
        details=("onnxruntime's CPU provider has no kernel for some ONNX ops in some dtypes (Acos, Asin, "
                 "Softplus... in float32 only) and refuses to load a model that needs one ('Could not find an "
                 "implementation for Acos(7)'; a float64 softplus through either exporter; tf2onnx's Atan of a float64 "
                 "atan2). Provenance: "
                 "https://github.com/microsoft/onnxruntime/blob/main/docs/OperatorKernels.md."),
        example=Failure('convert',
                        error_types=('NotImplemented', 'Exception'),
                        message=("[ONNXRuntimeError] : 9 : NOT_IMPLEMENTED : Could not find an implementation for"
                                 " Softplus(1) node with name 'n3'")),
    ),
    writes_wrong(
        "onnxruntime.empty_axis_reduction",
        reason=("onnxruntime's ReduceSum / ReduceProd of a zero-size tensor does not reduce: an axis of size 0 stays "
                "0, a non-empty one keeps its size"),
        phases=('compare',),
        divergences=('shape',),
        versions="<1.32.0",  # bisected: in every release from 1.15.0, gone in 1.32.0
        package="onnxruntime",
        ops=('prod', 'sum'),
        paths=('torch.onnx_dynamo', 'torch.onnx_torchscript', 'tf.onnx'),
        issue="https://github.com/microsoft/onnxruntime/issues/7563",
        case="onnxruntime-reduce-over-empty-axis-keeps-zero.json",
        found="2026-11-28 (torch 2.13.0)",
        details=("known bug (onnxruntime): a ReduceSum / ReduceProd over an axis of size 0 keeps that axis at 0 "
                 "(its output of x [3, 0] over axis 1 is [3, 0] with keepdims=1 or 0) where ONNX, numpy and torch "
                 "give the identity of size 1 ([3, 1], [3]); the onnx reference implementation and OpenVINO give "
                 "[3, 1]. Provenance: https://github.com/microsoft/onnxruntime/issues/7563; found by conformance "
                 "2026-11-28 (torch 2.13.0), the clean torch campaigns (infer mode) (case 10238897525d; "
                 "torch.onnx_dynamo's file too, found transplanting it); "
                 "cases/onnxruntime-reduce-over-empty-axis-keeps-zero.json. tf2onnx writes tf.reduce_sum as the "
                 "same ReduceSum: tf.onnx shows it too (tf campaign seed 0, 2026-11-29, case 5d39339a7d80: a sum "
                 "over a last axis of size 0 with keepdims, [0, 0, 0, 1] in TensorFlow, [0, 0, 0, 0] on "
                 "onnxruntime 1.31.1). Over a non-empty axis of a zero-size tensor it does not reduce either: "
                 "torch.sum(x, dim=-3, keepdim=True) of a [4, 4, 2, 0] x is [4, 4, 2, 0] (torch: [4, 1, 2, 0]; "
                 "onnx_torchscript campaign seed 1 of 2026-11-29, case 8aa5b3b03974, where a later expand then "
                 "fails: `onnxruntime.empty_reduction_expand`)."),
        example=Failure('compare', divergences=(('shape', '[0]'),), ops=('prod', 'tanh')),
    ),
    known_bug(
        "onnxruntime.empty_reduction_expand",
        reason=("An expand of onnxruntime's unreduced ReduceSum / ReduceProd of a zero-size tensor fails: 'invalid "
                "expand shape'"),
        phases=('run',),
        errors=('InvalidArgument',),
        message="Non-zero status code returned while running Expand node.*invalid expand shape",
        ops=('prod', 'sum'),
        facts=('zero_size_input',),
        paths=('torch.onnx_dynamo', 'torch.onnx_torchscript', 'tf.onnx'),
        issue="https://github.com/microsoft/onnxruntime/issues/7563",
        found="2026-11-29 (torch 2.13.0, onnxruntime 1.31.1)",
        details=("known bug (onnxruntime): the run face of `onnxruntime.empty_axis_reduction`: "
                 "`torch.sum(x, dim=-3, keepdim=True).expand(-1, 2, -1, -1)` of a [4, 4, 2, 0] x: the sum comes "
                 "back unreduced, [4, 4, 2, 0], and the Expand to [4, 2, 2, 0] fails ('invalid expand shape'). "
                 "Provenance: https://github.com/microsoft/onnxruntime/issues/7563; found by conformance "
                 "2026-11-29 (torch 2.13.0), the onnx_torchscript campaign seed 1 (cases 1f91a0674ae2, "
                 "8aa5b3b03974, 802b00a763a6, f306e19bc98e, reduced by conformance triage to those statements)."),
        example=Failure('run', error_types=('InvalidArgument',),
                        message=("[ONNXRuntimeError] : 2 : INVALID_ARGUMENT : Non-zero status code returned while "
                                 "running Expand node. Name:'/Expand' Status Message: invalid expand shape"),
                        ops=('expand', 'sum'), facts=('zero_size_input',)),
    ),
    refuses_with(
        "onnxruntime.conv_same_dilation",
        reason=("onnxruntime's CPU Conv kernel refuses a dilation with auto_pad SAME_UPPER / SAME_LOWER, as the "
                "TorchScript exporter writes padding='same'"),
        phases=('run',),
        errors=('InvalidArgument',),
        message=r"Dilation not supported for AutoPadType::SAME_(UPPER|LOWER)",
        ops=('conv2d_same',),
        paths=('torch.onnx_torchscript',),
        reference="https://github.com/microsoft/onnxruntime/blob/main/onnxruntime/core/providers/cpu/nn/conv_attributes.h",
        found="2026-11-29 (torch 2.13.0, onnxruntime 1.31.1)",
        details=("onnxruntime's CPU Conv kernel computes the pads of auto_pad SAME_UPPER / SAME_LOWER without the "
                 "dilation and refuses a dilated one at run time ('Dilation not supported for "
                 "AutoPadType::SAME_UPPER or AutoPadType::SAME_LOWER.'); the TorchScript exporter writes "
                 "F.conv2d(x, w, padding='same', dilation=2) that way. Provenance: onnxruntime's conv_attributes.h; "
                 "found by conformance 2026-11-29 (torch 2.13.0, onnxruntime 1.31.1), the onnx_torchscript campaign "
                 "seed 1, case a1c03e3dfa34."),
        example=Failure('run',
                        error_types=('InvalidArgument',),
                        message=("Non-zero status code returned while running Conv node. Name:'/Conv' Status Message: "
                                 "Dilation not supported for AutoPadType::SAME_UPPER or AutoPadType::SAME_LOWER."),
                        ops=('conv2d_same',)),
    ),
    refuses_with(
        "onnxruntime.no_float64_leaky_relu",
        reason="onnxruntime's CPU provider has no float64 LeakyRelu kernel and refuses to load a model that needs one",
        errors=('NotImplemented',),
        message=r"Could not find an implementation for LeakyRelu\(\d+\) node",
        versions=">=2.1",
        package="paddle2onnx",
        ops=('leaky_relu',),
        paths=('paddle.onnx', 'paddle.onnx_openvino'),
        reference="https://github.com/microsoft/onnxruntime/blob/main/docs/OperatorKernels.md",
        found="2026-11-28 (paddle 3.3.1, paddle2onnx 2.1.0, onnxruntime 1.31.1)",
        details=("onnxruntime's CPU provider has no float64 LeakyRelu kernel and refuses to load a model that needs "
                 "one ('Could not find an implementation for LeakyRelu(6)'), as its kernel table documents. "
                 "Provenance: https://github.com/microsoft/onnxruntime/blob/main/docs/OperatorKernels.md; found by "
                 "conformance 2026-11-28 (paddle 3.3.1, paddle2onnx 2.1.0, onnxruntime 1.31.1), the PaddlePaddle "
                 "deployment campaign rerun (seed 0), case 432c2e55e558."),
        example=Failure('convert',
                        error_types=('NotImplemented',),
                        message="Could not find an implementation for LeakyRelu(1) node",
                        ops=('leaky_relu',)),
    ),
    known_bug(
        "onnxruntime.empty_reduction_in_if",
        reason=("onnxruntime's ReduceSum of a zero-size tensor returns the input's shape unchanged, which an If "
                "then refuses"),
        phases=('run',),
        errors=('InvalidArgument',),
        message=r"running If node(?s:.*)but the computed output shape for this run is \{(\d+,)*0[,}]",
        versions="<1.32.0",  # bisected: this error from 1.27.0, gone in 1.32.0
        package="onnxruntime",
        ops=('sum', 'int_sum'),
        paths=('paddle.onnx',),
        issue="https://github.com/microsoft/onnxruntime/issues/7563",
        case="paddle-to-static-if-empty-tensor-reduce.json",
        found="2026-11-28 (onnxruntime 1.31.1)",
        details=("known bug (onnxruntime): a ReduceSum of a zero-size tensor returns the input's shape unchanged, "
                 "whichever axes it reduces ([5, 0, 2, 2] summed over axis -1 with keepdims stays [5, 0, 2, 2]; "
                 "numpy, Paddle and the ONNX spec: [5, 0, 2, 1]); cf. the torch record "
                 "`onnxruntime.empty_axis_reduction`: in a branch of an If, onnxruntime then refuses the result it "
                 "computed ('has shape {5,0,2,1} but the computed output shape for this run is {5,0,2,2}'). "
                 "Provenance: https://github.com/microsoft/onnxruntime/issues/7563; found by conformance 2026-11-28 "
                 "(onnxruntime 1.31.1) replaying cases/paddle-to-static-if-empty-tensor-reduce.json."),
        example=Failure('run',
                        error_types=('InvalidArgument',),
                        message="running If nodebut the computed output shape for this run is {0,",
                        ops=('sum',)),
    ),
    known_bug(
        "onnxruntime.if_branch_repeats_output",
        reason=("onnxruntime fills an If's output wrongly where its branch lists one value twice among its outputs "
                "(as paddle2onnx writes an early return)"),
        phases=('compare',),
        divergences=('value', 'nonfinite'),
        versions=">=1.0",
        package="onnxruntime",
        facts=('branch_repeats_output',),
        paths=('paddle.onnx',),
        case="paddle-onnx-if-branch-repeated-output.json",
        found="2026-11-28 (onnxruntime 1.31.1, paddle2onnx 2.1.0)",
        details=("known bug (onnxruntime): an If whose branch lists one value twice among its outputs (paddle2onnx "
                 "writes that for `if x.min() > t: return x`, then `x = -x; return x`: the pd_op.if yields the new "
                 "x twice) fills one of the If's outputs wrongly (zeros or garbage, 1e27); the ONNX reference "
                 "evaluator is right, and so is onnxruntime once the repeated output goes through an Identity of "
                 "its own. Provenance: found by conformance 2026-11-28 (onnxruntime 1.31.1, paddle2onnx 2.1.0), "
                 "clean campaign seed 8, case aa6538db2e54; cases/paddle-onnx-if-branch-repeated-output.json."),
        example=Failure('compare', divergences=(('value', '[0]'),), facts=('branch_repeats_output',)),
    ),
)
