"""Saved Paddle models take and return their tensors in Paddle's flat order (``paddle.utils.flatten``: a dict's
values by sorted key); the runner flattens and rebuilds in insertion order. Every saved-model path reorders (issue
20, item 5: before, a dict whose keys were not sorted came back with every value in another leaf's place)."""

import numpy as np
import pytest

paddle = pytest.importorskip("paddle")

from conformance import check  # noqa: E402
from conformance.paths.paddle.saved import in_insertion_order, output_order  # noqa: E402

from .paddle_dict_models import ListWithDicts, UnsortedDicts, ZeroDim  # noqa: E402

SAVED = ["jit_save", "jit_save_methods", "jit_save_function", "inference", "inference_no_onednn", "onnx"]


def test_output_order_maps_paddles_flat_order_to_insertion_order():
    structure = {"zeta": None, "alpha": None, "mid": [None, None]}  # insertion order: zeta, alpha, mid.0, mid.1
    order = output_order(structure)
    assert order == [1, 2, 3, 0]  # Paddle's: alpha, mid.0, mid.1, zeta
    assert in_insertion_order(["a", "m0", "m1", "z"], order) == ["z", "a", "m0", "m1"]
    assert in_insertion_order(["a", "m0"], order) == ["a", "m0"]  # a count that differs is left to the runner


def test_saved_paths_pass_a_model_with_unsorted_dict_keys():
    x = np.ones((2, 2), np.float32)
    d = {"k1": np.full((2, 2), 10.0, np.float32), "k0": np.ones((2, 2), np.float32)}
    report = check(UnsortedDicts(), [x, d], paths=SAVED)
    for path in SAVED:
        assert report[path].outcome == "pass", (path, report[path])


def test_saved_paths_pass_a_returned_list_holding_an_unsorted_dict():
    report = check(ListWithDicts(), [np.ones((2, 2), np.float32)], paths=SAVED)
    for path in SAVED:
        assert report[path].outcome == "pass", (path, report[path])


def test_a_predictor_keeps_a_0d_input_0d():
    # the seed-0 deployment campaign (issue 18): np.ascontiguousarray fed the predictors a 0-d input as shape [1], so
    # 12 programs returned shape [1] where eager returns [] (named, wrongly, as the alias-loop known bug)
    paths = ["inference", "inference_no_onednn", "inference_no_ir_optim"]
    report = check(ZeroDim(), [np.array(0.5, np.float32)], paths=paths)
    for path in paths:
        assert report[path].outcome == "pass", (path, report[path])
