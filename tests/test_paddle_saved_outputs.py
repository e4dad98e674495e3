"""What a saved Paddle program leaves out of forward's outputs is named, never an exception of ours: a Python number
forward returns (a constant of the trace, not a value of the program) is the documented
``paddle_jit_save.python_outputs``, and a fine-tuned loaded layer returning fewer outputs than forward's nest
(``return [y, y]`` saved once) is returned flat for the oracle to judge, not packed into the nest."""

import numpy as np
import pytest

paddle = pytest.importorskip("paddle")

from conformance import check  # noqa: E402
from conformance.paths.paddle.saved import FineTuned  # noqa: E402


class ShapeNumberOut(paddle.nn.Layer):
    def forward(self, x):
        return x.shape[1] * 2 + 1, paddle.tanh(x)


def test_a_python_number_output_is_the_documented_saved_program_divergence():
    report = check(ShapeNumberOut(), [np.ones((2, 3), np.float32)], paths=["to_static", "jit_save", "inference"])
    assert report["to_static"].outcome == "pass", report["to_static"]
    for path in ("jit_save", "inference"):
        record = report[path]
        assert record.outcome == "expected_divergence", (path, record.outcome, record.message)
        assert "paddle_jit_save.python_outputs" in record.named, record.named


class _Loaded:
    """A loaded layer's interface as FineTuned uses it: its saved tensors by name, and a call."""

    _persistable_var_name_dict: dict = {}

    def __init__(self, outputs):
        self.outputs = outputs

    def __call__(self, *args):
        return self.outputs


def test_a_fine_tuned_layer_returning_fewer_outputs_than_the_nest_returns_them_flat():
    y = paddle.ones([2])
    tuned = FineTuned(_Loaded([y]), paddle.nn.Layer(), [0, 1])  # forward returned [y, y], saved once
    assert isinstance(tuned(paddle.ones([2])), list) and len(tuned(paddle.ones([2]))) == 1
    packed = FineTuned(_Loaded([y, y * 2]), paddle.nn.Layer(), {"a": 0, "b": [1]})(paddle.ones([2]))
    assert set(packed) == {"a", "b"} and len(packed["b"]) == 1
