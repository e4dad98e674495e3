"""Minimise a failing case while it keeps its failure.

:func:`reduce_case` is a greedy reducer over the IR: it proposes smaller variants of a case — fewer
input sets, simpler outputs, statements dropped (or dropped with their result renamed to their
argument), ``if``/``while``/``for`` unwrapped into their bodies or given fewer iterations, ops replaced by
simpler ones (``SIMPLE_OPS``), inputs and
keyword arguments dropped, nested inputs flattened, smaller shapes and batches — keeps each variant
that type-checks (:func:`~conformance.program.typecheck.check_program`) and still fails the same way (a
``keep(record)`` predicate, e.g. "same signature"), and repeats until no proposal is kept (the case
is then minimal for these moves) or its time is up. Weights that an op needs are re-fitted to the
new shapes.

Candidates are run by an :class:`~conformance.triage.evaluator.Evaluator` (a worker process, so a path
that crashes or hangs costs a restart of the worker, not the triage). Cases found under pytest are shrunk
by Hypothesis itself; this is for campaign findings (``conformance triage``).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace
from typing import Callable, Iterator, Optional

from conformance.program.case import Case
from conformance.program.ir import (
    DYNAMIC,
    DictSpec,
    For,
    Get,
    If,
    Input,
    OpStmt,
    Out,
    OutDict,
    OutSeq,
    OutVar,
    ProgramError,
    PyCond,
    PyStmt,
    Return,
    SeqSpec,
    ShapeCond,
    TensorCond,
    TensorSpec,
    While,
    out_leaves,
)
from conformance.program.program import Program
from conformance.run.records import ResultRecord

# ------------------------------------------------------------------ the reducer


@dataclass
class Reduction:
    """What :func:`reduce_case` found: the smallest case that still fails the same way."""

    case: Case
    record: Optional[ResultRecord]  # the smallest case's record (the original finding's if nothing was kept)
    size_before: int  # statements
    size: int
    tried: int  # candidates run
    kept: int  # candidates that kept the failure
    seconds: float
    complete: bool  # True: no proposal is kept any more; False: the time ran out first

    def to_dict(self) -> dict:
        return {"size_before": self.size_before, "size": self.size, "tried": self.tried, "kept": self.kept,
                "seconds": round(self.seconds, 2), "complete": self.complete}


def cost(case: Case) -> tuple:
    """How big a case is; a candidate is tried only if it is smaller (lexicographically)."""
    program = case.program
    leaves = program.input_leaves()
    batch = case.inputs[0].batch
    nesting = sum(1 for inp in program.inputs for _ in _containers(inp.spec))
    loops = sum(s.max_iter if isinstance(s, While) else (s.count if isinstance(s.count, int) else 16)
                for s in program.walk() if isinstance(s, (While, For)))
    return (program.size(), len(leaves), len(program.kwargs), len(case.inputs),
            sum(1 for _ in out_leaves(program.output)), nesting,
            sum(1 for leaf in leaves if DYNAMIC in leaf.shape), loops, sum(map(_op_rank, program.ops())),
            sum(math.prod(leaf.type.concrete(batch)) for leaf in leaves),
            sum(math.prod(q.shape) for q in program.params), sum(input_set.batch for input_set in case.inputs))


def _containers(spec) -> Iterator:
    if isinstance(spec, SeqSpec):
        yield spec
        for item in spec.items:
            yield from _containers(item)
    elif isinstance(spec, DictSpec):
        yield spec
        for _, item in spec.items:
            yield from _containers(item)


def reduce_case(case: Case, keep: Callable[[ResultRecord], bool], run: Callable[[Case], ResultRecord], *,
                record: Optional[ResultRecord] = None, max_seconds: float = 120.0,
                progress: Callable[[str], None] = lambda line: None) -> Reduction:
    """Shrink ``case`` while ``keep(run(candidate))`` holds; stop at a fixpoint or after ``max_seconds``.

    ``run`` returns a candidate's record (e.g. ``lambda c: evaluator(c, "torch.script")``); ``record``
    is the original case's record, returned if nothing smaller keeps the failure.
    """
    t0 = time.monotonic()
    best, best_cost, best_record = case, cost(case), record
    seen = {case.id}
    tried = kept = 0
    out_of_time = lambda: time.monotonic() - t0 > max_seconds  # noqa: E731
    changed = True
    while changed and not out_of_time():
        changed = False
        for move in _MOVES:
            proposal_index = 0
            while not out_of_time():
                proposals = list(move(best))
                if proposal_index >= len(proposals):
                    break
                candidate = _valid(proposals[proposal_index])
                if candidate is None or candidate.id in seen or cost(candidate) >= best_cost:
                    proposal_index += 1
                    continue
                seen.add(candidate.id)
                tried += 1
                candidate_record = run(candidate)
                if keep(candidate_record):
                    best, best_cost, best_record = candidate, cost(candidate), candidate_record
                    kept += 1
                    changed = True
                    progress(f"{time.monotonic() - t0:6.1f} s  {move.__doc__.split(':')[0]:<20} "
                             f"-> {best.program.size()} statements, {len(best.program.input_leaves())} input "
                             f"tensors, {len(best.inputs)} input sets ({tried} tried)")
                else:  # the same index now names the next proposal
                    proposal_index += 1
    return Reduction(best, best_record, case.program.size(), best.program.size(), tried, kept,
                     time.monotonic() - t0, complete=not changed)


def _valid(case: Case) -> Optional[Case]:
    """The candidate with unused weights dropped and weights re-fitted, if it type-checks; else None."""
    try:
        program = _refit(_drop_unused_params(case.program))
        return Case.from_dict({"program": program.to_dict(), "inputs": [s.to_dict() for s in case.inputs]})
    except ProgramError:
        return None


def _drop_unused_params(p: Program) -> Program:
    used = {q for s in p.walk() if isinstance(s, OpStmt) for q in s.params}
    return replace(p, params=tuple(q for q in p.params if q.name in used))


def _refit(p: Program) -> Program:
    """Give each weight the shape its op needs now (after inputs shrank); unchanged if it cannot."""
    from conformance.program.ops import check_op
    from conformance.program.typecheck import TypeChecker

    class Refit(TypeChecker):
        def stmt(self, s, env, loops, where):
            if isinstance(s, OpStmt) and s.params and all(a in env for a in s.args):
                try:
                    want = check_op(s.op).params([env[a] for a in s.args], s.attr)
                except (ProgramError, KeyError):
                    want = []
                if len(want) == len(s.params):
                    for q, (shape, _) in zip(s.params, want):
                        if q in self.params:
                            self.params[q] = replace(self.params[q], shape=tuple(shape))
            super().stmt(s, env, loops, where)

    checker = Refit(p)
    try:
        checker.run()
    except ProgramError:
        return p
    return replace(p, params=tuple(checker.params[q.name] for q in p.params))


# ------------------------------------------------------------------ moves (each yields candidate cases)

_BLOCKS = {If: ("then", "orelse"), While: ("body",), For: ("body",)}


def _locations(stmts, prefix=()) -> Iterator[tuple[tuple, object]]:
    """(location, statement) depth first; a location is (index, field, index, field, ..., index)."""
    for i, s in enumerate(stmts):
        yield prefix + (i,), s
        for name in _BLOCKS.get(type(s), ()):
            yield from _locations(getattr(s, name), prefix + (i, name))


def _edit(stmts: tuple, loc: tuple, fn: Callable[[object], tuple]) -> tuple:
    """``stmts`` with the statement at ``loc`` replaced by the statements ``fn(statement)``."""
    i = loc[0]
    if len(loc) == 1:
        return stmts[:i] + tuple(fn(stmts[i])) + stmts[i + 1:]
    s = stmts[i]
    return stmts[:i] + (replace(s, **{loc[1]: _edit(getattr(s, loc[1]), loc[2:], fn)}),) + stmts[i + 1:]


def _with_program(case: Case, program: Program) -> Case:
    return Case(program, case.inputs)


def _with_body(case: Case, body: tuple) -> Case:
    return _with_program(case, replace(case.program, body=body))


def _rename_out(o: Out, old: str, new: str) -> Out:
    if isinstance(o, OutVar):
        return OutVar(new) if o.name == old else o
    if isinstance(o, OutSeq):
        return OutSeq(o.kind, tuple(_rename_out(i, old, new) for i in o.items))
    return OutDict(tuple((k, _rename_out(v, old, new)) for k, v in o.items))


def _rename(s, old: str, new: str):
    """A statement with every use and assignment of variable ``old`` renamed to ``new``."""
    r = lambda name: new if name == old else name  # noqa: E731
    if isinstance(s, Get):
        return replace(s, out=r(s.out))
    if isinstance(s, (OpStmt, PyStmt)):
        return replace(s, out=r(s.out), args=tuple(map(r, s.args)))
    if isinstance(s, Return):
        return Return(_rename_out(s.value, old, new))
    if isinstance(s, (If, While)):
        cond = replace(s.cond, var=r(s.cond.var)) if isinstance(s.cond, (TensorCond, ShapeCond, PyCond)) else s.cond
        s = replace(s, cond=cond)
    if isinstance(s, For) and isinstance(s.count, str):  # range(n) of a variable
        s = replace(s, count=r(s.count))
    if isinstance(s, (If, While, For)):
        return replace(s, **{name: tuple(_rename(x, old, new) for x in getattr(s, name)) for name in _BLOCKS[type(s)]})
    return s


def move_input_sets(case: Case) -> Iterator[Case]:
    """fewer input sets: the example alone, then without each other set."""
    if len(case.inputs) > 1:
        yield Case(case.program, case.inputs[:1])
        for i in range(1, len(case.inputs)):
            yield Case(case.program, case.inputs[:i] + case.inputs[i + 1:])


def _out_positions(o: Out, prefix=()) -> Iterator[tuple]:
    """Positions of the leaves and containers below the top of an output tree."""
    items = o.items if isinstance(o, OutSeq) else [v for _, v in o.items] if isinstance(o, OutDict) else []
    for i, item in enumerate(items):
        yield prefix + (i,)
        yield from _out_positions(item, prefix + (i,))


def _output_part(o: Out, pos: tuple) -> Out:
    for i in pos:
        o = o.items[i] if isinstance(o, OutSeq) else o.items[i][1]
    return o


def _out_without(o: Out, pos: tuple) -> Out:
    i = pos[0]
    if isinstance(o, OutSeq):
        items = list(o.items)
        items[i:i + 1] = [] if len(pos) == 1 else [_out_without(items[i], pos[1:])]
        return OutSeq(o.kind, tuple(items))
    items = list(o.items)
    items[i:i + 1] = [] if len(pos) == 1 else [(items[i][0], _out_without(items[i][1], pos[1:]))]
    return OutDict(tuple(items))


def _map_outputs(case: Case, fn: Callable[[Out], Out]) -> Case:
    """Apply the same change to the final output and to every early return (they share a structure)."""
    body = case.program.body
    for loc, s in list(_locations(body)):
        if isinstance(s, Return):
            body = _edit(body, loc, lambda r: (Return(fn(r.value)),))
    return _with_program(case, replace(case.program, body=body, output=fn(case.program.output)))


def move_outputs(case: Case) -> Iterator[Case]:
    """simpler outputs: one part of the output instead of all, or one part fewer."""
    positions = list(_out_positions(case.program.output))
    for pos in positions:
        yield _map_outputs(case, lambda o, pos=pos: _output_part(o, pos))
    for pos in positions:
        yield _map_outputs(case, lambda o, pos=pos: _out_without(o, pos))


def move_statements(case: Case) -> Iterator[Case]:
    """drop statements: runs of top-level statements, then each statement (with its block), then a
    statement whose result is renamed to its argument."""
    body = case.program.body
    n = len(body)
    size = n // 2
    while size >= 2:
        for start in range(0, n - size + 1, size):
            yield _with_body(case, body[:start] + body[start + size:])
        size //= 2
    locations = list(_locations(body))
    for loc, _ in locations:
        yield _with_body(case, _edit(body, loc, lambda s: ()))
    for loc, s in locations:
        if isinstance(s, (OpStmt, PyStmt)):  # (a Python value renamed to another of its type: the checker decides)
            for arg in dict.fromkeys(s.args):
                if arg != s.out:
                    dropped = _edit(body, loc, lambda s: ())
                    program = replace(case.program, body=tuple(_rename(x, s.out, arg) for x in dropped),
                                      output=_rename_out(case.program.output, s.out, arg))
                    yield _with_program(case, program)


def move_control_flow(case: Case) -> Iterator[Case]:
    """unwrap control flow: a block in place of its if/while/for, or fewer iterations."""
    body = case.program.body
    for loc, s in _locations(body):
        if isinstance(s, If):
            yield _with_body(case, _edit(body, loc, lambda s: s.then))
            if s.orelse:
                yield _with_body(case, _edit(body, loc, lambda s: s.orelse))
                yield _with_body(case, _edit(body, loc, lambda s: (replace(s, orelse=()),)))
        elif isinstance(s, (While, For)):
            yield _with_body(case, _edit(body, loc, lambda s: s.body))
            bound = s.max_iter if isinstance(s, While) else s.count
            if isinstance(bound, str):  # range(kwarg): the example's value as a constant (range(n) of a variable: kept)
                defaults = {k.name: k.default for k in case.program.kwargs}
                if bound in defaults:
                    value = dict(case.example.kwargs).get(bound, defaults[bound])
                    yield _with_body(case, _edit(body, loc, lambda s: (replace(s, count=value),)))
                continue
            for smaller in sorted({0, 1, bound // 2, bound - 1}):
                if 0 <= smaller < bound:
                    field = "max_iter" if isinstance(s, While) else "count"
                    yield _with_body(case, _edit(body, loc, lambda s: (replace(s, **{field: smaller}),)))


#: What an op may be simplified to, simplest first (with these attributes, the same arguments).
SIMPLE_OPS = (("neg", ()), ("add_scalar", (("c", 1.0),)), ("relu", ()), ("abs", ()), ("add", ()), ("mul", ()))


def _op_rank(op: str) -> int:
    return next((i for i, (name, _) in enumerate(SIMPLE_OPS) if name == op), len(SIMPLE_OPS))


def move_ops(case: Case) -> Iterator[Case]:
    """simpler ops: an op replaced by a simpler one on the same arguments (so that failures that
    need "some op in the loop" end up with the same one)."""
    from conformance.program.ops import OPS

    body = case.program.body
    for loc, s in _locations(body):
        if isinstance(s, OpStmt):
            for name, attrs in SIMPLE_OPS[:_op_rank(s.op)]:
                if OPS[name].arity == len(s.args):
                    yield _with_body(case, _edit(body, loc, lambda s, name=name, attrs=attrs:
                                                 (OpStmt(s.out, name, s.args, attrs),)))


def _uses_input(p: Program, name: str) -> bool:
    return any(isinstance(s, Get) and s.source == name for s in p.walk())


def _replace_input(case: Case, index: int, inp: Optional[Input], path_fn=None) -> Case:
    """Replace (or with None drop) input ``index``; ``path_fn`` rewrites the paths of its Gets
    (returning None drops that Get)."""
    p = case.program
    inputs = p.inputs[:index] + ((inp,) if inp is not None else ()) + p.inputs[index + 1:]
    body = p.body
    name = p.inputs[index].name
    if path_fn is not None:
        for loc, s in reversed(list(_locations(body))):
            if isinstance(s, Get) and s.source == name:
                new = path_fn(s.path)
                body = _edit(body, loc, lambda s, new=new: () if new is None else (replace(s, path=new),))
    return _with_program(case, replace(p, inputs=inputs, body=body))


def _nodes(spec, pos=()) -> Iterator[tuple[tuple, object]]:
    """(position, container) for every list/tuple/dict in an input's spec tree."""
    if isinstance(spec, (SeqSpec, DictSpec)):
        yield pos, spec
        for key, item in _items(spec):
            yield from _nodes(item, pos + (key,))


def _items(spec) -> list[tuple]:
    return list(enumerate(spec.items)) if isinstance(spec, SeqSpec) else list(spec.items)


def _with_node(spec, pos: tuple, fn):
    """``spec`` with the node at ``pos`` replaced by ``fn(node)``."""
    if not pos:
        return fn(spec)
    items = [(k, _with_node(v, pos[1:], fn) if k == pos[0] else v) for k, v in _items(spec)]
    return SeqSpec(spec.kind, tuple(v for _, v in items)) if isinstance(spec, SeqSpec) else DictSpec(tuple(items))


def move_inputs(case: Case) -> Iterator[Case]:
    """fewer inputs: drop an unused input, an item of a list/tuple/dict (at any depth), or a
    container around a single item."""
    program = case.program
    for index, inp in enumerate(program.inputs):
        if not _uses_input(program, inp.name):
            yield _replace_input(case, index, None)
    for index, inp in enumerate(program.inputs):
        for pos, node in list(_nodes(inp.spec)):
            depth = len(pos)
            if len(node.items) == 1:  # the container goes, its item stays
                yield _replace_input(case, index, Input(inp.name, _with_node(inp.spec, pos, lambda c: _items(c)[0][1])),
                                     lambda path, pos=pos, depth=depth:
                                     path[:depth] + path[depth + 1:] if path[:depth] == pos else path)
                continue
            for key, _ in _items(node):
                def drop(container, key=key):
                    if isinstance(container, SeqSpec):
                        return SeqSpec(container.kind, container.items[:key] + container.items[key + 1:])
                    return DictSpec(tuple((k, v) for k, v in container.items if k != key))

                def path_fn(path, pos=pos, depth=depth, key=key):
                    if path[:depth] != pos or len(path) <= depth:
                        return path
                    if path[depth] == key:
                        return None  # a Get of the dropped item goes too
                    if isinstance(key, int) and path[depth] > key:
                        return path[:depth] + (path[depth] - 1,) + path[depth + 1:]
                    return path
                yield _replace_input(case, index, Input(inp.name, _with_node(inp.spec, pos, drop)), path_fn)


def _drop_kwarg(case: Case, name: str) -> Case:
    p = case.program
    inputs = tuple(replace(s, kwargs=tuple((k, v) for k, v in s.kwargs if k != name)) for s in case.inputs)
    return Case(replace(p, kwargs=tuple(k for k in p.kwargs if k.name != name)), inputs)


def move_kwargs(case: Case) -> Iterator[Case]:
    """fewer keyword arguments: drop one (where nothing uses it any more)."""
    for k in case.program.kwargs:
        yield _drop_kwarg(case, k.name)


def _shrunk_dims(d: int) -> list[int]:
    return sorted({1, d // 2, d - 1} - {0, d})


def move_shapes(case: Case) -> Iterator[Case]:
    """smaller tensors: the dynamic dim made static, smaller dims, smaller batches."""
    program = case.program
    batch = case.example.batch

    def map_leaves(spec, fn):
        if isinstance(spec, TensorSpec):
            return fn(spec)
        if isinstance(spec, SeqSpec):
            return SeqSpec(spec.kind, tuple(map_leaves(i, fn) for i in spec.items))
        return DictSpec(tuple((k, map_leaves(v, fn)) for k, v in spec.items))

    def with_leaves(fn):
        inputs = tuple(Input(inp.name, map_leaves(inp.spec, fn)) for inp in program.inputs)
        return _with_program(case, replace(program, inputs=inputs))

    if any(DYNAMIC in leaf.shape for leaf in program.input_leaves()):
        yield with_leaves(lambda t: replace(t, shape=tuple(batch if d == DYNAMIC else d for d in t.shape)))
    n_leaves = len(program.input_leaves())
    for leaf_index in range(n_leaves):
        leaf = program.input_leaves()[leaf_index]
        for axis, dim in enumerate(leaf.shape):
            if dim == DYNAMIC:
                continue
            for smaller in _shrunk_dims(dim):
                counter = iter(range(n_leaves))

                def shrink(tensor, leaf_index=leaf_index, axis=axis, smaller=smaller, counter=counter):
                    if next(counter) != leaf_index:
                        return tensor
                    return replace(tensor, shape=tensor.shape[:axis] + (smaller,) + tensor.shape[axis + 1:])
                yield with_leaves(shrink)
    for position, input_set in enumerate(case.inputs):
        for smaller in _shrunk_dims(input_set.batch):
            yield Case(program, case.inputs[:position] + (replace(input_set, batch=smaller),)
                       + case.inputs[position + 1:])


#: The moves, tried in this order in every round (the biggest cuts first).
_MOVES = (move_input_sets, move_outputs, move_statements, move_control_flow, move_ops, move_inputs, move_kwargs,
          move_shapes)

