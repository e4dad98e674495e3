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
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from .ir import (Break, Continue, For, Get, Grow, If, KwargCond, OpStmt, Out, OutSeq, OutVar, Program, ProgramError, Return,
                 SeqSpec, ShapeCond, Spec, TensorCond, TensorSpec, While)
from .ops import OPS
from .validate import op_arg_types


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

_MAIN = '''

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
        fields = dict(attrs, float=self.float, **{f"p{i}": f"{self.p.self_name}.{q}" for i, q in enumerate(s.params)})
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
        return expr if self.p.self_name == "self" else re.sub(r"\bself\.", self.p.self_name + ".", expr)

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
        lines.append(_MAIN.format(from_numpy_leaf=d.from_numpy.format(a="leaves[prefix]")))
        return "\n".join(lines)


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
