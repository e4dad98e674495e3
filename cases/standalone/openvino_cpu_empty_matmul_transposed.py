"""Our process or OpenVINO? torch.onnx_dynamo_openvino and torch.onnx_torchscript_openvino conversion errors
"Exception from src/inference/src/dev/plugin.cpp:54: object is not initialized" (the 2026-11-28 torch deployment
campaign, seed 0, cases 4b7680b79381 and ecbbd52cdbb3, minimised by conformance triage to
`torch.matmul(x, x.transpose(-2, -1))` of x with a dim of size 0, of static shape).

Needs only numpy and openvino (2026.4.1 here). The model is built with OpenVINO's own opset, no converter: a MatMul of
static shapes with a zero-size operand compiles for the CPU without a transpose, and fails to compile with one
(transpose_a or transpose_b, which the ONNX reader makes of MatMul(x, Transpose(x))), whichever dim is empty (the
batch, M, N or the contracted K); with an op fused after it the message is "Matmul doesn't support a degenerate case
when other ops are fused". The torch.openvino path (PyTorch reader, dynamic shapes) compiles the same model.
Known bug OPENVINO_EMPTY_MATMUL_TRANSPOSED (conformance/paths/torch/deployment_records.py).

Run: python openvino_cpu_empty_matmul_transposed.py   (exit status 1 while the CPU plugin refuses)
"""

import sys

import numpy as np
import openvino as ov
import openvino.opset13 as ops

CONFIG = {"INFERENCE_NUM_THREADS": 1, "INFERENCE_PRECISION_HINT": "f32"}


def matmul(shape_a, shape_b, transpose_a, transpose_b):
    """Compile and run a @ b (either transposed) of ones for the CPU; the result's shape and sum, or the error."""
    a = ops.parameter(shape_a, np.float32, name="a")
    b = ops.parameter(shape_b, np.float32, name="b")
    model = ov.Model([ops.matmul(a, b, transpose_a, transpose_b)], [a, b])
    try:
        compiled = ov.Core().compile_model(model, "CPU", CONFIG)
    except RuntimeError as e:
        return None, str(e).strip().splitlines()[-1]
    out = compiled.create_infer_request().infer({0: np.ones(shape_a, np.float32), 1: np.ones(shape_b, np.float32)})
    return out[0], ""


def main() -> bool:
    print("openvino", ov.get_version())
    failed = False
    for shape_a, shape_b, ta, tb, want in (
            ([3, 0], [0, 3], False, False, np.zeros((3, 3))),   # K empty, no transpose: the reference
            ([3, 0], [3, 0], False, True, np.zeros((3, 3))),    # K empty, b transposed: x @ x.T of x [3, 0]
            ([0, 3], [0, 3], True, False, np.zeros((3, 3))),    # K empty, a transposed
            ([0, 3], [2, 3], False, True, np.zeros((0, 2))),    # M empty
            ([0, 1, 1, 3], [0, 1, 1, 3], False, True, np.zeros((0, 1, 1, 1)))):  # batch empty
        got, error = matmul(shape_a, shape_b, ta, tb)
        ok = got is not None and got.shape == want.shape and np.array_equal(got, want)
        what = f"{got.shape} {got.ravel()[:3]}" if got is not None else f"compile_model failed: {error}"
        print(f"MatMul({shape_a}, {shape_b}, transpose_a={ta}, transpose_b={tb}): {what} "
              f"(want {want.shape} of zeros): {'ok' if ok else 'WRONG'}")
        failed |= not ok
    print("verdict:", "OpenVINO's CPU plugin cannot compile a transposed MatMul with a zero-size operand" if failed
          else "not reproduced")
    return failed


if __name__ == "__main__":
    sys.exit(1 if main() else 0)
