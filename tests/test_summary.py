"""A first run that tells the truth: new findings, known bugs, refusals and harness errors apart; harness errors are
never a framework's finding; variants that run their base path's code are left out unless named; the version
header names every framework's version."""

import argparse
import json
import re
import subprocess
import sys

import pytest

from conformance.report.verdicts import Verdicts, compact_rows, markdown_summary, print_summary
from conformance.run.records import ResultRecord


def _record(path, outcome, mode="infer", known=None, limitation=None, message="", index=0):
    r = ResultRecord(case_id=f"case{index}", framework="torch", path=path, mode=mode, index=index)
    r.detail.known_issue, r.detail.limitation = known, limitation
    return r.finish(outcome, message)


RECORDS = [
    _record("script", "pass"), _record("script", "pass", "grad", index=1),
    _record("compile", "mismatch", known="known bug: NaN clamp cases/x.json", message="value differs", index=2),
    _record("compile", "mismatch", message="values differ at [0]", index=3),
    _record("export", "unsupported", limitation="torch.export refuses data-dependent control flow", index=4),
    _record("trace", "harness_error", message="this project's code raised TypeError: boom at conformance/x.py:1",
            index=5),
    _record("trace", "expected_divergence", index=6),
]


def test_records_fall_apart_into_new_known_refused_and_harness():
    v = Verdicts.of(RECORDS)
    assert [r.index for r in v.new] == [3] and [r.index for r in v.known] == [2]
    assert [r.index for r in v.refused] == [4] and [r.index for r in v.harness] == [5]


def test_summary_md_puts_new_findings_first_with_their_replay_command():
    text = markdown_summary(RECORDS, "out/results.jsonl", {"torch.compile@infer": {
        "cases": 2, "seconds": 9.0, "s_per_program": 4.5, "share": 0.9, "every": 8}})
    sections = [line for line in text.splitlines() if line.startswith("## ")]
    assert sections == ["## New findings", "## Known bugs", "## Documented refusals", "## Harness errors",
                        "## Outcomes per path", "## Where the worker time went"]
    new = text.split("## New findings")[1].split("## Known bugs")[0]
    assert "case3" in new and "case2" not in new
    assert "conformance replay out/results.jsonl --case-id case3 --frameworks torch --paths torch.compile" in new
    assert "1 × known bug: NaN clamp" in text and "1 × torch.export refuses" in text
    assert "| torch.compile@infer | 8 | 2 | 4.5 | 90.0% |" in text


def test_the_terminal_table_has_paths_as_rows_and_modes_as_columns():
    header, rows = compact_rows(RECORDS)
    assert header == ["path", "infer", "grad"]
    by_path = {row[0]: row[1:] for row in rows}
    assert by_path["torch.script"] == ["1/1", "1/1"]
    assert by_path["torch.compile"] == ["0/2 · 1 new, 1 known", ""]
    assert by_path["torch.trace"] == ["0/2 · 1 harness", ""]


def test_the_terminal_summary_says_each_kind_apart():
    from rich.console import Console

    out = Console(record=True, width=160)
    print_summary(out, RECORDS, "r.jsonl")
    text = out.export_text()
    for line in ("1 new finding(s)", "1 known bug record(s), 1 distinct", "1 documented refusal(s), 1 distinct",
                 "1 harness error(s): this project's bugs, not the frameworks'"):
        assert line in text
    assert text.index("new finding") < text.index("known bug record") < text.index("harness error(s)")


def test_an_exception_raised_in_this_projects_code_is_a_harness_error_not_a_finding():
    from conformance.paths.records import PathRecord, load_framework, split_names
    from conformance.program.case import Case
    from conformance.run.runner import check, harness_fault
    from conformance.run.stream import generate_cases

    load_framework("torch")
    try:
        split_names(5)  # AttributeError raised inside conformance.paths.records
    except AttributeError as e:
        assert harness_fault(e).startswith("conformance/paths/records.py:")
    try:
        {}["x"]  # raised here, in a test: not this project's package
    except KeyError as e:
        assert harness_fault(e) is None
    case: Case = next(generate_cases(0))
    eager = __import__("conformance.paths.records", fromlist=["PATHS"]).PATHS["torch.eager"]
    broken = PathRecord("torch", "broken_harness", "a conversion that fails in this project's code",
                        split_names, eager.run)  # split_names(ctx): AttributeError in conformance/paths/records.py
    record = check(case, broken)
    assert record.outcome == "harness_error", record.detail.message
    assert "this project's code raised AttributeError" in record.detail.message and record.detail.traceback
    assert "conformance/paths/records.py" in record.detail.message


def test_variants_that_run_their_base_paths_code_are_left_out_unless_named(capsys):
    from rich.console import Console

    from conformance.cli.common import available_paths

    def chosen(paths=None):
        out = Console(record=True, width=200)
        args = argparse.Namespace(frameworks=["torch"], paths=paths, device="cpu", load=None, mode=["infer"])
        return [p.id for p in available_paths(out, args)], out.export_text()

    ids, text = chosen()
    assert "torch.compile" in ids and "torch.compile_reduce_overhead" not in ids
    assert text.count("leaving out torch.compile_reduce_overhead") == 1 and "no CUDA graphs" in text
    ids, text = chosen(["compile_reduce_overhead"])
    assert "torch.compile_reduce_overhead" in ids and "leaving out" not in text


def test_the_version_header_names_tensorflows_version():
    from conformance.report.figures import describe_versions

    assert describe_versions({"tensorflow": "2.21.0", "tf2onnx": "1.17.0"}, "tf") == "tf 2.21.0 (tf2onnx 1.17.0)"
    assert describe_versions({"torch": "2.13.0"}, "torch") == "torch 2.13.0"


@pytest.mark.parametrize("framework", ["paddle"])
def test_build_strategy_variant_is_the_same_code_under_pir(framework):
    pytest.importorskip("paddle")
    from conformance.paths.records import PATHS, duplicate_work, load_framework

    load_framework(framework)
    import paddle

    same = duplicate_work([PATHS["paddle.to_static_build_strategy"], PATHS["paddle.to_static"]], "cpu")
    assert bool(same) == bool(paddle.framework.use_pir_api())


#: Lines Paddle and TensorFlow print from C++ (glog, absl) and Python warnings, as they would appear on a terminal.
FRAMEWORK_LOG_LINE = re.compile(r"^(WARNING: All log messages|[IWEF]\d{4} \d|.*\b\w*Warning: |\s*warnings\.warn\()")


def test_fuzz_prints_no_framework_log_line(tmp_path):
    pytest.importorskip("paddle")
    pytest.importorskip("tensorflow")
    out = tmp_path / "run"
    proc = subprocess.run([sys.executable, "-m", "conformance", "fuzz", "--frameworks", "paddle,tf", "--paths",
                           "to_static,function", "--mode", "infer", "--max-cases", "1", "--workers", "1", "--budget",
                           "120", "--out", str(out)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    noise = [line for line in (proc.stdout + proc.stderr).splitlines() if FRAMEWORK_LOG_LINE.match(line)]
    assert not noise, noise
    assert "0 new finding(s)" in proc.stdout or "new finding(s):" in proc.stdout
    assert {"paddle.eager", "tf.eager"} <= set(json.loads((out / "manifest.json").read_text())["paths"])
    worker_logs = "".join(p.read_text() for p in (out / "logs").glob("worker*.log"))
    assert any(FRAMEWORK_LOG_LINE.match(line) for line in worker_logs.splitlines())  # the noise went there
