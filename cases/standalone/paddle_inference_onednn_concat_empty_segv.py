"""Our process or Paddle? inference_no_ir_optim (oneDNN predictor) SIGSEGV (Paddle deployment campaign of 2026-11-28,
seed 0, case 7c25dffcbd39; minimised by hand, it crashes alone).

Needs only numpy and paddle (3.3.1 here). A saved model `if a.shape[0] > 2: c = paddle.concat([c, c], 0)` with c a
zero-size tensor (shape [0, 5]) and a of a dynamic batch dim: a Paddle Inference predictor with oneDNN (IR
optimisation off, as the inference_no_ir_optim path) dies of SIGSEGV in phi::ConcatKernel<float,
OneDNNContext> (ConcatOneDNNHandler) when the branch concatenates the empty tensors; without oneDNN it runs (reading
the empty output then fails, 'Tensor holds no memory', a predictor's refusal of any zero-size output). Each
predictor runs in a child process, so this script reports the crash.

Run: python paddle_inference_onednn_concat_empty_segv.py   (exit status 139 while the bug is present)
"""

import os
import subprocess
import sys
import tempfile

CHILD = r'''
import os, sys, tempfile
import numpy as np, paddle
from paddle.static import InputSpec
class Model(paddle.nn.Layer):
    def forward(self, a, c):
        if a.shape[0] > 2:
            c = paddle.concat([c, c], axis=0)
        return c, a * 2.0
prefix = os.path.join(tempfile.mkdtemp(), "model")
spec = [InputSpec([None, 1], "float32", "a"), InputSpec([0, 5], "float32", "c")]
paddle.jit.save(paddle.jit.to_static(Model(), input_spec=spec, full_graph=True), prefix)
config = paddle.inference.Config(prefix + ".json", prefix + ".pdiparams")
config.disable_gpu()
config.set_cpu_math_library_num_threads(1)
config.enable_onednn() if sys.argv[1] == "onednn" else config.disable_onednn()
config.switch_ir_optim(False)
config.disable_glog_info()
predictor = paddle.inference.create_predictor(config)
feeds = {"a": np.ones([4, 1], np.float32), "c": np.zeros([0, 5], np.float32)}  # 4 > 2: the branch concatenates
for name in predictor.get_input_names():
    handle = predictor.get_input_handle(name)
    handle.reshape(feeds[name].shape)
    handle.copy_from_cpu(feeds[name])
predictor.run()
print(sys.argv[1], "ran", flush=True)
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
    """The child died of a signal (SIGSEGV: -11, or Paddle's handler's exit), not a Python error."""
    python_error = any(line.startswith("Traceback (most recent call last)") for line in done.stderr.splitlines())
    return done.returncode != 0 and not python_error


if __name__ == "__main__":
    status = {}
    for how in ("no_onednn", "onednn"):
        done = child(how)
        status[how] = done
        where = "ConcatOneDNNHandler" if "ConcatOneDNNHandler" in done.stderr else ""
        said = done.stdout.strip().splitlines()[:1] if done.returncode == 0 else []  # a crash: Paddle's traceback
        print(f"{how:9s} exit status {done.returncode} {' '.join(said)} {where}")
    died = crashed(status["onednn"])
    print("verdict:", "Paddle: the oneDNN concat kernel crashes on zero-size inputs" if died else "not reproduced")
    sys.exit(139 if died else 0)
