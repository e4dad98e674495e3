"""A campaign's plan in real campaigns: a draw that raises is a harness_error record and the campaign goes on to its
summary; a known bug that has fired stops eating the budget of its path, and only of its path; --resume follows."""

import json

import pytest

pytest.importorskip("torch")

from conformance.paths.records import PATHS  # noqa: E402
from conformance.run.campaign import Campaign, CampaignOptions  # noqa: E402
from conformance.run.records import read_results  # noqa: E402

from . import planted_known_bug  # noqa: E402


def test_a_draw_that_raises_is_a_harness_error_record_and_the_campaign_writes_its_summary(tmp_path, monkeypatch):
    import hypothesis.strategies as st

    import conformance.run.neighbours as neighbours
    from conformance.cli import main

    real = neighbours.campaign_cases

    def planted(**options):  # a generator bug: a draw that divides by zero now and then
        return st.tuples(st.integers(0, 3), real(**options)).map(lambda t: t[1] if t[0] else 1 / 0)

    monkeypatch.setattr(neighbours, "campaign_cases", planted)
    argv = ["fuzz", "--frameworks", "torch", "--paths", "script", "--mode", "infer", "--max-cases", "8", "--budget",
            "600", "--workers", "1", "--seed", "1", "--out", str(tmp_path)]
    main(argv)
    records = read_results(tmp_path)
    errors = [r for r in records if r.outcome == "harness_error"]
    assert errors, "the planted draw error never fired"
    for r in errors:
        assert "ZeroDivisionError" in r.detail.message and "1 / 0" in r.detail.traceback
        assert (r.path, r.seed, r.detail.extra["draw"]["index"]) == ("eager", 1, r.index)
    judged = {r.index for r in records if r.path == "script"}
    assert judged and not judged & {r.index for r in errors} and judged | {r.index for r in errors} == set(range(8))
    assert "harness" in (tmp_path / "summary.md").read_text() and (tmp_path / "manifest.json").exists()
    main(argv + ["--resume"])  # the campaign is complete: resuming adds nothing, the draw errors included
    assert len(read_results(tmp_path)) == len(records)


def test_a_known_bug_that_has_fired_stops_its_path_judging_programs_that_meet_it(tmp_path):
    paths = [PATHS[p] for p in ("torch.eager", "torch.planted_known_bug", "torch.script")]
    options = CampaignOptions(seed=1, budget=600, max_cases=14, paths=paths, workers=1, out=tmp_path,
                              modules=["tests.planted_known_bug"], known_bug_limit=2)
    Campaign(options).run()
    records = read_results(tmp_path)
    plan = {p["index"]: p for p in map(json.loads, (tmp_path / "plan.jsonl").read_text().splitlines())}
    text = planted_known_bug.PLANTED_BUG.text
    fired = sorted(r.index for r in records if r.path == "planted_known_bug" and r.detail.known_issue == text)
    tanh = sorted(i for i, p in plan.items() if "tanh" in next(r for r in records if r.index == i).ops)
    judged = [i for i in tanh if not any(r.index == i and r.outcome == "discarded" for r in records)]
    assert len(judged) > 3, "too few programs with tanh to steer"
    assert fired == judged[:2]  # two fires (a case the oracle discards fires nothing), then the programs with tanh
    after = [i for i in tanh if i > fired[-1]]  # skip that path...
    for i in after:
        assert plan[i]["steered"] == {"torch.planted_known_bug@infer": text}
        assert {r.path for r in records if r.index == i} == {"eager", "script"}  # ...and only that path
    untouched = [i for i in plan if i not in after]
    assert all(not plan[i]["steered"] for i in untouched)
    assert {r.index for r in records if r.path == "planted_known_bug"} == set(range(14)) - set(after)
    Campaign(CampaignOptions(**{**options.__dict__, "resume": True})).run()  # resume: nothing left, nothing rerun
    assert len(read_results(tmp_path)) == len(records)
