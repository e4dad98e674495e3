"""Our process or Paddle? inference / inference_no_ir_optim mismatches with huge values where eager has zeros
(campaign seed 0 of 2026-11-28: cases d463d325ce20, 46872843bce0, the second flaky).

Needs only numpy and paddle (3.3.1 here). A saved model `paddle.matmul(x, x, transpose_y=True)` for x of shape
[2, 3, 0] (a zero-size contraction dim): dygraph and a Paddle Inference predictor without oneDNN return zeros; with
oneDNN the predictor returns uninitialized memory (garbage, sometimes zeros: the script runs it five times).

Run: python paddle_inference_onednn_empty_matmul.py   (exit status 1 while the bug is present)
"""

import os
import sys
import tempfile

import numpy as np
import paddle


class Model(paddle.nn.Layer):
    def forward(self, x):
        return paddle.matmul(x, x, transpose_y=True)


def predictor(prefix: str, onednn: bool):
    config = paddle.inference.Config(prefix + ".json", prefix + ".pdiparams")
    config.disable_gpu()
    config.set_cpu_math_library_num_threads(1)
    config.enable_onednn() if onednn else config.disable_onednn()
    config.disable_glog_info()
    return paddle.inference.create_predictor(config)


def run(pred, x: np.ndarray) -> np.ndarray:
    handle = pred.get_input_handle("x")
    handle.reshape(x.shape)
    handle.copy_from_cpu(x)
    pred.run()
    return pred.get_output_handle(pred.get_output_names()[0]).copy_to_cpu()


if __name__ == "__main__":
    prefix = os.path.join(tempfile.mkdtemp(), "model")
    spec = [paddle.static.InputSpec([None, 3, 0], "float32", "x")]
    paddle.jit.save(paddle.jit.to_static(Model(), input_spec=spec, full_graph=True), prefix)
    x = np.zeros((2, 3, 0), np.float32)
    print("dygraph  ", Model()(paddle.to_tensor(x)).numpy().ravel()[:6])
    worst = {}
    for onednn in (False, True):
        pred = predictor(prefix, onednn)
        outs = [run(pred, x) for _ in range(5)]
        worst[onednn] = max(float(np.abs(o).max()) for o in outs)
        print(f"oneDNN {onednn!s:5s} largest |value| over 5 runs: {worst[onednn]:g}")
    wrong = worst[True] != 0.0
    print("verdict:", "Paddle: oneDNN's matmul over a zero-size dim returns uninitialized memory" if wrong
          else "not reproduced")
    sys.exit(1 if wrong else 0)
