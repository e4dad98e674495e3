"""Our process or TensorFlow? tf.xla grad/train runtime errors "Incompatible shapes: [0] vs. [5]" (the 180-s main
command, seed 0, case 316ae662cb3e, minimised by conformance triage to the model below).

Needs only numpy and tensorflow (2.21.0 here). A jit_compile tf.function with a dynamic batch and an `if` on that
size, the tensor op inside the branch not taken (x has 5 rows: `5 < 5` is false); differentiated from outside (a
GradientTape around the call, as a user trains it): XLA compiles the gradient of the untaken branch for a
zero-size tensor and fails, "Incompatible shapes: [0] vs. [5]" at cond_grad/.../TanhGrad. With 3 rows (the branch
taken) the gradient is right; so is the same function without jit_compile, and the tape inside the function.
An `if` on the tensor's values fails the same way where its branch is not taken (`if tf.reduce_max(y) > 5`: the
2026-11-28 tf campaign, seed 0, cases cadbaf990db9, d8495f3ea8f8, 877c909a0bd7: '[0] vs. [2]', '[0,1] vs. [2,1]',
'[0,3,4,1] vs. [6,3,4,1]'); with a static shape both are right.

Run: python tf_xla_cond_shape_gradient.py   (exit status 1 while the bug is present)
"""

import sys

import numpy as np
import tensorflow as tf


def model(x):
    y = x
    if tf.shape(y)[0] < 5:
        y = tf.tanh(y)
    return y


def model_on_values(x):
    y = x
    if tf.reduce_max(y) > 5.0:
        y = tf.tanh(y)
    return y


def gradient(fn, n):
    x = tf.constant(np.ones(n, np.float32))
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(fn(x))
    return tape.gradient(loss, x).numpy()


def main() -> bool:
    spec = [tf.TensorSpec([None], tf.float32)]
    failed = False
    for name, fn in (("if on the size", model), ("if on the values", model_on_values)):
        xla = tf.function(fn, input_signature=spec, jit_compile=True)
        plain = tf.function(fn, input_signature=spec)
        for n in (3, 5):
            want = gradient(plain, n)
            try:
                got = gradient(xla, n)
                ok = np.allclose(got, want)
                print(f"{name}, {n} rows: XLA gradient {got}, without XLA {want}: {'same' if ok else 'DIFFERENT'}")
                failed |= not ok
            except tf.errors.InvalidArgumentError as e:
                print(f"{name}, {n} rows: XLA gradient fails: {str(e).splitlines()[0]}; without XLA {want}")
                failed = True
    print("verdict:", "TensorFlow/XLA: the gradient of a cond's untaken branch on a dynamic size" if failed else
          "not reproduced")
    return failed


if __name__ == "__main__":
    sys.exit(1 if main() else 0)
