"""Our process or Paddle? inference (oneDNN predictor) mismatch: garbage values (-1e24, 3e-41, zeros) from an RNN
written as a loop over a dynamic time dim (found transplanting cases/paddle-to-static-amp-rnn-tensor-array-loop.json,
a unidirectional LSTM, 2026-11-28; the clean paddle campaigns of issue 20).

Needs only numpy and paddle (3.3.1 here). `for t in range(x.shape[0]): steps.append(paddle.tanh(paddle.matmul(x[t],
w, transpose_y=True)))`, then `paddle.stack(steps, 0)`, saved with a dynamic time dim (to_static turns the list into
a TensorArray and the loop into a while): a Paddle Inference predictor with oneDNN returns garbage, without oneDNN it
is right, and so is jit.load; the same loop with an elementwise `x[t] * w` instead of the matmul is right with oneDNN.

Run: python paddle_inference_onednn_matmul_in_loop.py   (exit status 1 while the bug is present)
"""

import os
import sys
import tempfile

import numpy as np
import paddle
from paddle.static import InputSpec


class Model(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        w = np.random.default_rng(0).uniform(-0.5, 0.5, (2, 1)).astype("float32")
        self.w = self.create_parameter([2, 1], default_initializer=paddle.nn.initializer.Assign(w))

    def forward(self, x):
        steps = []
        for t in range(x.shape[0]):
            steps.append(paddle.tanh(paddle.matmul(x[t], self.w, transpose_y=True)))
        return paddle.stack(steps, 0)


def predict(prefix: str, x: np.ndarray, onednn: bool) -> np.ndarray:
    config = paddle.inference.Config(prefix + ".json", prefix + ".pdiparams")
    config.disable_gpu()
    config.enable_onednn() if onednn else config.disable_onednn()
    config.disable_glog_info()
    predictor = paddle.inference.create_predictor(config)
    handle = predictor.get_input_handle(predictor.get_input_names()[0])
    handle.reshape(x.shape)
    handle.copy_from_cpu(x)
    predictor.run()
    return predictor.get_output_handle(predictor.get_output_names()[0]).copy_to_cpu()


if __name__ == "__main__":
    # to_static reads the model's source: this file
    prefix = os.path.join(tempfile.mkdtemp(), "model")
    static = paddle.jit.to_static(Model(), input_spec=[InputSpec([None, 1, 1], "float32", "x")], full_graph=True)
    paddle.jit.save(static, prefix)
    x = np.array([[[0.5]], [[-0.3]], [[0.9]]], np.float32)
    eager = Model()(paddle.to_tensor(x)).numpy()
    plain, onednn = predict(prefix, x, onednn=False), predict(prefix, x, onednn=True)
    print("eager      ", eager.ravel())
    print("no oneDNN  ", plain.ravel())
    print("oneDNN     ", onednn.ravel())
    wrong = not np.allclose(onednn, eager, rtol=1e-5, atol=1e-6)
    print("verdict:", "Paddle: the oneDNN predictor computes a matmul in a TensorArray loop wrongly" if wrong
          else "not reproduced")
    sys.exit(1 if wrong else 0)
