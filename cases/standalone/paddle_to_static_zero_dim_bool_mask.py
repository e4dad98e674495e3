"""Paddle AST to_static: a 0-d tensor indexed with a 0-d bool mask, ``y[m] = x[m]`` or ``x[x > 0]``.

Dygraph selects the elements where the mask holds (numpy's rule: a 1-d result for a 0-d mask).
``paddle.jit.to_static`` does not convert it: the static getitem's ``parse_index`` raises
``IndexError: list assignment index out of range``. A mask of rank 1 converts. Case
``paddle-to-static-zero-dim-bool-mask.json``; known bug ``pir_ast.zero_dim_bool_mask_index``. Needs numpy and
paddlepaddle; exits 1 while the bug is present.
"""

import sys

import numpy as np
import paddle


class Select(paddle.nn.Layer):
    def forward(self, x):
        return x[x > 0.0]


class Assign(paddle.nn.Layer):
    def forward(self, x):
        m = x > 0.0
        y = x.clone()
        y[m] = x[m] * 2.0
        return y


ok = True
for cls in (Select, Assign):
    for shape in ([], [3]):
        x = paddle.to_tensor(np.full(shape, 0.5, np.float32))
        eager = cls()(x).numpy()
        try:
            static = paddle.jit.to_static(cls(), full_graph=True)(x).numpy()
            same = static.shape == eager.shape and np.allclose(static, eager)
            got = f"{static.tolist()}"
        except IndexError as e:
            same, got = False, str(e).strip().splitlines()[-1].strip()
        print(f"{cls.__name__} of a tensor of shape {shape}: eager {eager.tolist()}, to_static {got}",
              "" if same else "<- differs")
        ok &= same
print("paddle", paddle.__version__, "verdict:", "agrees with eager" if ok else
      "to_static cannot index a 0-d tensor with a 0-d bool mask")
sys.exit(0 if ok else 1)
