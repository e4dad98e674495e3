"""A campaign's plan: which tasks judge each case, decided in case order and written down.

For each case the campaign runs, :class:`Planner` takes the tasks the schedule gives its position
(:mod:`conformance.run.schedule`: every task with ``sample="all"``, shares of the worker time by measured cost with
``sample="cost"``), leaves out the frameworks that cannot run the case (a program drawn for the frameworks that have
a construct, :func:`~conformance.run.neighbours.unrenderable`) and the tasks that known bugs steer away from it
(:mod:`conformance.run.steering`), and writes the decision to ``plan.jsonl`` beside ``results.jsonl``, one line per
case::

    {"index": 12, "case_id": "...", "tasks": ["torch.eager@infer", ...], "sampled_out": ["torch.compile@infer"],
     "steered": {"torch.onnx_torchscript@infer": "the known bug's text"},
     "unrendered": {"tf": "no tf emitter for input_inplace: ..."}}

``--resume`` reads it back: a case already planned keeps its tasks (the schedule's rates follow measured costs, so
planning it again could differ), and the known-bug counts start from the records already written.
"""

from __future__ import annotations

import json
import statistics
from collections import Counter, defaultdict
from pathlib import Path
from typing import Callable, Optional

from conformance.run.costs import CORE, COSTS
from conformance.run.neighbours import unrenderable
from conformance.run.records import NOT_JUDGED
from conformance.run.schedule import (
    CORE_PROGRAMS,
    EFFICIENCY,
    MIN_PROGRAMS,
    PREPARE_COST,
    PRIOR_WEIGHT,
    UNKNOWN_COST,
    Schedule,
    allot,
    floor_seconds,
    judged_seconds,
    task_cost,
)
from conformance.run.steering import Steering, selects
from conformance.run.stream import every_statement, no_statement

PLAN_FILE = "plan.jsonl"
#: Outcomes that judge nothing: the path refused the program (or the case was discarded).
REFUSED = ("unsupported", "discarded")
#: A task whose programs are refused is offered more until it has judged its floor: at least :data:`OFFER_MIN`
#: programs, and up to :data:`OFFER_LIMIT` while they cost under :data:`OFFER_SHARE` of the campaign's worker time
#: (:meth:`Planner.offer_limit`: a cheap task that judges one program in ten, torch.export in grad mode refusing
#: control flow and state, gets its floor; a dear one that refuses everything does not take the campaign).
OFFER_MIN = 3 * MIN_PROGRAMS
OFFER_LIMIT = 10 * MIN_PROGRAMS
OFFER_SHARE = 0.05
#: How many cases are drawn between two updates of the rates once every floor is met (before: at every case).
REPLAN_EVERY = 4


class Planner:
    """Decides and records the tasks of each case of a campaign.

    ``keys``: the campaign's task keys, in order; ``eager``: the path ids of its eager paths; ``sample``: ``"all"``
    or ``"cost"``; ``costs``: the prior seconds per program (default :data:`~conformance.run.costs.COSTS`);
    ``adapt``: follow the costs measured in the run (False: the prior alone, so the same seed and options judge the
    same cases with the same tasks); ``known_bug_limit``: :data:`~conformance.run.steering.KNOWN_BUG_LIMIT`;
    ``clock``: seconds since the first worker was ready (None before); ``budget``, ``workers``, ``max_positions``:
    what the campaign may still run."""

    def __init__(self, keys: list, eager: set, paths: list, sample: str = "all", costs: Optional[dict] = None,
                 adapt: bool = True, known_bug_limit: int = 3, budget: float = 120.0, workers: int = 1,
                 max_positions: Optional[int] = None, clock: Callable[[], Optional[float]] = lambda: None):
        if sample not in ("all", "cost"):
            raise ValueError(f"sample must be 'all' or 'cost', got {sample!r}")
        self.keys, self.sample, self.adapt = list(keys), sample, adapt
        self.prior = COSTS if costs is None else costs
        self.budget, self.workers, self.max_positions, self.clock = budget, max(1, workers), max_positions, clock
        self.schedule = Schedule(self.keys, frozenset(eager), {k: 1.0 for k in self.keys})
        self.steering = Steering(paths, known_bug_limit)
        self.planned: dict = {}  # index -> the plan line of a case planned by an earlier run (--resume)
        self.steered: dict = defaultdict(Counter)  # task key -> {bug text: programs steered away}
        self.sampled_out: Counter = Counter()  # task key -> cases its rate left out
        self.given: Counter = Counter()  # task key -> cases the schedule gave it (what its floor counts)
        self.given_s = 0.0  # worker seconds those cost by the prior (adapt=False: the time spent)
        self.unrendered: dict = defaultdict(Counter)  # framework -> {why: cases it could not run}
        self.skipped: dict = {}  # index -> {framework: why}, for cases given tasks and not settled yet
        self.records: Counter = Counter()  # task key -> records
        self.refused: Counter = Counter()  # task key -> records that judged nothing (REFUSED)
        self.seconds: dict = defaultdict(list)  # task key -> seconds of each program measured; "prepare:<fw>" too
        self.prepared: set = set()  # (framework, index) whose eager reference is counted
        self.unsettled: set = set()  # indices given tasks by :meth:`candidates`, not settled yet
        self.untaken: dict = {}  # index -> :meth:`counted` of a case :meth:`candidates` gave no task
        self.arrived: Counter = Counter()  # index -> records of the case observed
        self.judged_cases: set = set()  # indices with a record that judged the program (not NOT_JUDGED)
        self.drawn = 0  # cases planned by this run
        self.short = True  # a task is short of its floor, or a core task of its CORE_PROGRAMS (replan at each case)
        self.file = None
        self.replan(0)

    # ------------------------------------------------------------------ the plan file

    def open(self, folder: Path, resume: bool) -> None:
        """Start writing ``folder/plan.jsonl``; with ``resume``, read what an earlier run planned and recorded."""
        path = folder / PLAN_FILE
        if resume:
            from conformance.run.records import read_results

            if path.exists():
                data = path.read_bytes()
                if data and not data.endswith(b"\n"):  # a line cut short by a kill: that case is planned again
                    path.write_bytes(data[: data.rfind(b"\n") + 1])
                for line in path.read_text().splitlines():
                    entry = json.loads(line)
                    self.planned[entry["index"]] = entry
                    self._count(entry)
                    self._give(entry["tasks"] + list(entry.get("steered", {})))
            results = folder / "results.jsonl"
            for record in read_results(results) if results.exists() else ():
                self.observe(record.index, record)
        self.file = path.open("a" if resume else "w")

    def close(self) -> None:
        if self.file is not None:
            self.file.close()

    # ------------------------------------------------------------------ decisions

    def candidates(self, index: int, case, position: int, have: set) -> list:
        """The tasks the schedule gives the case at ``index`` (its ``position`` in the shard's stream), less those
        already recorded (``have``); a case an earlier run planned keeps that run's tasks."""
        if index in self.planned:
            return [k for k in self.planned[index]["tasks"] if k not in have]
        self.drawn += 1
        if self.sample == "cost" and (self.short or self.drawn % REPLAN_EVERY == 0):
            self.replan(position)
        skipped = {fw: why for fw in dict.fromkeys(k.split(".")[0] for k in self.keys)
                   if (why := unrenderable(case, fw)) is not None}
        out = [k for k in self.schedule.tasks(self.keys, position) if k not in have and k.split(".")[0] not in skipped]
        if not out:  # judged by no task (or, resumed without its plan line, by those of an earlier run)
            self.untaken[index] = every_statement if have else no_statement
        else:
            self.unsettled.add(index)
            self.skipped[index] = skipped
            self._give(out)
        return out

    def settle(self, job) -> bool:
        """Fix the tasks of ``job`` before it is sent (leaving out those steered away from known bugs) and write
        the decision; False while earlier cases still running decide it (send it later)."""
        if job.index < 0 or job.index in self.planned:
            self.steering.sent(job.index, job.case, job.remaining)
            return True
        if any(i < job.index for i in self.unsettled):  # decided in case order
            return False
        steered = self.steering.decide(job.index, job.case, job.remaining)
        if steered is None:
            return False
        self.unsettled.discard(job.index)
        chosen = self._with_reference([k for k in job.remaining if k not in steered])
        position_tasks = set(job.remaining)
        skipped = self.skipped.pop(job.index, {})
        entry = {"index": job.index, "case_id": job.case.id, "tasks": chosen, "steered": steered,
                 "sampled_out": [k for k in self.keys if k not in position_tasks and k.split(".")[0] not in skipped]}
        if skipped:
            entry["unrendered"] = skipped
        self.planned[job.index] = entry
        self._count(entry)
        if self.file is not None:
            self.file.write(json.dumps(entry, sort_keys=True) + "\n")
            self.file.flush()
        job.remaining = chosen
        self.steering.sent(job.index, job.case, chosen)
        return True

    def counted(self, index: int) -> Optional[Callable[[str, dict], bool]]:
        """Which op statements of the case at ``index`` count as seen for the generator's pairwise steering
        (:func:`~conformance.run.stream.generate_cases`), a predicate on ``(op, features)``: every one of a case
        some task judged (a record of each task arrived, one not :data:`~conformance.run.records.NOT_JUDGED`); none
        of one every task of which discarded (eager refused it, the branch-flip guard found it unstable), so its
        pairs are drawn again; of one steered away from every task, those a known bug that steered it selects
        (:func:`~conformance.run.steering.selects`): another program with them would be steered away too; of one no
        task takes, none. None while the case is undecided or a record of it is still to come."""
        entry = self.planned.get(index)
        if entry is None:
            return self.untaken.get(index)
        if entry["tasks"]:
            if self.arrived[index] < len(entry["tasks"]):
                return None
            return every_statement if index in self.judged_cases else no_statement
        bugs = [self.steering.bugs[key.partition("@")[0]][text] for key, text in entry.get("steered", {}).items()
                if text in self.steering.bugs.get(key.partition("@")[0], {})]
        return lambda op, feats: any(selects(bug, op, feats) for bug in bugs)

    def avoided(self, index: int) -> tuple:
        """What the generator leaves out once the case at ``index`` is decided (:meth:`counted` is not None): the
        selector of each known bug that steered it away from every task of the campaign (its eager references aside),
        as an :class:`~conformance.program.op_drawing.Avoid`: such a program would only be drawn to be skipped. A
        known bug whose selector needs features of its op's statements (``steer``) is not left out: the op's other
        statements are still judged."""
        from conformance.program.op_drawing import Avoid

        entry = self.planned.get(index)
        if entry is None or entry["tasks"]:
            return ()
        keys = [k for k in self.keys if not self._eager(k)]
        out = []
        for text in dict.fromkeys(entry.get("steered", {}).values()):
            bug = self.steering.bugs.get(keys[0].partition("@")[0], {}).get(text) if keys else None
            if bug is not None and not bug.steer and all(entry["steered"].get(k) == text for k in keys):
                out.append(Avoid(frozenset(bug.ops), frozenset(bug.constructs), "zero_size_input" in bug.facts))
        return tuple(out)

    def _with_reference(self, keys: list) -> list:
        """``keys`` less the eager references left with nothing of theirs to judge (a framework's eager task stays
        where another task of that framework and mode stays, or where the campaign has none)."""
        def others(key: str, pool: list) -> list:
            fw, mode = key.split(".")[0], key.split("@")[1]
            return [k for k in pool if k.startswith(fw + ".") and k.endswith("@" + mode) and not self._eager(k)]

        return [k for k in keys if not self._eager(k) or others(k, keys) or not others(k, self.keys)]

    def _eager(self, key: str) -> bool:
        return key.split("@")[0] in self.schedule.eager

    def _count(self, entry: dict) -> None:
        for key, text in entry.get("steered", {}).items():
            self.steered[key][text] += 1
        for fw, why in entry.get("unrendered", {}).items():
            self.unrendered[fw][why] += 1
        self.sampled_out.update(entry.get("sampled_out", ()))

    def _give(self, keys: list) -> None:
        """Count the tasks the schedule gave a case, in case order (steered ones too: the count must not depend on
        which records had arrived)."""
        keys = [k for k in keys if not self._eager(k)]
        self.given.update(keys)
        self.given_s += sum(self._prior(k) for k in keys) + PREPARE_COST * len({k.split(".")[0] for k in keys})

    # ------------------------------------------------------------------ costs measured

    def observe(self, index: Optional[int], record) -> None:
        """A record of this campaign (``index``: its case's position; replays, negative, count for nothing)."""
        from conformance.run.runner import task_key

        if index is None or index < 0:
            return
        self.steering.observe(index, record)
        self.arrived[index] += 1
        if record.outcome not in NOT_JUDGED:
            self.judged_cases.add(index)
        key = task_key(record.path_id, record.mode)
        self.seconds[key].append(judged_seconds(record))
        self.records[key] += 1
        self.refused[key] += record.outcome in REFUSED
        if record.timings.prepare_s is not None and (record.framework, index) not in self.prepared:
            self.prepared.add((record.framework, index))
            self.seconds["prepare:" + record.framework].append(record.timings.prepare_s)

    def cost(self, key: str, mean: bool = False) -> float:
        """Seconds per program of task ``key`` (``prepare:<framework>``: of a case's eager reference): the median of
        the programs measured in this run (a first program that warms a compiler up is no guide to the next; with
        ``mean``, the mean: what the programs cost together), the table's figure weighing as
        :data:`~conformance.run.schedule.PRIOR_WEIGHT` programs."""
        prior = self._prior(key)
        measured = self.seconds.get(key, [])
        if not self.adapt or not measured:
            return prior
        typical = statistics.fmean(measured) if mean else statistics.median(measured)
        return (prior * PRIOR_WEIGHT + typical * len(measured)) / (PRIOR_WEIGHT + len(measured))

    def _prior(self, key: str) -> float:
        if key.startswith("prepare:"):
            return PREPARE_COST
        prior = task_cost(key, self.prior)
        return UNKNOWN_COST if prior is None else prior

    def _efficiency(self, elapsed: float) -> float:
        """The share of the wall-clock worker time the records account for (the table's guess until 20 s)."""
        accounted = sum(sum(v) for v in self.seconds.values())
        if elapsed > 20 and accounted > 0:
            return min(1.0, max(0.05, accounted / (elapsed * self.workers)))
        return EFFICIENCY

    def _costs(self, mean: bool = False) -> tuple[dict, set, dict]:
        """Seconds per program of the tasks (eager left out), the core tasks, and the eager reference per
        framework (:meth:`cost`)."""
        costs = {k: max(self.cost(k, mean), 1e-4) for k in self.keys if not self._eager(k)}
        prepare = {fw: self.cost("prepare:" + fw, mean) for fw in {k.split(".")[0] for k in self.keys}}
        return costs, {k for k in costs if k.split("@")[0] in CORE and k.endswith("@infer")}, prepare

    def replan(self, position: int) -> None:
        """Set the rates from the costs known now, for the worker time and cases left after ``position``
        (``adapt=False``: the time left is the budget less what the cases planned cost by the table, so the plan
        follows from the seed and options alone)."""
        if self.sample == "all":
            return
        costs, core, prepare = self._costs()
        if self.adapt:
            elapsed = self.clock() or 0.0
            worker_s = max(0.0, self.budget - elapsed) * self.workers * self._efficiency(elapsed)
        else:
            worker_s = max(0.0, self.budget * self.workers * EFFICIENCY - self.given_s)
        cap = None if self.max_positions is None else max(1, self.max_positions - position)
        judged, accept = self.judged(), self.accept()
        self.schedule.rates = allot(costs, core, prepare, worker_s, judged, cap, accept=accept)
        self.short = any(floor_seconds(costs, core, prepare, judged, accept=accept))

    def judged(self) -> dict:
        """Programs each task has judged or will judge, as its floor counts them: those given it, less those
        steered away from known bugs (decided in case order) and those it refused (with ``adapt``: the records say
        which; a task that has been offered :meth:`offer_limit` programs counts as having its floor, so one that
        refuses everything does not take the campaign)."""
        if not self.adapt:  # records arrive in any order: the table alone decides
            return dict(self.given)
        out = {k: n - self.refused[k] - sum(self.steered.get(k, {}).values()) for k, n in self.given.items()}
        return {k: max(n, MIN_PROGRAMS) if self.given[k] >= self.offer_limit(k) else n for k, n in out.items()}

    def offer_limit(self, key: str) -> int:
        """How many programs task ``key`` is offered at most for its floor (see :data:`OFFER_LIMIT`)."""
        affordable = OFFER_SHARE * self.budget * self.workers / max(self.cost(key), 1e-3)
        return max(OFFER_MIN, min(OFFER_LIMIT, int(affordable)))

    def accept(self) -> dict:
        """The share of its programs each task judged, refusals left out (with ``adapt``, for a task with
        :data:`~conformance.run.schedule.MIN_PROGRAMS` records or more; see
        :func:`~conformance.run.schedule.floor_seconds`)."""
        if not self.adapt:
            return {}
        return {k: (n - self.refused[k]) / n for k, n in self.records.items() if n >= MIN_PROGRAMS}

    # ------------------------------------------------------------------ the summary

    def summary(self) -> dict:
        """What the plan left out: ``steered`` (task key -> {bug text: programs}), ``steered_programs``,
        ``known_bugs`` (how many distinct bugs), ``sampled_out`` (task key -> programs), ``unrendered`` (framework
        -> {why: cases it could not run}), the last ``rates``, and ``floors`` (:meth:`floors`)."""
        return {"steered": {k: dict(v) for k, v in sorted(self.steered.items())},
                "steered_programs": sum(n for v in self.steered.values() for n in v.values()),
                "known_bugs": len({t for v in self.steered.values() for t in v}),
                "sampled_out": dict(sorted(self.sampled_out.items())),
                "unrendered": {fw: dict(v) for fw, v in sorted(self.unrendered.items())},
                "rates": {k: round(self.schedule.rate(k), 4) for k in self.keys},
                "floors": self.floors()}

    def floors(self) -> dict:
        """The tasks that judged fewer than :data:`~conformance.run.schedule.MIN_PROGRAMS` programs, told apart:
        ``refused`` (offered that many and more, but refused or discarded most: task -> [refused, offered]), ``steered``
        (known bugs took the programs it lacks: task -> judged), ``starved`` (short of time: task -> judged); and
        ``core_short``: the core tasks that judged fewer than :data:`~conformance.run.schedule.CORE_PROGRAMS` (task ->
        judged); and ``budget_s``: the budget that would give every task its floor and each core task
        :data:`~conformance.run.schedule.CORE_PROGRAMS` judged at the costs measured in this run (refused programs
        included), on its workers."""
        out: dict = {"refused": {}, "steered": {}, "starved": {}}
        for key in self.keys:
            judged = self.records[key] - self.refused[key]
            if self._eager(key) or judged >= MIN_PROGRAMS:
                continue
            if self.records[key] >= MIN_PROGRAMS and 2 * self.refused[key] > self.records[key]:
                out["refused"][key] = [self.refused[key], self.records[key]]
            elif judged + sum(self.steered.get(key, {}).values()) >= MIN_PROGRAMS:
                out["steered"][key] = judged
            else:
                out["starved"][key] = judged
        if self.sample == "cost":
            costs, core, prepare = self._costs(mean=True)  # every program of a floor is a new one
            out["core_short"] = {k: self.records[k] - self.refused[k] for k in sorted(core)
                                 if self.records[k] - self.refused[k] < CORE_PROGRAMS}
            for key in costs:  # a judged program costs the refused ones offered with it (up to the offer limit)
                offered = self.records[key] / max(1, self.records[key] - self.refused[key]) if self.records[key] else 1
                costs[key] *= min(offered, self.offer_limit(key) / MIN_PROGRAMS)
            need = sum(floor_seconds(costs, core, prepare, accept=self.accept()))
            elapsed = self.clock() or 0.0
            out["budget_s"] = round(need / (self.workers * self._efficiency(elapsed)))
        return out


def planner_for(options, clock: Callable[[], Optional[float]]) -> Planner:
    """The planner of a campaign with ``options`` (:class:`~conformance.run.campaign.CampaignOptions`)."""
    from conformance.run.runner import task_key, tasks_of

    keys = [task_key(p.id, mode) for p, mode in tasks_of(options.paths, options.modes)]
    shards = options.shard[1]
    positions = None if options.max_cases is None else -(-options.max_cases // shards)
    return Planner(keys, {p.id for p in options.paths if p.reference}, options.paths, options.sample, options.costs,
                   options.adapt, options.known_bug_limit, options.budget, options.workers or 1, positions, clock)
