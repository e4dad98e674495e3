"""Known bugs stop eating a campaign's budget: once a known-bug record has fired ``limit`` times on a task (a path
in a mode), the programs that meet its selector are no longer judged by that task.

A known bug is a :class:`~conformance.paths.records.Limitation` with no outcome of its own (the record names it in
``detail.known_issue``). Its *selector* on a program is what can be told before converting: the ops it names (the
program must use one), the constructs it names (the program must exercise one), its modes, and the facts it needs
that the program itself tells (:data:`PROGRAM_FACTS`: a zero-size input), and where the record says it (its
``steer``), the binned features one of its op statements must have (an unbatched input's rank). A known bug that
names neither ops nor constructs (selected by the framework's message alone) cannot be told from the program, and
is never steered around. A program steered away from a task is still judged by every other task.

The decision is made in case order, from the records of earlier cases alone, never from which records happened to
arrive first: the task skips case ``i`` if the bug fired on it in at least ``limit`` of the cases before ``i`` and
case ``i`` meets its selector. While earlier cases that meet the selector are still running and could decide it,
the case waits (:meth:`Steering.decide` returns None); so the same records in case order give the same decisions,
whatever the number of workers, and ``--resume`` makes the same ones (the campaign also writes each case's
decision to ``plan.jsonl``, :mod:`conformance.run.plan`).
"""

from __future__ import annotations

import functools
from collections import defaultdict
from typing import Optional

from conformance.paths.limitation import steer_item

#: How many times a known bug fires on a task before that task skips the programs that meet its selector.
KNOWN_BUG_LIMIT = 3
#: The facts of a conversion (:attr:`~conformance.paths.limitation.Failure.facts`) a program tells before it is
#: converted: a known bug that needs one is met only by the programs that have it (the other facts are seen only by
#: converting, and do not narrow a selector).
PROGRAM_FACTS = {"zero_size_input": lambda program: any(0 in leaf.shape for leaf in program.input_leaves())}


def told_facts(program) -> frozenset:
    """The :data:`PROGRAM_FACTS` that hold for ``program``."""
    return frozenset(name for name, holds in PROGRAM_FACTS.items() if holds(program))


def steerable(limitation) -> bool:
    """Whether a program can be told to meet ``limitation`` before converting: a known bug (no outcome) that names
    ops or constructs."""
    return limitation.outcome is None and bool(limitation.ops or limitation.constructs)


def meets(limitation, ops, constructs, mode: str, facts=frozenset(), statements=()) -> bool:
    """Whether a program with ``ops``, ``constructs``, the :data:`PROGRAM_FACTS` ``facts`` and the op
    ``statements`` (``(op, {feature: bin})``, :func:`~conformance.program.coverage.statement_features`; read only for
    a record with a ``steer``), judged in ``mode``, meets the selector of ``limitation`` (every one it sets: its modes,
    one of its ops, one of its constructs, each of its facts a program tells, one item of its ``steer``)."""
    if limitation.modes and mode not in limitation.modes:
        return False
    if limitation.ops and not set(limitation.ops) & set(ops):
        return False
    if any(f in PROGRAM_FACTS and f not in facts for f in limitation.facts):
        return False
    if limitation.constructs and not set(limitation.constructs) & set(constructs):
        return False
    return not limitation.steer or any(_holds(item, limitation.ops, statements) for item in limitation.steer)


def selected_ops(limitation) -> frozenset:
    """The ops whose statements the selector of ``limitation`` names: its ops, and those whose statements exercise
    one of its constructs (a view write; a construct no op statement exercises, such as a data-dependent if, selects
    programs, not statements)."""
    by_construct = _ops_by_construct()
    return frozenset(limitation.ops).union(*(by_construct.get(c, ()) for c in limitation.constructs))


@functools.lru_cache(maxsize=1)
def _ops_by_construct() -> dict:
    from conformance.program.effects import op_constructs
    from conformance.program.ops import OPS

    out: dict = defaultdict(set)
    for op in OPS:
        for construct in op_constructs(op):
            out[construct].add(op)
    return dict(out)


def selects(limitation, op: str, features) -> bool:
    """Whether an op statement (``op`` with its binned ``features``) is one the selector of ``limitation`` steers
    by: of one of its :func:`selected_ops`, with one item of its ``steer`` where it has one."""
    return op in selected_ops(limitation) and (not limitation.steer or any(
        _holds(item, (op,), ((op, features),)) for item in limitation.steer))


def _holds(item: str, ops, statements) -> bool:
    """Whether a statement of one of ``ops`` (of the item's op, where it names one) has every ``feature=bin`` of a
    ``steer`` item."""
    op, want = steer_item(item)
    return any((name == op if op else name in ops) and all(feats.get(k) == v for k, v in want.items())
               for name, feats in statements)


class Selected:
    """What a selector reads of a program: its ops, its constructs, its :data:`PROGRAM_FACTS`, and (computed when a
    record's ``steer`` first asks) its op statements' binned features."""

    def __init__(self, program):
        self.program = program
        self.ops, self.constructs, self.facts = set(program.ops()), set(program.constructs()), told_facts(program)
        self._statements: Optional[tuple] = None

    @property
    def statements(self) -> tuple:
        if self._statements is None:
            from conformance.program.coverage import statement_features

            self._statements = tuple(statement_features(self.program))
        return self._statements

    def meets(self, limitation, mode: str) -> bool:
        """:func:`meets` for this program."""
        return meets(limitation, self.ops, self.constructs, mode, self.facts,
                     self.statements if limitation.steer else ())


class Steering:
    """The known-bug decisions of one campaign. ``paths``: the campaign's path records (their known bugs are those
    of :attr:`~conformance.paths.records.PathRecord.records`); ``limit``: :data:`KNOWN_BUG_LIMIT` (0: never
    steer)."""

    def __init__(self, paths: list, limit: int = KNOWN_BUG_LIMIT):
        self.limit = limit
        #: path id -> {the text a record names the bug by: the limitation}
        self.bugs = {p.id: {lim.text: lim for lim in p.records if steerable(lim)} for p in paths}
        self.fires: dict = defaultdict(list)  # (task key, bug text) -> indices of the cases it fired on
        self.pending: dict = {}  # index -> (Selected, {task keys sent and not recorded yet})

    def observe(self, index: int, record) -> None:
        """A record of the campaign arrived (``index``: its case's position; replays, negative, are left out)."""
        from conformance.run.runner import task_key

        if index is None or index < 0:
            return
        key = task_key(record.path_id, record.mode)
        if index in self.pending:
            self.pending[index][1].discard(key)
            if not self.pending[index][1]:
                del self.pending[index]
        text = record.detail.known_issue
        if text and text in self.bugs.get(record.path_id, {}) and index not in self.fires[(key, text)]:
            self.fires[(key, text)].append(index)

    def sent(self, index: int, case, keys: list) -> None:
        """The tasks ``keys`` of case ``index`` go to a worker: until their records arrive, they may still fire."""
        if index >= 0 and keys:
            self.pending[index] = (Selected(case.program), set(keys))

    def decide(self, index: int, case, keys: list) -> Optional[dict]:
        """``{task key: bug text}`` of the tasks among ``keys`` that skip case ``index`` (empty: none), or None while
        cases before it still running could change that."""
        if self.limit <= 0 or index < 0:
            return {}
        program = Selected(case.program)
        out: dict = {}
        for key in keys:
            pid, _, mode = key.partition("@")
            for text, lim in self.bugs.get(pid, {}).items():
                if not program.meets(lim, mode):
                    continue
                fired = sum(1 for i in self.fires.get((key, text), ()) if i < index)
                if fired >= self.limit:
                    out[key] = text
                    break
                open_ = sum(1 for i, (other, left) in self.pending.items()
                            if i < index and key in left and other.meets(lim, mode))
                if fired + open_ >= self.limit:
                    return None
        return out
