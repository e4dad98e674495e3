"""Our process or PyTorch / onnxruntime? The torch.onnx_torchscript (and onnx_torchscript_openvino) findings of the
clean torch campaigns of 2026-11-28 (issue 20, infer mode), each minimised by hand to one op:

- "Attribute strides has incorrect size" at load (cases cc8a435f9ca7, f509b270c657): F.avg_pool1d / 2d / 3d of an
  unbatched input is written as an AveragePool whose kernel has one spatial dim too many (ONNX_UNBATCHED_AVG_POOL);
- "shape [1, 1, 1, 1, 1] != eager []" (cases aa9f31ea9831, 2c0f3a4e607c, 18539b040a63, fef7549d9330): torch.sum(x)
  of an x with a zero-size dim is written with keepdims=1 (pytorch#58141), so the 0-d sum keeps x's rank
  (ONNX_EMPTY_SUM_KEEPS_RANK);
- "shape [0] != eager [1]" (case 10238897525d): onnxruntime's ReduceProd / ReduceSum over an axis of size 0 keeps it
  at 0, where the onnx reference implementation gives 1 (onnxruntime#7563; ORT_EMPTY_AXIS_REDUCTION);
- "dtype float32 != eager float64" (cases 56c6b14efc18, 2bb178fc937b): torch.fmod(x, 1.5) (and x * 1.5, and x times a
  0-d int32 tensor) of a 0-d float64 x is cast to float32 by the exporter's scalar type promotion
  (ONNX_0D_FLOAT64_WITH_SCALAR);
- "Type 'tensor(float16)' ... of operator (Celu) ... is invalid" (case 18ef108a195c): F.celu of float16 is written
  as a Celu, which ONNX defines for float32 only (ONNX_CELU_FLOAT16).

Needs numpy, torch (2.13.0 here), onnx and onnxruntime (1.31.1 here): what torch.onnx.export(dynamo=False) writes,
run by onnxruntime (and the onnx reference implementation, to tell whose the wrong shape is).

Run: python torch_onnx_torchscript_export_rough_edges.py   (exit status 1 while any of the bugs is present)
"""

import io
import sys
import warnings

import onnx
import onnxruntime as ort
import torch
import torch.nn.functional as F
from onnx.reference import ReferenceEvaluator


class Op(torch.nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, x):
        return self.fn(x)


def exported(fn, x):
    """(onnxruntime's output or its error, the onnx reference implementation's output, eager's output)."""
    buf = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(Op(fn), (x,), buf, dynamo=False, input_names=["x"])
    feeds = {"x": x.numpy()}
    try:
        got = ort.InferenceSession(buf.getvalue(), providers=["CPUExecutionProvider"]).run(None, feeds)[0]
    except Exception as e:  # noqa: BLE001 - the refusal is what this script reports
        got = f"{type(e).__name__}: {str(e).splitlines()[0][-110:]}"
    try:
        ref = ReferenceEvaluator(onnx.load_from_string(buf.getvalue())).run(None, feeds)[0]
    except Exception:  # noqa: BLE001 - an invalid model has no reference output either
        ref = None
    return got, ref, fn(x).numpy()


def describe(a) -> str:
    return a if isinstance(a, str) else f"{a.dtype}{list(a.shape)}"


CHECKS = [
    ("avg_pool1d of an unbatched [3, 4]", lambda x: F.avg_pool1d(x, 1, 1, 0), torch.ones(3, 4)),
    ("avg_pool2d of an unbatched [1, 4, 3]", lambda x: F.avg_pool2d(x, 1, 1, 0), torch.ones(1, 4, 3)),
    ("avg_pool3d of an unbatched [1, 1, 4, 3]", lambda x: F.avg_pool3d(x, 1, 1, 0), torch.ones(1, 1, 4, 3)),
    ("torch.sum(x) of x [0, 2, 0, 3]", torch.sum, torch.zeros(0, 2, 0, 3)),
    ("torch.mean(x) of x [0, 3]", torch.mean, torch.zeros(0, 3)),
    ("torch.prod(x, -1, keepdim=True) of x [0]", lambda x: torch.prod(x, -1, keepdim=True), torch.zeros(0)),
    ("torch.sum(x, -1) of x [3, 0]", lambda x: torch.sum(x, -1), torch.zeros(3, 0)),
    ("torch.fmod(x, 1.5) of a 0-d float64 x", lambda x: torch.fmod(x, 1.5), torch.tensor(1.2, dtype=torch.float64)),
    ("x * 1.5 of a 0-d float64 x", lambda x: x * 1.5, torch.tensor(1.2, dtype=torch.float64)),
    ("x + 1.5 of a 0-d float64 x", lambda x: x + 1.5, torch.tensor(1.2, dtype=torch.float64)),
    ("x * torch.tensor(2, dtype=torch.int32) of a 0-d float64 x",
     lambda x: x * torch.tensor(2, dtype=torch.int32), torch.tensor(1.2, dtype=torch.float64)),
    ("F.celu(x) of a float16 x [2, 3]", lambda x: F.celu(x, 1.0), torch.ones(2, 3, dtype=torch.float16)),
]

if __name__ == "__main__":
    warnings.simplefilter("ignore")  # numpy's mean of an empty slice, in the reference implementation
    wrong = 0
    for name, fn, x in CHECKS:
        got, ref, eager = exported(fn, x)
        ok = not isinstance(got, str) and got.shape == eager.shape and got.dtype == eager.dtype
        wrong += not ok
        print(f"{'ok   ' if ok else 'WRONG'} {name}: onnxruntime {describe(got)}, onnx reference "
              f"{describe(ref) if ref is not None else '-'}, eager {describe(eager)}")
    print("verdict:", f"{wrong} of {len(CHECKS)} exports differ from eager" if wrong else "not reproduced")
    sys.exit(1 if wrong else 0)
