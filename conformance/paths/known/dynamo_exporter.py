"""The dynamo ONNX exporter (``torch.onnx.export(dynamo=True)``, onnxscript's torchlib): what it refuses and writes
wrong.
"""

from conformance.paths.known.factories import Failure, known_bug, refuses_with, writes_wrong

RECORDS = (
    known_bug(
        "dynamo_exporter.identity_output",
        reason=("With input_names, an input returned unchanged as an output is defined twice and onnxruntime "
                "rejects the model"),
        errors=('Fail',),
        message="Duplicate definition of name",
        versions=">=2.9",
        found="2026-11-21 (torch 2.13.0)",
        details=("known bug: with input_names, an input returned unchanged as an output is defined twice and "
                 "onnxruntime rejects the model. Provenance: found by conformance 2026-11-21 (torch 2.13.0)."),
        example=Failure('convert',
                        error_types=('Fail', 'Exception'),
                        message=("[ONNXRuntimeError] : 1 : FAIL : Load model from /tmp/pytest-of-root/pytest-19/t"
                                 "est_a_limitation_selects_the_4/model_dynamo.onnx failed:This is an invalid mode"
                                 "l. Error: Duplicate definition of name (x1).")),
    ),
    known_bug(
        "dynamo_exporter.tuple_shapes",
        reason=("A tuple input with tuple dynamic_shapes is rejected as a structure mismatch (torch.export itself "
                "accepts it)"),
        errors=('TorchExportError',),
        message=r"is a <class 'tuple'>, but `dynamic_shapes\[.*\]` is a <class 'list'>",
        versions=">=2.9",
        found="2026-11-21 (torch 2.13.0)",
        details=("known bug: a tuple input with tuple dynamic_shapes is rejected as a structure mismatch "
                 "(torch.export itself accepts it). Provenance: found by conformance 2026-11-21 (torch 2.13.0)."),
        example=Failure('convert',
                        error_types=('TorchExportError',),
                        message="is a <class 'tuple'>, but `dynamic_shapes[]` is a <class 'list'>"),
    ),
    refuses_with(
        "dynamo_exporter.no_function",
        reason=("The dynamo ONNX exporter has no ONNX function (translation or decomposition) for some aten "
                "operators and says so"),
        errors=('ConversionError',),
        message="No ONNX function found for",
        versions=">=2.5",
        reference="https://pytorch.org/docs/stable/onnx_dynamo.html",
        details=("the dynamo ONNX exporter has no ONNX function (translation or decomposition) for some aten "
                 "operators and says so ('No ONNX function found for aten.cummax': implement it and register it, "
                 "its message says). Provenance: https://pytorch.org/docs/stable/onnx_dynamo.html."),
        example=Failure('convert', error_types=('ConversionError',), message="No ONNX function found for"),
    ),
    known_bug(
        "dynamo_exporter.refined_shapes",
        reason=("Where torch.export refuses the dynamic batch dim, the dynamo exporter silently retries with a "
                "static batch that onnxruntime refuses for others"),
        phases=('run',),
        errors=('InvalidArgument',),
        message="Got invalid dimensions for input",
        versions=">=2.5",
        constructs=('if_shape',),
        issue="https://github.com/pytorch/pytorch/pull/134976",
        found="2026-11-28 (torch 2.13.0)",
        details=("known bug: where torch.export refuses the dynamic batch dim (a shape branch specialises it), the "
                 "dynamo exporter silently retries with torch.export's suggested fixes (_capture_strategies: "
                 "refine_dynamic_shapes_from_suggested_fixes): the dim becomes static (B = 3), and onnxruntime "
                 "refuses inputs of another batch ('Got invalid dimensions for input'), or gets a range (B >= 4) "
                 "that the ONNX model never checks, so inputs outside it take the example's branch; torch.export "
                 "refuses both. Provenance: https://github.com/pytorch/pytorch/pull/134976; found by conformance "
                 "2026-11-28 (torch 2.13.0), the clean torch campaigns (infer mode) (case cd397b23695d)."),
        example=Failure('run',
                        error_types=('InvalidArgument',),
                        message="[ONNXRuntimeError] : 2 : INVALID_ARGUMENT : Got invalid dimensions for input: x0.2",
                        constructs=('if_shape',)),
    ),
    known_bug(
        "dynamo_exporter.refined_range",
        reason=("Where torch.export refuses the dynamic batch dim, the dynamo exporter silently retries with a "
                "batch range the ONNX model never checks"),
        phases=('compare',),
        divergences=('value', 'shape', 'nonfinite'),
        versions=">=2.5",
        constructs=('if_shape',),
        issue="https://github.com/pytorch/pytorch/pull/134976",
        found="2026-11-28 (torch 2.13.0)",
        details=("known bug: where torch.export refuses the dynamic batch dim (a shape branch specialises it), the "
                 "dynamo exporter silently retries with torch.export's suggested fixes (_capture_strategies: "
                 "refine_dynamic_shapes_from_suggested_fixes): the dim becomes static (B = 3), and onnxruntime "
                 "refuses inputs of another batch ('Got invalid dimensions for input'), or gets a range (B >= 4) "
                 "that the ONNX model never checks, so inputs outside it take the example's branch; torch.export "
                 "refuses both. Provenance: https://github.com/pytorch/pytorch/pull/134976; found by conformance "
                 "2026-11-28 (torch 2.13.0), the clean torch campaigns (infer mode) (case a99c77658fab)."),
        example=Failure('compare', divergences=(('value', '[0]'),), constructs=('if_shape',), ops=('floor_div',)),
    ),
    known_bug(
        "dynamo_exporter.ldexp_mul_types",
        reason=("The dynamo exporter writes torch.ldexp of an integer tensor by a float16 one as a Mul of float16 "
                "and float32, which onnxruntime refuses"),
        errors=('Fail',),
        message=r"Type parameter \(T\) of Optype \(Mul\) bound to different types",
        versions=">=2.13",
        ops=('ldexp',),
        script="torch_ldexp_integer_float16_dtype.py",
        found="2026-11-28 (torch 2.13.0)",
        details=("known bug: the dynamo exporter writes torch.ldexp of an integer tensor by a float16 one as a Mul "
                 "of float16 and float32, which onnxruntime refuses ('Type parameter (T) of Optype (Mul) bound to "
                 "different types'); the same decomposition as `torch_compile.ldexp_decomposition_dtype`. "
                 "Provenance: found by conformance 2026-11-28 (torch 2.13.0), the clean torch campaigns (; case "
                 "d4a84b8aba7b); cases/standalone/torch_ldexp_integer_float16_dtype.py."),
        example=Failure('convert',
                        error_types=('Fail',),
                        message=("Type Error: Type parameter (T) of Optype (Mul) bound to different types (tensor"
                                 "(float16) and tensor(float)"),
                        ops=('ldexp',)),
    ),
    writes_wrong(
        "dynamo_exporter.floor_divide",
        reason=("onnxscript's torchlib writes a floating floor_divide as Floor(Div(a, b)), which gives +-inf where "
                "torch gives NaN and rounds some quotients otherwise"),
        phases=('compare',),
        divergences=('nonfinite',),
        versions=">=2.5",
        ops=('floor_div', 'floor_divide_scalar', 'ceil_div'),
        issue="https://github.com/microsoft/onnxscript/issues/989",
        case="paddle-onnx-floor-divide-infinite.json",
        found="2026-11-28 (torch 2.13.0)",
        details=("known bug: onnxscript's torchlib writes a floating aten.floor_divide as Floor(Div(a, b)): an "
                 "infinite dividend gives +-inf where torch gives NaN (a quotient just below an integer also rounds "
                 "up, unnamed); inductor's `inductor.inductor_floor_divide`. Provenance: "
                 "https://github.com/microsoft/onnxscript/issues/989; found by conformance 2026-11-28 (torch "
                 "2.13.0) transplanting cases/paddle-onnx-floor-divide-infinite.json."),
        example=Failure('compare', divergences=(('nonfinite', '[0]'),), ops=('add', 'floor_div')),
    ),
    known_bug(
        "dynamo_exporter.diagonal_int8",
        reason=("onnxscript's torchlib writes torch.diagonal as a masked ReduceSum in the input's dtype, which "
                "ReduceSum does not take for int8 or int16"),
        errors=('InvalidGraph',),
        message=r"Type 'tensor\(u?int(8|16)\)' of input parameter \([^)]*\) of operator \(ReduceSum\)",
        versions=">=2.5",
        ops=('diagonal',),
        case="paddle-to-static-diagonal-int8.json",
        found="2026-11-28 (torch 2.13.0)",
        details=("known bug: onnxscript's torchlib writes torch.diagonal as a Mul by an EyeLike mask, then a "
                 "ReduceSum in the input's dtype, which ReduceSum does not take for int8 or int16 (int32, int64 and "
                 "floats), and onnxruntime refuses the model ('Type 'tensor(int8)' of input parameter ... of "
                 "operator (ReduceSum) ... is invalid'); int32 and int64 run. Provenance: "
                 "https://onnx.ai/onnx/operators/onnx__ReduceSum.html (T: no int8, int16); found by conformance "
                 "2026-11-28 (torch 2.13.0) transplanting cases/paddle-to-static-diagonal-int8.json."),
        example=Failure('convert',
                        error_types=('InvalidGraph',),
                        message=("Load model from /tmp/m.onnx failed:This is an invalid model. Type Error: Type '"
                                 "tensor(int8)' of input parameter (val_14) of operator (ReduceSum) in node (node"
                                 "_ReduceSum_16) is invalid."),
                        ops=('diagonal',)),
    ),
    known_bug(
        "dynamo_exporter.openvino_dynamo_refined_shapes",
        reason=("Where torch.export refuses the dynamic batch dim, the dynamo exporter silently retries with a "
                "static batch that OpenVINO refuses for others"),
        phases=('run',),
        errors=('RuntimeError',),
        message="The input tensor size is not equal to the model input type",
        versions=">=2.5",
        constructs=('if_shape',),
        paths=('torch.onnx_dynamo_openvino',),
        issue="https://github.com/pytorch/pytorch/pull/134976",
        found="2026-11-28 (torch 2.13.0)",
        details=("known bug: where torch.export refuses the dynamic batch dim (a shape branch specialises it), the "
                 "dynamo exporter silently retries with torch.export's suggested fixes (_capture_strategies: "
                 "refine_dynamic_shapes_from_suggested_fixes): the dim becomes static (B = 3), and onnxruntime "
                 "refuses inputs of another batch ('Got invalid dimensions for input'), or gets a range (B >= 4) "
                 "that the ONNX model never checks, so inputs outside it take the example's branch; torch.export "
                 "refuses both. Provenance: https://github.com/pytorch/pytorch/pull/134976; found by conformance "
                 "2026-11-28 (torch 2.13.0), the clean torch campaigns (infer mode) (case cd397b23695d)."),
        example=Failure('run',
                        error_types=('RuntimeError',),
                        message="The input tensor size is not equal to the model input type: got [2] expecting [3].",
                        constructs=('if_shape',)),
    ),
)
