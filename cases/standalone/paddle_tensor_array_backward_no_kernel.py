"""Paddle static programs with a backward through a tensor array: no CPU kernel for ``pd_op.create_array_like``.

``a = paddle.tensor.create_array(paddle.float32); a = array_write(tanh(x), 0, a); y = array_read(a, 0)``, then
a loss of ``y``, with x needing a gradient: dygraph computes the gradient; AST ``to_static`` (and a ``jit.save``'d
layer loaded with ``jit.load`` in train()) fails building the backward, ``(PreconditionNotMet) op
[pd_op.create_array_like] kernel output args (0) defs should equal op outputs (1)``. The same error ended the
backward of a loaded layer whose GRU (a loop over a dynamic time dim appending its steps) AST to_static had turned
into a tensor array (case 4937a78aef71; that GRU alone, reduced, loses its gradient silently instead). Found in grad
and train modes (campaign seed 0, 300 s, cases 6d56320c78b1, d2b6a82c3d27, 6a3a6c531aba); known bug
``pir_ast.tensor_array_backward_no_kernel`` (an IR case replays in infer mode, where there is no backward). Needs
numpy and paddlepaddle; exits 1 while the bug is present.
"""

import os
import sys
import tempfile

import numpy as np
import paddle


class Written(paddle.nn.Layer):
    """A tensor array written and read once."""

    def forward(self, x):
        a = paddle.tensor.create_array(paddle.float32)
        a = paddle.tensor.array_write(paddle.tanh(x), paddle.full([1], 0, "int64"), a)
        return paddle.tensor.array_read(a, paddle.full([1], 0, "int64")) * 2.0


xn = np.linspace(-1.0, 1.0, 6, dtype=np.float32).reshape(2, 3)
spec = [paddle.static.InputSpec([None, 3], "float32")]


def gradient(model):
    x = paddle.to_tensor(xn, stop_gradient=False)
    model(x).sum().backward()
    return x.grad.numpy()


def loaded(model):
    prefix = os.path.join(tempfile.mkdtemp(), "model")
    paddle.jit.save(paddle.jit.to_static(model, input_spec=spec, full_graph=True), prefix)
    layer = paddle.jit.load(prefix)
    layer.train()
    return layer


ok = True
eager = gradient(Written())
for how, convert in (("to_static", lambda m: paddle.jit.to_static(m, input_spec=spec, full_graph=True)),
                     ("jit.save + jit.load", loaded)):
    model = Written()
    model.train()
    try:
        same, got = np.allclose(gradient(convert(model)), eager), "a gradient"
    except RuntimeError as e:
        same, got = False, next((line.strip() for line in str(e).splitlines() if "PreconditionNotMet" in line),
                                str(e).strip().splitlines()[0])
    print(f"{how}: eager a gradient, converted {got}", "" if same else "<- differs")
    ok &= same
print("paddle", paddle.__version__, "verdict:", "agrees with eager" if ok else
      "the backward through a tensor array fails (no kernel for pd_op.create_array_like)")
sys.exit(0 if ok else 1)
