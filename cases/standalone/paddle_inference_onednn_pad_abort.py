"""Our process or Paddle? inference (oneDNN predictor) SIGABRT (campaign seed 0 of 2026-11-28, case e68cc22291d1;
conformance triage minimised it to one statement and it crashes alone, so it is not the use-after-free of many
conversions in one process).

Needs only numpy and paddle (3.3.1 here). A saved model `F.pad(x, [0, 0], mode='constant', value=0.0)` of a 1-d x
of shape [3]: a Paddle Inference predictor with oneDNN aborts in phi::PadKernel<float, OneDNNContext> ('free():
invalid pointer'); without oneDNN it returns x. Each predictor runs in a child process, so this script reports the
crash.

Run: python paddle_inference_onednn_pad_abort.py   (exit status 139 while the bug is present)
"""

import os
import subprocess
import sys
import tempfile

CHILD = r'''
import os, sys, tempfile
import numpy as np, paddle
import paddle.nn.functional as F
class Model(paddle.nn.Layer):
    def forward(self, x):
        return F.pad(x, [0, 0], mode="constant", value=0.0)
prefix = os.path.join(tempfile.mkdtemp(), "model")
paddle.jit.save(paddle.jit.to_static(Model(), input_spec=[paddle.static.InputSpec([3], "float32", "x")],
                                     full_graph=True), prefix)
config = paddle.inference.Config(prefix + ".json", prefix + ".pdiparams")
config.disable_gpu()
config.enable_onednn() if sys.argv[1] == "onednn" else config.disable_onednn()
config.disable_glog_info()
predictor = paddle.inference.create_predictor(config)
x = np.array([1.0, 2.0, 3.0], np.float32)
handle = predictor.get_input_handle("x")
handle.reshape(x.shape)
handle.copy_from_cpu(x)
predictor.run()
print(sys.argv[1], predictor.get_output_handle(predictor.get_output_names()[0]).copy_to_cpu().tolist(), flush=True)
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
    status = {}
    for how in ("no_onednn", "onednn"):
        done = child(how)
        status[how] = done
        print(f"{how:9s} exit status {done.returncode} {done.stdout.strip()}")
    died = crashed(status["onednn"])
    print("verdict:", "Paddle: the oneDNN pad kernel aborts on a 1-d input" if died else "not reproduced")
    sys.exit(139 if died else 0)
