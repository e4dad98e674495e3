"""Our process or Paddle? The flaky outputs of to_static (seen on to_static_spec_from_tensor and to_static):
an output computed *before* a while loop is sometimes wrong, and a rerun is right.

Needs only numpy and paddle (3.3.1 here). Cause: the same PIR inplace pass as
paddle_inplace_pass_writes_input.py: `x = softmax(x)` after the loop is made in-place (softmax_) on the loop's
result, which is the input `x` itself when the loop does not run, so it writes into the input's memory. `y =
tanh(x)`, computed before the loop, reads that memory: the multi-threaded executor may run the in-place softmax
first, and `y` comes out as tanh(softmax(x)). How often depends on the machine's scheduling (campaign: 1 of 900 programs; here:
counted over many calls with fresh inputs). With FLAGS_pir_apply_inplace_pass=0 (a child process) every call is
right, and every call leaves the input as it was.

Run: python paddle_inplace_pass_flaky_read_before_loop.py [calls]   (exit status 1 while the bug is present)
"""

import os
import subprocess
import sys

import numpy as np
import paddle


class Model(paddle.nn.Layer):
    def forward(self, x):
        y = paddle.tanh(x)  # read before the loop
        i = 0
        while i < 4 and x.max() < 1.0:  # not taken (x.max() >= 1): the loop's result is x itself
            i += 1
            x = paddle.clip(x, 0.0, 1.0)
        x = paddle.nn.functional.softmax(x, axis=0)  # made softmax_ on the loop's result: the input's memory
        return y, x


def main(calls: int) -> bool:
    spec = [paddle.static.InputSpec([5, 4, 3, 8], "float32", "x")]
    static = paddle.jit.to_static(Model(), input_spec=spec, full_graph=True)
    rng = np.random.default_rng(0)
    wrong_y = moved = 0
    for _ in range(calls):
        a = rng.uniform(-3.0, 3.0, (5, 4, 3, 8)).astype(np.float32)
        x = paddle.to_tensor(a)
        with paddle.no_grad():
            y, _ = static(x)
        wrong_y += not np.allclose(y.numpy(), np.tanh(a), rtol=1e-5, atol=1e-6)
        moved += not np.array_equal(x.numpy(), a)
    print(f"{calls} calls: tanh(x) computed before the loop wrong in {wrong_y}; input changed by the call in {moved}")
    return bool(wrong_y or moved)


if __name__ == "__main__":
    calls = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    if os.environ.get("FLAGS_pir_apply_inplace_pass") == "0":
        sys.exit(1 if main(calls) else 0)
    wrong = main(calls)
    child = subprocess.run([sys.executable, __file__, str(calls)],
                           env={**os.environ, "FLAGS_pir_apply_inplace_pass": "0"}, capture_output=True, text=True)
    print("with FLAGS_pir_apply_inplace_pass=0:", child.stdout.strip().splitlines()[-1] if child.stdout.strip() else
          child.stderr.strip()[-300:])
    print("verdict:", "Paddle's PIR inplace pass (in-place write into the input, read before it by another op)"
          if wrong and child.returncode == 0 else "not reproduced" if not wrong else "wrong without the pass too")
    sys.exit(1 if wrong else 0)
