"""Paddle AST to_static: a tensor array created inside a converted loop.

``while v.mean() < 0.5: a = paddle.tensor.create_array(paddle.float32); a = array_write(tanh(x[0]), 0, a); v = v +
stack(a).sum(0) + 1.0`` runs in dygraph; the converted layer fails to build its program: ``ValueError:
(InvalidArgument) Type validation failed for the 0th output ... isa<paddle::dialect::DenseTensorType>()``
(pd_op2.cc). The same with the array created in ``for _ in range(n)``, n a Python int computed from the data (also
a converted loop), in a ``for _ in x`` over the rows of an input with a dynamic dim (written in a nested ``for r in
x``), and with a list created in the while and appended to in a ``for r in x`` (a tensor array there); jit.save and
every Paddle Inference predictor build the same program. Controls that run: the array created before the loop,
and a plain list in the while. Found by conformance
2026-11-29 (paddlepaddle 3.3.1), campaign seed 0, 300 s, cases 39f9c1158419, 687e7118bd9b, 78db147c0d17; known bug
``pir_ast.tensor_array_created_in_loop``; case ``paddle-to-static-array-created-in-loop.json``. Needs numpy and
paddlepaddle; exits 1 while the bug is present.
"""

import sys

import numpy as np
import paddle


def created_in_while(x, v):
    while v.mean() < 0.5:
        a = paddle.tensor.create_array(paddle.float32)
        a = paddle.tensor.array_write(paddle.tanh(x[0]), paddle.full([1], 0, "int64"), a)
        v = v + paddle.stack(a).sum(0) + 1.0
    return v


def created_in_range_loop(x, v):
    for _ in range(int(x.abs().sum() * 2.0) % 2 + 1):
        a = paddle.tensor.create_array(paddle.float32)
        a = paddle.tensor.array_write(paddle.tanh(x[0]), paddle.full([1], 0, "int64"), a)
        v = v + paddle.stack(a).sum(0)
    return v


def created_in_for_rows(x, v):
    for _ in x:
        a = paddle.tensor.create_array(paddle.float32)
        for r in x:
            i = paddle.full([1], paddle.tensor.array_length(a), "int64")
            a = paddle.tensor.array_write(paddle.tanh(r), i, a)
        v = v + paddle.stack(a).sum(0)
    return v


def list_grown_in_while(x, v):
    while v.mean() < 0.5:
        a = []
        for r in x:
            a.append(paddle.tanh(r))
        v = v + paddle.stack(a).sum(0) + 1.0
    return v


def created_before_while(x, v):
    a = paddle.tensor.create_array(paddle.float32)
    while v.mean() < 0.5:
        a = paddle.tensor.array_write(paddle.tanh(x[0]), paddle.full([1], 0, "int64"), a)
        v = v + paddle.stack(a).sum(0) + 1.0
    return v


def list_in_while(x, v):
    while v.mean() < 0.5:
        a = [paddle.tanh(x[0])]
        v = v + paddle.stack(a).sum(0) + 1.0
    return v


class Model(paddle.nn.Layer):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, x, v):
        return self.fn(x, v)


x = paddle.to_tensor(np.random.default_rng(0).uniform(-1, 1, (2, 3)).astype(np.float32))
v = paddle.zeros([3], "float32")
SPEC = [paddle.static.InputSpec([None, 3], "float32"), paddle.static.InputSpec([3], "float32")]
ok = True
for fn in (created_in_while, created_in_range_loop, created_in_for_rows, list_grown_in_while, created_before_while,
           list_in_while):
    model = Model(fn)
    model.eval()
    eager = model(x, v).numpy()
    try:
        static = paddle.jit.to_static(model, input_spec=SPEC, full_graph=True)(x, v).numpy()
        same, got = np.allclose(static, eager), "runs"
    except ValueError as e:
        same, got = False, next(line.strip() for line in str(e).splitlines() if "ValueError:" in line)
    print(f"{fn.__name__}: to_static {got}", "" if same else "<- differs from eager")
    ok &= same
print("paddle", paddle.__version__, "verdict:", "agrees with eager" if ok else
      "a tensor array created inside a converted loop cannot be built")
sys.exit(0 if ok else 1)
