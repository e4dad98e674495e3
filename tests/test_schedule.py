"""Campaign scheduling by cost: cheap tasks judge every case, expensive ones a deterministic sample; no task
starves; the same seed and options judge the same cases with the same tasks whatever the number of workers."""

import json

import pytest

from conformance.run.plan import Planner
from conformance.run.records import ResultRecord
from conformance.run.schedule import (
    CORE_PROGRAMS,
    EFFICIENCY,
    MIN_ACCEPT,
    MIN_PROGRAMS,
    OTHER_SHARE,
    Schedule,
    allot,
    floor_seconds,
    shares,
)


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


def test_floors_first_then_the_core_to_its_hundred_then_the_rest_by_cost():
    """The allocator with planted costs: every task's floor of MIN_PROGRAMS first (judging every case until it has
    it), then the core tasks to CORE_PROGRAMS, then the rest shared by cost."""
    costs = {"t.core@infer": 0.1, "t.cheap@infer": 0.001, "t.mid@infer": 0.5, "t.slow@infer": 4.0}
    prepare = {"t": 0.1}  # a case costs the core and its eager reference 0.2 s
    first, core = floor_seconds(costs, {"t.core@infer"}, prepare)
    assert first == pytest.approx(MIN_PROGRAMS * (0.2 + 0.001 + 0.5 + 4.0))
    assert core == pytest.approx((CORE_PROGRAMS - MIN_PROGRAMS) * 0.2)
    # at the start, every task short of its floor judges every case
    assert set(allot(costs, {"t.core@infer"}, prepare, worker_s=1000.0).values()) == {1.0}
    # floors met: the core task every case, and until it has its hundred the others none, whatever the time
    done = {k: MIN_PROGRAMS for k in costs}
    assert allot(costs, {"t.core@infer"}, prepare, worker_s=1000.0, judged=done) == {
        "t.core@infer": 1.0, "t.cheap@infer": 0.0, "t.mid@infer": 0.0, "t.slow@infer": 0.0}
    # past the core's hundred: more cases for it, and the others an equal share of the time each
    long = allot(costs, {"t.core@infer"}, prepare, worker_s=1000.0, judged={**done, "t.core@infer": CORE_PROGRAMS})
    positions = (1 - OTHER_SHARE) * 1000.0 / 0.2
    assert long["t.core@infer"] == long["t.cheap@infer"] == 1.0
    assert long["t.slow@infer"] < long["t.mid@infer"] < 1.0
    assert long["t.mid@infer"] * 0.5 == pytest.approx(long["t.slow@infer"] * 4.0)
    others = sum(costs[k] * long[k] for k in ("t.cheap@infer", "t.mid@infer", "t.slow@infer")) * positions
    assert others == pytest.approx(OTHER_SHARE * 1000.0)
    # time for the floors and part of the core's hundred: all of it to the core, the others none
    short = allot(costs, {"t.core@infer"}, prepare, worker_s=10.0, judged=done)
    assert short["t.core@infer"] == 1.0 and short["t.mid@infer"] == short["t.slow@infer"] == 0.0
    # too little time for the floors: the tasks short of theirs judge every case (the same number of programs
    # each, as many as the time allows), one that has its floor none
    starved = allot(costs, {"t.core@infer"}, prepare, worker_s=20.0, judged={"t.mid@infer": MIN_PROGRAMS})
    assert starved == {"t.core@infer": 1.0, "t.cheap@infer": 1.0, "t.mid@infer": 0.0, "t.slow@infer": 1.0}
    # a cap on the cases leaves time for every case
    assert set(allot(costs, {"t.core@infer"}, prepare, 1e6, judged=done, positions_cap=20).values()) == {1.0}
    # a core task that judges one program in 4 (it refuses the rest) needs 4 cases for each it lacks, at most
    # 1 / MIN_ACCEPT; the others then get less of the time
    refusing = floor_seconds(costs, {"t.core@infer"}, prepare, done, accept={"t.core@infer": 0.25})[1]
    assert refusing == pytest.approx(4 * (CORE_PROGRAMS - MIN_PROGRAMS) * 0.2)
    nothing = floor_seconds(costs, {"t.core@infer"}, prepare, done, accept={"t.core@infer": 0.0})[1]
    assert nothing == pytest.approx((CORE_PROGRAMS - MIN_PROGRAMS) / MIN_ACCEPT * 0.2)
    # one that judges fewer than one program in 10 does not hold the others back
    hopeless = allot(costs, {"t.core@infer"}, prepare, 1000.0, judged=done, accept={"t.core@infer": 0.05})
    assert hopeless["t.core@infer"] == 1.0 and 0.0 < hopeless["t.slow@infer"] < long["t.slow@infer"]
    # no core task: equal time, the cheapest task on every case
    assert allot({"a@infer": 0.1, "b@infer": 1.0}, set(), {"a": 0.1, "b": 0.1}, 1000.0,
                 judged={"a@infer": 10, "b@infer": 10})["a@infer"] == 1.0


def test_a_core_task_that_has_its_hundred_leaves_the_cases_to_one_that_refuses_most_programs():
    """Step 2 per core task: one that judges one program in 4 (torch.export refusing data-dependent control flow)
    needs 4 cases for each it lacks; a core task that has its hundred does not judge those cases (the time they would
    cost it goes to more of them), nor do the others past their floors, whatever the time; then every core task
    judges the cases of step 3 again."""
    costs = {"t.core@infer": 0.1, "t.refusing@infer": 0.1, "t.other@infer": 1.0}
    core, prepare = {"t.core@infer", "t.refusing@infer"}, {"t": 0.1}
    judged = {"t.core@infer": CORE_PROGRAMS, "t.refusing@infer": CORE_PROGRAMS - 50, "t.other@infer": MIN_PROGRAMS}
    accept = {"t.refusing@infer": 0.25}
    first, core_s = floor_seconds(costs, core, prepare, judged, accept=accept)
    assert first == 0 and core_s == pytest.approx(200 * (0.1 + 0.1))  # 200 cases of the refusing task alone
    short = allot(costs, core, prepare, worker_s=20.0, judged=judged, accept=accept)
    assert short == {"t.core@infer": 0.0, "t.refusing@infer": 1.0, "t.other@infer": 0.0}
    assert allot(costs, core, prepare, worker_s=1000.0, judged=judged, accept=accept) == short
    # past step 2, more cases for every core task: the one that had its hundred judges those
    long = allot(costs, core, prepare, worker_s=1000.0, judged={**judged, "t.refusing@infer": CORE_PROGRAMS},
                 accept=accept)
    assert long["t.refusing@infer"] == long["t.core@infer"] == 1.0
    assert 0.0 < long["t.other@infer"] < 1.0
    # while a task is short of its floor, every core task judges every case
    assert allot(costs, core, prepare, 20.0, {**judged, "t.other@infer": 0}, accept=accept)["t.core@infer"] == 1.0


def test_the_plan_meets_the_floors_first_and_says_who_fell_short_and_why():
    """A planner on planted costs (adapt=False: the time spent is what the planned tasks cost by the table): every
    task judges the first MIN_PROGRAMS cases, then the expensive ones a share; a task that refused what it was offered
    is told apart from one short of time, and the summary says what budget the floors need."""
    keys = ["torch.eager@infer", "torch.script@infer", "torch.slow@infer", "torch.refusing@infer",
            "torch.starved@infer"]
    costs = {"torch.script@infer": 0.1, "torch.slow@infer": 2.0, "torch.refusing@infer": 0.01,
             "torch.starved@infer": 50.0}
    planner = Planner(keys, {"torch.eager"}, [], sample="cost", costs=costs, adapt=False, budget=2000, workers=1,
                      max_positions=1000)
    case, taken = _case(), {k: [] for k in keys}
    for p in range(1000):
        for key in planner.candidates(p, case, p, set()):
            taken[key].append(p)
    for key in keys[1:]:
        assert taken[key][:MIN_PROGRAMS] == list(range(MIN_PROGRAMS))  # the floors first
    assert len(taken["torch.script@infer"]) == 1000  # a core task: every case
    assert MIN_PROGRAMS < len(taken["torch.starved@infer"]) < len(taken["torch.slow@infer"]) < 1000
    # equal shares of the time past the floors, as the table's costs count it (within two programs of the dearer:
    # they begin where the core task has its hundred, part way through the positions' sequence)
    past = {k: (len(taken[k]) - MIN_PROGRAMS) * costs[k] for k in ("torch.slow@infer", "torch.starved@infer")}
    assert abs(past["torch.slow@infer"] - past["torch.starved@infer"]) <= 2 * 50.0
    assert taken["torch.slow@infer"][MIN_PROGRAMS] >= CORE_PROGRAMS  # nothing past the floors before the hundred
    for p in range(12):  # what was recorded before the (real) budget ran out
        for key, outcome in (("torch.refusing@infer", "unsupported"), ("torch.starved@infer", "pass")):
            if p < 12 if key == "torch.refusing@infer" else p < 3:
                r = ResultRecord(case_id=f"c{p}", framework="torch", path=key[6:].split("@")[0], outcome=outcome,
                                 index=p)
                planner.observe(p, r)
    floors = planner.floors()
    assert floors["refused"] == {"torch.refusing@infer": [12, 12]}
    assert floors["starved"]["torch.starved@infer"] == 3 and "torch.refusing@infer" not in floors["starved"]
    assert floors["core_short"] == {"torch.script@infer": 0}  # no record of the core task arrived
    # every floor (10 cases of the core and its reference, 10 programs of each other task) and the core's 100
    # 10: the programs a refused one judged costs (cheap, it is offered up to 100 for its floor)
    need = MIN_PROGRAMS * (0.2 + 2.0 + 10 * 0.01 + 50.0) + (CORE_PROGRAMS - MIN_PROGRAMS) * 0.2
    assert floors["budget_s"] == round(need / EFFICIENCY)
    from conformance.report.summaries import plan_lines, plan_markdown

    said = "\n".join(plan_lines(planner.summary(), "summary.md"))
    assert f"for want of time: the budget is too small for every task's floor (about {round(need / EFFICIENCY)} s" \
        in said and "1 task(s) judged fewer than 10 programs because they refused" in said
    assert "1 core task(s) judged fewer than 100 programs" in said
    assert "| torch.refusing@infer | 0 | refused or discarded 12 of the 12 programs offered |" in \
        plan_markdown(planner.summary())


def test_a_task_that_refuses_its_programs_is_offered_more_until_it_has_judged_its_floor_up_to_a_limit():
    from conformance.run.plan import OFFER_LIMIT, OFFER_MIN

    keys = ["torch.eager@infer", "torch.script@infer", "torch.refusing@infer", "torch.judging@infer"]
    planner = Planner(keys, {"torch.eager"}, [], sample="cost", budget=600, workers=1, clock=lambda: 0.0,
                      costs={"torch.refusing@infer": 5.0, "torch.judging@infer": 5.0})
    # offers for a floor cost up to OFFER_SHARE (5%) of the worker time, 30 s here, OFFER_MIN programs at least:
    # 30 at 5 s a program, 60 at 0.5 s (a task the table lacks), OFFER_LIMIT at most
    limit = planner.offer_limit("torch.refusing@infer")
    assert limit == OFFER_MIN and planner.offer_limit("torch.script@infer") == 60 < OFFER_LIMIT
    case, taken = _case(), {k: [] for k in keys}
    for p in range(4 * limit):
        for key in planner.candidates(p, case, p, set()):
            taken[key].append(p)
            if key in ("torch.refusing@infer", "torch.judging@infer"):
                r = ResultRecord(case_id=f"c{p}", framework="torch", path=key[6:].split("@")[0], index=p,
                                 outcome="unsupported" if key == "torch.refusing@infer" else "pass")
                r.timings.convert_s = 5.0
                planner.observe(p, r)
    judging = taken["torch.judging@infer"]
    assert judging[:MIN_PROGRAMS] == list(range(MIN_PROGRAMS)) and len(judging) < 2 * MIN_PROGRAMS  # then a share
    assert taken["torch.refusing@infer"][:limit] == list(range(limit))  # every case until the limit
    assert len(taken["torch.refusing@infer"]) < 2 * limit  # then a share, as any other task
    assert planner.floors()["refused"] == {"torch.refusing@infer": [len(taken["torch.refusing@infer"])] * 2}


def _case():
    from conformance.program.case import Case, InputSet
    from conformance.program.ir import Get, Input, OpStmt, OutVar, TensorSpec
    from conformance.program.program import Program

    program = Program(0, (Input("x0", TensorSpec((1,), "float32", -1.0, 1.0)),), (), (),
                      (Get("v0", "x0", ()), OpStmt("v1", "neg", ("v0",), ())), OutVar("v1"))
    return Case(program, (InputSet("example", 1, 0, ()),))


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


def test_a_multi_framework_stream_draws_mutation_for_the_frameworks_that_have_it_and_tf_skips_those_cases():
    """TensorFlow has no in-place writes: a share of a torch+paddle+tf campaign's programs is drawn for torch and
    paddle (a seeded draw: the same cases every time), and the planner leaves tf's tasks out of those cases, saying
    why; a single-framework stream is the plain one."""
    import itertools

    from conformance.program.strategies import DEFAULT_CONSTRUCTS
    from conformance.run.neighbours import construct_subsets
    from conformance.run.stream import generate_cases

    assert construct_subsets(("paddle", "tf", "torch"), DEFAULT_CONSTRUCTS) == [("mutation", ("paddle", "torch"))]
    assert construct_subsets(("torch",), DEFAULT_CONSTRUCTS) == []
    assert construct_subsets(("paddle", "tf", "torch"), ("if_tensor",)) == []
    assert construct_subsets(("paddle", "tf", "torch"), DEFAULT_CONSTRUCTS, ops=("add", "tanh")) == []
    options = dict(frameworks=("paddle", "tf", "torch"), constructs=DEFAULT_CONSTRUCTS, max_statements=3, steer=False)
    stream = list(itertools.islice(generate_cases(3, **options), 24))  # one chunk
    assert [c.id for c in stream] == [c.id for c in itertools.islice(generate_cases(3, **options), 24)]
    keys = ["torch.eager@infer", "torch.script@infer", "paddle.eager@infer", "paddle.to_static@infer",
            "tf.eager@infer", "tf.function@infer"]
    planner = Planner(keys, {"torch.eager", "paddle.eager", "tf.eager"}, [], sample="all")
    mutating = [i for i, c in enumerate(stream) if "mutation" in c.program.constructs()]
    assert len(mutating) >= 2  # drawn at all (a stream over all three frameworks drew none)
    for index, case in enumerate(stream):
        tasks = planner.candidates(index, case, index, set())
        assert [k for k in tasks if not k.startswith("tf.")] == keys[:4]  # torch and paddle judge every case
        assert (index in mutating) <= (not any(k.startswith("tf.") for k in tasks))
    reasons = {index: why for index, why in planner.skipped.items() if why}
    assert all(set(why) == {"tf"} and "TensorFlow tensors are immutable" in why["tf"] for why in reasons.values())
    assert set(mutating) == set(reasons)
