"""Our process or Paddle? to_static / to_static_per_call / jit_save grad- and train-mode mismatches of a model with
an early return (campaign seed 0 of 2026-11-28, case 2dad9d459902: input gradients 0 where dygraph has them).

Needs only numpy and paddle (3.3.1 here). `if x.mean() < -0.97: return x` (not taken), then `x = -x; return x`:
through the AST to_static program the gradient with respect to x is 0; dygraph gives -1 per element. Without
rebinding x (`return -x`) the gradient is right; FLAGS_pir_apply_inplace_pass=0 does not change it.

Run: python paddle_early_return_rebound_no_gradient.py   (exit status 1 while the bug is present)
"""

import sys

import numpy as np
import paddle


class Rebound(paddle.nn.Layer):
    def forward(self, x):
        if x.mean() < -0.97:
            return x
        x = -x
        return x


class NotRebound(paddle.nn.Layer):
    def forward(self, x):
        if x.mean() < -0.97:
            return x
        return -x


def gradient(cls, static: bool):
    model = cls()
    model.train()
    if static:
        model = paddle.jit.to_static(model, input_spec=[paddle.static.InputSpec([None, 2], "float32", "x")],
                                     full_graph=True)
    x = paddle.to_tensor(np.array([[0.7, 0.2]], np.float32))
    x.stop_gradient = False
    return paddle.grad([model(x).sum()], [x])[0].numpy().ravel().tolist()


if __name__ == "__main__":
    results = {f"{cls.__name__} {how}": gradient(cls, how == "to_static")
               for cls in (Rebound, NotRebound) for how in ("dygraph", "to_static")}
    for how, grad in results.items():
        print(f"{how:22s} d/dx {grad}")
    wrong = results["Rebound to_static"] != results["Rebound dygraph"]
    print("verdict:", "Paddle: AST to_static loses the gradient of a variable rebound after an early return"
          if wrong else "not reproduced")
    sys.exit(1 if wrong else 0)
