"""Paddle static programs on the CPU: ops that dygraph runs for a dtype and a static program cannot.

``paddle.flatten`` and ``paddle.unsqueeze`` of float16 (dtypes their documentation lists) and ``paddle.diagonal``
of int8 run in dygraph; in a program built by ``paddle.jit.to_static`` (and so after ``jit.save``, in every Paddle
Inference predictor) PIR's kernel selection fails: ``op [pd_op.flatten] kernel output args (0) defs should equal op
outputs (1)``. Cases ``paddle-to-static-flatten-float16.json``, ``paddle-to-static-diagonal-int8.json``,
``paddle-to-static-unsqueeze-float16.json``; known bug ``pir_ast.static_kernel_output_args``. Needs numpy and
paddlepaddle; exits 1 while the bug is present.
"""

import sys

import numpy as np
import paddle

OPS = {
    "flatten float16": (lambda x: paddle.flatten(x), "float16"),
    "unsqueeze float16": (lambda x: paddle.unsqueeze(x, 0), "float16"),
    "diagonal int8": (lambda x: paddle.diagonal(x), "int8"),
}


class Model(paddle.nn.Layer):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, x):
        return self.fn(x)


ok = True
for name, (fn, dtype) in OPS.items():
    x = paddle.to_tensor(np.arange(6, dtype=np.float32).reshape(2, 3)).astype(dtype)
    eager = Model(fn)(x).numpy()
    try:
        static = paddle.jit.to_static(Model(fn), full_graph=True)(x).numpy()
        same, got = np.array_equal(static, eager), "agrees"
    except RuntimeError as e:
        same, got = False, next(line.strip() for line in str(e).splitlines() if "kernel output args" in line)
    print(f"{name}: eager shape {list(eager.shape)}, to_static {got}", "" if same else "<- differs")
    ok &= same
print("paddle", paddle.__version__, "verdict:", "agrees with eager" if ok else
      "a static program on the CPU has no kernel for an op dygraph runs")
sys.exit(0 if ok else 1)
