"""Paddle AST to_static: ``paddle.unique`` of the result of ``paddle.unique`` on an int64 tensor.

Dygraph returns the sorted unique values. In a static program the second ``unique`` reads its int64 input as
float32 and fails: ``InvalidArgumentError: The type of data we are trying to retrieve (float32) does not match the
type of data (int64) currently contained in the container``; float32 inputs convert. Case
``paddle-to-static-unique-of-unique-int64.json``; known bug ``pir_ast.unique_int64_result_float32``. Needs numpy
and paddlepaddle; exits 1 while the bug is present.
"""

import sys

import numpy as np
import paddle


class Model(paddle.nn.Layer):
    def forward(self, x):
        return paddle.unique(paddle.unique(x))


ok = True
for x in (np.array([3, 1, 3, 2], np.int64), np.array([3.5, 1.5, 3.5], np.float32)):
    eager = Model()(paddle.to_tensor(x)).numpy()
    try:
        static = paddle.jit.to_static(Model(), full_graph=True)(paddle.to_tensor(x)).numpy()
        same, got = np.array_equal(static, eager), static.tolist()
    except ValueError as e:
        same, got = False, next(line.strip() for line in str(e).splitlines() if "InvalidArgumentError" in line)
    print(f"{x.dtype}: eager {eager.tolist()}, to_static {got}", "" if same else "<- differs")
    ok &= same
print("paddle", paddle.__version__, "verdict:", "agrees with eager" if ok else
      "unique of an int64 unique fails in a static program")
sys.exit(0 if ok else 1)
