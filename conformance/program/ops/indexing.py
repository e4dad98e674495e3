"""Indexing: gather, take_along_dim, index_select, scatter (plain, adding, reducing), index_add,
masked_fill, masked_select and nonzero (data-dependent sizes), embedding.

Index tensors are constants drawn with the program (an ``index`` attribute: nested tuples of ints, written
into the model as a tensor literal), as in models that pick fixed rows or positions; they index static
dims only, so every index is in range for any batch size. Along the dynamic dim an index has size 1 (the
first row). ``embedding`` takes its indices from an int64 variable (whose value range decides the table
size). ``scatter`` draws indices without duplicates along the scattered dim (where duplicates would
leave the result to the order of writes); ``scatter_add``, ``scatter_reduce`` and ``index_add`` draw them
with duplicates on purpose.
"""

from __future__ import annotations

import math

import numpy as np

from conformance.program.ir import DYNAMIC, TensorType
from conformance.program.ops import helper_code
from conformance.program.ops.record import (
    DATA_DIM_PREFIX,
    axis_of,
    broadcast,
    hull,
    index_bound,
    keep_bound,
    need,
    per_framework,
    register,
    size_bound,
    static_dims,
    strategies,
)

_TF_SCATTER = {"tf": helper_code.source(helper_code.tf_scatter_along)}
_TF_INDEX_ADD = {"tf": helper_code.source(helper_code.tf_index_add)}


def _literal(index) -> str:
    """An index attribute (nested tuples) as a Python list literal."""
    return repr(np.asarray(index, dtype=np.int64).tolist())


def _index_tensors(ts, a) -> dict:
    """The constant index as a tensor in each framework, the crop of a tensor to the index's block (``crop``), and
    the crop of ``x`` to it in every dim but ``dim``, which a gather indexes whole (``crop_but_dim``)."""
    literal = _literal(a["index"])
    shape = np.asarray(a["index"]).shape
    dim = axis_of(ts[0], a)
    return {"torch_index": f"torch.tensor({literal}, device={{0}}.device)",
            "paddle_index": f"paddle.to_tensor({literal})", "tf_index": f"tf.constant({literal}, tf.int64)",
            "index_list": literal, "crop": ", ".join(f":{n}" for n in shape),
            "crop_but_dim": ", ".join(":" if d == dim else f":{n}" for d, n in enumerate(shape))}


def _block_shape(t: TensorType, dim: int, draw, along: int) -> tuple:
    """An index shape: ``along`` at ``dim``; elsewhere a static size up to the input's, 1 for the dynamic dim."""
    st = strategies()
    return tuple(along if d == dim else (1 if n == DYNAMIC else draw(st.integers(1, n))) for d, n in enumerate(t.shape))


def _gather_attrs(draw, ts):
    st = strategies()
    t = ts[0]
    dim = draw(st.sampled_from(static_dims(t)))
    shape = _block_shape(t, dim, draw, draw(st.integers(1, 4)))
    flat = draw(st.lists(st.integers(0, t.shape[dim] - 1), min_size=math.prod(shape), max_size=math.prod(shape)))
    return {"dim": dim, "index": _nest(flat, shape)}


def _nest(flat, shape) -> tuple:
    """A flat list as nested tuples of ``shape``."""
    return _tuples(np.asarray(flat, dtype=np.int64).reshape(shape).tolist())


def _tuples(x):
    return tuple(_tuples(i) for i in x) if isinstance(x, list) else x


def _index_checked(t: TensorType, a: dict) -> np.ndarray:
    index = np.asarray(a["index"], dtype=np.int64)
    dim = axis_of(t, a)
    need(index.ndim == t.rank and isinstance(t.shape[dim], int), f"index of shape {index.shape} does not fit {t}")
    need(index.size > 0 and 0 <= index.min() and index.max() < t.shape[dim], f"index out of range for {t} at {dim}")
    return index


def _gather_infer(ts, a):
    t = ts[0]
    index = _index_checked(t, a)
    need(all(d == axis_of(t, a) or n == 1 or (isinstance(s, int) and n <= s)
             for d, (n, s) in enumerate(zip(index.shape, t.shape))), f"index {index.shape} larger than {t}")
    return TensorType(index.shape, t.dtype)


def _has_static(ivs, ts) -> bool:
    return ts[0].rank >= 1 and bool(static_dims(ts[0]))


register(name="gather", family="indexing", arity=1, arg_dtypes=("any",), doc="torch.gather along a static dim with "
         "a constant index: out[i][j] = x[index[i][j]][j] (dim 0); the index may be smaller than x elsewhere",
         emit=per_framework("torch.gather({0}, {dim}, {torch_index})",
                            "paddle.take_along_axis({0}, {paddle_index}, {dim}, broadcast=False)",
                            "tf.experimental.numpy.take_along_axis({0}[{crop_but_dim}], {tf_index}, {dim})"),
         infer=_gather_infer, attrs=_gather_attrs, fields=_index_tensors, domain=_has_static, bound=keep_bound,
         refuses={"paddle": ("bool", "int8", "float16")})  # paddle.take_along_axis has no kernel for them (CPU)


def _along_attrs(draw, ts):
    st = strategies()
    t = ts[0]
    dim = draw(st.sampled_from(static_dims(t)))
    along = draw(st.integers(1, 4))
    shape = tuple(along if d == dim else draw(st.sampled_from([1, n] if isinstance(n, int) else [1]))
                  for d, n in enumerate(t.shape))
    flat = draw(st.lists(st.integers(0, t.shape[dim] - 1), min_size=math.prod(shape), max_size=math.prod(shape)))
    return {"dim": dim, "index": _nest(flat, shape)}


def _along_infer(ts, a):
    t = ts[0]
    index = _index_checked(t, a)
    dim = axis_of(t, a)
    others = broadcast(tuple(1 if d == dim else n for d, n in enumerate(t.shape)),
                       tuple(1 if d == dim else n for d, n in enumerate(index.shape)))
    return TensorType(tuple(index.shape[d] if d == dim else n for d, n in enumerate(others)), t.dtype)


register(name="take_along_dim", family="indexing", arity=1, arg_dtypes=("any",), doc="torch.take_along_dim: "
         "gather along a static dim with a constant index that broadcasts against x on the other dims",
         emit=per_framework("torch.take_along_dim({0}, {torch_index}, {dim})",
                            "paddle.take_along_axis({0}, {paddle_index}, {dim})",
                            "tf.experimental.numpy.take_along_axis({0}, {tf_index}, {dim})"),
         infer=_along_infer, attrs=_along_attrs, fields=_index_tensors, domain=_has_static, bound=keep_bound,
         refuses={"paddle": ("bool", "int8", "float16")})


def _select_attrs(draw, ts):
    st = strategies()
    t = ts[0]
    dim = draw(st.sampled_from(static_dims(t)))
    return {"dim": dim, "index": tuple(draw(st.lists(st.integers(0, t.shape[dim] - 1), min_size=1, max_size=5)))}


def _select_infer(ts, a):
    t = ts[0]
    dim = axis_of(t, a)
    index = np.asarray(a["index"], dtype=np.int64)
    need(index.ndim == 1 and isinstance(t.shape[dim], int) and index.size > 0 and 0 <= index.min()
         and index.max() < t.shape[dim], f"index {a['index']} does not fit dim {dim} of {t}")
    return TensorType(t.shape[:dim] + (len(index),) + t.shape[dim + 1:], t.dtype)


register(name="index_select", family="indexing", arity=1, arg_dtypes=("any",), doc="rows of a static dim picked by "
         "a constant 1-d index (repeats allowed)",
         emit=per_framework("torch.index_select({0}, {dim}, {torch_index})",
                            "paddle.index_select({0}, {paddle_index}, axis={dim})",
                            "tf.gather({0}, {tf_index}, axis={dim})"),
         infer=_select_infer, attrs=_select_attrs, fields=_index_tensors, domain=_has_static, bound=keep_bound,
         refuses={"paddle": ("int8", "uint8", "float16")})  # paddle.index_select has no kernel for them (CPU)


# ---------------------------------------------------------------- scatter


def _scatter_attrs(duplicates: bool, reduce: bool = False, fixed=None):
    def attrs(draw, ts):
        st = strategies()
        t = ts[0]
        dim = draw(st.sampled_from(static_dims(t)))
        size = t.shape[dim]
        # torch: an index no longer than src along the dim; with duplicates, as long as it, most often (two
        # values or more along the dim, drawn from few: duplicates are likely)
        along = draw(st.sampled_from([size, 2, 1] if size >= 2 else [1])) if duplicates else draw(st.integers(1, size))
        shape = _block_shape(t, dim, draw, along)
        if duplicates:
            flat = draw(st.lists(st.integers(0, size - 1), min_size=math.prod(shape), max_size=math.prod(shape)))
            index = np.asarray(flat).reshape(shape)
        else:  # one permutation's prefix, rolled from one position to the next: no duplicates along dim
            order = np.asarray(draw(st.permutations(range(size))))
            others = [n for d, n in enumerate(shape) if d != dim]
            rows = [np.roll(order, r)[:along] for r in range(math.prod(others))]
            index = np.moveaxis(np.asarray(rows).reshape(*others, along), -1, dim)
        a = {"dim": dim, "index": _tuples(index.tolist())}
        if reduce:
            a.update(reduce=draw(st.sampled_from(["sum", "amax", "amin", "mean"])), include_self=draw(st.booleans()))
        return {**a, **(fixed or {})}
    return attrs


def _scatter_infer(ts, a):
    x, src = ts
    index = _index_checked(x, a)
    need(x == src, f"scatter here takes src of x's type, got {x} and {src}")
    need(all(n == 1 or (isinstance(s, int) and n <= s) for n, s in zip(index.shape, x.shape)),
         f"index {index.shape} larger than {x}")
    return x


def _scatter_bound(ivs, a, ts):
    k = np.asarray(a["index"]).shape[a["dim"]]  # the most values one position receives
    (x0, x1), (s0, s1) = ivs
    if a.get("reduce") not in ("sum", "add"):  # written, or a max, min or mean of values in range
        return hull(x0, x1, s0, s1)
    if a.get("include_self", True):
        return (x0 + k * min(0.0, s0), x1 + k * max(0.0, s1))
    return hull(x0, x1, k * min(0.0, s0), k * max(0.0, s1), s0, s1)


_PADDLE_MODE = {"assign": "assign", "add": "add", "sum": "add", "amax": "amax", "amin": "amin", "mean": "mean"}


def _duplicates(ts, a) -> dict:
    """The coverage feature of a scatter: whether its index repeats a position along its dim (see ``OpRecord.bins``),
    where the reduction decides what is written."""
    index = np.moveaxis(np.asarray(a["index"]), a["dim"], -1)
    rows = index.reshape(-1, index.shape[-1]) if index.size else index.reshape(0, 1)
    return {"duplicates": str(any(len(set(row.tolist())) < len(row) for row in rows))}


def _scatter(name, emit, doc, attrs, **kw):
    register(name=name, family="indexing", arity=2, doc=doc, emit=emit, infer=_scatter_infer, attrs=attrs,
             bins=_duplicates,
             fields=lambda ts, a: {**_index_tensors(ts, a), "mode": _PADDLE_MODE[a.get("reduce", "assign")]},
             domain=lambda ivs, ts: ts[0] == ts[1] and bool(static_dims(ts[0])),
             bound=_scatter_bound, **kw)


_PADDLE_PUT = "paddle.put_along_axis({0}, {paddle_index}, {1}[{crop}], {dim}, reduce={mode!r}, broadcast=False"
_scatter("scatter", per_framework("torch.scatter({0}, {dim}, {torch_index}, {1})", _PADDLE_PUT + ")",
                                  "tf_scatter_along({0}, {dim}, {index_list}, {1}, 'assign', True)"),
         "torch.scatter: x with src's values written at a constant index along a static dim (no duplicates "
         "along the dim)", _scatter_attrs(duplicates=False), helpers=_TF_SCATTER)
_scatter("scatter_add", per_framework("torch.scatter_add({0}, {dim}, {torch_index}, {1})", _PADDLE_PUT + ")",
                                      "tf_scatter_along({0}, {dim}, {index_list}, {1}, 'sum', True)"),
         "torch.scatter_add: src's values added into x at a constant index along a static dim, duplicates summed",
         _scatter_attrs(duplicates=True, fixed={"reduce": "add"}), helpers=_TF_SCATTER,
         tolerance="duplicates are summed in an order each kernel picks: judged against fp64")
_scatter("scatter_reduce", per_framework(
    "torch.scatter_reduce({0}, {dim}, {torch_index}, {1}, {reduce!r}, include_self={include_self})",
    _PADDLE_PUT + ", include_self={include_self})",
    "tf_scatter_along({0}, {dim}, {index_list}, {1}, {reduce!r}, {include_self})"),
    "torch.scatter_reduce with sum, amax, amin or mean, including x's own values or not, duplicates reduced",
    _scatter_attrs(duplicates=True, reduce=True), helpers=_TF_SCATTER,
    tolerance="duplicates are reduced in an order each kernel picks: judged against fp64")


def _index_add_attrs(draw, ts):
    st = strategies()
    t = ts[0]
    dim = draw(st.sampled_from(static_dims(t)))
    n = t.shape[dim]
    return {"dim": dim, "index": tuple(draw(st.lists(st.integers(0, n - 1), min_size=n, max_size=n)))}


def _index_add_infer(ts, a):
    x, src = ts
    need(x == src, f"index_add here takes src of x's type, got {x} and {src}")
    dim = axis_of(x, a)
    index = np.asarray(a["index"], dtype=np.int64)
    need(index.ndim == 1 and isinstance(x.shape[dim], int) and len(index) == x.shape[dim] and index.min() >= 0
         and index.max() < x.shape[dim], f"index {a['index']} does not fit dim {dim} of {x}")
    return x


register(name="index_add", family="indexing", arity=2, doc="torch.index_add: src's slices along a static dim added "
         "to x's slices at a constant 1-d index (duplicates summed)",
         emit=per_framework("torch.index_add({0}, {dim}, {torch_index}, {1})",
                            "paddle.index_add({0}, {paddle_index}, {dim}, {1})",
                            "tf_index_add({0}, {dim}, {index_list}, {1})"),
         infer=_index_add_infer, attrs=_index_add_attrs, fields=_index_tensors, helpers=_TF_INDEX_ADD,
         domain=lambda ivs, ts: ts[0] == ts[1] and bool(static_dims(ts[0])),
         bound=lambda ivs, a, ts: (ivs[0][0] + len(a["index"]) * min(0.0, ivs[1][0]),
                                   ivs[0][1] + len(a["index"]) * max(0.0, ivs[1][1])),
         tolerance="duplicates are summed in an order each kernel picks: judged against fp64")

# ---------------------------------------------------------------- masks


def _mask_infer(ts, a):
    x, mask = ts
    need(x.dtype == "float32" and mask.dtype == "bool", f"needs a float tensor and a bool mask, got {x}, {mask}")
    need(broadcast(x.shape, mask.shape) == x.shape, f"the mask {mask} must broadcast into {x}")
    return x


register(name="masked_fill", family="indexing", arity=2, arg_dtypes=("float32", "bool"), empty_ok=True,
         doc="x with a constant where a bool mask (broadcasting into x) is true",
         emit=per_framework("torch.masked_fill({0}, {1}, {value})", "paddle.masked_fill({0}, {1}, {value})",
                            "tf.where({1}, tf.constant({value}, {0}.dtype), {0})"),
         infer=_mask_infer, attrs=lambda draw, ts: {"value": draw(strategies().sampled_from([0.0, -1.0, 2.5]))},
         bound=lambda ivs, a, ts: hull(*ivs[0], a["value"]))


def _masked_select_infer(ts, a):
    x, mask = ts
    need(x.dtype == "float32" and mask.dtype == "bool" and x.shape == mask.shape,
         f"masked_select here needs a float tensor and a bool mask of one shape, got {x}, {mask}")
    return TensorType((DATA_DIM_PREFIX,), x.dtype)


# TensorFlow: tf.boolean_mask refuses a 0-d mask ('mask cannot be scalar', eagerly too), so x and the mask are
# flattened first: masked_select's 1-d result in row-major order, of a 0-d x too (torch and paddle take one).
register(name="masked_select", family="indexing", arity=2, arg_dtypes=("float32", "bool"), data_dependent=True,
         weight=1.0, doc="the elements of x where a mask of x's shape is true, as a 1-d tensor whose length the data "
         "decides", emit=per_framework("torch.masked_select({0}, {1})", "paddle.masked_select({0}, {1})",
                                       "tf.boolean_mask(tf.reshape({0}, [-1]), tf.reshape({1}, [-1]))"),
         infer=_masked_select_infer, domain=lambda ivs, ts: ts[0].shape == ts[1].shape, bound=keep_bound,
         tolerance="a data-dependent size: paths that need static shapes refuse it by design")


def _nonzero_infer(ts, a):
    t = ts[0]
    need(t.dtype == "bool" and t.rank >= 1, f"nonzero here takes a bool tensor of rank >= 1, got {t}")
    return TensorType((DATA_DIM_PREFIX, t.rank), "int64")


register(name="nonzero", family="indexing", arity=1, arg_dtypes=("bool",), data_dependent=True, weight=1.0,
         doc="the coordinates of the true elements of a bool tensor, [count, rank] int64, a count the data decides",
         emit=per_framework("torch.nonzero({0})", "paddle.nonzero({0})", "tf.where({0})"),
         infer=_nonzero_infer, domain=lambda ivs, ts: ts[0].rank >= 1,
         bound=lambda ivs, a, ts: index_bound(max(size_bound(n) for n in ts[0].shape)),
         tolerance="a data-dependent size: paths that need static shapes refuse it by design")

# ---------------------------------------------------------------- embedding


def _embedding_infer(ts, a):
    t = ts[0]
    need(t.dtype == "int64", f"embedding takes int64 indices, got {t}")
    return TensorType(t.shape + (a["features"],), "float32")


register(name="embedding", family="indexing", arity=1, arg_dtypes=("int64",), empty_ok=True, weight=2.0,
         doc="rows of a weight table [10, features] picked by an int64 tensor with values in 0..9 (a lookup table)",
         emit=per_framework("F.embedding({0}, {p0})", "F.embedding({0}, {p0})", "tf.gather({p0}, {0})"),
         infer=_embedding_infer, domain=lambda ivs, ts: 0 <= ivs[0][0] and ivs[0][1] <= 9 and ts[0].rank <= 3,
         attrs=lambda draw, ts: {"features": draw(strategies().integers(1, 4))},
         params=lambda ts, a: [((10, a["features"]), 0.5)],
         bound=lambda ivs, a, ts: (-0.5, 0.5))
