"""PaddlePaddle's and paddle2onnx's known bugs on zero-size tensors (a dim of 0), as
:class:`~conformance.paths.records.Limitation` selectors: :mod:`conformance.paths.paddle.limitations` adds
:data:`STATIC_ZERO_SIZE` to every AST to_static path's records and :data:`P2O_ZERO_SIZE` to paddle2onnx's (the ONNX
paths); :mod:`conformance.paths.paddle.deployment_records` adds :data:`P2O_OPENVINO_ZERO_SIZE` to onnx_openvino's, and
:mod:`conformance.paths.paddle` :data:`ORT_ZERO_SIZE` (onnxruntime's) to paddle.onnx's."""

from conformance.paths.paddle.seen import Seen
from conformance.paths.records import Limitation

UNIQUE_EMPTY_UNFLATTENED = Limitation(
    reason="known bug (dygraph): paddle.unique(x) of a zero-size x returns x unflattened (shape [0, 1, 3]) where "
           "the documented result, and the static op (to_static, jit.save, Paddle Inference, paddle2onnx), is the "
           "flattened 1-d [0]; the eager reference is the wrong one",
    phase="compare", divergences=("shape",), ops=("unique",), outcome=None, versions=">=3.0",
    reference="found by conformance 2026-11-28 (paddlepaddle 3.3.1), deployment campaign seed 0, cases 948c9317549f, "
              "304f381e1824, 7caa87311963, dee2b1549d43, 42c148240976; "
              "cases/standalone/paddle_unique_empty_unflattened.py")

IF_EMPTY_TENSOR_RANK = Limitation(
    reason="known bug: AST to_static of `d = -c; if a.sum() > 0: pass; else: c = -c; e = d + c` with a zero-size `c` "
           "fails when the program runs ('Axis should be less than or equal to 5, but received axis is 6': the "
           "pd_op.if's result loses the rank of the zero-size tensor); dygraph and SOT run it. A reduction of it fails "
           "alike: `if x.shape[0] == 2: c = -c`, then `paddle.sum(c, axis=-1)` ('The reduce dim index 0 should be in "
           "the range [ -dimension(X), dimension(X) ) which dimension = -1')",
    errors=("ValueError",), outcome=None, versions=">=3.3",
    message=r"Axis should be less than or equal to \d+, but received axis is \d+"
            r"|The reduce dim index \d+ should be in the range \[ -dimension\(X\), dimension\(X\) \) which dimension "
            r"= -1\.",
    reference="cases/paddle-to-static-if-empty-tensor-axis.json; cases/standalone/paddle_if_empty_tensor_axis.py; "
              "the reduction: found by conformance 2026-11-28 (paddle 3.3.1), clean campaign seed 6, case "
              "55e16ef77b13, cases/paddle-to-static-if-empty-tensor-reduce.json")

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

_ORT_EMPTY_REDUCTION = ("known bug (onnxruntime): a ReduceSum of a zero-size tensor returns the input's shape "
                        "unchanged, whichever axes it reduces ([5, 0, 2, 2] summed over axis -1 with keepdims stays "
                        "[5, 0, 2, 2]; numpy, Paddle and the ONNX spec: [5, 0, 2, 1]); cf. the torch record "
                        "ORT_EMPTY_AXIS_REDUCTION")
_ORT_EMPTY_REDUCTION_REFERENCE = ("https://github.com/microsoft/onnxruntime/issues/7563; found by conformance "
                                  "2026-11-28 (onnxruntime 1.31.1) replaying "
                                  "cases/paddle-to-static-if-empty-tensor-reduce.json")
ORT_EMPTY_REDUCTION_IN_IF = Limitation(
    reason=_ORT_EMPTY_REDUCTION + ": in a branch of an If, onnxruntime then refuses the result it computed ('has shape "
                                  "{5,0,2,1} but the computed output shape for this run is {5,0,2,2}')",
    phase="run", errors=("InvalidArgument",), ops=("sum", "int_sum"),
    message=r"running If node(?s:.*)but the computed output shape for this run is \{(\d+,)*0[,}]", outcome=None,
    versions=">=1.0", package="onnxruntime", reference=_ORT_EMPTY_REDUCTION_REFERENCE)

_IF_FLATTENED = ("known bug: a zero-size tensor that an AST to_static program yields from a pd_op.if (`v2 = x1; if "
                 "x.shape[0] < 2: pass; else: v2 = v0 + v0; return v2`, x1 and v0 of shape [0, 0, 1, 1, 0]; on a "
                 "tensor or a dynamic dim) comes back flattened, shape [0] (dygraph and SOT: [0, 0, 1, 1, 0]); the "
                 "autograd face is limitations.ZERO_SIZE_THROUGH_IF")
_IF_FLATTENED_REFERENCE = ("found by conformance 2026-11-28 (paddle 3.3.1), clean campaigns seeds 5, 8, 9, cases "
                           "6f0d9e69405d, 6214e4ce5be9, d9fc4df95a69; "
                           "cases/paddle-to-static-if-zero-size-flattened.json")
STATIC_IF_ZERO_SIZE_FLATTENED = Seen(
    reason=_IF_FLATTENED, phase="compare", divergences=("shape",), constructs=("if_tensor", "if_shape"),
    fact="zero_size_input", outcome=None, versions=">=3.3", reference=_IF_FLATTENED_REFERENCE)
STATIC_IF_ZERO_SIZE_FLATTENED_LOSS = Seen(
    reason=_IF_FLATTENED + ". In train mode the loss head leaves out an output whose shape differs from eager's; with "
                           "every output left out the path has no loss where eager has one",
    phase="compare", modes=frozenset({"train"}), divergences=("missing_gradient",), where=r"\['losses'\]",
    constructs=("if_tensor", "if_shape"), fact="zero_size_input", outcome=None, versions=">=3.3",
    reference=_IF_FLATTENED_REFERENCE)

PREDICTOR_IF_ZERO_SIZE_NO_MEMORY = Seen(
    reason=_IF_FLATTENED + "; a Paddle Inference predictor (oneDNN or not) fails on it instead: 'Tensor holds no "
                           "memory. Call Tensor::mutable_data firstly'",
    phase="run", errors=("RuntimeError",), message=r"Tensor holds no memory", constructs=("if_tensor", "if_shape"),
    fact="zero_size_input", outcome=None, versions=">=3.3", reference=_IF_FLATTENED_REFERENCE)

#: Every AST to_static path's (the first two before the records of other empty outputs: limitations.STATIC).
STATIC_IF_ZERO_SIZE = (STATIC_IF_ZERO_SIZE_FLATTENED, STATIC_IF_ZERO_SIZE_FLATTENED_LOSS)
#: Every predictor's (before the record of another empty output: limitations.PREDICTOR).
PREDICTOR_IF_ZERO_SIZE = (PREDICTOR_IF_ZERO_SIZE_NO_MEMORY,)
#: Every AST to_static path's.
STATIC_ZERO_SIZE = (UNIQUE_EMPTY_UNFLATTENED,)
#: paddle2onnx's, on onnxruntime.
P2O_ZERO_SIZE = (P2O_RESHAPE_ZERO_DIM,)
#: paddle2onnx's files on onnxruntime (paddle.onnx; not OpenVINO's).
ORT_ZERO_SIZE = (ORT_EMPTY_REDUCTION_IN_IF,)
#: paddle2onnx's, on OpenVINO.
P2O_OPENVINO_ZERO_SIZE = (OPENVINO_P2O_RESHAPE_ZERO_DIM,)
