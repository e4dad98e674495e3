"""Our process or Paddle? to_static / jit_save train-mode runtime errors "The input tensor output_grad_0 (or Fake_var)
of RunProgram(Grad)Op should be initialized" and "Tensor not initialized yet when DenseTensor::place() is called"
(campaign seed 0 of 2026-11-28: cases 8aed360b1c84, 0fd40ba9976a, 28d3cb58b1aa, e6837af40eb7 and ten more).

Needs only numpy and paddle (3.3.1 here). An AST to_static program returns a zero-size input through a pd_op.if
(`if y.sum() < 79: return [e, y]`): the zero-size output comes back uninitialized (no memory), where dygraph returns
an empty tensor; autograd through the program then fails (here 'Tensor holds no memory'; in conformance's loss,
which multiplies each output by a weight, 'output_grad_0 ... should be initialized'). The same program without the
`if` runs.

Run: python paddle_zero_size_output_through_if.py   (exit status 1 while the bug is present)
"""

import sys

import numpy as np
import paddle


class WithIf(paddle.nn.Layer):
    def forward(self, e, y):
        if y.sum() < 79.0:
            return [e, y]
        return [e, y]


class WithoutIf(paddle.nn.Layer):
    def forward(self, e, y):
        return [e, y]


def gradients(cls, static: bool):
    model = cls()
    model.train()
    if static:
        spec = [paddle.static.InputSpec([None, 5, 3], "float32", "e"), paddle.static.InputSpec([1, 1], "float32", "y")]
        model = paddle.jit.to_static(model, input_spec=spec, full_graph=True)
    e, y = paddle.to_tensor(np.zeros((0, 5, 3), np.float32)), paddle.to_tensor(np.ones((1, 1), np.float32))
    e.stop_gradient = y.stop_gradient = False
    try:
        out = model(e, y)
        loss = (out[0] * 2.0).sum() + (out[1] * 2.0).sum()
        ge, gy = paddle.grad([loss], [e, y], allow_unused=True)
        return f"ok: d/de shape {list(ge.shape)}, d/dy {gy.numpy().ravel().tolist()}"
    except Exception as exc:  # the bug: report it
        return f"{type(exc).__name__}: {str(exc).splitlines()[0]}"


if __name__ == "__main__":
    results = {f"{cls.__name__} {how}": gradients(cls, how == "to_static")
               for cls in (WithIf, WithoutIf) for how in ("dygraph", "to_static")}
    for how, result in results.items():
        print(f"{how:20s} {result}")
    wrong = not results["WithIf to_static"].startswith("ok")
    print("verdict:", "Paddle: a zero-size output of a pd_op.if comes back uninitialized, autograd fails on it"
          if wrong else "not reproduced")
    sys.exit(1 if wrong else 0)
