"""Paddle AST to_static with a backward: a list appended to in a while loop on a tensor (a tensor array).

``l = [tanh(x)]; while z.mean() < 0: l.append(tanh(x)); z = sigmoid(z)``, then ``paddle.stack(l).sum(0)``: with
inputs that need a gradient, the converted layer in train() fails to build or run the backward of the loop:
``(Unimplemented) Only support DenseTensorType, SelectedRows, SparseCooTensorType, SparseCsrTensorType and VectorType``
where the stacked list reaches the outputs, ``(PreconditionNotMet) The (2) result and operand type is not equal ...
pd_op.tensor_array<f32> != pd_op.tensor_array<f32>`` where it does not. Dygraph computes both. Found in grad mode
(campaign seed 1, 600 s, case 2186ddd19249); known bug ``pir_ast.tensor_array_loop_backward`` (an IR case replays in
infer mode, where there is no backward). Needs numpy and paddlepaddle; exits 1 while the bug is present.
"""

import sys

import numpy as np
import paddle
import paddle.nn.functional as F


class Model(paddle.nn.Layer):
    def __init__(self, stacked_is_output):
        super().__init__()
        self.stacked_is_output = stacked_is_output

    def forward(self, x, y):
        steps = [paddle.tanh(x)]
        z = paddle.tanh(y)
        while z.mean() < 0.0:
            steps.append(paddle.tanh(x))
            z = F.sigmoid(z)
        stacked = paddle.stack(steps).sum(0)
        return (stacked if self.stacked_is_output else paddle.tanh(x)), z


xn = np.random.default_rng(0).uniform(-1, 1, (2, 3)).astype(np.float32)
spec = [paddle.static.InputSpec([None, 3], "float32")] * 2


def gradient(model):
    x, y = paddle.to_tensor(xn, stop_gradient=False), paddle.to_tensor(-np.abs(xn), stop_gradient=False)
    a, b = model(x, y)
    (a.sum() + b.sum()).backward()
    return x.grad.numpy()


ok = True
for stacked_is_output in (True, False):
    eager = gradient(Model(stacked_is_output))
    model = Model(stacked_is_output)
    model.train()
    try:
        static = gradient(paddle.jit.to_static(model, input_spec=spec, full_graph=True))
        same, got = np.allclose(static, eager), "a gradient"
    except (RuntimeError, NotImplementedError) as e:
        same, got = False, next(line.strip() for line in str(e).splitlines()
                                if "Unimplemented" in line or "PreconditionNotMet" in line)
    print(f"stacked list {'returned' if stacked_is_output else 'unused'}: eager a gradient, to_static {got}",
          "" if same else "<- differs")
    ok &= same
print("paddle", paddle.__version__, "verdict:", "agrees with eager" if ok else
      "the backward of a loop growing a tensor array fails")
sys.exit(0 if ok else 1)
