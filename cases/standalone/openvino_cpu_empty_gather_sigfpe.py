"""Our process or OpenVINO? tf.openvino SIGFPE (the TensorFlow deployment campaign of 2026-11-28, rerun, seed 0,
case 334065f0ff78: an embedding, `tf.gather(table, indices)`, of an indices tensor of static shape [0]).

Needs only numpy and openvino (2026.4.1 here). A Gather of a [10, 2] table (a Constant, or a Parameter) along axis
0 by indices of static shape [0], built with OpenVINO's own opset: compile_model for the CPU dies of SIGFPE (an
integer division by zero, the zero-size indices); TensorFlow gives an empty [0, 2] tensor. Indices of shape [1]
compile. Each model is compiled in a child process (the crash kills it). Known bug OPENVINO_EMPTY_GATHER_SIGFPE
(conformance/paths/openvino_limitations.py).

Run: python openvino_cpu_empty_gather_sigfpe.py   (exit status 139 while the bug is present)
"""

import subprocess
import sys

import numpy as np


def run_child(n: str, table: str) -> None:
    import openvino as ov
    import openvino.opset13 as ops

    indices = ops.parameter([int(n)], np.int32, name="indices")
    values = np.arange(20, dtype=np.float32).reshape(10, 2)
    data = ops.constant(values) if table == "constant" else ops.parameter([10, 2], np.float32, name="table")
    params = [indices] if table == "constant" else [data, indices]
    model = ov.Model([ops.gather(data, indices, ops.constant(np.int64(0)))], params)
    compiled = ov.Core().compile_model(model, "CPU", {"INFERENCE_NUM_THREADS": 1})
    feeds = [np.zeros([int(n)], np.int32)] if table == "constant" else [values, np.zeros([int(n)], np.int32)]
    print(f"compiled, result of shape {list(compiled(feeds)[0].shape)}", flush=True)


def main() -> int:
    died = False
    for n, table in (("1", "constant"), ("0", "constant"), ("0", "parameter")):
        done = subprocess.run([sys.executable, __file__, n, table], capture_output=True, text=True, timeout=300)
        crash = done.returncode < 0
        died |= crash and n == "0"
        said = done.stdout.strip().splitlines()[-1:] or done.stderr.strip().splitlines()[-1:]
        print(f"Gather of a {table} [10, 2] by indices of shape [{n}]: exit status {done.returncode} "
              f"{' '.join(said)}{' (killed by a signal)' if crash else ''}")
    print("verdict:", "OpenVINO's CPU plugin crashes compiling a Gather by zero-size indices" if died
          else "not reproduced")
    return 139 if died else 0


if __name__ == "__main__":
    if len(sys.argv) > 1:
        run_child(*sys.argv[1:3])
        sys.exit(0)
    sys.exit(main())
