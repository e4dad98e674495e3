"""Known bugs stop eating the budget: after ``limit`` fires on a task, the programs that meet the bug's selector skip
that task (and only that task), decided in case order whatever order the records arrive in."""

import random
from types import SimpleNamespace

from conformance.run.plan import Planner
from conformance.run.steering import Steering, meets, selects, steerable, told_facts

BUG = SimpleNamespace(outcome=None, ops=("floor_div",), constructs=(), modes=frozenset(), facts=(), steer=(),
                      text="known bug: floor div")
BY_MESSAGE = SimpleNamespace(outcome=None, ops=(), constructs=(), modes=frozenset(), facts=(), steer=(),
                             text="known bug: by message")
REFUSAL = SimpleNamespace(outcome="unsupported", ops=("floor_div",), constructs=(), modes=frozenset(), facts=(),
                          steer=(), text="refused")
PATHS = [SimpleNamespace(id="torch.eager", reference=True, records=()),
         SimpleNamespace(id="torch.onnx_torchscript", reference=False, records=(REFUSAL, BY_MESSAGE, BUG)),
         SimpleNamespace(id="torch.script", reference=False, records=(BUG,))]
KEYS = ["torch.eager@infer", "torch.onnx_torchscript@infer", "torch.script@infer"]


def case(index: int, ops: tuple, shape=(2, 3)):
    program = SimpleNamespace(ops=lambda: list(ops), constructs=lambda: set(),
                              input_leaves=lambda: [SimpleNamespace(shape=shape)])
    return SimpleNamespace(id=f"c{index}", program=program)


def record(path: str, known: str = None, outcome: str = "pass"):
    return SimpleNamespace(path_id=path, mode="infer", framework="torch", outcome=outcome,
                           detail=SimpleNamespace(known_issue=known),
                           timings=SimpleNamespace(convert_s=0.01, run_s=0.0, compare_s=0.0, prepare_s=None))


def test_only_known_bugs_that_name_ops_or_constructs_are_steered_and_a_selector_needs_all_it_sets():
    assert steerable(BUG) and not steerable(BY_MESSAGE) and not steerable(REFUSAL)
    assert meets(BUG, {"floor_div", "add"}, set(), "infer") and not meets(BUG, {"add"}, set(), "infer")
    both = SimpleNamespace(ops=("cumsum",), constructs=("empty",), modes=frozenset({"grad"}), facts=(), steer=())
    assert meets(both, {"cumsum"}, {"empty"}, "grad")
    assert not meets(both, {"cumsum"}, {"empty"}, "infer") and not meets(both, {"cumsum"}, set(), "grad")


def test_a_bug_that_needs_a_zero_size_input_is_met_only_by_programs_that_have_one():
    """A fact the program tells (a zero-size input) narrows the selector; a fact only converting shows does not."""
    empty = SimpleNamespace(outcome=None, ops=(), constructs=("if_tensor",), modes=frozenset(),
                            facts=("zero_size_input",), steer=(), text="known bug: empty through an if")
    runtime = SimpleNamespace(outcome=None, ops=(), constructs=("if_tensor",), modes=frozenset(),
                              facts=("eval_program",), steer=(), text="known bug: told by converting")
    assert told_facts(case(0, ("add",), shape=("B", 0)).program) == {"zero_size_input"}
    assert told_facts(case(0, ("add",)).program) == frozenset()
    assert meets(empty, set(), {"if_tensor"}, "infer", frozenset({"zero_size_input"}))
    assert not meets(empty, set(), {"if_tensor"}, "infer", frozenset())
    assert meets(runtime, set(), {"if_tensor"}, "infer", frozenset())


def test_a_bug_that_needs_a_feature_of_its_op_is_met_only_by_programs_whose_statement_has_it():
    """``steer`` narrows the selector to the op statements with the binned features the bug needs (an unbatched
    pool's rank, a zero-size argument), read from a real program; a record's ``steer`` is checked when it is made."""
    import pytest

    from conformance.paths.limitation import Limitation
    from conformance.program.ir import Get, Input, OpStmt, OutVar, TensorSpec
    from conformance.program.program import Program
    from conformance.run.steering import Selected

    pool = Limitation("known bug: unbatched pool", phases=("convert",), errors=("Fail",), outcome=None,
                      ops=("avg_pool2d", "avg_pool3d"), steer=("avg_pool2d:rank=3", "avg_pool3d:rank=4"))
    empty = Limitation("known bug: empty sum", phases=("compare",), divergences=("shape",), outcome=None,
                       ops=("sum_all",), steer=("zero_size=True",))

    def program(op: str, shape: tuple, attrs=()):
        return Program(seed=0, inputs=(Input("x", TensorSpec(shape)),), kwargs=(), params=(),
                       body=(Get("v0", "x"), OpStmt("v1", op, ("v0",), attrs)), output=OutVar("v1"))

    window = (("kernel", 2), ("stride", 2), ("padding", 0), ("ceil_mode", False), ("count_include_pad", True))
    unbatched, batched = program("avg_pool3d", (3, 4, 4, 4), window), program("avg_pool2d", (2, 3, 4, 4), window)
    assert Selected(unbatched).meets(pool, "infer") and not Selected(batched).meets(pool, "infer")
    assert Selected(program("sum_all", (2, 0))).meets(empty, "infer")
    assert not Selected(program("sum_all", (2, 3))).meets(empty, "infer")
    with pytest.raises(ValueError, match="steer item"):
        Limitation("known bug", ops=("sum_all",), outcome=None, steer=("mean_all:zero_size=True",))


def test_after_k_fires_a_task_skips_the_programs_that_meet_the_bug_and_only_that_task():
    s = Steering(PATHS, limit=2)
    hit, other = case(0, ("floor_div", "add")), case(0, ("add",))
    for i in range(2):
        assert s.decide(i, hit, KEYS) == {}
        s.sent(i, hit, KEYS)
        s.observe(i, record("torch.onnx_torchscript", BUG.text))
        s.observe(i, record("torch.script"))  # judged, the bug did not fire there
        s.observe(i, record("torch.eager"))
    assert s.decide(2, hit, KEYS) == {"torch.onnx_torchscript@infer": BUG.text}  # script still judges it
    assert s.decide(2, other, KEYS) == {}  # a program without the op is judged everywhere
    assert s.decide(1, hit, KEYS) == {}  # only the fires of cases before it count
    assert Steering(PATHS, limit=0).decide(2, hit, KEYS) == {}  # limit 0: never steer
    s.observe(5, record("torch.onnx_torchscript", BY_MESSAGE.text))  # a bug told by its message alone: never steered
    assert "by message" not in str(s.decide(9, hit, KEYS))


def test_a_case_waits_while_earlier_cases_still_running_could_decide_it():
    s = Steering(PATHS, limit=1)
    hit = case(0, ("floor_div",))
    s.sent(0, hit, KEYS)
    assert s.decide(1, hit, KEYS) is None  # case 0 meets the bug and has not reported yet
    assert s.decide(1, case(1, ("add",)), KEYS) == {}  # a program that does not meet it need not wait
    s.observe(0, record("torch.onnx_torchscript"))
    assert s.decide(1, hit, KEYS) is None  # script on case 0 could still fire it on script
    s.observe(0, record("torch.script", BUG.text))
    assert s.decide(1, hit, KEYS) == {"torch.script@infer": BUG.text}


def _simulate(seed: int, workers: int, cases: list, fires) -> dict:
    """Run a campaign's plan over ``cases`` with ``workers`` that finish in a random order: {index: plan line}."""
    rng = random.Random(seed)
    planner = Planner(KEYS, {"torch.eager"}, PATHS, known_bug_limit=3)
    waiting = [SimpleNamespace(index=i, case=c, remaining=planner.candidates(i, c, i, set()))
               for i, c in enumerate(cases)]
    running: list = []
    while waiting or running:
        while waiting and len(running) < workers and planner.settle(waiting[0]):
            running.append(waiting.pop(0))
        job = running.pop(rng.randrange(len(running)))  # any job in flight may finish first
        for key in job.remaining:
            path = key.split("@")[0]
            planner.observe(job.index, record(path, BUG.text if fires(path, job.case) else None))
    return planner.planned


def test_the_same_records_in_case_order_give_the_same_decisions_whatever_the_timing():
    rng = random.Random(0)
    cases = [case(i, ("floor_div",) if rng.random() < 0.5 else ("add",)) for i in range(60)]

    def fires(path, c):  # the exporter fails on floor_div, script on one floor_div program in two
        return "floor_div" in c.program.ops() and (path == "torch.onnx_torchscript"
                                                    or (path == "torch.script" and int(c.id[1:]) % 2 == 0))

    alone = _simulate(0, 1, cases, fires)
    for seed in range(5):
        assert _simulate(seed, 4, cases, fires) == alone
    steered = [p["index"] for p in alone.values() if "torch.onnx_torchscript@infer" in p["steered"]]
    meeting = [i for i, c in enumerate(cases) if "floor_div" in c.program.ops()]
    assert steered == meeting[3:]  # three fires, then every program that meets it skips the exporter
    for i in steered:  # script judges them until it has had its own three fires; then nothing is left to run
        plan = alone[i]
        assert "torch.onnx_torchscript@infer" not in plan["tasks"]
        if "torch.script@infer" in plan["steered"]:
            assert plan["tasks"] == []
        else:
            assert plan["tasks"] == ["torch.eager@infer", "torch.script@infer"]
    assert any(p["tasks"] == [] for p in alone.values()) and any(p["tasks"] for p in alone.values() if p["steered"])


def test_the_pairs_of_a_case_nothing_judged_count_as_seen_only_for_the_statements_its_bug_selects():
    """What the generator's pairwise steering counts of each case (``Planner.counted``), once each of its tasks has
    a record: every statement of a case some task judged; of a case every task discarded, none (its pairs are drawn
    again); of a case steered away from every task, only the statements the bug selects (drawing those again would
    be steered away too; the others' pairs are drawn again); of a case no task takes, none."""
    from conformance.run.stream import every_statement, no_statement

    paths = [SimpleNamespace(id="torch.eager", reference=True, records=()),
             SimpleNamespace(id="torch.onnx_torchscript", reference=False, records=(BUG,))]
    keys = KEYS[:2]
    planner = Planner(keys, {"torch.eager"}, paths, known_bug_limit=1)
    hit = case(0, ("floor_div", "add"))
    assert planner.counted(0) is None  # not drawn yet
    job = SimpleNamespace(index=0, case=hit, remaining=planner.candidates(0, hit, 0, set()))
    assert planner.counted(0) is None and planner.settle(job) and planner.counted(0) is None  # no record yet
    planner.observe(0, record("torch.onnx_torchscript", BUG.text))
    assert planner.counted(0) is None  # eager's record is still to come
    planner.observe(0, record("torch.eager"))
    assert planner.counted(0) is every_statement
    job = SimpleNamespace(index=1, case=hit, remaining=planner.candidates(1, hit, 1, set()))
    assert planner.settle(job) and job.remaining == []  # steered away from its one path, eager with it
    counted = planner.counted(1)
    assert counted("floor_div", {"rank": "2"}) and not counted("add", {"rank": "2"})
    assert planner.judged()["torch.onnx_torchscript@infer"] == 1  # a program steered away is not one judged
    # a case every task discarded (eager refused it, or the branch-flip guard): nothing of it counts as seen
    other = case(2, ("add",))
    job = SimpleNamespace(index=2, case=other, remaining=planner.candidates(2, other, 2, set()))
    assert planner.settle(job) and len(job.remaining) == 2
    for key in job.remaining:
        planner.observe(2, record(key.partition("@")[0], outcome="discarded"))
    assert planner.counted(2) is no_statement
    # a bug named by constructs selects the op statements that exercise them (a view write), not a data-dependent if
    views = SimpleNamespace(ops=(), constructs=("view_write", "if_tensor"), steer=())
    assert selects(views, "view_write", {}) and not selects(views, "add", {})
    # a case the schedule gives no task (a campaign sampled by cost): none of its statements counts
    sampled = Planner(keys, {"torch.eager"}, paths, sample="cost", costs={"torch.onnx_torchscript@infer": 1.0})
    sampled.schedule.rates = {"torch.onnx_torchscript@infer": 0.0}
    sampled.short = False
    assert sampled.candidates(2, case(2, ("add",)), 2, set()) == []
    assert not sampled.counted(2)("add", {"rank": "2"})


def test_an_idle_worker_is_given_the_next_case_with_a_task_left_past_those_steered_away_from_every_task():
    """A case every task of which was steered away is passed over for the next one there and then (a worker left
    idle until the next second's poll judged one case in three in a to_static campaign); a case that cases still
    running decide waits in order, and the stream's end and its waits are told apart."""
    from collections import deque

    from conformance.run.pool import next_to_send
    from conformance.run.stream import NOT_READY

    paths = [SimpleNamespace(id="torch.eager", reference=True, records=()),
             SimpleNamespace(id="torch.onnx_torchscript", reference=False, records=(BUG,))]
    planner = Planner(KEYS[:2], {"torch.eager"}, paths, known_bug_limit=1)
    cases = [case(i, ("floor_div",) if i < 4 else ("add",)) for i in range(6)]
    jobs = iter([SimpleNamespace(index=i, case=c, remaining=planner.candidates(i, c, i, set()))
                 for i, c in enumerate(cases)])
    held: deque = deque()
    first = next_to_send(planner, held, lambda: next(jobs, None))
    assert first.index == 0
    assert next_to_send(planner, held, lambda: next(jobs, None)) is NOT_READY  # case 0 may fire the bug
    assert [j.index for j in held] == [1]
    for key in first.remaining:
        planner.observe(0, record(key.split("@")[0], BUG.text if "onnx" in key else None))
    assert next_to_send(planner, held, lambda: next(jobs, None)).index == 4  # cases 1-3 steered away, passed over
    assert [planner.planned[i]["tasks"] for i in (1, 2, 3)] == [[], [], []] and not held
    assert next_to_send(planner, held, lambda: NOT_READY) is NOT_READY
    assert next_to_send(planner, held, lambda: next(jobs, None)).index == 5
    assert next_to_send(planner, held, lambda: next(jobs, None)) is None


def test_the_generator_draws_nothing_that_meets_what_it_is_told_to_avoid():
    """``programs(avoid=...)``: the ops an ``Avoid`` names, or the ops and statement kinds of its constructs (an
    in-place write into an input, a list of Python values), are not drawn; one that needs a zero-size input leaves
    out its data-dependent ``if`` only in the programs that have one (what else makes such an ``if``, a ``break`` on a
    tensor, the campaign's steering still skips)."""
    from hypothesis import Phase, given, settings

    from conformance.program.op_drawing import Avoid
    from conformance.program.strategies import programs

    avoid = (Avoid(ops=frozenset({"floor_div"})), Avoid(constructs=frozenset({"input_inplace"})),
             Avoid(constructs=frozenset({"list_value"})),
             Avoid(constructs=frozenset({"if_tensor", "if_shape"}), zero_size=True))
    seen = {}

    def count(with_avoid: bool) -> dict:
        got = {"floor_div": 0, "input_inplace": 0, "list_value": 0, "if_zero_size": 0, "if": 0}

        @settings(max_examples=300, database=None, deadline=None, derandomize=True, phases=[Phase.generate])
        @given(programs(frameworks=("paddle",), avoid=avoid if with_avoid else ()))
        def draw(p):
            constructs, zero = p.constructs(), any(0 in leaf.shape for leaf in p.input_leaves())
            got["floor_div"] += "floor_div" in p.ops()
            got["input_inplace"] += "input_inplace" in constructs
            got["list_value"] += "list_value" in constructs
            got["if_zero_size"] += zero and bool(constructs & {"if_tensor", "if_shape"})
            got["if"] += bool(constructs & {"if_tensor", "if_shape"})

        draw()
        return got

    seen = count(False), count(True)
    before, after = seen
    assert min(before.values()) >= 5, before  # the plain generator draws each of them
    assert after["floor_div"] == after["input_inplace"] == after["list_value"] == 0, after
    assert after["if_zero_size"] <= before["if_zero_size"] / 4, seen
    assert after["if"] >= before["if"] / 2, seen  # programs without a zero-size input keep their ifs


def test_the_generator_is_told_to_avoid_a_known_bug_only_once_it_steered_a_case_away_from_every_task():
    from conformance.program.op_drawing import Avoid

    def steer(keys, paths, both: bool):
        planner = Planner(keys, {"torch.eager"}, paths, known_bug_limit=1)
        hit = case(0, ("floor_div", "add"))
        job = SimpleNamespace(index=0, case=hit, remaining=planner.candidates(0, hit, 0, set()))
        assert planner.settle(job)
        for key in job.remaining:
            path = key.split("@")[0]
            planner.observe(0, record(path, BUG.text if both or "onnx" in path else None))
        job = SimpleNamespace(index=1, case=hit, remaining=planner.candidates(1, hit, 1, set()))
        assert planner.settle(job)
        return planner

    one = steer(KEYS[:2], [PATHS[0], SimpleNamespace(id="torch.onnx_torchscript", reference=False, records=(BUG,))],
                True)
    assert one.avoided(0) == () and one.avoided(1) == (Avoid(ops=frozenset({"floor_div"})),)
    assert steer(KEYS, PATHS, False).avoided(1) == ()  # script still judges floor_div: it is still drawn
    assert steer(KEYS, PATHS, True).avoided(1) == (Avoid(ops=frozenset({"floor_div"})),)
    # a bug that needs features of its op's statements: the op's other statements are still judged
    narrow = SimpleNamespace(**{**vars(BUG), "steer": ("rank=3",)})
    planner = Planner(KEYS[:2], {"torch.eager"}, [PATHS[0], SimpleNamespace(
        id="torch.onnx_torchscript", reference=False, records=(narrow,))])
    planner.planned[0] = {"index": 0, "tasks": [], "steered": {"torch.onnx_torchscript@infer": narrow.text}}
    assert planner.avoided(0) == ()
