"""Reductions over one dim, and softmax / log-softmax."""

from __future__ import annotations

import math

from conformance.program.ops.record import (
    TensorType,
    axis_of,
    dim_attr,
    per_framework,
    reduced_size,
    register,
    strategies,
)

_TF_REDUCE = {"sum": "sum", "mean": "mean", "amax": "max", "amin": "min"}


def _reduce_infer(ts, a):
    t = ts[0]
    d = axis_of(t, a)
    shape = list(t.shape)
    if a["keepdim"]:
        shape[d] = 1
    else:
        del shape[d]
    return TensorType(tuple(shape), t.dtype)


def _reduce_attrs(draw, ts):
    st = strategies()
    return {"dim": draw(st.integers(-ts[0].rank, ts[0].rank - 1)), "keepdim": draw(st.booleans())}


def reduction(name, bound, doc, tolerance=""):
    emit = per_framework(f"torch.{name}({{0}}, dim={{dim}}, keepdim={{keepdim}})",
               f"paddle.{name}({{0}}, axis={{dim}}, keepdim={{keepdim}})",
               f"tf.reduce_{_TF_REDUCE[name]}({{0}}, axis={{dim}}, keepdims={{keepdim}})")
    return register(name=name, family="reduction", arity=1, doc=doc, infer=_reduce_infer, bound=bound,
              emit=emit, attrs=_reduce_attrs, tolerance=tolerance,
              domain=lambda ivs, ts: ts[0].rank >= 1)


reduction("sum", lambda ivs, a, ts: (min(0, ivs[0][0]) * reduced_size(ts, a), max(0, ivs[0][1]) * reduced_size(ts, a)),
          "sum over one dim", tolerance="reduction order differs between kernels: judged against fp64")
reduction("mean", lambda ivs, a, ts: ivs[0], "mean over one dim",
          tolerance="reduction order differs between kernels: judged against fp64")
reduction("amax", lambda ivs, a, ts: ivs[0], "max over one dim")
reduction("amin", lambda ivs, a, ts: ivs[0], "min over one dim")


register(name="softmax", family="activation", arity=1, doc="softmax over one dim",
         emit=per_framework("torch.softmax({0}, dim={dim})", "F.softmax({0}, axis={dim})",
                            "tf.nn.softmax({0}, axis={dim})"),
         infer=lambda ts, a: (axis_of(ts[0], a), ts[0])[1], bound=lambda ivs, a, ts: (0.0, 1.0), attrs=dim_attr,
         domain=lambda ivs, ts: ts[0].rank >= 1)
register(name="log_softmax", family="activation", arity=1, doc="log-softmax over one dim",
         emit=per_framework("torch.log_softmax({0}, dim={dim})", "F.log_softmax({0}, axis={dim})",
                  "tf.nn.log_softmax({0}, axis={dim})"), infer=lambda ts, a: (axis_of(ts[0], a), ts[0])[1],
         bound=lambda ivs, a, ts: (-(ivs[0][1] - ivs[0][0]) - math.log(reduced_size(ts, a)) - 1, 0.0), attrs=dim_attr,
         domain=lambda ivs, ts: ts[0].rank >= 1)
