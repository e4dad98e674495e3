"""Campaign scheduling by cost: cheap tasks judge every case, expensive ones a deterministic sample; no task
starves; the same seed and options judge the same cases with the same tasks whatever the number of workers."""

import json

from conformance.run.schedule import FLOOR, MAX_CLASS, cost_class, schedule, shares


def test_under_the_floor_every_case_then_one_in_four_halving_per_doubling_down_to_the_sparsest():
    assert cost_class(None) == 0 and cost_class(0.0) == 0 and cost_class(FLOOR * 0.99) == 0
    assert [cost_class(FLOOR * f) for f in (1, 1.9, 2, 3.9, 4)] == [2, 2, 3, 3, 3]
    assert cost_class(1000.0) == MAX_CLASS == 3


def test_classes_count_from_the_cheapest_task_of_the_run():
    costs = {"a@infer": 0.01, "b@infer": 0.25, "c@infer": 50.0, "c@grad": 0.01}
    plan = schedule(["a@infer", "b@infer", "c@infer", "c@grad", "d@grad"], costs)
    assert plan.every == {"a@infer": 1, "b@infer": 4, "c@infer": 8, "c@grad": 1, "d@grad": 1}  # d: not measured
    alone = schedule(["b@infer", "c@infer"], costs)  # expensive tasks alone judge every case
    assert alone.every == {"b@infer": 1, "c@infer": 2}
    assert schedule(["b@grad"], costs).every == {"b@grad": 1}  # a mode the table lacks takes the infer cost
    assert plan.tasks(["a@infer", "b@infer", "c@infer"], 0) == ["a@infer", "b@infer", "c@infer"]
    assert plan.tasks(["a@infer", "b@infer", "c@infer"], 4) == ["a@infer", "b@infer"]
    assert plan.tasks(["a@infer", "b@infer", "c@infer"], 5) == ["a@infer"]
    # nested: a case an expensive task judges is judged by every cheaper one (its eager reference is shared)
    for position in range(64):
        if plan.takes("c@infer", position):
            assert plan.takes("b@infer", position) and plan.takes("a@infer", position)


def test_shares_count_cases_seconds_and_prepare_per_task():
    from conformance.run.records import ResultRecord

    def record(path, index, convert, prepare):
        r = ResultRecord(case_id=f"c{index}", framework="torch", path=path, outcome="pass", index=index)
        r.timings.convert_s, r.timings.run_s, r.timings.compare_s, r.timings.prepare_s = convert, 0.5, 0.0, prepare
        return r

    records = [record("script", 0, 0.5, 0.2), record("compile", 0, 9.5, 0.2), record("script", 1, 0.5, 0.2),
               record("compile", -1, 100.0, 0.2)]  # a replayed finding (negative index) is no share of the run
    out = shares(records, schedule(["torch.script@infer", "torch.compile@infer"], {"torch.compile@infer": 5.0}))
    assert list(out) == ["torch.compile@infer", "torch.script@infer", "prepare:torch"]
    assert out["torch.compile@infer"] == {"cases": 1, "seconds": 10.0, "s_per_program": 10.0,
                                          "share": round(10 / 12.4, 4), "every": 8}
    assert out["torch.script@infer"]["cases"] == 2 and out["torch.script@infer"]["every"] == 1
    assert out["prepare:torch"]["cases"] == 2 and out["prepare:torch"]["seconds"] == 0.4


def _judged(folder):
    records = [json.loads(line) for line in (folder / "results.jsonl").read_text().splitlines()]
    harness = [r["detail"]["message"] for r in records if r["outcome"] == "harness_error"]
    assert not harness, f"a clean campaign raised in this project's code: {harness}"
    return sorted((r["index"], r["case_id"], r["path"], r["mode"]) for r in records)


def test_same_cases_and_tasks_whatever_the_number_of_workers(tmp_path):
    from conformance.paths.records import PATHS, load_framework
    from conformance.run.campaign import Campaign, CampaignOptions

    load_framework("torch")
    paths = [PATHS[p] for p in ("torch.eager", "torch.script", "torch.trace")]
    costs = {"torch.eager@infer": 0.001, "torch.script@infer": 0.01, "torch.trace@infer": 1.0}
    runs = {}
    for workers in (1, 2):
        out = tmp_path / f"w{workers}"
        Campaign(CampaignOptions(seed=7, budget=600, max_cases=17, paths=paths, workers=workers, out=out,
                                 costs=costs)).run()
        runs[workers] = _judged(out)
    assert runs[1] == runs[2]
    by_path = {}
    for index, _, path, _ in runs[1]:
        by_path.setdefault(path, []).append(index)
    assert by_path["script"] == by_path["eager"] == list(range(17))
    assert by_path["trace"] == [0, 8, 16]  # one case in eight, never none


def test_a_task_the_table_lacks_is_added_scaled_to_the_tables_machine():
    from conformance.run.schedule import calibrated

    table = {"a@infer": 0.1, "b@infer": 1.0}
    observed = {"a@infer": 0.5, "b@infer": 4.0, "new@infer": 2.0}  # a machine 4 to 5 times slower
    assert calibrated(observed, table) == {"a@infer": 0.1, "b@infer": 1.0, "new@infer": round(2.0 * 0.225, 3)}
    assert calibrated({"new@grad": 0.3}, {}) == {"new@grad": 0.3}  # nothing in common: taken as measured
