"""Our process or the frameworks? A tf.onnx mismatch "NaN/Inf where eager is finite" on tf.sort of a vector holding
NaN (the 2026-11-28 tf campaign, seed 0, case b61ebc99a4b9, minimised by conformance triage to `tf.sort(x)`).

Needs only numpy, tensorflow (2.21.0 here), tf2onnx (1.17.0) and onnxruntime (1.31.1). tf2onnx writes tf.sort as
TopK. TensorFlow's top_k places a NaN by its position in the input (tensorflow/tensorflow#117287), ONNX leaves
TopK's NaN order undefined (onnx/onnx#4716) and onnxruntime orders it another way, so the sorted values differ
where a NaN is. TensorFlow's XLA orders NaN yet another way (tf.xla differs from eager on the same input). A script,
not an IR case: transplanted, the IR program also shows the torch ONNX exporters' and XLA's own NaN orders.

Run: python tf_onnx_sort_nan.py   (exit status 1 while the results differ)
"""

import sys

import numpy as np
import onnxruntime as ort
import tensorflow as tf
import tf2onnx


def model(x):
    return tf.sort(x, axis=0, direction="ASCENDING")


def main() -> bool:
    spec = [tf.TensorSpec([None], tf.float32)]
    proto, _ = tf2onnx.convert.from_function(tf.function(model, input_signature=spec), input_signature=spec)
    session = ort.InferenceSession(proto.SerializeToString(), providers=["CPUExecutionProvider"])
    failed = False
    for x in (np.array([np.nan, 0.5, -0.25], np.float32), np.array([0.5, np.nan, -0.25], np.float32),
              np.array([0.5, -0.25, np.nan], np.float32)):
        want = model(tf.constant(x)).numpy()
        got = session.run(None, {session.get_inputs()[0].name: x})[0]
        same = np.array_equal(want, got, equal_nan=True)
        print(f"sort({x}): TensorFlow {want}, onnxruntime {got}: {'same' if same else 'DIFFERENT'}")
        failed |= not same
    print("verdict:", "NaN ordered differently by TensorFlow's top_k and onnxruntime's TopK" if failed
          else "not reproduced")
    return failed


if __name__ == "__main__":
    sys.exit(1 if main() else 0)
