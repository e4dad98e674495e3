"""OpenVINO (CPU plugin; here through its ONNX reader, a SavedModel read by its TensorFlow reader does the same):
torch.stack([x, x], 2) of a zero-size x (shape [2, 0]) exported by the TorchScript ONNX exporter with a dynamic
batch dim (Unsqueeze, Unsqueeze, Concat) comes back with shape (0, 0, 2) where torch and onnxruntime give (2, 0, 2):
the dynamic leading dim is lost when the inputs of the Concat are empty. The same file with a static batch dim, a
non-empty x, and OpenVINO's PyTorch reader all give (2, 0, 2).

Found by conformance 2026-11-29 (torch 2.13.0, openvino 2026.4.1), the torch campaign (seed 0, 300 s, case
dac2bc969580, reduced by `conformance triage` to one statement); case cases/openvino-empty-concat-dynamic-dim.json.
Needs numpy, torch, onnx, onnxruntime, openvino. Prints a verdict; exits 1 while the bug is present.
"""

import io
import sys
import warnings

import numpy as np
import onnxruntime as ort
import openvino as ov
import torch

warnings.filterwarnings("ignore")


class Model(torch.nn.Module):
    def forward(self, x):
        return torch.stack([x, x], 2)


def main() -> int:
    x = np.zeros((2, 0), np.float32)
    f = io.BytesIO()
    torch.onnx.export(Model(), (torch.from_numpy(x),), f, dynamo=False, input_names=["x"],
                      dynamic_axes={"x": {0: "batch"}})
    eager = tuple(Model()(torch.from_numpy(x)).shape)
    onnxruntime = ort.InferenceSession(f.getvalue()).run(None, {"x": x})[0].shape
    core = ov.Core()
    openvino = core.compile_model(core.read_model(f.getvalue(), b""), "CPU")(x)[0].shape
    print(f"torch {eager}, onnxruntime {tuple(onnxruntime)}, openvino {tuple(openvino)}")
    if tuple(openvino) != eager:
        print("BUG PRESENT: OpenVINO loses the dynamic dim of a Concat of empty tensors")
        return 1
    print("fixed: OpenVINO gives torch's shape")
    return 0


if __name__ == "__main__":
    sys.exit(main())
