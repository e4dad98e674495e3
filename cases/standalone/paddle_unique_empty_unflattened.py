"""Our wrapper or Paddle? A predictor's `shape [0] != eager [0, 1, 3]` (Paddle deployment campaign of 2026-11-28,
seed 0, cases 948c9317549f, 304f381e1824; every saved path and the predictors agree, eager differs).

Needs only numpy and paddle (3.3.1 here). paddle.unique(x) with axis=None returns the distinct values flattened, a
1-d tensor; dygraph returns a zero-size x unflattened (shape [0, 1, 3]) where the static op (to_static, and so
jit.save, Paddle Inference and paddle2onnx) gives [0]: the eager reference is the wrong one.

Run: python paddle_unique_empty_unflattened.py   (exit status 1 while the bug is present)
"""

import sys

import numpy as np
import paddle
from paddle.static import InputSpec


def unique(x):
    return paddle.unique(x)


if __name__ == "__main__":
    x = paddle.to_tensor(np.zeros((0, 1, 3), np.int64))
    eager = list(paddle.unique(x).shape)
    nonempty = list(paddle.unique(paddle.to_tensor(np.ones((2, 1, 3), np.int64))).shape)
    static = list(paddle.jit.to_static(unique, input_spec=[InputSpec([0, 1, 3], "int64")], full_graph=True)(x).shape)
    print(f"dygraph unique of [0, 1, 3]: {eager}; of [2, 1, 3]: {nonempty}; to_static of [0, 1, 3]: {static}")
    wrong = eager != [0]
    print("verdict:", "Paddle dygraph: unique of a zero-size tensor is not flattened" if wrong else "not reproduced")
    sys.exit(1 if wrong else 0)
