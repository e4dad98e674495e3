"""Our process or OpenVINO? A torch.openvino mismatch "NaN/Inf where eager is finite (candidate inf, eager 1.0)"
(the 2026-11-28 torch deployment campaign, seed 0, case 265e7306ca1c, minimised by conformance triage to
`v1 = x // x; return -((-x) // v1)`: x // x is 0 for x = 0.17173822, and -x // 0 is -inf).

Needs only numpy and openvino (2026.4.1 here). The model is built with OpenVINO's own opset: the CPU plugin's float32
Divide computes a * (1 / b), not a correctly rounded a / b, so x / x is 0.99999994 for some x (numpy, torch and IEEE 754
give exactly 1) and x / c of an exact multiple of a constant c is one ulp off; a Floor after it (the PyTorch
reader's and the ONNX exporters' floor division) turns the ulp into a whole unit. INFERENCE_PRECISION_HINT f32 is set.
Known bug OPENVINO_DIVIDE_BY_RECIPROCAL (conformance/paths/torch/deployment_records.py).

Run: python openvino_cpu_divide_by_reciprocal.py   (exit status 1 while the divisions differ)
"""

import sys

import numpy as np
import openvino as ov
import openvino.opset13 as ops

CONFIG = {"INFERENCE_NUM_THREADS": 1, "INFERENCE_PRECISION_HINT": "f32"}


def compiled(build):
    """A model of one float32 vector parameter, compiled for the CPU."""
    p = ops.parameter([-1], np.float32)
    return ov.Core().compile_model(ov.Model([build(p)], [p]), "CPU", CONFIG)


def main() -> bool:
    print("openvino", ov.get_version())
    x = np.array([0.17173822, -0.33497757, 0.32030442], np.float32)
    quotient = compiled(lambda p: ops.divide(p, p)).create_infer_request().infer({0: x})[0]
    floored = compiled(lambda p: ops.floor(ops.divide(p, p))).create_infer_request().infer({0: x})[0]
    print(f"x = {x}\n  x / x: OpenVINO {quotient}, numpy {x / x}\n  floor(x / x): OpenVINO {floored}, numpy "
          f"{np.floor(x / x)}\n  x * (1 / x) in numpy: {x * (np.float32(1) / x)}")
    failed = not np.array_equal(floored, np.floor(x / x))
    c = np.float32(0.3)
    multiples = (np.arange(-20, 21, dtype=np.float32) * c).astype(np.float32)
    by_c = compiled(lambda p: ops.floor(ops.divide(p, ops.constant(c)))).create_infer_request().infer({0: multiples})[0]
    wrong = np.flatnonzero(by_c != np.floor(multiples / c))
    print(f"floor(k * 0.3 / 0.3), k = -20..20: {len(wrong)} of {len(multiples)} differ from numpy"
          + (f", e.g. {multiples[wrong[0]]} / 0.3: OpenVINO {by_c[wrong[0]]}, numpy {np.floor(multiples / c)[wrong[0]]}"
             if len(wrong) else ""))
    failed |= len(wrong) > 0
    print("verdict:", "OpenVINO's CPU plugin divides by multiplying with the reciprocal (not correctly rounded)"
          if failed else "not reproduced")
    return failed


if __name__ == "__main__":
    sys.exit(1 if main() else 0)
