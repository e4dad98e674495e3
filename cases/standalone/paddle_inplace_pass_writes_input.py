"""Our process or Paddle? A paddle.jit.to_static program writes into its own input tensor.

Needs only numpy and paddle (3.3.1 here). Issue 20, item 5: "the Paddle train-mode loss whose sign flips on the
4th-6th forward" (case 3f78946991dc; seen again as 6229067cff56 of the seed-0 train campaign). The train mode calls
the converted layer six times on the same input tensors (3 SGD, then 3 Adam steps); Paddle's program changes those
tensors on every call, so from the second forward on it computes on other inputs.

Cause: PIR's inplace pass turns `y = y + 0.25` into pd_op.scale_ (in place) where `y` is the result of a pd_op.if
whose untaken branch yields the input `x` itself: the in-place write lands in the input's memory. Shown here:
  1. the caller's input tensor changes after each call;
  2. a later read of `x` in the same program is wrong (`x + y * 0.0` is 0.25, dygraph says 0.0);
  3. six forwards on the same tensors: the loss drifts from the second on, as in the campaign;
  4. the same script with FLAGS_pir_apply_inplace_pass=0 (a child process) is right: Paddle's pass, not our process.

Run: python paddle_inplace_pass_writes_input.py   (exit status 1 while the bug is present)
"""

import os
import subprocess
import sys

import numpy as np
import paddle


class Model(paddle.nn.Layer):
    def forward(self, x):
        y = x
        if y.min() > 100.0:  # not taken: pd_op.if yields x itself
            y = y + 1.0
        y = y + 0.25  # made pd_op.scale_ on the if's result, i.e. on x's memory
        return y, x + y * 0.0


def main() -> bool:
    spec = [paddle.static.InputSpec([None, 3], "float32", "x")]
    static = paddle.jit.to_static(Model(), input_spec=spec, full_graph=True)
    dygraph = Model()
    wrong = False

    x = paddle.to_tensor(np.zeros((2, 3), np.float32))
    with paddle.no_grad():
        out = static(x)
    moved = float(np.abs(x.numpy()).max())
    print(f"1. input after one call: changed by {moved} (must be 0)")
    wrong |= moved != 0.0

    with paddle.no_grad():
        expected = dygraph(paddle.to_tensor(np.zeros((2, 3), np.float32)))
    got, want = float(out[1].numpy().max()), float(expected[1].numpy().max())
    print(f"2. x + y * 0.0: to_static {got}, dygraph {want}")
    wrong |= got != want

    x = paddle.to_tensor(np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3))
    y, z = dygraph(x)
    reference = round(float((y * 0.5 + z).sum()), 4)
    losses = []
    for _ in range(6):  # what conformance's train mode does: one batch, six forwards (paddle.grad each time)
        leaf = x.detach()
        leaf.stop_gradient = False
        y, z = static(leaf)
        loss = (y * 0.5 + z).sum()
        paddle.grad([loss], [leaf], allow_unused=True)
        losses.append(round(float(loss), 4))
    print(f"3. six forwards on one tensor, losses: {losses} (dygraph: {reference} every time)")
    wrong |= losses != [reference] * 6
    return wrong


if __name__ == "__main__":
    if os.environ.get("FLAGS_pir_apply_inplace_pass") == "0":
        sys.exit(1 if main() else 0)
    wrong = main()
    child = subprocess.run([sys.executable, __file__], env={**os.environ, "FLAGS_pir_apply_inplace_pass": "0"},
                           capture_output=True, text=True)
    print("4. with FLAGS_pir_apply_inplace_pass=0:", "right" if child.returncode == 0 else "still wrong")
    print("verdict:", "Paddle's PIR inplace pass writes into the program's input" if wrong and child.returncode == 0
          else "not reproduced" if not wrong else "wrong even without the inplace pass: look further")
    sys.exit(1 if wrong else 0)
