"""Paddle: ``paddle.tensor.array_length`` of a tensor array written in a loop.

Its documentation says it returns "0-D Tensor with shape []". In dygraph it returns a Python ``int``; under
``paddle.jit.to_static`` (and so in ``jit.save``d models and Paddle Inference) it returns an int64 tensor of shape
``[1]``: the same model returns an ``int`` eagerly and a 1-element tensor converted, and neither is the documented
0-D tensor. Needs numpy and paddlepaddle; exits 1 while the converted model's length is not what eager returns
(a Python int, or at least a 0-D tensor as documented).
"""

import sys

import numpy as np
import paddle


class Model(paddle.nn.Layer):
    def forward(self, x):
        rows = paddle.tensor.create_array(paddle.float32)
        for r in x:
            at = paddle.full([1], paddle.tensor.array_length(rows), 'int64')
            rows = paddle.tensor.array_write(paddle.tanh(r), at, rows)
        return paddle.stack(rows).sum(0), paddle.tensor.array_length(rows)


def show(value):
    return f"Tensor shape {list(value.shape)}" if isinstance(value, paddle.Tensor) else f"{type(value).__name__}"


x = paddle.to_tensor(np.random.default_rng(0).uniform(-1, 1, (3, 4)).astype(np.float32))
(_, eager_n), (_, static_n) = Model()(x), paddle.jit.to_static(Model(), full_graph=True)(x)
print(f"eager: array_length -> {show(eager_n)} {int(eager_n)}; to_static: {show(static_n)} {static_n.numpy()}")
documented = isinstance(static_n, paddle.Tensor) and list(static_n.shape) == []
same = isinstance(static_n, type(eager_n)) or documented
print("paddle", paddle.__version__, "verdict:", "agrees" if same else
      "to_static's array_length is a shape-[1] tensor, eager's a Python int (docs: a 0-D tensor)")
sys.exit(0 if same else 1)
