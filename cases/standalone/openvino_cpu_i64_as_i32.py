"""Our process or OpenVINO? A tf.onnx_openvino mismatch "[1]: 4 of 10 values differ" with max_abs_err 9.2e18 (the
2026-11-29 tf campaign, seed 0, 300 s, case 70bb6006de28): one output is an int64 input passed through unchanged
(tf2onnx writes an Identity), whose values beyond int32's range come back wrong; onnxruntime runs the same ONNX
file exactly.

Needs only numpy and openvino (2026.4.1 here). The model is built with OpenVINO's own opset: an int64 parameter passed
through a Relu, or only returned, compiled for the CPU. The CPU plugin's integer inference precision is i32 (its
documentation, "Supported Inference Data Types"), so it keeps an int64 tensor as int32 and hands back the low 32 bits
sign-extended: 2**63 - 1 becomes -1, -2**63 becomes 0.
Case cases/openvino-i64-computed-as-i32.json pins it (tf.onnx_openvino, torch.onnx_torchscript_openvino); the
catalogue's documented divergence openvino.int64_computed_as_int32 names it where an example input holds an int64 value
beyond int32's range (the runner's fact ``int64_beyond_int32``).

Run: python openvino_cpu_i64_as_i32.py   (exit status 1 while the values differ)
"""

import sys

import numpy as np
import openvino as ov
import openvino.opset13 as ops


def run(model, x):
    return ov.Core().compile_model(model, "CPU").create_infer_request().infer({0: x})[0]


def main() -> bool:
    print("openvino", ov.get_version())
    info = np.iinfo(np.int64)
    x = np.array([info.max, info.min, info.max - 1, 2**40 + 1, -9, 7], np.int64)
    p = ops.parameter([-1], np.int64)
    wrong = False
    for label, model, want in (("Relu", ov.Model([ops.relu(p)], [p]), np.maximum(x, 0)),
                               ("Convert i64 to i64", ov.Model([ops.convert(p, "i64")], [p]), x)):
        got = run(model, x)
        same = got.dtype == want.dtype and np.array_equal(got, want)
        wrong |= not same
        print(f"{label} of {x.tolist()} (int64):\n  OpenVINO CPU {got.tolist()} ({got.dtype})\n  numpy        "
              f"{want.tolist()}: {'same' if same else 'DIFFERENT'}")
    print("verdict:", "OpenVINO's CPU plugin computes int64 as int32 (values beyond int32's range wrap)" if wrong
          else "not reproduced")
    return wrong


if __name__ == "__main__":
    sys.exit(1 if main() else 0)
