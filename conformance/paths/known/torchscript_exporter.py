"""The TorchScript ONNX exporter (``torch.onnx.export(dynamo=False)``): what it refuses and writes wrong (some records
name both ONNX exporters).
"""

from conformance.paths.known.factories import Failure, documented, known_bug, refusal, refuses_with, writes_wrong

#: The TorchScript exporter's ONNX, on onnxruntime and on OpenVINO.
EXPORTER_PATHS = ('torch.onnx_torchscript', 'torch.onnx_torchscript_openvino')

RECORDS = (
    known_bug(
        "torchscript_exporter.scatter_src_larger",
        reason=("Both ONNX exporters write torch.scatter with a src larger than index as a ScatterElements whose "
                "updates do not have the indices' shape"),
        phases=('run',),
        errors=('InvalidArgument',),
        message="Indices vs updates dimensions differs",
        versions=">=2.13",
        ops=('scatter', 'scatter_reduce'),
        issue="https://github.com/onnx/onnx/issues/4672",
        found="2026-11-28 (torch 2.13.0, openvino 2026.4.1)",
        details=("known bug: both ONNX exporters write torch.scatter(x, dim, index, src) as ScatterElements(x, "
                 "index, src) without slicing src to index's shape: torch takes a src larger than index (it reads "
                 "src only where index has elements), ONNX ScatterElements needs updates of indices' shape, so "
                 "onnxruntime refuses to run it ('Indices vs updates dimensions differs'; onnx/onnx#4672); "
                 "torch.scatter_reduce alike (case 15efcb5e7f86 of the torch campaign seed 0 of 2026-11-29). "
                 "Provenance: https://github.com/onnx/onnx/issues/4672; found by conformance 2026-11-28 (torch "
                 "2.13.0, openvino 2026.4.1), the torch deployment campaign's rerun (cases 324162c57334, "
                 "b6444de759a9)."),
        example=Failure('run',
                        error_types=('InvalidArgument',),
                        message="Indices vs updates dimensions differs",
                        ops=('scatter',)),
    ),
    known_bug(
        "torchscript_exporter.int8_pow",
        reason="Both ONNX exporters write x ** 2 of an int8 tensor as an ONNX Pow on int8, a type Pow does not take",
        errors=('InvalidGraph',),
        message=r"Type 'tensor\(u?int(8|16)\)' of input parameter \([^)]*\) of operator \(Pow\)",
        versions=">=2.13",
        ops=('int_pow',),
        steer=('dtype=int8', 'dtype=uint8'),
        case="tf-onnx-int8-pow.json",
        found="2026-11-28 (torch 2.13.0)",
        details=("known bug: both ONNX exporters write x ** 2 of an int8 tensor as an ONNX Pow on int8, a type Pow "
                 "does not take (int32, int64 and floats), with no cast around it, and onnxruntime refuses the "
                 "model ('Type 'tensor(int8)' of input parameter ... of operator (Pow) ... is invalid'); tf2onnx "
                 "does the same. Provenance: https://onnx.ai/onnx/operators/onnx__Pow.html (T: int32, int64, "
                 "floats); found by conformance 2026-11-28 (torch 2.13.0) transplanting cases/tf-onnx-int8-pow.json."),
        example=Failure('convert',
                        error_types=('InvalidGraph',),
                        message="Type 'tensor(int8)' of input parameter () of operator (Pow)",
                        ops=('int_pow',)),
    ),
    known_bug(
        "torchscript_exporter.float_kwarg_input",
        reason=("The TorchScript exporter exports a float keyword argument used in tensor arithmetic as an unnamed "
                "graph input"),
        errors=('UnknownGraphInputs',),
        versions=">=2.13",
        paths=EXPORTER_PATHS,
        case="torch-onnx-torchscript-float-kwarg-exported-as-input.json",
        found="2026-11-21 (torch 2.13.0)",
        details=("known bug: the TorchScript exporter exports a float keyword argument used in tensor arithmetic "
                 "(`x * alpha`) as an unnamed graph input ('onnx::Cast_N') instead of hard-coding it as it "
                 "documents for non-tensor arguments, so the model cannot run on the model's own inputs. "
                 "Provenance: found by conformance 2026-11-21 (torch 2.13.0); "
                 "cases/torch-onnx-torchscript-float-kwarg-exported-as-input.json."),
        example=Failure('convert',
                        error_types=('UnknownGraphInputs', 'RuntimeError', 'Exception'),
                        message="ONNX graph has inputs ['onnx::Cast_1'] that are not model inputs ['x0']"),
    ),
    refusal(
        "torchscript_exporter.unsupported_operator",
        reason=("The TorchScript ONNX exporter has no symbolic for some aten operators, or some of their arguments, "
                "at its opset, and says so"),
        errors=('UnsupportedOperatorError', 'SymbolicValueError', 'OnnxExporterError'),
        message=("is not supported|Unsupported: ONNX export of operator|ONNX does not support|ONNX export does NOT "
                 "support"),
        versions=">=2.0",
        paths=EXPORTER_PATHS,
        reference="https://pytorch.org/docs/stable/onnx_torchscript_supported_aten_ops.html",
        details=("the TorchScript ONNX exporter has no symbolic for some aten operators, or some of their "
                 "arguments, at its opset, and says so (aten::asinh, aten::expm1, aten::logaddexp, aten::trunc "
                 "among this suite's ops; adaptive pooling to an output size that does not divide the input's, "
                 "scatter_reduce with include_self=False or 'mean', sort with an out parameter, bitwise or/and/xor "
                 "of integers: 'Unsupported: ONNX export of operator ...', 'ONNX does not support ...', 'ONNX "
                 "export does NOT support exporting bitwise OR for non-boolean input values'). Provenance: "
                 "https://pytorch.org/docs/stable/onnx_torchscript_supported_aten_ops.html."),
        example=Failure('convert', error_types=('UnsupportedOperatorError',), message="is not supported"),
    ),
    known_bug(
        "torchscript_exporter.int_keyed_dict",
        reason="The TorchScript ONNX exporter hands forward a dict input keyed by ints with its keys made 0-d tensors",
        errors=('KeyError',),
        message=r"^-?\d+$",
        versions=">=2.13",
        paths=EXPORTER_PATHS,
        case="torch-onnx-torchscript-int-keyed-dict.json",
        found="2026-11-23 (torch 2.13.0)",
        details=("known bug: the TorchScript ONNX exporter hands forward a dict input keyed by ints with its keys "
                 "made 0-d tensors (tensor(0), tensor(1)), so `feats[0]` raises KeyError (torch.jit.trace, "
                 "torch.export and the dynamo exporter keep the int keys). Provenance: found by conformance "
                 "2026-11-23 (torch 2.13.0); cases/torch-onnx-torchscript-int-keyed-dict.json."),
        example=Failure('convert', error_types=('KeyError',), message="1"),
    ),
    documented(
        "torchscript_exporter.train_mode_exported_eval",
        reason=("torch.onnx.export(dynamo=False) exports in inference mode by default, so batch norm and dropout in "
                "train() compute as in eval()"),
        phases=('compare',),
        divergences=('value', 'nonfinite'),
        versions=">=2.0",
        constructs=('train_mode',),
        ops=('batch_norm', 'dropout'),
        paths=EXPORTER_PATHS,
        reference="https://pytorch.org/docs/stable/onnx_torchscript.html#torch.onnx.export",
        details=("torch.onnx.export(dynamo=False) exports in inference mode by default (training=TrainingMode.EVAL, "
                 "as documented): a model in train() with batch norm or dropout is exported with batch norm on its "
                 "running statistics and dropout off, so it computes another function than the eager model in "
                 "train() (TrainingMode.PRESERVE keeps the mode). Provenance: "
                 "https://pytorch.org/docs/stable/onnx_torchscript.html#torch.onnx.export (training)."),
        example=Failure('compare', divergences=(('value', '[0]'),), constructs=('train_mode',), ops=('batch_norm',)),
    ),
    writes_wrong(
        "torchscript_exporter.unbatched_adaptive_pool",
        reason=("The TorchScript exporter writes adaptive pooling to output size 1 as GlobalAveragePool / "
                "GlobalMaxPool, which take dims 0 and 1 for N and C"),
        phases=('compare',),
        divergences=('shape',),
        versions=">=2.13",
        ops=('adaptive_avg_pool2d', 'adaptive_avg_pool3d', 'adaptive_max_pool2d'),
        paths=EXPORTER_PATHS,
        case="torch-onnx-torchscript-unbatched-adaptive-pool-shape.json",
        found="2026-11-27 (torch 2.13.0)",
        details=("known bug: the TorchScript exporter writes adaptive pooling to output size 1 as GlobalAveragePool "
                 "/ GlobalMaxPool, which take dims 0 and 1 for N and C: an unbatched input (C, H, W to "
                 "adaptive_avg_pool2d, C, D, H, W to adaptive_avg_pool3d) is pooled over one dim fewer, and the "
                 "output has the wrong shape ([1, 2, 1, 1] where eager gives [1, 1, 1, 1]); onnxscript fixed the "
                 "same for the dynamo exporter's avg_pool (microsoft/onnxscript#2646). Provenance: found by "
                 "conformance 2026-11-27 (torch 2.13.0); "
                 "cases/torch-onnx-torchscript-unbatched-adaptive-pool-shape.json."),
        example=Failure('compare', divergences=(('shape', '[0]'),), ops=('adaptive_avg_pool2d',)),
    ),
    writes_wrong(
        "torchscript_exporter.floor_divide_truncates",
        reason=("The TorchScript exporter writes a // b as Div, then a Cast to int64 and back, which truncates "
                "toward zero where torch floors"),
        phases=('compare',),
        divergences=('value', 'nonfinite'),
        versions=">=2.0",
        ops=('floor_div', 'floor_divide_scalar', 'ceil_div'),
        paths=EXPORTER_PATHS,
        issue="https://github.com/pytorch/pytorch/issues/78442",
        case="torch-onnx-torchscript-floor-divide-nan.json",
        details=("known bug: the TorchScript exporter writes a // b as Div, then a Cast to int64 and back: it "
                 "truncates toward zero where torch floors (negative quotients), and a NaN or infinite quotient "
                 "becomes -9.2e18 (`torchscript_exporter.trunc_div_nan` is the same Cast under a trunc division). "
                 "Provenance: https://github.com/pytorch/pytorch/issues/78442; "
                 "cases/torch-onnx-torchscript-floor-divide-nan.json."),
        example=Failure('compare', divergences=(('nonfinite', '[0]'),), ops=('floor_div',)),
    ),
    writes_wrong(
        "torchscript_exporter.trunc_div_nan",
        reason=("The TorchScript exporter writes torch.div(a, b, rounding_mode='trunc') of floats as Div, then a Cast "
                "to int64 and back: a NaN quotient becomes -9.2e18"),
        phases=('compare',),
        divergences=('nonfinite',),
        versions=">=2.0",
        ops=('trunc_div',),
        paths=('torch.onnx_torchscript',),
        issue="https://github.com/pytorch/pytorch/issues/78442",
        found="2026-11-29 (torch 2.13.0)",
        details=("known bug: the trunc face of `torchscript_exporter.floor_divide_truncates`: torch.div(a, b, "
                 "rounding_mode='trunc') of float tensors is written as Div, then a Cast to int64 and back, so inf / "
                 "inf (NaN in torch) comes back -9.2e18. Provenance: https://github.com/pytorch/pytorch/issues/78442 "
                 "(the same Cast); found by conformance 2026-11-29 (torch 2.13.0), the onnx_torchscript campaign "
                 "seed 1 (case effa0a550f52, reduced by conformance triage to that division)."),
        example=Failure('compare', divergences=(('nonfinite', '[0]'),), ops=('trunc_div',)),
    ),
    known_bug(
        "torchscript_exporter.reshape_zero_dim",
        reason=("The TorchScript exporter writes x.reshape(shape) of a static shape holding a 0 without "
                "allowzero=1, so the 0 copies the input's dim"),
        phases=('run',),
        errors=('Fail',),
        message="The input tensor cannot be reshaped to the requested shape",
        versions=">=2.13",
        ops=('reshape_empty',),
        paths=EXPORTER_PATHS,
        found="2026-11-28 (torch 2.13.0, openvino 2026.4.1)",
        details=("known bug: the TorchScript exporter writes x.reshape(shape) of a static shape holding a 0 (an "
                 "empty tensor) as an ONNX Reshape without allowzero=1, where a 0 means 'copy the input's dim': "
                 "onnxruntime refuses to run it ('The input tensor cannot be reshaped to the requested shape': [3, "
                 "1, 1, 0, 3] to [3] where torch asked for [0]); the dynamo exporter's file runs. Provenance: found "
                 "by conformance 2026-11-28 (torch 2.13.0, openvino 2026.4.1), the torch deployment campaign's "
                 "rerun (cases dc891e94d3f9, c56f0e4bf17a)."),
        example=Failure('run',
                        error_types=('Fail',),
                        message="The input tensor cannot be reshaped to the requested shape",
                        ops=('reshape_empty',)),
    ),
    known_bug(
        "torchscript_exporter.reshape_empty_sigfpe",
        reason=("The TorchScript exporter dies of SIGFPE in the ONNX shape inference of the Reshape it writes for "
                "x.reshape(0, 2) of an empty x"),
        phases=('crash',),
        errors=('SIGFPE',),
        versions=">=2.13",
        ops=('reshape_empty',),
        paths=EXPORTER_PATHS,
        issue="https://github.com/pytorch/pytorch/issues/144144",
        script="torch_onnx_torchscript_reshape_empty_sigfpe.py",
        found="2026-11-28 (torch 2.13.0, openvino 2026.4.1)",
        details=("known bug: the TorchScript exporter dies of SIGFPE (an integer division by zero) in the ONNX "
                 "shape inference of the Reshape it writes for x.reshape(0, 2) of an empty x of shape [0, 2] (or "
                 "[0, 2, 3, 3]; _jit_pass_onnx_node_shape_type_inference, called from the reshape symbolic); [3, 0] "
                 "to (0, 2) exports (pytorch#144144, #110056: the same signal in the same pass). Provenance: "
                 "https://github.com/pytorch/pytorch/issues/144144; found by conformance 2026-11-28 (torch 2.13.0, "
                 "openvino 2026.4.1), the torch deployment campaign's rerun (cases 436c75c01580, 9e9cd37c79a6); "
                 "cases/standalone/torch_onnx_torchscript_reshape_empty_sigfpe.py."),
        example=Failure('crash', error_types=('SIGFPE',), ops=('reshape_empty',)),
    ),
    writes_wrong(
        "torchscript_exporter.roll_past_size",
        reason=("The TorchScript exporter writes torch.roll(x, shift, dim) as two Slices at -shift, which does not "
                "wrap a shift larger than the dim"),
        phases=('compare',),
        divergences=('value',),
        versions=">=2.13",
        ops=('roll',),
        paths=EXPORTER_PATHS,
        found="2026-11-28 (torch 2.13.0, openvino 2026.4.1)",
        details=("known bug: the TorchScript exporter writes torch.roll(x, shift, dim) as two Slices at -shift, "
                 "which does not wrap a shift larger than the dim (torch.roll(x, 7, 0) of 5 elements is a roll by 2 "
                 "in torch; the exported model returns x unrolled). Provenance: found by conformance 2026-11-28 "
                 "(torch 2.13.0, openvino 2026.4.1), the torch deployment campaign's rerun (cases 0dec4fb471c3, "
                 "4058b5cfa331)."),
        example=Failure('compare', divergences=(('value', '[0]'),), ops=('roll',)),
    ),
    known_bug(
        "torchscript_exporter.unbatched_avg_pool",
        reason=("The TorchScript exporter writes avg_pool of an unbatched input as an AveragePool whose kernel and "
                "strides lack a dim, which onnxruntime refuses"),
        errors=('Fail',),
        message=(r"Op \(AveragePool\) \[ShapeInferenceError\] (?:Attribute strides has incorrect size|Input tensor "
                 "must have at least 3 dimensions)"),
        versions=">=2.13",
        ops=('avg_pool1d', 'avg_pool2d', 'avg_pool3d'),
        steer=("avg_pool1d:rank=2", "avg_pool2d:rank=3", "avg_pool3d:rank=4"),
        paths=EXPORTER_PATHS,
        case="torch-onnx-torchscript-unbatched-avg-pool3d.json",
        found="2026-11-28 (torch 2.13.0)",
        details=("known bug: the TorchScript exporter writes avg_pool1d / 2d / 3d of an unbatched input (C, L; C, "
                 "H, W; C, D, H, W) as an AveragePool with the kernel and strides of 1 (2, 3) spatial dims over an "
                 "input that ONNX reads as N, C and one spatial dim fewer, and onnxruntime refuses the model "
                 "('Attribute strides has incorrect size'; for 1d 'Input tensor must have at least 3 dimensions'); "
                 "the same family as `torchscript_exporter.unbatched_adaptive_pool`. Provenance: found by "
                 "conformance 2026-11-28 (torch 2.13.0), the clean torch campaigns (infer mode) (cases "
                 "cc8a435f9ca7, f509b270c657); cases/torch-onnx-torchscript-unbatched-avg-pool3d.json."),
        example=Failure('convert',
                        error_types=('Fail',),
                        message=("Load model from /tmp/m.onnx failed:Node (/AveragePool) Op (AveragePool) [ShapeI"
                                 "nferenceError] Attribute strides has incorrect size"),
                        ops=('avg_pool3d', 'tanh')),
    ),
    known_bug(
        "torchscript_exporter.unbatched_max_pool",
        reason=("The TorchScript exporter writes max_pool of an unbatched input as a MaxPool whose kernel, strides and "
                "dilations have a dim too many, which onnxruntime refuses"),
        errors=('Fail',),
        message=(r"Op \(MaxPool\) \[ShapeInferenceError\] (?:Attribute dilations has incorrect size|Input tensor "
                 "must have at least 3 dimensions)"),
        versions=">=2.13",
        ops=('max_pool1d', 'max_pool2d', 'max_pool3d', 'max_pool2d_dilated'),
        steer=("max_pool1d:rank=2", "max_pool2d:rank=3", "max_pool3d:rank=4", "max_pool2d_dilated:rank=3"),
        paths=EXPORTER_PATHS,
        case="torch-onnx-torchscript-unbatched-max-pool3d.json",
        script="torch_onnx_torchscript_unbatched_max_pool.py",
        found="2026-11-29 (torch 2.13.0, onnxruntime 1.31.1)",
        details=("known bug: the TorchScript exporter writes max_pool1d / 2d / 3d of an unbatched input (C, L; C, "
                 "H, W; C, D, H, W) as a MaxPool with the kernel, strides and dilations of 1 (2, 3) spatial dims "
                 "over an input that ONNX reads as N, C and one spatial dim fewer, and onnxruntime refuses the model "
                 "('Attribute dilations has incorrect size'; for 1d 'Input tensor must have at least 3 dimensions'); "
                 "the batched input exports right; the max face of `torchscript_exporter.unbatched_avg_pool`. "
                 "Provenance: found by conformance 2026-11-29 (torch 2.13.0, onnxruntime 1.31.1), the torch "
                 "campaign (seed 0, case 401c31e9a1fd); cases/torch-onnx-torchscript-unbatched-max-pool3d.json, "
                 "cases/standalone/torch_onnx_torchscript_unbatched_max_pool.py."),
        example=Failure('convert',
                        error_types=('Fail',),
                        message=("Load model from /tmp/m.onnx failed:Node (/MaxPool) Op (MaxPool) [ShapeInferenceErr"
                                 "or] Attribute dilations has incorrect size"),
                        ops=('max_pool3d', 'tanh')),
    ),
    writes_wrong(
        "torchscript_exporter.empty_sum_keeps_rank",
        reason=("The TorchScript exporter writes torch.sum(x) of an x with a zero-size dim as a ReduceSum that "
                "keeps the rank"),
        phases=('compare',),
        divergences=('shape',),
        versions=">=2.0",
        ops=('sum_all', 'mean_all'),
        steer=("zero_size=True",),
        paths=EXPORTER_PATHS,
        issue="https://github.com/pytorch/pytorch/pull/58141",
        case="torch-onnx-torchscript-empty-sum-keeps-rank.json",
        found="2026-11-28 (torch 2.13.0)",
        details=("known bug: the TorchScript exporter writes torch.sum(x) / torch.mean(x) of an x with a zero-size "
                 "dim as a ReduceSum (ReduceMean) with keepdims=1 (_handle_reduce_dim_none, pytorch#58141, to dodge "
                 "onnxruntime's refusal of an empty reduction with keepdims=0): the 0-d result comes back as [1, 1, "
                 "1, 1] (as many 1s as x has dims), on onnxruntime and OpenVINO alike. Provenance: "
                 "https://github.com/pytorch/pytorch/pull/58141; found by conformance 2026-11-28 (torch 2.13.0), "
                 "the clean torch campaigns (infer mode) (cases aa9f31ea9831, 2c0f3a4e607c, 18539b040a63, "
                 "fef7549d9330); cases/torch-onnx-torchscript-empty-sum-keeps-rank.json."),
        example=Failure('compare', divergences=(('shape', '[0]'),), ops=('cast', 'sum_all')),
    ),
    writes_wrong(
        "torchscript_exporter.0d_float64_with_scalar",
        reason=("The TorchScript exporter's scalar type promotion turns a 0-d float64 tensor in arithmetic (with a "
                "Python number, or with itself) into float32"),
        phases=('compare',),
        divergences=('dtype',),
        versions=">=2.13",
        ops=('fmod_scalar', 'remainder_scalar', 'mul_scalar', 'add_scalar', 'mul_mixed', 'add', 'sub', 'mul', 'div',
             'pow', 'pow_scalar', 'pow_fraction'),
        steer=("dtype=float64&rank=0",),
        paths=EXPORTER_PATHS,
        case="torch-onnx-torchscript-0d-float64-plus-scalar-float32.json",
        found="2026-11-28 (torch 2.13.0)",
        details=("known bug: the TorchScript exporter's implicit scalar type promotion takes a 0-d float64 tensor "
                 "with a Python number (torch.fmod(x, 1.5), torch.remainder(x, 1.5), x * 1.5, x + 1.5) or with a "
                 "0-d integer tensor (x * n) for scalars and casts it to the default float32: the exported output "
                 "is float32 where torch keeps float64; so is x + x, x - y, x * x, x / y and x ** 0.5 of 0-d float64 "
                 "tensors (a [1]-shaped float64 keeps its dtype; -x and tanh(x) too). Provenance: found by conformance "
                 "2026-11-28 (torch 2.13.0), the clean torch campaigns (infer mode) (cases 56c6b14efc18, "
                 "2bb178fc937b); the tensor-with-tensor face in the onnx_torchscript campaign seed 1 of 2026-11-29 "
                 "(cases 0fe7cd9c3b08, 3a0c09070dce, b11d538c17e3, reduced by conformance triage to `x + x`); "
                 "cases/torch-onnx-torchscript-0d-float64-plus-scalar-float32.json."),
        example=Failure('compare', divergences=(('dtype', '[0]'),), ops=('fmod_scalar',)),
    ),
    known_bug(
        "torchscript_exporter.celu_float16",
        reason=("The TorchScript exporter writes F.celu of a float16 tensor as an ONNX Celu, which is defined for "
                "float32 only, and onnxruntime refuses the model"),
        errors=('InvalidGraph',),
        message=r"Type 'tensor\(float16\)' of input parameter \([^)]*\) of operator \(Celu\)",
        versions=">=2.13",
        ops=('celu',),
        steer=('dtype=float16',),
        paths=EXPORTER_PATHS,
        case="torch-onnx-torchscript-celu-float16.json",
        found="2026-11-28 (torch 2.13.0)",
        details=("known bug: the TorchScript exporter writes F.celu of a float16 tensor as an ONNX Celu, which is "
                 "defined for float32 only, and onnxruntime refuses the model ('Type 'tensor(float16)' of input "
                 "parameter ... of operator (Celu) ... is invalid'); it casts for no op's input types. Provenance: "
                 "https://onnx.ai/onnx/operators/onnx__Celu.html (T: tensor(float)); found by conformance "
                 "2026-11-28 (torch 2.13.0), the clean torch campaigns (infer mode) (case 18ef108a195c); "
                 "cases/torch-onnx-torchscript-celu-float16.json."),
        example=Failure('convert',
                        error_types=('InvalidGraph',),
                        message=("Load model from /tmp/m.onnx failed:This is an invalid model. Type Error: Type '"
                                 "tensor(float16)' of input parameter (x2.1) of operator (Celu) in node (/Celu) i"
                                 "s invalid."),
                        ops=('celu',)),
    ),
    writes_wrong(
        "torchscript_exporter.diagonal_float32",
        reason=("The TorchScript exporter writes torch.diagonal as a Mul by a float32 EyeLike mask, then a "
                "ReduceSum (symbolic_opset13.diagonal)"),
        phases=('compare',),
        divergences=('dtype',),
        versions=">=2.0",
        ops=('diagonal',),
        paths=EXPORTER_PATHS,
        case="paddle-to-static-diagonal-int8.json",
        found="2026-11-28 (torch 2.13.0)",
        details=("known bug: the TorchScript exporter writes torch.diagonal as a Mul by a float32 EyeLike mask, "
                 "then a ReduceSum (symbolic_opset13.diagonal): the diagonal of any tensor but a float32 one comes "
                 "back float32 (int8, int32, int64, float16 checked). Provenance: found by conformance 2026-11-28 "
                 "(torch 2.13.0) transplanting cases/paddle-to-static-diagonal-int8.json."),
        example=Failure('compare', divergences=(('dtype', '[0]'),), ops=('diagonal',)),
    ),
    known_bug(
        "torchscript_exporter.diagonal_float64_if",
        reason=("The TorchScript exporter writes torch.diagonal of a float64 tensor with an If declared double that "
                "computes float, which onnxruntime refuses"),
        errors=('Fail',),
        message=r"Op \(If\) \[TypeInferenceError\] Mismatched tensor element type: inferred=float declared=double",
        versions=">=2.0",
        ops=('diagonal',),
        paths=EXPORTER_PATHS,
        case="torch-onnx-torchscript-diagonal-float64-if.json",
        found="2026-11-29 (torch 2.13.0, onnxruntime 1.31.1)",
        details=("known bug: the float64 face of `torchscript_exporter.diagonal_float32`: torch.diagonal of a "
                 "float64 tensor (any offset and dims: [3, 3] with offsets 0, 1, -1 checked) is written with the "
                 "float32 EyeLike mask inside an If whose output is declared double, and onnxruntime refuses the "
                 "model ('[TypeInferenceError] Mismatched tensor element type: inferred=float declared=double'); "
                 "float32 and int32 load (int32 comes back float32). Provenance: found by conformance 2026-11-29 "
                 "(torch 2.13.0), the onnx_torchscript campaign seed 1 (cases 17a826d0840e, 1944b5af8a4d, "
                 "4e9221fa752c, dd409cf7ea6e, reduced by conformance triage to `torch.diagonal(x, 1, 1, 0)`); "
                 "cases/torch-onnx-torchscript-diagonal-float64-if.json."),
        example=Failure('convert',
                        error_types=('Fail',),
                        message=("Load model from /tmp/m.onnx failed:Node (/If) Op (If) [TypeInferenceError] "
                                 "Mismatched tensor element type: inferred=float declared=double"),
                        ops=('diagonal',)),
    ),
    known_bug(
        "torchscript_exporter.torchscript_view_writes",
        reason=("The TorchScript ONNX exporter loses an in-place write through a view, or computes the view before "
                "a write to its base"),
        phases=('compare',),
        versions=">=2.13",
        constructs=('view_write', 'base_write', 'base_setitem'),
        paths=('torch.onnx_torchscript',),
        issue="https://github.com/pytorch/pytorch/issues/80271",
        case="torch-onnx-slice-variable-write.json",
        details=("known bug: the TorchScript ONNX exporter loses an in-place write through a view (narrow, select, "
                 "a slice, transpose...) or computes the view before a write to its base: the exported graph "
                 "returns the values from before the write. Provenance: "
                 "https://github.com/pytorch/pytorch/issues/80271; cases/torch-onnx-slice-variable-write.json."),
        example=Failure('compare', divergences=(('value', '[0]'),), constructs=('view_write',)),
    ),
    writes_wrong(
        "torchscript_exporter.index_add_repeated_index",
        reason=("The TorchScript ONNX exporter writes torch.index_add as a scatter without reduction: a repeated "
                "index keeps one of its rows instead of their sum"),
        ops=('index_add',),
        divergences=('value',),
        versions=">=2.13",
        paths=('torch.onnx_torchscript', 'torch.onnx_torchscript_openvino'),
        case="torch-onnx-index-add-repeated-index.json",
        script="torch_onnx_index_add_duplicates.py",
        found="2026-11-29 (torch 2.13.0, onnxruntime 1.31.1)",
        details=("known bug: torch.onnx.export(dynamo=False) writes x.index_add(dim, index, s) as an ONNX "
                 "ScatterElements (or ScatterND) without reduction='add', so where index repeats a position the "
                 "file keeps one of the rows added there (scatter with reduction 'none' leaves the order of "
                 "duplicates undefined) where torch adds them all: index [1, 1] into x [2, 3, 4] differs, index "
                 "[0, 1] agrees; OpenVINO reading the same file differs too. Provenance: found by conformance "
                 "2026-11-29 (torch 2.13.0, onnxruntime 1.31.1), "
                 "the torch campaign seed 0 (cases ba3c7ef3c1b4, ed5ecc9b40a4, 34468443d9d6, 703a1267b236); "
                 "cases/torch-onnx-index-add-repeated-index.json, "
                 "cases/standalone/torch_onnx_index_add_duplicates.py."),
        example=Failure('compare', divergences=(('value', '[7]'),), ops=('index_add', 'var')),
    ),
    known_bug(
        "torchscript_exporter.openvino_scatter_src_larger",
        reason=("Both ONNX exporters write torch.scatter with a src larger than index as a ScatterElements that "
                "OpenVINO refuses to compile"),
        errors=('RuntimeError',),
        message=(r"Indices and updates input shapes are required to be equal|"
                 r"indices_shape\.compatible\(updates_shape\)"),
        versions=">=2.13",
        ops=('scatter', 'scatter_reduce'),
        paths=('torch.onnx_dynamo_openvino', 'torch.onnx_torchscript_openvino'),
        issue="https://github.com/onnx/onnx/issues/4672",
        found="2026-11-28 (torch 2.13.0, openvino 2026.4.1)",
        details=("known bug (both ONNX exporters), as OpenVINO meets it: torch.scatter with a src larger than index "
                 "is written as ScatterElements with updates of src's shape, which OpenVINO's ONNX reader refuses "
                 "('Indices and updates input shapes are required to be equal', or for a scatter_reduce "
                 "'indices_shape.compatible(updates_shape)' failed); onnxruntime refuses it at run time. Provenance: "
                 "https://github.com/onnx/onnx/issues/4672; found by conformance 2026-11-28 "
                 "(torch 2.13.0, openvino 2026.4.1), the torch deployment campaign's rerun (cases 324162c57334, "
                 "b6444de759a9)."),
        example=Failure('convert',
                        error_types=('RuntimeError',),
                        message="Indices and updates input shapes are required to be equal",
                        ops=('scatter',)),
    ),
    writes_wrong(
        "torchscript_exporter.openvino_reshape_zero_dim",
        reason=("The TorchScript exporter writes a reshape to a shape holding a 0 without allowzero=1, so OpenVINO "
                "copies the input's dim for the 0"),
        phases=('compare',),
        divergences=('shape',),
        versions=">=2.13",
        ops=('reshape_empty',),
        paths=('torch.onnx_torchscript_openvino',),
        found="2026-11-28 (torch 2.13.0, openvino 2026.4.1)",
        details=("known bug (the TorchScript exporter), as OpenVINO meets it: a reshape of an empty tensor to a "
                 "shape holding a 0 is written as an ONNX Reshape without allowzero=1, and OpenVINO copies the "
                 "input's dim for the 0 ([3, 1, 1, 0, 3] reshaped to [0] comes out [3]) where onnxruntime refuses "
                 "the model. Provenance: found by conformance 2026-11-28 (torch 2.13.0, openvino 2026.4.1), the "
                 "torch deployment campaign's rerun (cases dc891e94d3f9, c56f0e4bf17a)."),
        example=Failure('compare', divergences=(('shape', '[0]'),), ops=('reshape_empty',)),
    ),
    refuses_with(
        "torchscript_exporter.rows_loop_unrolled",
        reason=("The TorchScript exporter traces a loop over a tensor's rows at the example's row count: an input "
                "with fewer rows fails the Split"),
        phases=('run',),
        errors=('InvalidArgument', 'Fail'),
        message=(r"running Split node(?s:.*)(Split size \d+ exceeds the remaining size of the selected axis|Cannot "
                 r"split using values in 'split' attribute)"),
        constructs=('for_rows',),
        paths=('torch.onnx_torchscript',),
        reference="https://pytorch.org/docs/stable/onnx_torchscript.html#tracing-vs-scripting",
        found="2026-11-29 (torch 2.13.0, onnxruntime 1.31.1)",
        details=("torch.onnx.export(dynamo=False) traces forward on the example: `for r in x` over a tensor's rows "
                 "is unrolled at the example's batch (an ONNX Split into that many rows), so an input of another "
                 "batch fails in onnxruntime ('Split size 1 exceeds the remaining size of the selected axis, 0'; "
                 "with more rows: 'Cannot split using values in 'split' attribute'); "
                 "the exporter's documentation says tracing records the example's control flow only. Provenance: "
                 "https://pytorch.org/docs/stable/onnx_torchscript.html#tracing-vs-scripting; torch seed 2 "
                 "(TorchScript paths), cases 41e93562d992, a54a29ddf97b, b01802ed0f14 (batch inputs)."),
        example=Failure('run', error_types=('InvalidArgument',),
                        message="Non-zero status code returned while running Split node. Name:'/Split' Status "
                                "Message: Invalid value in 'split'. Split size 1 exceeds the remaining size of the "
                                "selected axis, 0.",
                        constructs=('for_rows', 'list_value')),
    ),
    writes_wrong(
        "torchscript_exporter.cosine_similarity_1d_shape",
        reason=("The TorchScript exporter writes F.cosine_similarity of 1-d tensors over dim 0 with a result of shape "
                "[1] where torch's is 0-d"),
        phases=('compare',),
        divergences=('shape',),
        versions=">=2.13",
        ops=('cosine_similarity',),
        paths=EXPORTER_PATHS,
        case="torch-onnx-torchscript-cosine-similarity-1d-shape.json",
        found="2026-11-29 (torch 2.13.0, onnxruntime 1.31.1)",
        details=("known bug: F.cosine_similarity(x, x, 0) of a 1-d x ([1] or [2]) is 0-d in torch; the TorchScript "
                 "exporter's graph returns shape [1] (its value right). Provenance: found by conformance 2026-11-29 "
                 "(torch 2.13.0), the onnx_torchscript campaign seed 1 (case dfc06353ba41, reduced by conformance "
                 "triage to that call); cases/torch-onnx-torchscript-cosine-similarity-1d-shape.json."),
        example=Failure('compare', divergences=(('shape', '[0]'),), ops=('cosine_similarity',)),
    ),
    documented(
        "torchscript_exporter.data_loop_unrolled",
        reason=("The TorchScript exporter traces `for i in range(n)` with n from a shape at the example's n: an input "
                "of another batch runs the example's iterations"),
        phases=('compare',),
        divergences=('value', 'shape', 'structure'),
        constructs=('for_data',),
        paths=EXPORTER_PATHS,
        reference="https://pytorch.org/docs/stable/onnx_torchscript.html#tracing-vs-scripting",
        found="2026-11-29 (torch 2.13.0, onnxruntime 1.31.1)",
        details=("torch.onnx.export(dynamo=False) traces forward on the example: `n = x.shape[0]; l = [x] * n; for i "
                 "in range(n): l[i] = x * i` is unrolled at the example's n (range() takes the traced size as a "
                 "Python int, with a TracerWarning), so an input of another batch computes the example's iterations "
                 "(the mean of the stacked list comes out 0 where eager's is not); the exporter's documentation "
                 "says tracing records the example's control flow only. Provenance: "
                 "https://pytorch.org/docs/stable/onnx_torchscript.html#tracing-vs-scripting; the onnx_torchscript "
                 "campaign seed 1 of 2026-11-29 (cases 8d84e326ec13, 468919e6e087, batch inputs, reduced by "
                 "conformance triage to that loop)."),
        example=Failure('compare', divergences=(('value', '[0]'),), constructs=('for_data', 'list_value')),
    ),
)
