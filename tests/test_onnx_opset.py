"""The ONNX opset as a dimension (conformance.paths.onnx_opset): what the installed onnxruntime loads is asked
of onnxruntime itself, a refusal is a configuration error said once, and ``--onnx-opset`` reaches every
conversion through ConvertContext.onnx_opset."""

import os
import subprocess
import sys

import pytest

pytest.importorskip("onnxruntime")
onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper  # noqa: E402

from conformance.paths import ConvertContext  # noqa: E402
from conformance.paths import onnx_opset as O  # noqa: E402

#: An opset no onnxruntime of this machine's time loads.
FUTURE = onnx.defs.onnx_opset_version() + 30


def _file(path, opset=17, ir_version=8):
    value = helper.make_tensor_value_info
    graph = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "g", [value("x", TensorProto.FLOAT, [2])],
                              [value("y", TensorProto.FLOAT, [2])])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=ir_version),
              str(path))
    return path


def test_the_requested_opset_comes_from_the_option_or_the_environment(monkeypatch):
    monkeypatch.delenv(O.OPSET_ENV, raising=False)
    assert O.requested_opset() is None and O.requested_opset("17") == 17 and O.requested_opset(18) == 18
    monkeypatch.setenv(O.OPSET_ENV, "17")
    assert O.requested_opset() == 17
    with pytest.raises(ValueError):
        O.requested_opset("5")


def test_convert_context_carries_the_opset(monkeypatch, tmp_path):
    monkeypatch.delenv(O.OPSET_ENV, raising=False)
    ctx = ConvertContext(None, [], {}, None, "cpu", tmp_path)
    assert ctx.onnx_opset is None
    monkeypatch.setenv(O.OPSET_ENV, "17")
    assert ConvertContext(None, [], {}, None, "cpu", tmp_path).onnx_opset == 17
    assert ConvertContext(None, [], {}, None, "cpu", tmp_path, onnx_opset=15).onnx_opset == 15


def test_the_runtime_is_asked_what_it_loads():
    newest = O.newest_opset()
    assert newest >= 17, "the project's onnxruntime loads the exporters' opsets"
    assert O.refusal(17) == "" and O.refusal(newest) == ""
    refused = O.refusal(FUTURE)
    assert refused and "/onnxruntime_src/" not in refused  # its words, without the C++ source location


def test_a_refused_opset_is_one_configuration_error_naming_the_paths_and_the_way_out():
    errors = O.configuration_errors({"torch.onnx_dynamo": FUTURE, "torch.onnx_torchscript": FUTURE,
                                     "tf.onnx": 17})
    assert len(errors) == 1
    assert f"cannot load ONNX opset {FUTURE}" in errors[0]
    assert "torch.onnx_dynamo, torch.onnx_torchscript" in errors[0] and "tf.onnx" not in errors[0]
    assert f"--onnx-opset {O.newest_opset()}" in errors[0]
    assert O.configuration_errors({"torch.onnx_dynamo": 17, "paddle.onnx": 9}) == []


def test_a_file_the_runtime_cannot_load_is_a_configuration_error_not_a_finding(tmp_path):
    good = _file(tmp_path / "good.onnx")
    assert O.file_refusal(good) == ""
    O.check_loadable(good)
    future = _file(tmp_path / "future.onnx", ir_version=99)
    with pytest.raises(O.RuntimeCannotLoad, match="IR version 99"):
        O.check_loadable(future)


def test_lower_ir_version_restamps_what_an_exporter_stamped_too_new(tmp_path):
    path = _file(tmp_path / "m.onnx", opset=17, ir_version=10)
    assert O.lower_ir_version(path) == 8
    assert O.model_versions(path) == (8, {"": 17})
    assert O.lower_ir_version(path) == 8  # already the lowest: unchanged


def test_torch_dynamo_at_a_requested_opset_loads_after_restamping(tmp_path):
    """torch's dynamo exporter stamps IR version 10 whatever the opset: at ``--onnx-opset 17`` the conversion
    restamps IR 8, which onnxruntime releases of opset 17's time load."""
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnxscript")

    class Model(torch.nn.Module):
        def forward(self, x):
            return torch.relu(x) * 2 + 1

    path = tmp_path / "m.onnx"
    torch.onnx.export(Model(), (torch.randn(2, 3),), str(path), dynamo=True, opset_version=17, verbose=False)
    ir_version, opsets = O.model_versions(path)
    assert opsets[""] == 17
    assert O.lower_ir_version(path) == 8
    import numpy as np
    import onnxruntime

    session = onnxruntime.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    x = np.array([[-1, 0.5, 2]] * 2, np.float32)
    out = session.run(None, {session.get_inputs()[0].name: x})[0]
    assert np.allclose(out, np.maximum(x, 0) * 2 + 1)


@pytest.mark.skipif(not os.environ.get("CONFORMANCE_OLD_ORT_PYTHON"),
                    reason="set CONFORMANCE_OLD_ORT_PYTHON to a python with an older onnxruntime (e.g. 1.15.1)")
def test_an_older_onnxruntime_refuses_the_new_default_opset():
    """With onnxruntime 1.15.1 (its own environment): opset 20, torch 2.13's default, is refused once, as a
    configuration error naming the newest opset it loads (19); opset 17 loads."""
    code = ("from conformance.paths import onnx_opset as O; "
            "print(O.runtime_version(), O.newest_opset(), bool(O.refusal(20)), bool(O.refusal(17)))")
    done = subprocess.run([os.environ["CONFORMANCE_OLD_ORT_PYTHON"], "-c", code], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": os.path.dirname(os.path.dirname(__file__))})
    version, newest, refuses_20, refuses_17 = done.stdout.split()
    assert (newest, refuses_20, refuses_17) == ("19", "True", "False"), (version, done.stderr)


def test_importing_the_module_imports_no_runtime():
    code = "import sys, conformance.paths.onnx_opset; print('onnxruntime' in sys.modules, 'onnx' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.split() == ["False", "False"], done.stderr
