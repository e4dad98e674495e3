"""Which tasks judge which case: the paths a user names judge every case; a default campaign shares worker time by
what each task costs, measured in the run.

A task (a path in a mode, :func:`~conformance.run.runner.task_key`) costs from milliseconds (``torch.script``) to
seconds (``torch.compile``) per program. Each task has a *rate*, the share of the cases it judges (1: every case):

* ``sample="all"`` (``conformance fuzz --paths ...``): every task judges every case: the paths a user names are the
  campaign.
* ``sample="cost"`` (a campaign that names no paths, or ``--sample cost``), :func:`allot`: first every task judges
  :data:`MIN_PROGRAMS` programs (the floors, at the start of the campaign); then the *core* tasks
  (:data:`~conformance.run.costs.CORE`, the paths the project exists for, in ``infer`` mode) reach
  :data:`CORE_PROGRAMS`, each judging as many cases as it lacks programs for (a core task that already has them leaves
  the cases to one that refuses most programs), the others nothing past their floors until then; the rest of the time
  goes :data:`OTHER_SHARE` to the others, an equal share each (water-filling: a task too cheap to use its share judges
  every case and leaves the rest to the others), and the remainder to more cases, judged by every core task. Where the
  budget does not cover the floors, every task judges the same number of programs, as many as it allows, and the
  summary says what budget would cover them (:func:`floor_seconds`). What a task costs is the median of its records in
  this run, the table :data:`~conformance.run.costs.COSTS` weighing as :data:`PRIOR_WEIGHT` programs before any (a
  prior, not the law); what the campaign can still run comes from the budget left, the workers and the worker time the
  records account for so far.

A task judges the case at position ``p`` of the shard's stream when ``position_key(p) < rate``: a low-discrepancy
sequence, so a task of rate 1/8 judges one case in 8, spread evenly, and the cases of a task are among those of
every task of a higher rate (the eager reference of a case is computed once for all the tasks that take it). A
framework's eager path judges the cases some other task of that framework judges; a case no task judges is not run.

What is and is not deterministic: the cases (the same seed and options draw the same cases, whatever the workers);
with ``sample="all"``, or ``adapt=False``, which tasks judge which case too. A default campaign's rates follow the
costs measured as records arrive, so two runs of one seed may judge a case with other tasks: the decision for each
case is written to ``plan.jsonl`` beside the results (:mod:`conformance.run.plan`), and ``--resume`` follows it.
``python -m conformance.run.schedule RESULTS...`` prints the cost table with the tasks it lacks measured in results
files (:func:`calibrated`).
"""

from __future__ import annotations

import math
import statistics
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Optional

from conformance.run.costs import COSTS

#: The share of the worker time left after the floors (:data:`MIN_PROGRAMS` each, :data:`CORE_PROGRAMS` each core
#: task) that the tasks outside :data:`~conformance.run.costs.CORE` take together in a campaign that has core tasks
#: (more cases for the core tasks and their eager references take the rest).
OTHER_SHARE = 0.4
#: The programs each task judges at least in a ``sample="cost"`` campaign, first, where the budget allows.
MIN_PROGRAMS = 10
#: The programs each core task judges at least (after every task's floor), where the budget allows.
CORE_PROGRAMS = 100
#: The least share of its programs a core task is taken to judge when the cases its floor needs are counted (a core
#: task that refuses most programs, such as ``torch.export`` refusing data-dependent control flow, needs that many
#: more cases; one that refuses almost everything is offered at most ``1 / MIN_ACCEPT`` times the programs it lacks).
MIN_ACCEPT = 0.2
#: How many programs the cost table's figure weighs against those measured in the run.
PRIOR_WEIGHT = 2
#: Seconds per program of a task the table lacks, until measured; seconds of a case's eager reference.
UNKNOWN_COST = 0.5
PREPARE_COST = 0.1
#: The table's worker seconds are this share of the wall-clock worker time, until the run measures its own
#: (drawing cases, pipes, journaling and the machine's other load take the rest).
EFFICIENCY = 0.7

_GOLDEN = 0.6180339887498949


def position_key(position: int) -> float:
    """Where position ``p`` falls in [0, 1): ``p * (golden ratio - 1)`` modulo 1 (position 0: 0.0, judged by every
    task)."""
    return (position * _GOLDEN) % 1.0


def task_cost(key: str, costs: dict = COSTS) -> Optional[float]:
    """The table's seconds per program of task ``key``; a mode the table lacks takes the path's ``infer`` cost."""
    if key in costs:
        return costs[key]
    return costs.get(key.split("@")[0] + "@infer")


def is_eager(key: str, eager: frozenset) -> bool:
    return key.split("@")[0] in eager


@dataclass
class Schedule:
    """The rates of a campaign's tasks (``rates``: task key -> share of the cases it judges)."""

    keys: list
    eager: frozenset = frozenset()  # path ids of the frameworks' eager (reference) paths
    rates: dict = field(default_factory=dict)

    def takes(self, key: str, position: int) -> bool:
        """Does task ``key`` judge the case at ``position`` of the shard's stream (0, 1, 2 ...)?"""
        return position_key(position) < self.rate(key)

    def rate(self, key: str) -> float:
        if not is_eager(key, self.eager):
            return self.rates.get(key, 1.0)
        fw, mode = key.split(".")[0], key.split("@")[1]
        others = [self.rates.get(k, 1.0) for k in self.keys
                  if k.startswith(fw + ".") and k.endswith("@" + mode) and not is_eager(k, self.eager)]
        return max(others, default=1.0)

    def tasks(self, keys: list[str], position: int) -> list[str]:
        """The tasks among ``keys`` that judge the case at ``position``, in their order."""
        return [k for k in keys if self.takes(k, position)]


def _level(total, budget: float, top: float) -> float:
    """The ``x`` in [0, ``top``] at which the increasing ``total(x)`` reaches ``budget`` (bisection)."""
    lo, hi = 0.0, top
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if total(mid) <= budget else (lo, mid)
    return lo


def _split(costs: dict, core: set, prepare: dict) -> tuple[dict, float]:
    """The tasks outside ``core`` with what each costs a program (a framework without core tasks: its eager
    reference too), and what a case costs the core tasks and their frameworks' eager references."""
    core_fws = {k.split(".")[0] for k in core}
    others = {k: c + (0.0 if k.split(".")[0] in core_fws else prepare.get(k.split(".")[0], PREPARE_COST))
              for k, c in costs.items() if k not in core}
    return others, sum(prepare.get(fw, PREPARE_COST) for fw in core_fws) + sum(costs[k] for k in core)


def _core_cases(core: set, judged: dict, accept: dict, core_programs: int, first: int) -> dict:
    """The cases each ``core`` task still needs to judge ``core_programs`` programs, ``first`` at least (the cases of
    the floors, which every core task judges): a core task that judges one program in 4 (``accept``, 1 where not
    told; :data:`MIN_ACCEPT` at least) needs 4 cases for each it lacks."""
    return {k: max(first, math.ceil(max(0, core_programs - judged.get(k, 0)) / max(MIN_ACCEPT, accept.get(k, 1.0))))
            for k in core}


def _core_seconds(cases: dict, costs: dict, prepare: dict, positions: float) -> float:
    """Worker seconds of the next ``positions`` cases for the core tasks: each judges as many of them as it needs
    (``cases``, :func:`_core_cases`), each framework's eager reference as many as its busiest core task."""
    busiest: dict = {}
    for k, n in cases.items():
        busiest[k.split(".")[0]] = max(busiest.get(k.split(".")[0], 0.0), min(n, positions))
    return (sum(min(n, positions) * costs[k] for k, n in cases.items())
            + sum(n * prepare.get(fw, PREPARE_COST) for fw, n in busiest.items()))


def floor_seconds(costs: dict, core: set, prepare: dict, judged: Optional[dict] = None,
                  min_programs: int = MIN_PROGRAMS, core_programs: int = CORE_PROGRAMS,
                  accept: Optional[dict] = None) -> tuple[float, float]:
    """Worker seconds the floors still need: every task to ``min_programs`` programs, then (second figure, on top
    of the first) the ``core`` tasks to ``core_programs`` each (``judged``: the programs each has judged or will;
    ``accept``: the share of the programs given each task that it judged, refusals left out, 1 where not told: a
    core task that judges one program in 4 needs 4 cases for each it lacks, :data:`MIN_ACCEPT` at least; the other
    core tasks do not judge those cases once they have their ``core_programs``)."""
    judged, accept = judged or {}, accept or {}
    others, base = _split(costs, core, prepare)
    floor = {k: max(0, min_programs - judged.get(k, 0)) for k in costs}
    first = max(floor.values(), default=0)  # positions every task's floor needs (a rate is at most 1)
    cases = _core_cases(core, judged, accept, core_programs, first)
    return (first * base + sum(floor[k] * c for k, c in others.items()),
            _core_seconds(cases, costs, prepare, max(cases.values(), default=0)) - first * base)


def allot(costs: dict, core: set, prepare: dict, worker_s: float, judged: Optional[dict] = None,
          positions_cap: Optional[int] = None, min_programs: int = MIN_PROGRAMS,
          core_programs: int = CORE_PROGRAMS, accept: Optional[dict] = None) -> dict:
    """Rates of the tasks of ``costs`` (task key -> seconds per program; eager paths left out) for a campaign with
    ``worker_s`` worker seconds left (as the records count them) and at most ``positions_cap`` cases left;
    ``judged``: the programs each task has judged or will judge (those given it, less those it refused);
    ``accept``: see :func:`floor_seconds`.

    In this order, as far as the time goes:

    1. *the floors*: every task judges ``min_programs`` programs, first (a task short of its floor judges every
       case until it has it, so a campaign cut short has them). Where the time does not cover the floors, the
       tasks short of theirs judge every case, the others none, and the core tasks every case: the same number of
       programs for each (max-min), as many as the time allows;
    2. the ``core`` tasks reach ``core_programs`` each: each judges as many of the cases as it lacks programs for
       (a core task that refuses most programs needs that many more cases; one that has its ``core_programs``
       leaves them to it), with each case's eager references; where the time runs out first, each judges as many
       as it needs of the cases the time allows. Until every core task has them (but one that refuses nine
       programs in ten or more), the others judge nothing past their floors;
    3. the rest of the time: ``1 - OTHER_SHARE`` to more cases, judged by every core task, ``OTHER_SHARE`` to the
       others, an equal share of the time each (water-filling: a task that judges every case with less leaves the
       rest to the others, and what they all leave goes to more cases).

    Without core tasks, step 3 shares all the time among the others, the cheapest judging every case."""
    judged, accept = judged or {}, accept or {}
    others, base = _split(costs, core, prepare)
    floor = {k: max(0, min_programs - judged.get(k, 0)) for k in others}
    first_s, core_s = floor_seconds(costs, core, prepare, judged, min_programs, core_programs, accept)
    cap = float("inf") if positions_cap is None else max(1, positions_cap)
    if first_s >= worker_s:  # the floors alone take the time (step 1)
        return {k: 1.0 for k in core} | {k: 1.0 if floor[k] > 0 else 0.0 for k in others}
    first = max((max(0, min_programs - judged.get(k, 0)) for k in costs), default=0)
    cases = _core_cases(core, judged, accept, core_programs, first)
    needed = max(cases.values(), default=first)  # the cases step 2 takes
    left = worker_s - first_s
    # step 2 takes the rest while a core task lacks programs and the campaign has more cases than they need, as many
    # cases as the time allows: their need is an estimate (median costs, the efficiency so far)
    short = [k for k in core if judged.get(k, 0) < core_programs and accept.get(k, 1.0) >= MIN_ACCEPT / 2]
    if core and (left < core_s or (short and needed < cap)):
        positions = _level(lambda x: _core_seconds(cases, costs, prepare, x) - first * base, left, needed)
        rest = more = 0.0
    else:
        positions, rest, more = float(needed), left - core_s, 0.0
        if core:
            more = (1 - OTHER_SHARE) * rest / base
            positions += more
            rest *= OTHER_SHARE
        elif others:  # an equal share of the time each: the cheapest judges every case
            positions = max(positions, worker_s / (len(others) * min(others.values())))
    capped = positions > cap
    positions = min(max(1.0, positions), cap)
    # while a floor is short, every core task judges every case (step 1); a cap leaves time for every case
    rates = {k: 1.0 if capped or first else min(1.0, (min(n, positions) + more) / positions) for k, n in cases.items()}
    if not others:
        return rates
    floor_cost = sum(floor[k] * c for k, c in others.items())
    top = max(positions * c for c in others.values())
    level = _level(lambda x: sum(max(floor[k] * c, min(positions * c, x)) for k, c in others.items()),
                   floor_cost + rest, top)
    seconds = {k: max(floor[k] * c, min(positions * c, level)) for k, c in others.items()}
    rates.update({k: 1.0 if floor[k] > 0 else min(1.0, seconds[k] / (positions * c)) for k, c in others.items()})
    return rates


def judged_seconds(record) -> float:
    """Seconds a record's task spent on its program: conversion, running and comparison."""
    t = record.timings
    return (t.convert_s or 0.0) + (t.run_s or 0.0) + (t.compare_s or 0.0)


def shares(records: list, plan: Optional[Schedule] = None) -> dict:
    """Per task key of ``records`` (a campaign's, replays left out): ``cases`` judged by it, ``seconds`` spent on
    them, ``s_per_program`` (the running cost estimate), ``share`` of the seconds of all tasks and, with ``plan``,
    its last ``rate`` (one case in ``every``); plus, per framework, ``prepare:<framework>``: rendering and the
    eager reference."""
    from conformance.run.runner import task_key

    seconds: dict = defaultdict(float)
    cases: dict = defaultdict(int)
    prepared: dict = {}
    for r in records:
        if r.index is not None and r.index < 0:
            continue
        key = task_key(r.path_id, r.mode)
        seconds[key] += judged_seconds(r)
        cases[key] += 1
        if r.timings.prepare_s is not None:  # the same for every task of a framework on a case
            prepared[(r.framework, r.case_id)] = r.timings.prepare_s
    for (fw, _), s in prepared.items():
        seconds[f"prepare:{fw}"] += s
        cases[f"prepare:{fw}"] += 1
    total = sum(seconds.values()) or 1.0
    out = {}
    for key in sorted(seconds, key=lambda k: -seconds[k]):
        entry = {"cases": cases[key], "seconds": round(seconds[key], 3),
                 "s_per_program": round(seconds[key] / cases[key], 4), "share": round(seconds[key] / total, 4)}
        if plan is not None and not key.startswith("prepare:"):  # the last rate: it judges one case in ``every``
            rate = plan.rate(key)
            entry.update(rate=round(rate, 4), every=round(1 / rate, 1) if rate > 0 else None)
        out[key] = entry
    return out


def observed_costs(records: list) -> dict:
    """``{task key: mean seconds per program}`` of the records (what :data:`~conformance.run.costs.COSTS` holds)."""
    return {k: round(v["s_per_program"], 3) for k, v in sorted(shares(records).items()) if "@" in k}


def calibrated(observed: dict, table: dict) -> dict:
    """``table`` with the tasks it lacks added from ``observed`` (seconds per program of another run), scaled by
    the median ratio of the table's costs to the observed ones on the tasks both have (a loaded or faster machine
    scales every task alike)."""
    common = [k for k in observed if k in table and observed[k] > 0]
    scale = statistics.median(table[k] / observed[k] for k in common) if common else 1.0
    return dict(sorted({**{k: round(v * scale, 3) for k, v in observed.items()}, **table}.items()))


def main(argv: Optional[list] = None) -> int:
    """Print the cost table module (``costs.py``'s text) with the tasks it lacks measured in results files."""
    from pathlib import Path

    from conformance.run.records import read_results

    sources = argv if argv is not None else sys.argv[1:]
    if not sources:
        print("usage: python -m conformance.run.schedule RESULTS... > conformance/run/costs.py", file=sys.stderr)
        return 2
    costs = calibrated(observed_costs([r for s in sources for r in read_results(s)]), COSTS)
    doc = Path(__file__).with_name("costs.py").read_text().split("COSTS = {")[0]
    print(doc + "COSTS = {\n" + ",\n".join(f"    {k!r}: {v}" for k, v in costs.items()).replace("'", '"') + "\n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
