"""``conformance check`` and ``conformance.check()`` on a user's own torch model, written to a file
outside the project as a user would: honest outcomes per path, planted wrong paths caught, clear errors."""

import json
import subprocess
import sys
import textwrap

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import conformance  # noqa: E402
from conformance.check import CheckError, ConformanceMismatch  # noqa: E402

USER_MODEL = textwrap.dedent('''
    import torch


    class Gate(torch.nn.Module):
        """Data-dependent control flow, a dict input and a bool kwarg."""

        def __init__(self):
            super().__init__()
            torch.manual_seed(0)
            self.lin = torch.nn.Linear(4, 4)

        def forward(self, x, extra: dict[str, torch.Tensor], use_act: bool = True):
            h = self.lin(x) + extra["bias"]
            if h.sum() > 0:
                h = h * 2
            else:
                h = h - 1
            if use_act:
                h = torch.relu(h)
            return h


    class Plain(torch.nn.Module):
        def forward(self, x, extra: dict[str, torch.Tensor], use_act: bool = True):
            return x * 2 + extra["bias"]


    class FixedBatch(torch.nn.Module):
        def forward(self, x):
            return x.reshape(3, -1).sum(0)  # works for a batch of 3 only


    class KeywordOnly(torch.nn.Module):
        def forward(self, x, *, scale):
            return x * scale


    def example():
        g = torch.Generator().manual_seed(1)
        return [torch.randn(3, 4, generator=g), {"bias": torch.randn(3, 4, generator=g) + 1}], {"use_act": True}
''')


@pytest.fixture(scope="module")
def user_file(tmp_path_factory):
    folder = tmp_path_factory.mktemp("user_project")
    (folder / "my_models.py").write_text(USER_MODEL)
    sys.path.insert(0, str(folder))
    yield folder
    sys.path.remove(str(folder))


@pytest.fixture(scope="module")
def gate_report(user_file):
    import my_models

    args, kwargs = my_models.example()
    return conformance.check(my_models.Gate(), args, kwargs,
                             paths=["script", "trace", "export", "onnx_torchscript"])


def test_every_path_gets_an_honest_outcome(gate_report):
    outcomes = {r.path: r.outcome for r in gate_report.results}
    assert outcomes == {"torch.eager": "pass", "torch.script": "pass", "torch.trace": "expected_divergence",
                        "torch.export": "unsupported", "torch.onnx_torchscript": "expected_divergence"}
    assert "TracerWarning" in gate_report["trace"].message
    assert gate_report.ok  # nothing silently wrong


def test_derived_input_sets_test_values_batch_and_the_bool_kwarg(gate_report):
    assert gate_report.input_sets[0] == "example"
    assert {"values", "batch", 'kwargs {"use_act": false}'} <= set(gate_report.input_sets)
    roles = [e.role for e in gate_report["script"].record.detail.inputs]
    assert roles == ["example", "values", "values", "batch", "kwargs"]


def test_report_prints_a_table_and_serialises(gate_report):
    text = str(gate_report)
    for word in ("torch.trace", "expected_divergence", "atol to pass", "unsupported"):
        assert word in text
    data = json.loads(json.dumps(gate_report.to_dict()))
    assert [r["path"] for r in data["records"]][:2] == ["eager", "script"]


@pytest.mark.parametrize("planted, kind", [("planted_perturb", "value"), ("planted_dtype", "dtype"),
                                           ("planted_nan", "nonfinite")])
def test_planted_wrong_paths_are_mismatches(user_file, planted, kind):
    import my_models

    import tests.planted_paths  # noqa: F401 - registers the planted paths

    args, kwargs = my_models.example()
    report = conformance.check(my_models.Gate(), args, kwargs, paths=[planted])
    result = report[planted]
    assert result.outcome == "mismatch", result.message
    kinds = {f["kind"] for e in result.record.detail.inputs for f in (e.report or {}).get("failures", [])}
    assert kind in kinds
    with pytest.raises(ConformanceMismatch, match=planted):
        report.raise_on_mismatch()
    with pytest.raises(ConformanceMismatch):
        conformance.assert_conforms(my_models.Gate(), args, kwargs, paths=[planted])


def test_a_trace_wrong_without_warning_is_a_mismatch(user_file):
    import my_models

    import tests.planted_paths  # noqa: F401

    args, kwargs = my_models.example()
    report = conformance.check(my_models.Plain(), args, kwargs, paths=["trace", "planted_trace_wrong"])
    assert report["trace"].outcome == "pass"
    assert report["planted_trace_wrong"].outcome == "mismatch"
    assert "silently" in report["planted_trace_wrong"].message


def test_a_warned_divergence_on_other_values_is_not_judged_further(user_file):
    """A user's model has no probes: eager cannot replay the example's branch on other values, so a
    path that warned it froze control flow is not judged there (the fuzzer's probed models are)."""
    import my_models

    import tests.planted_paths  # noqa: F401

    args, kwargs = my_models.example()
    report = conformance.check(my_models.Gate(), args, kwargs, paths=["planted_trace_wrong"])
    assert report["planted_trace_wrong"].outcome == "expected_divergence"


def test_a_derived_set_eager_rejects_is_dropped_with_a_note(user_file):
    import my_models

    report = conformance.check(my_models.FixedBatch(), [np.ones((3, 4), np.float32)], paths=["script"])
    assert "batch" not in report.input_sets
    assert any("dropped a derived batch input set" in n for n in report.notes)
    assert report["script"].outcome == "pass"


def test_input_spec_marks_dynamic_dims(user_file):
    import my_models

    args, kwargs = my_models.example()
    static = conformance.check(my_models.Gate(), args, kwargs, paths=["script"],
                               input_spec=[(3, 4), {"bias": (3, 4)}])
    assert "batch" not in static.input_sets
    with pytest.raises(CheckError, match="rank 1"):
        conformance.check(my_models.Gate(), args, kwargs, input_spec=[(None,), {"bias": (None, 4)}])


def test_clear_errors():
    with pytest.raises(CheckError, match="not a torch.nn.Module, paddle.nn.Layer or tf.Module"):
        conformance.check(object(), [])
    with pytest.raises(CheckError, match="unknown path 'bogus'"):
        conformance.check(torch.nn.ReLU(), [torch.ones(2)], paths=["bogus"])
    with pytest.raises(CheckError, match="unexpected keyword argument 't'"):
        conformance.check(torch.nn.ReLU(), [torch.ones(2)], {"t": torch.ones(2)})
    with pytest.raises(CheckError, match=r"do not match ReLU.forward\(input: torch.Tensor\).*too many"):
        conformance.check(torch.nn.ReLU(), [torch.ones(2), torch.ones(2)])


def _cli(*args, cwd):
    return subprocess.run([sys.executable, "-m", "conformance", "check", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=600)


@pytest.mark.slow  # 16 s of subprocesses; check() itself is tested in process (test_check_user_models)
def test_cli_with_an_inputs_file_and_with_an_example_function(user_file, tmp_path):
    np.savez(user_file / "inputs.npz", x=np.full((2, 4), 0.5, np.float32),
             **{"extra.bias": np.ones((2, 4), np.float32)}, __kwargs__=np.array(json.dumps({"use_act": False})))
    proc = _cli("my_models.py:Gate", "--inputs", "inputs.npz", "--paths", "script,trace", "--json",
                str(tmp_path / "r.json"), cwd=user_file)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    assert "torch.script" in proc.stdout and "expected_divergence" in proc.stdout
    data = json.loads((tmp_path / "r.json").read_text())
    assert {r["path"]: r["outcome"] for r in data["records"]}["script"] == "pass"
    assert 'kwargs {"use_act": true}' in data["input_sets"]

    proc = _cli("my_models.py:Gate", "--example", "example", "--paths", "planted_perturb", "--fail-on", "mismatch",
                cwd=user_file)
    assert "unknown path 'planted_perturb'" in proc.stderr  # planted paths exist only in the self-tests

    proc = _cli("my_models.py:Nope", "--example", "example", cwd=user_file)
    assert proc.returncode != 0
    assert "has no 'Nope'; it defines: torch, Gate, Plain, FixedBatch, KeywordOnly, example" in proc.stderr
    proc = _cli("my_models.py:Gate", cwd=user_file)
    assert proc.returncode != 0 and "--inputs FILE.npz" in proc.stderr
    np.savez(user_file / "short.npz", x=np.ones((2, 4), np.float32))
    proc = _cli("my_models.py:Gate", "--inputs", "short.npz", cwd=user_file)
    assert proc.returncode != 0 and "missing a required argument: 'extra'" in proc.stderr
    np.savez(user_file / "wrong.npz", y=np.ones((2, 4), np.float32))
    proc = _cli("my_models.py:Gate", "--inputs", "wrong.npz", cwd=user_file)
    assert proc.returncode != 0 and "has inputs ['y'] that the model's forward does not take" in proc.stderr
    (user_file / "broken.py").write_text("import torch\nimport no_such_module\n")
    proc = _cli("broken.py:Model", "--example", "example", cwd=user_file)
    assert proc.returncode != 0 and "cannot import broken.py: ModuleNotFoundError" in proc.stderr
    proc = _cli("missing.py:Model", "--example", "example", cwd=user_file)
    assert proc.returncode != 0 and "no such file: missing.py" in proc.stderr


OTHER_FRAMEWORKS = {
    "paddle": textwrap.dedent('''
        import paddle


        class Gate(paddle.nn.Layer):
            def __init__(self):
                super().__init__()
                paddle.seed(0)
                self.lin = paddle.nn.Linear(4, 4)

            def forward(self, x, extra, use_act=True):
                h = self.lin(x) + extra["bias"]
                if h.sum() > 0:
                    h = h * 2
                else:
                    h = h - 1
                if use_act:
                    h = paddle.nn.functional.relu(h)
                return h


        def example():
            paddle.seed(1)
            return [paddle.randn([3, 4]), {"bias": paddle.randn([3, 4]) + 1}], {"use_act": True}
    '''),
    "tf": textwrap.dedent('''
        import tensorflow as tf


        class Gate(tf.Module):
            def __init__(self):
                super().__init__()
                self.w = tf.Variable(tf.random.stateless_normal([4, 4], seed=[0, 1]))

            def __call__(self, x, extra, use_act=True):
                h = tf.matmul(x, self.w) + extra["bias"]
                if tf.reduce_sum(h) > 0:
                    h = h * 2
                else:
                    h = h - 1
                if use_act:
                    h = tf.nn.relu(h)
                return h


        def example():
            x = tf.random.stateless_normal([3, 4], seed=[1, 2])
            return [x, {"bias": tf.random.stateless_normal([3, 4], seed=[3, 4]) + 1}], {"use_act": True}
    '''),
}


@pytest.mark.slow  # 10 s each, subprocesses; check() itself is tested in process (test_check_user_models)
@pytest.mark.parametrize("framework", sorted(OTHER_FRAMEWORKS))
def test_paddle_and_tensorflow_models_from_the_command_line(framework, tmp_path):
    pytest.importorskip({"paddle": "paddle", "tf": "tensorflow"}[framework])
    from conformance.paths.records import select_paths

    (tmp_path / f"{framework}_models.py").write_text(OTHER_FRAMEWORKS[framework])
    proc = _cli(f"{framework}_models.py:Gate", "--example", "example", "--json", "report.json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    data = json.loads((tmp_path / "report.json").read_text())
    outcomes = {r["path"]: r["outcome"] for r in data["records"]}
    assert set(outcomes) == {p.name for p in select_paths([framework])}  # every path has a row
    assert outcomes["eager"] == "pass"
    # these models convert faithfully: nothing is silently wrong, nothing fails to convert
    assert not {"mismatch", "conversion_error", "runtime_error"} & set(outcomes.values()), outcomes
    # paths that bind the bool kwarg at conversion differ on the flipped kwarg, as documented
    specialising = {p.name for p in select_paths([framework]) if "kwargs" in p.specializes}
    assert {outcomes[p] for p in specialising} <= {"expected_divergence", "unsupported"}
    assert any(outcomes[p] == "expected_divergence" for p in specialising)
    assert f"conformance check of Gate ({framework}, cpu)" in " ".join(proc.stdout.split())


@pytest.mark.parametrize("planted", ["planted_stale_kwargs", "planted_xla_perturb"])
def test_a_planted_wrong_tensorflow_path_is_a_mismatch(planted, tmp_path):
    pytest.importorskip("tensorflow")
    (tmp_path / "tf_models.py").write_text(OTHER_FRAMEWORKS["tf"])
    sys.path.insert(0, str(tmp_path))
    try:
        import tf_models

        import tests.planted_tf  # noqa: F401 - registers the planted TensorFlow paths

        args, kwargs = tf_models.example()
        report = conformance.check(tf_models.Gate(), args, kwargs, paths=[planted])
    finally:
        sys.path.remove(str(tmp_path))
    assert report[planted].outcome == "mismatch", report[planted].message


def test_tensors_by_keyword_and_constants_anywhere_reach_every_path(user_file):
    """A tensor passed by keyword goes positionally; None, an int and a str go through as the user passed them;
    a tensor for a keyword-only parameter is refused with what to do."""
    import my_models

    from tests.user_models.torch_models import OptionalMiddle, StringMode

    x = torch.ones(3, 4)
    report = conformance.check(OptionalMiddle(), [x], {"y": x * 2}, paths=["script", "export"])
    assert {r.outcome for r in report.results} == {"pass"}, str(report)
    report = conformance.check(StringMode(), [x, "max"], paths=["script", "trace"])
    assert {r.outcome for r in report.results} == {"pass"}, str(report)
    with pytest.raises(CheckError, match="keyword-only argument 'scale' is a tensor"):
        conformance.check(my_models.KeywordOnly(), [x], {"scale": x})


def test_a_hanging_path_times_out_a_crashing_one_crashes_and_the_check_goes_on(user_file):
    import my_models

    import tests.planted_check_paths  # noqa: F401 - registers the hanging and crashing paths

    args, kwargs = my_models.example()
    report = conformance.check(my_models.Plain(), args, kwargs, paths=["planted_hang", "planted_segfault", "script"],
                               timeout=20)
    assert report["planted_hang"].outcome == "timeout"
    assert report["planted_segfault"].outcome == "crash"
    assert "SIGSEGV" in report["planted_segfault"].message
    assert report["script"].outcome == "pass"
    assert not report.ok


def test_a_mismatch_names_the_submodule_that_differs(tmp_path):
    """A converter that gets one submodule wrong (tests.planted_localize_models): the report names it, in the
    terminal table, the JSON and the Markdown."""
    from tests.planted_localize_models import Net

    x = np.random.default_rng(0).uniform(-1, 1, (4, 6)).astype(np.float32)
    report = conformance.check(Net(faulty="blocks.1.act"), [x], paths=["planted_module_script"])
    result = report["planted_module_script"]
    assert result.outcome == "mismatch"
    assert (result.localisation["status"], result.localisation["submodule"]) == ("found", "blocks.1.act")
    assert "first divergence: torch.planted_module_script: submodule 'blocks.1.act'" in str(report)
    assert "submodule 'blocks.1.act'" in report.to_markdown()
    record = report.to_dict()["records"][1]
    assert record["detail"]["localisation"]["submodule"] == "blocks.1.act"
    healthy = conformance.check(Net(), [x], paths=["planted_module_script"])
    assert healthy["planted_module_script"].outcome == "pass" and healthy["planted_module_script"].localisation is None
