"""Replay the regression corpus in ``cases/``: every file, every path it names, its recorded outcome.

An expectation applies where the installed framework version matches its ``versions`` specifier;
elsewhere the test skips and says why. Expected bugs (``mismatch``, ``conversion_error``,
``runtime_error``, ``timeout``, ``crash``) are strict xfails: the bug still there is an xfail naming
its upstream issue; the path now passing is an unexpected pass that fails the run (fixed upstream:
update the case file's expectation); another outcome fails the run too. Other expectations
(``pass``, ``unsupported``, ``expected_divergence``) are asserted as they are. A malformed case file
fails its own test with a message naming the file and field; the other cases run on. An outcome that differs from
the recorded one is replayed once more in a fresh interpreter: a case's expectation is what it does there, and a
difference that only the test process shows (Paddle, after hundreds of conversions in one process, now and then
fails one with "Not found key in IRMapping") is a warning naming both outcomes, not a failure.

An IR case is a framework-neutral program: besides the paths its bug was found on, it records what every path of
every framework does with it (``conformance transplant cases/ --write``), so a bug pattern found in
``torch.compile`` is also a test of ``to_static`` and XLA; those entries are replayed like the others, and
:func:`test_every_ir_case_records_every_path` fails where one is missing for the installed versions. A variant
whose record says it runs another path's code on the CPU (``PathRecord.same_code_as``: compile_reduce_overhead,
to_static_build_strategy) keeps its expectations but is not replayed here: its base path's replay covers it.

Every recorded bug, refusal and documented divergence replays in the default run, and so does every ``pass`` on a
core path (:data:`~conformance.run.costs.CORE`, the paths the project exists for); a path outside the core whose
expectations are all ``pass`` replays with ``-m slow`` (the whole corpus: ``pytest -m "slow or not slow"
oracles/test_cases.py``): those transplanted passes are half the corpus's replay time, most of it compiling
(torch.compile, the dynamo ONNX exporter, SOT).
"""

import json
import warnings
from pathlib import Path

import pytest

from conformance.paths.records import (
    FRAMEWORK_MODULES,
    PATHS,
    UnknownPathError,
    framework_available,
    load_framework,
    missing_requirements,
    select_paths,
    unavailable_reason,
)
from conformance.run.costs import CORE
from conformance.run.neighbours import without_emitter
from conformance.run.records import FINDINGS
from conformance.triage.corpus import CaseFileError, load_case_file, replay, replay_fresh

CASES = Path(__file__).resolve().parent.parent / "cases"


class KnownBug(Exception):
    """The recorded bug is still there (the strict xfail expects exactly this)."""


def _expectations():
    for file in sorted(CASES.glob("*.json")):
        try:
            case_file = load_case_file(file)
        except CaseFileError as e:
            yield pytest.param(file, None, e, id=f"{file.stem}-malformed")
            continue
        for path_id, wants in case_file.expected.items():
            passes_off_core = path_id not in CORE and all(w.outcome == "pass" for w in wants)
            yield pytest.param(file, path_id, case_file, id=f"{file.stem}-{path_id}",
                               marks=pytest.mark.slow if passes_off_core else ())


@pytest.mark.parametrize("file, path_id, case_file", list(_expectations()))
def test_case_outcome(request, file, path_id, case_file):
    if isinstance(case_file, CaseFileError):
        pytest.fail(str(case_file), pytrace=False)
    framework = path_id.split(".")[0]
    if not framework_available(framework):
        pytest.skip(f"{framework} is not installed")
    try:
        fw = load_framework(framework)
    except (ImportError, UnknownPathError) as e:
        pytest.skip(f"{framework} paths are not available here: {e}")
    version = fw.version()
    want = case_file.expectation(path_id, version)
    if want is None:
        pytest.skip(f"no expectation for {framework} {version} (recorded for "
                    f"{', '.join(e.versions for e in case_file.expected[path_id])})")
    path = PATHS.get(path_id)
    if path is None:
        pytest.fail(f"{file.name}: expected[{path_id!r}]: no such path; known: {', '.join(PATHS)}", pytrace=False)
    if missing_requirements(path):
        pytest.skip(f"{path_id} needs {', '.join(missing_requirements(path))}")
    if why := unavailable_reason(path, "cpu"):  # this machine cannot run it (a CPU without bfloat16 kernels)
        pytest.skip(f"{path_id}: {why}")
    same = path.same_code_as("cpu") if path.same_code_as else None
    if same:  # its record says it runs another path's code here: that path's replay covers it
        pytest.skip(f"{path_id}: {same}")
    if want.outcome in FINDINGS:
        request.applymarker(pytest.mark.xfail(
            strict=True, raises=KnownBug,
            reason=f"known bug ({case_file.source}): {want.outcome} on {framework} {want.versions or 'any version'}; "
                   f"an unexpected pass means it was fixed: update {file.name}"))
    record = replay(case_file, path)
    expected = "pass" if want.outcome in FINDINGS else want.outcome
    if record.outcome not in (want.outcome, expected):  # this process's state, or the case? Ask a fresh process
        fresh = replay_fresh(file, path_id)
        if fresh.outcome in (want.outcome, expected):
            warnings.warn(f"{file.name} {path_id}: {record.outcome} in this long-lived process "
                          f"({record.detail.message[:300]}), {fresh.outcome} in a fresh one: the process's state "
                          f"after earlier conversions, not the case")
            record = fresh
    message = record.detail.message[:1500]
    if want.outcome in FINDINGS and record.outcome == want.outcome:
        raise KnownBug(f"{case_file.summary}\n{message}")
    assert record.outcome == expected, (
        f"{file.name} {path_id}: recorded {want.outcome}, now {record.outcome}: {message}\n"
        f"case: {json.dumps(case_file.summary)}")


@pytest.mark.parametrize("framework", list(FRAMEWORK_MODULES))
def test_every_ir_case_records_every_path(framework):
    """Each IR case has an expectation, for the installed version, on every path of ``framework`` that runs on this
    machine's CPU (the paths selected by default, and the variants left out only because they run the same code
    here; not a path this CPU cannot run, such as bfloat16 AMP without oneDNN's bfloat16 kernels); a
    program with an op ``framework`` has no emitter for is not said there, nor one its eager cannot run, and records
    nothing for it. A case found
    by transplanting another has a file of its own naming the bug, with the same program and inputs: the two
    files record that case together."""
    if not framework_available(framework):
        pytest.skip(f"{framework} is not installed")
    version = load_framework(framework).version()
    paths = [p for p in select_paths([framework]) if not p.reference and not unavailable_reason(p, "cpu")]
    files: dict = {}  # case id -> the files of that IR case (a bug found by transplanting one has a file of its own)
    for file in sorted(CASES.glob("*.json")):
        try:
            case_file = load_case_file(file)
        except CaseFileError:  # test_case_outcome names it
            continue
        if case_file.case is not None and not without_emitter(case_file.case, framework):  # else not said there
            files.setdefault(case_file.case.id, []).append(case_file)
    missing = [f"{same[0].file.name}: {p.id}" for same in files.values() if eager_runs(same[0].case, framework)
               for p in paths if all(f.expectation(p.id, version) is None for f in same)]
    assert not missing, (f"{len(missing)} outcomes not recorded for {framework} {version}: run conformance "
                         f"transplant cases/ --write --frameworks {framework}, then read what it added: {missing[:12]}")


def eager_runs(case, framework: str) -> bool:
    """Whether ``framework``'s eager runs the case (Paddle has no int8 multiply on the CPU, for one): where it cannot,
    no path of it is judged on the case."""
    from conformance.run.runner import prepare

    try:
        prepare(case, framework)
    except Exception:  # noqa: BLE001 - what eager raises is what the case cannot be judged by
        return False
    return True
