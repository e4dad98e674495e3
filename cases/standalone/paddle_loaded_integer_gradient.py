"""Our process or Paddle? jit_save train-mode runtime errors "Check data type error for op: add_n, input: inputs,
inputs.dtype: uint8 (int8, bool), and expected_dtype: bfloat16, ..." (campaign seed 0 of 2026-11-28: cases
e68d7a534b50, 54c0b4dbf2db, 84b779b24549 and eight more).

Needs only numpy and paddle (3.3.1 here). A model that uses an integer input twice (`paddle.stack([k, k], 0)`) next
to a float output: dygraph and to_static train it; the layer saved by paddle.jit.save and loaded by paddle.jit.load,
in train(), builds a backward that accumulates a gradient for the integer tensor with add_n, and fails.

Run: python paddle_loaded_integer_gradient.py   (exit status 1 while the bug is present)
"""

import os
import sys
import tempfile

import numpy as np
import paddle


class Model(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.w = self.create_parameter([3], default_initializer=paddle.nn.initializer.Constant(2.0))

    def forward(self, x, k):
        s = paddle.stack([k, k], 0)
        return [x * self.w, s + s]


def train_step(how: str):
    spec = [paddle.static.InputSpec([None, 3], "float32", "x"), paddle.static.InputSpec([None, 3], "uint8", "k")]
    model = Model()
    model.train()
    if how == "to_static":
        model = paddle.jit.to_static(model, input_spec=spec, full_graph=True)
    elif how == "jit.load":
        prefix = os.path.join(tempfile.mkdtemp(), "model")
        paddle.jit.save(paddle.jit.to_static(model, input_spec=spec, full_graph=True), prefix)
        model = paddle.jit.load(prefix)
        model.train()
    x = paddle.to_tensor(np.ones((2, 3), np.float32))
    x.stop_gradient = False
    k = paddle.to_tensor(np.ones((2, 3), np.uint8))
    try:
        out = model(x, k)
        grad = paddle.grad([out[0].sum()], [x])[0]
        return f"ok: d/dx {grad.numpy().ravel().tolist()}"
    except Exception as exc:  # the bug: report it
        return f"{type(exc).__name__}: {str(exc).splitlines()[0][:160]}"


if __name__ == "__main__":
    results = {how: train_step(how) for how in ("dygraph", "to_static", "jit.load")}
    for how, result in results.items():
        print(f"{how:9s} {result}")
    wrong = not results["jit.load"].startswith("ok")
    print("verdict:", "Paddle: the loaded layer's backward accumulates a gradient for an integer tensor"
          if wrong else "not reproduced")
    sys.exit(1 if wrong else 0)
