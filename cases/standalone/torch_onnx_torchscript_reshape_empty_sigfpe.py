"""Our process or PyTorch? torch.onnx_torchscript / torch.onnx_torchscript_openvino SIGFPE "in a program with ops ...
reshape_empty" (torch deployment campaign's rerun of 2026-11-28, seed 0, cases 436c75c01580, 9e9cd37c79a6;
minimised by hand, it crashes alone).

Needs only numpy and torch (2.13.0 here). torch.onnx.export(dynamo=False) of `x.reshape(0, 2)` with x an empty
tensor of shape [0, 2] dies of SIGFPE (an integer division by zero) in the ONNX shape inference of the Reshape node
the reshape symbolic creates (_jit_pass_onnx_node_shape_type_inference; pytorch#144144 met the same signal there).
x of shape [3, 0] reshaped to (0, 2) exports. Each export runs in a child process, so this script reports the crash.

Run: python torch_onnx_torchscript_reshape_empty_sigfpe.py   (exit status 139 while the bug is present)
"""

import subprocess
import sys

CHILD = r'''
import os, sys, tempfile, warnings
import torch
warnings.simplefilter("ignore")
class Model(torch.nn.Module):
    def forward(self, x):
        return x.reshape(0, 2)
shape = [int(d) for d in sys.argv[1].split(",")]
path = os.path.join(tempfile.mkdtemp(), "model.onnx")
torch.onnx.export(Model(), (torch.zeros(shape),), path, dynamo=False)
print("exported", flush=True)
'''


def child(shape: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", CHILD, shape], capture_output=True, text=True, timeout=300)


if __name__ == "__main__":
    codes = {}
    for shape in ("3,0", "0,2"):
        done = child(shape)
        codes[shape] = done.returncode
        said = "exported" if "exported" in done.stdout else (done.stderr.strip().splitlines() or [""])[-1][:120]
        print(f"x of shape [{shape}] -> reshape(0, 2): exit status {done.returncode} {said}")
    died = codes["0,2"] == -8  # SIGFPE
    print("verdict:", "PyTorch: the TorchScript ONNX exporter dies of SIGFPE on the reshape of an empty tensor"
          if died else "not reproduced")
    sys.exit(139 if died else 0)
