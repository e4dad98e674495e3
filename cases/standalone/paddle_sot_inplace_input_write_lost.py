"""Paddle SOT (``to_static(full_graph=False)``): ``v.tanh_(); v = paddle.atanh(v)`` on an input, in a forward that
also computes an unused ``conv2d`` with a bias.

Eager writes ``tanh(v)`` into the caller's tensor and returns ``atanh(tanh(v))``, finite. SOT's translated forward
neither writes the input nor feeds ``tanh(v)`` to ``atanh``, which reads the old values (NaN where ``|v| > 1``), on
every call. Without the unused conv2d, or without its bias, SOT is right (AST to_static loses every such write,
a known bug of its own: ``pir_ast.to_static_input_write``). Case
``paddle-sot-inplace-input-write-lost.json``; known bug ``sot.inplace_input_write_lost``. Needs numpy and
paddlepaddle; exits 1 while the bug is present.
"""

import sys

import numpy as np
import paddle
import paddle.nn.functional as F

rng = np.random.default_rng(0)
W0, W1 = rng.uniform(-0.5, 0.5, (10, 1, 2, 2)), rng.uniform(-0.5, 0.5, (3, 1, 1, 1))
B0, B1 = rng.uniform(-0.5, 0.5, (10,)), rng.uniform(-0.5, 0.5, (3,))


class Model(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        for name, value in (("w0", W0), ("w1", W1), ("b0", B0), ("b1", B1)):
            value = value.astype(np.float32)
            setattr(self, name, self.create_parameter(value.shape,
                                                      default_initializer=paddle.nn.initializer.Assign(value)))

    def forward(self, u, v):
        v.tanh_()
        v = paddle.atanh(v)
        out = F.conv2d(v, self.w0, self.b0, padding=1, dilation=2, groups=5)
        unused = F.conv2d(u, self.w1, self.b1)  # noqa: F841 - the bug needs it
        return out


def inputs():
    r = np.random.default_rng(1)
    return [paddle.to_tensor(r.uniform(-3, 3, shape).astype(np.float32)) for shape in ((1, 1, 1, 1), (1, 5, 2, 2))]


eager, sot = Model(), paddle.jit.to_static(Model(), full_graph=False)
ok = True
for call in range(2):
    a, b = inputs(), inputs()
    with paddle.no_grad():
        e, s = eager(*a).numpy(), sot(*b).numpy()
    written = np.allclose(a[1].numpy(), b[1].numpy())
    same = written and np.allclose(e, s)
    print(f"call {call}: NaN in SOT's output: {bool(np.isnan(s).any())} (eager: {bool(np.isnan(e).any())}); "
          f"input written as eager writes it: {written}", "" if same else "<- differs")
    ok &= same
print("paddle", paddle.__version__, "verdict:", "agrees with eager" if ok else
      "SOT loses the in-place write into the input (silent wrong result)")
sys.exit(0 if ok else 1)
