"""paddle2onnx (``paddle.onnx.export``): what it refuses and writes wrong.
"""

from conformance.paths.known.factories import Failure, known_bug, refuses_with, writes_wrong

RECORDS = (
    refuses_with(
        "paddle2onnx.unsupported_op",
        reason=("paddle2onnx has no converter for some Paddle operators (pd_op.amax, pd_op.amin) and aborts the "
                "process without naming them"),
        errors=('Paddle2OnnxFailed',),
        message="Due to the unsupported operators, the conversion is aborted",
        versions=">=2.0",
        package="paddle2onnx",
        reference="https://github.com/PaddlePaddle/Paddle2ONNX/blob/develop/docs/zh/op_list.md",
        details=("paddle2onnx has no converter for some Paddle operators (pd_op.amax, pd_op.amin among this suite's "
                 "ops): it aborts the process without naming them. Provenance: "
                 "https://github.com/PaddlePaddle/Paddle2ONNX/blob/develop/docs/zh/op_list.md."),
        example=Failure('convert',
                        error_types=('Paddle2OnnxFailed',),
                        message="Due to the unsupported operators, the conversion is aborted"),
    ),
    known_bug(
        "paddle2onnx.full_mean",
        reason="paddle2onnx cannot convert a mean over all elements (x.mean(), pd_op.mean without an axis)",
        errors=('Paddle2OnnxFailed',),
        message=r"Can not get input 'axis\(dim\)' value",
        versions=">=2.0",
        package="paddle2onnx",
        found="2026-11-21 (paddle2onnx 2.1.0)",
        details=("known bug: paddle2onnx cannot convert a mean over all elements (x.mean(), pd_op.mean without an "
                 "axis): it aborts the process with 'Can not get input axis(dim) value'. Provenance: found by "
                 "conformance 2026-11-21 (paddle2onnx 2.1.0)."),
        example=Failure('convert',
                        error_types=('Paddle2OnnxFailed', 'RuntimeError', 'Exception'),
                        message=("paddle2onnx.export was killed by SIGABRT: [ERROR][Paddle2ONNX] Can not get inpu"
                                 "t 'axis(dim)' value. | FatalError: `Process abort signal` is detected by the op"
                                 "erating system."),
                        constructs=('if_tensor',),
                        ops=('tanh',)),
    ),
    known_bug(
        "paddle2onnx.softplus",
        reason="paddle2onnx refuses every softplus, also F.softplus(x) with the defaults it names as supported",
        errors=('Paddle2OnnxFailed',),
        message=r"Only support softplus with beta == 1\.0 and threshold == 20\.0",
        versions=">=2.0",
        package="paddle2onnx",
        found="2026-11-21 (paddle2onnx 2.1.0)",
        details=("known bug: paddle2onnx refuses every softplus, also F.softplus(x) with the defaults it names as "
                 "supported ('Only support softplus with beta == 1.0 and threshold == 20.0'), and aborts the "
                 "process. Provenance: found by conformance 2026-11-21 (paddle2onnx 2.1.0)."),
        example=Failure('convert',
                        error_types=('Paddle2OnnxFailed',),
                        message="Only support softplus with beta == 1.0 and threshold == 20.0"),
    ),
    known_bug(
        "paddle2onnx.interpolate_scale",
        reason=("paddle2onnx cannot read the scale of F.interpolate(x, scale_factor=...) (bilinear, trilinear) and "
                "aborts the process"),
        errors=('Paddle2OnnxFailed',),
        message="the 0th elementwise MUST be ir::FloatAttribute",
        versions=">=2.0",
        package="paddle2onnx",
        case="paddle-onnx-interpolate-scale-factor.json",
        found="2026-11-23 (paddle2onnx 2.1.0)",
        details=("known bug: paddle2onnx cannot read the scale of F.interpolate(x, scale_factor=...) (bilinear, "
                 "trilinear) and aborts the process: '(Unimplemented) the 0th elementwise MUST be "
                 "ir::FloatAttribute'; the same resize with size=[...] converts. Provenance: found by conformance "
                 "2026-11-23 (paddle2onnx 2.1.0); cases/paddle-onnx-interpolate-scale-factor.json."),
        example=Failure('convert',
                        error_types=('Paddle2OnnxFailed',),
                        message="the 0th elementwise MUST be ir::FloatAttribute"),
    ),
    known_bug(
        "paddle2onnx.while_cond_rank",
        reason=("For `while i < n and x.max() < t:` paddle2onnx writes a Loop whose condition output is declared "
                "rank 0 but computed rank 1"),
        errors=('Fail',),
        message=r"Op \(Loop\) \[TypeInferenceError\].*Mismatch between number of inferred and declared dimensions",
        versions=">=2.0",
        package="paddle2onnx",
        found="2026-11-21 (paddle2onnx 2.1.0, onnxruntime 1.31)",
        details=("known bug: for `while i < n and x.max() < t:` paddle2onnx writes a Loop whose condition output is "
                 "declared rank 0 but computed rank 1; onnxruntime refuses to load the model. Provenance: found by "
                 "conformance 2026-11-21 (paddle2onnx 2.1.0, onnxruntime 1.31)."),
        example=Failure('convert',
                        error_types=('Fail',),
                        message=("Op (Loop) [TypeInferenceError]Mismatch between number of inferred and declared "
                                 "dimensions")),
    ),
    known_bug(
        "paddle2onnx.if_unique_output_type",
        reason=("paddle2onnx can declare paddle.unique's int64 output yielded by an If as float: onnxruntime refuses "
                "to load the file"),
        errors=('Fail',),
        message=r"Op \(If\) \[TypeInferenceError\].*Type \(tensor\(float\)\) of output arg \(p2o\.yield",
        versions=">=2.1",
        package="paddle2onnx",
        ops=('unique',),
        case="paddle-onnx-if-unique-output-typed-float.json",
        found="2026-11-29 (paddle 3.3.1, paddle2onnx 2.1.0, onnxruntime 1.31.1)",
        details=("known bug: paddle2onnx can declare the output of paddle.unique (int64) yielded by an If (a return "
                 "inside an `if` on a tensor) as tensor(float) in both branch graphs; onnxruntime refuses to load "
                 "the file ('Type (tensor(float)) of output arg (p2o.yield.2) ... does not match expected type "
                 "(tensor(int64))'). Replacing the unique by `x + 0` exports right, and so do small programs that "
                 "yield a unique through an if (with a zero-size or a full int64 input, opsets 9 to 17): the "
                 "trigger beyond unique is not isolated, nor whether the float comes from the static program "
                 "paddle2onnx reads (which types some uniques float32: pir_ast.static_unique_float32). Provenance: "
                 "found by conformance 2026-11-29 (paddle 3.3.1, paddle2onnx 2.1.0), the paddle campaign seed 0 "
                 "(case 94d53761e80c); cases/paddle-onnx-if-unique-output-typed-float.json."),
        example=Failure('convert',
                        error_types=('Fail',),
                        message=("Load model from <path> failed:Node (If.0) Op (If) [TypeInferenceError] Graph "
                                 "attribute inferencing failed: Type Error: Type (tensor(float)) of output arg "
                                 "(p2o.yield.2) of node (Identity.12) does not match expected type (tensor(int64))"),
                        constructs=('if_tensor',),
                        ops=('unique',)),
    ),
    known_bug(
        "paddle2onnx.repeat_interleave_tile",
        reason=("paddle2onnx writes paddle.repeat_interleave(x, 2, axis) as an ONNX Tile whose repeats have another "
                "length than x's rank: onnxruntime refuses to run it"),
        phases=('run',),
        message=r"running Tile node\..*'repeat' input tensor must have the same length as the 'input' tensor",
        versions=">=2.1",
        package="paddle2onnx",
        ops=('repeat_interleave',),
        case="paddle-onnx-repeat-interleave-tile.json",
        found="2026-11-28 (paddle2onnx 2.1.0, onnxruntime 1.31)",
        details=("known bug: paddle2onnx writes paddle.repeat_interleave(x, 2, axis) as an ONNX Tile whose repeats "
                 "have another length than x's rank: onnxruntime refuses to run it (''repeat' input tensor must "
                 "have the same length as the 'input' tensor'). Provenance: found by conformance 2026-11-28 "
                 "(paddle2onnx 2.1.0, onnxruntime 1.31), campaign seed 0, case d6936e4c589c; "
                 "cases/paddle-onnx-repeat-interleave-tile.json."),
        example=Failure('run',
                        error_types=('RuntimeError',),
                        message=("running Tile node.'repeat' input tensor must have the same length as the 'input"
                                 "' tensor"),
                        ops=('repeat_interleave',)),
    ),
    known_bug(
        "paddle2onnx.bfloat16_cast",
        reason=("paddle2onnx writes `paddle.cast(paddle.cast(x, bfloat16), float32)` as ONNX Casts through bfloat16 "
                "at an opset whose Cast does not take it"),
        errors=('InvalidGraph',),
        message=r"Type 'tensor\(bfloat16\)' of input parameter \(\S+\) of operator \(Cast\)",
        versions=">=2.0",
        package="paddle2onnx",
        case="paddle-onnx-bfloat16-cast.json",
        found="2026-11-28 (paddle2onnx 2.1.0)",
        details=("known bug: paddle2onnx writes `paddle.cast(paddle.cast(x, bfloat16), float32)` as ONNX Casts "
                 "through bfloat16 at an opset whose Cast does not take it: onnxruntime refuses to load the model. "
                 "Provenance: found by conformance 2026-11-28 (paddle2onnx 2.1.0), deployment campaign seed 0, case "
                 "3e2de5757a46; cases/paddle-onnx-bfloat16-cast.json."),
        example=Failure('convert',
                        error_types=('InvalidGraph',),
                        message="Type 'tensor(bfloat16)' of input parameter (a) of operator (Cast)"),
    ),
    writes_wrong(
        "paddle2onnx.zero_dim_as_one",
        reason=("paddle2onnx gives a 0-d result shape [1] (the graph declares []) where its converter broadcasts "
                "with a [1] constant or reshapes to [1]"),
        phases=('compare',),
        divergences=('shape',),
        versions=">=2.1",
        package="paddle2onnx",
        ops=('neg', 'mul_scalar', 'sum', 'mean', 'prod', 'int_prod', 'sum_all', 'mean_all'),
        case="paddle-onnx-zero-dim-as-one.json",
        found="2026-11-28 (paddle2onnx 2.1.0)",
        details=("known bug: paddle2onnx gives a 0-d result shape [1] (the graph declares []) where its converter "
                 "broadcasts with a [1] constant or reshapes to [1]: pd_op.scale (`-x`, `x * c`; its factor is a "
                 "[1] full) and a reduction to 0-d (paddle.sum, mean, prod, max over every axis: ReduceX, then "
                 "Reshape [1]); elementwise ops (relu, tanh, ==) keep []. Provenance: found by conformance "
                 "2026-11-28 (paddle2onnx 2.1.0), deployment campaign seed 0, cases e4f9f79e2da3 (int prod), "
                 "f048c8ec7aba (`(-leaky_relu(x)) == ...` of a 0-d x); 2026-11-29, campaign seed 1, 600 s, case "
                 "0ed869854b0a (`paddle.sum(x)` of every axis, the IR's sum_all); "
                 "cases/paddle-onnx-zero-dim-as-one.json."),
        example=Failure('compare', divergences=(('shape', '[0]'),), ops=('neg',)),
    ),
    known_bug(
        "paddle2onnx.reshape_zero_dim",
        reason=("paddle2onnx writes paddle.reshape to a shape holding a 0 without allowzero=1, so onnxruntime "
                "refuses to run it on a zero-size tensor"),
        phases=('run',),
        errors=('Fail',),
        message="Reshape node(?s:.*)The input tensor cannot be reshaped",
        versions=">=2.0",
        package="paddle2onnx",
        ops=('reshape_empty',),
        case="paddle-onnx-reshape-zero-dim.json",
        found="2026-11-28 (paddle2onnx 2.1.0)",
        details=("known bug (paddle2onnx): paddle.reshape of a zero-size tensor to a shape holding a 0 (`reshape(x, "
                 "[2, 0])`) is written as an ONNX Reshape without allowzero=1, where a 0 means 'copy the input's "
                 "dim': onnxruntime refuses to run it ('The input tensor cannot be reshaped to the requested shape. "
                 "Input shape:{0,1,3}, requested shape:{2,1}'). Provenance: found by conformance 2026-11-28 "
                 "(paddle2onnx 2.1.0), deployment campaign seed 0, cases 948c9317549f, 304f381e1824, 63df51d84842; "
                 "cases/paddle-onnx-reshape-zero-dim.json; cf. the tf2onnx and torch.onnx records "
                 "`torchscript_exporter.reshape_zero_dim`."),
        example=Failure('run',
                        error_types=('Fail',),
                        message="Reshape nodeThe input tensor cannot be reshaped",
                        ops=('reshape_empty',)),
    ),
    refuses_with(
        "paddle2onnx.unsqueeze_axes_tensor",
        reason="paddle2onnx refuses an unsqueeze whose axes are a tensor (AxesTensor) and aborts the process",
        errors=('Paddle2OnnxFailed',),
        message="While unsqueeze2 has input AxesTensor, it cannot be exported",
        versions=">=2.1",
        package="paddle2onnx",
        found="2026-11-28 (paddle 3.3.1, paddle2onnx 2.1.0, onnxruntime 1.31.1)",
        details=("paddle2onnx refuses an unsqueeze whose axes are a tensor (AxesTensor, as a static program writes "
                 "`x.unsqueeze(0)` in some programs) and aborts the process. Provenance: found by conformance "
                 "2026-11-28 (paddle 3.3.1, paddle2onnx 2.1.0, onnxruntime 1.31.1), the PaddlePaddle deployment "
                 "campaign rerun (seed 0), case c856cf3b2674."),
        example=Failure('convert',
                        error_types=('Paddle2OnnxFailed',),
                        message="While unsqueeze2 has input AxesTensor, it cannot be exported"),
    ),
    refuses_with(
        "paddle2onnx.flip_dynamic_axis",
        reason=("paddle2onnx refuses paddle.flip along a dynamic dim ('The dimension in axis of input must be fixed "
                "for flip operator') and aborts the process"),
        errors=('Paddle2OnnxFailed',),
        message=r"\[OP: pd_op\.flip\] The dimension in axis of input must be fixed",
        versions=">=2.1",
        package="paddle2onnx",
        ops=('flip',),
        found="2026-11-28 (paddle 3.3.1, paddle2onnx 2.1.0, onnxruntime 1.31.1)",
        details=("paddle2onnx refuses paddle.flip along a dynamic dim ('The dimension in axis of input must be "
                 "fixed for flip operator') and aborts the process. Provenance: found by conformance 2026-11-28 "
                 "(paddle 3.3.1, paddle2onnx 2.1.0, onnxruntime 1.31.1), the PaddlePaddle deployment campaign rerun "
                 "(seed 0), case 2605e8f5832b."),
        example=Failure('convert',
                        error_types=('Paddle2OnnxFailed',),
                        message="[OP: pd_op.flip] The dimension in axis of input must be fixed",
                        ops=('flip',)),
    ),
    known_bug(
        "paddle2onnx.int8_reduce_sum",
        reason=("paddle2onnx writes paddle.sum(x, dtype='int64') of an int8 x as a ReduceSum of the int8 tensor, "
                "which ONNX does not type"),
        errors=('InvalidGraph',),
        message=r"Type 'tensor\(int8\)' of input parameter \(\S+\) of operator \(ReduceSum\)",
        versions=">=2.0",
        package="paddle2onnx",
        ops=('int_sum',),
        case="paddle-onnx-int8-reduce-sum.json",
        found="2026-11-28 (paddle 3.3.1, paddle2onnx 2.1.0, onnxruntime 1.31.1)",
        details=("known bug: paddle2onnx writes paddle.sum(x, dtype='int64') of an int8 x as a ReduceSum of the "
                 "int8 tensor, which ONNX does not type (onnx's checker and onnxruntime refuse the file). "
                 "Provenance: found by conformance 2026-11-28 (paddle 3.3.1, paddle2onnx 2.1.0, onnxruntime "
                 "1.31.1), the PaddlePaddle deployment campaign rerun (seed 0), case 609fd4112c26; "
                 "cases/paddle-onnx-int8-reduce-sum.json."),
        example=Failure('convert',
                        error_types=('InvalidGraph',),
                        message="Type 'tensor(int8)' of input parameter (a) of operator (ReduceSum)",
                        ops=('int_sum',)),
    ),
    writes_wrong(
        "paddle2onnx.floor_divide_infinite",
        reason=("paddle2onnx writes paddle.floor_divide as ONNX Floor(Div(x, y)), which parts from Paddle's kernel "
                "when an operand is infinite"),
        phases=('compare',),
        divergences=('nonfinite', 'value'),
        versions=">=2.0",
        package="paddle2onnx",
        ops=('floor_div',),
        case="paddle-onnx-floor-divide-infinite.json",
        found="2026-11-28 (paddle 3.3.1, paddle2onnx 2.1.0)",
        details=("known bug: paddle2onnx writes paddle.floor_divide (x // y) as ONNX Floor(Div(x, y)), the equation "
                 "of its docs, where Paddle's kernel computes as Python and numpy do: with an infinite operand the "
                 "two part (-inf // 0.0103: Paddle NaN, the ONNX graph -inf; 5.0 // -inf: Paddle -1, the ONNX graph "
                 "-0). Provenance: found by conformance 2026-11-28 (paddle 3.3.1, paddle2onnx 2.1.0), clean "
                 "campaign seed 2, case 5f02c2f4a810; cases/paddle-onnx-floor-divide-infinite.json."),
        example=Failure('compare', divergences=(('nonfinite', '[0]'),), ops=('floor_div',)),
    ),
    writes_wrong(
        "paddle2onnx.gelu_tanh_as_erf",
        reason=("paddle2onnx writes F.gelu(x, approximate=True), the tanh approximation, as the exact erf GELU: "
                "results part by up to 4e-4"),
        divergences=('value',),
        versions=">=2.1",
        package="paddle2onnx",
        ops=('gelu_tanh',),
        case="paddle-onnx-gelu-tanh-as-erf.json",
        script="paddle_onnx_gelu_tanh_as_erf.py",
        found="2026-11-29 (paddle 3.3.1, paddle2onnx 2.1.0)",
        details=("known bug: paddle2onnx's converter of pd_op.gelu ignores its approximate attribute: "
                 "`F.gelu(x, approximate=True)` (0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))) becomes Div, Erf, "
                 "Add, Mul, Mul, the exact GELU, and onnxruntime's results part from Paddle's by up to 4.4e-4 on "
                 "[-3, 3] (they agree with the exact GELU to 3e-7). Provenance: found by conformance 2026-11-29 "
                 "(paddle 3.3.1, paddle2onnx 2.1.0, opset 9), campaign seed 0, 300 s, case d6a0647aac57; "
                 "cases/paddle-onnx-gelu-tanh-as-erf.json, cases/standalone/paddle_onnx_gelu_tanh_as_erf.py."),
        example=Failure('compare', divergences=(('value', '[1]'),), ops=('gelu_tanh',)),
    ),
    known_bug(
        "paddle2onnx.tensor_array_in_loop",
        reason=("paddle2onnx writes a tensor array appended to in a converted loop as an invalid graph: the loop "
                "body's array_write is read outside the Loop"),
        errors=('InvalidArgument', 'Fail'),
        message=r"p2o\.sub_block\.pd_op\.array_write_",
        versions=">=2.1",
        package="paddle2onnx",
        constructs=('tensor_array',),
        case="paddle-onnx-tensor-array-in-loop.json",
        found="2026-11-29 (paddle 3.3.1, paddle2onnx 2.1.0)",
        details=("known bug: `a = paddle.tensor.create_array(paddle.float32); for r in x: a = array_write(tanh(r), "
                 "array_length(a), a)` (or a for over range(x.shape[0]) of a dynamic dim, or a while on a tensor), "
                 "then paddle.stack(a): paddle2onnx's Loop keeps the body's array_write result inside its sub-block "
                 "and the stack after the loop reads it ('Nodes in a graph must be topologically sorted'; onnxruntime "
                 "refuses the file: 'Node input p2o.sub_block.pd_op.array_write_.0.0 is not a graph input, "
                 "initializer, or output of a previous node'); eager and to_static run it, and a loop of a static "
                 "count (unrolled) exports right. A while whose condition is `z.mean() < t` aborts before that "
                 "(`paddle2onnx.full_mean`). Provenance: found by conformance 2026-11-29 (paddle 3.3.1, paddle2onnx "
                 "2.1.0), written from the generator's Paddle tensor arrays; cases/paddle-onnx-tensor-array-in-"
                 "loop.json."),
        example=Failure('convert', error_types=('InvalidArgument',),
                        message="[ONNXRuntimeError] : 2 : INVALID_ARGUMENT : Load model from model.onnx failed:Invalid "
                                "model. Node input 'p2o.sub_block.pd_op.array_write_.0.0' is not a graph input, "
                                "initializer, or output of a previous node.",
                        constructs=('for_rows', 'tensor_array')),
    ),
    known_bug(
        "paddle2onnx.reduce_0d_arrange",
        reason=("paddle2onnx cannot convert a reduction over every axis of a 0-d tensor (x.max(), x.min(), x.sum() "
                "of shape [], as in `if x.max() < t:`)"),
        errors=('Paddle2OnnxFailed',),
        message=r"In arrange\(\), end must be greater than start",
        versions=">=2.0",
        package="paddle2onnx",
        case="paddle-onnx-reduce-0d-arrange.json",
        found="2026-11-28 (paddle 3.3.1, paddle2onnx 2.1.0)",
        details=("known bug: paddle2onnx cannot convert a reduction over every axis of a 0-d tensor (x.max(), "
                 "x.min(), x.sum() of shape [], as in `if x.max() < t:`): its reduce converter asks arrange(0, 0) "
                 "for the axes, 'In arrange(), end must be greater than start', and aborts the process. Provenance: "
                 "found by conformance 2026-11-28 (paddle 3.3.1, paddle2onnx 2.1.0), clean campaign seed 5, case "
                 "6214e4ce5be9; cases/paddle-onnx-reduce-0d-arrange.json."),
        example=Failure('convert',
                        error_types=('Paddle2OnnxFailed',),
                        message="In arrange(), end must be greater than start"),
    ),
    known_bug(
        "paddle2onnx.integer_topk_opset9",
        reason=("paddle2onnx writes paddle.argsort of an integer tensor as an ONNX TopK at opset 9, where TopK "
                "takes float types only"),
        errors=('InvalidGraph',),
        message=r"Type 'tensor\(u?int\d+\)' of input parameter \(\S+\) of operator \(TopK\)",
        versions=">=2.0",
        package="paddle2onnx",
        case="paddle-onnx-argsort-integer-topk-opset9.json",
        found="2026-11-28 (paddle2onnx 2.1.0)",
        details=("known bug: paddle2onnx writes paddle.argsort of an integer tensor (int32, int64) as an ONNX TopK "
                 "of it also at its default opset 9, where TopK takes float types only (integers from opset 11): "
                 "onnxruntime refuses to load the model ('Type 'tensor(int64)' of input parameter ... of operator "
                 "(TopK)'). Provenance: https://onnx.ai/onnx/operators/onnx__TopK.html (TopK-1: float types); found "
                 "by conformance 2026-11-28 (paddle2onnx 2.1.0), clean campaign seed 9, case aefd36d86930; "
                 "cases/paddle-onnx-argsort-integer-topk-opset9.json."),
        example=Failure('convert',
                        error_types=('InvalidGraph',),
                        message="Type 'tensor(int1)' of input parameter (a) of operator (TopK)"),
    ),
    known_bug(
        "paddle2onnx.tensor_array_loop",
        reason=("paddle2onnx writes a while loop that appends to a TensorArray as a Loop whose body reads a value "
                "no node defines, which onnxruntime refuses"),
        errors=('InvalidArgument',),
        message=r"Node input 'p2o\.sub_block\.pd_op\.array_write_\S*' is not a graph input",
        versions=">=2.0",
        package="paddle2onnx",
        ops=('lstm', 'gru'),
        case="paddle-to-static-amp-rnn-tensor-array-loop.json",
        found="2026-11-28 (paddle2onnx 2.1.0)",
        details=("known bug: paddle2onnx writes a while loop that appends to a TensorArray (to_static's list "
                 "appended to in a loop over a dynamic dim: this suite's LSTM and GRU) with a Loop body reading a "
                 "value no node defines ('Node input 'p2o.sub_block.pd_op.array_write_.0.0' is not a graph input, "
                 "initializer, or output of a previous node'): onnxruntime refuses to load the model. Provenance: "
                 "found by conformance 2026-11-28 (paddle2onnx 2.1.0) transplanting "
                 "cases/paddle-to-static-amp-rnn-tensor-array-loop.json."),
        example=Failure('convert',
                        error_types=('InvalidArgument',),
                        message="Node input 'p2o.sub_block.pd_op.array_write_' is not a graph input",
                        ops=('lstm',)),
    ),
    writes_wrong(
        "paddle2onnx.openvino_p2o_reshape_zero_dim",
        reason=("paddle2onnx writes paddle.reshape to a shape holding a 0 without allowzero=1, so OpenVINO copies "
                "the input's dim for the 0"),
        phases=('compare',),
        divergences=('shape',),
        versions=">=2.0",
        package="paddle2onnx",
        ops=('reshape_empty',),
        paths=('paddle.onnx_openvino',),
        case="paddle-onnx-openvino-reshape-zero-dim.json",
        found="2026-11-28 (paddle2onnx 2.1.0)",
        details=("known bug (paddle2onnx): paddle.reshape of a zero-size tensor to a shape holding a 0 (`reshape(x, "
                 "[2, 0])`) is written as an ONNX Reshape without allowzero=1, where a 0 means 'copy the input's "
                 "dim', as OpenVINO meets it: OpenVINO copies the input's dim for the 0 ([0, 1, 3] reshaped to [2, "
                 "0] comes out [2, 1]) where onnxruntime refuses to run it. Provenance: found by conformance "
                 "2026-11-28 (paddle2onnx 2.1.0), deployment campaign seed 0, cases 948c9317549f, 304f381e1824, "
                 "63df51d84842; cases/paddle-onnx-openvino-reshape-zero-dim.json; cf. the tf2onnx and torch.onnx "
                 "records `torchscript_exporter.reshape_zero_dim`."),
        example=Failure('compare', divergences=(('shape', '[0]'),), ops=('reshape_empty',)),
    ),
)
