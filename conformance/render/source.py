"""Render a program as real Python source for a framework, write it to a file and import it.

TorchScript, Paddle's AST ``to_static`` and TensorFlow's AutoGraph read a model's source, so every
program becomes a readable module file: a ``Model`` class whose weights are made from the program's
seed with numpy (the same values in every framework), and a ``__main__`` that runs the model on an
``.npz`` of inputs. That file is also the heart of a standalone reproducer.

Two variants of each program are rendered:

* ``clean`` — what every conversion path converts, and what a reproducer ships;
* ``probed`` — the same computation with hooks that record each control-flow decision and how far
  each data-dependent predicate (and each comparison or int cast) sits from its threshold. Only the
  eager reference runs it, in fp32 and in fp64 (``float_dtype="float64"``), for the oracle's
  branch-flip guard.

TensorFlow modules also define ``build_graph``: the same model as a TensorFlow 1 graph, with the
functional control flow (``tf.cond``, ``tf.while_loop``) TF1 users wrote by hand, for the
``tf.session`` path (see :class:`_GraphWriter`).
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Optional

from conformance.program.ir import (
    DYNAMIC,
    Break,
    Continue,
    For,
    Get,
    Grow,
    If,
    KwargCond,
    LoopVarCond,
    OpStmt,
    Out,
    OutSeq,
    OutVar,
    ProgramError,
    Return,
    SeqSpec,
    ShapeCond,
    Spec,
    TensorCond,
    TensorSpec,
    While,
    out_leaves,
    walk,
)
from conformance.program.ops import OPS
from conformance.program.program import Program
from conformance.program.typecheck import TypeChecker, op_arg_types


@dataclass(frozen=True)
class Dialect:
    """How one framework spells the parts of a model that are not ops."""

    framework: str
    imports: str
    base_class: str
    param: str  # "{name}", "{value}" (a float32 numpy array expression), "{np_float}" ("float32"/"float64")
    dtypes: Mapping[str, str]
    reduce: Mapping[str, str]
    tensor_type: str
    list_type: str
    dict_type: str
    tuple_type: str
    to_numpy: str  # expression turning a tensor `t` into a numpy array
    from_numpy: str  # expression turning a numpy array `a` into a tensor
    method: str = "forward"  # the method a call of the model runs
    #: the size of dim ``{dim}`` of ``{var}`` in a shape test (TensorFlow: ``tf.shape``, as a traced model
    #: needs for a dim that is None in its input_signature)
    dim_size: str = "{var}.shape[{dim}]"
    #: first statement of a while loop whose variable ``{var}`` changes shape across iterations (TensorFlow:
    #: the shape invariant AutoGraph needs to make it a tf.while_loop); empty: none needed
    loop_shape_invariant: str = ""
    buffer: str = ""  # like ``param``, for state that is not trained (Param.trainable False)
    #: set in ``__init__`` of a model whose ops read ``self.training``, where the base class has no such flag
    training_init: str = ""
    #: the module also defines ``build_graph``, the model as a TensorFlow 1 graph (:class:`_GraphWriter`)
    graph_builder: bool = False


TORCH = Dialect(
    framework="torch",
    imports="from typing import Dict, List, Tuple\n\nimport numpy as np\nimport torch\nimport torch.nn.functional as F\n",
    base_class="torch.nn.Module",
    param="self.{name} = torch.nn.Parameter(torch.from_numpy({value}))",
    dtypes={"float32": "torch.float32", "float64": "torch.float64"},
    reduce={"sum": "{0}.sum()", "mean": "{0}.mean()", "amax": "{0}.amax()", "amin": "{0}.amin()"},
    tensor_type="torch.Tensor",
    list_type="List[{0}]",
    dict_type="Dict[str, {0}]",
    tuple_type="Tuple[{0}]",
    to_numpy="{t}.detach().cpu().double().numpy().copy()",  # double: exact, and numpy has no bfloat16
    from_numpy="torch.from_numpy({a})",
    buffer="self.register_buffer({name!r}, torch.from_numpy({value}))",
)

PADDLE = Dialect(
    framework="paddle",
    imports="from typing import Dict, List, Tuple\n\nimport numpy as np\nimport paddle\nimport paddle.nn.functional as F\n",
    base_class="paddle.nn.Layer",
    param="self.{name} = self.create_parameter({value}.shape, dtype={np_float!r}, "
          "default_initializer=paddle.nn.initializer.Assign({value}.astype({np_float!r})))",
    dtypes={"float32": "paddle.float32", "float64": "paddle.float64"},
    reduce={"sum": "{0}.sum()", "mean": "{0}.mean()", "amax": "{0}.max()", "amin": "{0}.min()"},
    tensor_type="paddle.Tensor",
    list_type="List[{0}]",
    dict_type="Dict[str, {0}]",
    tuple_type="Tuple[{0}]",
    to_numpy="{t}.numpy().copy()",
    from_numpy="paddle.to_tensor({a})",
    buffer="self.register_buffer({name!r}, paddle.to_tensor({value}.astype({np_float!r})))",
)

TF = Dialect(
    framework="tf",
    imports="from typing import Dict, List, Tuple\n\nimport numpy as np\nimport tensorflow as tf\n",
    base_class="tf.Module",
    param="self.{name} = tf.Variable({value}.astype({np_float!r}), name={name!r})",
    dtypes={"float32": "tf.float32", "float64": "tf.float64"},
    reduce={"sum": "tf.reduce_sum({0})", "mean": "tf.reduce_mean({0})", "amax": "tf.reduce_max({0})",
            "amin": "tf.reduce_min({0})"},
    tensor_type="tf.Tensor",
    list_type="List[{0}]",
    dict_type="Dict[str, {0}]",
    tuple_type="Tuple[{0}]",
    to_numpy="np.array({t}).copy()",
    from_numpy="tf.constant({a})",
    method="__call__",
    dim_size="tf.shape({var})[{dim}]",
    loop_shape_invariant="tf.autograph.experimental.set_loop_options(shape_invariants=[({var}, "
                         "tf.TensorShape([None] * len({var}.shape)))])",
    buffer="self.{name} = tf.Variable({value}.astype({np_float!r}), name={name!r}, trainable=False)",
    training_init="self.training = False  # train()/eval() of torch and paddle: set before conversion",
    graph_builder=True,
)

DIALECTS = {"torch": TORCH, "paddle": PADDLE, "tf": TF}

_PROBES = '''
# -- probes: record control-flow decisions and distances to thresholds (eager reference only) --
PROBES = []
FORCE = None  # a list of (probe id, decision): replay these decisions instead of computing them


def _to_np(t):
    return {to_numpy}


def _forced(k, value):
    if FORCE is None:
        return bool(value)
    if not FORCE or FORCE[0][0] != k:
        raise RuntimeError(f"cannot replay decision {{k}}: the forced path has {{FORCE[:1]}}")
    return FORCE.pop(0)[1]


def _cond(k, lhs, rhs, cmp):
    value = lhs > rhs if cmp == ">" else lhs < rhs
    PROBES.append(("cond", k, (_to_np(lhs), rhs), bool(value)))
    return _forced(k, value)


def _decide(k, value):
    PROBES.append(("static", k, None, bool(value)))
    return _forced(k, value)


def _watch(k, kind, a, b=None):
    PROBES.append((kind, k, _to_np(a) if b is None else (_to_np(a), _to_np(b)), None))
'''

_LOADERS = '''

def load_inputs(path):
    """Inputs saved by conformance: (args, kwargs) from an .npz whose keys are leaf paths."""
    data = np.load(path)
    kwargs = json.loads(str(data["__kwargs__"]))
    args = []
    for name in ARG_NAMES:
        leaves = {{k: data[k] for k in data.files if k == name or k.startswith(name + ".")}}
        args.append(_nest(leaves, name, SIGNATURE[name]))
    return args, kwargs


def _nest(leaves, prefix, shape):
    if shape == "tensor":
        return {from_numpy_leaf}
    kind, keys = shape
    items = [_nest(leaves, f"{{prefix}}.{{k}}", sub) for k, sub in keys]
    if kind == "dict":
        return dict(zip([k for k, _ in keys], items))
    return items if kind == "list" else tuple(items)
'''

_ENTRY = '''
if __name__ == "__main__":
    args, kwargs = load_inputs(sys.argv[1] if len(sys.argv) > 1 else "inputs.npz")
    print(Model()(*args, **kwargs))
'''


def _annotation(spec: Spec, d: Dialect) -> str:
    if isinstance(spec, TensorSpec):
        return d.tensor_type
    if isinstance(spec, SeqSpec):
        if spec.kind == "list":
            return d.list_type.format(_annotation(spec.items[0], d))
        return d.tuple_type.format(", ".join(_annotation(i, d) for i in spec.items))
    return d.dict_type.format(_annotation(spec.items[0][1], d))


def _signature(spec: Spec):
    if isinstance(spec, TensorSpec):
        return "tensor"
    if isinstance(spec, SeqSpec):
        return (spec.kind, [(i, _signature(s)) for i, s in enumerate(spec.items)])
    return ("dict", [(k, _signature(s)) for k, s in spec.items])


class _Writer:
    def __init__(self, program: Program, d: Dialect, probed: bool, float_dtype: str):
        self.p = program
        self.d = d
        self.probed = probed
        self.float = d.dtypes[float_dtype]
        self.np_float = float_dtype
        self.arg_types = op_arg_types(program)
        self.lines: list[str] = []
        self.n_probes = 0
        self.owner = program.self_name  # what the weights are attributes of (``self.w0``)

    def probe_id(self) -> int:
        self.n_probes += 1
        return self.n_probes - 1

    def emit(self, depth: int, text: str) -> None:
        self.lines.append("    " * depth + text)

    def out(self, o: Out) -> str:
        if isinstance(o, OutVar):
            return o.name
        if isinstance(o, OutSeq):
            items = [self.out(i) for i in o.items]
            if o.kind == "list":
                return "[" + ", ".join(items) + "]"
            return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
        return "{" + ", ".join(f"{k!r}: {self.out(v)}" for k, v in o.items) + "}"

    def op_expr(self, s: OpStmt) -> str:
        rec = OPS[s.op]
        tpl = rec.emit.get(self.d.framework)
        if tpl is None:
            raise ProgramError(f"op {s.op!r} has no {self.d.framework} emitter yet")
        attrs = s.attr
        fields = dict(attrs, float=self.float, **{f"p{i}": f"{self.owner}.{q}" for i, q in enumerate(s.params)})
        if "dim" in attrs:
            fields["index_prefix"] = ":, " * attrs["dim"]
        if "shape" in attrs:
            fields["shape_args"] = ", ".join(map(str, attrs["shape"]))
        if "dims" in attrs:  # a swap of two dims as a full permutation
            perm = list(range(self.arg_types[id(s)][0].rank))
            d0, d1 = attrs["dims"]
            perm[d0], perm[d1] = perm[d1], perm[d0]
            fields["perm"] = perm
        expr = tpl.format(*s.args, **fields)
        # an emitter that reads the module itself (``self.training``) names it as forward's first parameter
        return expr if self.owner == "self" else re.sub(r"\bself\.", self.owner + ".", expr)

    def cond(self, c) -> str:
        if isinstance(c, TensorCond):
            lhs = self.d.reduce[c.reduce].format(c.var)
            if self.probed:
                return f"_cond({self.probe_id()}, {lhs}, {c.value!r}, {c.cmp!r})"
            return f"{lhs} {c.cmp} {c.value!r}"
        if isinstance(c, KwargCond):
            text = {"truth": c.name, "not": f"not {c.name}"}.get(c.cmp) or f"{c.name} {c.cmp} {c.value!r}"
        elif isinstance(c, ShapeCond):
            text = f"{self.d.dim_size.format(var=c.var, dim=c.dim)} {c.cmp} {c.value!r}"
        else:
            text = f"{c.var} {c.cmp} {c.value!r}"
        return f"_decide({self.probe_id()}, {text})" if self.probed else text

    def block(self, stmts, depth: int) -> None:
        if not stmts:
            self.emit(depth, "pass")
        for s in stmts:
            self.stmt(s, depth)

    def stmt(self, s, depth: int) -> None:
        if isinstance(s, Get):
            self.emit(depth, s.out + " = " + s.source + "".join(f"[{step!r}]" for step in s.path))
        elif isinstance(s, OpStmt):
            rec = OPS[s.op]
            if self.probed and rec.probe:
                args = ", ".join(s.args[:2] if rec.probe == "cmp" else s.args[:1])
                self.emit(depth, f"_watch({self.probe_id()}, {rec.probe!r}, {args})")
            self.emit(depth, f"{s.out} = {self.op_expr(s)}")
        elif isinstance(s, If):
            self.emit(depth, f"if {self.cond(s.cond)}:")
            self.block(s.then, depth + 1)
            if s.orelse:
                self.emit(depth, "else:")
                self.block(s.orelse, depth + 1)
        elif isinstance(s, While):
            self.emit(depth, f"{s.counter} = 0")
            self.emit(depth, f"while {s.counter} < {s.max_iter} and {self.cond(s.cond)}:")
            self.emit(depth + 1, f"{s.counter} += 1")
            self.block(s.body, depth + 1)
        elif isinstance(s, For):
            self.emit(depth, f"for {s.var} in range({s.count}):")
            self.block(s.body, depth + 1)
        elif isinstance(s, Grow):
            self.emit(depth, f"{s.out} = {s.init}")
            if s.cond is None:
                self.emit(depth, f"for {s.counter} in range({s.count}):")
            else:
                self.emit(depth, f"{s.counter} = 0")
                self.emit(depth, f"while {s.counter} < {s.count} and {self.cond(s.cond)}:")
                if self.d.loop_shape_invariant:
                    self.emit(depth + 1, self.d.loop_shape_invariant.format(var=s.out))
                self.emit(depth + 1, f"{s.counter} += 1")
            self.emit(depth + 1, f"{s.out} = " + self.op_expr(OpStmt(s.out, "concat", (s.out, s.piece), (("dim", s.dim),))))
            self.emit(depth, f"{s.out} = " + self.op_expr(OpStmt(s.out, s.reduce, (s.out,),
                                                                 (("dim", s.dim), ("keepdim", True)))))
        elif isinstance(s, Break):
            self.emit(depth, "break")
        elif isinstance(s, Continue):
            self.emit(depth, "continue")
        elif isinstance(s, Return):
            self.emit(depth, f"return {self.out(s.value)}")

    def source(self) -> str:
        p, d = self.p, self.d
        variant = "probed " if self.probed else ""
        doc = (f'"""A {variant}{d.framework} model generated by conformance from program {p.id} (seed {p.seed}).\n\n'
               f"Run it on saved inputs with: python {{this file}} inputs.npz\n\"\"\"\n")
        lines = [doc, "import json", "import sys", d.imports, f"SEED = {p.seed}",
                 f"ARG_NAMES = {[i.name for i in p.inputs]!r}",
                 f"SIGNATURE = {dict((i.name, _signature(i.spec)) for i in p.inputs)!r}", "", "",
                 "def _weight(index, shape, scale):",
                 '    """Weight number `index`: uniform in [-scale, scale], the same values in every framework."""',
                 "    rng = np.random.default_rng([SEED, 0, index])",
                 "    return rng.uniform(-scale, scale, size=shape).astype(np.float32)", ""]
        used = [OPS[s.op] for s in p.walk() if isinstance(s, OpStmt)]
        lines += list(dict.fromkeys(rec.helpers[d.framework] for rec in used if d.framework in rec.helpers))
        if self.probed:
            lines.append(_PROBES.format(to_numpy=d.to_numpy.format(t="t")))
        lines += ["", f"class Model({d.base_class}):", "    def __init__(self):", "        super().__init__()"]
        if d.training_init and any(rec.train_layer for rec in used):
            lines.append("        " + d.training_init)
        for i, q in enumerate(p.params):
            value = f"_weight({i}, {q.shape!r}, {q.scale!r})" + (f" + np.float32({q.offset!r})" if q.offset else "")
            template = d.param if q.trainable else d.buffer
            lines.append("        " + template.format(name=q.name, value=f"({value})" if q.offset else value,
                                                      np_float=self.np_float))
        args = [p.self_name] + [f"{i.name}: {_annotation(i.spec, d)}" for i in p.inputs]
        args += [f"{k.name}: {k.type} = {k.default!r}" for k in p.kwargs]
        lines += ["", f"    def {d.method}({', '.join(args)}):"]
        self.lines = []
        self.block(p.body, 2)
        self.emit(2, f"return {self.out(p.output)}")
        lines += self.lines
        lines.append(_LOADERS.format(from_numpy_leaf=d.from_numpy.format(a="leaves[prefix]")))
        if d.graph_builder and not self.probed:
            lines.append(_GraphWriter(p, d, self.np_float).source())
        lines.append(_ENTRY)
        return "\n".join(lines)


def _reads(stmts) -> set:
    """The variables that statements read, anywhere inside them (a conservative liveness: read later is live)."""
    found: set = set()
    for s in walk(stmts):
        if isinstance(s, OpStmt):
            found.update(s.args)
        elif isinstance(s, Grow):
            found.update((s.init, s.piece))
        elif isinstance(s, Return):
            found.update(out_leaves(s.value))
        if isinstance(s, (If, While)) and isinstance(s.cond, (TensorCond, ShapeCond)):
            found.add(s.cond.var)
    return found


def _assigns(stmts) -> set:
    """The variables that statements assign, anywhere inside them."""
    return {s.out for s in walk(stmts) if isinstance(s, (Get, OpStmt, Grow))}


class _Unsupported(Exception):
    """A construct ``build_graph`` does not express: the module's ``build_graph`` raises with this reason."""


@dataclass(frozen=True)
class _Loop:
    """A loop being rendered: a Python ``for`` unrolled when the graph is built (``graph`` False), or a
    ``tf.while_loop`` whose loop variables are the int32 counter ``var``, the ``carried`` tensors and, with
    ``flag``, the bool ``_broke`` that a ``break`` sets."""

    graph: bool
    var: str
    carried: tuple = ()
    flag: bool = False
    next_counter: str = ""  # the counter where an iteration ends

    def variables(self) -> str:
        return ", ".join([self.var, *self.carried] + (["_broke"] if self.flag else []))

    def end(self, broke: bool = False) -> str:
        """The body's ``return`` where an iteration ends (after a ``break`` with ``broke``)."""
        return "return " + ", ".join([self.next_counter, *self.carried] + ([f"tf.constant({broke})"] if self.flag else []))


class _GraphWriter(_Writer):
    """``build_graph(model, *inputs, **kwargs)``: the program as a TensorFlow 1 graph, built on placeholders.

    Control flow is written the way TF1 users wrote it by hand. A decision known when the graph is built (a
    keyword argument, a static dim, the index of a Python loop) is a Python ``if``, and a ``for`` over
    ``range`` is a Python loop, unrolled. A decision on a tensor is ``tf.cond``, its branches functions that
    take and return the variables they assign (those used later); a ``while`` on a tensor is ``tf.while_loop``
    with an int32 counter for its bound, the variables it assigns (those used later) as loop variables, and
    ``shape_invariants`` for a tensor that grows. ``break`` and ``continue`` under a tensor condition are
    expressed as AutoGraph does: the loop becomes a ``tf.while_loop`` (a ``for`` too), a ``break`` sets a
    ``_broke`` flag among the loop variables that its condition reads, and the rest of the body after such an
    ``if`` becomes a function (a continuation) its branches call where they do not leave the iteration. An
    early ``return`` under a tensor condition puts the rest of the model into a continuation the same way, so
    ``tf.cond`` returns the model's outputs. A ``return`` inside a loop that runs as a ``tf.while_loop`` is not
    expressed: that ``build_graph`` raises ``NotImplementedError`` with the reason.
    """

    def __init__(self, program: Program, d: Dialect, float_dtype: str):
        super().__init__(program, d, False, float_dtype)
        self.owner = "model"
        self.checker = TypeChecker(program)
        self.env: dict = {}  # the variables defined here, with their types
        self.loops: list[_Loop] = []  # the loops around here, innermost last
        self.n_functions = 0

    def source(self) -> str:
        p, d = self.p, self.d
        args = ["model"] + [f"{i.name}: {_annotation(i.spec, d)}" for i in p.inputs]
        args += [f"{k.name}: {k.type} = {k.default!r}" for k in p.kwargs]
        head = ["", f"def build_graph({', '.join(args)}):",
                '    """This model as a TensorFlow 1 graph (what conformance\'s tf.session path runs): call it on',
                "    tf.compat.v1.placeholders in a tf.Graph, with a Model made in that graph (its tf.Variables), and run",
                "    the outputs in a tf.compat.v1.Session. Control flow on tensors is tf.cond and tf.while_loop; Python",
                '    if and for only where the decision is known when the graph is built."""']
        try:
            self.seq(p.body, 1, set(out_leaves(p.output)), f"return {self.out(p.output)}")
        except _Unsupported as e:
            self.lines = ["    raise NotImplementedError(" + repr(f"build_graph: {e}") + ")"]
        return "\n".join(head + self.lines) + "\n"

    def function_name(self, prefix: str) -> str:
        self.n_functions += 1
        return f"{prefix}_{self.n_functions}"

    def tensor_cond(self, c) -> bool:
        """Whether ``c`` is decided by a tensor when the graph runs, rather than in Python when it is built
        (a shape test on a variable not defined here yet counts as a tensor one: where this decides how
        control flow is expressed, that is always correct)."""
        if isinstance(c, ShapeCond):
            return c.var not in self.env or self.env[c.var].shape[c.dim] == DYNAMIC
        if isinstance(c, LoopVarCond):
            return any(loop.graph and loop.var == c.var for loop in self.loops)
        return isinstance(c, TensorCond)

    def cond(self, c) -> str:
        if isinstance(c, ShapeCond) and not self.tensor_cond(c):
            return f"{c.var}.shape[{c.dim}] {c.cmp} {c.value!r}"
        if isinstance(c, (ShapeCond, LoopVarCond)) and self.tensor_cond(c):
            lhs = f"tf.shape({c.var})[{c.dim}]" if isinstance(c, ShapeCond) else c.var
            # (Tensor == is Python identity in a TF1 graph)
            return f"tf.equal({lhs}, {c.value!r})" if c.cmp == "==" else f"{lhs} {c.cmp} {c.value!r}"
        return super().cond(c)

    def escapes(self, stmts, under: bool = False, depth: int = 0) -> set:
        """``(kind, under a tensor condition)`` of the ``break``, ``continue`` and ``return`` statements that leave
        ``stmts`` (a ``break`` or ``continue`` inside a loop of their own stays in it)."""
        found = set()
        for s in stmts:
            if isinstance(s, (Break, Continue)) and depth == 0:
                found.add((type(s).__name__.lower(), under))
            elif isinstance(s, Return):
                found.add(("return", under))
            elif isinstance(s, If):
                inner = under or self.tensor_cond(s.cond)
                found |= self.escapes(s.then, inner, depth) | self.escapes(s.orelse, inner, depth)
            elif isinstance(s, (While, For)):
                found |= self.escapes(s.body, under, depth + 1)
        return found

    def seq(self, stmts, depth: int, after: set, tail: Optional[str] = None) -> None:
        """Emit a block; ``after``: the variables read after it; ``tail``: the ``return`` that ends the function
        it is the rest of (None: the block falls through into the code around it)."""
        start, saved = len(self.lines), dict(self.env)
        for i, s in enumerate(stmts):
            live = _reads(stmts[i + 1:]) | after
            if isinstance(s, If) and any(under for _, under in self.escapes([s])):
                self.split(s, stmts[i + 1:], depth, live, after, tail)
                break
            self.statement(s, depth, live)
            if isinstance(s, (Break, Continue, Return)):
                break  # what follows is never reached
        else:
            if tail:
                self.emit(depth, tail)
        if all(line.lstrip().startswith("#") for line in self.lines[start:]):
            self.emit(depth, "pass")
        self.env = saved

    def function(self, prefix: str, params: list, body, depth: int, after: set, tail: str) -> str:
        name = self.function_name(prefix)
        self.emit(depth, f"def {name}({', '.join(params)}):")
        self.seq(body, depth + 1, after, tail)
        return name

    def branches(self, s: If, params: list, depth: int, after: set, tail: str) -> str:
        """Define the two branches of a ``tf.cond`` on ``s``; the call."""
        names = [self.function(prefix, params, body, depth, after, tail)
                 for prefix, body in (("_then", s.then), ("_else", s.orelse))]
        call = [f"lambda: {n}({', '.join(params)})" if params else n for n in names]
        return f"tf.cond({self.cond(s.cond)}, {call[0]}, {call[1]})"

    def split(self, s: If, rest, depth: int, live: set, after: set, tail: Optional[str]) -> None:
        """An ``if`` that leaves the loop iteration or the model under a tensor condition: ``rest`` becomes a
        continuation that the branches call where they fall through, and the function returns what they return."""
        assert tail is not None, "a break, continue or return under a tensor condition outside a function frame"
        if rest:
            params = [v for v in self.env if v in live and v in _assigns([s, *rest])]
            name = self.function("_rest", params, rest, depth, after, tail)
            tail = f"return {name}({', '.join(params)})"
        if self.tensor_cond(s.cond):
            params = [v for v in self.env if v in _assigns(s.then + s.orelse)]
            self.emit(depth, "return " + self.branches(s, params, depth, live, tail))
            return
        self.emit(depth, f"if {self.cond(s.cond)}:")
        self.seq(s.then, depth + 1, live, tail)
        self.emit(depth, "else:")
        self.seq(s.orelse, depth + 1, live, tail)

    def statement(self, s, depth: int, live: set) -> None:
        if isinstance(s, (Get, OpStmt)) or (isinstance(s, Grow) and s.cond is None):
            super().stmt(s, depth)
            self.checker.stmt(s, self.env, (), "build_graph")
        elif isinstance(s, Grow):
            self.grow(s, depth)
            self.checker.stmt(s, self.env, (), "build_graph")
        elif isinstance(s, If) and self.tensor_cond(s.cond):
            params = [v for v in self.env if v in _assigns(s.then + s.orelse)]
            results = [v for v in params if v in live]
            if not results:
                self.emit(depth, f"# (an if on {self.cond(s.cond)} assigns nothing used after it: no tf.cond)")
                return
            call = self.branches(s, params, depth, live, f"return {', '.join(results)}")
            self.emit(depth, f"{', '.join(results)} = {call}")
        elif isinstance(s, If):
            self.emit(depth, f"if {self.cond(s.cond)}:")
            self.seq(s.then, depth + 1, live)
            if s.orelse:
                self.emit(depth, "else:")
                self.seq(s.orelse, depth + 1, live)
        elif isinstance(s, (While, For)):
            self.loop(s, depth, live)
        elif isinstance(s, (Break, Continue)):
            loop = self.loops[-1]
            self.emit(depth, loop.end(isinstance(s, Break)) if loop.graph else type(s).__name__.lower())
        elif isinstance(s, Return):
            if any(loop.graph for loop in self.loops):
                raise _Unsupported("a return inside a loop that runs as a tf.while_loop (a while on a tensor, or a "
                                   "for with a break, continue or return under a tensor condition) is not expressed "
                                   "in this TF1 graph")
            self.emit(depth, f"return {self.out(s.value)}")

    def loop(self, s, depth: int, live: set) -> None:
        after = live | _reads([s])  # what a loop variable may be read by: the code after, or the next iteration
        if isinstance(s, For) and not any(under for _, under in self.escapes(s.body)):
            self.loops.append(_Loop(False, s.var))
            self.emit(depth, f"for {s.var} in range({s.count}):")
            self.seq(s.body, depth + 1, after)
            self.loops.pop()
            return
        carried = tuple(v for v in self.env if v in _assigns(s.body) and v in after)
        if not carried:
            self.emit(depth, "# (a loop that assigns nothing used after it: no tf.while_loop)")
            return
        flag = any(kind == "break" for kind, _ in self.escapes(s.body))
        if isinstance(s, For):
            loop = _Loop(True, s.var, carried, flag, f"{s.var} + 1")
            test, first = f"{s.var} < {s.count}", []
        else:
            loop = _Loop(True, s.counter, carried, flag, s.counter)
            test, first = f"tf.logical_and({s.counter} < {s.max_iter}, {self.cond(s.cond)})", [(s.counter, f"{s.counter} + 1")]
        if flag:
            test = f"tf.logical_and(tf.logical_not(_broke), {test})"
        self.loops.append(loop)
        self.while_loop(loop, test, first, s.body, after, depth, [*carried, *(["tf.constant(False)"] if flag else [])])
        self.loops.pop()

    def while_loop(self, loop: _Loop, test: str, first: list, body, after: set, depth: int, inits: list,
                   invariants: str = "") -> None:
        """``tf.while_loop`` over ``loop``'s variables (the counter starts at 0); ``first``: ``(variable, value)``
        assignments that start each iteration."""
        variables = loop.variables()
        name = self.function_name("_cond")
        self.emit(depth, f"def {name}({variables}):")
        self.emit(depth + 1, f"return {test}")
        body_name = self.function_name("_body")
        self.emit(depth, f"def {body_name}({variables}):")
        for var, value in first:
            self.emit(depth + 1, f"{var} = {value}")
        self.seq(body, depth + 1, after, loop.end())
        self.emit(depth, f"{variables} = tf.while_loop({name}, {body_name}, ({', '.join(['tf.constant(0)', *inits])})"
                         f"{invariants})")

    def grow(self, s: Grow, depth: int) -> None:
        """A grow loop on a tensor condition: a ``tf.while_loop`` whose shape invariant lets the tensor grow."""
        shape = [None if i == s.dim or n == DYNAMIC else n for i, n in enumerate(self.env[s.init].shape)]
        loop = _Loop(True, s.counter, (s.out,), False, s.counter)
        test = f"tf.logical_and({s.counter} < {s.count}, {self.cond(s.cond)})"
        concat = self.op_expr(OpStmt(s.out, "concat", (s.out, s.piece), (("dim", s.dim),)))
        self.while_loop(loop, test, [(s.counter, f"{s.counter} + 1"), (s.out, concat)], (), set(), depth, [s.init],
                        f", shape_invariants=(tf.TensorShape([]), tf.TensorShape({shape!r}))")
        self.emit(depth, f"{s.out} = " + self.op_expr(OpStmt(s.out, s.reduce, (s.out,), (("dim", s.dim), ("keepdim", True)))))


def render(program: Program, framework: str = "torch", *, probed: bool = False,
           float_dtype: str = "float32") -> str:
    """The Python source of ``program`` as a ``Model`` class of ``framework``."""
    if framework not in DIALECTS:
        raise ProgramError(f"no renderer for framework {framework!r}; have {', '.join(DIALECTS)}")
    return _Writer(program, DIALECTS[framework], probed, float_dtype).source()


def cache_dir() -> Path:
    """Where rendered models are written: ``$CONFORMANCE_CACHE`` or a per-user temp folder."""
    root = os.environ.get("CONFORMANCE_CACHE") or os.path.join(tempfile.gettempdir(), f"conformance-{os.getuid()}")
    return Path(root)


def load_source(source: str, path: Path, module_name: str):
    """Write ``source`` to ``path`` (a real file, as TorchScript and AutoGraph need) and import it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text() != source:
        tmp = path.with_suffix(f".tmp{os.getpid()}")
        tmp.write_text(source)
        os.replace(tmp, path)
    if module_name in sys.modules:
        return sys.modules[module_name]
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module


def load_model_module(program: Program, framework: str = "torch", *, probed: bool = False,
                      float_dtype: str = "float32"):
    """Render, write and import one variant of ``program``; returns the module (with ``Model``)."""
    variant = "model" if not probed else f"probed_{float_dtype}"
    path = cache_dir() / framework / program.id / f"{variant}.py"
    name = f"conformance_model_{framework}_{program.id}_{variant}"
    return load_source(render(program, framework, probed=probed, float_dtype=float_dtype), path, name)
