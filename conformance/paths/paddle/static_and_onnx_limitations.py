"""Paddle's static programs inferring a shape or a dtype otherwise than dygraph (:data:`STATIC_INFERENCE`, joining
every AST to_static path's records), and what paddle2onnx and onnxruntime refuse or get wrong in its files
(:data:`ONNX_CONVERTER`, paddle.onnx and paddle.onnx_openvino): found by the PaddlePaddle deployment campaign rerun
(issue 18, seed 0, 2026-11-28)."""

from conformance.paths.paddle.saved import Paddle2OnnxFailed
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
ORT_NO_FLOAT64_LEAKY_RELU = Limitation(
    reason="onnxruntime's CPU provider has no float64 LeakyRelu kernel and refuses to load a model that needs one "
           "('Could not find an implementation for LeakyRelu(6)'), as its kernel table documents",
    errors=("NotImplemented",), message=r"Could not find an implementation for LeakyRelu\(\d+\) node",
    ops=("leaky_relu",), versions=">=2.1", package="paddle2onnx",
    reference="https://github.com/microsoft/onnxruntime/blob/main/docs/OperatorKernels.md; " + FOUND
              + ", case 432c2e55e558")

STATIC_INFERENCE = (STATIC_UNIQUE_FLOAT32, STATIC_SIGNBIT_SHAPE_ZERO)
ONNX_CONVERTER = (P2O_UNSQUEEZE_AXES_TENSOR, P2O_FLIP_DYNAMIC_AXIS, P2O_INT8_REDUCE_SUM, ORT_NO_FLOAT64_LEAKY_RELU)
