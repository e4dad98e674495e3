"""The TorchScript ONNX exporter writes torch.index_add with a repeated index so that onnxruntime keeps one of the
rows added at that index instead of their sum. Found by conformance 2026-11-29 (torch 2.13.0, onnxruntime 1.31.1),
the torch campaign seed 0 (cases ba3c7ef3c1b4, ed5ecc9b40a4, 34468443d9d6, 703a1267b236: torch.onnx_torchscript
mismatch, 240 of 960 values).

Needs torch, onnx and onnxruntime (torch 2.13.0, onnxruntime 1.31.1 here). x.index_add(1, index, s) for x [2, 3, 4]:
with index [0, 1] the exported file agrees with eager; with index [1, 1] (both rows of s go to row 1) it does not.

Run: python torch_onnx_index_add_duplicates.py   (exit status 1 while the repeated index is computed wrong)
"""

import os
import sys
import tempfile
import warnings

import numpy as np
import onnxruntime as ort
import torch


class IndexAdd(torch.nn.Module):
    def __init__(self, index):
        super().__init__()
        self.index = index

    def forward(self, x, s):
        return x.index_add(1, torch.tensor(self.index), s)


def agrees(index) -> bool:
    torch.manual_seed(0)
    model, x, s = IndexAdd(index), torch.randn(2, 3, 4), torch.randn(2, 2, 4)
    path = os.path.join(tempfile.mkdtemp(), "index_add.onnx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(model, (x, s), path, dynamo=False, input_names=["x", "s"])
    got = ort.InferenceSession(path).run(None, {"x": x.numpy(), "s": s.numpy()})[0]
    return np.allclose(got, model(x, s).numpy(), atol=1e-6)


def main() -> bool:
    print("torch", torch.__version__, "onnxruntime", ort.__version__)
    distinct, repeated = agrees([0, 1]), agrees([1, 1])
    print(f"index [0, 1]: {'agrees' if distinct else 'DIFFERS'}\nindex [1, 1]: {'agrees' if repeated else 'DIFFERS'}")
    wrong = distinct and not repeated
    print("verdict:", "the exported index_add does not sum a repeated index" if wrong else "not reproduced")
    return wrong


if __name__ == "__main__":
    sys.exit(1 if main() else 0)
