"""First divergence wherever triage shows a finding: every bucket of a triage (``bucket.json``, ``REPORT.md``,
``summary.md``) and every bucket of the dashboard's failure list shows where its minimal case first goes wrong,
or says why that is not known; localising a finding costs at most 20 conversions, counted by the runner."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.program.case import Case, InputSet
from conformance.program.ir import Get, Input, OpStmt, OutVar, TensorSpec
from conformance.program.program import Program
from conformance.run.records import ResultRecord
from conformance.triage.buckets import Sighting, TriageBucket
from conformance.triage.localize import STATUSES
from conformance.triage.signatures import signature

ROOT = Path(__file__).resolve().parent.parent


def assert_shows_first_divergence(loc: dict, where: str) -> None:
    """What every bucket must carry: a statement with its line, op, value and error where one is found, else a
    status and the reason."""
    assert isinstance(loc, dict), f"{where}: no localisation"
    assert loc["status"] in STATUSES and loc["message"], f"{where}: {loc}"
    if loc["status"] == "found":
        assert loc["kind"] and loc["conversions"] <= 20, f"{where}: {loc}"
        if loc["location"] is not None:
            assert loc["statement"] and loc["line"] and loc["source"], f"{where}: {loc}"
        if loc["kind"] == "value":
            assert loc["op"] and loc["value"] and loc["max_abs_err"] > 0, f"{where}: {loc}"


# ------------------------------------------------------------------ why a bucket has none (no framework)


def _bucket(outcome: str, reproduced=None) -> TriageBucket:
    program = Program(0, (Input("x0", TensorSpec((2,))),), (), (), (Get("v", "x0"), OpStmt("v", "tanh", ("v",))),
                      OutVar("v"))
    case = Case(program, (InputSet("example", 1, 0),))
    record = ResultRecord.from_json({"framework": "torch", "path": "script", "mode": "infer", "outcome": outcome,
                                     "detail": {"message": "ran past 120 s"}, "case": case.to_dict()})
    return TriageBucket(signature(record).with_program(program), [Sighting.of(record)], case, record,
                        reproduced=reproduced)


class _NoConversions:
    """A runner that must not be asked for anything."""

    def __call__(self, *args):
        raise AssertionError("no conversion was expected")

    decisions = __call__


class _Broken:
    """A runner with a bug of its own (conformance's, not the path's)."""

    def __call__(self, *args):
        raise KeyError("a bug")

    def decisions(self, case, framework):
        return [[]]


def test_a_bucket_that_is_not_localised_says_why_in_bucket_json_and_report_md():
    from conformance.triage.bug_report import report_markdown
    from conformance.triage.first_divergence import localize_buckets

    timeout, flaky, late = _bucket("timeout"), _bucket("mismatch", reproduced=False), _bucket("mismatch")
    localize_buckets([timeout, flaky], _NoConversions())
    localize_buckets([late], _NoConversions(), max_seconds=0)
    broken = _bucket("mismatch")
    localize_buckets([broken], _Broken())
    for b, why in ((timeout, "a timeout"), (flaky, "did not fail the same way"), (late, "--localize-seconds 0"),
                   (broken, "the localiser failed (an error of conformance's")):
        again = TriageBucket.from_dict(json.loads(json.dumps(b.to_dict())))
        assert again.localisation == b.localisation
        assert_shows_first_divergence(again.localisation, b.signature.outcome)
        assert again.localisation["status"] == "unavailable" and why in again.localisation["message"]
        report = report_markdown(again)
        assert "## First divergence" in report and why in report


# ------------------------------------------------------------------ the cost of a localisation


def test_a_localisation_costs_at_most_20_conversions_on_a_long_program():
    pytest.importorskip("torch")
    import tests.planted_localize  # noqa: F401 - registers torch.planted_loc_script
    from conformance.triage.localize import localize
    from conformance.triage.localize_workers import InProcess

    steps = [OpStmt("v", "add_scalar", ("v",), (("c", 0.25),)), OpStmt("v", "neg", ("v",)),
             OpStmt("v", "add_scalar", ("v",), (("c", -0.5),)), OpStmt("v", "tanh", ("v",))]
    body = [Get("v", "x0")] + [steps[i % 4] for i in range(300)]  # a fault's effect lasts to the end
    target = 211
    body[target] = OpStmt("v", "mul_scalar", ("v",), (("c", 0.75),))
    fault = {"kind": "perturb", "stmt": ["v", "mul_scalar", ["v"], [["c", 0.75]]], "nth": 0}
    program = Program(0, (Input("x0", TensorSpec((3, 4))),), (), (), tuple(body), OutVar("v"),
                      meta=(("planted", json.dumps(fault)),))
    case = Case(program, (InputSet("example", 3, 0),))
    runner = InProcess()
    record = runner(case, "torch.planted_loc_script")
    assert record.outcome == "mismatch"
    before = runner.runs
    loc = localize(case, record, runner)
    assert (loc.status, loc.location, loc.kind, loc.op) == ("found", [target], "value", "mul_scalar"), loc.markdown()
    assert runner.runs - before == loc.conversions <= 20  # every conversion counted, 20 at most
    assert loc.conversions <= 12  # bisection: log2(301 cuts) + the whole program + the confirmation


# ------------------------------------------------------------------ a recorded campaign, triaged


@pytest.fixture(scope="module")
def triaged(tmp_path_factory):
    """A campaign's findings on the planted triage paths (a while loop capped, sigmoid 1% off, a dict input
    refused), triaged by ``conformance triage``; and the dashboard of the campaign with that triage."""
    pytest.importorskip("torch")
    import tests.planted_triage  # noqa: F401 - registers the planted paths
    from conformance.triage.localize_workers import InProcess
    from tests.test_triage import fault_cases

    tmp = tmp_path_factory.mktemp("campaign")
    runner = InProcess()
    records = []
    for i, case in enumerate(fault_cases()):
        rec = runner(case, "torch.planted_faults")
        rec.seed, rec.index = 0, i
        records.append(rec)
    results = tmp / "results.jsonl"
    results.write_text("".join(json.dumps(r.to_json()) + "\n" for r in records))
    out = tmp / "triage"
    proc = subprocess.run([sys.executable, "-m", "conformance", "triage", str(results), "--out", str(out), "--load",
                           "tests.planted_triage", "--max-seconds", "120", "--no-verify"], cwd=ROOT,
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    from conformance.report.results import load_results
    from conformance.report.writer import write_report

    files = write_report(load_results([str(results)]), tmp / "dashboard", triage=[str(out)])
    return out, files["html"].read_text()


def test_every_bucket_of_a_triaged_campaign_shows_its_first_divergence(triaged):
    out, _ = triaged
    folders = sorted(p for p in out.iterdir() if (p / "bucket.json").exists())
    assert len(folders) == 3
    found = {}
    for folder in folders:
        bucket = json.loads((folder / "bucket.json").read_text())
        loc = bucket.get("localisation")
        assert_shows_first_divergence(loc, folder.name)
        report = (folder / "REPORT.md").read_text()
        assert "## First divergence" in report
        if loc["line"]:
            assert f"{loc['line']}: {loc['source']}" in report
        found[bucket["signature"]["outcome"] + ("-while" if "while_tensor" in bucket["signature"]["constructs"]
                                                else "")] = loc
    # the planted faults, where they are: the capped while loop, the sigmoid, the dict input the path refuses
    assert (found["mismatch-while"]["kind"], found["mismatch-while"]["source"].split(" ")[0]) == ("iterations", "while")
    assert found["mismatch-while"]["eager"] != found["mismatch-while"]["path_value"]
    assert (found["mismatch"]["kind"], found["mismatch"]["op"]) == ("value", "sigmoid")
    assert (found["conversion_error"]["kind"], found["conversion_error"]["location"]) == ("error", None)
    assert found["conversion_error"]["line"] and found["conversion_error"]["source"].startswith("def forward(")
    summary = (out / "summary.md").read_text()
    assert "first divergence" in summary and "iterations at line" in summary and "value at line" in summary


def test_every_bucket_of_the_dashboards_failure_list_shows_its_first_divergence(triaged):
    _, html = triaged
    buckets = html.count('<details class="bucket">')
    assert buckets == 3 and html.count("<p>First divergence: <code>") == buckets
    assert "iterations at line" in html and "value at line" in html and "error at the inputs, before any statement " \
        "(line " in html
    assert "not localised" not in html


def test_the_dashboard_says_why_a_bucket_without_a_triage_has_no_first_divergence(tmp_path):
    from conformance.report.figures import failure_groups
    from conformance.triage.first_divergence import attach
    from conformance.triage.localize import Localisation

    bucket = _bucket("mismatch")
    (group,) = [g for gs in failure_groups([bucket.record]).values() for g in gs]
    assert group.first_divergence.startswith("not localised: conformance triage localises every bucket")
    attach(bucket.record, Localisation("found", "", "value", [1], "v = tanh(v)", 31, "v = torch.tanh(v)", "tanh"))
    (group,) = [g for gs in failure_groups([bucket.record]).values() for g in gs]
    assert group.first_divergence.startswith("value at line 31: v = torch.tanh(v)")


def test_where_truncation_changes_the_bug_the_report_shows_the_intermediate_outputs(tmp_path):
    """Triage's worker answers the localiser's fallback: the ONNX file's intermediate outputs name the statement
    that truncation cannot (a fault of the whole model), in bucket.json, REPORT.md and the one-line summary."""
    pytest.importorskip("torch")
    pytest.importorskip("onnxruntime")
    from conformance.triage.bug_report import report_markdown
    from conformance.triage.first_divergence import localize_buckets, summary_line
    from conformance.triage.localize_workers import LocalizeEvaluator
    from tests.planted_localize import whole_model_case

    case = whole_model_case()
    with LocalizeEvaluator(("tests.planted_localize",), timeout=300, log=str(tmp_path / "worker.log")) as worker:
        record = worker(case, "torch.planted_loc_whole_model")
        assert record.outcome == "mismatch"
        bucket = TriageBucket(signature(record).with_program(case.program), [Sighting.of(record)], case, record)
        localize_buckets([bucket], worker)
    loc = json.loads(json.dumps(bucket.to_dict()))["localisation"]  # as bucket.json holds it
    assert loc["status"] == "changed" and loc["fallback"]["method"] == "onnx"
    assert (loc["fallback"]["location"], loc["fallback"]["statement"]) == ([3], "v = sin(v)")
    report = report_markdown(bucket)  # REPORT.md (write_bucket's reproducer is left out: a planted path has none)
    assert "truncating changes the bug" in report and "Intermediate outputs: no tensor of the ONNX file" in report
    assert "intermediate outputs: no tensor of the ONNX file" in summary_line({"localisation": loc})


def test_replay_localize_prints_the_first_divergence_and_keeps_it_in_the_records(triaged, tmp_path):
    out, _ = triaged
    folder = next(p for p in out.iterdir() if "mismatch" in p.name and
                  "while_tensor" in json.loads((p / "bucket.json").read_text())["signature"]["constructs"])
    records = tmp_path / "replayed.jsonl"
    proc = subprocess.run([sys.executable, "-m", "conformance", "replay", str(folder / "case.json"), "--load",
                           "tests.planted_triage", "--frameworks", "torch", "--paths", "planted_faults,script",
                           "--localize", "--out", str(records)], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 1, proc.stdout + proc.stderr  # the finding is still there
    assert proc.stdout.count("first divergence: ") == 1 and "first divergence: iterations at line" in proc.stdout
    kept = {r["path"]: r for r in map(json.loads, records.read_text().splitlines())}
    assert kept["script"]["outcome"] == "pass" and "localisation" not in kept["script"]["detail"]
    loc = kept["planted_faults"]["detail"]["localisation"]
    assert_shows_first_divergence(loc, "replay --localize")
    assert (loc["status"], loc["kind"]) == ("found", "iterations")
