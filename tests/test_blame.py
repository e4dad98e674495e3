"""Self-tests of blame (conformance.judge.blame): planted faults in each component of the ONNX ladder are
blamed on that component. The exporter's fault is a graph edited to compute something else; onnxruntime's
optimiser and kernel faults are sessions that perturb their results only with graph optimisations on, or
always (the reference evaluator stays right)."""

import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("onnxruntime")
onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper  # noqa: E402

from conformance.judge import blame as B  # noqa: E402
from conformance.paths.onnx_runtimes import ReferenceCannotRun, onnxruntime_session  # noqa: E402

X = np.array([[-1.5, 0.25, 2.0], [3.0, -0.5, 0.75]], np.float32)


def _model(path, last_op="Add", opset=17, x_type=TensorProto.FLOAT):
    """``y = Relu(x) * 2 + 1`` (``last_op="Sub"``: the planted exporter fault, ``- 1``)."""
    value = helper.make_tensor_value_info
    two = helper.make_tensor("two", TensorProto.FLOAT, [], [2.0])
    one = helper.make_tensor("one", TensorProto.FLOAT, [], [1.0])
    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["r"]), helper.make_node("Mul", ["r", "two"], ["m"]),
         helper.make_node(last_op, ["m", "one"], ["y"])],
        "g", [value("x", x_type, [2, 3])], [value("y", TensorProto.FLOAT, [2, 3])], [two, one])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=8), str(path))
    return path


def _eager(x=X):
    return np.maximum(x, 0) * 2 + 1


def _judge():
    y = _eager()
    return B.judge_against(y, y.astype(np.float64))


class _Perturbed:
    """An onnxruntime session whose first output is off by 0.5 at its first element."""

    def __init__(self, session):
        self.session = session

    def get_inputs(self):
        return self.session.get_inputs()

    def run(self, names, feed):
        outs = [np.array(o, copy=True) for o in self.session.run(names, feed)]
        outs[0].flat[0] += 0.5
        return outs


def _optimiser_fault(path, optimise):
    session = onnxruntime_session(path, optimise)
    return _Perturbed(session) if optimise else session


def _kernel_fault(path, optimise):
    return _Perturbed(onnxruntime_session(path, optimise))


def _blame(path, **factories):
    return B.blame_onnx(path, {"x": X}, _judge(), B.onnx_rungs(path, **factories))


def test_a_planted_exporter_fault_is_blamed_on_the_exporter(tmp_path):
    path = _model(tmp_path / "model.onnx", last_op="Sub")
    verdict = _blame(path)
    assert verdict.component == "exporter", verdict
    assert [r.status for r in verdict.rungs] == [B.DIVERGES] * 3
    assert "computes the same" in verdict.reason


def test_a_planted_optimiser_fault_is_blamed_on_the_optimiser(tmp_path):
    verdict = _blame(_model(tmp_path / "model.onnx"), session_factory=_optimiser_fault)
    assert verdict.component == "onnxruntime.optimizer", verdict
    assert [r.status for r in verdict.rungs] == [B.AGREES, B.AGREES, B.DIVERGES]
    assert verdict.label == "onnxruntime.optimizer"


def test_a_planted_kernel_fault_is_blamed_on_the_kernel(tmp_path):
    verdict = _blame(_model(tmp_path / "model.onnx"), session_factory=_kernel_fault)
    assert verdict.component == "onnxruntime.kernel", verdict
    assert [r.status for r in verdict.rungs] == [B.AGREES, B.DIVERGES, B.DIVERGES]


def test_undecided_when_the_reference_evaluator_cannot_run_the_graph(tmp_path):
    def no_evaluator(path):
        raise ReferenceCannotRun("NotImplementedError: no implementation for this operator")

    path = _model(tmp_path / "model.onnx")
    verdict = _blame(path, session_factory=_kernel_fault, evaluator_factory=no_evaluator)
    assert verdict.component is None and verdict.label == "undecided"
    assert "exporter or onnxruntime.kernel" in verdict.reason and "cannot run" in verdict.reason
    # ...but an optimiser fault needs no reference evaluator: the unoptimised session agrees with eager
    verdict = _blame(path, session_factory=_optimiser_fault, evaluator_factory=no_evaluator)
    assert verdict.component == "onnxruntime.optimizer", verdict


def test_an_interpreter_alone_is_not_enough_to_blame_the_exporter(tmp_path):
    """The reference evaluator disagrees with eager and with both sessions (which disagree with eager in a
    third way): no single component explains it."""
    class Wrong:
        def __init__(self, path):
            self.input_names = ["x"]

        def run(self, names, feed):
            return [np.zeros((2, 3), np.float32)]

    verdict = _blame(_model(tmp_path / "model.onnx"), session_factory=_kernel_fault,
                     evaluator_factory=Wrong)
    assert verdict.component is None and "no later rung computes the same" in verdict.reason


def test_not_reproduced(tmp_path):
    verdict = _blame(_model(tmp_path / "model.onnx"))
    assert verdict.component is None and verdict.reason.startswith("not reproduced")
    assert [r.status for r in verdict.rungs] == [B.AGREES] * 3


def test_errors_are_blamed_on_the_component_that_fails_first(tmp_path):
    path = _model(tmp_path / "model.onnx")

    def optimiser_crash(path, optimise):
        if optimise:
            raise RuntimeError("planted: a graph transformer fails")
        return onnxruntime_session(path, optimise)

    def kernel_crash(path, optimise):
        session = onnxruntime_session(path, optimise)

        class Crashing(_Perturbed):
            def run(self, names, feed):
                raise RuntimeError("planted: a kernel fails")
        return Crashing(session)

    verdict = _blame(path, session_factory=optimiser_crash)
    assert verdict.component == "onnxruntime.optimizer" and verdict.rungs[-1].phase == "load", verdict
    verdict = _blame(path, session_factory=kernel_crash)
    assert verdict.component == "onnxruntime.kernel" and verdict.rungs[-1].phase == "run", verdict


def test_an_invalid_file_that_onnxruntime_refuses_is_the_exporters(tmp_path):
    """The exporter declares the input int64 while its graph computes in float: onnx.checker rejects it,
    onnxruntime refuses to load it (the lenient reference evaluator may still run it)."""
    path = _model(tmp_path / "model.onnx", x_type=TensorProto.INT64)
    verdict = B.blame_onnx(path, {"x": X.astype(np.int64)}, _judge())
    assert verdict.component == "exporter", verdict
    assert "not valid ONNX" in verdict.reason or "computes the same" in verdict.reason or "fails too" in verdict.reason


def test_a_runtime_that_cannot_load_the_opset_is_a_configuration_error(tmp_path, monkeypatch):
    monkeypatch.setattr(B, "file_refusal", lambda path: "Opset 20 is under development")
    verdict = B.blame_onnx(_model(tmp_path / "model.onnx"), {"x": X}, _judge())
    assert verdict.configuration and verdict.component is None and "--onnx-opset" in verdict.reason
    assert verdict.label == "configuration"


def test_no_file_is_the_exporters(tmp_path):
    assert B.blame_onnx(tmp_path / "missing.onnx", {"x": X}, _judge()).component == "exporter"


def test_the_verdict_is_json_ready(tmp_path):
    import json

    verdict = _blame(_model(tmp_path / "model.onnx"), session_factory=_optimiser_fault)
    data = json.loads(json.dumps(verdict.to_dict()))
    assert data["component"] == "onnxruntime.optimizer"
    assert [r["name"] for r in data["rungs"]] == ["onnx.reference", "onnxruntime ORT_DISABLE_ALL",
                                                  "onnxruntime ORT_ENABLE_ALL"]
    assert "onnxruntime" in data["versions"]


def test_a_torch_export_with_a_planted_optimiser_fault(tmp_path):
    """The same on a file torch's TorchScript exporter wrote, fed as the ONNX paths feed it."""
    torch = pytest.importorskip("torch")

    class Model(torch.nn.Module):
        def forward(self, x0, x1):
            return {"a": torch.tanh(x0) @ x1[0], "b": (x1[1] * 3).sum(dim=0)}

    args = [np.ones((2, 3), np.float32) * 0.3, [np.arange(12, dtype=np.float32).reshape(3, 4) / 7,
                                                 np.full((2, 2), 0.5, np.float32)]]
    targs = [torch.from_numpy(args[0]), [torch.from_numpy(a) for a in args[1]]]
    names = ["x0", "x1.0", "x1.1"]
    path = tmp_path / "model.onnx"
    torch.onnx.export(Model(), tuple(targs), str(path), input_names=names, dynamo=False)
    with torch.no_grad():
        eager = {k: v.numpy() for k, v in Model()(*targs).items()}
        ref = {k: v.numpy() for k, v in Model().double()(targs[0].double(), [t.double() for t in targs[1]]).items()}
    feed = B.onnx_feed(names, args)
    judge = B.judge_against(eager, ref)
    assert B.blame_onnx(path, feed, judge).reason.startswith("not reproduced")
    verdict = B.blame_onnx(path, feed, judge, B.onnx_rungs(path, session_factory=_optimiser_fault))
    assert verdict.component == "onnxruntime.optimizer", verdict


def test_a_runtime_reproducer_needs_only_the_file_and_the_runtime(tmp_path):
    path = _model(tmp_path / "model.onnx", last_op="Sub")
    verdict = B.blame_onnx(path, {"x": X}, _judge())
    repro = B.write_runtime_reproducer(verdict, path, {"x": X}, [_eager()], tmp_path / "repro")
    assert "conformance" not in repro.read_text().replace('"""', "").split("\n", 3)[-1]
    done = subprocess.run([sys.executable, str(repro)], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "onnx.reference: differs from eager" in done.stdout
    fixed = _model(tmp_path / "fixed.onnx")
    repro = B.write_runtime_reproducer(verdict, fixed, {"x": X}, [_eager()], tmp_path / "fixed")
    done = subprocess.run([sys.executable, str(repro)], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_onnx_file_of_an_artifact(tmp_path):
    path = _model(tmp_path / "model.onnx")

    class Artifact:
        session = onnxruntime_session(path, True)

    assert B.onnx_file_of(Artifact()) == path
    assert B.onnx_file_of(None, tmp_path) == path
    assert B.onnx_file_of(None, tmp_path, since=path.stat().st_mtime + 10) is None


# ------------------------------------------------------------------ what a run adds for ONNX paths


def _path(name, opset):
    from conformance.paths import PathRecord

    return PathRecord("torch", name, "an ONNX path", lambda ctx: None, lambda a, args, kwargs: None,
                      default_onnx_opset=(lambda: opset) if opset else None)


def test_the_configuration_check_before_a_run():
    from conformance.run.onnx_checks import configuration_errors

    future = onnx.defs.onnx_opset_version() + 30
    paths = [_path("eager", None), _path("onnx_a", future), _path("onnx_b", future)]
    errors = configuration_errors(paths)
    assert len(errors) == 1 and "torch.onnx_a, torch.onnx_b" in errors[0]
    assert configuration_errors(paths, requested=17) == []
    assert configuration_errors([_path("eager", None)]) == []


def test_the_record_of_an_onnx_path_names_its_opset_and_blame(tmp_path):
    from conformance.judge.modes import INFER
    from conformance.paths import ConvertContext
    from conformance.paths.ort import OrtModel
    from conformance.run.onnx_checks import blame_error, blame_mismatch, onnx_detail

    path = _model(tmp_path / "model.onnx", last_op="Sub")
    ctx = ConvertContext(None, [X], {}, None, "cpu", tmp_path, ["x"], onnx_opset=17)
    artifact = OrtModel(path, "cpu", ["x"], np.asarray)
    assert onnx_detail(ctx, artifact) == {"requested_opset": 17, "opset": 17, "ir_version": 8, "domains": {}}
    eager = _eager()
    compare = lambda out: INFER.compare(_path("onnx", 17), out, eager, eager.astype(np.float64), None)  # noqa: E731
    assert not compare(artifact(X)).ok
    verdict = blame_mismatch(ctx, artifact, [X], compare)
    assert verdict["component"] == "exporter", verdict
    assert blame_error(ctx, [X], eager, since=path.stat().st_mtime + 10)["reason"] == "the exporter wrote no ONNX file"
    assert blame_error(ctx, [X], eager)["component"] == "exporter"


def test_a_graph_input_that_is_no_model_input_is_the_exporters(tmp_path):
    """Like torch's TorchScript exporter turning a float kwarg into a graph input ('onnx::Cast_N')."""
    path = _model(tmp_path / "model.onnx")
    model = onnx.load(str(path))
    model.graph.input.append(helper.make_tensor_value_info("onnx::Cast_3", TensorProto.FLOAT, []))
    onnx.save(model, str(path))
    verdict = B.blame_onnx(path, {"x": X}, _judge())
    assert verdict.component == "exporter" and "onnx::Cast_3" in verdict.reason


def test_the_label_triage_and_the_dashboard_show(tmp_path):
    verdict = _blame(_model(tmp_path / "model.onnx"), session_factory=_kernel_fault)
    assert B.label_of(verdict.to_dict()) == "onnxruntime.kernel" == verdict.label
    assert B.label_of({"component": None, "configuration": True}) == "configuration"
    assert B.label_of({"component": None, "reason": "..."}) == "undecided"
    assert B.label_of(None) is None


def test_only_a_file_run_on_onnxruntime_is_blamed_along_the_onnx_ladder(tmp_path):
    """An ONNX file read by another runtime (OpenVINO) gets no verdict from the onnxruntime ladder."""
    from conformance.paths import ConvertContext
    from conformance.run.onnx_checks import blame_error, blame_mismatch

    _model(tmp_path / "model.onnx", last_op="Sub")
    ctx = ConvertContext(None, [X], {}, None, "cpu", tmp_path, ["x"])
    eager = _eager()
    assert blame_mismatch(ctx, object(), [X], lambda out: None) is None
    assert blame_error(ctx, [X], eager, error=RuntimeError("OpenVINO cannot read it")) is None
    assert blame_error(ctx, [X], eager, artifact=object()) is None
    try:
        onnxruntime_session(tmp_path / "missing.onnx", True)
    except Exception as e:  # noqa: BLE001 - an onnxruntime error
        assert blame_error(ctx, [X], eager, error=e)["component"] == "exporter"


def test_a_reference_evaluator_past_its_time_limit_cannot_run_and_the_blame_goes_on(tmp_path, monkeypatch):
    """A graph the pure-Python evaluator takes minutes over (loops) must not make the blame, and so the path's
    record, run past the campaign's timeout: the rung cannot judge, the sessions still do."""
    import time

    class Slow:
        def __init__(self, path):
            self.input_names = ["x"]

        def run(self, names, feed):
            time.sleep(30)

    monkeypatch.setattr(B, "REFERENCE_LIMIT_S", 0.2)
    start = time.perf_counter()
    verdict = _blame(_model(tmp_path / "model.onnx"), session_factory=_optimiser_fault, evaluator_factory=Slow)
    assert time.perf_counter() - start < 10
    assert verdict.rungs[0].status == B.CANNOT_RUN and "ran past 0.2 s" in verdict.rungs[0].detail
    assert verdict.component == "onnxruntime.optimizer", verdict
