"""TensorFlow's gradient of a 3-d tf.nn.convolution fails in eager: "AttributeError: 'NoneType' object has no attribute
'decode'" (nn_grad.py _Conv3DGrad reads the op's data_format, which this Conv3D op does not carry). Found by conformance
2026-11-29 (tensorflow 2.21.0), the tf campaign seed 0: every program with a conv3d had no gradient reference in grad
and train mode (case fa2fd65a9539, 6 records).

Needs only TensorFlow (2.21.0 here). tf.nn.convolution of a 5-d input without a dilation: its gradient raises, with
strides 1 or 2; the same convolution with dilations=2, tf.nn.conv3d itself, and the 2-d tf.nn.convolution differentiate.

Run: python tf_conv3d_gradient_data_format.py   (exit status 1 while the gradient fails)
"""

import sys

import tensorflow as tf


def gradient_fails(conv, x, w) -> bool:
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(conv(x, w))
    try:
        tape.gradient(y, [x, w])
    except AttributeError as e:
        print(f"  AttributeError: {e}")
        return True
    return False


def main() -> bool:
    print("tensorflow", tf.__version__)
    x, w = tf.Variable(tf.random.normal([1, 4, 4, 4, 2])), tf.Variable(tf.random.normal([2, 2, 2, 2, 3]))
    fails = False
    for label, conv in (("tf.nn.convolution, 3-d", lambda x, w: tf.nn.convolution(x, w, padding="VALID")),
                        ("tf.nn.convolution, 3-d, strides=2", lambda x, w: tf.nn.convolution(x, w, 2, "VALID")),
                        ("tf.nn.convolution, 3-d, dilations=2",
                         lambda x, w: tf.nn.convolution(x, w, padding="VALID", dilations=2)),
                        ("tf.nn.conv3d", lambda x, w: tf.nn.conv3d(x, w, [1, 1, 1, 1, 1], "VALID"))):
        failed = gradient_fails(conv, x, w)
        fails |= failed and "convolution, 3-d" in label and "dilations" not in label
        print(f"{label}: gradient {'FAILS' if failed else 'ok'}")
    print("verdict:", "the 3-d tf.nn.convolution has no gradient in eager" if fails else "not reproduced")
    return fails


if __name__ == "__main__":
    sys.exit(1 if main() else 0)
