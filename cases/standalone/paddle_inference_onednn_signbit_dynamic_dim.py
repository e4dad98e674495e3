"""Our process or Paddle? inference / inference_no_ir_optim conversion errors 'RuntimeError: std::exception' (the
Paddle deployment campaign of 2026-11-28, seed 0, case 18716bce1a84: create_predictor itself fails).

Needs only numpy and paddle (3.3.1 here). A saved model `paddle.signbit(x)` of an x with a dynamic dim (InputSpec
[None]): a Paddle Inference predictor with oneDNN cannot be created (a bare 'std::exception'); without oneDNN it is
created, and with a static dim (InputSpec [3]) both are. signbit builds its ones from the static shape (-1 read as a
size: a tensor of shape [0]), which the oneDNN predictor's creation rejects. Known bug
PREDICTOR_ONEDNN_SIGNBIT_DYNAMIC_DIM (conformance/paths/paddle/onednn_limitations.py).

Run: python paddle_inference_onednn_signbit_dynamic_dim.py   (exit status 1 while the bug is present)
"""

import os
import sys
import tempfile

import paddle


class Model(paddle.nn.Layer):
    def forward(self, x):
        return paddle.signbit(x)


def created(shape, onednn: bool) -> str:
    prefix = os.path.join(tempfile.mkdtemp(), "model")
    spec = [paddle.static.InputSpec(shape, "float32", "x")]
    paddle.jit.save(paddle.jit.to_static(Model(), input_spec=spec, full_graph=True), prefix)
    config = paddle.inference.Config(prefix + ".json", prefix + ".pdiparams")
    config.disable_gpu()
    config.enable_onednn() if onednn else config.disable_onednn()
    config.disable_glog_info()
    try:
        paddle.inference.create_predictor(config)
        return "created"
    except RuntimeError as e:
        return f"{type(e).__name__}: {str(e).strip()[:80]}"


if __name__ == "__main__":
    print("paddle", paddle.__version__)
    seen = {}
    for label, shape in (("dynamic", [None]), ("static", [3])):
        for onednn in (False, True):
            seen[(label, onednn)] = created(shape, onednn)
            print(f"InputSpec {str(shape):6s} oneDNN {str(onednn):5s} {seen[(label, onednn)]}")
    bug = seen[("dynamic", True)] != "created" and seen[("dynamic", False)] == "created"
    print("verdict:", "Paddle: the oneDNN predictor cannot be created for signbit with a dynamic dim" if bug
          else "not reproduced")
    sys.exit(1 if bug else 0)
