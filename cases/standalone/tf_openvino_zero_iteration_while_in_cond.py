"""OpenVINO (TensorFlow reader, CPU plugin): a while loop inside a tf.cond branch that runs zero times returns
uninitialised memory for its loop variable (1e+34, 4.6e-41 ...) where TensorFlow returns the value it had before
the loop (a loop whose body reads a value from outside it); when the loop runs at least once, or the branch is not
taken, the result is right.

Found by conformance 2026-11-28 (tensorflow 2.21.0, openvino 2026.4.1), the TensorFlow deployment campaign
(issue 18, seed 0, case 9d9a36e36b2b). Needs numpy, tensorflow, openvino. Prints a verdict; exits 1 while the
bug is present.
"""

import sys
import tempfile

import numpy as np
import openvino as ov
import tensorflow as tf


class Model(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec([5], tf.float32), tf.TensorSpec([5], tf.float32),
                                  tf.TensorSpec([None], tf.float32)])
    def __call__(self, a, b, x):
        v = a
        if tf.shape(x)[0] > 4:  # a tf.cond: the batch decides
            i = 0
            while i < 2 and tf.reduce_min(v) > 0.0:  # a tf.while_loop: runs 0 times when a holds a value <= 0
                v = tf.tanh(b)  # a value from outside the loop
                i += 1
        return v


def main() -> int:
    model = Model()
    with tempfile.TemporaryDirectory() as folder:
        tf.saved_model.save(model, folder, signatures=model.__call__.get_concrete_function())
        compiled = ov.Core().compile_model(ov.convert_model(folder), "CPU")
    a = np.array([-0.5, 0.7, 0.2, 0.74, 0.1], np.float32)
    b = np.ones(5, np.float32)
    bad = False
    for label, a_in, n in (("branch not taken", a, 4), ("loop runs 0 times", a, 6),
                           ("loop runs", np.abs(a), 6)):
        x = np.ones(n, np.float32)
        want = model(a_in, b, x).numpy()
        got = np.asarray(compiled([a_in, b, x])[0])
        ok = got.shape == want.shape and np.allclose(got, want, rtol=1e-5, atol=1e-6)
        bad |= not ok
        print(f"{label:18} tensorflow {want}  openvino {got}  {'ok' if ok else 'WRONG'}")
    print("BUG PRESENT: OpenVINO returns garbage for a zero-iteration while loop in a tf.cond branch" if bad
          else "OK: OpenVINO agrees with TensorFlow")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
