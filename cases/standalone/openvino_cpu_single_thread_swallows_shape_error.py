"""Our process or OpenVINO? torch.openvino / torch.onnx_torchscript_openvino / torch.onnx_dynamo_openvino mismatches
"6 of 6 values differ" (values like 3e-41) and "shape [0] != eager [2]" on outputs that do not even depend on the
failing op (clean torch campaigns of 2026-11-28, infer mode: cases d85d6e8f7cc0, 9bb6c90bc3df, 01a57ac16637,
8bb1a15559a2, f0316a4c504d, a98bc16310bd: a torch.gather whose index is smaller than its input in a dim other than
`dim`; case 3cd13b2ccc37: a torch.scatter whose src is larger than its index). Minimised by hand.

Needs only numpy and openvino (2026.4.1 here). OpenVINO's GatherElements requires indices of data's shape except on
the axis (its shape inference: "`data` and `indices` must have equal or intersecting dimensions"), which torch.gather
does not (index.size(d) <= input.size(d)). With a dynamic input shape the check runs at inference: the CPU plugin
raises it by default, but compiled with INFERENCE_NUM_THREADS=1 it swallows it, and infer() returns uninitialised
values, and outputs of shape [0] for other nodes of the model (here `x * 2`, which has nothing to do with the
gather). The same holds for ScatterElementsUpdate with updates larger than its indices. Static shapes are refused at
conversion (core.cpp:84 'Conversion is failed for: GatherElements').

Run: python openvino_cpu_single_thread_swallows_shape_error.py   (exit status 1 while the bug is present)
"""

import sys

import numpy as np
import openvino as ov
import openvino.opset13 as ops

INDEX = np.array([[[4, 1], [0, 1], [0, 0]]], dtype=np.int64)  # [1, 3, 2]: smaller than x's [5, 4, 5] in dims 0, 1


def model() -> ov.Model:
    x = ops.parameter(ov.PartialShape([-1, -1, -1]), np.float32, name="x")
    gathered = ops.gather_elements(x, ops.constant(INDEX), 2)
    doubled = ops.multiply(x, ops.constant(np.float32(2)))
    return ov.Model([gathered, doubled], [x])


if __name__ == "__main__":
    x = (np.arange(5 * 4 * 5) % 7).reshape(5, 4, 5).astype(np.float32)
    torch_gather = np.take_along_axis(x[:1, :3, :], INDEX, axis=2)  # what torch.gather(x, 2, INDEX) gives
    silent = False
    for config in ({}, {"INFERENCE_NUM_THREADS": 1}):
        try:
            gathered, doubled = (np.asarray(v) for v in ov.Core().compile_model(model(), "CPU", config)({"x": x})
                                 .values())
        except RuntimeError as e:
            print(f"config {config}: raises: {[ln for ln in str(e).splitlines() if 'Shapes' in ln][:1]}")
            continue
        right = np.array_equal(gathered, torch_gather) and np.array_equal(doubled, x * 2)
        silent |= not right
        print(f"config {config}: no error; gather {gathered.ravel()} (torch.gather: {torch_gather.ravel()}); x * 2 of "
              f"shape {list(doubled.shape)} (expected {list(x.shape)})")
    print("verdict:", "OpenVINO: with INFERENCE_NUM_THREADS=1 the CPU plugin swallows a shape-inference error at "
          "inference and returns garbage" if silent else "not reproduced")
    sys.exit(1 if silent else 0)
