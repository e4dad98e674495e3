"""Paddle to_static with a backward: ``y = -x; s = paddle.std(y, axis=2); return y, s``.

With ``x`` needing a gradient the converted program returns ``y - mean(y)`` for ``y``: PIR's inplace pass lets the
subtraction inside ``paddle.std`` (and ``paddle.var``) write into ``y``, whose own backward (``neg``, ``scale``)
does not need it, although ``y`` is an output. Without a gradient, after ``tanh`` (whose backward keeps its output),
or with ``FLAGS_pir_apply_inplace_pass=0`` it is right. Found in grad and train modes (campaign seed 0, case
2e145f3beba9); known bug ``pir_ast.inplace_pass_overwrites_output``. Needs numpy and paddlepaddle; exits 1 while the
bug is present.
"""

import sys

import numpy as np
import paddle


class Model(paddle.nn.Layer):
    def forward(self, x):
        y = -x
        return y, paddle.std(y, axis=2, unbiased=False, keepdim=True)


xn = np.random.default_rng(0).uniform(-1, 1, (2, 3, 4, 1)).astype(np.float32)
spec = [paddle.static.InputSpec([None, 3, 4, 1], "float32")]
ok = True
for needs_gradient in (False, True):
    x = paddle.to_tensor(xn, stop_gradient=not needs_gradient)
    eager = Model()(x)[0].numpy()
    static = paddle.jit.to_static(Model(), input_spec=spec, full_graph=True)(
        paddle.to_tensor(xn, stop_gradient=not needs_gradient))[0].numpy()
    same = np.allclose(static, eager)
    print(f"x needs a gradient: {needs_gradient}: y[:3] eager {eager.ravel()[:3]}, to_static {static.ravel()[:3]}",
          "" if same else "<- differs")
    ok &= same
print("paddle", paddle.__version__, "verdict:", "agrees with eager" if ok else
      "std's in-place subtraction overwrites an output of the program (silent wrong result)")
sys.exit(0 if ok else 1)
