"""Our predictor wrapper or Paddle Inference? 'The variable named fetch_name_N is not found in the scope of the
executor' (Paddle deployment campaign of 2026-11-28, seed 0, cases fcd669655593, 4648a56f9445, cef9d57faa8b;
minimised by hand).

Needs only numpy and paddle (3.3.1 here). A model returning two equal computations (`a = x * x; b = x * x`) is saved
by paddle.jit.save with the two merged into one value; a Paddle Inference predictor on it lists two outputs
(fetch_name_0, fetch_name_1) and run() fails on the one it never fills, without oneDNN too (as here) and with IR
optimisation on or off; paddle.jit.load runs the same files.

Run: python paddle_inference_duplicate_computation_fetch.py   (exit status 1 while the bug is present)
"""

import os
import sys
import tempfile

import numpy as np
import paddle
from paddle.static import InputSpec


class Model(paddle.nn.Layer):
    def forward(self, x):
        a = x * x
        b = x * x
        return {"out0": b, "out1": a}


if __name__ == "__main__":
    prefix = os.path.join(tempfile.mkdtemp(), "model")
    paddle.jit.save(paddle.jit.to_static(Model(), input_spec=[InputSpec([], "float32", "x")], full_graph=True), prefix)
    print("jit.load:", [t.numpy() for t in paddle.jit.load(prefix)(paddle.to_tensor(0.7))])
    config = paddle.inference.Config(prefix + ".json", prefix + ".pdiparams")
    config.disable_gpu()
    config.disable_onednn()
    config.disable_glog_info()
    predictor = paddle.inference.create_predictor(config)
    handle = predictor.get_input_handle("x")
    value = np.array(0.7, np.float32)
    handle.reshape(value.shape)
    handle.copy_from_cpu(value)
    print("predictor outputs:", predictor.get_output_names())
    try:
        predictor.run()
        print("predictor:", [predictor.get_output_handle(n).copy_to_cpu() for n in predictor.get_output_names()])
        print("verdict: not reproduced")
    except RuntimeError as e:
        print("predictor:", str(e).strip().splitlines()[0])
        print("verdict: Paddle Inference: two outputs of one merged value, one fetch never filled")
        sys.exit(1)
