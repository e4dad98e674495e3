"""Paddle jit.save/jit.load: a bool input (its InputSpec's stop_gradient False by default) through ``paddle.roll``,
the loaded layer fine-tuned.

``forward(m, x): return paddle.roll(m, 1, 0), paddle.tanh(x)`` with m bool: dygraph trains it (no gradient for the
bool). jit.save builds the program with the InputSpec's ``stop_gradient=False`` also for the bool input, and the
loaded layer in train() builds ``roll_grad`` for it: ``TypeError: (InvalidType) Check data type error for op:
roll_grad, input: x, x.dtype: bool``. ``InputSpec(..., stop_gradient=True)`` for the bool input runs. Found in grad and
train modes (campaign seed 0, case 2bb93dc45d86); known bug ``paddle_jit_save.bool_input_gradient`` (cf.
``paddle_jit_save.expand_bool_input_spec``). Needs numpy and paddlepaddle; exits 1 while the bug is present.
"""

import os
import sys
import tempfile

import numpy as np
import paddle


class Model(paddle.nn.Layer):
    def forward(self, m, x):
        return paddle.roll(m, 1, 0), paddle.tanh(x)


xn = np.random.default_rng(0).uniform(-1, 1, (2, 3)).astype(np.float32)
ok = True
for bool_stops_gradient in (True, False):
    spec = [paddle.static.InputSpec([None, 3], "bool", stop_gradient=bool_stops_gradient),
            paddle.static.InputSpec([None, 3], "float32")]
    with tempfile.TemporaryDirectory() as folder:
        prefix = os.path.join(folder, "model")
        paddle.jit.save(paddle.jit.to_static(Model(), input_spec=spec, full_graph=True), prefix)
        loaded = paddle.jit.load(prefix)
    loaded.train()
    x = paddle.to_tensor(xn, stop_gradient=False)
    try:
        rolled, y = loaded(paddle.to_tensor(xn < 0), x)
        y.sum().backward()
        fine, got = x.grad is not None, "trains"
    except TypeError as e:
        fine, got = False, str(e).strip().splitlines()[0][:120]
    print(f"bool InputSpec stop_gradient={bool_stops_gradient}: the loaded layer {got}", "" if fine else "<- fails")
    ok &= fine
print("paddle", paddle.__version__, "verdict:", "agrees with eager" if ok else
      "a loaded layer builds a gradient for a bool input")
sys.exit(0 if ok else 1)
