"""Paddle AST to_static: ``y = None; if n > 1.5: y = tanh(x)``, with ``n`` a Python int from the data, then
``x if y is None else y``.

Eager returns ``x`` where the branch is not taken and ``tanh(x)`` where it is. ``paddle.jit.to_static`` turns the
``if`` into a ``pd_op.if`` (``n`` is a tensor in the static graph) and ``y`` into an ``UndefinedVar`` on the branch
that does not assign it; the converted model then returns that ``UndefinedVar`` object, not a tensor, on every call
(on paddle 3.3.1; the campaign's program, which returns more values, got a 0-d tensor): a silent wrong result. Case
``paddle-to-static-is-none-after-tensor-if.json``. Needs numpy and paddlepaddle; exits 1 while the bug is present.
"""

import sys

import numpy as np
import paddle


class Model(paddle.nn.Layer):
    def forward(self, x):
        n = int(x.abs().sum() * 2.0) % 3
        y = None
        if n > 1.5:
            y = paddle.tanh(x)
        return x if y is None else y


def show(value):
    return f"{type(value).__name__} {list(value.shape)}" if isinstance(value, paddle.Tensor) else type(value).__name__


rng = np.random.default_rng(0)
inputs = [paddle.to_tensor(rng.uniform(-1, 1, (3, 4)).astype(np.float32)) for _ in range(8)]
eager, static = Model(), paddle.jit.to_static(Model(), full_graph=True)
ok = True
for x in inputs:
    e, s = eager(x), static(x)
    same = isinstance(s, paddle.Tensor) and list(s.shape) == list(e.shape) and np.allclose(s.numpy(), e.numpy())
    print(f"n = {int(x.abs().sum() * 2.0) % 3}: eager {show(e)}, to_static {show(s)}", "" if same else "<- differs")
    ok &= same
print("paddle", paddle.__version__, "verdict:", "agrees with eager" if ok else
      "to_static loses x where y stays None (silent wrong result)")
sys.exit(0 if ok else 1)
