"""Our process or tf2onnx? tf.onnx conversion errors "Node (Reshape) Op (Reshape) [ShapeInferenceError] Invalid position
of 0" and "Node (BroadcastTo) Op (Expand) [ShapeInferenceError] Incompatible dimensions" (the 2026-11-28 tf campaign,
seed 0, cases fdfabced7843 and a377adf83a90, minimised by conformance triage to the models below).

Needs only numpy, tensorflow (2.21.0 here), tf2onnx (1.17.0) and onnxruntime (1.31.1). tf.reshape to a shape with a 0
(an empty result) is written as an ONNX Reshape without allowzero=1, where a 0 means "copy the input's dim": from a
rank-1 empty input the 0 points past its rank ('Invalid position of 0'); from a [0, 3] input it copies the 3, and a
later broadcast_to (Expand) to [1, 0, 3] is refused ('Incompatible dimensions'). TensorFlow runs both. Upstream:
https://github.com/onnx/tensorflow-onnx/issues/2178 (open). A script, not an IR case: the IR program of the first
model crashes torch.onnx_torchscript's exporter (SIGFPE) when the corpus transplants it.

Run: python tf_onnx_reshape_zero_dim.py   (exit status 1 while the bug is present)
"""

import sys

import numpy as np
import onnxruntime as ort
import tensorflow as tf
import tf2onnx


def reshape_only(x):
    return tf.reshape(x, [1, 0, 1])


def reshape_then_broadcast(x):
    return tf.broadcast_to(tf.reshape(x, [1, 0, 1]), [1, 0, 3])


def check(name, fn, x) -> bool:
    spec = [tf.TensorSpec(x.shape, tf.as_dtype(x.dtype))]
    want = fn(tf.constant(x)).numpy()
    proto, _ = tf2onnx.convert.from_function(tf.function(fn, input_signature=spec), input_signature=spec)
    try:
        session = ort.InferenceSession(proto.SerializeToString(), providers=["CPUExecutionProvider"])
        got = session.run(None, {session.get_inputs()[0].name: x})[0]
    except Exception as e:  # onnxruntime's own error kinds
        print(f"{name}: TensorFlow gives shape {want.shape}; onnxruntime: {str(e).splitlines()[0][-120:]}")
        return True
    ok = got.shape == want.shape
    print(f"{name}: TensorFlow {want.shape}, onnxruntime {got.shape}: {'same' if ok else 'DIFFERENT'}")
    return not ok


def main() -> bool:
    failed = check("reshape [0] -> [1, 0, 1]", reshape_only, np.zeros(0, np.uint8))
    failed |= check("reshape [0, 3] -> [1, 0, 1], broadcast_to [1, 0, 3]", reshape_then_broadcast,
                    np.zeros((0, 3), np.float32))
    print("verdict:", "tf2onnx: Reshape written without allowzero=1" if failed else "not reproduced")
    return failed


if __name__ == "__main__":
    sys.exit(1 if main() else 0)
