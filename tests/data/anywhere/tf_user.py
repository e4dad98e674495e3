"""TensorFlow models as a user's file holds them, loaded by file path in the tests (never imported by name): a
``tf.Module`` at module level, a factory whose class is made inside it, and a Keras functional model."""

import numpy as np
import tensorflow as tf


class Gate(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(tf.random.stateless_normal([4, 4], seed=[0, 1]))

    def __call__(self, x, use_act=True):
        h = tf.matmul(x, self.w)
        if tf.reduce_sum(h) > 0:
            h = h * 2
        else:
            h = h - 1
        if use_act:
            h = tf.nn.relu(h)
        return h


def make_model(scale=0.5):
    """A model whose class exists only inside this call."""

    class Scaled(tf.Module):
        def __init__(self):
            super().__init__()
            self.gate = Gate()
            self.scale = scale

        def __call__(self, x):
            return self.gate(x) * self.scale

    return Scaled()


def make_functional():
    """A Keras functional model (no class of its own)."""
    tf.keras.utils.set_random_seed(0)
    inputs = tf.keras.Input(shape=(4,))
    hidden = tf.keras.layers.Dense(8, activation="relu")(inputs)
    return tf.keras.Model(inputs, tf.keras.layers.Dense(3)(hidden))


def example():
    return [np.random.default_rng(1).normal(size=(3, 4)).astype(np.float32)], {}
