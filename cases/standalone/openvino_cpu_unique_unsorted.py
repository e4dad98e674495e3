"""Our process or OpenVINO? tf.openvino and tf.onnx_openvino mismatch "[1]: 4 of 5 values differ" of an argsort's
indices passed to unique (the TensorFlow deployment campaign rerun of 2026-11-28, seed 0, case 2a689569fcbe: the op
unique emits tf.sort(tf.unique(tf.reshape(x, [-1])).y)).

Needs only numpy and openvino (2026.4.1 here). OpenVINO's TensorFlow reader writes tf.unique as its Unique op with
sorted=False (the order of first appearance), and its ONNX reader does the same for tf2onnx's Unique. The model here
is that op alone, built with OpenVINO's own opset: with sorted=False the CPU plugin gives [4, 0, 0, 0, 0] for
[4, 2, 1, 3, 0, 2] (the first value, then zeros) where the distinct values in order of first appearance are
[4, 2, 1, 3, 0], for int64, int32 and float32 alike; with sorted=True it gives [0, 1, 2, 3, 4], right. Known bug
OPENVINO_UNIQUE_UNSORTED (conformance/paths/openvino_limitations.py).

Run: python openvino_cpu_unique_unsorted.py   (exit status 1 while the bug is present)
"""

import sys

import numpy as np
import openvino as ov
import openvino.opset13 as ops

X = np.array([4, 2, 1, 3, 0, 2])


def expected(x: np.ndarray, sort: bool) -> np.ndarray:
    """The distinct values of ``x``: sorted, or in order of first appearance (tf.unique's order)."""
    values, first = np.unique(x, return_index=True)
    return values if sort else x[np.sort(first)]


def main() -> int:
    wrong = False
    for dtype in (np.int64, np.int32, np.float32):
        for sort in (False, True):
            x = X.astype(dtype)
            p = ops.parameter(list(x.shape), dtype, name="x")
            model = ov.Model([ops.unique(p, sorted=sort).output(0)], [p])
            got = ov.Core().compile_model(model, "CPU", {"INFERENCE_NUM_THREADS": 1})([x])[0]
            want = expected(x, sort)
            ok = got.shape == want.shape and np.array_equal(got, want)
            wrong |= not ok
            print(f"Unique(sorted={sort}) of {np.dtype(dtype).name} {x.tolist()}: OpenVINO {got.tolist()}, "
                  f"expected {want.tolist()}{'' if ok else '  <- wrong'}")
    print("verdict:", "OpenVINO's CPU plugin computes Unique with sorted=False wrong" if wrong else "not reproduced")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
