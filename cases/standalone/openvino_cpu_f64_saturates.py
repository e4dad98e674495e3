"""Our process or OpenVINO? A torch.onnx_torchscript_openvino mismatch "finite where eager is NaN/Inf (candidate
-3.4028234663852886e+38, eager -inf)" (the 2026-11-28 torch deployment campaign, seed 0, case dea35656e6b2, minimised
by conformance triage to `x.to(torch.float32)` of a float64 x of 4.5e307).

Needs only numpy and openvino (2026.4.1 here). The model is built with OpenVINO's own opset: a float64 parameter,
converted to f32 (or only passed through a Relu), compiled for the CPU. The CPU plugin computes float64 in float32 and
narrows with saturation, so a value beyond float32's range becomes +-FLT_MAX where IEEE 754 narrowing (numpy, torch)
gives +-inf; openvinotoolkit/openvino#33564 reports the same FLT_MAX for a float64 division by zero.
Known bug OPENVINO_F64_SATURATES (conformance/paths/torch/deployment_records.py).

Run: python openvino_cpu_f64_saturates.py   (exit status 1 while the values differ)
"""

import sys

import numpy as np
import openvino as ov
import openvino.opset13 as ops

CONFIG = {"INFERENCE_NUM_THREADS": 1, "INFERENCE_PRECISION_HINT": "f32"}


def main() -> bool:
    print("openvino", ov.get_version())
    x = np.array([4.49423284e307, -1e300, 1e39, 1.0], np.float64)
    with np.errstate(over="ignore"):
        want = x.astype(np.float32)
    p = ops.parameter([-1], np.float64)
    model = ov.Model([ops.convert(p, "f32")], [p])
    got = ov.Core().compile_model(model, "CPU", CONFIG).create_infer_request().infer({0: x})[0]
    same = np.array_equal(got, want)
    print(f"x = {x} (float64)\n  Convert to f32: OpenVINO {got}\n  numpy astype(float32): {want}: "
          f"{'same' if same else 'DIFFERENT'}")
    print("verdict:", "OpenVINO's CPU plugin saturates float64 to float32 (FLT_MAX, not inf)" if not same
          else "not reproduced")
    return not same


if __name__ == "__main__":
    sys.exit(1 if main() else 0)
