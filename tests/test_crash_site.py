"""A worker killed by a signal is a ``crash`` record that names where it died: the rendered model's line and its
op where the stack shows one (a SIGFPE planted on ``//``), else the program's ops (a SIGSEGV planted in the
conversion); a known crash is named by its path's record. Planted paths: ``tests/crash_on_op.py``."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("torch")

from conformance.paths.records import PATHS  # noqa: E402
from conformance.program.edges import EDGE_CONSTRUCTS  # noqa: E402
from conformance.program.strategies import CONSTRUCTS  # noqa: E402
from conformance.run.campaign import Campaign, CampaignOptions  # noqa: E402

from . import crash_on_op  # noqa: E402,F401 - the planted paths, in this process too


def _campaign(tmp_path, path: str, max_cases: int, modules=(), timeout: int = 60) -> list[dict]:
    """Seed 0 with integer ops: ``floor_div`` and ``neg`` beside the ops that constructs bring (an edge value's
    ``cast``, a condition's ``tanh``); cases 2 and 4 have a ``//`` that divides by zero. The plain
    stream, not the steered one: these tests are about crash messages, and need cases that reach the conversion."""
    opts = CampaignOptions(seed=0, budget=600, max_cases=max_cases, paths=[PATHS[path]], workers=1, timeout=timeout,
                           out=tmp_path, modules=["tests.crash_on_op", *modules],
                           generator={"constructs": CONSTRUCTS + EDGE_CONSTRUCTS, "ops": ("floor_div", "neg"),
                                      "steer": False})
    Campaign(opts).run()
    return [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]


def _ops(record: dict) -> set:
    from conformance.program.case import Case

    return set(Case.from_dict(record["case"]).program.ops())


def test_a_sigfpe_in_the_model_names_the_op_and_its_line(tmp_path):
    records = _campaign(tmp_path, "torch.planted_sigfpe_floordiv", 5)
    crashes = [r for r in records if r["outcome"] == "crash"]
    assert crashes, [(r["outcome"], r["detail"].get("message")) for r in records]
    for r in crashes:
        message = r["detail"]["message"]
        assert "SIGFPE" in message and "//" in message and " at model.py:" in message, message
        assert "(op floor_div)" in message or "(op ceil_div)" in message, message
    for r in records:  # eager refused the program (an integer // by zero), or it has no // to crash on
        if r["outcome"] != "crash":
            assert r["outcome"] == "discarded" or (r["outcome"] == "pass"
                                                   and not {"floor_div", "ceil_div"} & _ops(r)), r


def test_a_crash_outside_the_model_names_the_programs_ops(tmp_path):
    records = _campaign(tmp_path, "torch.planted_sigsegv_convert", 3)
    assert records and all(r["outcome"] == "crash" for r in records), [r["outcome"] for r in records]
    for r in records:
        message = r["detail"]["message"]
        assert "SIGSEGV" in message and " in a program with ops " in message, message
        assert all(op in message for op in _ops(r)), message


def test_a_crash_is_a_crash_whatever_handler_a_framework_installed(tmp_path):
    records = _campaign(tmp_path, "torch.planted_sigsegv_convert", 1, modules=["tests.hanging_fatal_handler"],
                        timeout=30)
    assert [r["outcome"] for r in records] == ["crash"], [r["detail"].get("message") for r in records]
    assert "SIGSEGV" in records[0]["detail"]["message"]


def test_a_known_crash_is_named_by_its_record(tmp_path):
    """A limitation of phase ``crash`` (the signal, the program's ops) names the crash as a known bug: the summary
    counts it as known, not new; a crash it does not select stays unnamed (the SIGSEGV path has no record)."""
    records = _campaign(tmp_path, "torch.planted_sigfpe_known", 5)
    crashes = [r for r in records if r["outcome"] == "crash"]
    assert crashes, [(r["outcome"], r["detail"].get("message")) for r in records]
    assert all(r["detail"]["known_issue"].startswith("planted known bug") for r in crashes), crashes
    unnamed = _campaign(tmp_path / "segv", "torch.planted_sigsegv_convert", 1)
    assert unnamed[0]["outcome"] == "crash" and not unnamed[0]["detail"].get("known_issue"), unnamed
