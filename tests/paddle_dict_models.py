"""Models for tests/test_paddle_saved_order.py (in a file: to_static reads a model's source)."""

import paddle


class UnsortedDicts(paddle.nn.Layer):
    """A dict input and a dict output whose keys are not in sorted order: a saved model takes and returns its
    tensors in Paddle's flat order (dict values by sorted key), the runner in insertion order."""

    def forward(self, x, d):
        return {"zeta": x * 5.0, "alpha": x * 2.0, "mid": [d["k1"] * 3.0, d["k0"] * 7.0]}


class ListWithDicts(paddle.nn.Layer):
    """A returned list of two or more items (to_static keeps it as the program's outputs, unwrapped)."""

    def forward(self, x):
        return [{"b": x * 3.0, "a": x * 4.0}, x * 5.0]


class ZeroDim(paddle.nn.Layer):
    """A 0-d input and a 0-d output (a predictor fed the input as shape [1] returns shape [1])."""

    def forward(self, x):
        return -x == -x
