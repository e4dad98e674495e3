"""OpenVINO (TensorFlow reader, CPU plugin): a tf.TensorArray(dynamic_size=True) grown in a loop (`for r in x` over
the rows of the input, or `for i in tf.range(tf.shape(x)[0])`: both a tf.while_loop) and stacked comes back empty,
shape (0, 4), where TensorFlow (eager, and the SavedModel OpenVINO reads) returns the rows written: a silent wrong
result (a sum over the stack is zeros). A TensorArray of a size given up front converts right.

Found by conformance 2026-11-29 (tensorflow 2.21.0, openvino 2026.4.1), the rows-loop programs of the generator
(program f47e3528bf79); case cases/tf-openvino-tensorarray-dynamic-size-empty.json. Needs numpy, tensorflow,
openvino. Prints a verdict; exits 1 while the bug is present.
"""

import sys
import tempfile

import numpy as np
import openvino as ov
import tensorflow as tf


def rows_loop(x):
    rows = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    for r in x:  # AutoGraph: a tf.while_loop over the rows
        rows = rows.write(rows.size(), tf.tanh(r))
    return rows.stack()


def range_loop(x):
    rows = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    for i in tf.range(tf.shape(x)[0]):
        rows = rows.write(i, tf.tanh(x[i]))
    return rows.stack()


def fixed_size(x):  # the control: a size known before the loop
    rows = tf.TensorArray(tf.float32, size=tf.shape(x)[0])
    for i in tf.range(tf.shape(x)[0]):
        rows = rows.write(i, tf.tanh(x[i]))
    return rows.stack()


def through_openvino(function, x):
    module = tf.Module()
    module.f = tf.function(function, input_signature=[tf.TensorSpec([None, 4], tf.float32)])
    with tempfile.TemporaryDirectory() as folder:
        tf.saved_model.save(module, folder, signatures=module.f.get_concrete_function())
        compiled = ov.Core().compile_model(ov.convert_model(folder), "CPU")
    return np.asarray(compiled([x])[0])


def main() -> int:
    x = np.random.default_rng(1).uniform(-1, 1, (3, 4)).astype(np.float32)
    bad = False
    for function in (rows_loop, range_loop, fixed_size):
        want = function(tf.constant(x)).numpy()
        got = through_openvino(function, x)
        ok = got.shape == want.shape and np.allclose(got, want, rtol=1e-5, atol=1e-6)
        bad |= not ok and function is not fixed_size
        print(f"{function.__name__:10} tensorflow shape {want.shape}  openvino shape {got.shape}  "
              f"{'ok' if ok else 'WRONG'}")
    print("BUG PRESENT: OpenVINO returns an empty stack for a dynamic-size TensorArray grown in a loop" if bad
          else "OK: OpenVINO agrees with TensorFlow")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
