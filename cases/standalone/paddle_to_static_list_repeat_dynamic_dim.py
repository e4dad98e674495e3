"""Paddle AST to_static: ``[t] * n`` with ``n`` from a dynamic dim (``n = x.shape[0]``).

Dygraph builds a list of n tensors. Under ``paddle.jit.to_static`` with dim 0 dynamic (``InputSpec([None, 3])``),
``x.shape[0]`` is a value of the static program, the list repetition calls its ``__rmul__`` and fails:
``TypeError: (InvalidType) full(): argument (position 2) must be double, but got list``; with the dim static it
converts. Case ``paddle-to-static-list-repeat-dynamic-dim.json``; known bug ``pir_ast.list_repeat_dynamic_dim``.
Needs numpy and paddlepaddle; exits 1 while the bug is present.
"""

import sys

import numpy as np
import paddle


class Model(paddle.nn.Layer):
    def forward(self, x):
        n = x.shape[0]
        steps = [paddle.tanh(x)] * n
        return paddle.stack(steps).sum(0)


x = paddle.to_tensor(np.ones((2, 3), np.float32))
eager = Model()(x).numpy()
ok = True
for dims in ([2, 3], [None, 3]):
    try:
        static = paddle.jit.to_static(Model(), input_spec=[paddle.static.InputSpec(dims, "float32")],
                                      full_graph=True)(x).numpy()
        same, got = np.allclose(static, eager), "agrees"
    except TypeError as e:
        same, got = False, next(line.strip() for line in str(e).splitlines() if "full()" in line)
    print(f"InputSpec {dims}: to_static {got}", "" if same else "<- differs")
    ok &= same
print("paddle", paddle.__version__, "verdict:", "agrees with eager" if ok else
      "a list repeated by a dynamic dim does not convert")
sys.exit(0 if ok else 1)
