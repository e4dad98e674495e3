"""Ops whose arguments have different dtypes: ``ldexp`` promotes a bool, integer or float by a float
exponent (torch's promotion rule), ``in_top_k`` takes float scores and integer targets, ``add_mixed`` and
``mul_mixed`` promote two dtypes by torch's rules, ``gt_int_float`` compares integers with floats; and reductions
of integers (``int_sum``, ``int_prod``, ``int_mean``), compared exactly.

Where frameworks promote or treat NaN differently, the record says so (``missing``, ``differs``).
"""

from __future__ import annotations

import numpy as np

from conformance.program.dtypes import FLOATS, INTS, is_float, is_int
from conformance.program.ir import TensorType
from conformance.program.ops.record import (
    MAX_ABS,
    Enabler,
    axis_of,
    broadcast,
    dim_attr,
    hull,
    interval_mul,
    need,
    per_framework,
    register,
    size_bound,
    strategies,
)

#: Float dtypes by width, for promotion (bfloat16 and float16 together promote to float32).
_WIDTH = {"float16": 16, "bfloat16": 16, "float32": 32, "float64": 64}


def promote(a: str, b: str) -> str:
    """torch's result dtype of a binary float op on ``a`` and ``b``, at least one of them a float: the float one
    beside a bool or an integer, else the wider (float16 with bfloat16: float32)."""
    if not is_float(a) or not is_float(b):
        return a if is_float(a) else b
    if a == b:
        return a
    if _WIDTH[a] == _WIDTH[b]:
        return "float32"
    return a if _WIDTH[a] > _WIDTH[b] else b


def _ldexp_infer(ts, a):
    need(is_float(ts[0].dtype) or is_float(ts[1].dtype), f"ldexp needs a float argument, got {ts[0]} and {ts[1]}")
    need("bfloat16" not in (ts[0].dtype, ts[1].dtype), "bfloat16 has no numpy dtype for outputs")
    return TensorType(broadcast(ts[0].shape, ts[1].shape), promote(ts[0].dtype, ts[1].dtype))


register(name="ldexp", family="mixed", arity=2, arg_dtypes=("any",), infer=_ldexp_infer, empty_ok=True,
         edge_ok=True, emit={"torch": "torch.ldexp({0}, {1})"},
         bound=lambda ivs, a, ts: (min(0.0, ivs[0][0]) * 2.0 ** ivs[1][1], max(0.0, ivs[0][1]) * 2.0 ** ivs[1][1]),
         domain=lambda ivs, ts: ivs[1][1] <= 8 and max(map(abs, ivs[0])) <= 100,
         missing={"paddle": "paddle.ldexp promotes otherwise (float16 x int32 is float32, torch keeps float16)",
                  "tf": "TensorFlow has no ldexp"},
         doc="x * 2 ** e, the result dtype promoted from both (a bool or an int x takes e's float dtype)")


def _top_k_infer(ts, a):
    scores, targets = ts
    need(scores.rank == 2 and targets.rank == 1, f"in_top_k takes scores [N, C] and targets [N], got {ts}")
    need(scores.dtype in FLOATS and targets.dtype in ("int64", "int32"), f"in_top_k dtypes: {ts}")
    need(scores.shape[0] == targets.shape[0], f"in_top_k: {scores} and {targets} differ in N")
    need(isinstance(scores.shape[1], int) and scores.shape[1] >= a.get("k", 1), f"in_top_k: k past C in {scores}")
    return TensorType(targets.shape, "bool")


def _targets_in_range(ivs, ts):
    """The targets index a class: 0 <= target < C."""
    return (ts[0].rank == 2 and isinstance(ts[0].shape[1], int) and ts[1].dtype in ("int64", "int32")
            and 0 <= ivs[1][0] and ivs[1][1] < ts[0].shape[1])


def _argmax_targets(ts):
    """An argmax over the last dim of float scores [N, C]: targets [N] in [0, C) (``in_top_k``'s enabler)."""
    t = ts[0]
    return {"dim": -1, "keepdim": False} if t.rank == 2 and t.dtype in FLOATS and isinstance(t.shape[1], int) else None


register(name="in_top_k", family="mixed", arity=2, arg_dtypes=("any",), infer=_top_k_infer, edge_ok=True,
         arg_shapes="any", enabler=Enabler("argmax", _argmax_targets),
         emit={"torch": "(torch.topk({0}, {k}, dim=-1).indices == {1}.unsqueeze(-1)).any(-1)",
               "paddle": "(paddle.topk({0}, {k}, axis=-1)[1] == {1}.unsqueeze(-1)).any(-1)",
               "tf": "tf.math.in_top_k(tf.cast({1}, tf.int32), tf.cast({0}, tf.float32), {k})"},
         fp32_in_fp64={"tf": "tf.math.in_top_k takes float32 scores only (the fp64 reference casts them)"},
         bound=lambda ivs, a, ts: (0.0, 1.0), domain=_targets_in_range,
         attrs=lambda draw, ts: {"k": draw(strategies().integers(1, ts[0].shape[1]))},
         probe="cmp",  # the gaps between sorted neighbours (as sorting ops): two scores crossing moves the top k
         probe_args=per_framework("torch.diff(torch.sort({0}, dim=-1).values, dim=-1), torch.zeros(())",
                                  # Paddle's CPU subtract has no float16 kernel: the gaps in float32 (exact)
                                  "paddle.diff(paddle.sort({0}, axis=-1).astype('float32'), axis=-1), "
                                  "paddle.zeros([])",
                                  "tf.experimental.numpy.diff(tf.sort({0}, axis=-1), axis=-1), "
                                  "tf.zeros([], {0}.dtype)"),
         differs={"tf": "tf.math.in_top_k counts ties in the target's favour and a NaN score as not in the top k; "
                        "torch.topk and paddle.topk rank NaN first and break ties by index"},
         doc="whether each row's target index is among the k largest scores (tf.math.in_top_k; torch and paddle "
             "compare topk's indices)",
         tolerance="ties decide membership: the guard watches the scores")


# ---------------------------------------------------------------- promotion between dtypes, integer reductions
# drawn only in programs that allow the ``dtypes`` construct (``OpRecord.construct``)


def promote_types(a: str, b: str) -> str:
    """torch's result dtype of arithmetic on tensors of dtypes ``a`` and ``b`` (numbers, not bools): a float beside
    an integer gives the float, two floats :func:`promote`, two integers the wider (a signed one beside uint8: the
    signed one, which must be wider: int8 with uint8 would be int16, which the IR has no inputs of)."""
    if is_float(a) or is_float(b):
        return promote(a, b)
    need(is_int(a) and is_int(b), f"no promotion of {a} and {b} here")
    need({a, b} != {"int8", "uint8"}, "int8 with uint8 promotes to int16")
    return max(a, b, key=lambda d: np.iinfo(d).bits)


def _mixed_infer(ts, a):
    need(ts[0].dtype != ts[1].dtype, f"mixed-dtype arithmetic takes two dtypes, got {ts[0]} and {ts[1]}")
    need("bool" not in (ts[0].dtype, ts[1].dtype), f"needs numbers, got {ts[0]} and {ts[1]}")
    return TensorType(broadcast(ts[0].shape, ts[1].shape), promote_types(ts[0].dtype, ts[1].dtype))


def _wrap_to(iv, dtype: str):
    if not is_int(dtype):
        return iv
    info = np.iinfo(dtype)
    return iv if info.min <= iv[0] and iv[1] <= info.max else (float(info.min), float(info.max))


#: Paddle promotes between floats only: 'Type promotion only support calculations between floating-point numbers
#: and between complex and real numbers' (InvalidType, paddle 3.3) for an integer beside anything else.
_PADDLE_NO_INT_PROMOTION = {"paddle": INTS}

def _wider(ts, a) -> dict:
    """The field ``wide``: the argument whose dtype is the promoted one (TensorFlow's emitters cast both to it)."""
    return {"wide": "{0}" if promote_types(ts[0].dtype, ts[1].dtype) == ts[0].dtype else "{1}"}


_TF_CAST = ("TensorFlow does not promote (tf.add and tf.multiply refuse two dtypes): its emitter casts both to torch's "
            "result dtype, as users do")

register(name="add_mixed", family="mixed", arity=2, arg_dtypes=("number",), infer=_mixed_infer, empty_ok=True,
         edge_ok=True, construct="dtypes", weight=3.0, refuses=_PADDLE_NO_INT_PROMOTION,
         emit={"torch": "{0} + {1}", "paddle": "{0} + {1}", "tf": "tf.cast({0}, {wide}.dtype) + tf.cast({1}, "
                                                                  "{wide}.dtype)"}, fields=_wider, tolerance=_TF_CAST,
         bound=lambda ivs, a, ts: _wrap_to((ivs[0][0] + ivs[1][0], ivs[0][1] + ivs[1][1]),
                                           promote_types(ts[0].dtype, ts[1].dtype)),
         doc="a + b of two dtypes (int + float, float16 + float32, int32 + int64), promoted by torch's rules "
             "(paddle's for two floats are the same)")
register(name="mul_mixed", family="mixed", arity=2, arg_dtypes=("number",), infer=_mixed_infer, empty_ok=True,
         edge_ok=True, construct="dtypes", weight=3.0, refuses=_PADDLE_NO_INT_PROMOTION,
         emit={"torch": "{0} * {1}", "paddle": "{0} * {1}", "tf": "tf.cast({0}, {wide}.dtype) * tf.cast({1}, "
                                                                  "{wide}.dtype)"}, fields=_wider, tolerance=_TF_CAST,
         bound=lambda ivs, a, ts: _wrap_to(interval_mul(*ivs), promote_types(ts[0].dtype, ts[1].dtype)),
         doc="a * b of two dtypes, promoted by torch's rules (paddle's for two floats are the same)")


def _int_float_infer(ts, a):
    need(is_int(ts[0].dtype) and is_float(ts[1].dtype), f"compares an integer with a float, got {ts[0]} and {ts[1]}")
    return TensorType(broadcast(ts[0].shape, ts[1].shape), "bool")


register(name="gt_int_float", family="mixed", arity=2, arg_dtypes=("int", "float"), infer=_int_float_infer,
         empty_ok=True, edge_ok=True, construct="dtypes", weight=3.0, refuses={"paddle": ("float16",)},
         # paddle's type promotion refuses an integer beside a float (InvalidType, paddle 3.3): users cast
         emit={"torch": "{0} > {1}", "paddle": "paddle.cast({0}, {1}.dtype) > {1}",
               "tf": "tf.cast({0}, {1}.dtype) > {1}"},
         bound=lambda ivs, a, ts: (0.0, 1.0), probe="cmp",
         doc="i > x for an integer i and a float x: the integer converts to the float's dtype (torch's promotion; "
             "Paddle's and TensorFlow's emitters cast as users do), where a large integer may round",
         tolerance="flips where x is within rounding of i: watched by the branch-flip guard")


def _int_reduction(name, emit, bound, doc, keep_dtype=False, **kw):
    """A reduction of integers over one dim: to int64 (``keep_dtype``: in their own dtype)."""
    def infer(ts, a):
        t = ts[0]
        need(is_int(t.dtype) and t.rank >= 1, f"{name} takes integers of rank 1 or more, got {t}")
        d = axis_of(t, a)
        shape = tuple(1 if i == d else n for i, n in enumerate(t.shape) if a["keepdim"] or i != d)
        return TensorType(shape, t.dtype if keep_dtype else "int64")

    register(name=name, family="integer", arity=1, arg_dtypes=("int",), infer=infer, bound=bound, emit=emit,
             attrs=lambda draw, ts: {**dim_attr(draw, ts), "keepdim": draw(strategies().booleans())},
             construct="dtypes", weight=3.0, doc=doc, **{"domain": lambda ivs, ts: ts[0].rank >= 1, **kw})


def _count(ts, a) -> int:
    return size_bound(ts[0].shape[axis_of(ts[0], a)])


_int_reduction("int_sum", per_framework("torch.sum({0}, dim={dim}, keepdim={keepdim}, dtype=torch.int64)",
                                        "paddle.sum({0}, axis={dim}, keepdim={keepdim}, dtype='int64')",
                                        "tf.reduce_sum(tf.cast({0}, tf.int64), axis={dim}, keepdims={keepdim})"),
               lambda ivs, a, ts: (min(0.0, ivs[0][0]) * _count(ts, a), max(0.0, ivs[0][1]) * _count(ts, a)),
               "the int64 sum of integers over one dim (0 over an empty dim)", empty_ok=True, edge_ok=True)
_int_reduction("int_prod", per_framework("torch.prod({0}, dim={dim}, keepdim={keepdim}, dtype=torch.int64)",
                                         "paddle.prod({0}, axis={dim}, keepdim={keepdim}, dtype='int64')",
                                         "tf.reduce_prod(tf.cast({0}, tf.int64), axis={dim}, keepdims={keepdim})"),
               lambda ivs, a, ts: hull(*(s * max(1.0, max(map(abs, ivs[0]))) ** _count(ts, a) for s in (-1, 1))),
               "the int64 product of integers over one dim (1 over an empty dim; no product past 1e4)", empty_ok=True,
               domain=lambda ivs, ts: ts[0].rank >= 1 and max(1.0, *map(abs, ivs[0])) <= MAX_ABS ** (
                   1 / max(1, *(size_bound(d) for d in ts[0].shape))))
_int_reduction("int_mean", {"paddle": "paddle.mean({0}, axis={dim}, keepdim={keepdim})",
                            "tf": "tf.reduce_mean({0}, axis={dim}, keepdims={keepdim})"},
               lambda ivs, a, ts: ivs[0], "the mean of integers over one dim in their own dtype: the sum divided by "
               "the count as integers (an empty dim divides by zero: not drawn)", keep_dtype=True,
               refuses={"paddle": ("int8", "uint8")},  # 'The kernel with key (CPU, ..., int8) of kernel `mean`'
               missing={"torch": "torch.mean refuses integers ('could not infer output dtype')"})
