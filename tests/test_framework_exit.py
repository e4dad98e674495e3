"""A framework that ends the process with ``sys.exit`` during a conversion or a run (paddle2onnx does, after
logging its error) is that path's ``conversion_error`` or ``runtime_error`` naming the exit code: never this
project's ``harness_error``, and neither a replay nor a campaign's worker ends with it."""

from __future__ import annotations

import json
import os

import pytest

pytest.importorskip("torch")

from conformance.cli import main  # noqa: E402
from conformance.paths.records import PATHS  # noqa: E402
from conformance.program.case import Case, InputSet  # noqa: E402
from conformance.program.ir import Get, Input, OpStmt, OutVar, TensorSpec  # noqa: E402
from conformance.program.program import Program  # noqa: E402
from conformance.run.campaign import Campaign, CampaignOptions  # noqa: E402
from conformance.run.errors import error_text, harness_fault  # noqa: E402

from . import planted_exit  # noqa: E402,F401 - the planted paths, in this process too

PATH_IDS = ("torch.planted_exit_convert", "torch.planted_exit_run", "torch.trace")


def _case_file(tmp_path):
    program = Program(0, (Input("x0", TensorSpec(("B", 3))),), (), (),
                      (Get("v0", "x0"), OpStmt("v1", "tanh", ("v0",))), OutVar("v1"))
    file = tmp_path / "case.json"
    file.write_text(json.dumps({"case": Case(program, (InputSet("example", 2, 0),)).to_dict()}))
    return file


def _pid(record: dict) -> str:
    return f"{record['framework']}.{record['path']}"


def _check(records: dict, trace: str = "pass") -> None:
    convert, run = records["torch.planted_exit_convert"], records["torch.planted_exit_run"]
    assert convert["outcome"] == "conversion_error", convert["detail"]["message"]
    assert convert["detail"]["message"].startswith("SystemExit: sys.exit(3) (raised at planted_exit.py:"), \
        convert["detail"]["message"]
    assert run["outcome"] == "runtime_error", run["detail"]["message"]
    assert "SystemExit: sys.exit(-1)" in run["detail"]["message"], run["detail"]["message"]
    if trace:  # the path after them ran: the exits ended neither the replay nor the worker
        assert records["torch.trace"]["outcome"] == trace, records["torch.trace"]["detail"]["message"]


def test_replay_records_a_framework_exit_and_goes_on(tmp_path):
    out = tmp_path / "records.jsonl"
    code = main(["replay", str(_case_file(tmp_path)), "--load", "tests.planted_exit", "--frameworks", "torch",
                 "--paths", ",".join(PATH_IDS), "--out", str(out)])
    assert code == 1  # findings: the two exits
    _check({_pid(r): r for r in map(json.loads, out.read_text().splitlines())})


def test_campaign_worker_survives_a_framework_exit(tmp_path):
    opts = CampaignOptions(seed=0, budget=300, max_cases=2, paths=[PATHS[p] for p in PATH_IDS], workers=1,
                           timeout=60, out=tmp_path, modules=["tests.planted_exit"])
    Campaign(opts).run()
    records = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert not [r for r in records if r["outcome"] in ("crash", "harness_error")], records
    by_case: dict = {}
    for r in records:
        by_case.setdefault(r["case_id"], {})[_pid(r)] = r
    assert len(by_case) == 2 and all(set(PATH_IDS) <= set(found) for found in by_case.values()), records
    judged = [found for found in by_case.values() if found["torch.planted_exit_convert"]["outcome"] != "discarded"]
    assert judged, "eager refused every case"  # then no path is judged: a case eager runs is needed
    for found in judged:
        _check(found, trace="")


def test_an_exit_raised_by_this_projects_own_code_is_a_harness_error():
    import conformance

    fake = os.path.join(os.path.dirname(conformance.__file__), "exits.py")  # never written: a frame's name only
    scope: dict = {}
    exec(compile("import sys\ndef ours():\n    sys.exit(2)\n", fake, "exec"), scope)
    with pytest.raises(SystemExit) as ours:
        scope["ours"]()
    assert harness_fault(ours.value) == "conformance/exits.py:3 in ours"
    with pytest.raises(SystemExit) as theirs:
        planted_exit._exit_converting(None)
    assert harness_fault(theirs.value) is None
    assert error_text(theirs.value).startswith("SystemExit: sys.exit(3) (raised at planted_exit.py:")


def test_paddle2onnx_sys_exit_is_a_conversion_error_naming_its_exit_status(tmp_path):
    """paddle2onnx calls ``sys.exit(-1)`` after logging an error, in its server process: the status the process would
    have exited with (255) is the message's, never read as a signal (-1 is not SIGHUP). The hand-written model case
    replays with its records in ``--out``, as ``conformance bisect`` reads them."""
    pytest.importorskip("paddle2onnx")
    from pathlib import Path

    case = Path(__file__).parent.parent / "cases" / "paddle-onnx-interpolate-scale-factor.json"
    out = tmp_path / "records.jsonl"
    assert main(["replay", str(case), "--frameworks", "paddle", "--paths", "paddle.onnx", "--out", str(out)]) == 1
    [record] = [json.loads(line) for line in out.read_text().splitlines()]
    message = record["detail"]["message"]
    assert (_pid(record), record["outcome"]) == ("paddle.onnx", "conversion_error"), message
    assert message.startswith("Paddle2OnnxFailed: paddle2onnx.export exited with status 255: "), message
    assert "ir::FloatAttribute" in message and "SIGHUP" not in message, message
    assert record["detail"]["known_issue"].startswith("paddle2onnx.interpolate_scale:"), record["detail"]
