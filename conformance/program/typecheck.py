"""Type checking of programs: every statement's type (shapes and dtypes of tensors, Python values), scoping and
control flow.

A variable may change type, as Python allows: after an ``if`` its type is the union of what each branch leaves
in it, after a loop the union over any number of iterations (a fixed point). A union is fine until the variable
is read where one type is needed (an op takes a tensor of one type, ``range()`` an int): there the checker
rejects it, as eager Python would fail on some input.

:func:`check_program` is what makes a case file safe to load: it raises a
:class:`~conformance.program.ir.ProgramError` that names the statement and what is wrong.
"""

from __future__ import annotations

import itertools
import keyword
import re
from typing import TYPE_CHECKING, Mapping, Optional, Sequence

from conformance.program.dtypes import check_spec
from conformance.program.ir import (
    DTYPES,
    DYNAMIC,
    Break,
    Continue,
    DictSpec,
    For,
    Get,
    Grow,
    If,
    KwargCond,
    LoopVarCond,
    OpStmt,
    Out,
    OutDict,
    OutSeq,
    OutVar,
    ProgramError,
    PyCond,
    PyStmt,
    PyType,
    Return,
    SeqSpec,
    ShapeCond,
    Spec,
    TensorCond,
    TensorSpec,
    TensorType,
    While,
    is_number,
    options,
    union,
)
from conformance.program.ops import check_op
from conformance.program.ops.record import name_data_dim, need
from conformance.program.pyops import check_pyop

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_RESERVED = {"self", "torch", "F", "np", "paddle", "tf", "nn", "List", "Dict", "Tuple"}
_CMPS = {">", "<", "=="}
_REDUCES = {"sum", "mean", "amax", "amin"}
_KWARG_TYPES = {"bool": bool, "int": int, "float": float, "str": str}

if TYPE_CHECKING:
    from conformance.program.program import Program

INT_TYPE, BOOL_TYPE, NONE_TYPE = PyType("int"), PyType("bool"), PyType("none")
#: Python-value ops whose result is computed from a tensor's values (not its shape).
DATA_OPS = ("item", "int_of", "bool_of", "acc_add")


def join(env: dict, *paths: dict) -> None:
    """After an ``if`` or a loop: each variable of ``env`` gets the union of its types in ``paths`` (the variables
    each way through leaves; one assigned only inside a block stays local to it)."""
    for name in env:
        env[name] = union(*(p[name] for p in paths))


def _ident(name: str, what: str) -> None:
    if not isinstance(name, str) or not _NAME.match(name) or keyword.iskeyword(name) or name in _RESERVED:
        raise ProgramError(f"{what} name {name!r} is not a usable Python identifier")


def _kwarg_value_ok(kind: str, v) -> bool:
    t = _KWARG_TYPES[kind]
    if t is float:
        return isinstance(v, (int, float)) and not isinstance(v, bool)
    if t is int:
        return isinstance(v, int) and not isinstance(v, bool)
    return isinstance(v, t)


def spec_type_check(spec: Spec, where: str) -> None:
    if isinstance(spec, TensorSpec):
        if spec.dtype not in DTYPES:
            raise ProgramError(f"{where}: unknown dtype {spec.dtype!r}")
        for d in spec.shape:
            if not (d == DYNAMIC or (isinstance(d, int) and not isinstance(d, bool) and d >= 0)):
                raise ProgramError(f"{where}: bad dim {d!r} (an int >= 0 or {DYNAMIC!r})")
        why = check_spec(spec, where)
        if why:
            raise ProgramError(why)
        if not spec.low < spec.high:
            raise ProgramError(f"{where}: empty value range [{spec.low}, {spec.high}]")
    elif isinstance(spec, SeqSpec):
        if spec.kind not in ("list", "tuple") or not spec.items:
            raise ProgramError(f"{where}: a {spec.kind} input needs at least one item")
        for i, item in enumerate(spec.items):
            spec_type_check(item, f"{where}[{i}]")
        if spec.kind == "list" and len({_shape_of_tree(i) for i in spec.items}) > 1:
            raise ProgramError(f"{where}: list items must all have the same structure (use a tuple)")
    elif isinstance(spec, DictSpec):
        if not spec.items:
            raise ProgramError(f"{where}: a dict input needs at least one item")
        for k, item in spec.items:
            if not isinstance(k, str):
                raise ProgramError(f"{where}: dict keys must be strings, got {k!r}")
            spec_type_check(item, f"{where}[{k!r}]")
        if len({_shape_of_tree(i) for _, i in spec.items}) > 1:
            raise ProgramError(f"{where}: dict values must all have the same structure")
    else:
        raise ProgramError(f"{where}: not an input spec: {spec!r}")


def _shape_of_tree(spec: Spec) -> str:
    """The container structure of a spec, ignoring tensor shapes (for homogeneity checks)."""
    if isinstance(spec, TensorSpec):
        return "T"
    if isinstance(spec, SeqSpec):
        return f"{spec.kind}({','.join(_shape_of_tree(i) for i in spec.items)})" if spec.kind == "tuple" else \
            f"list[{_shape_of_tree(spec.items[0])}]"
    return f"dict[{_shape_of_tree(spec.items[0][1])}]"


def _leaf_at(spec: Spec, path: Sequence, where: str) -> TensorSpec:
    for step in path:
        if isinstance(spec, SeqSpec) and isinstance(step, int) and 0 <= step < len(spec.items):
            spec = spec.items[step]
        elif isinstance(spec, DictSpec) and step in dict(spec.items):
            spec = dict(spec.items)[step]
        else:
            raise ProgramError(f"{where}: no item {step!r} in the input")
    if not isinstance(spec, TensorSpec):
        raise ProgramError(f"{where}: the path does not lead to a tensor")
    return spec


class TypeChecker:
    def __init__(self, program: Program):
        self.p = program
        self.inputs = {i.name: i.spec for i in program.inputs}
        self.kwargs = {k.name: k for k in program.kwargs}
        self.params = {p.name: p for p in program.params}
        self.out_type: Optional[str] = None
        self.arg_types: dict[int, list[TensorType]] = {}  # id(OpStmt) -> the types of its arguments
        #: what the walk saw of Python values (``conformance.program.pyvalues.python_constructs`` reads it): the
        #: variables holding a value computed from a tensor's data, and ``type_differs_if`` /
        #: ``type_change_while`` where a data-dependent ``if`` or ``while`` leaves a variable another type
        self.data_derived: set = set()
        self.events: set = set()

    def run(self, outputs: bool = True) -> None:
        p = self.p
        loop_names = [s.counter for s in p.walk() if isinstance(s, (While, Grow))] + \
            [s.var for s in p.walk() if isinstance(s, For)]
        tensor_names = {s.out for s in p.walk() if isinstance(s, (Get, OpStmt, Grow, PyStmt))}
        if len(set(loop_names)) != len(loop_names) or set(loop_names) & tensor_names:
            raise ProgramError("loop counters and loop variables need names of their own (not shared with each "
                               "other or with tensor variables)")
        names = [i.name for i in p.inputs] + [k.name for k in p.kwargs] + [q.name for q in p.params] + loop_names
        for n in names:
            _ident(n, "input/kwarg/param")
        if len(set(names)) != len(names):
            raise ProgramError("input, kwarg and param names must be distinct")
        if p.self_name != "self":
            _ident(p.self_name, "forward's first parameter")
            if p.self_name in names or p.self_name in tensor_names:
                raise ProgramError(f"forward's first parameter {p.self_name!r} is also an input, kwarg, param or "
                                   f"variable name")
        for i in p.inputs:
            spec_type_check(i.spec, f"input {i.name!r}")
        for k in p.kwargs:
            if k.type not in _KWARG_TYPES:
                raise ProgramError(f"kwarg {k.name!r}: unknown type {k.type!r}")
            for v in (k.default, *k.choices):
                if not _kwarg_value_ok(k.type, v):
                    raise ProgramError(f"kwarg {k.name!r}: value {v!r} is not a {k.type}")
        for q in p.params:
            if not q.shape or any(not isinstance(d, int) or d < 1 for d in q.shape):
                raise ProgramError(f"param {q.name!r}: bad shape {list(q.shape)}")
        env: dict = {}
        self.env = env  # the variables and their types at the end of the body
        self.block(p.body, env, loops=(), where="body")
        if not outputs:
            return
        self.out_type = self.out(p.output, env, "output")
        for s in p.walk():
            if isinstance(s, Return) and self.out(s.value, env_for_return(self, s), "return") != self.out_type:
                raise ProgramError("an early return must return the same structure and types as the final return")

    def block(self, stmts, env: dict, loops: tuple, where: str) -> None:
        for i, s in enumerate(stmts):
            self.stmt(s, env, loops, f"{where}[{i}]")

    def assign(self, env: dict, name: str, t: TensorType, where: str) -> None:
        _ident(name, f"{where}: variable")
        if name in self.inputs or name in self.kwargs or name in self.params:
            raise ProgramError(f"{where}: {name!r} shadows an input, kwarg or param")
        env[name] = t

    def tensors(self, env: dict, name: str, where: str, what: str) -> list:
        """The tensor types ``name`` may hold: it must be assigned and hold a tensor (of one of them) on every path."""
        if name not in env:
            raise ProgramError(f"{where}: {what} uses {name!r} before it is assigned")
        found = sorted(options(env[name]), key=str)
        if not all(isinstance(t, TensorType) for t in found):
            raise ProgramError(f"{where}: {what} needs a tensor; {name!r} holds {env[name]}")
        return found

    def stmt(self, s, env: dict, loops: tuple, where: str) -> None:
        if isinstance(s, Get):
            if s.source not in self.inputs:
                raise ProgramError(f"{where}: unknown input {s.source!r}")
            self.assign(env, s.out, _leaf_at(self.inputs[s.source], s.path, where).type, where)
        elif isinstance(s, OpStmt):
            # an argument that is a union of tensor types: the op must fit each (as eager runs it on any of them)
            combos = list(itertools.product(*(self.tensors(env, a, where, s.op) for a in s.args)))[:16]
            self.arg_types[id(s)] = list(combos[0])
            self.assign(env, s.out, union(*(self.op_result(s, list(ts), env, loops, where) for ts in combos)), where)
        elif isinstance(s, PyStmt):
            for a in s.args:
                if a not in env:
                    raise ProgramError(f"{where}: {s.op} uses {a!r} before it is assigned")
            types = [env[a] for a in s.args]
            self.arg_types[id(s)] = types
            if s.op in DATA_OPS or any(a in self.data_derived for a in s.args if not isinstance(env[a], TensorType)):
                self.data_derived.add(s.out)
            try:
                out = check_pyop(s, types)
            except ProgramError as e:
                raise ProgramError(f"{where}: {e}") from None
            self.assign(env, s.out, out, where)
        elif isinstance(s, If):
            self.cond(s.cond, env, loops, where)
            branches = [dict(env), dict(env)]
            for branch, name, inner in ((s.then, "then", branches[0]), (s.orelse, "else", branches[1])):
                self.block(branch, inner, loops, f"{where}.{name}")
            if self.data_dependent(s.cond) and any(branches[0][n] != branches[1][n] for n in env):
                self.events.add("type_differs_if")
            join(env, *branches)
        elif isinstance(s, While):
            self.cond(s.cond, env, loops, where)
            if not isinstance(s.max_iter, int) or s.max_iter < 0:
                raise ProgramError(f"{where}: max_iter must be a non-negative int")
            _ident(s.counter, f"{where}: counter")
            self.loop(s.body, env, loops + ("while",), f"{where}.body", {}, s.cond)
        elif isinstance(s, Grow):
            self.grow(s, env, where)
        elif isinstance(s, For):
            if s.rows:
                over = self.tensors(env, s.count, where, "for ... in")
                need(len(over) == 1 and over[0].rank >= 1,
                     f"{where}: a for over rows needs a tensor of one type and rank >= 1; {s.count!r} holds "
                     f"{env[s.count]}")
            else:
                self.count(s.count, where, env)
            _ident(s.var, f"{where}: loop variable")
            self.loop(s.body, env, loops + (s.var,), f"{where}.body", {s.var: loop_var_type(s, env)}, None)
        elif isinstance(s, (Break, Continue)):
            if not loops:
                raise ProgramError(f"{where}: {type(s).__name__.lower()} outside a loop")
        elif isinstance(s, Return):
            self.out(s.value, env, where)
        else:
            raise ProgramError(f"{where}: not a statement: {s!r}")

    def op_result(self, s: OpStmt, types: list, env: dict, loops: tuple, where: str) -> TensorType:
        """The type of an op statement's result for argument types ``types`` (raises :class:`ProgramError`)."""
        rec = check_op(s.op)
        for q in s.params:
            if q not in self.params:
                raise ProgramError(f"{where}: unknown param {q!r}")
        attrs = s.attr
        if s.op == "mul_kwarg" and (attrs.get("kwarg") not in self.kwargs
                                    or self.kwargs[attrs["kwarg"]].type != "float"):
            raise ProgramError(f"{where}: mul_kwarg needs the name of a float kwarg")
        try:
            out = rec.check(types, attrs)
            want = [shape for shape, _ in rec.params(types, attrs)]
            if rec.data_dependent:  # the size is the data's: one symbol per result, never reassigned
                need(not loops, f"{s.op}'s result size depends on the data: it is not applied inside a loop")
                need(s.out not in env, f"{s.op}'s result size depends on the data: it assigns a new variable, "
                                       f"not {s.out!r}")
                out = name_data_dim(out, s.out)
        except KeyError as e:
            raise ProgramError(f"{where}: {s.op} is missing attribute {e}") from None
        except ProgramError as e:
            raise ProgramError(f"{where}: {e}") from None
        if rec.inplace and s.out != s.args[0]:
            raise ProgramError(f"{where}: in-place {s.op} must assign to its first argument {s.args[0]!r}")
        got = [self.params[q].shape for q in s.params]
        if got != want:
            raise ProgramError(f"{where}: {s.op} needs params of shapes {want}, got {got}")
        trainable = [getattr(w, "trainable", True) for w in rec.params(types, attrs)]
        if [self.params[q].trainable for q in s.params] != trainable:
            raise ProgramError(f"{where}: {s.op} needs params with trainable = {trainable} (False: running "
                               f"statistics, buffers no optimizer updates)")
        return out

    def loop(self, body, env: dict, loops: tuple, where: str, own: dict, cond) -> None:
        """Check a loop body for any number of iterations: what an iteration leaves in an outer variable joins
        what it held before, until the types stop changing; the condition of a ``while`` is checked again on
        what an iteration leaves."""
        for _ in range(8):
            before = dict(env)
            inner = {**env, **own}
            self.block(body, inner, loops, where)
            join(env, dict(env), {k: v for k, v in inner.items() if k not in own or k in before})
            if cond is not None and env != before:
                self.events.add("type_change_while")
            if cond is not None:
                self.cond(cond, env, loops, where)
            if env == before:
                return
        raise ProgramError(f"{where}: the types of the loop's variables do not settle")

    def data_dependent(self, c) -> bool:
        """Whether a condition depends on a tensor's values."""
        return isinstance(c, TensorCond) or (isinstance(c, PyCond) and c.var in self.data_derived)

    def count(self, count, where: str, env: Optional[dict] = None) -> None:
        if isinstance(count, str) and count not in self.kwargs and env is not None and count in env:
            if env[count] != INT_TYPE:
                raise ProgramError(f"{where}: range() count {count!r} holds {env[count]}, not an int")
            return
        if isinstance(count, str):
            k = self.kwargs.get(count)
            if k is None or k.type != "int" or any(v < 0 or v > 16 for v in (k.default, *k.choices)):
                raise ProgramError(f"{where}: range() count {count!r} must be an int kwarg in 0..16")
        elif isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= 16:
            raise ProgramError(f"{where}: range() count must be an int in 0..16")

    def grow(self, s, env: dict, where: str) -> None:
        for name in (s.init, s.piece):
            if name not in env:
                raise ProgramError(f"{where}: grow uses {name!r} before it is assigned")
        t = self.tensors(env, s.init, where, "grow")[0]
        if env[s.init] != t:
            raise ProgramError(f"{where}: grow needs a tensor of one type; {s.init!r} holds {env[s.init]}")
        if env[s.piece] != t or t.dtype != "float32":
            raise ProgramError(f"{where}: grow needs float tensors of one type, got {t} and {env[s.piece]}")
        if not isinstance(s.dim, int) or isinstance(s.dim, bool) or not 0 <= s.dim < t.rank \
                or not isinstance(t.shape[s.dim], int):
            raise ProgramError(f"{where}: grow dim {s.dim!r} must be a static dim of {t}")
        if s.reduce not in ("sum", "mean", "amax"):
            raise ProgramError(f"{where}: grow reduce must be sum, mean or amax, got {s.reduce!r}")
        if s.out in (s.init, s.piece):
            raise ProgramError(f"{where}: grow needs an output variable of its own")
        self.count(s.count, where)
        _ident(s.counter, f"{where}: counter")
        if s.cond is not None:
            if not isinstance(s.cond, TensorCond) or s.cond.var != s.out:
                raise ProgramError(f"{where}: a grow loop's condition is a tensor condition on {s.out!r}")
            self.cond(s.cond, {**env, s.out: t}, (), where)
        self.assign(env, s.out, TensorType(t.shape[:s.dim] + (1,) + t.shape[s.dim + 1:], t.dtype), where)

    def cond(self, c, env: dict, loops: tuple, where: str) -> None:
        if isinstance(c, TensorCond):
            if c.var not in env or not all(isinstance(t, TensorType) and t.dtype in ("float32", "float64")
                                           for t in options(env[c.var])):
                raise ProgramError(f"{where}: condition needs a float variable, got {c.var!r}")
            if c.reduce not in _REDUCES or c.cmp not in (">", "<") or not _kwarg_value_ok("float", c.value):
                raise ProgramError(f"{where}: bad tensor condition {c}")
        elif isinstance(c, KwargCond):
            k = self.kwargs.get(c.name)
            if k is None:
                raise ProgramError(f"{where}: unknown kwarg {c.name!r}")
            if c.cmp in ("truth", "not"):
                if k.type != "bool":
                    raise ProgramError(f"{where}: truth test needs a bool kwarg")
            elif c.cmp not in _CMPS or not _kwarg_value_ok(k.type, c.value):
                raise ProgramError(f"{where}: bad kwarg condition {c}")
        elif isinstance(c, PyCond):
            t = env.get(c.var)
            if t is None:
                raise ProgramError(f"{where}: condition on {c.var!r} before it is assigned")
            if c.cmp in ("none", "some"):
                if NONE_TYPE not in options(t):
                    raise ProgramError(f"{where}: an 'is None' test of {c.var!r}, which is never None ({t})")
            elif c.cmp in ("truth", "not"):
                if t != BOOL_TYPE:
                    raise ProgramError(f"{where}: a truth test needs a Python bool; {c.var!r} holds {t}")
            elif c.cmp not in _CMPS or not is_number(t) or not _kwarg_value_ok("float", c.value):
                raise ProgramError(f"{where}: bad condition {c} on {c.var!r} ({t})")
            else:
                self.arg_types[id(c)] = [t]  # a renderer spells the threshold for an int or a float
        elif isinstance(c, ShapeCond):
            if c.var not in env or not isinstance(env[c.var], TensorType) or not 0 <= c.dim < env[c.var].rank \
                    or c.cmp not in _CMPS \
                    or not _kwarg_value_ok("int", c.value):
                raise ProgramError(f"{where}: bad shape condition {c}")
        elif isinstance(c, LoopVarCond):
            if c.var not in loops or c.cmp not in _CMPS or not _kwarg_value_ok("int", c.value):
                raise ProgramError(f"{where}: {c.var!r} is not an enclosing for-loop variable")
        else:
            raise ProgramError(f"{where}: not a condition: {c!r}")

    def out(self, o: Out, env: Mapping, where: str) -> str:
        """A string form of the output's structure and types (for comparing returns)."""
        if isinstance(o, OutVar):
            if o.name not in env:
                raise ProgramError(f"{where}: output {o.name!r} is not assigned")
            return str(env[o.name])
        if isinstance(o, OutSeq):
            if o.kind not in ("tuple", "list") or not o.items:
                raise ProgramError(f"{where}: bad output {o.kind}")
            inner = [self.out(i, env, where) for i in o.items]
            if o.kind == "list" and not all(isinstance(i, OutVar) for i in o.items):
                raise ProgramError(f"{where}: list outputs hold tensors only (use a tuple)")
            return f"{o.kind}({', '.join(inner)})"
        if isinstance(o, OutDict):
            if not o.items or not all(isinstance(v, OutVar) for _, v in o.items):
                raise ProgramError(f"{where}: dict outputs hold tensors only")
            return "dict(" + ", ".join(f"{k}: {self.out(v, env, where)}" for k, v in o.items) + ")"
        raise ProgramError(f"{where}: not an output: {o!r}")


def env_for_return(checker: TypeChecker, target: Return) -> dict:
    """The variables visible at an early return (re-walks the body up to it)."""
    found: dict = {}

    def visit(stmts, env, loops):
        for s in stmts:
            if s is target:
                found.update(env)
                return True
            if isinstance(s, (Get, OpStmt, Grow, PyStmt)):
                checker.stmt(s, env, loops, "return-scan")
            elif isinstance(s, If):
                if visit(s.then, dict(env), loops) or visit(s.orelse, dict(env), loops):
                    return True
            elif isinstance(s, (While, For)):
                inner = {**env, s.var: loop_var_type(s, env)} if isinstance(s, For) else dict(env)
                if visit(s.body, inner, loops + ((s.var,) if isinstance(s, For) else ())):
                    return True
                checker.stmt(s, env, loops, "return-scan")  # the loop's iterations join what they leave
        return False

    visit(checker.p.body, {}, ())
    return found


def loop_var_type(s: For, env: dict):
    """The type of a ``for`` loop's variable: a row of the tensor it iterates over, or the index (a Python int)."""
    if s.rows:
        t = env[s.count]
        return TensorType(t.shape[1:], t.dtype)
    return INT_TYPE


def check_kwarg_value(program: Program, name: str, value) -> None:
    """A kwarg value a case passes must have the kwarg's type (and, for ``range()`` counts, be in 0..16)."""
    kw = {k.name: k for k in program.kwargs}
    if name not in kw:
        raise ProgramError(f"input set passes unknown kwarg {name!r}")
    if not _kwarg_value_ok(kw[name].type, value):
        raise ProgramError(f"kwarg {name!r}: value {value!r} is not a {kw[name].type}")
    if any(isinstance(s, For) and s.count == name for s in program.walk()) and not 0 <= value <= 16:
        raise ProgramError(f"kwarg {name!r} is a range() count: {value!r} is not in 0..16")


def check_program(program: Program) -> str:
    """Type-check a program; returns the output's type string, raises :class:`ProgramError`."""
    c = TypeChecker(program)
    c.run()
    return c.out_type


def op_arg_types(program: Program) -> dict[int, list[TensorType]]:
    """The argument types of every op and Python-value statement of a program, keyed by ``id(statement)``, and of
    every comparison of a Python number, by ``id(condition)`` (raises :class:`ProgramError` where a statement does
    not type-check; outputs are not checked). Computed once per program object (a program never changes; the keys
    are ids of its own statements, so an equal program gets its own): do not change what it returns."""
    if "_op_arg_types" not in program.__dict__:
        c = TypeChecker(program)
        c.run(outputs=False)
        program.__dict__["_op_arg_types"] = c.arg_types  # as functools.cached_property stores, frozen or not
    return program.__dict__["_op_arg_types"]
