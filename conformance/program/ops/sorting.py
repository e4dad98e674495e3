"""Sorting and selection: sort, argsort (stable), topk, argmax, argmin, kthvalue, median, unique.

Sorted values move continuously with the inputs; indices (argsort, argmax, argmin) jump where two values
cross, so the branch-flip guard watches the gaps between neighbouring sorted values along the dim (a
``cmp`` probe of each gap against 0). Exact ties (zeros after a relu, saturated clamps) are not rounding:
they are judged, and every framework here promises what a tie gives — the first index for argmax and
argmin, the original order for a stable argsort.
"""

from __future__ import annotations

from conformance.program.ir import TensorType
from conformance.program.ops import helper_code
from conformance.program.ops.record import (
    DATA_DIM_PREFIX,
    axis_of,
    index_bound,
    keep_bound,
    need,
    per_framework,
    register,
    size_bound,
    static_dims,
    strategies,
)

#: the gaps between neighbouring sorted values along ``dim``, against 0: where an index output jumps
_GAPS = per_framework("torch.diff(torch.sort({0}, dim={dim}).values, dim={dim}), torch.zeros(())",
                      "paddle.diff(paddle.sort({0}, axis={dim}), axis={dim}), paddle.zeros([])",
                      "tf.experimental.numpy.diff(tf.sort({0}, axis={dim}), axis={dim}), tf.zeros([], {0}.dtype)")
_GUARDED = dict(probe="cmp", probe_args=_GAPS,
                tolerance="the indices jump where two values cross: the guard watches the gaps between sorted "
                          "neighbours; exact ties are judged")


def _along(ts, a):
    axis_of(ts[0], a)
    return ts[0]


def _dim_and(draw, ts, **more):
    st = strategies()
    return {"dim": draw(st.integers(-ts[0].rank, ts[0].rank - 1)), **{k: draw(v) for k, v in more.items()}}


register(name="sort", family="sorting", arity=1, doc="sorted values along one dim, ascending or descending",
         emit=per_framework("torch.sort({0}, dim={dim}, descending={descending}).values",
                            "paddle.sort({0}, axis={dim}, descending={descending})",
                            "tf.sort({0}, axis={dim}, direction={direction!r})"),
         infer=_along, bound=keep_bound, domain=lambda ivs, ts: ts[0].rank >= 1, empty_ok=True,
         attrs=lambda draw, ts: _dim_and(draw, ts, descending=strategies().booleans()),
         fields=lambda ts, a: {"direction": "DESCENDING" if a["descending"] else "ASCENDING"})


def _index_type(ts, a):
    axis_of(ts[0], a)
    return TensorType(ts[0].shape, "int64")


register(name="argsort", family="sorting", arity=1, doc="the indices that sort along one dim, stable (equal values "
         "keep their order), ascending or descending",
         emit=per_framework("torch.argsort({0}, dim={dim}, descending={descending}, stable=True)",
                            "paddle.argsort({0}, axis={dim}, descending={descending}, stable=True)",
                            "tf.cast(tf.argsort({0}, axis={dim}, direction={direction!r}, stable=True), tf.int64)"),
         infer=_index_type, domain=lambda ivs, ts: ts[0].rank >= 1,
         bound=lambda ivs, a, ts: index_bound(size_bound(ts[0].shape[axis_of(ts[0], a)])),
         attrs=lambda draw, ts: _dim_and(draw, ts, descending=strategies().booleans()),
         fields=lambda ts, a: {"direction": "DESCENDING" if a["descending"] else "ASCENDING"}, **_GUARDED)


register(name="argsort_int", family="sorting", arity=1, arg_dtypes=("int64",), doc="the indices that sort an int64 "
         "tensor along one dim, stable: ties are the rule here (equal values keep their order), ascending or "
         "descending",
         emit=per_framework("torch.argsort({0}, dim={dim}, descending={descending}, stable=True)",
                            "paddle.argsort({0}, axis={dim}, descending={descending}, stable=True)",
                            "tf.cast(tf.argsort({0}, axis={dim}, direction={direction!r}, stable=True), tf.int64)"),
         infer=_index_type, domain=lambda ivs, ts: ts[0].rank >= 1, empty_ok=True,
         bound=lambda ivs, a, ts: index_bound(size_bound(ts[0].shape[axis_of(ts[0], a)])),
         attrs=lambda draw, ts: _dim_and(draw, ts, descending=strategies().booleans()),
         fields=lambda ts, a: {"direction": "DESCENDING" if a["descending"] else "ASCENDING"})


def _arg_infer(ts, a):
    t = ts[0]
    d = axis_of(t, a)
    shape = list(t.shape)
    if a["keepdim"]:
        shape[d] = 1
    else:
        del shape[d]
    return TensorType(tuple(shape), "int64")


def _arg(name, doc):
    def tf_call(a) -> str:
        call = f"tf.{name}({{0}}, axis={a['dim']})"
        return f"tf.expand_dims({call}, {a['dim']})" if a["keepdim"] else call

    register(name=name, family="sorting", arity=1, doc=doc,
             emit=per_framework(f"torch.{name}({{0}}, dim={{dim}}, keepdim={{keepdim}})",
                                f"paddle.{name}({{0}}, axis={{dim}}, keepdim={{keepdim}})", "{tf_call}"),
             fields=lambda ts, a: {"tf_call": tf_call(a)},
             infer=_arg_infer, domain=lambda ivs, ts: ts[0].rank >= 1,
             bound=lambda ivs, a, ts: index_bound(size_bound(ts[0].shape[axis_of(ts[0], a)])),
             attrs=lambda draw, ts: _dim_and(draw, ts, keepdim=strategies().booleans()), **_GUARDED)


_arg("argmax", "the index of the largest value along one dim (the first of equal ones)")
_arg("argmin", "the index of the smallest value along one dim (the first of equal ones)")


def _selected_infer(ts, a):
    t = ts[0]
    d = axis_of(t, a)
    need(isinstance(t.shape[d], int) and 1 <= a["k"] <= t.shape[d], f"k = {a['k']} does not fit dim {d} of {t}")
    shape = list(t.shape)
    if "keepdim" not in a:
        shape[d] = a["k"]  # topk
    elif a["keepdim"]:
        shape[d] = 1
    else:
        del shape[d]
    return TensorType(tuple(shape), t.dtype)


def _k_attrs(keepdim: bool):
    def attrs(draw, ts):
        st = strategies()
        dim = draw(st.sampled_from(static_dims(ts[0])))
        a = {"dim": dim, "k": draw(st.integers(1, ts[0].shape[dim]))}
        if keepdim:
            a["keepdim"] = draw(st.booleans())
        return a
    return attrs


register(name="topk", family="sorting", arity=1, doc="the k largest or smallest values along a static dim, in order",
         emit=per_framework("torch.topk({0}, {k}, dim={dim}, largest={largest}).values",
                            "paddle.topk({0}, {k}, axis={dim}, largest={largest})[0]",
                            "tf_topk({0}, {k}, {dim}, {largest})"),
         helpers={"tf": helper_code.source(helper_code.tf_topk)}, infer=_selected_infer, bound=keep_bound,
         domain=lambda ivs, ts: bool(static_dims(ts[0])),
         attrs=lambda draw, ts: {**_k_attrs(False)(draw, ts), "largest": draw(strategies().booleans())})
register(name="kthvalue", family="sorting", arity=1, doc="the k-th smallest value along a static dim",
         emit=per_framework("torch.kthvalue({0}, {k}, dim={dim}, keepdim={keepdim}).values",
                            "paddle.kthvalue({0}, {k}, axis={dim}, keepdim={keepdim})[0]",
                            "tf.gather(tf.sort({0}, axis={dim}), {tf_k}, axis={dim})"),
         fields=lambda ts, a: {"tf_k": [a["k"] - 1] if a["keepdim"] else a["k"] - 1},
         infer=_selected_infer, bound=keep_bound, domain=lambda ivs, ts: bool(static_dims(ts[0])), attrs=_k_attrs(True))


def _median_attrs(draw, ts):
    st = strategies()
    dim = draw(st.sampled_from(static_dims(ts[0])))
    return {"dim": dim, "keepdim": draw(st.booleans()), "k": (ts[0].shape[dim] + 1) // 2}


register(name="median", family="sorting", arity=1, doc="the median along a static dim: the lower of the two middle "
         "values for an even count (Paddle: mode='min'; its default averages them)",
         emit=per_framework("torch.median({0}, dim={dim}, keepdim={keepdim}).values",
                            "paddle.median({0}, axis={dim}, keepdim={keepdim}, mode='min')[0]",
                            "tf.gather(tf.sort({0}, axis={dim}), {tf_k}, axis={dim})"),
         fields=lambda ts, a: {"tf_k": [a["k"] - 1] if a["keepdim"] else a["k"] - 1},
         infer=_selected_infer, bound=keep_bound, domain=lambda ivs, ts: bool(static_dims(ts[0])),
         attrs=_median_attrs)


def _unique_infer(ts, a):
    need(ts[0].dtype == "int64", f"unique here takes an int64 tensor, got {ts[0]}")
    return TensorType((DATA_DIM_PREFIX,), "int64")


register(name="unique", family="sorting", arity=1, arg_dtypes=("int64",), data_dependent=True, weight=1.0,
         empty_ok=True, doc="the distinct values of an int64 tensor, sorted, as a 1-d tensor whose length the data "
         "decides", emit=per_framework("torch.unique({0})", "paddle.unique({0})",
                                       "tf.sort(tf.unique(tf.reshape({0}, [-1])).y)"),
         infer=_unique_infer, bound=keep_bound, domain=lambda ivs, ts: ts[0].rank >= 1,
         tolerance="a data-dependent size: paths that need static shapes refuse it by design; TensorFlow's "
                   "tf.unique keeps the order of first appearance: its emitter sorts")
