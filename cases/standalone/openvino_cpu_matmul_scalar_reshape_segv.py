"""Our process or OpenVINO? tf.openvino SIGSEGV (the TensorFlow deployment campaign of 2026-11-28, rerun, seed 0,
cases ffb989f6ff0f and d2e6efdc1b24: both programs compute `tf.tensordot(a, b, 1)` of two vectors, the op dot).

Needs only numpy and openvino (2026.4.1 here). OpenVINO's TensorFlow reader writes tf.tensordot of two vectors of n
values as Reshape(a, [1, n]) @ Reshape(b, [n, 1]) -> [1, 1], then a Reshape to a scalar (target shape []). The
model here is that, built with OpenVINO's own opset: compile_model for the CPU dies of SIGSEGV; without the final
Reshape to a scalar it compiles and gives [[n]], and a Reshape to a scalar of a [1, 1] Parameter compiles too.
Each model is compiled in a child process (the crash kills it). Known bug OPENVINO_MATMUL_SCALAR_RESHAPE_SEGV
(conformance/paths/openvino_limitations.py).

Run: python openvino_cpu_matmul_scalar_reshape_segv.py   (exit status 139 while the bug is present)
"""

import subprocess
import sys

import numpy as np

N = 2


def build(variant: str):
    """The model of ``variant``: "dot" (MatMul [1, N] x [N, 1], then Reshape to []), "no_reshape" (the MatMul
    alone), "reshape_only" (Relu of a [1, 1] Parameter, then Reshape to [])."""
    import openvino as ov
    import openvino.opset13 as ops

    scalar = ops.constant(np.zeros([0], np.int64))
    if variant == "reshape_only":
        p = ops.parameter([1, 1], np.float32, name="p")
        return ov.Model([ops.reshape(ops.relu(p), scalar, False)], [p])
    a = ops.parameter([1, N], np.float32, name="a")
    b = ops.parameter([N, 1], np.float32, name="b")
    product = ops.matmul(a, b, False, False)
    out = product if variant == "no_reshape" else ops.reshape(product, scalar, False)
    return ov.Model([out], [a, b])


def run_child(variant: str) -> None:
    import openvino as ov

    model = build(variant)
    compiled = ov.Core().compile_model(model, "CPU", {"INFERENCE_NUM_THREADS": 1})
    feeds = [np.ones(p.get_partial_shape().to_shape(), np.float32) for p in model.get_parameters()]
    print(f"compiled, result {compiled(feeds)[0].tolist()}", flush=True)


def main() -> int:
    died = False
    for variant, what in (("no_reshape", "MatMul [1, 2] x [2, 1]"),
                          ("reshape_only", "Reshape of a [1, 1] Relu to a scalar"),
                          ("dot", "MatMul [1, 2] x [2, 1], then Reshape to a scalar (tf.tensordot of vectors)")):
        done = subprocess.run([sys.executable, __file__, variant], capture_output=True, text=True, timeout=300)
        crash = done.returncode < 0
        died |= crash and variant == "dot"
        said = done.stdout.strip().splitlines()[-1:] or done.stderr.strip().splitlines()[-1:]
        print(f"{what}: exit status {done.returncode} {' '.join(said)}{' (killed by a signal)' if crash else ''}")
    print("verdict:", "OpenVINO's CPU plugin crashes compiling a MatMul of vectors reshaped to a scalar" if died
          else "not reproduced")
    return 139 if died else 0


if __name__ == "__main__":
    if len(sys.argv) > 1:
        run_child(sys.argv[1])
        sys.exit(0)
    sys.exit(main())
