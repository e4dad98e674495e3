"""TensorFlow/XLA: a tf.TensorArray(dynamic_size=True) written in a loop whose trip count comes from the data.

Eager and tf.function stack the rows written; tf.function(jit_compile=True) ignores every write (it logs only
"TensorListSetItem: ignoring set item because the update dim [1] is larger than the list dim [0]") and returns
NaN and a size of 0: a silent wrong result where a refusal is expected. Case ``tf-xla-mismatch-8ab51ca3a7.json``.
Needs numpy and tensorflow; exits 1 while the bug is present.
"""

import sys

import numpy as np
import tensorflow as tf


def grow(x):
    n = tf.cast(tf.reduce_sum(tf.abs(x)) * 2.0, tf.int32) % 4  # a trip count from the data: 2 on this input
    rows = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    for _ in range(n):
        rows = rows.write(rows.size(), -x)
    return tf.reduce_mean(rows.stack(), 0), rows.size()


x = tf.constant(np.random.default_rng(1).uniform(-1, 1, (2, 3)).astype(np.float32))
eager_mean, eager_size = grow(x)
xla_mean, xla_size = tf.function(grow, jit_compile=True)(x)
print("eager:", eager_size.numpy(), eager_mean.numpy().tolist())
print("xla:  ", xla_size.numpy(), xla_mean.numpy().tolist())
same = int(xla_size) == int(eager_size) and np.allclose(xla_mean.numpy(), eager_mean.numpy())
print("verdict:", "agrees with eager" if same else "XLA drops the TensorArray's writes (silent wrong result)")
sys.exit(0 if same else 1)
