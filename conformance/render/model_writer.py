"""The Python module of a program: weights made from the seed, the ``Model`` class, input loaders, ``__main__``.

The probed variant also records each control-flow decision and how far each data-dependent predicate (and
each comparison or int cast) sits from its threshold, for the oracle's branch-flip guard.
"""

from __future__ import annotations

import math
import re

from conformance.program.dtypes import is_float
from conformance.program.ir import (
    INT,
    Break,
    Continue,
    For,
    Get,
    Grow,
    If,
    KwargCond,
    OpStmt,
    Out,
    OutSeq,
    OutVar,
    ProgramError,
    PyCond,
    PyStmt,
    Return,
    SeqSpec,
    ShapeCond,
    Spec,
    TensorCond,
    TensorSpec,
    While,
)
from conformance.program.ops import OPS
from conformance.program.ops.effects import flag_number
from conformance.program.program import Program
from conformance.program.pyops import PYOPS, arrays
from conformance.program.typecheck import op_arg_types
from conformance.render.dialects import Dialect

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


def _number(v):
    return float(v) if isinstance(v, (bool, int, float)) else float(_to_np(v))


def _pcond(k, lhs, rhs, cmp):
    lhs = _number(lhs)  # a TensorFlow int is an int32 tensor, which no float compares with
    value = lhs > rhs if cmp == ">" else lhs < rhs if cmp == "<" else lhs == rhs
    PROBES.append(("cond", k, (lhs, rhs), bool(value)))
    return _forced(k, value)


def _counted(k, n, rows=False):
    """range(n), or the rows of tensor n; each iteration a decision (and the end one): a trip count the data
    decides."""
    for i in (n if rows else range(int(n))):
        if not _decide(k, True):
            return
        yield i
    _decide(k, False)
'''

_LOADERS = '''

def load_inputs(path, device="cpu"):
    """Inputs saved by conformance: (args, kwargs) from an .npz whose keys are leaf paths, tensors on device."""
    data = np.load(path)
    kwargs = json.loads(str(data["__kwargs__"]))
    args = []
    for name in ARG_NAMES:
        leaves = {{k: data[k] for k in data.files if k == name or k.startswith(name + ".")}}
        args.append(_nest(leaves, name, SIGNATURE[name], device))
    return args, kwargs


def _nest(leaves, prefix, shape, device):
    if shape == "tensor":
        return {from_numpy_leaf}
    kind, keys = shape
    items = [_nest(leaves, f"{{prefix}}.{{k}}", sub, device) for k, sub in keys]
    if kind == "dict":
        return dict(zip([k for k, _ in keys], items))
    return items if kind == "list" else tuple(items)
'''

_ENTRY = '''
if __name__ == "__main__":
    args, kwargs = load_inputs(sys.argv[1] if len(sys.argv) > 1 else "inputs.npz")
    print(Model()(*args, **kwargs))
'''


def annotation(spec: Spec, d: Dialect) -> str:
    if isinstance(spec, TensorSpec):
        return d.tensor_type
    if isinstance(spec, SeqSpec):
        if spec.kind == "list":
            return d.list_type.format(annotation(spec.items[0], d))
        return d.tuple_type.format(", ".join(annotation(i, d) for i in spec.items))
    return d.dict_type.format(annotation(spec.items[0][1], d))


def _signature(spec: Spec):
    if isinstance(spec, TensorSpec):
        return "tensor"
    if isinstance(spec, SeqSpec):
        return (spec.kind, [(i, _signature(s)) for i, s in enumerate(spec.items)])
    return ("dict", [(k, _signature(s)) for k, s in spec.items])


class ModelWriter:
    """Writes the ``Model`` module of a program for one dialect (clean or probed)."""


    def __init__(self, program: Program, d: Dialect, probed: bool, float_dtype: str):
        self.p = program
        self.d = d
        self.probed = probed
        self.float = d.dtypes[float_dtype]
        self.np_float = float_dtype
        # how an op's ``dtype`` attribute is spelled: every float is float64 in the fp64 reference
        self.spell = {t: d.dtypes[float_dtype if t == "float32" or (is_float(t) and float_dtype == "float64") else t]
                      for t in d.dtypes}
        self.arg_types = op_arg_types(program)
        self.lines: list[str] = []
        self.n_probes = 0
        self.owner = program.self_name  # what the weights are attributes of (``self.w0``)
        self.arrays = arrays(program, d.framework)  # lists that are the framework's tensor arrays
        self.kwarg_names = {k.name for k in program.kwargs}

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
            why = rec.missing.get(self.d.framework, "not written yet")
            raise ProgramError(f"op {s.op!r} has no {self.d.framework} emitter: {why}")
        return self.fill(s, tpl)

    def fill(self, s: OpStmt, tpl: str) -> str:
        """``tpl`` (an emitter of ``s``'s op, or its probe operands) with ``s``'s arguments and fields."""
        rec = OPS[s.op]
        attrs = s.attr
        fields = dict(attrs, out=s.out, float=self.float,
                      **{f"p{i}": f"{self.owner}.{q}" for i, q in enumerate(s.params)})
        if rec.fields:  # computed fields may name the arguments and weights too ({0}: tf.shape({0})[1], {p0})
            fields.update({k: v.format(*s.args, **fields) if isinstance(v, str) else v
                           for k, v in rec.template_fields(self.arg_types[id(s)], attrs).items()})
        if "dtype" in attrs:
            fields["dtype"] = self.spell[attrs["dtype"]]
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
        elif isinstance(c, PyCond) and c.cmp in ("<", ">", "=="):
            if self.probed:
                return f"_pcond({self.probe_id()}, {c.var}, {c.value!r}, {c.cmp!r})"
            value = c.value
            if self.d.framework == "tf" and self.arg_types.get(id(c)) == [INT] and c.cmp != "==" and value % 1:
                # an int from a tensor is a tf.int32 tensor there, which no float compares with: the int bound
                # that decides alike (n > 1.5 is n > 1)
                value = math.floor(value) if c.cmp == ">" else math.ceil(value)
            text = f"{c.var} {c.cmp} {value!r}"
        elif isinstance(c, PyCond):
            text = {"truth": c.var, "not": f"not {c.var}", "none": f"{c.var} is None",
                    "some": f"{c.var} is not None"}[c.cmp]
        else:
            text = f"{c.var} {c.cmp} {c.value!r}"
        return f"_decide({self.probe_id()}, {text})" if self.probed else text

    def py(self, s: PyStmt, depth: int) -> None:
        """A Python-value statement (:mod:`conformance.program.pyops`), as the framework's users write it."""
        op = PYOPS[s.op]
        array = (s.out if op.name in ("list_new", "list_fill") else s.args[:1] and s.args[0]) in self.arrays
        tpl = op.array.get(self.d.framework, op.emit[self.d.framework]) if array else op.emit[self.d.framework]
        types = self.arg_types[id(s)]
        fields = dict(s.attr, out=s.out, float=self.float)
        fields.update({k: v.format(*s.args, **fields) for k, v in op.fields(types, s.attr, self.d.framework).items()})
        if self.probed and op.probe:
            self.emit(depth, f"_watch({self.probe_id()}, {op.probe!r}, "
                             f"{op.probe_args[self.d.framework].format(*s.args, **fields)})")
        for line in tpl.format(*s.args, **fields).split("\n"):
            self.emit(depth, line)

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
                watched = rec.probe_args.get(self.d.framework)
                args = self.fill(s, watched) if watched else ", ".join(s.args[:2] if rec.probe == "cmp" else s.args[:1])
                self.emit(depth, f"_watch({self.probe_id()}, {rec.probe!r}, {args})")
            if rec.statement:  # lines of their own, assigning {out}
                for line in self.op_expr(s).split("\n"):
                    self.emit(depth, line)
            else:
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
        elif isinstance(s, PyStmt):
            self.py(s, depth)
        elif isinstance(s, For):
            counted = isinstance(s.count, str) and s.count not in self.kwarg_names  # a trip count the data decides
            trips = s.count if s.rows else f"range({s.count})"
            if self.probed and counted:
                trips = f"_counted({self.probe_id()}, {s.count}{', rows=True' if s.rows else ''})"
            self.emit(depth, f"for {s.var} in {trips}:")
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
            grown = OpStmt(s.out, "concat", (s.out, s.piece), (("dim", s.dim),))
            self.emit(depth + 1, f"{s.out} = " + self.op_expr(grown))
            self.emit(depth, f"{s.out} = " + self.op_expr(OpStmt(s.out, s.reduce, (s.out,),
                                                                 (("dim", s.dim), ("keepdim", True)))))
        elif isinstance(s, Break):
            self.emit(depth, "break")
        elif isinstance(s, Continue):
            self.emit(depth, "continue")
        elif isinstance(s, Return):
            self.emit(depth, f"return {self.out(s.value)}")

    def source(self, graph_builder: str = "") -> str:
        """The module's source; ``graph_builder``: the ``build_graph`` function's source, put before ``__main__``."""
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
        ops = [s for s in p.walk() if isinstance(s, OpStmt)]
        lines += list(dict.fromkeys("        " + OPS[s.op].init[d.framework].format(**s.attr) for s in ops
                                    if d.framework in OPS[s.op].init))
        flags = sorted({s.attr["flag"] for s in ops if "flag" in s.attr})
        lines += [f"        self.{flag} = True  # a plain Python attribute forward reads" for flag in flags]
        for i, q in enumerate(p.params):
            value = f"_weight({i}, {q.shape!r}, {q.scale!r})" + (f" + np.float32({q.offset!r})" if q.offset else "")
            template = d.param if q.trainable else d.buffer
            lines.append("        " + template.format(name=q.name, value=f"({value})" if q.offset else value,
                                                      np_float=self.np_float))
        args = [p.self_name] + [f"{i.name}: {annotation(i.spec, d)}" for i in p.inputs]
        args += [f"{k.name}: {k.type} = {k.default!r}" for k in p.kwargs]
        lines += ["", f"    def {d.method}({', '.join(args)}):"]
        self.lines = []
        self.block(p.body, 2)
        self.emit(2, f"return {self.out(p.output)}")
        lines += self.lines
        if flags:
            lines += ["", "", "def before_call(model, index):",
                      '    """The flags forward reads, as the caller changes them before call `index`."""']
            lines += [f"    model.{flag} = (index + {flag_number(flag)}) % 2 == 0" for flag in flags]
        lines.append(_LOADERS.format(from_numpy_leaf=d.from_numpy.format(a="leaves[prefix]")))
        if graph_builder:
            lines.append(graph_builder)
        lines.append(_ENTRY)
        return "\n".join(lines)
