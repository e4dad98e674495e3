"""Our process or Paddle? inference / inference_no_ir_optim mismatches of a layer in train() with a batch norm after
an early return (campaign seed 0 of 2026-11-28: cases 2dad9d459902, 506ca4c17b23); inference_no_onednn passes.

Needs only numpy and paddle (3.3.1 here). `if x.mean() < -0.97: return x`, then F.batch_norm(..., training=True):
jit.save of the layer in train() keeps that batch norm in training mode (is_test=false, inside the pd_op.if), and a
Paddle Inference predictor without oneDNN normalises with the batch's statistics, as dygraph does; with oneDNN it
uses the running statistics (here mean 0, variance 1: it returns x).

Run: python paddle_inference_onednn_batch_norm_training.py   (exit status 1 while the bug is present)
"""

import os
import re
import sys
import tempfile

import numpy as np
import paddle
import paddle.nn.functional as F


class Model(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.w = self.create_parameter([3], default_initializer=paddle.nn.initializer.Constant(1.0))
        self.b = self.create_parameter([3], default_initializer=paddle.nn.initializer.Constant(0.0))
        self.register_buffer("mean", paddle.zeros([3]))
        self.register_buffer("var", paddle.ones([3]))

    def forward(self, x):
        if x.mean() < -0.97:
            return x
        x = F.batch_norm(x, self.mean, self.var, self.w, self.b, training=self.training, momentum=0.9, epsilon=1e-05)
        return x


def predict(prefix: str, x: np.ndarray, onednn: bool) -> np.ndarray:
    config = paddle.inference.Config(prefix + ".json", prefix + ".pdiparams")
    config.disable_gpu()
    config.enable_onednn() if onednn else config.disable_onednn()
    config.disable_glog_info()
    predictor = paddle.inference.create_predictor(config)
    handle = predictor.get_input_handle("x")
    handle.reshape(x.shape)
    handle.copy_from_cpu(x)
    predictor.run()
    return predictor.get_output_handle(predictor.get_output_names()[0]).copy_to_cpu()


if __name__ == "__main__":
    x = np.random.RandomState(0).randn(2, 3).astype("float32")
    model = Model()
    model.train()
    prefix = os.path.join(tempfile.mkdtemp(), "model")
    spec = [paddle.static.InputSpec([None, 3], "float32", "x")]
    paddle.jit.save(paddle.jit.to_static(model, input_spec=spec, full_graph=True), prefix)
    with open(prefix + ".json") as f:
        print("saved is_test:", re.findall(r'"D":(true|false)\},"N":"is_test"', f.read()))
    fresh = Model()
    fresh.train()
    results = {"dygraph": fresh(paddle.to_tensor(x)).numpy(), "no oneDNN": predict(prefix, x, False),
               "oneDNN": predict(prefix, x, True)}
    for how, out in results.items():
        print(f"{how:9s} {out.ravel().round(4).tolist()}")
    wrong = not np.allclose(results["oneDNN"], results["dygraph"], atol=1e-4)
    print("verdict:", "Paddle: the oneDNN predictor runs a training-mode batch norm on the running statistics"
          if wrong else "not reproduced")
    sys.exit(1 if wrong else 0)
