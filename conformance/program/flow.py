"""Positions in a program's nested body and what flows through them: cuts, liveness, eager's path.

A **cut** is a position in the nested body: "after the first ``index`` statements of ``block``", where a
block is the top-level body or the body of an ``if`` branch or a loop, named by its block path
(``(3, "then", 1, "body")``: the body of the loop that is statement 1 of the then-branch of statement 3);
a statement's **location** is its block path and its index. :func:`follow` replays eager's control-flow
decisions (the probes of the rendered model, in execution order) over a program: the cuts it reaches, in
the order it first reaches them. :mod:`conformance.program.truncate` builds the program cut at one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Optional

from conformance.program.ir import (
    Break,
    Continue,
    For,
    Get,
    Grow,
    If,
    OpStmt,
    PyCond,
    PyStmt,
    Return,
    ShapeCond,
    TensorCond,
    While,
    out_leaves,
)
from conformance.program.ops import OPS
from conformance.program.program import Program
from conformance.program.pyops import PYOPS
from conformance.program.typecheck import TypeChecker, loop_var_type

#: The blocks of each compound statement, in the order they are rendered.
BLOCKS = {If: ("then", "orelse"), While: ("body",), For: ("body",)}

Location = tuple  # (index, field, index, field, ..., index): a statement
BlockPath = tuple  # (index, field, ..., index, field): a block; () is the top-level body


@dataclass(frozen=True, order=True)
class Cut:
    """After the first ``index`` statements of the block at ``block`` (see the module docstring). A cut
    inside a loop body stands for the first time execution gets there."""

    block: BlockPath
    index: int

    @property
    def statement(self) -> Optional[Location]:
        """The statement just before the cut (None at the start of a block)."""
        return self.block + (self.index - 1,) if self.index else None

    @property
    def entered(self) -> Optional[Location]:
        """At the start of a nested block: the compound statement whose block is entered."""
        return self.block[:-1] if self.block and not self.index else None

    def to_dict(self) -> dict:
        return {"block": list(self.block), "index": self.index}

    @classmethod
    def from_dict(cls, d: dict) -> "Cut":
        return cls(tuple(d["block"]), int(d["index"]))


# ------------------------------------------------------------------ navigating the nested body


def locations(stmts, prefix: tuple = ()) -> Iterator[tuple[Location, object]]:
    """``(location, statement)`` depth first."""
    for i, s in enumerate(stmts):
        yield prefix + (i,), s
        for name in BLOCKS.get(type(s), ()):
            yield from locations(getattr(s, name), prefix + (i, name))


def block_at(body: tuple, path: BlockPath) -> tuple:
    for i in range(0, len(path), 2):
        body = getattr(body[path[i]], path[i + 1])
    return body


def statement_at(body: tuple, loc: Location):
    return block_at(body, loc[:-1])[loc[-1]]


def reads(stmts, path: BlockPath = (), start: int = 0, executed: Optional[set] = None) -> set[str]:
    """The variables statements read anywhere inside them (``stmts`` from index ``start``, the block at ``path``);
    with ``executed`` (locations), only in the statements that run."""
    found: set[str] = set()
    for n, s in enumerate(stmts[start:], start):
        if executed is not None and path + (n,) not in executed:
            continue
        if isinstance(s, (OpStmt, PyStmt)):
            found.update(s.args)
        elif isinstance(s, For) and isinstance(s.count, str):
            found.add(s.count)
        elif isinstance(s, Grow):
            found.update((s.init, s.piece))
        elif isinstance(s, Return):
            found.update(out_leaves(s.value))
        if isinstance(s, (If, While)) and isinstance(s.cond, (TensorCond, ShapeCond, PyCond)):
            found.add(s.cond.var)
        for name in BLOCKS.get(type(s), ()):
            found |= reads(getattr(s, name), path + (n, name), 0, executed)
    return found


def executed(reached: list) -> set:
    """The locations of the statements that run, given the cuts reached (:func:`follow`): a statement runs
    when the cut before it is reached."""
    return {cut.block + (cut.index,) for cut in reached}


def live_after(program: Program, cut: Cut, ran: Optional[set] = None) -> set[str]:
    """Variables the program may read after the cut: in the rest of each enclosing block, the whole body and
    condition of each enclosing loop (a next iteration), the outputs. With ``ran`` (:func:`executed`), only
    what the statements that run read (the outputs, where the end is reached): what eager's path reads."""
    found = set(out_leaves(program.output)) if ran is None or (len(program.body),) in ran else set()
    path, index = cut.block, cut.index
    while True:
        found |= reads(block_at(program.body, path), path, index, ran)
        if not path:
            return found
        compound = statement_at(program.body, path[:-1])
        if isinstance(compound, (While, For)):
            found |= reads(compound.body, path, 0, ran)
            if isinstance(compound, While):
                found.add(compound.cond.var)
        path, index = path[:-2], path[-2] + 1


def scope_at(program: Program, cut: Cut) -> dict:
    """The variables assigned and visible at the cut, with their types, in the order first assigned."""
    checker = TypeChecker(program)
    env: dict = {}
    loops: tuple = ()
    stmts, path = program.body, cut.block
    while True:
        stop = path[0] if path else cut.index
        for s in stmts[:stop]:
            checker.stmt(s, env, loops, "truncate")
        if not path:
            return env
        compound, name = stmts[path[0]], path[1]
        if isinstance(compound, (If, While)):
            checker.cond(compound.cond, env, loops, "truncate")
        env = dict(env)
        if isinstance(compound, While):
            loops += ("while",)
        elif isinstance(compound, For):
            loops += (compound.var,)
            env[compound.var] = loop_var_type(compound, env)  # the index (a Python int) or a row
        stmts, path = getattr(compound, name), path[2:]


def input_only(program: Program) -> set[str]:
    """Variables every assignment of which reads an input unchanged (``Get``)."""
    kinds: dict[str, set] = {}
    for s in program.walk():
        if isinstance(s, (Get, OpStmt, Grow, PyStmt)):
            kinds.setdefault(s.out, set()).add(type(s))
    return {v for v, k in kinds.items() if k == {Get}}


# ------------------------------------------------------------------ eager's control flow


class FollowError(ValueError):
    """The recorded decisions do not fit the program (another program's probes, or a renderer that numbers
    its probes otherwise)."""


class _Leave(Exception):
    def __init__(self, kind: str):
        self.kind = kind


def probe_locations(program: Program) -> dict:
    """The probe id of the condition of each ``if``, ``while``, conditional grow loop and ``for`` over a trip count
    computed in ``forward``, by location, as the probed rendering numbers them (depth first; ops with a threshold
    probe take ids too)."""
    ids: dict = {}
    counter = 0
    for loc, s in locations(program.body):
        if isinstance(s, (If, While)) or (isinstance(s, Grow) and s.cond is not None) or counted(program, s) or \
                (isinstance(s, OpStmt) and s.op in OPS and OPS[s.op].probe) or \
                (isinstance(s, PyStmt) and PYOPS[s.op].probe):
            if not isinstance(s, (OpStmt, PyStmt)):
                ids[loc] = counter
            counter += 1
    return ids


def counted(program: Program, s) -> bool:
    """Whether ``s`` is a ``for`` over ``range(n)`` of a variable ``n`` or over a tensor's rows (a trip count
    computed in ``forward``)."""
    return isinstance(s, For) and isinstance(s.count, str) and s.count not in {k.name for k in program.kwargs}


def follow(program: Program, decisions, kwargs: dict) -> list[Cut]:
    """The cuts eager reaches, in the order it first reaches them, given its decisions: ``(probe id, bool)``
    in execution order (``Stability.decisions``) and the kwargs of the run. Raises :class:`FollowError`."""
    ids = probe_locations(program)
    queue = list(decisions)
    seen: dict[Cut, None] = {}

    def take(loc) -> bool:
        if not queue or queue[0][0] != ids[loc]:
            raise FollowError(f"expected a decision of probe {ids[loc]} at {loc}, the record has {queue[:1]}")
        return bool(queue.pop(0)[1])

    def count(c) -> int:
        return c if isinstance(c, int) else int(kwargs[c])

    def block(stmts, path) -> None:
        for n, s in enumerate(stmts):
            seen.setdefault(Cut(path, n))
            stmt(s, path + (n,))
        seen.setdefault(Cut(path, len(stmts)))

    def loop(body, loc, more) -> None:
        while more():
            try:
                block(body, loc + ("body",))
            except _Leave as e:
                if e.kind == "break":
                    return
                if e.kind == "return":
                    raise

    def stmt(s, loc) -> None:
        if isinstance(s, If):
            taken = take(loc)
            block(s.then if taken else s.orelse, loc + ("then" if taken else "orelse",))
        elif isinstance(s, While):
            n = [0]

            def more() -> bool:
                if n[0] >= s.max_iter or not take(loc):
                    return False
                n[0] += 1
                return True
            loop(s.body, loc, more)
        elif isinstance(s, For) and counted(program, s):
            loop(s.body, loc, lambda: take(loc))
        elif isinstance(s, For):
            left = [count(s.count)]

            def more() -> bool:
                left[0] -= 1
                return left[0] >= 0
            loop(s.body, loc, more)
        elif isinstance(s, Grow) and s.cond is not None:
            n = 0
            while n < count(s.count) and take(loc):
                n += 1
        elif isinstance(s, (Break, Continue, Return)):
            raise _Leave(type(s).__name__.lower())

    try:
        block(program.body, ())
    except _Leave as e:
        if e.kind != "return":
            raise FollowError(f"a {e.kind} outside a loop") from None
    if queue:
        raise FollowError(f"{len(queue)} decisions left over: {queue[:3]}")
    return list(seen)


def cuts(program: Program) -> list[Cut]:
    """Every cut of the program, depth first (reached or not)."""
    out = []

    def block(stmts, path):
        for n, s in enumerate(stmts):
            out.append(Cut(path, n))
            for name in BLOCKS.get(type(s), ()):
                block(getattr(s, name), path + (n, name))
        out.append(Cut(path, len(stmts)))
    block(program.body, ())
    return out


# ------------------------------------------------------------------ in words


def describe(program: Program, cut: Cut) -> str:
    """``after body[2].then[0] (op relu -> v3)``, ``entering the then-branch of body[2]``: a cut in words."""
    def where(loc) -> str:
        text = "body"
        for i in range(0, len(loc) - 1, 2):
            text += f"[{loc[i]}].{loc[i + 1]}"
        return text + f"[{loc[-1]}]"

    if cut.entered is not None:
        s = statement_at(program.body, cut.entered)
        what = {"then": "the then-branch", "orelse": "the else-branch", "body": "the body"}[cut.block[-1]]
        return f"entering {what} of {type(s).__name__.lower()} {where(cut.entered)}"
    if cut.statement is None:
        return "at the start"
    return f"after {where(cut.statement)} ({statement_text(statement_at(program.body, cut.statement))})"


def statement_text(s) -> str:
    """A statement in one short line of IR: ``v3 = relu(v2)``, ``if v1.sum() > 0.5``."""
    if isinstance(s, OpStmt):
        attrs = "".join(f", {k}={v!r}" for k, v in s.attrs)
        params = "".join(f", {p}" for p in s.params)
        return f"{s.out} = {s.op}({', '.join(s.args)}{params}{attrs})"
    if isinstance(s, PyStmt):
        return f"{s.out} = {s.op}({', '.join(s.args)}{''.join(f', {k}={v!r}' for k, v in s.attrs)})"
    if isinstance(s, Get):
        return f"{s.out} = {s.source}" + "".join(f"[{p!r}]" for p in s.path)
    if isinstance(s, If):
        return f"if {_cond_text(s.cond)}"
    if isinstance(s, While):
        return f"while {s.counter} < {s.max_iter} and {_cond_text(s.cond)}"
    if isinstance(s, For):
        return f"for {s.var} in {s.count}" if s.rows else f"for {s.var} in range({s.count})"
    if isinstance(s, Grow):
        loop = f"range({s.count})" if s.cond is None else f"{s.count} while {_cond_text(s.cond)}"
        return f"{s.out} = grow({s.init}, {s.piece}, dim={s.dim}, {s.reduce}) over {loop}"
    if isinstance(s, Return):
        return "return " + ", ".join(out_leaves(s.value))
    return type(s).__name__.lower()


def _cond_text(c) -> str:
    if isinstance(c, TensorCond):
        return f"{c.var}.{c.reduce}() {c.cmp} {c.value!r}"
    if isinstance(c, ShapeCond):
        return f"{c.var}.shape[{c.dim}] {c.cmp} {c.value!r}"
    if isinstance(c, PyCond) and c.cmp in ("truth", "not", "none", "some"):
        return {"truth": c.var, "not": f"not {c.var}", "none": f"{c.var} is None",
                "some": f"{c.var} is not None"}[c.cmp]
    text = {"truth": c.name, "not": f"not {c.name}"}.get(c.cmp) if hasattr(c, "name") else None
    return text or f"{getattr(c, 'name', getattr(c, 'var', '?'))} {c.cmp} {c.value!r}"


