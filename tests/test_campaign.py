"""Campaigns outlive crashing and hanging paths, and the same seed gives the same cases."""

import itertools
import json

import pytest

pytest.importorskip("torch")

from conformance.paths.records import PATHS  # noqa: E402
from conformance.run.campaign import Campaign, CampaignOptions  # noqa: E402
from conformance.run.stream import generate_cases  # noqa: E402

from . import planted_paths  # noqa: E402,F401


def test_same_seed_same_cases():
    a = [c.id for c in itertools.islice(generate_cases(3), 30)]
    b = [c.id for c in itertools.islice(generate_cases(3), 30)]
    c = [c.id for c in itertools.islice(generate_cases(4), 30)]
    assert a == b and a != c and len(set(a)) == 30


def test_same_seed_same_cases_whatever_is_imported():
    """Hypothesis draws on constants of imported local modules: a plain process and this pytest run
    (many more modules) must still get the same cases."""
    import subprocess
    import sys

    code = ("import itertools; from conformance.run.stream import generate_cases; "
            "print(' '.join(c.id for c in itertools.islice(generate_cases(3), 30)))")
    plain = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert plain.stdout.split() == [c.id for c in itertools.islice(generate_cases(3), 30)]


def test_campaign_survives_segfault_hang_and_memory_blowup(tmp_path):
    paths = [PATHS[p] for p in ("torch.eager", "torch.planted_segfault", "torch.script", "torch.planted_hang",
                                "torch.planted_hog")]
    opts = CampaignOptions(seed=1, budget=600, max_cases=2, paths=paths, workers=1, timeout=8, out=tmp_path,
                           modules=["tests.planted_paths"], memory_gb=4)
    summary = Campaign(opts).run()
    records = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    by = {(r["index"], r["path"]): r for r in records}
    assert summary["cases"] == 2 and len(records) == 10
    for i in range(2):
        assert by[(i, "planted_segfault")]["outcome"] == "crash"
        assert "SIGSEGV" in by[(i, "planted_segfault")]["detail"]["message"]
        # it had crashed a worker that had run eager first: run again alone, it crashed that one too
        assert "again when run alone in a fresh worker" in by[(i, "planted_segfault")]["detail"]["message"]
        assert by[(i, "planted_hang")]["outcome"] == "timeout"
        assert by[(i, "planted_hog")]["outcome"] == "crash"
        assert "out of memory" in by[(i, "planted_hog")]["detail"]["message"]
        assert by[(i, "script")]["outcome"] in ("pass", "discarded")  # the case went on after the crash
    # the other results match a run without the planted paths
    clean_dir = tmp_path / "clean"
    Campaign(CampaignOptions(seed=1, budget=600, max_cases=2, paths=[PATHS["torch.eager"], PATHS["torch.script"]],
                             workers=1, out=clean_dir)).run()
    clean_lines = (clean_dir / "results.jsonl").read_text().splitlines()
    clean = {(r["index"], r["path"]): r for r in map(json.loads, clean_lines)}
    for key, r in clean.items():
        assert by[key]["outcome"] == r["outcome"] and by[key]["case_id"] == r["case_id"]


def test_a_crash_that_needs_earlier_conversions_is_judged_alone(tmp_path):
    from conformance.report.verdicts import Verdicts, markdown_summary
    from conformance.run.records import read_results

    paths = [PATHS[p] for p in ("torch.eager", "torch.planted_segfault_after_others", "torch.script")]
    opts = CampaignOptions(seed=1, budget=600, max_cases=3, paths=paths, workers=1, timeout=60, out=tmp_path,
                           modules=["tests.planted_paths"], generator={"steer": False})  # 3 cases TorchScript compiles
    assert Campaign(opts).run()["cases"] == 3
    records = read_results(tmp_path / "results.jsonl")
    by = {(r.index, r.path): r for r in records}
    assert len(records) == 9 and all(r.outcome in ("pass", "discarded") for r in records)
    # the first conversion in a process passes; later ones crash it, and pass run again alone in a fresh one
    assert "crashed_before" not in by[(0, "planted_segfault_after_others")].detail.extra
    for i in (1, 2):
        first = by[(i, "planted_segfault_after_others")].detail.extra["crashed_before"]
        assert "SIGSEGV" in first and "other task(s) in that process" in first
    assert len(Verdicts.of(records).crashed_before) == 2
    assert "## Crashes that did not happen alone" in markdown_summary(records)


def test_crashing_workers_do_not_restart_the_budget_clock(tmp_path):
    """Every case segfaults its worker; the campaign still stops when its budget is spent."""
    import subprocess
    import sys
    import time

    cmd = [sys.executable, "-m", "conformance", "fuzz", "--seed", "1", "--budget", "6", "--workers", "1",
           "--load", "tests.planted_paths", "--paths", "torch.planted_segfault", "--frameworks", "torch",
           "--out", str(tmp_path)]
    t0 = time.monotonic()
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert records and all(r["outcome"] == "crash" for r in records if r["path"] == "planted_segfault")
    assert time.monotonic() - t0 < 120, "the campaign ran far past its budget"


def test_workers_that_cannot_start_stop_the_campaign_with_their_log(tmp_path):
    from conformance.run.campaign import WorkerStartError

    opts = CampaignOptions(seed=1, budget=60, max_cases=1, paths=[PATHS["torch.eager"]], workers=1, out=tmp_path,
                           modules=["tests.dies_in_workers"])
    with pytest.raises(WorkerStartError, match="die or hang while starting"):
        Campaign(opts).run()


def test_crash_in_the_eager_reference_records_every_path_of_the_case(tmp_path):
    paths = [PATHS["torch.eager"], PATHS["torch.script"]]
    opts = CampaignOptions(seed=2, budget=600, max_cases=4, paths=paths, workers=1, timeout=60, out=tmp_path,
                           modules=["tests.crash_in_prepare"])
    summary = Campaign(opts).run()
    records = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert summary["cases"] == 4 and len(records) == 8
    for r in records:
        odd = r["case"]["program"]["seed"] % 2
        # the other cases run as usual: a pass, a case the branch-flip guard discards, or a known bug of the path
        assert r["outcome"] == "crash" if odd else (r["outcome"] in ("pass", "discarded")
                                                    or r["detail"].get("known_issue")), r["detail"]
        if odd:
            assert "eager reference" in r["detail"]["message"] and "SIGSEGV" in r["detail"]["message"]
            assert r["versions"]["torch"]


def _records(path):
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_shards_cover_the_campaign_once(tmp_path):
    paths = [PATHS["torch.eager"]]
    indices = []
    for i in range(2):
        out = tmp_path / f"shard{i}"
        Campaign(CampaignOptions(seed=3, budget=600, max_cases=5, paths=paths, workers=1, out=out, shard=(i, 2))).run()
        indices.append(sorted(r["index"] for r in _records(out / "results.jsonl")))
    assert indices == [[0, 2, 4], [1, 3]]


def test_resume_after_sigkill_loses_and_duplicates_nothing(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "conformance", "fuzz", "--seed", "4", "--max-cases", "40", "--budget", "600",
           "--workers", "1", "--frameworks", "torch", "--paths", "script", "--mode", "infer,grad", "--out", str(out),
           "--known-bug-limit", "0"]  # every case judged on every task: none steered away from a known bug
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    results = out / "results.jsonl"
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and (not results.exists() or len(_records(results)) < 3):
        time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGKILL)  # the parent and its worker, mid-campaign
    proc.wait()
    before = _records(results)
    assert 3 <= len(before) < 160
    with results.open("a") as f:
        f.write('{"schema": 1, "case_id": "cut sho')  # a write the kill interrupted
    done = subprocess.run(cmd + ["--resume"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    after = _records(results)
    runs = [(r["index"], r["path"], r["mode"]) for r in after]
    assert sorted(runs) == sorted({(i, p, m) for i in range(40) for p in ("eager", "script")
                                   for m in ("infer", "grad")})  # each once
    assert after[:len(before)] == before  # what was there is kept as it was
    from conformance.program.strategies import DEFAULT_CONSTRUCTS, TRAIN_CONSTRUCTS

    drawn = generate_cases(4, constructs=DEFAULT_CONSTRUCTS + TRAIN_CONSTRUCTS, frameworks=("torch",),
                           max_statements=6)  # what conformance fuzz asks for with these options
    ids = [c.id for c in itertools.islice(drawn, 40)]
    assert all(r["case_id"] == ids[r["index"]] for r in after)


def test_resume_with_other_options_is_refused(tmp_path):
    from conformance.run.campaign import ResumeError

    paths = [PATHS["torch.eager"]]
    Campaign(CampaignOptions(seed=5, budget=600, max_cases=3, paths=paths, workers=1, out=tmp_path)).run()
    with pytest.raises(ResumeError, match="resume with the seed"):  # case 0 is the same for every seed; 1 is not
        Campaign(CampaignOptions(seed=6, budget=600, max_cases=3, paths=paths, workers=1, out=tmp_path,
                                 resume=True)).run()


def test_the_budget_ends_each_case_in_flight_with_its_running_task(tmp_path):
    paths = [PATHS[p] for p in ("torch.eager", "torch.script", "torch.trace")]
    modes = ("infer", "grad", "train")
    opts = CampaignOptions(seed=1, budget=0.01, max_cases=50, paths=paths, workers=1, out=tmp_path, modes=modes)
    summary = Campaign(opts).run()
    first = _records(tmp_path / "results.jsonl")
    assert summary["cases"] == 1 and 1 <= len(first) < 8  # 8 tasks: eager, script, trace in three modes less one
    opts.resume, opts.max_cases, opts.budget = True, 1, 600
    Campaign(opts).run()
    done = _records(tmp_path / "results.jsonl")
    assert sorted((r["path"], r["mode"]) for r in done) == sorted(
        (p.name, m) for p in paths for m in modes if m in p.modes)  # the rest of the case, each task once
