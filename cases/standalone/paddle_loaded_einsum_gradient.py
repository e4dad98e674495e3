"""The backward of a layer loaded by paddle.jit.load (in train()) fails on any paddle.einsum: 'This kind of scene,
where VectorType grad be fulled with zeros should not occur.' Dygraph and to_static differentiate the same layer.
Found by conformance 2026-11-29 (paddlepaddle 3.3.1), the README's campaign (seed 0, case d3592c4345a7:
paddle.jit_save grad and train runtime_error), reduced by conformance triage to one einsum.

Needs only paddlepaddle (3.3.1 here). Run: python paddle_loaded_einsum_gradient.py   (exit status 1 while the
loaded layer's backward fails)
"""

import os
import sys
import tempfile

import numpy as np
import paddle


class Model(paddle.nn.Layer):
    def forward(self, x, y):
        return paddle.einsum("ij,ij->j", x, y)


spec = [paddle.static.InputSpec([2, 3], "float32")] * 2
path = os.path.join(tempfile.mkdtemp(), "model")
paddle.jit.save(Model(), path, input_spec=spec)
loaded = paddle.jit.load(path)
loaded.train()
rng = np.random.default_rng(0)
values = [rng.random((2, 3), dtype=np.float32) for _ in range(2)]


def gradients(layer):
    xs = [paddle.to_tensor(v, stop_gradient=False) for v in values]
    return [g.numpy() for g in paddle.grad(layer(*xs).sum(), xs)]


want = gradients(Model())
print("dygraph gradients:", want)
try:
    got = gradients(loaded)
except ValueError as e:
    print(f"FAILED: the loaded layer's backward raised ValueError: {e}")
    sys.exit(1)
same = all(np.allclose(g, w, rtol=1e-5, atol=1e-6) for g, w in zip(got, want))
print("loaded gradients:", got)
print("OK" if same else "FAILED: the loaded layer's gradients differ")
sys.exit(0 if same else 1)
