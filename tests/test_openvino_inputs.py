"""How OpenVINO models are fed (conformance.paths.openvino.OpenVinoModel): by name, by position, and not at all
where the reader left the model no inputs (OpenVINO's ONNX reader folds a 1-d input of static shape [0] into a
constant: the torch deployment campaign of 2026-11-28, case ffe101336043, was an UnmatchedInputs before)."""

import numpy as np
import pytest

pytest.importorskip("openvino")
onnx = pytest.importorskip("onnx")

from onnx import TensorProto, helper  # noqa: E402

from conformance.paths.openvino import OpenVinoModel, UnmatchedInputs, read_onnx  # noqa: E402


def _onnx_tanh(path, shapes: dict) -> str:
    """An ONNX file computing tanh of each input (named as in ``shapes``), one output each."""
    inputs = [helper.make_tensor_value_info(n, TensorProto.FLOAT, s) for n, s in shapes.items()]
    outputs = [helper.make_tensor_value_info(f"y_{n}", TensorProto.FLOAT, None) for n in shapes]
    nodes = [helper.make_node("Tanh", [n], [f"y_{n}"]) for n in shapes]
    model = helper.make_model(helper.make_graph(nodes, "g", inputs, outputs),
                              opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, str(path))
    return str(path)


def test_a_model_left_without_inputs_is_fed_nothing(tmp_path):
    model = read_onnx(_onnx_tanh(tmp_path / "m.onnx", {"x.0": [0], "x.1": [0]}), ["x.0", "x.1"], np.asarray)
    assert model.compiled.inputs == [] and model.feed == []
    outputs = model([np.zeros(0, np.float32), np.zeros(0, np.float32)])
    assert [o.shape for o in outputs] == [(0,), (0,)]


def test_a_folded_empty_input_beside_a_named_one_is_fed_by_name(tmp_path):
    model = read_onnx(_onnx_tanh(tmp_path / "m.onnx", {"a": [0], "b": ["N", 2]}), ["a", "b"], np.asarray)
    assert model.feed == ["b"]
    b = np.array([[0.5, -1.0]], np.float32)
    empty, out = model(np.zeros(0, np.float32), b)
    assert empty.shape == (0,) and np.allclose(out, np.tanh(b))


def test_unnamed_inputs_of_another_count_are_refused(tmp_path):
    import openvino as ov
    import openvino.opset13 as ops

    p = ops.parameter([-1], np.float32)
    with pytest.raises(UnmatchedInputs):
        OpenVinoModel(ov.Model([ops.tanh(p)], [p]), ["x.0", "x.1"], np.asarray)
