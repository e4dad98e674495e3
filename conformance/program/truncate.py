"""Truncated programs: a program cut at one position, returning what is live there.

First-divergence localisation (:mod:`conformance.triage.localize`) converts and runs programs cut at a
:class:`~conformance.program.flow.Cut` (a position in the nested body). :func:`truncate` builds the
program that returns, as one tuple:

* every variable **live** at the cut (read later by the original program: a value nothing reads cannot be
  what makes a finding, and a converter may leave it out); a variable that holds an input unchanged is
  returned through ``neg`` (or ``to_float`` for ints and bools), since exporters mishandle an input
  returned as an output;
* a **marker** per ``if`` (how often its then-branch ran) and per loop (how many iterations ran in all),
  so the branch decisions and loop counts taken so far are outputs a converted model computes too;
* ``reached``: 1 where the cut is reached.

At the top level, the program simply stops at the cut. Inside a block, nothing is added to the control
flow (converters refuse an early ``return`` in a loop or under a tensor condition): the enclosing top-level
statement runs whole, and at the cut every live value (but one whose size the data decides inside the block:
no other statement can make a tensor of its type), marker and ``reached`` is **captured** the first
time execution gets there, ``captured = where(first, value, captured)`` with ``first`` a bool of shape
``[1]`` made from a count of arrivals; ints and bools are captured as floats. The captures are defined
before the enclosing statement, from a straight-line replay of the statements on the way to the cut (only
their types matter: in-place and training ops are replayed as plain ones, and thresholds far from any
value); the program ends after it.

Python values are values to compare too: at the top level a live Python number, bool, list or dict is returned as
it is (the oracle judges it by kind); inside a block a Python ``int`` or ``float`` is captured as a float32 of
shape ``[1]`` (``one * n``). What cannot be returned that way is left out, with the reason in
:attr:`Truncation.skipped`: ``None``, a variable the paths to the cut leave with different kinds of value (a tensor
or None, a float or a tensor), and a bool, list or dict inside a block. A variable left with tensors of several
dtypes (one shape) is a tensor, cast to float32 where it is captured. The replay before a block also replays the
Python-value statements over tensors and numbers (``.item()``, ``int(...)``, ``x * n``...); a tensor made from a
list or dict inside the block is not replayed, and a cut that needs one does not type-check.

The original program's own early ``return``s are dropped (the marker of their ``if`` still shows a wrong
decision), and inputs the original uses stay used (Paddle's ``jit.save`` refuses an unused input). Every
truncated program type-checks (:func:`~conformance.program.typecheck.check_program`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Optional

from conformance.program.flow import (
    BLOCKS,
    Cut,
    Location,
    block_at,
    cuts,
    input_only,
    live_after,
    locations,
    scope_at,
    statement_at,
)
from conformance.program.ir import (
    NONE,
    Get,
    Grow,
    If,
    OpStmt,
    OutSeq,
    OutVar,
    ProgramError,
    PyStmt,
    Return,
    TensorType,
    is_number,
    options,
    spec_leaves,
)
from conformance.program.ops import OPS
from conformance.program.ops.record import DATA_DIM_PREFIX
from conformance.program.program import Program
from conformance.program.pyops import PYOPS
from conformance.program.typecheck import check_program


@dataclass(frozen=True)
class Output:
    """One item of a truncated program's output tuple.

    ``role``: ``value`` (a variable of the program), ``input`` (a variable holding an input, through
    ``neg``/``to_float``), ``branch`` (how often the then-branch of the ``if`` at ``at`` ran), ``iterations``
    (how many iterations the loop at ``at`` ran in all), ``reached`` (1 where the cut is reached)."""

    name: str
    role: str
    var: str = ""
    at: Location = ()


@dataclass(frozen=True)
class Truncation:
    cut: Cut
    program: Program
    outputs: tuple[Output, ...]
    skipped: tuple[tuple[str, str], ...] = ()  # (variable, why): live values the outputs leave out


class _Names:
    """Fresh variable names that no name of the program starts with."""

    def __init__(self, program: Program):
        taken = {i.name for i in program.inputs} | {k.name for k in program.kwargs} | \
            {q.name for q in program.params} | {program.self_name}
        for s in program.walk():
            taken |= {getattr(s, a) for a in ("out", "counter", "var") if isinstance(getattr(s, a, None), str)}
        self.prefix = next(p for p in (f"cut{n}_" if n else "cut_" for n in range(1000))
                           if not any(t.startswith(p) for t in taken))

    def __call__(self, what: str) -> str:
        return self.prefix + what


def _flat_inputs(program: Program) -> dict:
    """Flat input name (``x1.0.k0``) -> ``(input name, path, dtype)``."""
    return {inp.name + "".join(f".{step}" for step in path): (inp.name, path, leaf.dtype)
            for inp in program.inputs for path, leaf in spec_leaves(inp.spec)}


def _as_float(out: str, var: str, dtype: str, raw: bool) -> OpStmt:
    """``var`` as a float32: ``neg`` of an input (never an output unchanged), ``to_float`` of int64 and bool, a
    ``cast`` of the other dtypes (float16, float64, the small integers)."""
    if dtype in ("int64", "bool"):
        return OpStmt(out, "to_float", (var,))
    if dtype != "float32":
        return OpStmt(out, "cast", (var,), (("dtype", "float32"),))
    return OpStmt(out, "neg" if raw else "mul_scalar", (var,), () if raw else (("c", 1.0),))


#: The dtype a variable left with tensors of several dtypes is returned as: cast to float32 where captured.
MIXED = "mixed"


def returned_type(t, inside: bool):
    """The type a live value of type ``t`` is returned as at a cut (``inside``: a cut inside a block, where it is
    captured), or a string: why it is left out (see the module docstring)."""
    kinds = options(t)
    if all(isinstance(k, TensorType) for k in kinds):
        shapes = {k.shape for k in kinds}
        if len(shapes) > 1:
            return f"it is a tensor of type {t}: the paths to the cut leave it with different shapes"
        return t if len(kinds) == 1 else TensorType(shapes.pop(), MIXED)
    if len(kinds) > 1:
        return f"it may hold {t}: the paths to the cut leave it with different kinds of value"
    if t == NONE:
        return "it holds None"
    if inside and not is_number(t):
        return f"a Python {t} inside a block is not captured (only tensors and Python numbers are)"
    return t


def _capturable(t, outer: dict) -> bool:
    """A value can be captured unless its type has a data-dependent size named after a variable of the block
    (``n_v3``: only that variable's own statement makes a tensor of that type, and it is never reassigned)."""
    return not isinstance(t, TensorType) or \
        all(not (isinstance(d, str) and d.startswith(DATA_DIM_PREFIX)) or d[len(DATA_DIM_PREFIX):] in outer
            for d in t.shape)


def kept(loc: Location, cut: Cut) -> bool:
    """Whether the statement at ``loc`` is in the program truncated at ``cut``: it comes before the cut at the
    top level, or is (or lies inside) the top-level statement that holds the cut."""
    top = cut.block[0] if cut.block else cut.index
    return loc[0] < top or (bool(cut.block) and loc[0] == top)


def truncate(program: Program, cut: Cut, *, keep_inputs: bool = True, taps: bool = True,
             markers: bool = True, ran: Optional[set] = None) -> Truncation:
    """The program cut at ``cut`` (see the module docstring); raises ``ProgramError`` if the cut is not one of
    the program's (:func:`~conformance.program.flow.cuts`).

    ``keep_inputs``: keep every input the original uses used; ``taps``: return a variable holding an input
    through ``neg``/``to_float`` (both for inference paths, which export and save; off for gradients, where an
    input used or not, and returned as it is, is what a path may get wrong); ``markers``: count branches and
    iterations (off where a path refuses the loop variables they add: the kinds ``branch`` and ``iterations``
    then show as values); ``ran``: the locations of the statements eager runs
    (:func:`~conformance.program.flow.executed`): a variable is live where eager's path reads it later
    (else where any statement after the cut may), and in the top-level statement that holds the cut, what
    eager never runs is left out.
    """
    if cut not in set(cuts(program)):
        raise ProgramError(f"no cut {cut} in this program")
    name = _Names(program)
    env = scope_at(program, cut)
    raw = input_only(program)
    live = live_after(program, cut, ran)  # (a value nothing reads later cannot be what makes the finding)
    outer = scope_at(program, Cut((), cut.block[0])) if cut.block else env
    types = {v: returned_type(env[v], bool(cut.block)) for v in env if v in live}
    skipped = tuple((v, t) for v, t in types.items() if isinstance(t, str))
    values = [Output(name(f"cap_{v}") if cut.block else (name(f"in_{v}") if v in raw and taps else v),
                     "input" if v in raw else "value", v) for v, t in types.items()
              if not isinstance(t, str) and _capturable(t, outer)]
    markers = {loc: name(f"m{k}") for k, loc in enumerate(
        loc for loc, s in locations(program.body) if markers and type(s) in BLOCKS and kept(loc, cut))}
    roles = [Output(name(f"cap_m{k}") if cut.block else m,
                    "branch" if isinstance(statement_at(program.body, loc), If) else "iterations", at=loc)
             for k, (loc, m) in enumerate(markers.items())] + [Output(name("reached"), "reached")]
    builder = _Builder(program, cut, name, types, values, markers, roles, taps, ran)
    result = builder.program([])
    unused: list = []
    if keep_inputs:
        flat = _flat_inputs(program)
        for leaf in sorted((set(flat) - set(program.unused_inputs())) & set(result.unused_inputs())):
            source, path, dtype = flat[leaf]
            var, tap = name("get_" + leaf.replace(".", "_")), name("in_" + leaf.replace(".", "_"))
            unused.append((Output(tap, "input", leaf), [Get(var, source, path), _as_float(tap, var, dtype, True)]))
        if unused:
            result = builder.program(unused)
    check_program(result)
    return Truncation(cut, result, tuple(values + [o for o, _ in unused] + roles), skipped)


class _Builder:
    def __init__(self, program: Program, cut: Cut, name, env: dict, values: list, markers: dict, roles: list,
                 taps: bool, ran: Optional[set]):
        self.p, self.cut, self.name, self.env = program, cut, name, env
        self.values, self.markers, self.roles, self.taps, self.ran = values, markers, roles, taps, ran

    def program(self, unused: list) -> Program:
        cut, body = self.cut, self.p.body
        head = self.zeros()
        head += [OpStmt(m, "add_scalar", (self.one_zero,), (("c", 0.0),)) for m in self.markers.values()]
        tail = [stmt for _, stmts in unused for stmt in stmts]
        if not cut.block:
            at_cut = [_as_float(o.name, o.var, self.env[o.var].dtype, True) for o in self.values
                      if o.role == "input" and self.taps]
            at_cut.append(OpStmt(self.roles[-1].name, "add_scalar", (self.one_zero,), (("c", 1.0),)))
            body = head + self.whole(body[:cut.index], ()) + at_cut + tail
        else:
            top = cut.block[0]
            body = head + self.whole(body[:top], ()) + self.captures() + \
                self.marked(body[top], (top,), self.inside(getattr(body[top], cut.block[1]), cut.block[:2]), True) + \
                tail
        items = [o.name for o in self.values] + [o.name for o, _ in unused] + [o.name for o in self.roles]
        return replace(self.p, body=tuple(body), output=OutSeq("tuple", tuple(OutVar(v) for v in items)))

    def zeros(self) -> list:
        """``zero``: 0 in the shape of the first input leaf that cannot be empty, detached; ``one_zero``: 0 of shape
        [1] (markers, flags)."""
        name = self.name
        leaves = [(i, path, leaf) for i in self.p.inputs for path, leaf in spec_leaves(i.spec)]
        # the first input leaf that cannot be empty (detach refuses an empty tensor)
        first, path, leaf = next((x for x in leaves if 0 not in x[2].shape), leaves[0])
        out = [Get(name("first"), first.name, path)]
        if leaf.dtype != "float32":
            out.append(_as_float(name("firstf"), out[-1].out, leaf.dtype, True))
        out.append(OpStmt(name("zeros"), "mul_scalar", (out[-1].out,), (("c", 0.0),)))
        # detached: the counts add no gradient (an input eager leaves without one keeps none in grad mode)
        out.append(OpStmt(name("zero"), "detach", (name("zeros"),)))
        if not leaf.shape:
            out.append(OpStmt(name("zero1"), "unsqueeze", (name("zero"),), (("dim", 0),)))
        for d in range(len(leaf.shape)):
            out.append(OpStmt(name(f"zero_{d}"), "sum", (out[-1].out,), (("dim", d), ("keepdim", True))))
        if len(leaf.shape) > 1:
            out.append(OpStmt(name("zero1"), "reshape", (out[-1].out,), (("shape", (1,)),)))
        self.one_zero = out[-1].out
        return out

    def whole(self, stmts, path, prune: bool = False) -> list:
        return [t for n, s in enumerate(stmts) for t in self.marked(s, path + (n,), None, prune)]

    def marked(self, s, loc, inner, prune: bool = False) -> list:
        """``s`` with its marker counted; ``inner``: ``(field, statements)`` of the block that holds the cut;
        ``prune``: leave it out where eager never runs it (in the statement that holds the cut: with the
        program's returns dropped, what eager never runs may run there, and a trace would follow it)."""
        if isinstance(s, Return) or (prune and self.ran is not None and loc not in self.ran):
            return []
        if type(s) not in BLOCKS:
            return [s]
        blocks = {f: tuple(inner[1]) if inner and f == inner[0] else
                  tuple(self.whole(getattr(s, f), loc + (f,), prune)) for f in BLOCKS[type(s)]}
        if loc in self.markers:
            counted, m = "then" if isinstance(s, If) else "body", self.markers[loc]
            blocks[counted] = (OpStmt(m, "add_scalar", (m,), (("c", 1.0),)),) + blocks[counted]
        return [replace(s, **blocks)]

    def inside(self, stmts, path) -> tuple:
        """A block on the way to the cut, whole, with the captures at the cut."""
        field = path[-1]
        if path == self.cut.block:
            n = self.cut.index
            return (field, self.whole(stmts[:n], path, True) + self.capture() +
                    [t for k, s in enumerate(stmts[n:], n) for t in self.marked(s, path + (k,), None, True)])
        i = self.cut.block[len(path)]
        nested = path + (i, self.cut.block[len(path) + 1])
        return (field, self.whole(stmts[:i], path, True) +
                self.marked(stmts[i], path + (i,), self.inside(getattr(stmts[i], nested[-1]), nested), True) +
                [t for k, s in enumerate(stmts[i + 1:], i + 1) for t in self.marked(s, path + (k,), None, True)])

    def captures(self) -> list:
        """Before the top-level statement that holds the cut: the captures (of the right types), the count of
        arrivals at the cut and the constants the flag is made of."""
        name, zero = self.name, self.one_zero
        out = [OpStmt(name("arrivals"), "add_scalar", (zero,), (("c", 0.0),)),
               OpStmt(name("half"), "add_scalar", (zero,), (("c", 0.5),)),
               OpStmt(name("one"), "add_scalar", (zero,), (("c", 1.0),))]
        outer = scope_at(self.p, Cut((), self.cut.block[0]))
        before = {v: returned_type(t, True) for v, t in outer.items()}
        # a tensor of the same shape before the block serves (cast to float32); else one is replayed
        fits = lambda v: isinstance(before.get(v), TensorType) and before[v].shape == self.env[v].shape  # noqa: E731
        replay, renamed = _replay(self.p, self.cut, {o.var for o in self.values if not fits(o.var) and
                                                     isinstance(self.env[o.var], TensorType)}, name)
        out += replay
        for o in self.values:
            t = self.env[o.var]
            if not isinstance(t, TensorType):  # a Python number: captured as a float32 of shape [1]
                out.append(OpStmt(o.name, "add_scalar", (zero,), (("c", 0.0),)))
            elif o.var in renamed:
                out.append(_as_float(o.name, renamed[o.var], t.dtype, False))
            elif fits(o.var):
                out.append(_as_float(o.name, o.var, before[o.var].dtype, False))
            else:
                out += self.zeros_like(o.name, t)
        out += [OpStmt(o.name, "add_scalar", (zero,), (("c", 0.0),)) for o in self.roles]
        return out

    def zeros_like(self, out: str, t: TensorType) -> list:
        """Zeros of ``t``'s shape where no statement before the block makes a tensor of it (one made from a list
        or dict inside the block): from the [1] zero, for static shapes (else nothing: the cut does not
        type-check)."""
        if any(not isinstance(d, int) or d < 1 for d in t.shape):
            return []
        if not t.shape:
            return [OpStmt(out, "sum", (self.one_zero,), (("dim", 0), ("keepdim", False)))]
        ones = self.name("ones_" + out)
        return [OpStmt(ones, "reshape", (self.one_zero,), (("shape", (1,) * len(t.shape)),)),
                OpStmt(out, "expand", (ones,), (("sizes", tuple(t.shape)),))]

    def capture(self) -> list:
        """At the cut: capture everything the first time execution gets here."""
        name = self.name
        flags = {1: name("flag")}
        out = [OpStmt(flags[1], "lt", (name("arrivals"), name("half")))]
        if any(isinstance(self.env[o.var], TensorType) and not self.env[o.var].shape for o in self.values):
            # a rank-0 value needs a rank-0 flag
            out += [OpStmt(name("arrivals0"), "sum", (name("arrivals"),), (("dim", 0), ("keepdim", False))),
                    OpStmt(name("half0"), "sum", (name("half"),), (("dim", 0), ("keepdim", False))),
                    OpStmt(name("flag0"), "lt", (name("arrivals0"), name("half0")))]
            flags[0] = name("flag0")
        for o in self.values:
            t = self.env[o.var]
            value = o.var
            if not isinstance(t, TensorType):  # a Python number, as a float32 of shape [1]
                value = name("now_" + o.var)
                out += [PyStmt(value, "scale_by", (o.var, name("one"))),
                        OpStmt(o.name, "where", (flags[1], value, o.name))]
                continue
            if (o.role == "input" and self.taps) or t.dtype != "float32":
                value = name("now_" + o.var)
                out.append(_as_float(value, o.var, t.dtype, o.role == "input" and self.taps))
            out.append(OpStmt(o.name, "where", (flags[1 if t.shape else 0], value, o.name)))
        sources = list(self.markers.values()) + [name("one")]
        for o, source in zip(self.roles, sources):
            out.append(OpStmt(o.name, "where", (flags[1], source, o.name)))
        out.append(OpStmt(name("arrivals"), "add_scalar", (name("arrivals"),), (("c", 1.0),)))
        return out


#: What an op is replayed as where only the type of its result matters: in-place ops as plain ones.
_PLAIN = {"add_": "add", "mul_": "mul", "clamp_": "clamp", "relu_": "relu"}
#: The Python-value ops replayed before a block: over tensors and numbers only (a list or dict replayed without its
#: appends would be empty, and stacking it fails).
_REPLAYED_PY = frozenset({"item", "int_of", "bool_of", "dim_of", "numel_of", "const", "num_arith", "add_const",
                          "num_add", "float_of", "scale_by", "acc_add"})


def _replay(program: Program, cut: Cut, needed: set, name) -> tuple[list, dict]:
    """Statements, run before the top-level statement that holds the cut, that compute values of the types
    the block-local variables in ``needed`` have at the cut (their values do not matter): the simple
    statements on the way to the cut, every variable they assign renamed, in-place ops as plain ones,
    training ops (dropout, batch norm) as ``mul_scalar`` by 1, a grow loop as the reduction it ends with,
    and the arguments of a threshold op (a comparison, an int cast) multiplied by 0 (exactly on the
    threshold, which the branch-flip guard leaves alone). Returns them and the renaming."""
    chain = []
    path = cut.block
    for depth in range(2, len(path) + 1, 2):
        stop = path[depth] if depth < len(path) else cut.index
        chain += [s for s in block_at(program.body, path[:depth])[:stop] if isinstance(s, (Get, OpStmt, Grow)) or
                  (isinstance(s, PyStmt) and s.op in _REPLAYED_PY)]
    kept_stmts = []
    for s in reversed(chain):
        if s.out in needed:
            kept_stmts.append(s)
            needed = (needed - {s.out}) | (set(s.args) if isinstance(s, (OpStmt, PyStmt)) else
                                           {s.init} if isinstance(s, Grow) else set())
    renamed: dict = {}
    out = []
    for k, s in enumerate(reversed(kept_stmts)):
        target = name(f"w{k}_{s.out}")
        if isinstance(s, Get):
            out.append(replace(s, out=target))
        elif isinstance(s, Grow):
            out.append(OpStmt(target, "sum", (renamed.get(s.init, s.init),), (("dim", s.dim), ("keepdim", True))))
        else:
            args = [renamed.get(a, a) for a in s.args]
            rec = PYOPS[s.op] if isinstance(s, PyStmt) else OPS[s.op]
            if rec.probe:
                zeroed = []
                for j, a in enumerate(args):
                    zeroed.append(name(f"w{k}_zero{j}"))
                    out.append(OpStmt(zeroed[-1], "mul_scalar", (a,), (("c", 0.0),)))
                args = zeroed
            if isinstance(s, PyStmt):
                out.append(replace(s, out=target, args=tuple(args)))
            elif rec.train_layer:
                out.append(OpStmt(target, "mul_scalar", (args[0],), (("c", 1.0),)))
            else:
                out.append(OpStmt(target, _PLAIN.get(s.op, s.op), tuple(args), s.attrs, s.params))
        renamed[s.out] = target
    return out, renamed
