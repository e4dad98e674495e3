"""Reductions over one dim, and softmax / log-softmax."""

from __future__ import annotations

import math

from conformance.program.ir import TensorType
from conformance.program.ops import helper_code
from conformance.program.ops.record import (
    axis_of,
    calls,
    dim_attr,
    keep_bound,
    need,
    per_framework,
    reduced_size,
    register,
    size_bound,
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


def reduction(name, bound, doc, tolerance="", empty_ok=False):
    emit = per_framework(f"torch.{name}({{0}}, dim={{dim}}, keepdim={{keepdim}})",
               f"paddle.{name}({{0}}, axis={{dim}}, keepdim={{keepdim}})",
               f"tf.reduce_{_TF_REDUCE[name]}({{0}}, axis={{dim}}, keepdims={{keepdim}})")
    return register(name=name, family="reduction", arity=1, doc=doc, infer=_reduce_infer, bound=bound,
              emit=emit, attrs=_reduce_attrs, tolerance=tolerance, empty_ok=empty_ok,
              domain=lambda ivs, ts: ts[0].rank >= 1)


reduction("sum", lambda ivs, a, ts: (min(0, ivs[0][0]) * reduced_size(ts, a), max(0, ivs[0][1]) * reduced_size(ts, a)),
          "sum over one dim", tolerance="reduction order differs between kernels: judged against fp64",
          empty_ok=True)
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


# ---------------------------------------------------------------- more reductions


def _reduce_op(name, emit, bound, doc, attrs=_reduce_attrs, domain=None, infer=_reduce_infer, **kw):
    return register(name=name, family="reduction", arity=1, doc=doc, infer=infer, bound=bound, emit=emit,
                    attrs=attrs, domain=domain or (lambda ivs, ts: ts[0].rank >= 1), **kw)


def _dim_call(torch, paddle, tf, extra="", tf_extra=None):
    """Emitters of ``f(x, dim, keepdim)`` (paddle: ``axis``; tf: ``axis``, ``keepdims``), more arguments after."""
    tf_extra = extra if tf_extra is None else tf_extra
    return per_framework(f"{torch}({{0}}, dim={{dim}}, keepdim={{keepdim}}{extra})",
                         f"{paddle}({{0}}, axis={{dim}}, keepdim={{keepdim}}{extra})",
                         f"{tf}({{0}}, axis={{dim}}, keepdims={{keepdim}}{tf_extra})")


def _magnitude(ivs) -> float:
    return max(map(abs, ivs[0]))


_reduce_op("prod", _dim_call("torch.prod", "paddle.prod", "tf.reduce_prod"),
           lambda ivs, a, ts: (-_magnitude(ivs) ** reduced_size(ts, a), _magnitude(ivs) ** reduced_size(ts, a)),
           "product over one dim (|x| <= 2)", domain=lambda ivs, ts: ts[0].rank >= 1 and _magnitude(ivs) <= 2,
           empty_ok=True, tolerance="judged against fp64")
_reduce_op("logsumexp", _dim_call("torch.logsumexp", "paddle.logsumexp", "tf.reduce_logsumexp"),
           lambda ivs, a, ts: (ivs[0][0], ivs[0][1] + math.log(reduced_size(ts, a))),
           "log(sum(exp(x))) over one dim, computed stably", max_rank={"paddle": 4})


def _spread_dims(t: TensorType) -> list[int]:
    """Dims a variance divides by n - 1 along: at least two elements (the dynamic dim has at least two)."""
    return [i for i, n in enumerate(t.shape) if not isinstance(n, int) or n >= 2]


def _variance_infer(ts, a):
    t = ts[0]
    d = axis_of(t, a)
    need(d in _spread_dims(t) or not a["correction"],
         f"a variance with correction {a['correction']} over dim {d} of {t} divides by zero")
    return _reduce_infer(ts, a)


def _correction_attrs(draw, ts):
    st = strategies()
    return {"dim": draw(st.sampled_from(_spread_dims(ts[0]))), "keepdim": draw(st.booleans()),
            "correction": draw(st.sampled_from([1, 0]))}


def _tf_unbias(ts, a) -> str:
    """TensorFlow's variance divides by n: the factor n / (n - correction)."""
    if not a["correction"]:
        return ""
    n = f"tf.cast(tf.shape({{0}})[{a['dim']}], {{0}}.dtype)"
    return f" * {n} / ({n} - {a['correction']})"


def _variance_bound(ivs, a, ts):
    return (0.0, (ivs[0][1] - ivs[0][0]) ** 2 / 4 * 2)  # (range / 2)^2, times n / (n - 1) <= 2


_VARIANCE = "tf.math.reduce_variance({0}, axis={dim}, keepdims={keepdim}){tf_unbias}"
_reduce_op("var", per_framework("torch.var({0}, dim={dim}, correction={correction}, keepdim={keepdim})",
                                "paddle.var({0}, axis={dim}, unbiased={unbiased}, keepdim={keepdim})", _VARIANCE),
           _variance_bound, "variance over one dim with a correction of 0 (divide by n) or 1 (n - 1)",
           attrs=_correction_attrs, infer=_variance_infer,
           domain=lambda ivs, ts: bool(_spread_dims(ts[0])),
           fields=lambda ts, a: {"unbiased": bool(a["correction"]), "tf_unbias": _tf_unbias(ts, a)},
           tolerance="TensorFlow has no correction argument: its emitter scales by n / (n - 1)")
_reduce_op("std", per_framework("torch.std({0}, dim={dim}, correction={correction}, keepdim={keepdim})",
                                "paddle.std({0}, axis={dim}, unbiased={unbiased}, keepdim={keepdim})",
                                f"tf.sqrt({_VARIANCE})"),
           lambda ivs, a, ts: (0.0, math.sqrt(_variance_bound(ivs, a, ts)[1])),
           "standard deviation over one dim with a correction of 0 or 1",
           attrs=_correction_attrs, infer=_variance_infer,
           domain=lambda ivs, ts: bool(_spread_dims(ts[0])),
           fields=lambda ts, a: {"unbiased": bool(a["correction"]), "tf_unbias": _tf_unbias(ts, a)},
           tolerance="near-constant rows: the slope of sqrt at 0 amplifies rounding (judged against fp64)")
_reduce_op("std_default", per_framework("torch.std({0}, dim={dim}, keepdim={keepdim})",
                                        "paddle.std({0}, axis={dim}, keepdim={keepdim})",
                                        "tf.math.reduce_std({0}, axis={dim}, keepdims={keepdim})"),
           lambda ivs, a, ts: (0.0, math.sqrt(_variance_bound(ivs, a, ts)[1])),
           "standard deviation over one dim with each framework's default correction",
           attrs=lambda draw, ts: {**_correction_attrs(draw, ts), "correction": 1}, infer=_variance_infer,
           domain=lambda ivs, ts: bool(_spread_dims(ts[0])),
           differs={"tf": "tf.math.reduce_std divides by n (no correction); torch.std and paddle.std divide by n - 1 "
                          "by default"})

_NORM_ORDERS = {"1": "1", "2": "2", "inf": "float('inf')"}


def _norm_bound(ivs, a, ts):
    n = reduced_size(ts, a)
    m = _magnitude(ivs)
    return (0.0, m * {"1": n, "2": math.sqrt(n), "inf": 1}[a["ord"]])


_reduce_op("norm", per_framework("torch.linalg.vector_norm({0}, {ord_value}, dim={dim}, keepdim={keepdim})",
                                 "paddle.linalg.vector_norm({0}, p={ord_value}, axis={dim}, keepdim={keepdim})",
                                 "tf.norm({0}, ord={ord_value}, axis={dim}, keepdims={keepdim})"),
           _norm_bound, "vector norm over one dim, p = 1, 2 or inf",
           attrs=lambda draw, ts: {**_reduce_attrs(draw, ts),
                                   "ord": draw(strategies().sampled_from(["2", "1", "inf"]))},
           fields=lambda ts, a: {"ord_value": _NORM_ORDERS[a["ord"]]},
           tolerance="p = 2 of a near-zero vector: the slope of sqrt at 0 amplifies rounding (judged against fp64)")


def _bool_reduction(name, doc):
    _reduce_op(name, _dim_call(f"torch.{name}", f"paddle.{name}", f"tf.reduce_{name}"),
               lambda ivs, a, ts: (0.0, 1.0), doc, arg_dtypes=("bool",))


_bool_reduction("all", "whether every element along one dim is true (a bool tensor)")
_bool_reduction("any", "whether some element along one dim is true (a bool tensor)")


def _whole_infer(ts, a):
    return TensorType((), ts[0].dtype)


register(name="sum_all", family="reduction", arity=1, doc="sum of every element (a scalar tensor)",
         emit=calls("torch.sum", "paddle.sum", "tf.reduce_sum"), infer=_whole_infer, empty_ok=True,
         bound=lambda ivs, a, ts: (min(0.0, ivs[0][0]) * _elements(ts[0]), max(0.0, ivs[0][1]) * _elements(ts[0])),
         domain=lambda ivs, ts: ts[0].rank >= 1, tolerance="judged against fp64")
register(name="mean_all", family="reduction", arity=1, doc="mean of every element (a scalar tensor)",
         emit=calls("torch.mean", "paddle.mean", "tf.reduce_mean"), infer=_whole_infer, bound=keep_bound,
         domain=lambda ivs, ts: ts[0].rank >= 1, tolerance="judged against fp64")


def _elements(t: TensorType) -> int:
    """The largest number of elements of ``t`` (data-dependent dims: as many as a tensor here may hold)."""
    return math.prod(d if isinstance(d, int) else 6 ** 4 for d in t.shape)


def _two_dims_infer(ts, a):
    t = ts[0]
    dims = sorted({axis_of(t, {"dim": d}) for d in a["dims"]})
    need(len(dims) == 2, f"two distinct dims needed, got {a['dims']} for {t}")
    shape = [1 if i in dims else n for i, n in enumerate(t.shape)] if a["keepdim"] else \
        [n for i, n in enumerate(t.shape) if i not in dims]
    return TensorType(tuple(shape), t.dtype)


def _two_dims_attrs(draw, ts):
    st = strategies()
    dims = draw(st.lists(st.integers(0, ts[0].rank - 1), min_size=2, max_size=2, unique=True))
    return {"dims": tuple(dims), "keepdim": draw(st.booleans())}


def _reduced_over_two(ts, a) -> int:
    return math.prod(size_bound(ts[0].shape[d]) for d in a["dims"])


register(name="sum_dims", family="reduction", arity=1, doc="sum over two dims at once (an axes list)",
         emit=per_framework("torch.sum({0}, dim={dims_list}, keepdim={keepdim})",
                            "paddle.sum({0}, axis={dims_list}, keepdim={keepdim})",
                            "tf.reduce_sum({0}, axis={dims_list}, keepdims={keepdim})"),
         infer=_two_dims_infer, attrs=_two_dims_attrs, fields=lambda ts, a: {"dims_list": list(a["dims"])},
         bound=lambda ivs, a, ts: (min(0.0, ivs[0][0]) * _reduced_over_two(ts, a),
                                   max(0.0, ivs[0][1]) * _reduced_over_two(ts, a)),
         domain=lambda ivs, ts: ts[0].rank >= 2, tolerance="judged against fp64")
register(name="mean_dims", family="reduction", arity=1, doc="mean over two dims at once (an axes list)",
         emit=per_framework("torch.mean({0}, dim={dims_list}, keepdim={keepdim})",
                            "paddle.mean({0}, axis={dims_list}, keepdim={keepdim})",
                            "tf.reduce_mean({0}, axis={dims_list}, keepdims={keepdim})"),
         infer=_two_dims_infer, attrs=_two_dims_attrs, fields=lambda ts, a: {"dims_list": list(a["dims"])},
         bound=keep_bound, domain=lambda ivs, ts: ts[0].rank >= 2, tolerance="judged against fp64")

# ---------------------------------------------------------------- cumulative ops


def _scan_op(name, emit, bound, doc, **kw):
    return register(name=name, family="cumulative", arity=1, doc=doc, infer=lambda ts, a: (axis_of(ts[0], a), ts[0])[1],
                    emit=emit, bound=bound, attrs=dim_attr, domain=kw.pop("domain", lambda ivs, ts: ts[0].rank >= 1),
                    **kw)


_scan_op("cumsum", calls("torch.cumsum", "paddle.cumsum", "tf.cumsum", args="{0}, {dim}"),
         lambda ivs, a, ts: (min(0, ivs[0][0]) * reduced_size(ts, a), max(0, ivs[0][1]) * reduced_size(ts, a)),
         "running sum along one dim", empty_ok=True, tolerance="judged against fp64")
_scan_op("cumprod", calls("torch.cumprod", "paddle.cumprod", "tf.math.cumprod", args="{0}, {dim}"),
         lambda ivs, a, ts: (-max(1.0, _magnitude(ivs)) ** reduced_size(ts, a),
                             max(1.0, _magnitude(ivs)) ** reduced_size(ts, a)),
         "running product along one dim (|x| <= 2)", empty_ok=True,
         domain=lambda ivs, ts: ts[0].rank >= 1 and _magnitude(ivs) <= 2)
_scan_op("cummax", per_framework("torch.cummax({0}, {dim}).values", "paddle.cummax({0}, {dim})[0]",
                                 "tf_cumulative({0}, {dim}, tf.maximum)"),
         keep_bound, "running maximum along one dim (values)", helpers={"tf": helper_code.source(
             helper_code.tf_cumulative)},
         tolerance="TensorFlow has no cumulative max: its emitter scans tf.maximum along the dim")
_scan_op("cummin", per_framework("torch.cummin({0}, {dim}).values", "paddle.cummin({0}, {dim})[0]",
                                 "tf_cumulative({0}, {dim}, tf.minimum)"),
         keep_bound, "running minimum along one dim (values)", helpers={"tf": helper_code.source(
             helper_code.tf_cumulative)},
         tolerance="TensorFlow has no cumulative min: its emitter scans tf.minimum along the dim")
_scan_op("logcumsumexp", calls("torch.logcumsumexp", "paddle.logcumsumexp", "tf.math.cumulative_logsumexp",
                               args="{0}, {dim}"),
         lambda ivs, a, ts: (ivs[0][0], ivs[0][1] + math.log(reduced_size(ts, a))),
         "running log(sum(exp(x))) along one dim")
