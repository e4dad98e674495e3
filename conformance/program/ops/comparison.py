"""Comparisons (bool results), where, and casts between float, int64 and bool."""

from __future__ import annotations

import math

from conformance.program.ir import TensorType
from conformance.program.ops.record import broadcast, everywhere, keep_bound, need, per_framework, register


def _cmp_infer(ts, a):
    return TensorType(broadcast(ts[0].shape, ts[1].shape), "bool")


register(name="gt", family="comparison", arity=2, doc="x > y (broadcasting), a bool tensor",
               emit=everywhere("{0} > {1}"),
         infer=_cmp_infer, bound=lambda ivs, a, ts: (0.0, 1.0), probe="cmp",
         tolerance="flips where x is within rounding of y: watched by the branch-flip guard")
register(name="lt", family="comparison", arity=2, doc="x < y (broadcasting), a bool tensor",
               emit=everywhere("{0} < {1}"),
         infer=_cmp_infer, bound=lambda ivs, a, ts: (0.0, 1.0), probe="cmp",
         tolerance="flips where x is within rounding of y: watched by the branch-flip guard")


def _where_infer(ts, a):
    c, x, y = ts
    need(c.dtype == "bool" and x.dtype == y.dtype == "float32",
         f"where(cond, x, y) needs bool, float, float; got {c}, {x}, {y}")
    return TensorType(broadcast(broadcast(c.shape, x.shape), y.shape), x.dtype)


register(name="where", family="comparison", arity=3, doc="torch.where(cond, x, y)", arg_dtypes=("any",),
         emit=per_framework("torch.where({0}, {1}, {2})", "paddle.where({0}, {1}, {2})", "tf.where({0}, {1}, {2})"),
         infer=_where_infer,
         bound=lambda ivs, a, ts: (min(ivs[1][0], ivs[2][0]), max(ivs[1][1], ivs[2][1])))


def _cast_infer(dtype, src):
    def infer(ts, a):
        need(ts[0].dtype in src, f"cast to {dtype} takes {' or '.join(src)}, got {ts[0]}")
        return TensorType(ts[0].shape, dtype)
    return infer


register(name="to_int", family="cast", arity=1, doc="cast float to int64 (truncation toward zero)",
         emit=per_framework("{0}.to(torch.int64)", "paddle.cast({0}, paddle.int64)", "tf.cast({0}, tf.int64)"),
         infer=_cast_infer("int64", ("float32",)),
         bound=lambda ivs, a, ts: (float(math.trunc(ivs[0][0])), float(math.trunc(ivs[0][1]))), probe="int",
         tolerance="jumps at integers: watched by the branch-flip guard")
register(name="to_float", family="cast", arity=1, doc="cast int64 or bool to float", arg_dtypes=("any",),
         emit=per_framework("{0}.to({float})", "paddle.cast({0}, {float})", "tf.cast({0}, {float})"),
         infer=_cast_infer("float32", ("int64", "bool")), bound=keep_bound,
         domain=lambda ivs, ts: ts[0].dtype in ("int64", "bool"))
