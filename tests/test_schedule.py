"""Campaign scheduling by cost: cheap tasks judge every case, expensive ones a deterministic sample; no task
starves; the same seed and options judge the same cases with the same tasks whatever the number of workers."""

import json

import pytest

from conformance.run.plan import Planner
from conformance.run.records import ResultRecord
from conformance.run.schedule import MIN_PROGRAMS, OTHER_SHARE, Schedule, allot, shares


def test_a_rate_judges_that_share_of_the_cases_spread_evenly_and_nested_under_higher_rates():
    plan = Schedule(["a@infer", "b@infer", "c@infer"], rates={"a@infer": 1.0, "b@infer": 0.25, "c@infer": 0.125})
    taken = {k: [p for p in range(400) if plan.takes(k, p)] for k in plan.keys}
    assert taken["a@infer"] == list(range(400)) and abs(len(taken["b@infer"]) - 100) <= 1
    assert abs(len(taken["c@infer"]) - 50) <= 1
    assert set(taken["c@infer"]) <= set(taken["b@infer"])  # a case judged by an expensive task: by cheaper ones too
    assert max(b - a for a, b in zip(taken["c@infer"], taken["c@infer"][1:])) <= 13  # evenly: no long gaps
    assert plan.tasks(plan.keys, 0) == plan.keys  # the first case: every task


def test_a_frameworks_eager_path_judges_the_cases_its_other_tasks_judge():
    plan = Schedule(["t.eager@infer", "t.x@infer", "t.eager@grad", "t.x@grad", "u.eager@infer"],
                    eager=frozenset({"t.eager", "u.eager"}), rates={"t.x@infer": 0.5, "t.x@grad": 0.1})
    assert plan.rate("t.eager@infer") == 0.5 and plan.rate("t.eager@grad") == 0.1
    assert plan.rate("u.eager@infer") == 1.0  # a framework with its eager path alone


def test_core_tasks_every_case_others_share_the_rest_and_each_reaches_its_floor():
    costs = {"t.core@infer": 0.1, "t.cheap@infer": 0.001, "t.mid@infer": 0.5, "t.slow@infer": 4.0}
    prepare = {"t": 0.1}
    long = allot(costs, {"t.core@infer"}, prepare, worker_s=1000.0)
    positions = (1 - OTHER_SHARE) * 1000.0 / 0.2  # the core and the eager reference: 0.2 s a case
    assert long["t.core@infer"] == long["t.cheap@infer"] == 1.0
    assert MIN_PROGRAMS < long["t.slow@infer"] * positions < long["t.mid@infer"] * positions < positions
    # past the floors, an equal share of the time each; all of them together the others' share
    assert long["t.mid@infer"] * 0.5 == pytest.approx(long["t.slow@infer"] * 4.0)
    others = sum(costs[k] * long[k] for k in ("t.cheap@infer", "t.mid@infer", "t.slow@infer")) * positions
    assert others == pytest.approx(OTHER_SHARE * 1000.0)
    # a short campaign: the floors take the others' share; the cheap task still judges every case, the other two
    # an equal number of programs, as close to the floor as the time allows
    short = allot(costs, {"t.core@infer"}, prepare, worker_s=100.0)
    assert short["t.cheap@infer"] == 1.0 and short["t.mid@infer"] == short["t.slow@infer"]
    assert 0.85 * MIN_PROGRAMS < short["t.slow@infer"] * (1 - OTHER_SHARE) * 100.0 / 0.2 < MIN_PROGRAMS
    # what a task has judged already counts toward its floor; a cap on the cases leaves time for every case
    assert allot(costs, {"t.core@infer"}, prepare, 100.0, judged={"t.slow@infer": 10})["t.slow@infer"] < \
        short["t.slow@infer"]
    assert set(allot(costs, {"t.core@infer"}, prepare, 1e6, positions_cap=20).values()) == {1.0}
    # no core task: equal time, the cheapest task on every case
    assert allot({"a@infer": 0.1, "b@infer": 1.0}, set(), {"a": 0.1, "b": 0.1}, 1000.0)["a@infer"] == 1.0


def test_named_paths_judge_every_case_and_a_default_campaign_shares_by_measured_cost():
    keys = ["torch.eager@infer", "torch.script@infer", "torch.compile@infer"]
    named = Planner(keys, {"torch.eager"}, [], sample="all", budget=60, workers=2)
    assert all(named.schedule.tasks(keys, p) == keys for p in range(50))
    shared = Planner(keys, {"torch.eager"}, [], sample="cost", budget=60, workers=2)
    assert shared.schedule.rate("torch.script@infer") == 1.0 and shared.schedule.rate("torch.compile@infer") < 0.5
    before = shared.schedule.rate("torch.compile@infer")
    for i in range(20):  # measured far cheaper than the table says: it gets more of the cases
        r = ResultRecord(case_id=f"c{i}", framework="torch", path="compile", outcome="pass", index=i)
        r.timings.convert_s = 0.05
        shared.observe(i, r)
    shared.replan(20)
    assert shared.schedule.rate("torch.compile@infer") > before
    fixed = Planner(keys, {"torch.eager"}, [], sample="cost", budget=60, workers=2, adapt=False)
    fixed.observe(0, r)
    fixed.replan(1)
    assert fixed.schedule.rate("torch.compile@infer") == before  # adapt=False: the table alone


def test_shares_count_cases_seconds_and_prepare_per_task():
    def record(path, index, convert, prepare):
        r = ResultRecord(case_id=f"c{index}", framework="torch", path=path, outcome="pass", index=index)
        r.timings.convert_s, r.timings.run_s, r.timings.compare_s, r.timings.prepare_s = convert, 0.5, 0.0, prepare
        return r

    records = [record("script", 0, 0.5, 0.2), record("compile", 0, 9.5, 0.2), record("script", 1, 0.5, 0.2),
               record("compile", -1, 100.0, 0.2)]  # a replayed finding (negative index) is no share of the run
    out = shares(records, Schedule(["torch.script@infer", "torch.compile@infer"], rates={"torch.compile@infer": 0.125}))
    assert list(out) == ["torch.compile@infer", "torch.script@infer", "prepare:torch"]
    assert out["torch.compile@infer"] == {"cases": 1, "seconds": 10.0, "s_per_program": 10.0,
                                          "share": round(10 / 12.4, 4), "rate": 0.125, "every": 8.0}
    assert out["torch.script@infer"]["cases"] == 2 and out["torch.script@infer"]["every"] == 1
    assert out["prepare:torch"]["cases"] == 2 and out["prepare:torch"]["seconds"] == 0.4


def _judged(folder):
    records = [json.loads(line) for line in (folder / "results.jsonl").read_text().splitlines()]
    harness = [r["detail"]["message"] for r in records if r["outcome"] == "harness_error"]
    assert not harness, f"a clean campaign raised in this project's code: {harness}"
    return sorted((r["index"], r["case_id"], r["path"], r["mode"]) for r in records)


def test_same_cases_and_tasks_whatever_the_number_of_workers(tmp_path):
    """With the costs fixed (``adapt=False``) and time for every task (``max_cases`` caps the campaign), a campaign
    that shares by cost judges the same cases with the same tasks on any number of workers, and writes each case's
    decision to plan.jsonl in case order."""
    from conformance.paths.records import PATHS, load_framework
    from conformance.run.campaign import Campaign, CampaignOptions

    load_framework("torch")
    paths = [PATHS[p] for p in ("torch.eager", "torch.script", "torch.trace", "torch.fx")]
    costs = {"torch.eager@infer": 0.001, "torch.script@infer": 0.01, "torch.trace@infer": 1.0, "torch.fx@infer": 5.0}
    runs = {}
    for workers in (1, 2):
        out = tmp_path / f"w{workers}"
        Campaign(CampaignOptions(seed=7, budget=600, max_cases=17, paths=paths, workers=workers, out=out,
                                 costs=costs, sample="cost", adapt=False)).run()
        runs[workers] = _judged(out)
        plans = [json.loads(line) for line in (out / "plan.jsonl").read_text().splitlines()]
        assert [p["index"] for p in plans] == list(range(17))  # each case's decision, written down in order
    assert runs[1] == runs[2]
    by_path = {}
    for index, _, path, _ in runs[1]:
        by_path.setdefault(path, []).append(index)
    assert by_path["script"] == by_path["trace"] == by_path["eager"] == by_path["fx"] == list(range(17))


def test_a_task_the_table_lacks_is_added_scaled_to_the_tables_machine():
    from conformance.run.schedule import calibrated

    table = {"a@infer": 0.1, "b@infer": 1.0}
    observed = {"a@infer": 0.5, "b@infer": 4.0, "new@infer": 2.0}  # a machine 4 to 5 times slower
    assert calibrated(observed, table) == {"a@infer": 0.1, "b@infer": 1.0, "new@infer": round(2.0 * 0.225, 3)}
    assert calibrated({"new@grad": 0.3}, {}) == {"new@grad": 0.3}  # nothing in common: taken as measured
