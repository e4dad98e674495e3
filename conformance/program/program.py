"""A program of the IR: parameters, inputs, keyword arguments, a body of statements, an output tree.

A :class:`Program` is plain data: its parameters (initialised from the program's seed), a tree of
tensor inputs, non-tensor keyword arguments with defaults, a body of statements and an output tree.
It round-trips through JSON exactly (``Program.from_json(p.to_json()) == p``) and is type-checked on
load (:mod:`conformance.program.typecheck`), so a malformed case file fails with a
:class:`~conformance.program.ir.ProgramError` naming what is wrong.
"""

from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Iterator

from conformance.program.effects import op_constructs
from conformance.program.ir import (
    DYNAMIC,
    Break,
    Cond,
    Continue,
    DictSpec,
    For,
    Get,
    Grow,
    If,
    Input,
    Kwarg,
    KwargCond,
    LoopVarCond,
    OpStmt,
    Out,
    OutDict,
    OutSeq,
    OutVar,
    Param,
    ProgramError,
    PyCond,
    PyStmt,
    Return,
    SeqSpec,
    ShapeCond,
    Spec,
    Stmt,
    TensorCond,
    TensorSpec,
    While,
    out_leaves,
    spec_leaves,
    walk,
)
from conformance.program.pyvalues import python_constructs
from conformance.program.typecheck import check_program

FORMAT_VERSION = 1

@dataclass(frozen=True)
class Program:
    seed: int
    inputs: tuple[Input, ...]
    kwargs: tuple[Kwarg, ...]
    params: tuple[Param, ...]
    body: tuple[Stmt, ...]
    output: Out
    meta: tuple[tuple[str, Any], ...] = field(default=(), compare=False)
    #: The name of ``forward``'s first parameter: ``self`` unless the program renames it, as some users
    #: do (Paddle's to_static requires ``self``).
    self_name: str = "self"
    #: The model is put in training mode (``train()``) before conversion instead of ``eval()``: dropout
    #: drops and batch norm uses (and updates) batch statistics.
    training: bool = False

    # -- queries -------------------------------------------------------------------------
    def walk(self) -> Iterator[Stmt]:
        """Every statement, depth first."""
        yield from walk(self.body)

    def constructs(self) -> set[str]:
        """The constructs this program exercises (used for coverage counts and reports)."""
        return set(self._constructs)

    @functools.cached_property  # a program never changes: a campaign asks a case's program several times
    def _constructs(self) -> frozenset[str]:
        found: set[str] = set()
        for inp in self.inputs:
            if isinstance(inp.spec, (SeqSpec, DictSpec)):
                found.add("nested_input")
                found.add("dict_input" if isinstance(inp.spec, DictSpec) else f"{inp.spec.kind}_input")
        if self.kwargs:
            found.add("kwargs")
        if any(DYNAMIC in leaf.shape for leaf in self.input_leaves()):
            found.add("dynamic_dim")
        if self.self_name != "self":
            found.add("renamed_self")
        used = self._used_sources()  # one liveness walk for the unused inputs and dropouts
        if self._unused_inputs(used):
            found.add("unused_input")
        for s in self.walk():
            if isinstance(s, If):
                found.add({TensorCond: "if_tensor", KwargCond: "if_kwarg", ShapeCond: "if_shape",
                           LoopVarCond: "if_loopvar", PyCond: "if_python"}[type(s.cond)])
            elif isinstance(s, While):
                found.add("while_tensor")
            elif isinstance(s, For):
                found.add("for_rows" if s.rows else "for_const" if isinstance(s.count, int) else
                          "for_kwarg" if s.count in {k.name for k in self.kwargs} else "for_data")
            elif isinstance(s, Break):
                found.add("break")
            elif isinstance(s, Continue):
                found.add("continue")
            elif isinstance(s, Return):
                found.add("early_return")
            elif isinstance(s, Grow):  # a for or while loop of its own
                found.add("grow_loop")
                if s.cond is not None:
                    found.update(("grow_while", "while_tensor"))
                else:
                    found.add("for_kwarg" if isinstance(s.count, str) else "for_const")
            elif isinstance(s, OpStmt):
                found |= op_constructs(s.op)
        found |= python_constructs(self)
        if self.training:
            found.add("train_mode")
            if self._unused_dropouts(used):
                found.add("unused_dropout")
        return frozenset(found)

    def unused_inputs(self) -> list[str]:
        """Flat names (``x1``, ``x2.0.k0``) of the input tensors that no output depends on.

        Follows where each variable's current value may come from, statement by statement (a
        variable reassigned before use no longer depends on what it held), through op arguments and
        the tensors that decide a branch or a loop, joining both branches of an ``if`` and every
        iteration of a loop. A saved static program drops such an input, and Paddle's ``jit.save``
        refuses it; a branch on a kwarg or a shape may also leave an input unused for some values.
        """
        return self._unused_inputs(self._used_sources())

    def _unused_inputs(self, used: set) -> list[str]:
        return [inp.name + "".join(f".{step}" for step in path) for inp in self.inputs
                for path, _ in spec_leaves(inp.spec) if (inp.name, path) not in used]

    def _unused_dropouts(self, used: set) -> int:
        """How many dropouts (p > 0) no output depends on (``used``: :meth:`_used_sources`). In train() each still
        draws from the random generator in eager; a converter that drops dead code draws less, so the masks of
        later dropouts differ from eager's (the ``unused_dropout`` construct)."""
        return sum(1 for s in self.walk() if _random(s) and ("random", id(s)) not in used)

    def _used_sources(self) -> set:
        """What the outputs depend on: ``(input name, leaf path)`` of input tensors and ``("random", id(s))``
        of random statements (see :meth:`unused_inputs`)."""
        used: set = set()

        def sources(env, names) -> frozenset:
            return frozenset().union(*(env.get(n, frozenset()) for n in names))

        def join(a: dict, b: dict) -> dict:
            return {k: a.get(k, frozenset()) | b.get(k, frozenset()) for k in a.keys() | b.keys()}

        def visit(stmts, env: dict, control: frozenset) -> dict:
            for s in stmts:
                if isinstance(s, Get):
                    env[s.out] = frozenset({(s.source, s.path)}) | control
                elif isinstance(s, OpStmt):
                    env[s.out] = sources(env, s.args) | control | ({("random", id(s))} if _random(s) else set())
                elif isinstance(s, PyStmt):  # a changed list or dict depends on what it held and what went in
                    env[s.out] = sources(env, s.args) | control
                    if s.op == "pop":
                        env[s.args[0]] = env[s.out]
                elif isinstance(s, Grow):
                    env[s.out] = sources(env, (s.init, s.piece)) | control
                elif isinstance(s, If):
                    decided_by_data = isinstance(s.cond, (TensorCond, ShapeCond, PyCond))
                    deciding = sources(env, [s.cond.var]) if decided_by_data else frozenset()
                    env = join(visit(s.then, dict(env), control | deciding),
                               visit(s.orelse, dict(env), control | deciding))
                elif isinstance(s, (While, For)):
                    while True:  # iterate to a fixed point: the body may run any number of times
                        deciding = sources(env, [s.cond.var]) if isinstance(s, While) else \
                            sources(env, [s.count]) if isinstance(s.count, str) else frozenset()
                        after = join(env, visit(s.body, dict(env), control | deciding))
                        if after == env:
                            break
                        env = after
                elif isinstance(s, Return):
                    used.update(sources(env, out_leaves(s.value)) | control)
            return env

        used.update(sources(visit(self.body, {}, frozenset()), out_leaves(self.output)))
        return used

    def has_data_dependent_control_flow(self) -> bool:
        return bool({"if_tensor", "while_tensor"} & self.constructs())

    def ops(self) -> list[str]:
        return [s.op for s in self.walk() if isinstance(s, OpStmt)]

    def input_leaves(self) -> list[TensorSpec]:
        return [leaf for inp in self.inputs for _, leaf in spec_leaves(inp.spec)]

    def size(self) -> int:
        return sum(1 for _ in self.walk())

    # -- JSON ------------------------------------------------------------------------------
    def to_dict(self) -> dict:
        return {
            "format": FORMAT_VERSION,
            "seed": self.seed,
            "inputs": [{"name": i.name, "spec": _spec_to(i.spec)} for i in self.inputs],
            "kwargs": [{"name": k.name, "type": k.type, "default": k.default, "choices": list(k.choices)}
                       for k in self.kwargs],
            "params": [p.to_dict() for p in self.params],
            "body": [_stmt_to(s) for s in self.body],
            "output": _out_to(self.output),
            **({"self_name": self.self_name} if self.self_name != "self" else {}),  # older ids stay
            **({"training": True} if self.training else {}),
            **({"meta": dict(self.meta)} if self.meta else {}),
        }

    def to_json(self, **kw) -> str:
        return json.dumps(self.to_dict(), sort_keys=True, **kw)

    @classmethod
    def from_dict(cls, d: Any) -> "Program":
        """Build and type-check a program; raises :class:`ProgramError` on malformed data."""
        try:
            if not isinstance(d, dict):
                raise ProgramError(f"a program is a JSON object, got {type(d).__name__}")
            if d.get("format") != FORMAT_VERSION:
                raise ProgramError(f"unsupported program format {d.get('format')!r} (expected {FORMAT_VERSION})")
            prog = cls(
                seed=int(d["seed"]),
                inputs=tuple(Input(i["name"], _spec_from(i["spec"])) for i in d["inputs"]),
                kwargs=tuple(Kwarg(k["name"], k["type"], k["default"], tuple(k["choices"])) for k in d["kwargs"]),
                params=tuple(Param(p["name"], tuple(int(x) for x in p["shape"]), float(p["scale"]),
                                   float(p.get("offset", 0.0)), _bool(p.get("trainable", True), "trainable"))
                             for p in d["params"]),
                body=tuple(_stmt_from(s) for s in d["body"]),
                output=_out_from(d["output"]),
                meta=tuple(sorted(d.get("meta", {}).items())),
                self_name=d.get("self_name", "self"),
                training=_bool(d.get("training", False), "training"),
            )
        except ProgramError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            raise ProgramError(f"malformed program: {type(e).__name__}: {e}") from None
        check_program(prog)
        return prog

    @classmethod
    def from_json(cls, text: str) -> "Program":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise ProgramError(f"not valid JSON: {e}") from None
        return cls.from_dict(data)

    @functools.cached_property  # a program never changes: its hash is computed once
    def id(self) -> str:
        """A short content hash: the same program always has the same id."""
        d = self.to_dict()
        d.pop("meta", None)
        return hashlib.sha256(json.dumps(d, sort_keys=True).encode()).hexdigest()[:12]


def _bool(value, what: str) -> bool:
    if not isinstance(value, bool):
        raise ProgramError(f"{what} must be true or false, got {value!r}")
    return value


def _spec_to(s: Spec) -> dict:
    if isinstance(s, TensorSpec):
        d = {"kind": "tensor", "shape": list(s.shape), "dtype": s.dtype, "low": s.low, "high": s.high}
        if s.edge:  # written only when set, so older programs keep their JSON (and ids)
            d["edge"] = s.edge
        if s.values is not None:
            d["values"] = list(s.values)
        return d
    if isinstance(s, SeqSpec):
        return {"kind": s.kind, "items": [_spec_to(i) for i in s.items]}
    return {"kind": "dict", "items": [[k, _spec_to(v)] for k, v in s.items]}


def _spec_from(d: dict) -> Spec:
    kind = d["kind"]
    if kind == "tensor":
        values = d.get("values")
        return TensorSpec(tuple(d["shape"]), d["dtype"], float(d["low"]), float(d["high"]), d.get("edge", ""),
                          None if values is None else tuple(values))
    if kind in ("list", "tuple"):
        return SeqSpec(kind, tuple(_spec_from(i) for i in d["items"]))
    if kind == "dict":
        return DictSpec(tuple((k, _spec_from(v)) for k, v in d["items"]))
    raise ProgramError(f"unknown input kind {kind!r}")


def _out_to(o: Out) -> dict:
    if isinstance(o, OutVar):
        return {"kind": "var", "name": o.name}
    if isinstance(o, OutSeq):
        return {"kind": o.kind, "items": [_out_to(i) for i in o.items]}
    return {"kind": "dict", "items": [[k, _out_to(v)] for k, v in o.items]}


def _out_from(d: dict) -> Out:
    kind = d["kind"]
    if kind == "var":
        return OutVar(d["name"])
    if kind in ("tuple", "list"):
        return OutSeq(kind, tuple(_out_from(i) for i in d["items"]))
    if kind == "dict":
        return OutDict(tuple((k, _out_from(v)) for k, v in d["items"]))
    raise ProgramError(f"unknown output kind {kind!r}")


_CONDS = {"tensor": TensorCond, "kwarg": KwargCond, "shape": ShapeCond, "loopvar": LoopVarCond, "py": PyCond}
_COND_NAMES = {v: k for k, v in _CONDS.items()}


def _cond_to(c: Cond) -> dict:
    return {"kind": _COND_NAMES[type(c)], **c.__dict__}


def _cond_from(d: dict) -> Cond:
    d = dict(d)
    kind = d.pop("kind")
    if kind not in _CONDS:
        raise ProgramError(f"unknown condition kind {kind!r}")
    return _CONDS[kind](**d)


def _stmt_to(s: Stmt) -> dict:
    if isinstance(s, Get):
        return {"kind": "get", "out": s.out, "source": s.source, "path": list(s.path)}
    if isinstance(s, OpStmt):
        return {"kind": "op", "out": s.out, "op": s.op, "args": list(s.args),
                "attrs": {k: v for k, v in s.attrs}, "params": list(s.params)}
    if isinstance(s, If):
        return {"kind": "if", "cond": _cond_to(s.cond), "then": [_stmt_to(x) for x in s.then],
                "else": [_stmt_to(x) for x in s.orelse]}
    if isinstance(s, While):
        return {"kind": "while", "cond": _cond_to(s.cond), "max_iter": s.max_iter, "counter": s.counter,
                "body": [_stmt_to(x) for x in s.body]}
    if isinstance(s, For):
        return {"kind": "for", "var": s.var, "count": s.count, "body": [_stmt_to(x) for x in s.body],
                **({"rows": True} if s.rows else {})}
    if isinstance(s, Break):
        return {"kind": "break"}
    if isinstance(s, Continue):
        return {"kind": "continue"}
    if isinstance(s, PyStmt):
        return {"kind": "py", "out": s.out, "op": s.op, "args": list(s.args), "attrs": {k: v for k, v in s.attrs}}
    if isinstance(s, Grow):
        return {"kind": "grow", "out": s.out, "init": s.init, "piece": s.piece, "dim": s.dim, "reduce": s.reduce,
                "count": s.count, "counter": s.counter, "cond": None if s.cond is None else _cond_to(s.cond)}
    return {"kind": "return", "value": _out_to(s.value)}


def _attr_value(v):
    return tuple(_attr_value(x) for x in v) if isinstance(v, list) else v


def _stmt_from(d: dict) -> Stmt:
    kind = d["kind"]
    if kind == "get":
        return Get(d["out"], d["source"], tuple(d["path"]))
    if kind == "op":
        return OpStmt(d["out"], d["op"], tuple(d["args"]),
                      tuple(sorted((k, _attr_value(v)) for k, v in d.get("attrs", {}).items())),
                      tuple(d.get("params", ())))
    if kind == "if":
        return If(_cond_from(d["cond"]), tuple(_stmt_from(x) for x in d["then"]),
                  tuple(_stmt_from(x) for x in d.get("else", ())))
    if kind == "while":
        cond = _cond_from(d["cond"])
        if not isinstance(cond, TensorCond):
            raise ProgramError("a while condition must be a tensor condition")
        return While(cond, int(d["max_iter"]), d["counter"], tuple(_stmt_from(x) for x in d["body"]))
    if kind == "for":
        return For(d["var"], d["count"], tuple(_stmt_from(x) for x in d["body"]), bool(d.get("rows", False)))
    if kind == "break":
        return Break()
    if kind == "continue":
        return Continue()
    if kind == "return":
        return Return(_out_from(d["value"]))
    if kind == "py":
        return PyStmt(d["out"], d["op"], tuple(d["args"]),
                      tuple(sorted((k, _attr_value(v)) for k, v in d.get("attrs", {}).items())))
    if kind == "grow":
        cond = None if d.get("cond") is None else _cond_from(d["cond"])
        if cond is not None and not isinstance(cond, TensorCond):
            raise ProgramError("a grow loop's condition must be a tensor condition")
        return Grow(d["out"], d["init"], d["piece"], d["dim"], d["reduce"], d["count"], d["counter"], cond)
    raise ProgramError(f"unknown statement kind {kind!r}")


def tensor_names(program: Program) -> list[str]:
    """The flat names of the program's tensor inputs, in ``flatten`` order (``x0``, ``x1.0.k0``)."""
    return [inp.name + "".join(f".{s}" for s in p) for inp in program.inputs for p, _ in spec_leaves(inp.spec)]


def dynamic_axes(program: Program) -> dict:
    """Per flat tensor input name (:func:`tensor_names`), the axes that are dynamic (the IR's ``B``)."""
    return {inp.name + "".join(f".{s}" for s in path): [i for i, d in enumerate(leaf.shape) if d == DYNAMIC]
            for inp in program.inputs for path, leaf in spec_leaves(inp.spec)}


def _random(s) -> bool:
    """Whether a statement draws from the framework's random generator (a dropout with p > 0)."""
    return isinstance(s, OpStmt) and s.op == "dropout" and dict(s.attrs).get("p", 0.0) > 0.0
