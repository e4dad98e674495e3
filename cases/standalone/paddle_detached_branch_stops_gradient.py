"""Our process or Paddle? to_static loses the gradients of a model in train() whose data-dependent `if` detaches in
the branch that did not run (issue 20, item 5: train campaign seed 0, case 1fc39ee0233c; in grad mode its missing
gradients had been named, wrongly, as the eval() inference-program divergence, though the model was in train()).

Needs only numpy and paddle (3.3.1 here). AST to_static writes the `if` as a pd_op.if whose result is marked
stop_gradient because one branch yields a detached value; so whichever branch runs, no gradient reaches `x` or the
parameter `w`. Dygraph and SOT (full_graph=False) give both gradients.

Run: python paddle_detached_branch_stops_gradient.py   (exit status 1 while the bug is present)
"""

import sys

import numpy as np
import paddle


class Model(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.w = self.create_parameter([3], default_initializer=paddle.nn.initializer.Constant(2.0))

    def forward(self, x):
        y = x * self.w
        if y.sum() > 100.0:  # not taken
            y = y.detach()
        else:
            y = -y
        return y


def gradients(how: str):
    model = Model()
    model.train()
    spec = [paddle.static.InputSpec([None, 3], "float32", "x")]
    if how == "dygraph":
        fn = model
    elif how == "to_static":
        fn = paddle.jit.to_static(model, input_spec=spec, full_graph=True)
    else:
        fn = paddle.jit.to_static(model, full_graph=False)
    x = paddle.to_tensor(np.ones((2, 3), np.float32))
    x.stop_gradient = False
    gx, gw = paddle.grad([fn(x).sum()], [x, model.w], allow_unused=True)
    return [None if g is None else g.numpy().tolist() for g in (gx, gw)]


if __name__ == "__main__":
    results = {how: gradients(how) for how in ("dygraph", "sot", "to_static")}
    for how, (gx, gw) in results.items():
        print(f"{how:9s} d/dx {gx}  d/dw {gw}")
    wrong = results["to_static"] != results["dygraph"]
    print("verdict:", "Paddle's AST to_static drops the gradient through the pd_op.if" if wrong else "not reproduced")
    sys.exit(1 if wrong else 0)
