"""PaddlePaddle's and paddle2onnx's known bugs on zero-size tensors (a dim of 0), as
:class:`~conformance.paths.records.Limitation` selectors: :mod:`conformance.paths.paddle.limitations` adds
:data:`STATIC_ZERO_SIZE` to every AST to_static path's records and :data:`P2O_ZERO_SIZE` to paddle2onnx's (the ONNX
paths); :mod:`conformance.paths.paddle.deployment_records` adds :data:`P2O_OPENVINO_ZERO_SIZE` to onnx_openvino's."""

from conformance.paths.records import Limitation

UNIQUE_EMPTY_UNFLATTENED = Limitation(
    reason="known bug (dygraph): paddle.unique(x) of a zero-size x returns x unflattened (shape [0, 1, 3]) where "
           "the documented result, and the static op (to_static, jit.save, Paddle Inference, paddle2onnx), is the "
           "flattened 1-d [0]; the eager reference is the wrong one",
    phase="compare", divergences=("shape",), ops=("unique",), outcome=None, versions=">=3.0",
    reference="found by conformance 2026-11-28 (paddlepaddle 3.3.1), deployment campaign seed 0, cases 948c9317549f, "
              "304f381e1824, 7caa87311963, dee2b1549d43, 42c148240976; "
              "cases/standalone/paddle_unique_empty_unflattened.py")

_P2O_RESHAPE_ZERO = ("known bug (paddle2onnx): paddle.reshape of a zero-size tensor to a shape holding a 0 "
                     "(`reshape(x, [2, 0])`) is written as an ONNX Reshape without allowzero=1, where a 0 means "
                     "'copy the input's dim'")
_P2O_RESHAPE_REFERENCE = ("found by conformance 2026-11-28 (paddle2onnx 2.1.0), deployment campaign seed 0, cases "
                          "948c9317549f, 304f381e1824, 63df51d84842; cf. the tf2onnx and torch.onnx records "
                          "ONNX_RESHAPE_ZERO_DIM")
P2O_RESHAPE_ZERO_DIM = Limitation(
    reason=_P2O_RESHAPE_ZERO + ": onnxruntime refuses to run it ('The input tensor cannot be reshaped to the "
                               "requested shape. Input shape:{0,1,3}, requested shape:{2,1}')",
    phase="run", errors=("Fail",), message=r"Reshape node(?s:.*)The input tensor cannot be reshaped",
    ops=("reshape_empty",), outcome=None, versions=">=2.1", package="paddle2onnx", reference=_P2O_RESHAPE_REFERENCE)
OPENVINO_P2O_RESHAPE_ZERO_DIM = Limitation(
    reason=_P2O_RESHAPE_ZERO + ", as OpenVINO meets it: OpenVINO copies the input's dim for the 0 ([0, 1, 3] "
                               "reshaped to [2, 0] comes out [2, 1]) where onnxruntime refuses to run it",
    phase="compare", divergences=("shape",), ops=("reshape_empty",), outcome=None, versions=">=2.1",
    package="paddle2onnx", reference=_P2O_RESHAPE_REFERENCE)

#: Every AST to_static path's.
STATIC_ZERO_SIZE = (UNIQUE_EMPTY_UNFLATTENED,)
#: paddle2onnx's, on onnxruntime.
P2O_ZERO_SIZE = (P2O_RESHAPE_ZERO_DIM,)
#: paddle2onnx's, on OpenVINO.
P2O_OPENVINO_ZERO_SIZE = (OPENVINO_P2O_RESHAPE_ZERO_DIM,)
