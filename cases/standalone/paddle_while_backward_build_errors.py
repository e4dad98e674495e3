"""Our process or Paddle? to_static / jit_save train-mode runtime errors building the backward of while loops
(campaign seed 0 of 2026-11-28): "call_vjp(): incompatible function arguments" (case bba6a6965ef5, known bug
WHILE_DETACHED_BACKWARD) and "'NoneType' object has no attribute 'get_parent_block'" (case 9e5c37096acc, known bug
WHILE_IF_BACKWARD_NO_BLOCK).

Needs only numpy and paddle (3.3.1 here). Dygraph differentiates both models; the AST to_static program (and, for
the first, the layer saved by jit.save and loaded) fails to build its backward: ir_backward passes a None gradient
to call_vjp(), or asks the block of a value no operator defines.

Run: python paddle_while_backward_build_errors.py   (exit status 1 while either bug is present)
"""

import os
import sys
import tempfile

import numpy as np
import paddle


class TwoWhiles(paddle.nn.Layer):
    """Two while loops on tensor conditions, the first reading a detached input."""

    def forward(self, x0, x1, x2):
        x2 = x2.detach()
        i = 0
        while i < 1 and x1.mean() < 1.5:
            i += 1
            y = -x2  # noqa: F841 - unused, as in the campaign's program
            x1 = -x1
        j = 0
        while j < 1 and x0.mean() < 0.0:
            j += 1
            z = x1 + x2  # noqa: F841
            x0 = -x0
        return x0


class WhileIf(paddle.nn.Layer):
    """An if inside a while loop on a tensor condition."""

    def forward(self, x0, x1):
        i = 0
        while i < 1 and x0.max() < -0.5:
            i += 1
            if x0.min() < 0.5:
                y = -x0  # noqa: F841
            x0 = -x1
        return x0


def gradients(cls, shapes, how: str) -> str:
    model = cls()
    model.train()
    spec = [paddle.static.InputSpec([None, *s[1:]], "float32", f"x{i}") for i, s in enumerate(shapes)]
    if how == "to_static":
        model = paddle.jit.to_static(model, input_spec=spec, full_graph=True)
    elif how == "jit.load":
        prefix = os.path.join(tempfile.mkdtemp(), "model")
        paddle.jit.save(paddle.jit.to_static(model, input_spec=spec, full_graph=True), prefix)
        model = paddle.jit.load(prefix)
        model.train()
    xs = [paddle.to_tensor(np.full(s, 0.5, np.float32)) for s in shapes]
    for x in xs:
        x.stop_gradient = False
    try:
        grads = paddle.grad([model(*xs).sum()], xs, allow_unused=True)
        return "ok " + str([None if g is None else float(g.sum()) for g in grads])
    except Exception as exc:  # the bug: report it
        return f"{type(exc).__name__}: {str(exc).strip().splitlines()[-1][:140]}"


if __name__ == "__main__":
    wrong = False
    for cls, shapes in ((TwoWhiles, [(1, 1, 1), (1, 1), (1, 1)]), (WhileIf, [(5, 4, 5), (5, 4, 5)])):
        results = {how: gradients(cls, shapes, how) for how in ("dygraph", "to_static", "jit.load")}
        for how, result in results.items():
            print(f"{cls.__name__:9s} {how:9s} {result}")
        wrong = wrong or not results["to_static"].startswith("ok")
    print("verdict:", "Paddle: AST to_static cannot build the backward of these while loops" if wrong
          else "not reproduced")
    sys.exit(1 if wrong else 0)
