"""Campaigns outlive crashing and hanging paths, and the same seed gives the same cases."""

import itertools
import json

import pytest

pytest.importorskip("torch")

from conformance.campaign import Campaign, CampaignOptions, generate_cases  # noqa: E402
from conformance.paths import PATHS  # noqa: E402

from . import planted_paths  # noqa: E402,F401


def test_same_seed_same_cases():
    a = [c.id for c in itertools.islice(generate_cases(3), 30)]
    b = [c.id for c in itertools.islice(generate_cases(3), 30)]
    c = [c.id for c in itertools.islice(generate_cases(4), 30)]
    assert a == b and a != c and len(set(a)) == 30


def test_campaign_survives_segfault_and_hang(tmp_path):
    paths = [PATHS[p] for p in ("torch.eager", "torch.planted_segfault", "torch.script", "torch.planted_hang")]
    opts = CampaignOptions(seed=1, budget=600, max_cases=2, paths=paths, workers=1, timeout=8, out=tmp_path,
                           modules=["tests.planted_paths"])
    summary = Campaign(opts).run()
    records = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    by = {(r["index"], r["path"]): r for r in records}
    assert summary["cases"] == 2 and len(records) == 8
    for i in range(2):
        assert by[(i, "planted_segfault")]["outcome"] == "crash"
        assert "SIGSEGV" in by[(i, "planted_segfault")]["detail"]["message"]
        assert by[(i, "planted_hang")]["outcome"] == "timeout"
        assert by[(i, "script")]["outcome"] in ("pass", "discarded")  # the case went on after the crash
    # the other results match a run without the planted paths
    clean_dir = tmp_path / "clean"
    Campaign(CampaignOptions(seed=1, budget=600, max_cases=2, paths=[PATHS["torch.eager"], PATHS["torch.script"]],
                             workers=1, out=clean_dir)).run()
    clean = {(r["index"], r["path"]): r for r in map(json.loads, (clean_dir / "results.jsonl").read_text().splitlines())}
    for key, r in clean.items():
        assert by[key]["outcome"] == r["outcome"] and by[key]["case_id"] == r["case_id"]


def test_workers_that_cannot_start_stop_the_campaign_with_their_log(tmp_path):
    from conformance.campaign import WorkerStartError

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
        assert r["outcome"] == ("crash" if odd else "pass") or (not odd and r["outcome"] == "discarded")
        if odd:
            assert "eager reference" in r["detail"]["message"] and "SIGSEGV" in r["detail"]["message"]
            assert r["versions"]["torch"]
