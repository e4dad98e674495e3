"""paddle.atan2 of operands that broadcast, one with a dynamic dim, fails in an AST to_static program: "The expanded
size (-1) for non-existing dimensions must be positive for expand_v2 op" (atan2 broadcasts with paddle.broadcast_to
of the static shapes, -1 for the dynamic dim). Found by conformance 2026-11-29 (paddle 3.3.1), the paddle campaign
seed 0 (case accd51e55218: to_static conversion_error in infer, grad and train).

Needs only PaddlePaddle (3.3.1 here) and numpy. atan2 of a [B, 3] (InputSpec [None, 3]) and a [3] tensor under
paddle.jit.to_static: the first call fails; dygraph runs it, and so does to_static with a static shape ([2, 3]).

Run: python paddle_to_static_atan2_dynamic_broadcast.py   (exit status 1 while the converted call fails)
"""

import sys

import numpy as np
import paddle


class Model(paddle.nn.Layer):
    def forward(self, x, y):
        return paddle.atan2(x, y)


def converted(batch_dim) -> str:
    spec = [paddle.static.InputSpec([batch_dim, 3], "float32"), paddle.static.InputSpec([3], "float32")]
    static = paddle.jit.to_static(Model(), input_spec=spec, full_graph=True)
    x, y = paddle.to_tensor(np.ones([2, 3], np.float32)), paddle.to_tensor(np.full([3], 2.0, np.float32))
    try:
        out = static(x, y)
    except Exception as e:  # noqa: BLE001 - the converted call's failure is what this script looks for
        return f"FAILS: {type(e).__name__}: {str(e).strip().splitlines()[-3][:160]}"
    return "ok" if np.allclose(out.numpy(), Model()(x, y).numpy()) else "WRONG values"


def main() -> bool:
    print("paddle", paddle.__version__)
    dynamic, static = converted(None), converted(2)
    print(f"to_static, InputSpec [None, 3] and [3]: {dynamic}")
    print(f"to_static, InputSpec [2, 3] and [3]: {static}")
    wrong = dynamic != "ok" and static == "ok"
    print("verdict:", "AST to_static cannot broadcast atan2's operands with a dynamic dim" if wrong
          else "not reproduced")
    return wrong


if __name__ == "__main__":
    sys.exit(1 if main() else 0)
