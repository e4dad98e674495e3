"""Hypothesis strategies for programs, their inputs, and whole cases.

``programs()`` draws programs that are valid by construction: every op is applied only to arguments
whose types fit its shape rule and whose value range lies in its domain (tracked with interval
arithmetic), so there is no ``log`` of a negative and no overflow, and Hypothesis rarely rejects.
Shrinking gives fewer statements, smaller shapes and simpler control flow: every choice is drawn
so that its simplest value comes first.

    >>> from hypothesis import given
    >>> from conformance.program.strategies import cases
    >>> @given(cases())
    ... def test_something(case): ...
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
from typing import Iterable, Optional

import hypothesis.strategies as st
from hypothesis import assume

from conformance.program.case import Case, InputSet
from conformance.program.coverage import Steering
from conformance.program.edges import EDGE_CONSTRUCTS, EdgeStatements, program_dtype, turned_on
from conformance.program.edges import leaf as edge_leaf
from conformance.program.edges import shape as edge_shape
from conformance.program.effects import EFFECT_CONSTRUCTS, EffectDrawing
from conformance.program.ir import (
    DYNAMIC,
    Break,
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
    OutDict,
    OutSeq,
    OutVar,
    Param,
    Return,
    SeqSpec,
    ShapeCond,
    TensorCond,
    TensorSpec,
    TensorType,
    While,
    out_leaves,
    spec_leaves,
)
from conformance.program.op_drawing import Avoid, OpDrawing
from conformance.program.ops import FLOAT_KWARG_RANGE, MAX_ABS, MAX_BATCH, OPS, Interval
from conformance.program.ops.record import FRAMEWORKS, may_be_empty
from conformance.program.outputs import replace_leaves, use_every_input
from conformance.program.program import Program
from conformance.program.pydrawing import PyValueDrawing
from conformance.program.scope import Scope, Variable, join

#: Constructs the generator can use; pass a subset to ``programs(constructs=...)``.
CONSTRUCTS = ("if_tensor", "if_kwarg", "if_shape", "while_tensor", "for_loop", "break_continue", "early_return",
              "nested_input", "kwargs", "dynamic_dim", "unused_input", "renamed_self", "grow_loop")
#: Python numbers, lists and dicts that cross the control flow (:mod:`~conformance.program.pydrawing`).
PYTHON_VALUE_CONSTRUCTS = ("python_values",)
#: Opt-in constructs, drawn only when named in ``constructs``: ``EDGE_CONSTRUCTS`` (:mod:`~conformance.program.edges`:
#: dtypes, edge values, edge shapes), ``EFFECT_CONSTRUCTS`` (:mod:`~conformance.program.effects`) and
#: ``train_layers``: the ops whose meaning depends on train()/eval() or autograd (dropout, batch norm, detach; see
#: ``OpRecord.train_layer``), as statements of their own, and whether the model is put in ``train()`` before
#: conversion (``Program.training``). Gradient and training-step campaigns use ``CONSTRUCTS + TRAIN_CONSTRUCTS``.
TRAIN_CONSTRUCTS = ("train_layers",)
#: The whole language, drawn by default: :data:`CONSTRUCTS`, Python values, the edge constructs (each on in a share of
#: the programs: ``edges.SHARE``) and the effect families; pass fewer to leave some out (``--constructs=-mutation``).
DEFAULT_CONSTRUCTS = CONSTRUCTS + PYTHON_VALUE_CONSTRUCTS + EDGE_CONSTRUCTS + EFFECT_CONSTRUCTS

#: Value ranges of generated tensor inputs.
INPUT_RANGES = ((-1.0, 1.0), (0.1, 2.0), (-3.0, 3.0))
#: A focus op's fresh input takes the first of these its domain takes (the last, inside (-1, 1): for ``atanh``).
FOCUS_RANGES = INPUT_RANGES + ((-0.5, 0.5),)
#: Ops that bound their output, used for the loop-carried update of ``while``/``for`` bodies.
BOUNDED = ("tanh", "sigmoid", "clamp")
#: The kinds of statement drawn, each as often as it is listed: the construct families' weights, in one place
#: (``docs/concepts/generator.md``). Kinds a program does not allow are left out; one that fits nowhere draws an op.
_STMT_KINDS = ("op", "op", "op", "if_tensor", "if_kwarg", "if_shape", "while_tensor", "for_loop", "grow_loop",
               "python_values", "python_values", "python_values", "python_values", "python_values", "python_values",
               "train_layers", "dtypes", "edge_values", "edge_shapes") + EFFECT_CONSTRUCTS + ("dynamism",)


class _Gen(OpDrawing, EdgeStatements, EffectDrawing, PyValueDrawing):
    def __init__(self, draw, *, max_statements: int, max_depth: int, constructs: frozenset, ops: tuple,
                 steering: Optional[Steering] = None):
        self.draw, self.steering, self.drawn_pairs = draw, steering, {}
        self.max_statements = max_statements
        self.max_depth = max_depth
        self.constructs = constructs
        self.left_out: set = set()  # constructs left out (leave_out)
        self._weigh([OPS[o] for o in ops])
        self.params: list[Param] = []
        self.kwargs: list[Kwarg] = []
        self.counter = 0
        self.loop_counter = 0
        self.recent: list[str] = []  # variables in the order they were last assigned
        # variables an in-place op must not touch: inputs, views, and variables a view was taken of
        # (conservative: by name, for the whole program)
        self.aliased: set[str] = set()
        self.edges: frozenset = frozenset()  # the edge constructs this program uses (conformance.program.edges)
        self.renderable: tuple = ()  # the ops the program's frameworks can all render (for the edge constructs)

    def fresh(self, prefix="v") -> str:
        self.counter += 1
        return f"{prefix}{self.counter - 1}"

    # ------------------------------------------------------------------ signature
    def shape(self, base: Optional[tuple]) -> tuple:
        d = self.draw
        if base is not None and d(st.booleans()) is False:
            return base
        return edge_shape(d, self.edges, "dynamic_dim" in self.constructs, self.steering)

    def leaf(self, base) -> TensorSpec:
        if self.edges:
            return edge_leaf(self.draw, self.edges, self.shape(base), INPUT_RANGES, self.dtype)
        lo, hi = self.draw(st.sampled_from(INPUT_RANGES))
        return TensorSpec(self.shape(base), "float32", lo, hi)

    def spec(self, base):
        d = self.draw
        kinds = ["tensor"] + (["list", "dict", "tuple", "list_of_lists", "dict_of_lists", "tuple_nested"]
                              if "nested_input" in self.constructs else [])
        kind = d(st.sampled_from(kinds))
        n = d(st.integers(1, 3))
        if kind == "tensor":
            return self.leaf(base)
        if kind == "list":
            return SeqSpec("list", tuple(self.leaf(base) for _ in range(n)))
        if kind == "tuple":
            return SeqSpec("tuple", tuple(self.leaf(base) for _ in range(n)))
        if kind == "dict":
            return DictSpec(tuple((f"k{i}", self.leaf(base)) for i in range(n)))
        inner = lambda: SeqSpec("list", tuple(self.leaf(base) for _ in range(d(st.integers(1, 2)))))  # noqa: E731
        if kind == "list_of_lists":
            return SeqSpec("list", tuple(inner() for _ in range(n)))
        if kind == "dict_of_lists":
            return DictSpec(tuple((f"k{i}", inner()) for i in range(n)))
        return SeqSpec("tuple", (self.leaf(base), DictSpec(tuple((f"k{i}", self.leaf(base)) for i in range(n)))))

    def kwarg(self, i: int) -> Kwarg:
        d = self.draw
        kind = d(st.sampled_from(["bool", "int", "float", "str"]))
        if kind == "bool":
            return Kwarg(f"flag{i}", "bool", d(st.booleans()), (True, False))
        if kind == "int":
            choices = tuple(sorted(d(st.sets(st.integers(0, 4), min_size=2, max_size=3))))
            return Kwarg(f"n{i}", "int", d(st.sampled_from(choices)), choices)
        if kind == "float":
            choices = tuple(sorted(d(st.sets(st.sampled_from([0.5, 1.5, -1.0, 2.0]), min_size=2, max_size=3))))
            assert all(FLOAT_KWARG_RANGE[0] <= c <= FLOAT_KWARG_RANGE[1] for c in choices)
            return Kwarg(f"alpha{i}", "float", d(st.sampled_from(choices)), choices)
        choices = ("relu", "tanh", "none")
        return Kwarg(f"mode{i}", "str", d(st.sampled_from(choices)), choices)

    # ------------------------------------------------------------------ statements
    def block(self, scope: Scope, lo: int, hi: int) -> list:
        stmts: list = []
        for _ in range(self.draw(st.integers(lo, hi))):
            stmts.extend(self.statement(scope))
        return stmts

    def statement(self, scope: Scope) -> list:
        kinds = [k for k in _STMT_KINDS if k == "op" or (scope.depth < self.max_depth and k in self.constructs)
                 or (k in ("train_layers",) + EFFECT_CONSTRUCTS and k in self.constructs) or k in self.edges]
        kind = self.draw(st.sampled_from(kinds))
        made = getattr(self, kind)(scope)
        return made if made is not None else self.op(scope)

    def variable(self, t: TensorType, iv: Interval, edge: bool = False) -> Variable:
        """A variable of type ``t`` with values in ``iv`` (``edge``: it may hold edge values), for a scope."""
        return Variable(t, iv, edge)

    def assign(self, scope: Scope, stmt: OpStmt, t: TensorType, iv: Interval, edge: bool = False) -> OpStmt:
        # a result with edge values gets a new variable (a branch joins value ranges, not edge flags)
        targets = [] if edge else [n for n in sorted(scope.env) if scope.may_assign(n, t, iv)]
        name = None
        if targets and self.draw(st.booleans()):
            name = self.draw(st.sampled_from(targets))
        if name is None:
            name = self.fresh()
            scope.local.add(name)
        elif name not in scope.local:
            scope.reassigned.add(name)
        scope.env[name] = Variable(t, iv, edge)
        self.recent.append(name)
        return dataclasses.replace(stmt, out=name)

    def update_outer(self, scope: Scope) -> list:
        """If a branch changed no outer variable, end it with one that does (else the branch is dead)."""
        if scope.reassigned:
            return []
        targets = [n for n in sorted(scope.limits) if scope.env[n].type.dtype == "float32"
                   and scope.limits[n] is None and not scope.env[n].edge]
        if not targets:
            return []
        var = self.draw(st.sampled_from(targets))
        rec = OPS[self.draw(st.sampled_from(("neg", "tanh", "relu", "sigmoid", "mul_scalar", "add_scalar")))]
        t = scope.env[var].type
        attrs = rec.attrs(self.draw, [t]) if rec.attrs else {}
        iv = rec.bound([scope.env[var].iv], attrs, [t])
        scope.reassigned.add(var)
        scope.env[var] = Variable(t, iv)
        self.recent.append(var)
        return [OpStmt(var, rec.name, (var,), tuple(sorted(attrs.items())))]

    def _float_vars(self, scope: Scope) -> list[str]:
        """Float variables a condition or a loop may read (not one with a data-dependent size: it may be empty,
        and a reduction of an empty tensor in a condition fails or is NaN)."""
        return [n for n in sorted(scope.env) if scope.env[n].type.dtype == "float32"
                and not may_be_empty(scope.env[n].type) and not scope.env[n].edge]

    def tensor_cond(self, scope: Scope, var: Optional[str] = None) -> TensorCond:
        d = self.draw
        var = var or d(st.sampled_from(self._float_vars(scope)))
        v = scope.env[var]
        reduce = d(st.sampled_from(["sum", "mean", "amax", "amin"]))
        lo, hi = v.iv
        mid = (lo + hi) / 2
        if reduce == "sum":
            mid *= math.prod(d if isinstance(d, int) else 3 for d in v.type.shape)  # B, data dims: 3
        thr = round(mid + d(st.sampled_from([0.0, 0.25, -0.25])) * (hi - lo), 2)
        return TensorCond(var, reduce, d(st.sampled_from([">", "<"])), thr)

    def kwarg_cond(self, scope: Scope) -> Optional[KwargCond]:
        if not self.kwargs:
            return None
        k = self.draw(st.sampled_from(self.kwargs))
        if k.type == "bool":
            return KwargCond(k.name, self.draw(st.sampled_from(["truth", "not"])))
        if k.type == "str":
            return KwargCond(k.name, "==", self.draw(st.sampled_from(k.choices)))
        return KwargCond(k.name, self.draw(st.sampled_from([">", "<"])), self.draw(st.sampled_from(k.choices)))

    def shape_cond(self, scope: Scope) -> Optional[ShapeCond]:
        dyn = [(n, i) for n in sorted(scope.env) for i, dim in enumerate(scope.env[n].type.shape) if dim == DYNAMIC]
        if not dyn:
            return None
        var, dim = self.draw(st.sampled_from(dyn))
        return ShapeCond(var, dim, self.draw(st.sampled_from([">", "<", "=="])),
                         self.draw(st.integers(2, MAX_BATCH - 1)))

    def _if(self, scope: Scope, cond) -> Optional[list]:
        if cond is None or not self._float_vars(scope):
            return None
        then_s, else_s = scope.child(), scope.child()
        then = self.block(then_s, 1, 3) + self.update_outer(then_s)
        orelse = self.block(else_s, 0, 2)
        for name, var in scope.env.items():  # join the value ranges of reassigned outer variables
            var.iv = join(then_s.env[name].iv, else_s.env[name].iv)
        return [If(cond, tuple(then), tuple(orelse))]

    def if_tensor(self, scope):
        return self._if(scope, self.tensor_cond(scope) if self._float_vars(scope) else None)

    def if_kwarg(self, scope):
        return self._if(scope, self.kwarg_cond(scope))

    def if_shape(self, scope):
        return self._if(scope, self.shape_cond(scope))

    def _loop_body(self, scope: Scope, loop) -> Optional[tuple[str, Scope, list]]:
        """Draw a loop body that updates one carried float variable with a bounded op."""
        d = self.draw
        carried = [n for n in self._float_vars(scope) if n in scope.local or scope.limits.get(n, 0) is None]
        if not carried:
            return None
        var = d(st.sampled_from(carried))
        wrapper = OPS[d(st.sampled_from(BOUNDED))]
        t = scope.env[var].type
        attrs = wrapper.attrs(d, [t]) if wrapper.attrs else {}
        wide = join(scope.env[var].iv, wrapper.bound([(-50.0, 50.0)], attrs, [t]))
        body_scope = scope.child(limits={var: wide}, loop=loop)
        body_scope.env[var].iv = wide
        outer = Scope(dict(body_scope.env), {}, body_scope.depth)  # variables defined before the body
        body = self.block(body_scope, 0, 2)
        if "break_continue" in self.constructs and d(st.booleans()):
            if loop[0] == "for" and d(st.booleans()):
                cond = LoopVarCond(loop[1], d(st.sampled_from(["==", ">"])), d(st.integers(0, 3)))
            else:
                cond = self.tensor_cond(outer)
            body.insert(d(st.integers(0, len(body))), If(cond, (d(st.sampled_from([Break(), Continue()])),)))
        sources = [n for n in sorted(body_scope.env)
                   if body_scope.env[n].type == t and not body_scope.env[n].edge] or [var]
        src = d(st.sampled_from(sources[::-1]))
        body.append(OpStmt(var, wrapper.name, (src,), tuple(sorted(attrs.items()))))
        self.recent.append(var)
        scope.env[var].iv = wide
        return var, body_scope, body

    def while_tensor(self, scope: Scope):
        made = self._loop_body(scope, ("while", None))
        if made is None:
            return None
        var, body_scope, body = made
        counter = f"it{self.loop_counter}"
        self.loop_counter += 1
        cond = self.tensor_cond(body_scope, var)
        return [While(cond, self.draw(st.integers(1, 4)), counter, tuple(body))]

    def for_loop(self, scope: Scope):
        loop_var = f"i{self.loop_counter}"
        self.loop_counter += 1
        ints = [k.name for k in self.kwargs if k.type == "int"]
        count = self.draw(st.sampled_from(ints)) if ints and self.draw(st.booleans()) else self.draw(st.integers(1, 4))
        made = self._loop_body(scope, ("for", loop_var))
        if made is None:
            return None
        return [For(loop_var, count, tuple(made[2]))]

    def grow_loop(self, scope: Scope):
        """A loop that grows a tensor along a static dim (``concat``), then reduces that dim; half of
        them loop ``while`` a condition on the grown tensor holds, so the shape depends on the data."""
        d = self.draw
        dims = [(n, i) for n in self._float_vars(scope) for i, size in enumerate(scope.env[n].type.shape)
                if isinstance(size, int)]
        if not dims:
            return None
        init, dim = d(st.sampled_from(dims))
        t = scope.env[init].type
        piece = d(st.sampled_from([n for n in self._float_vars(scope) if scope.env[n].type == t]))
        ints = [k for k in self.kwargs if k.type == "int"]
        # an int kwarg for the count where there is one, more often than not (how a model's depth is set)
        count = d(st.sampled_from([k.name for k in ints])) if ints and not d(st.booleans()) else d(st.integers(1, 3))
        most = next(k.choices[-1] for k in ints if k.name == count) if isinstance(count, str) else count
        lo, hi = join(scope.env[init].iv, scope.env[piece].iv)
        reduce = d(st.sampled_from(["mean", "sum"]))
        size = t.shape[dim] * (1 + most)
        iv = (lo, hi) if reduce == "mean" else (min(0.0, lo) * size, max(0.0, hi) * size)
        assume(all(math.isfinite(x) and abs(x) <= MAX_ABS for x in iv))
        out = self.fresh()
        cond = None
        if d(st.booleans()):  # data-dependent growth: a condition on the grown tensor itself
            cond = TensorCond(out, d(st.sampled_from(["mean", "amax", "amin"])), d(st.sampled_from([">", "<"])),
                              round((lo + hi) / 2 + d(st.sampled_from([0.0, 0.25, -0.25])) * (hi - lo), 2))
        counter = f"it{self.loop_counter}"
        self.loop_counter += 1
        scope.local.add(out)
        scope.env[out] = Variable(TensorType(t.shape[:dim] + (1,) + t.shape[dim + 1:], t.dtype), iv)
        self.recent.append(out)
        return [Grow(out, init, piece, dim, reduce, count, counter, cond)]

    # ------------------------------------------------------------------ outputs
    def output(self, scope: Scope):
        d = self.draw
        last = {n: i for i, n in enumerate(self.recent)}
        names = sorted(scope.env, key=lambda n: (last.get(n, -1), int(n[1:])), reverse=True)  # most recent first
        py = self.python_outputs(scope)  # Python values (conformance.program.pydrawing): the latest second
        names = names[:1] + py[:1] + names[1:] + py[1:]
        k = d(st.integers(1, min(3, len(names))))
        picked = d(st.lists(st.sampled_from(names), min_size=k, max_size=k, unique=True))
        shape = d(st.sampled_from(["single", "tuple", "dict", "tuple_dict", "list"])) if k > 1 else "single"
        leaves = [OutVar(n) for n in picked]
        if shape == "single":
            return leaves[0] if k == 1 else OutSeq("tuple", tuple(leaves))
        if shape == "tuple":
            return OutSeq("tuple", tuple(leaves))
        if shape == "list":
            return OutSeq("list", tuple(leaves))
        if shape == "dict":
            return OutDict(tuple((f"out{i}", v) for i, v in enumerate(leaves)))
        return OutSeq("tuple", (leaves[0], OutDict(tuple((f"out{i}", v) for i, v in enumerate(leaves[1:])))))


@st.composite
def programs(draw, *, max_statements: int = 6, max_depth: int = 2, constructs: Iterable[str] = DEFAULT_CONSTRUCTS,
             ops: Optional[Iterable[str]] = None, max_inputs: int = 3, max_kwargs: int = 3,
             frameworks: Iterable[str] = FRAMEWORKS, steering: Optional[Steering] = None,
             avoid: Iterable[Avoid] = ()) -> Program:
    """Programs that are valid by construction.

    :param max_statements: top-level statements (each may hold a nested block).
    :param max_depth: nesting depth of control flow.
    :param constructs: the constructs to use (default :data:`DEFAULT_CONSTRUCTS`, the whole language; a subset of
        it, with :data:`TRAIN_CONSTRUCTS` for gradient campaigns).
    :param ops: op names to draw from (default: all of :data:`conformance.program.ops.OPS` that ``frameworks``
        can render).
    :param frameworks: the frameworks the programs are rendered for: ops without an emitter for one of them
        (``OpRecord.missing``) are not drawn (default: every framework, so a program renders anywhere; a
        campaign of one framework passes it alone and gets the ops only it has too).
    :param steering: pairwise coverage to steer by (:class:`~conformance.program.coverage.Steering`; campaigns).
    :param avoid: what not to draw (:class:`Avoid`; campaigns: the known bugs their steering skips everywhere).
    """
    constructs = frozenset(constructs)
    unknown = constructs - set(known := DEFAULT_CONSTRUCTS + TRAIN_CONSTRUCTS)
    if unknown:
        raise ValueError(f"unknown constructs {sorted(unknown)}; known: {', '.join(known)}")
    train = "train_layers" in constructs
    frameworks = tuple(frameworks)
    if ops is None:
        op_names = tuple(o for o, rec in OPS.items() if (train or not rec.train_layer)
                         and (not rec.construct or rec.construct in constructs)
                         and all(fw in rec.emit for fw in frameworks))
    else:
        op_names = tuple(ops)
    for name in op_names:
        if name not in OPS:
            raise ValueError(f"unknown op {name!r}")
    g = _Gen(draw, max_statements=max_statements, max_depth=max_depth, constructs=constructs, ops=op_names,
             steering=steering)
    seed = draw(st.integers(0, 2**31 - 1))
    g.edges = turned_on(draw, constructs)
    g.dtype = program_dtype(draw, g.edges, g.steering)
    g.renderable = tuple(o for o, rec in OPS.items() if all(fw in rec.emit for fw in frameworks))
    g.frameworks = frameworks
    avoid = tuple(avoid)
    g.leave_out(a for a in avoid if not a.zero_size)
    base = g.shape(None)
    inputs = tuple(Input(f"x{i}", g.spec(base)) for i in range(draw(st.integers(1, max_inputs))))
    if "kwargs" in constructs:
        g.kwargs = [g.kwarg(i) for i in range(draw(st.integers(0, max_kwargs)))]
    scope = Scope({}, {}, 0)
    body: list = []
    for inp in inputs:
        for path, leaf in spec_leaves(inp.spec):
            name = g.fresh()
            body.append(Get(name, inp.name, path))
            g.aliased.add(name)
            scope.env[name] = Variable(leaf.type, (leaf.low, leaf.high), bool(leaf.edge))
            scope.local.add(name)
    body.extend(g.input_writes(scope, [s.out for s in body]))  # only with the opt-in "mutation" construct
    body.extend(g.focus_statements(scope, len(inputs), FOCUS_RANGES))  # steering: ops on inputs fit to their pairs
    inputs += g.focus_inputs
    if any(0 in leaf.shape for inp in inputs for _, leaf in spec_leaves(inp.spec)):
        g.leave_out(a for a in avoid if a.zero_size)
    envs = []  # the variables visible before each top-level statement, for early returns
    for _ in range(draw(st.integers(1, max_statements))):
        envs.append((len(body), {n: v.type for n, v in scope.env.items()}))
        body.extend(g.statement(scope))
    output = g.focus_output(g.output(scope), scope)  # with steering: the focus ops' results among the outputs
    if "early_return" in constructs and draw(st.booleans()):
        at, env = draw(st.sampled_from(envs))
        mapping = {}
        for leaf in dict.fromkeys(out_leaves(output)):
            same = [n for n in sorted(env) if leaf in scope.env and env[n] == scope.env[leaf].type]
            if same:
                mapping[leaf] = draw(st.sampled_from(same))
        cond = g.kwarg_cond(scope) if g.kwargs and draw(st.booleans()) else None
        before = Scope({n: scope.env[n] for n in env}, {}, 0)
        if cond is None and g._float_vars(before) and "if_tensor" not in g.left_out:
            cond = g.tensor_cond(before)
        if len(mapping) == len(set(out_leaves(output))) and cond is not None:
            body.insert(at, If(cond, (Return(replace_leaves(output, mapping)),)))
    # users' models mostly use every input; now and then one is unused (a saved static graph drops it)
    # (about one program in ten keeps one; it is also what shrinking goes to: the smaller program)
    if "unused_input" not in constructs or draw(st.integers(0, 31)) > 0:
        body, output = use_every_input(g, inputs, body, output)
    # now and then forward's first parameter is not called self (Paddle's to_static requires self)
    self_name = "this" if "renamed_self" in constructs and draw(st.integers(0, 7)) == 7 else "self"
    training = draw(st.booleans()) if train else False
    return Program(seed, inputs, tuple(g.kwargs), tuple(g.params), tuple(body), output, self_name=self_name,
                   training=training)


@st.composite
def input_sets(draw, program: Program, *, fresh: bool = True) -> tuple[InputSet, ...]:
    """The example input set a path converts with, then fresh ones that test generalisation."""
    dynamic = any(DYNAMIC in leaf.shape for leaf in program.input_leaves())
    seeds = st.integers(0, 2**31 - 1)
    batch = draw(st.integers(2, MAX_BATCH)) if dynamic else 1
    kwargs = tuple(sorted((k.name, draw(st.sampled_from(k.choices))) for k in program.kwargs))
    sets = [InputSet("example", batch, draw(seeds), kwargs)]
    if fresh:
        sets.append(InputSet("values", batch, draw(seeds), kwargs))
        if dynamic:
            sets.append(InputSet("batch", draw(st.sampled_from([b for b in range(2, MAX_BATCH + 1) if b != batch])),
                                 draw(seeds), kwargs))
        if program.kwargs:
            other = tuple(sorted((k.name, draw(st.sampled_from(k.choices))) for k in program.kwargs))
            if other != kwargs:
                sets.append(InputSet("kwargs", batch, draw(seeds), other))
    return tuple(sets)


@st.composite
def cases(draw, *, fresh: bool = True, **program_options) -> Case:
    """A program (see :func:`programs`, which takes the same options) and its input sets."""
    program = draw(programs(**program_options))
    return Case(program, draw(input_sets(program, fresh=fresh)))


@contextlib.contextmanager
def seed_alone():
    """Make Hypothesis's draws depend on the seed alone, not on what the process imported before.

    Hypothesis mixes the literal constants of every *local* module imported so far (ours, a
    ``--load`` module, a rendered model, the test modules of a pytest run) into its draws, so the
    same seed would give other cases after another import: a campaign's seed, or a derandomised CI
    test, whose draws would then depend on which tests its pytest-xdist worker ran before. While the
    context is open, that pool is empty (campaigns draw inside it; the pytest plugin opens it for a
    whole run of a project that loads its profiles). This reaches into Hypothesis's internals
    (``providers._get_local_constants``, pinned by constraints.txt); if they change, it does nothing
    and ``tests/test_campaign.py`` and ``tests/test_ir.py`` notice.
    """
    try:
        from hypothesis.internal.conjecture import providers

        original, cache, empty = providers._get_local_constants, providers.CONSTANTS_CACHE, providers.Constants()
    except (ImportError, AttributeError):
        yield
        return
    providers._get_local_constants = lambda: empty
    cache.cache.clear()
    try:
        yield
    finally:
        providers._get_local_constants = original
        cache.cache.clear()
