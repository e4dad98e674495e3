"""Our process or Paddle? AST to_static fails on an `if` on a tensor whose branch reassigns a zero-size tensor, then
adds it: 'Axis should be less than or equal to 5, but received axis is 6' (issue 15: seed-0 paddle campaigns, cases
4a3c9c3279f3 and 10f627b498d1, to_static and to_static_per_call in train mode; minimised by conformance triage to
this model, `cases/paddle-to-static-if-empty-tensor-axis.json`).

Needs only numpy and paddle (3.3.1 here). `c` has shape [2, 0, 0, 3, 3]; after the pd_op.if, `d + c` is refused by
the broadcast check as if `c` had rank 6. Dygraph runs it; with no zero-size dim (shape [2, 1, 1, 3, 3]) to_static
runs it too; eval() or train(), with or without gradients, fails the same way.

Run: python paddle_if_empty_tensor_axis.py   (exit status 1 while the bug is present)
"""

import sys

import numpy as np
import paddle


class Model(paddle.nn.Layer):
    def forward(self, a, b, c):
        d = -c
        if a.sum() > 0.0:
            pass
        else:
            c = -c
        e = d + c  # noqa: F841 - unused, as in the minimised case
        return b


def main() -> int:
    a = paddle.to_tensor(np.float32(-1.0))
    b = paddle.to_tensor(np.ones([2, 3, 0, 0, 1], np.float32))
    c = paddle.to_tensor(np.ones([2, 0, 0, 3, 3], np.float32))
    model = Model()
    model.eval()
    print("dygraph:", model(a, b, c).shape)
    spec = [paddle.static.InputSpec(t.shape, "float32") for t in (a, b, c)]
    static = paddle.jit.to_static(model, input_spec=spec, full_graph=True)
    try:
        print("to_static:", static(a, b, c).shape)
    except ValueError as e:
        print("to_static fails:", str(e).strip().splitlines()[-3].strip())
        print("verdict: Paddle (AST to_static loses the rank of a zero-size tensor through pd_op.if)")
        return 1
    print("verdict: fixed (to_static runs it as dygraph does)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
