"""Blame and the ONNX opset as a run makes them (issue 21): the runner writes ``detail.onnx`` and ``detail.blame``
on every ONNX record, a runtime that cannot load the file is a configuration error (never a finding), triage
buckets and REPORT.md name the blamed component and a bucket blamed on onnxruntime gets a reproducer that needs only
the ``.onnx`` file and the runtime, the dashboard shows the component and lists configuration errors once, and
``--onnx-opset`` reaches ``conformance fuzz``, ``replay``, ``check`` and the pytest plugin.

The faults are planted in each component of the ONNX ladder by ``tests/planted_onnx.py``."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("onnxruntime")
pytest.importorskip("onnx")

from conformance.paths import PATHS  # noqa: E402
from conformance.paths.onnx_opset import OPSET_ENV  # noqa: E402
from conformance.run.records import InputResult, ResultDetail, ResultRecord, results_line  # noqa: E402
from conformance.run.runner import check  # noqa: E402

from . import planted_onnx as P  # noqa: E402
from .planted_deploy import clean_case  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
BLAMED = {P.EXPORTER: "exporter", P.OPTIMIZER: "onnxruntime.optimizer", P.KERNEL: "onnxruntime.kernel"}


@pytest.fixture(scope="module")
def records():
    """The clean program (nested inputs, an unsorted dict in the output) along the clean TorchScript ONNX path,
    each planted one and the one the runtime cannot load, at the exporter's default opset."""
    saved = os.environ.pop(OPSET_ENV, None)
    try:
        yield {name: check(clean_case(), PATHS[f"torch.{name}"])
               for name in ("onnx_torchscript", *BLAMED, P.FUTURE)}
    finally:
        if saved is not None:
            os.environ[OPSET_ENV] = saved


def test_the_typed_fields_keep_the_json_form():
    detail = ResultDetail("m", inputs=[InputResult("example", 0, "mismatch", blame={"component": "exporter"})],
                          onnx={"requested_opset": 17, "opset": 17}, blame={"component": "exporter"},
                          configuration=None)
    data = detail.to_json()
    assert data["onnx"]["opset"] == 17 and data["blame"] == {"component": "exporter"}
    assert data["inputs"][0]["blame"] == {"component": "exporter"} and "configuration" not in data
    assert ResultDetail.from_json(data).to_json() == data
    # a record written before these fields (or by a newer writer) reads and writes back the same
    old = {"message": "", "inputs": [{"role": "example", "index": 0, "outcome": "pass"}], "newer": 1}
    assert ResultDetail.from_json(old).to_json() == old
    assert ResultDetail.from_json({"message": "x", "configuration": True}).configuration is True


def test_each_planted_fault_is_blamed_on_its_component_in_the_record(records):
    for name, component in BLAMED.items():
        record = records[name]
        assert record.outcome == "mismatch", (name, record.detail.message)
        assert record.detail.blame["component"] == component, (name, record.detail.blame)
        assert all(e.blame["component"] == component for e in record.detail.inputs if e.outcome == "mismatch")
        assert record.detail.onnx["requested_opset"] is None and record.detail.onnx["opset"] >= 17
        again = ResultRecord.from_json(json.loads(results_line(record)))
        assert again.to_json() == record.to_json()
    clean = records["onnx_torchscript"]
    assert clean.outcome == "pass", clean.detail.message
    assert clean.detail.blame is None
    assert clean.detail.onnx["opset"] == PATHS["torch.onnx_torchscript"].default_onnx_opset()


def test_a_specialised_input_set_is_blamed_against_eager_replayed_on_the_examples_path():
    """The TorchScript exporter traces: on an input set with other kwargs it is judged against eager replayed with
    the example's, and a mismatch there is blamed along the ladder against that replay."""
    from conformance.program.case import Case, InputSet

    from .planted_deploy import clean_program

    kwargs = (("alpha", 0.5), ("flag", True))
    case = Case(clean_program(), (InputSet("example", 2, 1, kwargs),
                                  InputSet("kwargs", 2, 1, (("alpha", 2.0), ("flag", False)))))
    record = check(case, PATHS[f"torch.{P.EXPORTER}"])
    entry = record.detail.inputs[1]
    assert entry.outcome == "mismatch" and entry.frozen_report is not None, entry
    assert entry.blame["component"] == "exporter", entry.blame
    assert check(case, PATHS["torch.onnx_torchscript"]).outcome == "expected_divergence"


def test_a_file_the_runtime_cannot_load_is_a_configuration_error_never_a_finding(records):
    from conformance.cli.campaigns import findings_of, markdown_summary

    record = records[P.FUTURE]
    assert record.outcome == "unsupported" and record.detail.configuration is True
    assert record.detail.message.startswith("configuration error: onnxruntime") and "opset 99" in record.detail.message
    assert record.detail.blame is None
    twice = [record, ResultRecord.from_json(record.to_json())]
    assert findings_of(twice + [records[P.KERNEL]]) == [records[P.KERNEL]]
    summary = markdown_summary(twice)
    assert summary.count("## Configuration errors") == 1 and summary.count("opset 99") == 1
    assert "(2 record(s))" in summary and "## Findings" not in summary


def test_triage_and_the_dashboard_show_the_blamed_component(records, tmp_path):
    from conformance.cli.triage import table_rows
    from conformance.report import load_results, write_report
    from conformance.triage.buckets import read_buckets, triage
    from conformance.triage.bug_report import write_bucket

    found = [records[name] for name in BLAMED] + [records[P.FUTURE], records["onnx_torchscript"]]
    results = tmp_path / "results.jsonl"
    results.write_text("".join(results_line(r) for r in found))
    buckets = triage(found)  # not minimised: each finding is its own bucket
    assert {b.signature.path: b.signature.blame for b in buckets} == BLAMED
    folders = {}
    for n, bucket in enumerate(buckets, 1):
        folders[bucket.signature.path] = write_bucket(bucket, tmp_path / "triage" / bucket.folder_name(n), verify=False)
    for name, component in BLAMED.items():
        report = (folders[name] / "REPORT.md").read_text()
        assert f"**Blamed component**: `{component}`" in report and "onnxruntime ORT_DISABLE_ALL" in report
        assert f"[blamed on {component}]" in json.loads((folders[name] / "bucket.json").read_text())["title"]
    # onnxruntime's bugs get a reproducer that needs the .onnx file and the runtime alone; the exporter's does not
    assert not (folders[P.EXPORTER] / "runtime").exists()
    for name in (P.OPTIMIZER, P.KERNEL):
        runtime = folders[name] / "runtime"
        assert {"model.onnx", "inputs.npz", "expected.npz", "repro.py"} <= {f.name for f in runtime.iterdir()}
        assert "runtime/repro.py" in (folders[name] / "REPORT.md").read_text()
        assert "import conformance" not in (runtime / "repro.py").read_text()
        # the installed onnxruntime has no planted fault: each way agrees with eager's outputs in the file's order
        done = subprocess.run([sys.executable, "-I", "repro.py"], cwd=runtime, capture_output=True, text=True,
                              timeout=300)
        assert done.returncode == 0 and done.stdout.count("agrees with eager") == 3, done.stdout + done.stderr
    rows = {row[2]: row for row in table_rows(read_buckets(tmp_path / "triage"))[1]}
    assert {pid.split(".")[1]: row[4] for pid, row in rows.items()} == BLAMED
    # the dashboard: the component of each ONNX finding, the configuration error once and not among the failures
    files = write_report(load_results([results]), tmp_path / "dashboard", triage=[tmp_path / "triage"])
    page, markdown = files["html"].read_text(), files["markdown"].read_text()
    for component in BLAMED.values():
        assert f"blamed on <b>{component}</b>" in page and f"(blamed on {component})" in markdown
    assert page.count("opset 99") == 1 and markdown.count("## Configuration errors") == 1
    assert 'href="../triage/' in page and "runtime/repro.py" in page


def test_check_asks_for_the_opset_and_says_a_configuration_error_once():
    torch = pytest.importorskip("torch")
    from conformance.check import check as check_model

    from .plugin_models import TanhModel

    x = torch.linspace(-1, 1, 12).reshape(3, 4)
    report = check_model(TanhModel(), [x], paths=[P.FUTURE, "onnx_torchscript"])
    assert len(report.configuration_errors) == 1 and "cannot load ONNX opset 99" in report.configuration_errors[0]
    assert report[P.FUTURE].outcome == "unsupported" and report[P.FUTURE].record.detail.configuration
    assert report["onnx_torchscript"].outcome == "pass" and report.ok
    assert str(report).count("configuration error:") == 1
    report = check_model(TanhModel(), [x], paths=[P.FUTURE, "onnx_torchscript"], onnx_opset=17)
    assert report.configuration_errors == [] and OPSET_ENV not in os.environ
    for path in (P.FUTURE, "onnx_torchscript"):
        assert report[path].outcome == "pass", report[path].message
        assert report[path].record.detail.onnx["requested_opset"] == 17 == report[path].record.detail.onnx["opset"]


def _conformance(*args, timeout=600):
    env = {k: v for k, v in os.environ.items() if k != OPSET_ENV}
    return subprocess.run([sys.executable, "-m", "conformance", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=timeout, env=env)


def test_fuzz_and_replay_refuse_an_opset_the_runtime_cannot_load_once(tmp_path):
    common = ("--load", "tests.planted_onnx", "--frameworks", "torch", "--paths", P.FUTURE, "--mode", "infer")
    done = _conformance("fuzz", *common, "--max-cases", "3", "--workers", "1", "--out", str(tmp_path / "run"))
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stdout.count("configuration error:") == 1 and f"torch.{P.FUTURE}" in done.stdout
    assert "--onnx-opset" in done.stdout and not (tmp_path / "run" / "results.jsonl").exists()
    case = tmp_path / "case.json"
    case.write_text(json.dumps({"case": clean_case().to_dict()}))
    done = _conformance("replay", str(case), *common)
    assert done.returncode == 2 and done.stdout.count("configuration error:") == 1, done.stdout + done.stderr
    done = _conformance("fuzz", "--onnx-opset", "5", *common)
    assert done.returncode == 2 and "opset 7 and newer" in done.stderr


@pytest.mark.slow  # 11 s, a campaign at an older opset
def test_fuzz_at_a_requested_opset_records_it(tmp_path):
    out = tmp_path / "run"
    done = _conformance("fuzz", "--load", "tests.planted_onnx", "--frameworks", "torch", "--paths",
                        f"{P.FUTURE},onnx_torchscript", "--mode", "infer", "--onnx-opset", "17", "--max-cases", "2",
                        "--workers", "1", "--seed", "0", "--budget", "300", "--out", str(out))
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert json.loads((out / "manifest.json").read_text())["onnx_opset"] == 17
    onnx = [r for r in map(json.loads, (out / "results.jsonl").read_text().splitlines()) if r["path"] != "eager"]
    assert onnx and all(r["detail"]["onnx"]["requested_opset"] == 17 for r in onnx)
    assert all(r["detail"]["onnx"].get("opset") in (17, None) for r in onnx)
    assert "configuration error" not in done.stdout


def test_the_pytest_plugin_skips_what_the_runtime_cannot_load(tmp_path):
    (tmp_path / "test_paths.py").write_text(
        "import os\n\n\ndef test_path(conformance_path):\n"
        f"    assert os.environ.get({OPSET_ENV!r}) == os.environ.get('EXPECTED_OPSET')\n")
    paths = f"torch.{P.FUTURE},torch.onnx_torchscript"

    def pytest_(*args, expected=None):
        env = {k: v for k, v in os.environ.items() if k != OPSET_ENV}
        env.update(PYTHONPATH=str(ROOT), **({"EXPECTED_OPSET": expected} if expected else {}))
        return subprocess.run([sys.executable, "-m", "pytest", "-p", "tests.planted_onnx", "-p", "no:cacheprovider",
                               "-rs", "test_paths.py", "--conformance-frameworks", "torch", "--conformance-paths",
                               paths, *args], capture_output=True, text=True, cwd=tmp_path, timeout=300, env=env)

    done = pytest_()
    assert "2 passed, 1 skipped" in done.stdout, done.stdout + done.stderr  # torch.eager comes with them
    assert "configuration error: onnxruntime" in done.stdout and "cannot load ONNX opset 99" in done.stdout
    assert "conformance: ONNX opset: each exporter's default; onnxruntime" in done.stdout
    done = pytest_("--conformance-onnx-opset", "17", expected="17")
    assert "3 passed" in done.stdout, done.stdout + done.stderr
    assert "conformance: ONNX opset 17; onnxruntime" in done.stdout


_ORDER_CHECK = """
import json, sys
import numpy as np
from conformance.judge.blame import onnx_feed
from conformance.judge.modes import INFER
from conformance.paths.onnx_runtimes import onnxruntime_session, run_session
from conformance.paths.records import PATHS, load_framework
from conformance.run.onnx_checks import blame_mismatch, expected_in_file_order
from conformance.run.runner import convert_context, path_workdir, prepare
from tests.planted_deploy import clean_case

framework = sys.argv[1]
load_framework(framework)
case, path = clean_case(), PATHS[framework + ".onnx"]
prep = prepare(case, framework)
ctx = convert_context(case, prep, path, "cpu", "infer", path_workdir(case, framework, path))
artifact = path.convert(ctx)
file = getattr(artifact, "path", None) or artifact.session._model_path
for run in prep.runs:
    verdict = blame_mismatch(ctx, artifact, run.args,
                             lambda out: INFER.compare(path, out, run.eager, run.reference, run.noise))
    outputs = run_session(onnxruntime_session(file, True), onnx_feed(ctx.tensor_names, run.args))
    expected = expected_in_file_order(artifact, run.eager)
    same = [o.shape == np.asarray(e).shape and bool(np.allclose(o, e, rtol=1e-4, atol=1e-5))
            for o, e in zip(outputs, expected)]
    print("RESULT " + json.dumps({"role": run.role, "component": verdict["component"], "reason": verdict["reason"],
                                  "rungs": [r["status"] for r in verdict["rungs"]], "same": same}))
"""


@pytest.mark.parametrize("framework,module", [("tf", "tf2onnx"), ("paddle", "paddle2onnx")])
def test_the_ladder_reads_a_file_in_its_own_output_order(framework, module):
    """tf2onnx and paddle2onnx write a dict's values by sorted key; the runner rebuilds forward's (unsorted) nest:
    every rung of the ladder agrees with eager on the clean program (nothing is blamed), and a runtime
    reproducer's expected outputs come in the file's order. (A process per framework: TensorFlow and Paddle in
    one process may crash.)"""
    import importlib.util

    for needed in (module, "tensorflow" if framework == "tf" else "paddle"):  # not imported here: see above
        if importlib.util.find_spec(needed) is None:
            pytest.skip(f"{needed} is not installed")
    env = {**{k: v for k, v in os.environ.items() if k != OPSET_ENV}, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", _ORDER_CHECK, framework], capture_output=True, text=True, cwd=ROOT,
                          timeout=600, env=env)
    results = [json.loads(line[7:]) for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    assert len(results) == 3, done.stdout[-3000:] + done.stderr[-3000:]
    for result in results:
        assert result["component"] is None and result["reason"].startswith("not reproduced"), result
        assert result["rungs"] == ["agrees"] * 3 and result["same"] == [True] * 3, result
