"""Paddle's static programs inferring a shape or a dtype otherwise than dygraph, or missing a kernel that dygraph runs
(:data:`STATIC_INFERENCE`, joining every AST to_static path's records), and what paddle2onnx and onnxruntime refuse
or get wrong in its files (:data:`ONNX_CONVERTER`, paddle.onnx and paddle.onnx_openvino): found by the PaddlePaddle
deployment campaign rerun (issue 18, seed 0, 2026-11-28) and issue 20's clean campaigns."""

from dataclasses import replace

from conformance.paths.paddle.saved import Paddle2OnnxFailed
from conformance.paths.paddle.seen import Seen
from conformance.paths.records import Limitation

FOUND = "found by conformance 2026-11-28 (paddle 3.3.1, paddle2onnx 2.1.0, onnxruntime 1.31.1), the PaddlePaddle " \
        "deployment campaign rerun (issue 18, seed 0)"

STATIC_UNIQUE_FLOAT32 = Limitation(
    reason="known bug: in a static program (AST to_static, jit.save) paddle.unique of an int64 tensor (an argmax) is "
           "typed float32 (dygraph: int64), so an integer op on it refuses it when the program is built ('Check data "
           "type error for op: bitwise_or, input: y, y.dtype: float32')",
    errors=("TypeError",), message=r"Check data type error for op: \w+, input: \w+, \w+\.dtype: float32",
    ops=("unique",), outcome=None, versions=">=3.3", reference=f"{FOUND}, case 5f07e5fadab5")
STATIC_SIGNBIT_SHAPE_ZERO = Limitation(
    reason="known bug: paddle.signbit in a static program with a dynamic dim (InputSpec None) gives a result whose "
           "static shape has 0 for it (x.shape [-1, 4], signbit(x).shape [0, 4]), so `if signbit(x).shape[0] < 2:` "
           "takes the branch that dygraph does not take (wrong values, no error)",
    phase="compare", divergences=("value", "shape"), ops=("signbit",), constructs=("if_shape",), outcome=None,
    versions=">=3.3", reference=f"{FOUND}, case 6d1604b959ba")
STATIC_KERNEL_OUTPUT_ARGS = Limitation(
    reason="known bug: some ops do not run in a static program on the CPU (to_static's run, jit.load, every Paddle "
           "Inference predictor) for dtypes dygraph runs: PIR's kernel selection fails, 'op [pd_op.flatten] kernel "
           "output args (0) defs should equal op outputs (1)': paddle.flatten of float16 (a dtype its docs list; "
           "complex64 too), paddle.diagonal of float16 and bfloat16 (listed) and int8, uint8, int16 (not listed)",
    errors=("RuntimeError",), ops=("flatten", "diagonal"),
    message=r"op \[pd_op\.(flatten|diagonal)\] kernel output args \(\d+\) defs should equal op outputs",
    outcome=None, versions=">=3.3",
    reference="https://www.paddlepaddle.org.cn/documentation/docs/en/api/paddle/flatten_en.html, .../diagonal_en.html; "
              "found by conformance 2026-11-28 (paddle 3.3.1), clean campaigns seeds 2, 5, 8, cases e7fafa45ff1c, "
              "c26cfcaf4eae, 6c6debde5aaa; cases/paddle-to-static-flatten-float16.json, "
              "cases/paddle-to-static-diagonal-int8.json")
P2O_UNSQUEEZE_AXES_TENSOR = Limitation(
    reason="paddle2onnx refuses an unsqueeze whose axes are a tensor (AxesTensor, as a static program writes "
           "`x.unsqueeze(0)` in some programs) and aborts the process",
    errors=(Paddle2OnnxFailed.__name__,), message=r"While unsqueeze2 has input AxesTensor, it cannot be exported",
    versions=">=2.1", package="paddle2onnx", reference=f"{FOUND}, case c856cf3b2674")
P2O_FLIP_DYNAMIC_AXIS = Limitation(
    reason="paddle2onnx refuses paddle.flip along a dynamic dim ('The dimension in axis of input must be fixed for "
           "flip operator') and aborts the process",
    errors=(Paddle2OnnxFailed.__name__,), message=r"\[OP: pd_op\.flip\] The dimension in axis of input must be fixed",
    ops=("flip",), versions=">=2.1", package="paddle2onnx", reference=f"{FOUND}, case 2605e8f5832b")
P2O_INT8_REDUCE_SUM = Limitation(
    reason="known bug: paddle2onnx writes paddle.sum(x, dtype='int64') of an int8 x as a ReduceSum of the int8 "
           "tensor, which ONNX does not type (onnx's checker and onnxruntime refuse the file)",
    errors=("InvalidGraph",), message=r"Type 'tensor\(int8\)' of input parameter \(\S+\) of operator \(ReduceSum\)",
    ops=("int_sum",), outcome=None, versions=">=2.1", package="paddle2onnx", reference=f"{FOUND}, case 609fd4112c26")
P2O_REDUCE_0D_ARRANGE = Limitation(
    reason="known bug: paddle2onnx cannot convert a reduction over every axis of a 0-d tensor (x.max(), x.min(), "
           "x.sum() of shape [], as in `if x.max() < t:`): its reduce converter asks arrange(0, 0) for the axes, "
           "'In arrange(), end must be greater than start', and aborts the process",
    errors=(Paddle2OnnxFailed.__name__,), message=r"In arrange\(\), end must be greater than start", outcome=None,
    versions=">=2.1", package="paddle2onnx",
    reference="found by conformance 2026-11-28 (paddle 3.3.1, paddle2onnx 2.1.0), clean campaign seed 5, case "
              "6214e4ce5be9; cases/paddle-onnx-reduce-0d-arrange.json")
P2O_FLOOR_DIVIDE_INFINITE = Limitation(
    reason="known bug: paddle2onnx writes paddle.floor_divide (x // y) as ONNX Floor(Div(x, y)), the equation of its "
           "docs, where Paddle's kernel computes as Python and numpy do: with an infinite operand the two part "
           "(-inf // 0.0103: Paddle NaN, the ONNX graph -inf; 5.0 // -inf: Paddle -1, the ONNX graph -0)",
    phase="compare", divergences=("nonfinite", "value"), ops=("floor_div",), outcome=None, versions=">=2.1",
    package="paddle2onnx", reference="found by conformance 2026-11-28 (paddle 3.3.1, paddle2onnx 2.1.0), clean "
                                     "campaign seed 2, case 5f02c2f4a810; cases/paddle-onnx-floor-divide-infinite.json")
P2O_INTEGER_TOPK_OPSET9 = Limitation(
    reason="known bug: paddle2onnx writes paddle.argsort of an integer tensor (int32, int64) as an ONNX "
           "TopK of it also at its default opset 9, where TopK takes float types only (integers from opset 11): "
           "onnxruntime refuses to load the model ('Type 'tensor(int64)' of input parameter ... of operator (TopK)')",
    errors=("InvalidGraph",), message=r"Type 'tensor\(u?int\d+\)' of input parameter \(\S+\) of operator \(TopK\)",
    outcome=None, versions=">=2.1", package="paddle2onnx",
    reference="https://onnx.ai/onnx/operators/onnx__TopK.html (TopK-1: float types); found by conformance 2026-11-28 "
              "(paddle2onnx 2.1.0), clean campaign seed 9, case aefd36d86930; "
              "cases/paddle-onnx-argsort-integer-topk-opset9.json")
P2O_TENSOR_ARRAY_LOOP = Limitation(
    reason="known bug: paddle2onnx writes a while loop that appends to a TensorArray (to_static's list appended to "
           "in a loop over a dynamic dim: this suite's LSTM and GRU) with a Loop body reading a value no node defines "
           "('Node input 'p2o.sub_block.pd_op.array_write_.0.0' is not a graph input, initializer, or output of a "
           "previous node'): onnxruntime refuses to load the model",
    errors=("InvalidArgument",), message=r"Node input 'p2o\.sub_block\.pd_op\.array_write_\S*' is not a graph input",
    ops=("lstm", "gru"), outcome=None, versions=">=2.1", package="paddle2onnx",
    reference="found by conformance 2026-11-28 (paddle2onnx 2.1.0) transplanting "
              "cases/paddle-to-static-amp-rnn-tensor-array-loop.json")
ORT_NO_FLOAT64_LEAKY_RELU = Limitation(
    reason="onnxruntime's CPU provider has no float64 LeakyRelu kernel and refuses to load a model that needs one "
           "('Could not find an implementation for LeakyRelu(6)'), as its kernel table documents",
    errors=("NotImplemented",), message=r"Could not find an implementation for LeakyRelu\(\d+\) node",
    ops=("leaky_relu",), versions=">=2.1", package="paddle2onnx",
    reference="https://github.com/microsoft/onnxruntime/blob/main/docs/OperatorKernels.md; " + FOUND
              + ", case 432c2e55e558")

STATIC_INFERENCE = (STATIC_UNIQUE_FLOAT32, STATIC_SIGNBIT_SHAPE_ZERO, STATIC_KERNEL_OUTPUT_ARGS,
                    replace(STATIC_KERNEL_OUTPUT_ARGS, phase="run"))
ONNX_CONVERTER = (P2O_UNSQUEEZE_AXES_TENSOR, P2O_FLIP_DYNAMIC_AXIS, P2O_INT8_REDUCE_SUM, ORT_NO_FLOAT64_LEAKY_RELU,
                  P2O_FLOOR_DIVIDE_INFINITE, P2O_REDUCE_0D_ARRANGE, P2O_INTEGER_TOPK_OPSET9,
                  P2O_TENSOR_ARRAY_LOOP)

ORT_IF_BRANCH_REPEATED_OUTPUT = Seen(
    reason="known bug (onnxruntime): an If whose branch lists one value twice among its outputs (paddle2onnx writes "
           "that for `if x.min() > t: return x`, then `x = -x; return x`: the pd_op.if yields the new x twice) fills "
           "one of the If's outputs wrongly (zeros or garbage, 1e27); the ONNX reference evaluator is right, and so "
           "is onnxruntime once the repeated output goes through an Identity of its own",
    phase="compare", divergences=("value", "nonfinite"), fact="branch_repeats_output", outcome=None, versions=">=1.0",
    package="onnxruntime",
    reference="found by conformance 2026-11-28 (onnxruntime 1.31.1, paddle2onnx 2.1.0), clean campaign seed 8, case "
              "aa6538db2e54; cases/paddle-onnx-if-branch-repeated-output.json")
#: paddle.onnx's alone (onnxruntime's bugs, not OpenVINO's).
ORT_RUNTIME = (ORT_IF_BRANCH_REPEATED_OUTPUT,)
