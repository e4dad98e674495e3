"""Bugs that travel (issue 17 item 6): the corpus's IR cases replayed along every framework's paths and recorded in
their ``expected`` (``conformance transplant``), and campaigns that start a share of their cases from the corpus
(``conformance fuzz --corpus``).
"""

import dataclasses
import itertools
import json
import shutil
from pathlib import Path

import pytest

from conformance.paths.records import framework_available
from conformance.program.flow import cuts
from conformance.program.truncate import truncate
from conformance.run.neighbours import corpus_cases
from conformance.run.stream import generate_cases
from conformance.triage.corpus import Expectation, load_case_file
from conformance.triage.transplant import judge_record, since, with_added

CASES = Path(__file__).resolve().parent.parent / "cases"


# ------------------------------------------------------------------ recording what a path does


def _record(case_file, pid: str, outcome: str, named: str = ""):
    from conformance.run.records import ResultRecord

    framework, path = pid.split(".")
    record = ResultRecord.for_case(case_file.case, framework, path, "cpu", {})
    record.detail.known_issue = named
    return record.finish(outcome, "what the path said")


@pytest.fixture
def ir_case_file():
    """An IR case recording one path only (whatever the file in cases/ records by now)."""
    case_file = load_case_file(CASES / "tf-onnx-loop-counter-without-shape.json")
    return dataclasses.replace(case_file, expected={"tf.onnx": (Expectation("runtime_error", ">=2.21"),)})


def test_an_outcome_is_added_kept_or_said_to_differ_never_overwritten(ir_case_file):
    recorded = ir_case_file.expectation("tf.onnx", "2.21.0")
    assert recorded is not None and recorded.outcome == "runtime_error"
    kept = judge_record(ir_case_file, _record(ir_case_file, "tf.onnx", "runtime_error", "known bug"), "2.21.0")
    differs = judge_record(ir_case_file, _record(ir_case_file, "tf.onnx", "pass"), "2.21.0")
    added = judge_record(ir_case_file, _record(ir_case_file, "torch.script", "mismatch"), "2.13.0")
    ours = judge_record(ir_case_file, _record(ir_case_file, "torch.trace", "harness_error"), "2.13.0")
    guarded = judge_record(ir_case_file, _record(ir_case_file, "torch.fx", "discarded"), "2.13.0")
    assert (kept.action, differs.action, added.action, ours.action, guarded.action) == (
        "kept", "differs", "added", "unrecorded", "added")
    assert added.new_finding and not kept.new_finding and not differs.new_finding and not guarded.new_finding
    updated = with_added(ir_case_file, [kept, differs, added, ours, guarded])
    assert updated.expected["tf.onnx"] == ir_case_file.expected["tf.onnx"]  # a difference is left for a person
    assert "torch.trace" not in updated.expected  # this project's own bug is never an expectation
    assert updated.expected["torch.fx"][0].outcome == "discarded"
    from conformance.paths.records import load_framework

    if framework_available("torch"):
        version = load_framework("torch").version()
        assert updated.expected["torch.script"] == (Expectation("mismatch", since(version)),)


@pytest.mark.skipif(not framework_available("tf"), reason="tensorflow is not installed")
def test_a_program_the_ir_cannot_say_in_a_framework_is_not_run_there():
    from conformance.paths.records import PATHS, load_framework
    from conformance.run.neighbours import without_emitter
    from conformance.triage.transplant import transplant

    load_framework("tf")
    case_file = load_case_file(CASES / "torch-compile-sqrt-nan-sign.json")
    missing = without_emitter(case_file.case, "tf")
    if not missing:
        pytest.skip("every op of this case renders for tf now")
    (result,) = transplant(case_file, [PATHS["tf.function"]])
    assert (result.action, result.record) == ("unrecorded", None)
    assert all(op in result.message for op in missing)


@pytest.mark.skipif(not framework_available("paddle"), reason="paddle is not installed")
def test_a_program_a_framework_s_eager_cannot_run_is_not_recorded_there():
    """tf-xla-int8-overflow-where multiplies int8 tensors, which Paddle's eager has no CPU kernel for: no Paddle
    path can be judged on it, and nothing is recorded (never a runtime_error of each path)."""
    from conformance.paths.records import PATHS, load_framework
    from conformance.triage.transplant import transplant

    load_framework("paddle")
    case_file = load_case_file(CASES / "tf-xla-int8-overflow-where.json")
    (result,) = transplant(case_file, [PATHS["paddle.to_static"]])
    if result.record is not None:
        pytest.skip(f"paddle's eager runs this program now: {result.outcome}")
    assert result.action == "unrecorded" and result.message.startswith("eager paddle cannot run this program")


def test_the_version_recorded_is_the_installed_one_and_later():
    assert since("2.13.0+cpu") == ">=2.13.0"
    assert Expectation("pass", since("2.13.0+cpu")).applies("2.14.1")
    assert not Expectation("pass", since("2.13.0+cpu")).applies("2.12.0")


@pytest.mark.skipif(not framework_available("tf"), reason="tensorflow is not installed")
def test_transplant_writes_what_each_path_does_into_a_copy_of_a_case(tmp_path):
    """The CLI on a copy of a torch case, along two TensorFlow paths: both recorded, the file still valid, and a
    second run finds them kept."""
    from conformance.cli import main

    file = tmp_path / "case.json"
    shutil.copy(CASES / "torch-onnx-dynamo-input-returned-as-output.json", file)
    before = json.loads(file.read_text())["expected"]
    assert main(["transplant", str(file), "--frameworks", "tf", "--paths", "tf.function,tf.function_per_call",
                 "--write"]) == 0
    after = load_case_file(file)
    assert {k: v for k, v in json.loads(file.read_text())["expected"].items() if k in before} == before
    for pid in ("tf.function", "tf.function_per_call"):
        (want,) = after.expected[pid]
        assert want.outcome == "pass" and want.versions.startswith(">=2.")
    assert main(["transplant", str(file), "--frameworks", "tf", "--paths", "tf.function"]) == 0
    assert load_case_file(file).expected == after.expected


# ------------------------------------------------------------------ campaigns near the corpus


def _shapes(program):
    """A program without its weights' seed (neighbours may draw new weights)."""
    return dataclasses.replace(program, seed=0)


def _near(corpus) -> set:
    """Every program a neighbour of ``corpus`` may be (weights aside): each program and each top-level prefix."""
    out = set()
    for case in corpus:
        p = case.program
        out.add(_shapes(p))
        for cut in cuts(p):
            if not cut.block and 0 < cut.index < len(p.body):
                try:
                    out.add(_shapes(truncate(p, cut, markers=False).program))
                except Exception:  # noqa: BLE001 - a cut neighbours leave whole too
                    pass
    return out


@pytest.mark.slow  # two 200-case streams, about 40 s: the corpus share's lighter tests above run by default
def test_a_share_of_campaign_cases_start_from_the_corpus_and_the_stream_stays_deterministic():
    frameworks = ("torch", "paddle", "tf")
    corpus = corpus_cases(CASES, frameworks)
    assert len(corpus) >= 10  # the IR cases of cases/ render on all three frameworks
    near = _near(corpus)
    options = dict(corpus=str(CASES), corpus_share=0.5, frameworks=frameworks)
    # 200 cases: Hypothesis draws each chunk of 25 around one example, so a window of 60 can lean either way (seed 0's
    # first 60 hold 14 neighbours of this corpus, seeds 1-3's 28-37)
    drawn = list(itertools.islice(generate_cases(0, **options), 200))
    assert [c.id for c in drawn[:60]] == [c.id for c in itertools.islice(generate_cases(0, **options), 60)]
    from_corpus = [c for c in drawn if _shapes(c.program) in near]
    assert 0.3 * len(drawn) <= len(from_corpus) <= 0.7 * len(drawn), len(from_corpus)
    assert len({_shapes(c.program) for c in from_corpus}) >= 8  # many programs and prefixes, not one
    assert any(c.program.seed not in {k.program.seed for k in corpus} for c in from_corpus)  # new weights too
    assert len({c.id for c in from_corpus}) == len(from_corpus)  # new input sets: no case twice
    plain = list(itertools.islice(generate_cases(0, frameworks=frameworks), 60))
    assert not [c for c in plain if _shapes(c.program) in near]  # without --corpus: the generator alone


@pytest.mark.skipif(not framework_available("tf"), reason="tensorflow is not installed")
def test_neighbours_of_a_corpus_bug_find_it_again():
    """Neighbours of the tf2onnx loop-counter case that keep its whole program (with new weights or new inputs) hit
    the same known bug; what a campaign near the corpus explores is the bug's neighbourhood."""
    import hypothesis.strategies as st
    from hypothesis import HealthCheck, given, seed, settings

    from conformance.paths.records import PATHS, load_framework
    from conformance.run.neighbours import neighbours
    from conformance.run.runner import check

    load_framework("tf")
    case_file = load_case_file(CASES / "tf-onnx-loop-counter-without-shape.json")
    whole = []

    @seed(0)
    @settings(max_examples=8, database=None, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.just(case_file.case).flatmap(neighbours))
    def run(case):
        if _shapes(case.program) == _shapes(case_file.case.program) and case.id != case_file.case.id:
            whole.append(check(case, PATHS["tf.onnx"]))

    run()
    assert whole, "no neighbour kept the whole program"
    assert all(r.outcome == "runtime_error" and "loop" in r.detail.known_issue.lower() for r in whole), \
        [(r.outcome, r.detail.message[:80]) for r in whole]
