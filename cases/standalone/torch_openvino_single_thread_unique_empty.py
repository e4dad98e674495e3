"""OpenVINO (PyTorch reader, CPU plugin): torch.unique of a zero-size int64 input (shape [4, 0]) in a model compiled
with INFERENCE_NUM_THREADS=1: the Unique node cannot infer its shape ('Cannot get dims for non static shape'), which
the default threading raises from infer(); with one thread the error is swallowed and infer() returns every output
with a zero-size shape, here `tanh(x)` of shape (0, 0) where torch gives (4, 3): a silent wrong result (on a larger
model, several calls may then end in SIGSEGV or SIGABRT). The Unique face of the GatherElements case in
openvino_cpu_single_thread_swallows_shape_error.py.

Found by conformance 2026-11-29 (torch 2.13.0, openvino 2026.4.1), the torch campaign (seed 0, case 401c31e9a1fd:
SIGSEGV/SIGABRT in infer, reduced by hand). Needs numpy,
torch, openvino. Prints a verdict; exits 1 while the bug is present.
"""

import sys
import warnings

import numpy as np
import openvino as ov
import torch


class Model(torch.nn.Module):
    def forward(self, x, e):
        return torch.tanh(x), torch.unique(e)


def main() -> int:
    x = torch.from_numpy(np.random.default_rng(0).uniform(-1, 1, (4, 3)).astype(np.float32))
    e = torch.zeros((4, 0), dtype=torch.int64)
    want = Model()(x, e)[0].numpy()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the tracer's warnings
        converted = ov.convert_model(Model(), example_input=(x, e))
    verdicts = {}
    for label, config in (("default threading", {}), ("INFERENCE_NUM_THREADS=1", {"INFERENCE_NUM_THREADS": 1})):
        compiled = ov.Core().compile_model(converted, "CPU", config)
        try:
            got = np.asarray(compiled([x.numpy(), e.numpy()])[0])
        except RuntimeError as error:  # the node's shape error, raised
            verdicts[label] = "raises: " + str(error).strip().splitlines()[-1][:80]
            continue
        ok = got.shape == want.shape and np.allclose(got, want, rtol=1e-5, atol=1e-6)
        verdicts[label] = "ok" if ok else f"WRONG: tanh(x) of shape {got.shape}, torch {want.shape}"
    for label, verdict in verdicts.items():
        print(f"{label:24} {verdict}")
    bad = any(v.startswith("WRONG") for v in verdicts.values())
    print("BUG PRESENT: with one thread OpenVINO swallows Unique's shape error and returns zero-size outputs" if bad
          else "OK: no silent wrong result")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
