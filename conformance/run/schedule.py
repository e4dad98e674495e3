"""Which tasks judge which case: campaign time goes where the programs are cheap to judge, and no task starves.

A task (a path in a mode, :func:`~conformance.run.runner.task_key`) costs from milliseconds (``torch.script``) to
seconds (``torch.compile``) per program. Judging every case with every task would spend a campaign on the slow
ones: the cheap tasks would judge as few programs as the slowest. So each task has a *sampling class* ``k``
from its cost (:data:`~conformance.run.costs.COSTS`, seconds per program): it judges one case in ``2**k``, the
cases whose position in the shard's stream is a multiple of ``2**k``. A task under :data:`FLOOR` seconds judges
every case (so a cheap path judges as many programs as the campaign draws); from :data:`FLOOR` on, a task judges
one case in 4, and each doubling of the cost halves the share, down to one in ``2**MAX_CLASS``, so no task
starves. Classes count from the cheapest task of the run (a run of expensive tasks alone judges every case).

The classes come from the cost table, never from the clock of this run: the same seed and options judge the same
cases, in the same order, with the same tasks, whatever ``--workers`` and however loaded the machine. A case is
drawn, rendered and its eager reference computed once, for all the tasks that take it. What each task costs
in this run (its running estimate) and its share of the worker time are in the manifest and the summary
(:func:`shares`); ``python -m conformance.run.schedule RESULTS...`` prints the cost table with the tasks it lacks
measured in results files (:func:`calibrated`).
"""

from __future__ import annotations

import math
import statistics
import sys
from collections import defaultdict
from dataclasses import dataclass
from typing import Optional

from conformance.run.costs import COSTS

#: Seconds per program under which a task judges every case.
FLOOR = 0.2
#: The sparsest sampling: a task judges at least one case in ``2**MAX_CLASS``.
MAX_CLASS = 3


def cost_class(seconds: Optional[float]) -> int:
    """The sampling class of a task that costs ``seconds`` per program (None: not in the table, judged on every
    case until it is)."""
    if not seconds or seconds < FLOOR:
        return 0
    return min(MAX_CLASS, 2 + int(math.floor(math.log2(seconds / FLOOR))))


def task_cost(key: str, costs: dict = COSTS) -> Optional[float]:
    """The table's seconds per program of task ``key``; a mode the table lacks takes the path's ``infer`` cost."""
    if key in costs:
        return costs[key]
    return costs.get(key.split("@")[0] + "@infer")


@dataclass(frozen=True)
class Schedule:
    """Per task key, ``every``: the task judges the cases whose position in the stream is a multiple of it."""

    every: dict

    def takes(self, key: str, position: int) -> bool:
        """Does task ``key`` judge the case at ``position`` of the shard's stream (0, 1, 2 ...)?"""
        return position % self.every.get(key, 1) == 0

    def tasks(self, keys: list[str], position: int) -> list[str]:
        """The tasks among ``keys`` that judge the case at ``position``, in their order."""
        return [k for k in keys if self.takes(k, position)]


def schedule(keys: list[str], costs: Optional[dict] = None) -> Schedule:
    """The schedule of a run of tasks ``keys``: classes counted from the cheapest of them. ``costs``: seconds
    per program by task key (default: :data:`~conformance.run.costs.COSTS`)."""
    classes = {k: cost_class(task_cost(k, COSTS if costs is None else costs)) for k in keys}
    least = min(classes.values(), default=0)
    return Schedule({k: 2 ** (c - least) for k, c in classes.items()})


def judged_seconds(record) -> float:
    """Seconds a record's task spent on its program: conversion, running and comparison."""
    t = record.timings
    return (t.convert_s or 0.0) + (t.run_s or 0.0) + (t.compare_s or 0.0)


def shares(records: list, plan: Optional[Schedule] = None) -> dict:
    """Per task key of ``records`` (a campaign's, replays left out): ``every`` (from ``plan``), ``cases`` judged
    by it, ``seconds`` spent on them, ``s_per_program`` (the running cost estimate) and ``share`` of the
    seconds of all tasks; plus, per framework, ``prepare:<framework>``: rendering and the eager reference."""
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
        if plan is not None and not key.startswith("prepare:"):
            entry["every"] = plan.every.get(key, 1)
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
