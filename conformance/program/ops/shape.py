"""Shape ops: flatten, reshape, unsqueeze, transpose, concat, basic slicing and integer indexing."""

from __future__ import annotations

import math

from conformance.program.ops.record import (
    TensorType,
    axis_of,
    calls,
    everywhere,
    keep_bound,
    need,
    per_framework,
    register,
    static_dims,
    strategies,
)


def _flatten_infer(ts, a):
    t = ts[0]
    need(t.rank >= 3 and all(isinstance(d, int) for d in t.shape[1:]),
         f"flatten(x, 1) here needs rank >= 3 with static trailing dims, got {t}")
    return TensorType((t.shape[0], math.prod(t.shape[1:])), t.dtype)


register(name="flatten", family="shape", arity=1, view=True, doc="flatten all dims after the first",
         arg_dtypes=("any",),
         emit=per_framework("torch.flatten({0}, 1)", "paddle.flatten({0}, 1)",
                            "tf.reshape({0}, [tf.shape({0})[0], -1])"),
         infer=_flatten_infer, bound=keep_bound,
         domain=lambda ivs, ts: ts[0].rank >= 3 and all(isinstance(d, int) for d in ts[0].shape[1:]))


def _reshape_infer(ts, a):
    t = ts[0]
    new = tuple(a["shape"])
    need(all(isinstance(d, int) for d in t.shape), f"reshape needs static shapes, got {t}")
    need(math.prod(new) == math.prod(t.shape), f"cannot reshape {t} to {list(new)}")
    return TensorType(new, t.dtype)


def _reshape_attrs(draw, ts):
    n = math.prod(ts[0].shape)
    divs = [d for d in range(1, n + 1) if n % d == 0]
    first = draw(strategies().sampled_from(divs))
    rest = n // first
    return {"shape": draw(strategies().sampled_from([(first, rest), (rest, first), (n,), (first, 1, rest)]))}


register(name="reshape", family="shape", arity=1, view=True, doc="reshape to a static shape", arg_dtypes=("any",),
         emit=per_framework("{0}.reshape({shape_args})", "paddle.reshape({0}, [{shape_args}])",
                            "tf.reshape({0}, [{shape_args}])"),
         infer=_reshape_infer, bound=keep_bound, attrs=_reshape_attrs,
         domain=lambda ivs, ts: ts[0].rank >= 1 and all(isinstance(d, int) for d in ts[0].shape))


def _unsqueeze_infer(ts, a):
    t = ts[0]
    d = a["dim"]
    need(0 <= d <= t.rank, f"unsqueeze dim {d} out of range for {t}")
    return TensorType(t.shape[:d] + (1,) + t.shape[d:], t.dtype)


register(name="unsqueeze", family="shape", arity=1, view=True, doc="insert a dim of size 1", arg_dtypes=("any",),
         emit=calls("torch.unsqueeze", "paddle.unsqueeze", "tf.expand_dims", args="{0}, {dim}"),
         infer=_unsqueeze_infer, bound=keep_bound,
         attrs=lambda draw, ts: {"dim": draw(strategies().integers(0, ts[0].rank))},
         domain=lambda ivs, ts: ts[0].rank <= 3)


def _transpose_infer(ts, a):
    t = ts[0]
    d0, d1 = a["dims"]
    need(0 <= d0 < t.rank and 0 <= d1 < t.rank, f"transpose dims {a['dims']} out of range for {t}")
    shape = list(t.shape)
    shape[d0], shape[d1] = shape[d1], shape[d0]
    return TensorType(tuple(shape), t.dtype)


register(name="transpose", family="shape", arity=1, view=True, doc="swap two dims", arg_dtypes=("any",),
         emit=per_framework("torch.transpose({0}, {dims[0]}, {dims[1]})", "paddle.transpose({0}, {perm})",
                            "tf.transpose({0}, {perm})"),
         infer=_transpose_infer, bound=keep_bound,
         attrs=lambda draw, ts: {"dims": tuple(draw(strategies().lists(strategies().integers(0, ts[0].rank - 1),
                                                                       min_size=2, max_size=2, unique=True)))},
         domain=lambda ivs, ts: ts[0].rank >= 2)


def _concat_infer(ts, a):
    x, y = ts
    d = axis_of(x, a)
    need(x == y and isinstance(x.shape[d], int), f"concat here joins two equal types along a static dim, got {x}, {y}")
    shape = list(x.shape)
    shape[d] *= 2
    return TensorType(tuple(shape), x.dtype)


register(name="concat", family="shape", arity=2, arg_shapes="any",
         doc="concatenate two tensors of the same shape along a static dim",
         emit=per_framework("torch.cat([{0}, {1}], dim={dim})", "paddle.concat([{0}, {1}], axis={dim})",
                            "tf.concat([{0}, {1}], axis={dim})"),
         infer=_concat_infer,
         bound=lambda ivs, a, ts: (min(ivs[0][0], ivs[1][0]), max(ivs[0][1], ivs[1][1])),
         domain=lambda ivs, ts: ts[0] == ts[1] and any(isinstance(d, int) for d in ts[0].shape),
         attrs=lambda draw, ts: {"dim": draw(strategies().sampled_from(static_dims(ts[0])))})


def _slice_infer(ts, a):
    t = ts[0]
    d, start, stop = a["dim"], a["start"], a["stop"]
    need(0 <= d < t.rank and isinstance(t.shape[d], int) and 0 <= start < stop <= t.shape[d],
          f"slice {start}:{stop} on dim {d} does not fit {t}")
    shape = list(t.shape)
    shape[d] = stop - start
    return TensorType(tuple(shape), t.dtype)


def _slice_attrs(draw, ts):
    st = strategies()
    t = ts[0]
    d = draw(st.sampled_from(static_dims(t, 2)))
    start = draw(st.integers(0, t.shape[d] - 1))
    stop = draw(st.integers(start + 1, t.shape[d]))
    return {"dim": d, "start": start, "stop": stop}


register(name="slice", family="shape", arity=1, view=True, doc="basic slicing x[..., start:stop] along a static dim",
         arg_dtypes=("any",), emit=everywhere("{0}[{index_prefix}{start}:{stop}]"), infer=_slice_infer,
         bound=keep_bound,
         attrs=_slice_attrs, domain=lambda ivs, ts: bool(static_dims(ts[0], 2)))


def _index_infer(ts, a):
    t = ts[0]
    d, i = a["dim"], a["index"]
    need(0 <= d < t.rank and isinstance(t.shape[d], int) and 0 <= i < t.shape[d],
         f"index {i} on dim {d} does not fit {t}")
    return TensorType(t.shape[:d] + t.shape[d + 1:], t.dtype)


def _index_attrs(draw, ts):
    d = draw(strategies().sampled_from(static_dims(ts[0])))
    return {"dim": d, "index": draw(strategies().integers(0, ts[0].shape[d] - 1))}


register(name="index", family="shape", arity=1, view=True, doc="integer indexing x[..., i], dropping the dim",
         arg_dtypes=("any",),
         emit=everywhere("{0}[{index_prefix}{index}]"), infer=_index_infer, bound=keep_bound, attrs=_index_attrs,
         domain=lambda ivs, ts: ts[0].rank >= 2 and bool(static_dims(ts[0])))
