"""Statements that mutate, alias, keep state and change type: the constructs graph capture gets wrong.

Each record here is a *statement* (``OpRecord.statement``): its emitters are whole lines of ``forward`` as a user
writes them, assigning ``{out}``; the temporaries they need are named after it (``{out}_v``), so they never clash
with the program's variables. Three families, each drawn only for programs that opt in to its construct
(:data:`~conformance.program.effects.EFFECT_CONSTRUCTS`), so the default stream is unchanged:

* ``mutation``: views (narrow/slice, select, transpose, unsqueeze, flatten, reshape) written through in place,
  or taken before an in-place write to their base; slice and mask assignment with bounds from shapes; an
  in-place write to an *input*, which the caller sees (the runner compares the inputs after each call);
* ``state``: buffers updated in ``forward`` (a counter, a running mean, a cache of the last call, a buffer
  rebound to a new tensor) and a plain Python attribute forward reads, changed by the caller between calls
  (``before_call`` in the model's module); the runner makes every call on one model, in order;
* ``dynamism``: ``x.shape[i]`` and ``x.numel()`` feeding ``arange``, ``full`` and ``reshape(-1, n)``, tuple
  rotation and a dict built and swapped,
  short-circuit ``and``/``or`` mixing Python values and tensors, a closure, a helper with an optional tensor
  argument (``is None``), a submodule, a ``with no_grad()`` block.

TensorFlow has no in-place ops and no views on tensors, so the ``mutation`` family has no TensorFlow emitter
(``missing`` says so, and ``conformance ops`` shows it); nor has it ``.item()`` or ``int(t)`` inside a traced
function. Its state is ``tf.Variable`` assignment (a buffer is never rebound), and ``no_grad`` is
``tf.stop_gradient``.

Python numbers from tensors (``.item()``, ``int(t)``), variables that change type or dtype, lists and dicts grown
in loops and ``for`` over a tensor's rows are not templates here: they are statements of their own, composed with
the program's control flow (:mod:`conformance.program.pyops`, drawn by :mod:`conformance.program.pydrawing`).
"""

from __future__ import annotations

import math

from conformance.program.ir import TensorType
from conformance.program.ops.record import (
    Weight,
    everywhere,
    hull,
    interval_mul,
    need,
    per_framework,
    register,
    same_type,
    static_dims,
    static_last,
    strategies,
)

#: The op families of this module, by the construct a program opts in to for them.
FAMILIES = {"mutation": "mutation", "state": "module_state", "dynamism": "dynamism"}

_NO_TF_INPLACE = "TensorFlow tensors are immutable: no views and no in-place writes (state is a tf.Variable's)"
_NO_TF_ITEM = "inside tf.function a tensor has no Python value: no .item() or int(t) (the graph is traced once)"


def flag_number(flag: str) -> int:
    """The number in a flag attribute's name (``switch1`` -> 1): ``before_call`` sets it to
    ``(index + number) % 2 == 0`` before call ``index``."""
    return int(flag[len("switch"):])


def _scaled(ivs, a, ts):
    return hull(*ivs[0], *interval_mul(ivs[0], (a["scale"], a["scale"])))


def _effect(name, family, arity, doc, emit, bound, infer=same_type, **kw):
    missing = kw.pop("missing", {})
    emit = {fw: text for fw, text in emit.items() if text}  # "": no emitter (``missing`` says why)
    register(name=name, family=family, arity=arity, doc=doc, emit=emit, infer=infer, bound=bound, statement=True,
             construct=FAMILIES[family], missing=missing, arg_shapes=kw.pop("arg_shapes", "any"), **kw)


def _same_types(ts, a):
    need(ts[0] == ts[1], f"both arguments must have one type, got {ts[0]} and {ts[1]}")
    return ts[0]


# ---------------------------------------------------------------- mutation: views written through

#: View kinds: (torch, paddle) expressions of a view of ``{out}_b`` (``%(p)s``: the index prefix of dim ``dim``,
#: ``%(perm)s``: dims 0 and -1 swapped).
_VIEWS = {
    "narrow": ("{out}_b.narrow({dim}, 0, 1)", "{out}_b[%(p)s0:1]"),
    "select": ("{out}_b.select({dim}, 0)", "{out}_b[%(p)s0]"),
    "transpose": ("{out}_b.transpose(0, -1)", "{out}_b.transpose(%(perm)s)"),
    "unsqueeze": ("{out}_b.unsqueeze(0)", "{out}_b.unsqueeze(0)"),
    "flatten": ("{out}_b.flatten()", "{out}_b.flatten()"),
    "reshape": ("{out}_b.reshape(-1)", "{out}_b.reshape([-1])"),
}


def _view_attrs(draw, ts):
    st = strategies()
    t = ts[0]
    kinds = ["narrow", "select", "unsqueeze"] + (["transpose"] if t.rank >= 2 else [])
    if all(isinstance(d, int) for d in t.shape):
        kinds += ["flatten", "reshape"]
    return {"view": draw(st.sampled_from(kinds)), "dim": draw(st.integers(0, t.rank - 1)),
            "scale": draw(st.sampled_from([2.0, -1.0, 0.5]))}


def _view_type(t: TensorType, a) -> TensorType:
    kind, dim = a["view"], a["dim"]
    need(0 <= dim < t.rank, f"dim {dim} out of range for {t}")
    if kind == "narrow":
        return TensorType(t.shape[:dim] + (1,) + t.shape[dim + 1:], t.dtype)
    if kind == "select":
        return TensorType(t.shape[:dim] + t.shape[dim + 1:], t.dtype)
    if kind == "transpose":
        need(t.rank >= 2, f"transpose(0, -1) needs rank >= 2, got {t}")
        return TensorType((t.shape[-1],) + t.shape[1:-1] + (t.shape[0],), t.dtype)
    if kind == "unsqueeze":
        return TensorType((1,) + t.shape, t.dtype)
    need(all(isinstance(d, int) for d in t.shape), f"{kind} to one dim needs a static shape, got {t}")
    n = 1
    for d in t.shape:
        n *= d
    return TensorType((n,), t.dtype)


def _view_fields(ts, a):
    perm = list(range(ts[0].rank))
    perm[0], perm[-1] = perm[-1], perm[0]
    torch_view, paddle_view = _VIEWS[a["view"]]
    return {"torch_view": torch_view, "paddle_view": paddle_view % {"p": ":, " * a["dim"], "perm": perm}}


_effect("view_write", "mutation", 1, "a view of a copy written through in place (x.narrow(...).mul_(s)): the base "
        "changes", per_framework("{out}_b = {0}.clone()\n{out}_v = {torch_view}\n{out}_v.mul_({scale})\n"
                                 "{out} = {out}_b",
                                 "{out}_b = {0}.clone()\n{out}_v = {paddle_view}\n{out}_v.scale_({scale})\n"
                                 "{out} = {out}_b", ""),
        _scaled, attrs=_view_attrs, fields=_view_fields, missing={"tf": _NO_TF_INPLACE},
        domain=lambda ivs, ts: ts[0].rank >= 1)
_effect("base_write", "mutation", 1, "a view taken, then its base written in place (b.mul_(s)): the view sees the "
        "write", per_framework("{out}_b = {0}.clone()\n{out}_v = {torch_view}\n{out}_b.mul_({scale})\n{out} = {out}_v",
                               "{out}_b = {0}.clone()\n{out}_v = {paddle_view}\n{out}_b.scale_({scale})\n"
                               "{out} = {out}_v", ""),
        _scaled, infer=lambda ts, a: _view_type(ts[0], a), attrs=_view_attrs, fields=_view_fields,
        missing={"tf": _NO_TF_INPLACE}, domain=lambda ivs, ts: ts[0].rank >= 1)

_effect("base_setitem", "mutation", 1, "a view taken, then part of its base assigned (b[:1] = b[:1] * s): the view "
        "sees the write", per_framework("{out}_b = {0}.clone()\n{out}_v = {torch_view}\n"
                                        "{out}_b[:1] = {out}_b[:1] * {scale}\n{out} = {out}_v",
                                        "{out}_b = {0}.clone()\n{out}_v = {paddle_view}\n"
                                        "{out}_b[:1] = {out}_b[:1] * {scale}\n{out} = {out}_v", ""),
        _scaled, infer=lambda ts, a: _view_type(ts[0], a), attrs=_view_attrs, fields=_view_fields,
        missing={"tf": _NO_TF_INPLACE}, domain=lambda ivs, ts: ts[0].rank >= 1)


# ---------------------------------------------------------------- mutation: slice and mask assignment


def _dim_attrs(draw, ts):
    st = strategies()
    return {"dim": draw(st.integers(0, ts[0].rank - 1)), "bound": draw(st.sampled_from(["shape", "select"]))}


def _slice_fields(ts, a):
    prefix = ":, " * a["dim"]
    index = f"{prefix}:({{0}}.shape[{a['dim']}] + 1) // 2" if a["bound"] == "shape" else f"{prefix}0"
    return {"index": index}


_effect("slice_assign", "mutation", 2, "x[..., :(x.shape[d] + 1) // 2] = y[...] or x[:, 0] = y[:, 0] on a copy",
        per_framework("{out} = {0}.clone()\n{out}[{index}] = {1}[{index}]",
                      "{out} = {0}.clone()\n{out}[{index}] = {1}[{index}]", ""),
        lambda ivs, a, ts: hull(*ivs[0], *ivs[1]), infer=_same_types, attrs=_dim_attrs, fields=_slice_fields,
        missing={"tf": _NO_TF_INPLACE}, domain=lambda ivs, ts: ts[0].rank >= 1)
_effect("mask_assign", "mutation", 2, "x[x > 0] = y[x > 0] on a copy: assignment through a boolean mask",
        per_framework("{out}_m = {0} > 0.0\n{out} = {0}.clone()\n{out}[{out}_m] = {1}[{out}_m]",
                      "{out}_m = {0} > 0.0\n{out} = {0}.clone()\n{out}[{out}_m] = {1}[{out}_m]", ""),
        lambda ivs, a, ts: hull(*ivs[0], *ivs[1]), infer=_same_types, probe="cmp",
        probe_args={"torch": "{0}, {0} * 0.0", "paddle": "{0}, {0} * 0.0"}, missing={"tf": _NO_TF_INPLACE},
        tolerance="jumps at x = 0: the guard watches x against 0")
_SHORT_WRITE = ("def {out}_zero_first(t):\n    t[0] = 0.0\n    return True\n{out} = {0} * 1.0\n"
                "if {0}.mean() > 0.0 and {out}_zero_first({out}):\n    {out} = {out} + 1.0")
_effect("short_circuit_write", "mutation", 1, "if x.mean() > 0 and zero_first(y): a short-circuit test whose right "
        "operand writes into y in place (a helper that zeroes y[0]): the write happens only where the left is true",
        per_framework(_SHORT_WRITE, _SHORT_WRITE, ""),
        lambda ivs, a, ts: (min(ivs[0][0], 0.0), max(ivs[0][1], 0.0) + 1.0), probe="cmp",
        probe_args={"torch": "{0}.mean(), {0}.mean() * 0.0", "paddle": "{0}.mean(), {0}.mean() * 0.0"},
        missing={"tf": _NO_TF_INPLACE}, domain=lambda ivs, ts: ts[0].rank >= 1,
        tolerance="jumps where mean(x) crosses 0: the guard watches it")
_effect("add_statement", "mutation", 1, "y = x * 1.0, then y.add_(x) as a statement: an in-place method whose "
        "result is not assigned (the call alone changes y)",
        per_framework("{out} = {0} * 1.0\n{out}.add_({0})", "{out} = {0} * 1.0\n{out}.add_({0})", ""),
        lambda ivs, a, ts: interval_mul(ivs[0], (2.0, 2.0)), missing={"tf": _NO_TF_INPLACE})
_effect("masked_fill_keywords", "mutation", 1, "masked_fill_(mask=x > 0, value=0.0) on a copy: an in-place API "
        "called with keyword arguments, as users write it (paddle: paddle.masked_fill_(x=..., mask=..., value=...))",
        per_framework("{out}_m = {0} > 0.0\n{out} = {0}.clone()\n{out}.masked_fill_(mask={out}_m, value=0.0)",
                      "{out}_m = {0} > 0.0\n{out} = {0}.clone()\npaddle.masked_fill_(x={out}, mask={out}_m, value=0.0)",
                      ""),
        lambda ivs, a, ts: hull(*ivs[0], 0.0), probe="cmp",
        probe_args={"torch": "{0}, {0} * 0.0", "paddle": "{0}, {0} * 0.0"}, missing={"tf": _NO_TF_INPLACE},
        tolerance="jumps at x = 0: the guard watches x against 0")


def _input_attrs(draw, ts):
    st = strategies()
    return {"kind": draw(st.sampled_from(["mul", "setitem", "tanh"])), "dim": draw(st.integers(0, ts[0].rank - 1)),
            "scale": draw(st.sampled_from([2.0, -1.0, 0.5]))}


def _input_fields(ts, a):
    prefix = ":, " * a["dim"]
    setitem = f"{{0}}[{prefix}:1] = {{0}}[{prefix}:1] * {a['scale']!r}"
    writes = {"mul": ("{0}.mul_(%r)" % a["scale"], "{0}.scale_(%r)" % a["scale"]), "setitem": (setitem, setitem),
              "tanh": ("{0}.tanh_()", "{0}.tanh_()")}
    return dict(zip(("torch_write", "paddle_write"), writes[a["kind"]]))


def _input_bound(ivs, a, ts):
    return (math.tanh(ivs[0][0]), math.tanh(ivs[0][1])) if a["kind"] == "tanh" else _scaled(ivs, a, ts)


_effect("input_inplace", "mutation", 1, "an in-place write to an input tensor (x.mul_(s), x[:, :1] = ..., "
        "x.tanh_()): the caller sees it", per_framework("{torch_write}", "{paddle_write}", ""), _input_bound,
        inplace=True,
        attrs=_input_attrs, fields=_input_fields, missing={"tf": _NO_TF_INPLACE},
        domain=lambda ivs, ts: ts[0].rank >= 1)

# ---------------------------------------------------------------- module state across calls

_BUFFER = [Weight((1,), 0.0, trainable=False)]  # a buffer of one element, 0 before the first call


def _state(name, doc, emit, bound, **kw):
    _effect(name, "state", 1, doc, emit, bound, params=lambda ts, a: _BUFFER, **kw)


_state("state_counter", "a call counter buffer, incremented in forward (in place, or rebound to a new tensor); "
       "forward scales by it", {
           "torch": "{torch_update}\n{out} = {0} * ({p0} * 0.1 + 1.0)",
           "paddle": "{paddle_update}\n{out} = {0} * ({p0} * 0.1 + 1.0)",
           "tf": "{p0}.assign_add(tf.ones_like({p0}))\n{out} = {0} * ({p0} * 0.1 + 1.0)"},
       lambda ivs, a, ts: hull(*ivs[0], *interval_mul(ivs[0], (1.0, 3.0))),
       attrs=lambda draw, ts: {"update": draw(strategies().sampled_from(["inplace", "rebind"]))},
       fields=lambda ts, a: {"torch_update": "{p0}.add_(1.0)" if a["update"] == "inplace" else "{p0} = {p0} + 1.0",
                             "paddle_update": "paddle.assign({p0} + 1.0, {p0})" if a["update"] == "inplace"
                             else "{p0} = {p0} + 1.0"},
       tolerance="the counter is a float: exact for the few calls a case makes (tf: assign_add, never rebound)")
_state("state_running", "a running mean buffer updated in forward (m = 0.5 m + 0.5 mean(x)); forward subtracts it",
       per_framework("{p0}.mul_(0.5).add_(0.5 * {0}.mean())\n{out} = {0} - {p0}",
                     "paddle.assign({p0} * 0.5 + 0.5 * {0}.mean(), {p0})\n{out} = {0} - {p0}",
                     "{p0}.assign({p0} * 0.5 + 0.5 * tf.reduce_mean({0}))\n{out} = {0} - {p0}"),
       lambda ivs, a, ts: (ivs[0][0] - max(ivs[0][1], 0.0), ivs[0][1] - min(ivs[0][0], 0.0)))
_state("state_cache", "a cache buffer: forward adds what the previous call stored, then stores mean(x)",
       per_framework("{out} = {0} + {p0}\n{p0}.copy_({0}.mean().reshape(1))",
                     "{out} = {0} + {p0}\npaddle.assign({0}.mean().reshape([1]), {p0})",
                     "{out} = {0} + {p0}\n{p0}.assign(tf.reshape(tf.reduce_mean({0}), [1]))"),
       lambda ivs, a, ts: (ivs[0][0] + min(ivs[0][0], 0.0), ivs[0][1] + max(ivs[0][1], 0.0)))
_effect("module_flag", "state", 1, "a plain Python attribute (self.switch0) read in forward, changed by the caller "
        "between calls", everywhere("{out} = {0} * {scale} if self.{flag} else {0}"), _scaled,
        attrs=lambda draw, ts: {"flag": f"switch{draw(strategies().integers(0, 1))}",
                                "scale": draw(strategies().sampled_from([2.0, -1.0, 0.5]))})

# ---------------------------------------------------------------- Python-level dynamism

def _arange_bound(ivs, a, ts):
    d = ts[0].shape[-1]
    n = d if isinstance(d, int) else 6
    return ivs[0][0], ivs[0][1] + 0.1 * (n - 1)


_effect("shape_arange", "dynamism", 1, "x + 0.1 * arange(x.shape[-1]): a shape feeding a constructor",
        per_framework("{out} = {0} + torch.arange({0}.shape[-1], dtype={float}, device={0}.device) * 0.1",
                      "{out} = {0} + paddle.arange({0}.shape[-1], dtype={float}) * 0.1",
                      "{out} = {0} + tf.cast(tf.range(tf.shape({0})[-1]), {float}) * 0.1"),
        _arange_bound, domain=lambda ivs, ts: ts[0].rank >= 1)
_effect("shape_power", "dynamism", 1, "x * (x.shape[-1] ** 2): a size in Python int arithmetic (int ** int is an int "
        "in Python) feeding a tensor of float32 or int64",
        everywhere("{out} = {0} * ({0}.shape[-1] ** 2)"),
        lambda ivs, a, ts: interval_mul(ivs[0], (ts[0].shape[-1] ** 2, ts[0].shape[-1] ** 2)), arg_dtypes=("number",),
        domain=lambda ivs, ts: static_last(ts) and ts[0].dtype in ("float32", "int64"))
_effect("numel_center", "dynamism", 1, "x - x.sum() / x.numel(): the element count in Python arithmetic",
        per_framework("{out} = {0} - {0}.sum() / {0}.numel()", "{out} = {0} - {0}.sum() / {0}.numel()",
                      "{out} = {0} - tf.reduce_sum({0}) / tf.cast(tf.size({0}), {float})"),
        lambda ivs, a, ts: (ivs[0][0] - ivs[0][1], ivs[0][1] - ivs[0][0]))
_effect("full_shape", "dynamism", 1, "x * full(x.shape, c): a tensor made from another's shape",
        per_framework("{out} = {0} * torch.full({0}.shape, {scale}, dtype={float}, device={0}.device)",
                      "{out} = {0} * paddle.full({0}.shape, {scale}, dtype={float})",
                      "{out} = {0} * tf.fill(tf.shape({0}), tf.constant({scale}, {float}))"),
        _scaled, attrs=lambda draw, ts: {"scale": draw(strategies().sampled_from([2.0, -1.0, 0.5]))})
_effect("reshape_rows", "dynamism", 1, "x.reshape(-1, x.shape[-1]) and back to x.shape",
        per_framework("{out}_r = {0}.reshape(-1, {0}.shape[-1])\n{out} = {out}_r.reshape({0}.shape)",
                      "{out}_r = {0}.reshape([-1, {0}.shape[-1]])\n{out} = {out}_r.reshape({0}.shape)",
                      "{out}_r = tf.reshape({0}, [-1, tf.shape({0})[-1]])\n{out} = tf.reshape({out}_r, tf.shape({0}))"),
        lambda ivs, a, ts: ivs[0], domain=lambda ivs, ts: ts[0].rank >= 2 and bool(static_dims(ts[0])))
_effect("tuple_rotate", "dynamism", 2, "a, b, c = b, c, a: a tuple rotation, then 2a + b - c",
        everywhere("{out}_a, {out}_b, {out}_c = {0}, {1}, {0} * 0.5\n"
                   "{out}_a, {out}_b, {out}_c = {out}_b, {out}_c, {out}_a\n"
                   "{out} = {out}_a * 2.0 + {out}_b - {out}_c"),
        lambda ivs, a, ts: (2 * ivs[1][0] - 0.5 * ivs[0][1], 2 * ivs[1][1] - 0.5 * ivs[0][0]), infer=_same_types)
_ROTATE = ("{out}_a, {out}_b, {out}_c = {0} * 0.0, {0} * 0.0, {0} * 0.0\nfor {out}_k in range(3):\n"
           "    {out}_a, {out}_b, {out}_c = {out}_c, {out}_a, {out}_b\n    {out}_a.add_({0})\n"
           "{out} = {out}_a + {out}_b * 2.0 + {out}_c * 3.0")
_effect("rotate_accumulate", "dynamism", 1, "three accumulators rotated (a, b, c = c, a, b), then a.add_(x), three "
        "times in a loop: in-place writes through rotated names; each ends holding x, so a + 2b + 3c is 6x",
        per_framework(_ROTATE, _ROTATE, ""), lambda ivs, a, ts: interval_mul(ivs[0], (6.0, 6.0)),
        missing={"tf": _NO_TF_INPLACE})
_effect("dict_swap", "dynamism", 2, "d = {'first': x, 'second': y}, its values swapped, then d['first'] - "
        "d['second'] / 2", everywhere("{out}_d = {{'first': {0}, 'second': {1}}}\n"
                                      "{out}_d['first'], {out}_d['second'] = {out}_d['second'], {out}_d['first']\n"
                                      "{out} = {out}_d['first'] - {out}_d['second'] * 0.5"),
        lambda ivs, a, ts: (ivs[1][0] - 0.5 * ivs[0][1], ivs[1][1] - 0.5 * ivs[0][0]), infer=_same_types)


def _short_attrs(draw, ts):
    st = strategies()
    return {"bool_op": draw(st.sampled_from(["and", "or"])), "thr": 0.0}


_effect("short_circuit", "dynamism", 1, "if x.shape[-1] > 1 and x.mean() > 0 (or: x.shape[-1] < 2 or ...): a "
        "Python bool and a tensor in one short-circuit test",
        per_framework("if {0}.shape[-1] {shape_test} {bool_op} {0}.mean() > {thr}:\n    {out} = {0} * 2.0\n"
                      "else:\n    {out} = {0} - 1.0",
                      "if {0}.shape[-1] {shape_test} {bool_op} {0}.mean() > {thr}:\n    {out} = {0} * 2.0\n"
                      "else:\n    {out} = {0} - 1.0",
                      "if {0}.shape[-1] {shape_test} {bool_op} tf.reduce_mean({0}) > {thr}:\n    {out} = {0} * 2.0\n"
                      "else:\n    {out} = {0} - 1.0"),
        lambda ivs, a, ts: hull(*interval_mul(ivs[0], (2.0, 2.0)), ivs[0][0] - 1.0, ivs[0][1] - 1.0),
        attrs=_short_attrs, fields=lambda ts, a: {"shape_test": "> 1" if a["bool_op"] == "and" else "< 2"},
        probe="cmp", probe_args={"torch": "{0}.mean(), {0}.mean() * 0.0 + {thr}",
                                 "paddle": "{0}.mean(), {0}.mean() * 0.0 + {thr}",
                                 "tf": "tf.reduce_mean({0}), tf.reduce_mean({0}) * 0.0 + {thr}"},
        domain=lambda ivs, ts: ts[0].rank >= 1 and isinstance(ts[0].shape[-1], int),
        tolerance="jumps where mean(x) crosses 0: the guard watches it")
_effect("closure", "dynamism", 2, "a function defined in forward, closing over a tensor, then called",
        everywhere("def {out}_f(t):\n    return t * 0.5 + {0}\n{out} = {out}_f({1})"),
        lambda ivs, a, ts: (0.5 * ivs[1][0] + ivs[0][0], 0.5 * ivs[1][1] + ivs[0][1]), infer=_same_types)

_OPTIONAL = '''
from typing import Optional


def _shift(x: {tensor}, bias: Optional[{tensor}] = None) -> {tensor}:
    """Half of x, plus bias where one is given."""
    if bias is None:
        return x * 0.5
    return x * 0.5 + bias
'''
_effect("optional_arg", "dynamism", 2, "a helper with an optional tensor argument (bias=None or a tensor, tested "
        "with is None)", everywhere("{out} = _shift({0}, {bias})"),
        lambda ivs, a, ts: (0.5 * ivs[0][0] + min(ivs[1][0], 0.0), 0.5 * ivs[0][1] + max(ivs[1][1], 0.0)),
        infer=_same_types, attrs=lambda draw, ts: {"bias": draw(strategies().booleans())},
        fields=lambda ts, a: {"bias": "{1}" if a["bias"] else "None"},
        helpers={fw: _OPTIONAL.format(tensor=t) for fw, t in
                 (("torch", "torch.Tensor"), ("paddle", "paddle.Tensor"), ("tf", "tf.Tensor"))})

_SUBMODULE = '''

class Squash({base}):
    """A submodule: tanh(x) * scale."""

    def __init__(self, scale: float):
        super().__init__()
        self.scale = scale

    def {method}(self, x):
        return {tanh}(x) * self.scale
'''
_effect("submodule", "dynamism", 1, "a submodule (tanh(x) * scale) made in __init__ and called in forward",
        everywhere("{out} = self.{name}({0})"),
        lambda ivs, a, ts: hull(*interval_mul((-1.0, 1.0), (a["scale"], a["scale"]))),
        attrs=lambda draw, ts: draw(strategies().sampled_from([{"name": "squash_half", "scale": 0.5},
                                                               {"name": "squash_double", "scale": 2.0}])),
        init=everywhere("self.{name} = Squash({scale})"),
        helpers={"torch": _SUBMODULE.format(base="torch.nn.Module", method="forward", tanh="torch.tanh"),
                 "paddle": _SUBMODULE.format(base="paddle.nn.Layer", method="forward", tanh="paddle.tanh"),
                 "tf": _SUBMODULE.format(base="tf.Module", method="__call__", tanh="tf.tanh")})
_CONTINUE_WITH = ("{out} = {0} * 0.0\nfor {out}_k in range(4):\n    with %(block)s:\n        with %(block)s:\n"
                  "            if {out}_k %% 2 == 0:\n                continue\n            {out} = {out} + %(term)s")
_effect("continue_in_with", "dynamism", 1, "for k in range(4): a continue (even k) inside two nested no_grad blocks, "
        "then y = y + x * k there: y is 4x, without gradient (TensorFlow: tf.name_scope blocks, tf.stop_gradient)",
        per_framework(_CONTINUE_WITH % {"block": "torch.no_grad()", "term": "{0} * {out}_k"},
                      _CONTINUE_WITH % {"block": "paddle.no_grad()", "term": "{0} * {out}_k"},
                      _CONTINUE_WITH % {"block": "tf.name_scope('{out}')", "term": "tf.stop_gradient({0} * {out}_k)"}),
        lambda ivs, a, ts: interval_mul(ivs[0], (4.0, 4.0)))
_LOOP_INDEX = "{out}_i = %s\n{out} = {0}\nfor {out}_i in %s:\n    {out} = {out} * 0.5\n{out} = {out} + %s"
_effect("loop_index_after", "dynamism", 1, "for i in range(3): y = y / 2; then y + i: a loop index read after the "
        "loop, where it holds its last value (TensorFlow: for i in tf.range(3), the index a tensor)",
        per_framework(_LOOP_INDEX % ("-1", "range(3)", "{out}_i"), _LOOP_INDEX % ("-1", "range(3)", "{out}_i"),
                      _LOOP_INDEX % ("tf.constant(-1)", "tf.range(3)", "tf.cast({out}_i, {0}.dtype)")),
        lambda ivs, a, ts: (ivs[0][0] / 8 + 2.0, ivs[0][1] / 8 + 2.0))
_HELPER_BRANCH = ("def {out}_f1(t):\n    if %s > 0.0:\n        return t + 1.0\n    return t + 2.0\n"
                  "def {out}_f2(t):\n    return {out}_f1(t)\n{out} = {out}_f2({0})")
# AutoGraph carries a variable that a local function closes over (here the first helper, which the second calls)
# through every tf.cond and tf.while_loop around it, and a function is no tensor: helpers defined inside an if or a
# loop on a tensor are refused. TensorFlow users define them at module level, where AutoGraph converts them when
# forward calls them.
_TF_HELPER_BRANCH = '''

def _branch_step(t):
    """t + 1 where t sums above 0, else t + 2: an if on the tensor."""
    if tf.reduce_sum(t) > 0.0:
        return t + 1.0
    return t + 2.0


def _branch_helper(t):
    """A helper calling a helper."""
    return _branch_step(t)
'''
_effect("helper_branch", "dynamism", 1, "a helper calling a helper whose if tests the tensor (t.sum() > 0): the "
        "branch is the data's, inside inlined functions (defined where the statement is; TensorFlow: at module "
        "level)",
        per_framework(_HELPER_BRANCH % "t.sum()", _HELPER_BRANCH % "t.sum()", "{out} = _branch_helper({0})"),
        lambda ivs, a, ts: (ivs[0][0] + 1.0, ivs[0][1] + 2.0), probe="cmp", helpers={"tf": _TF_HELPER_BRANCH},
        probe_args={"torch": "{0}.sum(), {0}.sum() * 0.0", "paddle": "{0}.sum(), {0}.sum() * 0.0",
                    "tf": "tf.reduce_sum({0}), tf.reduce_sum({0}) * 0.0"},
        tolerance="jumps where sum(x) crosses 0: the guard watches it")
_effect("no_grad", "dynamism", 1, "with torch.no_grad(): y = 2x - 1 (TensorFlow has no such block: tf.stop_gradient)",
        per_framework("with torch.no_grad():\n    {out} = {0} * 2.0 - 1.0",
                      "with paddle.no_grad():\n    {out} = {0} * 2.0 - 1.0",
                      "{out} = tf.stop_gradient({0} * 2.0 - 1.0)"),
        lambda ivs, a, ts: (2 * ivs[0][0] - 1.0, 2 * ivs[0][1] - 1.0))
