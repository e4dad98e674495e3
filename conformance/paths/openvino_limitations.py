"""Known bugs of OpenVINO's CPU plugin, whichever reader made the model (PyTorch's, a SavedModel's, an ONNX file from
any framework's exporter): each framework's OpenVINO paths list the ones their programs meet
(:mod:`conformance.paths.torch.deployment_records`, and the Paddle and TensorFlow ones).

Found by the deployment campaigns of 2026-11-28 (issue 18, seed 0; openvino 2026.4.1); each has a standalone script
in ``cases/standalone/`` that needs only numpy and openvino.
"""

from __future__ import annotations

from conformance.paths.records import Limitation

FOUND = "found by conformance 2026-11-28 (openvino 2026.4.1), the deployment campaigns of torch, paddle and tf (seed 0)"

OPENVINO_EMPTY_MATMUL_TRANSPOSED = Limitation(
    reason="known bug: OpenVINO's CPU plugin cannot compile a MatMul of static shapes with a zero-size operand and a "
           "transposed one (`x @ x.transpose(-2, -1)` of x [0, 1, 1, 3] or [3, 0]; the ONNX reader folds the "
           "Transpose into MatMul's transpose_b): compile_model fails with 'object is not initialized' (with an op "
           "fused after it: 'Matmul doesn't support a degenerate case when other ops are fused'); without the "
           "transpose it compiles and gives the empty sum's zeros",
    errors=("RuntimeError",), message=r"object is not initialized|Matmul doesn't support a degenerate case",
    ops=("matmul_empty",), outcome=None, versions=">=2026.0", package="openvino",
    reference=f"{FOUND} (cases ecbbd52cdbb3, f818df3c6397, db8da63893a3); "
              "cases/standalone/openvino_cpu_empty_matmul_transposed.py")
OPENVINO_DIVIDE_BY_RECIPROCAL = Limitation(
    reason="known bug: OpenVINO's CPU plugin divides float32 as a * (1 / b), which is not correctly rounded "
           "(0.17173822 / 0.17173822 = 0.99999994, x / 0.3 of an exact multiple of 0.3 one ulp off): a floor "
           "or truncating division of an exact multiple is one too small (x // x = 0; float64 too, computed in "
           "float32), and what divides by it next is infinite",
    phase="compare", divergences=("value", "nonfinite"),
    ops=("floor_div", "floor_divide_scalar", "ceil_div", "trunc_div"),
    outcome=None, versions=">=2026.0", package="openvino",
    reference=f"{FOUND} (cases 265e7306ca1c, 3bc3ac7a4ea5; trunc_div: 491a2b8ea234); "
              "cases/standalone/openvino_cpu_divide_by_reciprocal.py")
OPENVINO_BF16_ROUNDING = Limitation(
    reason="known bug: OpenVINO's CPU plugin converts float32 to bfloat16 rounding up (to even) only when the kept "
           "mantissa is odd and the dropped half is at least 1/2, whatever lies beyond: -0.5739503 becomes -0.5703125 "
           "where round-to-nearest-even (torch, ONNX) gives -0.57421875, in about a quarter of the values; a float16 "
           "round trip (Convert to f16 and back) is dropped altogether",
    phase="compare", divergences=("value",), ops=("round_to",), outcome=None, versions=">=2026.0",
    package="openvino", reference=f"{FOUND} (case 857191e469c9); cases/standalone/openvino_cpu_bf16_rounding.py")
OPENVINO_F64_SATURATES = Limitation(
    reason="known bug: OpenVINO's CPU plugin computes float64 in float32 and narrows it with saturation: a float64 "
           "value beyond float32's range (4.5e307, -1e300) becomes +-3.4e38 (FLT_MAX) where the framework's cast to "
           "float32 gives +-inf (openvinotoolkit/openvino#33564: FLT_MAX for a float64 division by zero)",
    phase="compare", divergences=("nonfinite",), ops=("cast",), outcome=None, versions=">=2026.0",
    package="openvino", reference=f"https://github.com/openvinotoolkit/openvino/issues/33564; {FOUND} (cases "
                                  "dea35656e6b2, c978b607b5e2); cases/standalone/openvino_cpu_f64_saturates.py")
FOUND_TF_RERUN = "found by conformance 2026-11-28 (tensorflow 2.21.0, openvino 2026.4.1), the TensorFlow deployment " \
                 "campaign rerun (issue 18, seed 0)"
OPENVINO_MATMUL_SCALAR_RESHAPE_SEGV = Limitation(
    reason="known bug: OpenVINO's CPU plugin dies of SIGSEGV compiling a MatMul of a [1, n] and an [n, 1] operand "
           "followed by a Reshape to a scalar (target shape []), which is how OpenVINO's TensorFlow reader writes "
           "tf.tensordot(a, b, 1) of two vectors (the op dot); the MatMul alone, or a Reshape to a scalar of a "
           "[1, 1] tensor, compiles",
    phase="crash", errors=("SIGSEGV",), ops=("dot",), outcome=None, versions=">=2026.4.1", package="openvino",
    reference=f"{FOUND_TF_RERUN} (cases ffb989f6ff0f, d2e6efdc1b24); "
              "cases/standalone/openvino_cpu_matmul_scalar_reshape_segv.py")
OPENVINO_EMPTY_GATHER_SIGFPE = Limitation(
    reason="known bug: OpenVINO's CPU plugin dies of SIGFPE compiling a Gather by indices of static shape [0] (an "
           "embedding, tf.gather of a table, of a zero-size tensor), where TensorFlow gives an empty tensor; "
           "indices of shape [1] compile",
    phase="crash", errors=("SIGFPE",), ops=("embedding",), outcome=None, versions=">=2026.4.1", package="openvino",
    reference=f"{FOUND_TF_RERUN} (case 334065f0ff78); cases/standalone/openvino_cpu_empty_gather_sigfpe.py")
OPENVINO_UNIQUE_UNSORTED = Limitation(
    reason="known bug: OpenVINO's CPU plugin computes Unique with sorted=False wrong: of [4, 2, 1, 3, 0, 2] it gives "
           "[4, 0, 0, 0, 0] where the distinct values in order of first appearance are [4, 2, 1, 3, 0] (any element "
           "type; sorted=True is right); OpenVINO's TensorFlow reader writes tf.unique so, and so does its ONNX "
           "reader for tf2onnx's Unique (the op unique's emitter sorts tf.unique's values: they are not what differs)",
    phase="compare", divergences=("value",), ops=("unique",), outcome=None, versions=">=2026.4.1",
    package="openvino",
    reference=f"{FOUND_TF_RERUN} (case 2a689569fcbe); cases/standalone/openvino_cpu_unique_unsorted.py")
OPENVINO_ONNX_EMPTY_GATHER_RANK = Limitation(
    reason="known bug (OpenVINO's ONNX reader): a Gather of a shape by indices of shape [0] (an empty initializer) "
           "is given rank 0 where ONNX's shape inference gives [0], so a ReduceProd over axis 0 of it is refused "
           "('Number of reduction axes (1) is larger than the input tensor's rank (0)', and a Concat of it: "
           "'Accessing out-of-range dimension'); tf2onnx writes tf.tensordot(a, b, 1) of two vectors of a dynamic "
           "dim so (the Gather of the free dims), and onnxruntime runs the file (tf.onnx passes); indices of shape "
           "[1] are read right",
    errors=("RuntimeError",),
    message=r"Node\(ReduceProd\): [^>]*>':\s*Number of reduction axes \(\d+\) is larger than the input tensor's "
            r"rank \(0\)",
    ops=("dot",), outcome=None, versions=">=2026.4.1", package="openvino",
    reference=f"{FOUND_TF_RERUN} (case d2e6efdc1b24, tf.onnx_openvino)")
FOUND_CLEAN = "found by conformance 2026-11-28 (openvino 2026.4.1), the clean torch campaigns (issue 20, infer mode)"
OPENVINO_SINGLE_THREAD_SHAPE_ERROR = Limitation(
    reason="known bug: OpenVINO's CPU plugin compiled with INFERENCE_NUM_THREADS=1 swallows a node's shape-inference "
           "error at inference (dynamic shapes): a GatherElements whose indices are smaller than data in a dim other "
           "than the axis (torch.gather allows it), or a ScatterElementsUpdate whose updates are larger than its "
           "indices, makes infer() return uninitialised values and outputs of shape [0], for other nodes of the model "
           "too; with the default threading the same model raises ('`data` and `indices` must have equal or "
           "intersecting dimensions')",
    phase="compare", divergences=("value", "shape", "nonfinite"), ops=("gather", "scatter"), outcome=None,
    versions=">=2026.4.1", package="openvino",
    reference=f"{FOUND_CLEAN} (cases d85d6e8f7cc0, 8bb1a15559a2, f0316a4c504d, a98bc16310bd, 3cd13b2ccc37); "
              "cases/standalone/openvino_cpu_single_thread_swallows_shape_error.py, "
              "cases/openvino-gather-index-smaller-than-input.json (torch.openvino)")
#: What OpenVINO's CPU plugin computes float64 in: it has no float64 arithmetic and converts a float64 model's
#: tensors to float32 (its documented inference data types), so the OpenVINO paths' float64 outputs are judged with
#: float32's tolerance rule (``PathRecord.float64_as``; found as 4-ulp differences of `log(exp(x))` in float64, case
#: 21a5f539894b of the torch deployment campaign).
FLOAT64_AS = "float32"
#: The plugin's value bugs that any float program may meet.
OPENVINO_CPU = (OPENVINO_DIVIDE_BY_RECIPROCAL, OPENVINO_BF16_ROUNDING)
