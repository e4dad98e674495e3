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
program begins with a few *focus* op statements, each an op drawn by its count of unseen pairs (an op with many is
drawn until they are seen) applied to a fresh input drawn for that op's missing pairs (dtype, rank, a dim of size 0,
edge values, the dynamic dim), its result among the program's outputs; other ops are drawn more often while they have
unseen pairs, and of a few argument and attribute choices drawn for a statement, the one with the most unseen pairs
is taken.
Campaigns draw in chunks and hand each chunk a snapshot of the :class:`Coverage` of the chunks drawn before it, so the
same seed and options give the same cases.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import json
import math
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator, Mapping, Optional, Sequence

import hypothesis.strategies as st

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
#: Each program ends with up to this many *focus* op statements (``OpDrawing.focus_statements``): each draws an op by
#: its count of unseen reachable pairs (:meth:`Steering.focus_weights`), applies it to a fresh input whose dtype, rank,
#: size-0 dim, dynamic dim and edge values are drawn for the op's missing pairs (:meth:`Steering.fitting_inputs`), and
#: puts its result among the program's outputs, so that a converter's fault on the pair reaches what is compared.
FOCUS_STATEMENTS = 10
#: How many argument-and-attribute choices a focus op statement draws, taking the one with the most unseen pairs.
FOCUS_CHOICES = 8
#: The focus weight of an op with no unseen pairs left, against 1 for an op with one (so a few ops with unseen pairs
#: are not drowned by hundreds that have none).
FOCUS_DONE = 1 / 256
#: The share of an op's reachable pairs a campaign aims to see (:meth:`Steering.focus_weights`): an op past it is
#: drawn as a focus op by :data:`FOCUS_PAST` of its weight below it, so the ops still short of it get the draws.
FOCUS_AIM = 0.95
#: The share of its focus weight an op keeps once :data:`FOCUS_AIM` of its reachable pairs were seen.
FOCUS_PAST = 1 / 16
#: The unseen pairs counted for an op the reference draw never made and the stream has not drawn yet.
UNKNOWN = 16


def spread(first: int, second: int, n: int) -> int:
    """Two drawn 32-bit values as one of ``n`` choices, about evenly: Hypothesis draws small integers far more
    often than large ones (one draw below ``n`` would favour the first ops of the table several times over),
    so each is scattered by a multiplicative hash (Knuth's) and the two are added (one hashed value would still
    favour the few choices that 1, 2, 3 land on). 0 and 0 give 0, where shrinking goes."""
    return ((first * 2654435761) % 2**32 + (second * 2654435761 * 7) % 2**32) % n


def weighted(draw, choices: tuple, weights) -> object:
    """One of ``choices`` drawn by ``weights`` (positive numbers; None: evenly), from two drawn 32-bit values as
    :func:`spread` scatters them; 0 and 0 give the first choice, where shrinking goes."""
    shares = [max(1, round(w * 1024)) for w in weights] if weights is not None else [1] * len(choices)
    unit = spread(draw(st.integers(0, 2**32 - 1)), draw(st.integers(0, 2**32 - 1)), sum(shares))
    return choices[bisect.bisect_right(list(itertools.accumulate(shares)), unit)]


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
        self.add_statements(statement_features(program))

    def add_statements(self, statements: Iterable[tuple[str, Mapping[str, str]]]) -> None:
        """Add the pairs of op statements ``(op, features)`` (:func:`statement_features`)."""
        for op, feats in statements:
            self.seen.setdefault(op, set()).update(pairs(feats))

    def copy(self) -> "Coverage":
        return Coverage({op: set(got) for op, got in self.seen.items()})

    def steering(self, reach: Optional[Mapping[str, frozenset]] = None) -> "Steering":
        """A frozen snapshot for the generator, against ``reach`` (op -> reachable pairs; none: every pair seen
        counts as reachable)."""
        return Steering({op: frozenset(p) for op, p in self.seen.items()}, reach or {})


class Steering:
    """What the generator steers by: the pairs seen per op before this chunk and the reachable ones; a plain class, not
    a dataclass: Hypothesis describes a strategy by its arguments, and would print every pair."""

    def __init__(self, seen: Mapping[str, frozenset], reach: Mapping[str, frozenset]):
        self.seen, self.reach = seen, reach
        self._cache: dict = {}

    def __repr__(self) -> str:
        return f"Steering({sum(map(len, self.seen.values()))} pairs seen)"

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
        hundreds), times :data:`FOCUS_PAST` for an op that has :data:`FOCUS_AIM` of its reachable pairs seen (the
        draws go to the ops still short of it: the last pairs of an op often need a rare relation of its arguments,
        and many draws), :data:`FOCUS_DONE` for an op with none."""
        return [(math.sqrt(self.unseen(op)) * (FOCUS_PAST if self.unseen_share(op) <= 1 - FOCUS_AIM else 1.0))
                or FOCUS_DONE for op in ops]

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
        rank, a dynamic dim): 1 each, raised by up to :data:`BOOST` for the bins with the most unseen pairs over every
        op."""
        counts = [self._unseen_items[f"{feature}={b}"] for b in bins]
        most = max(counts) or 1
        return [1.0 + BOOST * c / most for c in counts]

    def fitting_inputs(self, op: str, bins: Mapping[str, Sequence[str]], drawn: Iterable[str] = (),
                       possible: Callable[[dict], bool] = lambda feats: True) -> list[tuple[dict, float]]:
        """For a fresh first argument of ``op``: each combination of the argument features' ``bins`` (those the op
        takes at all, and ``possible``), with its score: how many of the op's reachable pairs not seen yet (nor in
        ``drawn``, this program's) it holds, plus a quarter of the unseen pairs of each of its bins with an attribute
        (which the attribute choices of the statement may then meet); none for an op the reference draw never made."""
        reach = self.reach.get(op)
        if not reach:
            return []
        todo = reach - self.seen.get(op, frozenset()) - set(drawn)
        takes = self.items(op)[1]
        with_attr = Counter(item for pair in todo for item, other in itertools.permutations(pair.split("&"))
                            if other.partition("=")[0] not in ARG_FEATURES)
        choices = [[b for b in bins[f] if f"{f}={b}" in takes] or list(bins[f][:1]) for f in ARG_FEATURES]
        out = []
        for combo in itertools.product(*choices):
            feats = dict(zip(ARG_FEATURES, combo))
            if possible(feats):
                out.append((feats, len(pairs(feats) & todo) + sum(with_attr[f"{k}={v}"] for k, v in feats.items()) / 4))
        return out

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


def totals(coverage: Mapping[tuple[str, str], OpCoverage], at_least: float = 0.95,
           stopped: Optional[Mapping[str, Mapping[str, str]]] = None) -> dict[str, dict]:
    """Per path id: the ops drawn, the share of their reachable pairs judged (all together), the ops with at
    least ``at_least`` of theirs, and the op with the lowest share; ``stopped`` (path id -> {op: known bug}) names the
    ops whose programs the path stopped judging when a known bug fired (:mod:`conformance.run.steering`): they are
    counted in the share, and those with less than ``at_least`` listed apart (``"stopped"``, lowest first) instead of
    among the ops drawn."""
    out: dict[str, dict] = {}
    for (op, path), c in sorted(coverage.items()):
        t = out.setdefault(path, {"ops": 0, "reachable": 0, "judged": 0, "full": 0, "lowest": None, "stopped": []})
        t["reachable"] += c.reachable
        t["judged"] += c.judged
        if op in (stopped or {}).get(path, {}) and c.share < at_least:
            t["stopped"].append((op, c))
            continue
        t["ops"] += 1
        t["full"] += c.share >= at_least
        if t["lowest"] is None or c.share < t["lowest"][1].share:
            t["lowest"] = (op, c)
    for t in out.values():
        t["stopped"].sort(key=lambda oc: oc[1].share)
    return out


#: How many of the ops a known bug stopped a summary line names (the lowest shares).
STOPPED_SHOWN = 5


def summary_lines(coverage: Mapping[tuple[str, str], OpCoverage],
                  stopped: Optional[Mapping[str, Mapping[str, str]]] = None) -> list[str]:
    """One line per path of :func:`totals`: ``torch.script: 96% of 4,210 reachable attribute pairs judged; ...``."""
    lines = []
    for path, t in totals(coverage, stopped=stopped).items():
        share = t["judged"] / t["reachable"] if t["reachable"] else 1.0
        line = f"{path}: {share:.0%} of {t['reachable']:,} reachable attribute pairs judged"
        if t["lowest"] is not None:
            op, lowest = t["lowest"]
            line += f"; {t['full']} of {t['ops']} ops drawn have >= 95% of theirs (lowest: {op} {lowest})"
        if t["stopped"]:
            shown = ", ".join(f"{op} {c}" for op, c in t["stopped"][:STOPPED_SHOWN])
            more = len(t["stopped"]) - STOPPED_SHOWN
            line += (f"; {len(t['stopped'])} more op(s) drawn, under 95%, whose programs the path stopped judging "
                     f"when a known bug of theirs fired: {shown}" + (f" and {more} more" if more > 0 else ""))
        lines.append(line)
    return lines
