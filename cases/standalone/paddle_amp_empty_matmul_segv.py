"""Our process or Paddle? to_static_amp SIGSEGV (campaign seed 0 of 2026-11-28, case 19e6a7a5db30; conformance replay
of the minimised case crashes alone too, so it is not the use-after-free of many conversions in one process).

Needs only numpy and paddle (3.3.1 here; a CPU with oneDNN bfloat16 kernels). A to_static program under
paddle.amp.auto_cast(O1, bfloat16) that returns {'out0': matmul(x, x, transpose_y=True)} for x of shape [2, 1, 0]
(a zero-size contraction dim), beside an unused zero-size dict input: the first call segfaults (now and then it
hangs in Paddle's crash handler instead: the script gives it 120 s) in
egr::to_static::details::CreateTensorFromValue (pir::DenseTensorType::classof on the output's type). Dygraph runs it
(the campaign's eager run).
The conversion runs in a child process (from a file: to_static reads the source), so this script reports the crash.

Run: python paddle_amp_empty_matmul_segv.py   (exit status 139 while the bug is present)
"""

import os
import subprocess
import sys
import tempfile

CHILD = r'''
import numpy as np, paddle
class Model(paddle.nn.Layer):
    def forward(self, x1, x2):
        v3 = x1["k0"][0]
        return {"out0": paddle.matmul(x2, x2, transpose_y=True)}
class AutoCast(paddle.nn.Layer):
    def __init__(self, model):
        super().__init__()
        self.model = model
    def forward(self, x1, x2):
        with paddle.amp.auto_cast(level="O1", dtype="bfloat16"):
            out = self.model(x1, x2)
        return out
x1 = {"k0": [paddle.to_tensor(np.full((0, 3, 3), 1e30, np.float32))]}
x2 = paddle.to_tensor(np.zeros((2, 1, 0), np.float32))
model = Model()
model.eval()
spec = [{"k0": [paddle.static.InputSpec([None, 3, 3], "float32", "x1.k0.0")]},
        paddle.static.InputSpec([None, 1, 0], "float32", "x2")]
static = paddle.jit.to_static(AutoCast(model), input_spec=spec, full_graph=True)
print("to_static", static(x1, x2)["out0"].shape, flush=True)
'''



def child(*args) -> subprocess.CompletedProcess:
    """Run :data:`CHILD` from a file (to_static reads the model's source) in a fresh interpreter, its output to
    files (Paddle's fatal-signal handler can hang writing its report into a pipe)."""
    folder = tempfile.mkdtemp()
    path = os.path.join(folder, "child.py")
    with open(path, "w") as f:
        f.write(CHILD)
    with open(os.path.join(folder, "out"), "w+") as out, open(os.path.join(folder, "err"), "w+") as err:
        try:
            code = subprocess.run([sys.executable, path, *args], stdout=out, stderr=err, timeout=120).returncode
        except subprocess.TimeoutExpired:
            code = -9
        out.seek(0)
        err.seek(0)
        return subprocess.CompletedProcess(args, code, out.read(), err.read())


def crashed(done: subprocess.CompletedProcess) -> bool:
    """The child died of a signal, or aborted in native code (glibc's 'free(): ...' exits 1), not a Python error."""
    python_error = any(line.startswith("Traceback (most recent call last)") for line in done.stderr.splitlines())
    return done.returncode != 0 and not python_error


if __name__ == "__main__":
    done = child()  # a crash, or a hang in Paddle's crash handler: see timeout
    print("\n".join(line for line in done.stdout.splitlines() if line.startswith(("dygraph", "to_static"))))
    died = crashed(done)
    print(f"child exit status {done.returncode}")
    print("verdict:", "Paddle: the AMP program over a zero-size matmul segfaults when it first runs" if died
          else "not reproduced")
    sys.exit(139 if died else 0)
