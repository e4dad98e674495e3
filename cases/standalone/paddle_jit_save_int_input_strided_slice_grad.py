"""Paddle jit.save/jit.load: an integer input (its InputSpec's stop_gradient False by default) sliced with a step,
the loaded layer fine-tuned.

``forward(m, x): return m[:, :, 1::3], paddle.tanh(x)`` with m uint8: dygraph trains it (no gradient for the
integer input). jit.save builds the program with the InputSpec's ``stop_gradient=False`` also for the uint8 input,
and the loaded layer in train() builds ``strided_slice_grad`` for it, which has no uint8 CPU kernel: ``op
[pd_op.strided_slice_grad] kernel output args (0) defs should equal op outputs (1)``. ``InputSpec(...,
stop_gradient=True)`` for the integer input runs. Found in grad and train modes (campaign seed 0, 300 s, cases
a846d718b71c, 02fecd90a6d3, d84d878db4bc, 373c6e0ca53e); known bug ``paddle_jit_save.bool_input_gradient`` (an
integer or bool input's gradient). Needs numpy and paddlepaddle; exits 1 while the bug is present.
"""

import os
import sys
import tempfile

import numpy as np
import paddle


class Model(paddle.nn.Layer):
    def forward(self, m, x):
        return m[:, :, 1::3], paddle.tanh(x)


rng = np.random.default_rng(0)
mn = rng.integers(0, 9, (2, 1, 5)).astype(np.uint8)
xn = rng.uniform(-1, 1, (2, 3)).astype(np.float32)
ok = True
for int_stops_gradient in (True, False):
    spec = [paddle.static.InputSpec([None, 1, 5], "uint8", stop_gradient=int_stops_gradient),
            paddle.static.InputSpec([None, 3], "float32")]
    with tempfile.TemporaryDirectory() as folder:
        prefix = os.path.join(folder, "model")
        paddle.jit.save(paddle.jit.to_static(Model(), input_spec=spec, full_graph=True), prefix)
        loaded = paddle.jit.load(prefix)
    loaded.train()
    x = paddle.to_tensor(xn, stop_gradient=False)
    try:
        sliced, y = loaded(paddle.to_tensor(mn), x)
        y.sum().backward()
        fine, got = x.grad is not None, "trains"
    except RuntimeError as e:
        fine, got = False, next(line.strip() for line in str(e).splitlines() if "kernel output args" in line)
    print(f"uint8 InputSpec stop_gradient={int_stops_gradient}: the loaded layer {got}", "" if fine else "<- fails")
    ok &= fine
print("paddle", paddle.__version__, "verdict:", "agrees with eager" if ok else
      "a loaded layer builds a gradient for an integer input")
sys.exit(0 if ok else 1)
