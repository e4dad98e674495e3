"""Paddle AST to_static: a registered buffer reassigned inside an ``if`` on a tensor.

``if x.max() > -1.5: self.b = self.b + 1.0; x = x * (self.b * 0.1 + 1.0)`` with ``b`` a buffer
(``register_buffer``) runs in dygraph; AST to_static (and so jit.save and every Paddle Inference predictor) fails to
convert it: ``TypeError: assignment to parameter 'b' should be of type Parameter or None, but got 'Value'`` (a buffer,
though the message says parameter: Layer.__setattr__ in the converted branch). The same assignment outside the if
converts (dy2static turns it into an assign). Found by conformance 2026-11-29 (paddlepaddle 3.3.1), campaign seed
0, 300 s, case 5f866811d138 (jit_save, inference); known bug ``pir_ast.buffer_assigned_in_tensor_if``; case
``paddle-to-static-buffer-assigned-in-tensor-if.json``. Needs numpy and paddlepaddle; exits 1 while the bug is
present.
"""

import sys

import numpy as np
import paddle


class InTensorIf(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.register_buffer("b", paddle.zeros([1]))

    def forward(self, x):
        if x.max() > -1.5:
            self.b = self.b + 1.0
            x = x * (self.b * 0.1 + 1.0)
        return x


class Unconditional(InTensorIf):
    def forward(self, x):
        self.b = self.b + 1.0
        return x * (self.b * 0.1 + 1.0)


x = paddle.to_tensor(np.random.default_rng(0).uniform(-1, 1, (2, 3)).astype(np.float32))
spec = [paddle.static.InputSpec([None, 3], "float32")]
ok = True
for cls in (InTensorIf, Unconditional):
    eager = cls()(x).numpy()
    try:
        static = paddle.jit.to_static(cls(), input_spec=spec, full_graph=True)(x).numpy()
        same, got = np.allclose(static, eager), "converts and agrees"
    except TypeError as e:
        same, got = False, next(line.strip() for line in str(e).splitlines() if "TypeError:" in line)
    print(f"{cls.__name__}: to_static {got}", "" if same else "<- differs from eager")
    ok &= same
print("paddle", paddle.__version__, "verdict:", "agrees with eager" if ok else
      "a buffer reassigned in a tensor if cannot be converted")
sys.exit(0 if ok else 1)
