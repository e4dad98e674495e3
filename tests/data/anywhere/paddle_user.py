"""A Paddle model as a user's file holds it, loaded by file path in the tests (never imported by name): a class at
module level and a factory whose class is made inside it."""

import numpy as np
import paddle


class Gate(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        paddle.seed(0)
        self.lin = paddle.nn.Linear(4, 4)

    def forward(self, x, use_act=True):
        h = self.lin(x)
        if h.sum() > 0:
            h = h * 2
        else:
            h = h - 1
        if use_act:
            h = paddle.nn.functional.relu(h)
        return h


def make_model(scale=0.5):
    """A model whose class exists only inside this call."""

    class Scaled(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.gate = Gate()
            self.scale = scale

        def forward(self, x):
            return self.gate(x) * self.scale

    return Scaled()


def example():
    return [np.random.default_rng(1).normal(size=(3, 4)).astype(np.float32)], {}
