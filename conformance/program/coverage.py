"""Pairwise (2-way) coverage of op attributes: what combinatorial test design measures, per op.

Converter bugs live where two attributes meet (a pad rule written wrong only with ``ceil_mode`` *and* padding, a
scatter wrong only with ``reduce="amax"`` *and* duplicate indices). Each op statement of a program is described by
its *features*, each binned into a few values (:func:`features`):

* the argument features converters branch on: ``dtype`` (of the first argument), ``rank`` (of the first
  argument), ``zero_size`` (an argument with a dim of size 0), ``edge`` (an argument carrying edge values: NaN,
  infinities, -0.0...), ``dynamic`` (an argument with the dynamic dim);
* each attribute, binned by :func:`bin_value` (a bool or a string as it is; an int as ``<0``, ``0``, ``1``, ``2``,
  ``3+``; a float as ``<0``, ``0``, ``<1``, ``1``, ``>1``; a sequence by its length);
* the record's own features (``OpRecord.bins``): relations between attributes and arguments that a single
  attribute does not show (a resize that scales down, a scatter index with duplicates along its dim).

The *pairs* of an op statement are the pairs of ``feature=bin`` it holds (:func:`pairs`). An op's coverage is the
share of its *reachable* pairs that were seen: those the generator draws at all for a framework, measured by a
large reference draw (``benchmarks/coverage_reach.py``, stored in :data:`REACH_FILE`; a pair the shape rules
exclude, such as ``dim=3+`` with ``rank=1``, is never drawn and never counted).

The generator steers towards pairs not seen yet (:class:`Steering`, passed to ``programs(steering=...)``): each
program draws a focus op by its count of unseen pairs (an op with many is drawn until they are seen), fits its
inputs to that op's missing pairs (rank, dtype, dynamic dim, a dim of size 0, the edge constructs) and applies it in
most of its op statements and at the end of its body; other ops are drawn more often while they have unseen pairs,
and of a few argument and attribute choices drawn for a statement, the one with the most unseen pairs is taken.
Campaigns draw in chunks and hand each chunk a snapshot of the :class:`Coverage` of the chunks drawn before it, so the
same seed and options give the same cases.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator, Mapping, Optional, Sequence

from conformance.program.ir import DYNAMIC, Get, OpStmt, ProgramError, TensorType, spec_leaves
from conformance.program.ops import OPS

#: The argument features every op statement has (see the module docstring).
ARG_FEATURES = ("dtype", "rank", "zero_size", "edge", "dynamic")
#: How much more often an op none of whose reachable pairs were seen is drawn (an op with half of them seen: half as
#: much more), so that rare ops get the draws their pairs need; an op whose pairs were all seen keeps its weight.
BOOST = 3.0
#: How many argument-and-attribute choices the generator draws for a steered op statement, taking the one with the
#: most unseen pairs (the first of equals: the simplest, where shrinking goes).
CHOICES = 4
#: Each program draws a *focus* op by its count of unseen reachable pairs (:meth:`Steering.focus_weights`): its inputs
#: lean to the ranks, dtypes, dynamic dims and sizes the op's missing pairs hold, and each op statement applies it with
#: these weights (another op drawn as usual, the focus op where it fits). Every other statement: at three in four the
#: programs with data-dependent control flow fell from 49% to 39% of a 600-case stream (42% here, as unsteered).
FOCUS_SHARE = (1.0, 1.0)
#: And the program ends with up to this many more applications of it (``OpDrawing.focus_statements``).
FOCUS_EXTRA = 4
#: The results of the last this many focus op statements are added to the program's outputs (where they are in its
#: body's scope), so that a fault on the op reaches what is compared.
FOCUS_OUTPUTS = 2
#: The weight of a bin the focus op never takes, against 1 for the top (:meth:`Steering.bias`).
FOCUS_FLOOR = 0.05
#: The focus weight of an op with no unseen pairs left, against 1 for an op with one (so a few ops with unseen pairs
#: are not drowned by hundreds that have none).
FOCUS_DONE = 1 / 256
#: The unseen pairs counted for an op the reference draw never made and the stream has not drawn yet.
UNKNOWN = 16


def bin_value(v) -> str:
    """The bin of an attribute value (see the module docstring)."""
    if v is None:
        return "none"
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, int):
        return "<0" if v < 0 else str(v) if v <= 2 else "3+"
    if isinstance(v, float):
        return "<0" if v < 0 else "0" if v == 0 else "<1" if v < 1 else "1" if v == 1 else ">1"
    if isinstance(v, str):
        return v if len(v) <= 16 else "str"
    if isinstance(v, (tuple, list)):
        return f"len{min(len(v), 3)}"
    return type(v).__name__


def features(op: str, types: Sequence[TensorType], attrs: Mapping, edge: bool) -> dict[str, str]:
    """The binned features of an application of ``op`` to arguments of ``types`` with ``attrs`` (``edge``: an
    argument carries edge values)."""
    first = types[0] if types else None
    out = {"dtype": first.dtype if first else "none", "rank": str(first.rank) if first else "none",
           "zero_size": str(any(0 in t.shape for t in types)), "edge": str(bool(edge)),
           "dynamic": str(any(DYNAMIC in t.shape for t in types))}
    for name, value in attrs.items():
        out[f"attr.{name}"] = bin_value(value)
    rec = OPS.get(op)
    if rec is not None and rec.bins is not None and types:
        try:
            out.update((f"rel.{k}", v) for k, v in rec.bins(types, attrs).items())
        except (KeyError, TypeError, ValueError, ProgramError):
            pass  # attributes of an older record: its own features are not told
    return out


def pairs(feats: Mapping[str, str]) -> frozenset[str]:
    """The pairs of ``feature=bin`` of one op statement, each written ``"a=x&b=y"`` with ``a < b``."""
    items = sorted(f"{k}={v}" for k, v in feats.items())
    return frozenset(f"{a}&{b}" for a, b in itertools.combinations(items, 2))


def statement_features(program) -> Iterator[tuple[str, dict[str, str]]]:
    """``(op, features)`` for every op statement of ``program``, depth first (none for a program that does not
    type-check)."""
    from conformance.program.typecheck import op_arg_types

    try:
        types = op_arg_types(program)
    except ProgramError:
        return
    leaves = {(inp.name, path): leaf for inp in program.inputs for path, leaf in spec_leaves(inp.spec)}
    edge: set[str] = set()  # variables that carry edge values (an op on one passes them on)
    for s in program.walk():
        if isinstance(s, Get):
            leaf = leaves.get((s.source, tuple(s.path)))
            (edge.add if leaf is not None and leaf.edge else edge.discard)(s.out)
        elif isinstance(s, OpStmt) and id(s) in types:
            on_edge = any(a in edge for a in s.args)
            (edge.add if on_edge else edge.discard)(s.out)
            yield s.op, features(s.op, types[id(s)], dict(s.attrs), on_edge)


@dataclass
class Coverage:
    """The pairs seen per op (mutable: :meth:`add` programs in the order they were drawn)."""

    seen: dict[str, set] = field(default_factory=dict)

    def add(self, program) -> None:
        for op, feats in statement_features(program):
            self.seen.setdefault(op, set()).update(pairs(feats))

    def steering(self, reach: Optional[Mapping[str, frozenset]] = None) -> "Steering":
        """A frozen snapshot for the generator, against ``reach`` (op -> reachable pairs; none: every pair seen
        counts as reachable)."""
        return Steering({op: frozenset(p) for op, p in self.seen.items()}, reach or {})


class Steering:
    """What the generator steers by: the pairs seen per op before this chunk, the reachable ones, and for one program
    its *focus* op (:meth:`at`); a plain class, not a dataclass: Hypothesis describes a strategy by its arguments,
    and would print every pair."""

    def __init__(self, seen: Mapping[str, frozenset], reach: Mapping[str, frozenset], focus: Optional[str] = None,
                 cache: Optional[dict] = None):
        self.seen, self.reach, self.focus = seen, reach, focus
        self._cache = {} if cache is None else cache  # shared by the focused copies of one snapshot

    def __repr__(self) -> str:
        return f"Steering({sum(map(len, self.seen.values()))} pairs seen)"

    def at(self, focus: str) -> "Steering":
        """This snapshot, focused on the op ``focus`` (see :meth:`focus_weights`)."""
        return Steering(self.seen, self.reach, focus, self._cache)

    def _cached(self, key, make):
        if key not in self._cache:
            self._cache[key] = make()
        return self._cache[key]

    def unseen(self, op: str) -> int:
        """How many of ``op``'s reachable pairs were not seen yet (:data:`UNKNOWN` for an op the reference draw never
        made and this stream never drew)."""
        def count() -> int:
            seen, reach = self.seen.get(op, frozenset()), self.reach.get(op)
            return len(reach - seen) if reach else 0 if seen else UNKNOWN
        return self._cached(("unseen", op), count)

    def focus_weights(self, ops: Sequence[str]) -> list[float]:
        """Weights to draw a program's focus op by: the square root of its count of unseen reachable pairs (an op
        with many is drawn until they are seen; the root keeps ops with few from waiting behind those with
        hundreds), :data:`FOCUS_DONE` for an op with none."""
        return [math.sqrt(self.unseen(op)) or FOCUS_DONE for op in ops]

    def items(self, op: str) -> tuple[Counter, Counter]:
        """Per ``feature=bin`` of ``op``: how many of its reachable pairs not seen yet hold it, and how many of its
        reachable pairs hold it."""
        def count() -> tuple[Counter, Counter]:
            reach = self.reach.get(op, frozenset())
            unseen = reach - self.seen.get(op, frozenset())
            return (Counter(i for pair in unseen for i in pair.split("&")),
                    Counter(i for pair in reach for i in pair.split("&")))
        return self._cached(("items", op), count)

    @property
    def _unseen_items(self) -> Counter:
        """Per ``feature=bin``: how many reachable pairs not seen yet hold it, over every op."""
        return self._cached("items", lambda: Counter(
            item for op, got in self.reach.items() for pair in got - self.seen.get(op, frozenset())
            for item in pair.split("&")))

    def bias(self, feature: str, bins: Sequence) -> list[float]:
        """Weights for a program-level choice among ``bins`` of an argument feature (the dtype of the inputs, their
        rank, a dynamic dim, a dim of size 0). Focused (:meth:`at`): by the focus op's pairs, each bin weighted by
        the op's unseen pairs that hold it plus a quarter of its reachable ones (a bin the op cannot take at all:
        :data:`FOCUS_FLOOR` of the top), so the inputs fit the op and lean to its missing pairs. Unfocused, or for
        a feature the focus op's pairs never hold: 1 each, raised by up to :data:`BOOST` for the bins with the
        most unseen pairs over every op."""
        if self.focus is not None:
            unseen, reachable = self.items(self.focus)
            scores = [unseen[f"{feature}={b}"] + reachable[f"{feature}={b}"] / 4 for b in bins]
            top = max(scores)
            if top:
                return [FOCUS_FLOOR + s / top for s in scores]
        counts = [self._unseen_items[f"{feature}={b}"] for b in bins]
        most = max(counts) or 1
        return [1.0 + BOOST * c / most for c in counts]

    def wants(self, holds: Callable[[str], bool]) -> Optional[bool]:
        """Whether the focus op has unseen pairs with an item ``holds`` accepts (True), only seen ones (None), or
        no reachable pair with one (False; None too with no focus)."""
        if self.focus is None:
            return None
        unseen, reachable = self.items(self.focus)
        if any(holds(i) for i in unseen):
            return True
        return None if any(holds(i) for i in reachable) else False

    def unseen_share(self, op: str) -> float:
        """The share of ``op``'s reachable pairs not seen yet (1 for an op never seen)."""
        reach = self.reach.get(op)
        if not reach:
            return 0.0 if self.seen.get(op) else 1.0
        return self.unseen(op) / len(reach)

    def weight(self, op: str, base: float) -> float:
        """``base`` (the record's weight), raised for an op with unseen pairs (see :data:`BOOST`)."""
        return base * (1.0 + BOOST * self.unseen_share(op))

    def novelty(self, op: str, feats: Mapping[str, str], drawn: Iterable[str] = ()) -> int:
        """How many pairs of ``feats`` were not seen for ``op`` (nor in ``drawn``, pairs this program drew)."""
        seen = self.seen.get(op, frozenset())
        return len(pairs(feats) - seen - set(drawn))


#: The reachable pairs per framework and op, measured by ``benchmarks/coverage_reach.py`` (package data).
REACH_FILE = Path(__file__).with_name("coverage_reach.json")


@functools.lru_cache(maxsize=None)
def _reach_table() -> dict:
    """Per framework and op, the reachable pairs (the file holds each op's items and, per item, its pairs with the
    items after it as a bit mask in hex: bit k of item i's mask is its pair with item i + 1 + k)."""
    try:
        table = json.loads(REACH_FILE.read_text())["frameworks"]
    except (OSError, ValueError, KeyError):  # no table (a checkout that never drew one): every pair seen is reachable
        return {}
    out: dict = {}
    for fw, ops in table.items():
        for op, got in ops.items():
            items = got["items"]
            out.setdefault(fw, {})[op] = frozenset(
                f"{items[i]}&{items[i + 1 + k]}" for i, mask in enumerate(got["pairs"].split())
                for k, bit in enumerate(reversed(bin(int(mask, 16))[2:])) if bit == "1")
    return out


def reach(frameworks: Iterable[str]) -> dict[str, frozenset]:
    """Per op, the pairs the generator draws for any of ``frameworks`` (empty where no reference draw was made)."""
    return _reach(tuple(sorted(frameworks)))


@functools.lru_cache(maxsize=None)
def _reach(frameworks: tuple) -> dict[str, frozenset]:
    out: dict[str, set] = {}
    for fw in frameworks:
        for op, got in _reach_table().get(fw, {}).items():
            out.setdefault(op, set()).update(got)
    return {op: frozenset(got) for op, got in out.items()}


@dataclass
class OpCoverage:
    """One op's pairwise coverage on one path: how many of its reachable pairs were judged there."""

    reachable: int
    judged: int

    @property
    def share(self) -> float:
        return self.judged / self.reachable if self.reachable else 1.0

    def __str__(self) -> str:
        return f"{self.share:.0%} ({self.judged}/{self.reachable})"


def judged_coverage(judged: Mapping[tuple[str, str], set]) -> dict[tuple[str, str], OpCoverage]:
    """Per (op, path id): the pairs judged there (``judged``) against the op's reachable pairs for the path's
    framework (a path id is ``framework.path``); a pair judged that the reference draw never made counts as
    reachable too."""
    out = {}
    for (op, path), got in judged.items():
        reachable = reach([path.partition(".")[0]]).get(op, frozenset()) | got
        out[op, path] = OpCoverage(len(reachable), len(got))
    return out


def totals(coverage: Mapping[tuple[str, str], OpCoverage], at_least: float = 0.95) -> dict[str, dict]:
    """Per path id: the ops drawn, the share of their reachable pairs judged (all together), the ops with at
    least ``at_least`` of theirs, and the op with the lowest share."""
    out: dict[str, dict] = {}
    for (op, path), c in sorted(coverage.items()):
        t = out.setdefault(path, {"ops": 0, "reachable": 0, "judged": 0, "full": 0, "lowest": None})
        t["ops"] += 1
        t["reachable"] += c.reachable
        t["judged"] += c.judged
        t["full"] += c.share >= at_least
        if t["lowest"] is None or c.share < t["lowest"][1].share:
            t["lowest"] = (op, c)
    return out


def summary_lines(coverage: Mapping[tuple[str, str], OpCoverage]) -> list[str]:
    """One line per path of :func:`totals`: ``torch.script: 96% of 4,210 reachable attribute pairs judged; ...``."""
    lines = []
    for path, t in totals(coverage).items():
        share = t["judged"] / t["reachable"] if t["reachable"] else 1.0
        op, lowest = t["lowest"]
        lines.append(f"{path}: {share:.0%} of {t['reachable']:,} reachable attribute pairs judged; {t['full']} of "
                     f"{t['ops']} ops drawn have >= 95% of theirs (lowest: {op} {lowest})")
    return lines
