"""Paddle AST to_static: a Python float accumulator that a tensor-conditioned ``while`` turns into a tensor.

``acc = 0.0; while y.mean() < -0.25: acc = acc + y.mean(); y = sigmoid(y)``: in eager, ``0.0 + y.mean()`` is a
float32 0-d tensor. ``paddle.jit.to_static`` makes the loop variable ``acc`` a tensor from its initial Python float,
as float64, so the loop's result comes back as float64 where eager's is float32: a silent dtype change. Case
``paddle-to-static-float-accumulator-float64.json``. Needs numpy and paddlepaddle; exits 1 while the bug is present.
"""

import sys

import numpy as np
import paddle


class Model(paddle.nn.Layer):
    def forward(self, x):
        y = paddle.tanh(x)
        acc = 0.0
        i = 0
        while i < 4 and y.mean() < -0.25:
            i += 1
            acc = acc + y.mean()
            y = paddle.nn.functional.sigmoid(y)
        return acc


x = paddle.to_tensor(-np.ones((2, 3), np.float32))  # the loop runs (once: sigmoid makes the mean positive)
e = Model()(x)
s = paddle.jit.to_static(Model(), full_graph=True)(x)
print("paddle", paddle.__version__)
print("eager:    ", e.dtype, float(e))
print("to_static:", s.dtype, float(s))
same = e.dtype == s.dtype and np.allclose(float(e), float(s))
print("verdict:", "agrees with eager" if same else
      "to_static carries the Python float as float64 (silent dtype change)")
sys.exit(0 if same else 1)
