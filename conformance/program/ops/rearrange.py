"""More shape ops: expand, tile, repeat_interleave, squeeze, split and chunk (one piece), stack, flip, roll,
tril, triu, diagonal, movedim, permute, slicing with a step, reshape with -1, flatten of a range of dims."""

from __future__ import annotations

import math

from conformance.program.ir import DYNAMIC, TensorType
from conformance.program.ops.record import (
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


def _shape_op(name, emit, infer, attrs, doc, domain=lambda ivs, ts: ts[0].rank >= 1, **kw):
    register(name=name, family="shape", arity=kw.pop("arity", 1), arg_dtypes=kw.pop("arg_dtypes", ("any",)), doc=doc,
             emit=emit, infer=infer, attrs=attrs, domain=domain, bound=kw.pop("bound", keep_bound), **kw)


def _tf_shape(t: TensorType, sizes) -> str:
    """A shape list for TensorFlow, the dynamic dim read from the tensor ``{0}`` when it runs."""
    return "[" + ", ".join(f"tf.shape({{0}})[{i}]" if n == DYNAMIC else str(n) for i, n in enumerate(sizes)) + "]"


# ---------------------------------------------------------------- expand, tile, repeat_interleave


def _expand_infer(ts, a):
    t = ts[0]
    need(len(a["sizes"]) == t.rank and all(n == -1 or (t.shape[i] == 1 and n >= 1) for i, n in enumerate(a["sizes"])),
         f"expand {a['sizes']} does not fit {t} (only dims of size 1 grow; -1 keeps a dim)")
    return TensorType(tuple(t.shape[i] if n == -1 else n for i, n in enumerate(a["sizes"])), t.dtype)


def _expand_attrs(draw, ts):
    st = strategies()
    return {"sizes": tuple(draw(st.sampled_from([-1, 2, 3])) if n == 1 else -1 for n in ts[0].shape)}


_shape_op("expand", per_framework("{0}.expand({sizes_args})", "paddle.expand({0}, {sizes_list})",
                                  "tf.broadcast_to({0}, {tf_sizes})"),
          _expand_infer, _expand_attrs, "broadcast dims of size 1 to a larger size (-1 keeps a dim): a view",
          domain=lambda ivs, ts: 1 in ts[0].shape, view=True, empty_ok=True,
          fields=lambda ts, a: {"sizes_args": ", ".join(map(str, a["sizes"])), "sizes_list": list(a["sizes"]),
                                "tf_sizes": _tf_shape(ts[0], _expand_infer(ts, a).shape)})


def _tile_infer(ts, a):
    t = ts[0]
    need(len(a["reps"]) == t.rank
         and all(r >= 1 and (r == 1 or isinstance(n, int)) for r, n in zip(a["reps"], t.shape)),
         f"tile {a['reps']} does not fit {t} (the dynamic dim is not repeated)")
    return TensorType(tuple(n if r == 1 else n * r for r, n in zip(a["reps"], t.shape)), t.dtype)


_shape_op("tile", per_framework("{0}.repeat({reps_args})", "paddle.tile({0}, {reps_list})",
                                "tf.tile({0}, {reps_list})"),
          _tile_infer, lambda draw, ts: {"reps": tuple(draw(strategies().sampled_from([1, 2])) if isinstance(n, int)
                                                       else 1 for n in ts[0].shape)},
          "repeat the whole tensor along each dim (torch's Tensor.repeat, numpy's tile)", empty_ok=True,
          fields=lambda ts, a: {"reps_args": ", ".join(map(str, a["reps"])), "reps_list": list(a["reps"])})


def _interleave_infer(ts, a):
    t = ts[0]
    d = axis_of(t, a)
    need(isinstance(t.shape[d], int), f"repeat_interleave here repeats a static dim, got {d} of {t}")
    return TensorType(t.shape[:d] + (t.shape[d] * a["repeats"],) + t.shape[d + 1:], t.dtype)


_shape_op("repeat_interleave", calls("torch.repeat_interleave", "paddle.repeat_interleave", "tf.repeat",
                                     args="{0}, {repeats}, {dim}"),
          _interleave_infer, lambda draw, ts: {"dim": draw(strategies().sampled_from(static_dims(ts[0]))),
                                              "repeats": draw(strategies().sampled_from([2, 3]))},
          "repeat each element along a static dim, next to itself", domain=lambda ivs, ts: bool(static_dims(ts[0])),
          refuses={"paddle": ("bool", "int8", "uint8", "float16")})  # paddle.repeat_interleave: no such kernels (CPU)

# ---------------------------------------------------------------- squeeze, split, chunk, stack


def _squeeze_infer(ts, a):
    t = ts[0]
    d = axis_of(t, a)
    need(t.shape[d] == 1, f"squeeze dim {d} of {t} is not of size 1")
    return TensorType(t.shape[:d] + t.shape[d + 1:], t.dtype)


_shape_op("squeeze", calls("torch.squeeze", "paddle.squeeze", "tf.squeeze", args="{0}, {dim}"),
          _squeeze_infer, lambda draw, ts: {"dim": draw(strategies().sampled_from(
              [i for i, n in enumerate(ts[0].shape) if n == 1]))},
          "remove a dim of size 1: a view", domain=lambda ivs, ts: 1 in ts[0].shape, view=True, empty_ok=True)


def _sections(size: int, part: int) -> list[int]:
    """torch.split's pieces of a dim of ``size`` by a piece size (the last one smaller)."""
    return [min(part, size - start) for start in range(0, size, part)]


def _split_infer(ts, a):
    t = ts[0]
    d = axis_of(t, a)
    need(isinstance(t.shape[d], int), f"split here splits a static dim, got {d} of {t}")
    pieces = _sections(t.shape[d], a["size"])
    need(0 <= a["piece"] < len(pieces), f"piece {a['piece']} of {pieces}")
    return TensorType(t.shape[:d] + (pieces[a["piece"]],) + t.shape[d + 1:], t.dtype)


def _split_attrs(draw, ts):
    st = strategies()
    d = draw(st.sampled_from(static_dims(ts[0], 2)))
    size = draw(st.integers(1, ts[0].shape[d] - 1))
    return {"dim": d, "size": size, "piece": draw(st.integers(0, len(_sections(ts[0].shape[d], size)) - 1))}


_shape_op("split", per_framework("torch.split({0}, {size}, {dim})[{piece}]",
                                 "paddle.split({0}, {sections}, {dim})[{piece}]",
                                 "tf.split({0}, {sections}, {dim})[{piece}]"),
          _split_infer, _split_attrs, "one piece of a static dim split into pieces of a size (the last smaller): "
          "torch takes the size, Paddle and TensorFlow the list of sizes", view=True,
          domain=lambda ivs, ts: bool(static_dims(ts[0], 2)),
          fields=lambda ts, a: {"sections": _sections(ts[0].shape[axis_of(ts[0], a)], a["size"])})


def _chunk_infer(ts, a):
    t = ts[0]
    d = axis_of(t, a)
    need(isinstance(t.shape[d], int) and t.shape[d] % a["chunks"] == 0 and 0 <= a["piece"] < a["chunks"],
         f"chunk {a} does not divide dim {d} of {t}")
    return TensorType(t.shape[:d] + (t.shape[d] // a["chunks"],) + t.shape[d + 1:], t.dtype)


def _chunk_attrs(draw, ts):
    st = strategies()
    options = [(d, c) for d in static_dims(ts[0], 2) for c in (2, 3, 4, 5) if ts[0].shape[d] % c == 0]
    d, chunks = draw(st.sampled_from(options))
    return {"dim": d, "chunks": chunks, "piece": draw(st.integers(0, chunks - 1))}


_shape_op("chunk", per_framework("torch.chunk({0}, {chunks}, {dim})[{piece}]",
                                 "paddle.chunk({0}, {chunks}, {dim})[{piece}]",
                                 "tf.split({0}, {chunks}, {dim})[{piece}]"),
          _chunk_infer, _chunk_attrs, "one of n equal chunks of a static dim (n divides it)", view=True,
          domain=lambda ivs, ts: any(ts[0].shape[d] % c == 0 for d in static_dims(ts[0], 2) for c in (2, 3, 4, 5)))


def _stack_infer(ts, a):
    x, y = ts
    need(x == y, f"stack here takes two tensors of one type, got {x}, {y}")
    need(0 <= a["dim"] <= x.rank, f"stack dim {a['dim']} out of range for {x}")
    return TensorType(x.shape[:a["dim"]] + (2,) + x.shape[a["dim"]:], x.dtype)


_shape_op("stack", calls("torch.stack", "paddle.stack", "tf.stack", args="[{0}, {1}], {dim}"), _stack_infer,
          lambda draw, ts: {"dim": draw(strategies().integers(0, ts[0].rank))},
          "stack two tensors of one type along a new dim", arity=2, arg_shapes="any", empty_ok=True,
          domain=lambda ivs, ts: ts[0] == ts[1] and ts[0].rank <= 3,
          bound=lambda ivs, a, ts: (min(ivs[0][0], ivs[1][0]), max(ivs[0][1], ivs[1][1])))

# ---------------------------------------------------------------- flip, roll, tril, triu, diagonal


def _dims_in_range(ts, a):
    for d in a["axes"]:
        axis_of(ts[0], {"dim": d})
    return ts[0]


_shape_op("flip", per_framework("torch.flip({0}, {dims_list})", "paddle.flip({0}, {dims_list})",
                                "tf.reverse({0}, {dims_list})"),
          _dims_in_range, lambda draw, ts: {"axes": tuple(draw(strategies().lists(
              strategies().integers(0, ts[0].rank - 1), min_size=1, max_size=2, unique=True)))},
          "reverse the order along one or two dims", empty_ok=True,
          fields=lambda ts, a: {"dims_list": list(a["axes"])},
          refuses={"paddle": ("int8", "uint8", "float16")})  # paddle.flip has no kernel for them (CPU)
_shape_op("roll", calls("torch.roll", "paddle.roll", "tf.roll", args="{0}, {shift}, {dim}"),
          lambda ts, a: (axis_of(ts[0], a), ts[0])[1],
          lambda draw, ts: {"dim": draw(strategies().integers(0, ts[0].rank - 1)),
                            "shift": draw(strategies().sampled_from([1, -1, 2, 7]))},
          "rotate the elements along one dim by a shift (wrapping around)",
          refuses={"paddle": ("int8", "uint8", "float16")})  # paddle.roll has no kernel for them (CPU)


def _triangle_infer(ts, a):
    need(ts[0].rank >= 2, f"a triangle needs rank >= 2, got {ts[0]}")
    return ts[0]


for _part in ("tril", "triu"):
    _shape_op(_part, calls(f"torch.{_part}", f"paddle.{_part}", f"tf.experimental.numpy.{_part}",
                           args="{0}, {diagonal}"),
              _triangle_infer, lambda draw, ts: {"diagonal": draw(strategies().sampled_from([0, 1, -1]))},
              f"the {'lower' if _part == 'tril' else 'upper'} triangle of the last two dims (from a diagonal "
              f"offset), zeros elsewhere", arg_dtypes=("float32",), domain=lambda ivs, ts: ts[0].rank >= 2,
              bound=lambda ivs, a, ts: (min(ivs[0][0], 0.0), max(ivs[0][1], 0.0)))


def _diagonal_length(t: TensorType, a) -> int:
    n1, n2 = t.shape[a["dim1"]], t.shape[a["dim2"]]
    k = a["offset"]
    return min(n1, n2 - k) if k >= 0 else min(n1 + k, n2)


def _diagonal_infer(ts, a):
    t = ts[0]
    d1, d2 = a["dim1"], a["dim2"]
    need(0 <= d1 < t.rank and 0 <= d2 < t.rank and d1 != d2 and isinstance(t.shape[d1], int)
         and isinstance(t.shape[d2], int) and _diagonal_length(t, a) >= 1, f"diagonal {a} does not fit {t}")
    kept = tuple(n for i, n in enumerate(t.shape) if i not in (d1, d2))
    return TensorType(kept + (_diagonal_length(t, a),), t.dtype)


def _diagonal_attrs(draw, ts):
    st = strategies()
    d1, d2 = draw(st.lists(st.sampled_from(static_dims(ts[0])), min_size=2, max_size=2, unique=True))
    a = {"dim1": d1, "dim2": d2, "offset": draw(st.sampled_from([0, 1, -1]))}
    return a if _diagonal_length(ts[0], a) >= 1 else {**a, "offset": 0}


_shape_op("diagonal", calls("torch.diagonal", "paddle.diagonal", "tf.experimental.numpy.diagonal",
                            args="{0}, {offset}, {dim1}, {dim2}"),
          _diagonal_infer, _diagonal_attrs, "the diagonal of two static dims (with an offset), as the last dim: "
          "a view", view=True, domain=lambda ivs, ts: len(static_dims(ts[0])) >= 2)

# ---------------------------------------------------------------- movedim, permute, steps, reshape, flatten


def _movedim_infer(ts, a):
    t = ts[0]
    need(0 <= a["source"] < t.rank and 0 <= a["destination"] < t.rank, f"movedim {a} out of range for {t}")
    dims = [i for i in range(t.rank) if i != a["source"]]
    dims.insert(a["destination"], a["source"])
    return TensorType(tuple(t.shape[i] for i in dims), t.dtype)


_shape_op("movedim", calls("torch.movedim", "paddle.moveaxis", "tf.experimental.numpy.moveaxis",
                           args="{0}, {source}, {destination}"),
          _movedim_infer, lambda draw, ts: {"source": draw(strategies().integers(0, ts[0].rank - 1)),
                                            "destination": draw(strategies().integers(0, ts[0].rank - 1))},
          "move one dim to another place: a view", view=True, empty_ok=True, domain=lambda ivs, ts: ts[0].rank >= 2)


def _permute_infer(ts, a):
    t = ts[0]
    need(sorted(a["perm"]) == list(range(t.rank)), f"{a['perm']} is not a permutation of the dims of {t}")
    return TensorType(tuple(t.shape[i] for i in a["perm"]), t.dtype)


_shape_op("permute", per_framework("{0}.permute({perm_args})", "paddle.transpose({0}, {perm_list})",
                                   "tf.transpose({0}, {perm_list})"),
          _permute_infer, lambda draw, ts: {"perm": tuple(draw(strategies().permutations(range(ts[0].rank))))},
          "reorder every dim: a view", view=True, empty_ok=True, domain=lambda ivs, ts: ts[0].rank >= 2,
          fields=lambda ts, a: {"perm_args": ", ".join(map(str, a["perm"])), "perm_list": list(a["perm"])})


def _step_infer(ts, a):
    t = ts[0]
    d, start, step = a["dim"], a["start"], a["step"]
    need(0 <= d < t.rank and isinstance(t.shape[d], int) and 0 <= start < t.shape[d] and step >= 2,
         f"slice {start}::{step} on dim {d} does not fit {t}")
    return TensorType(t.shape[:d] + (len(range(start, t.shape[d], step)),) + t.shape[d + 1:], t.dtype)


_shape_op("slice_step", everywhere("{0}[{index_prefix}{start}::{step}]"), _step_infer,
          lambda draw, ts: (lambda d: {"dim": d, "start": draw(strategies().integers(0, ts[0].shape[d] - 1)),
                                       "step": draw(strategies().sampled_from([2, 3]))})(
              draw(strategies().sampled_from(static_dims(ts[0], 2)))),
          "basic slicing with a step x[..., start::step] along a static dim: a strided view", view=True,
          domain=lambda ivs, ts: bool(static_dims(ts[0], 2)))


def _reshape_infer(ts, a):
    t = ts[0]
    new = a["shape"]
    need(list(new).count(-1) == 1, f"reshape_infer takes one -1, got {new}")
    static = math.prod(n for n in t.shape if isinstance(n, int))
    rest = math.prod(n for n in new if n != -1)
    need(static % rest == 0, f"cannot reshape {t} to {list(new)}")
    if DYNAMIC in t.shape:  # the -1 takes the dynamic dim and whatever static size is left
        need(static == rest, f"-1 must stand for the dynamic dim of {t} alone, got {list(new)}")
        inferred = DYNAMIC
    else:
        inferred = static // rest
    return TensorType(tuple(inferred if n == -1 else n for n in new), t.dtype)


def _reshape_attrs(draw, ts):
    st = strategies()
    t = ts[0]
    static = math.prod(n for n in t.shape if isinstance(n, int))
    divisors = [d for d in range(1, static + 1) if static % d == 0]
    first = draw(st.sampled_from(divisors))
    if DYNAMIC in t.shape:
        shape = draw(st.sampled_from([(-1, static), (-1, first, static // first)]))
    else:
        shape = draw(st.sampled_from([(-1, first), (first, -1), (-1,), (first, 1, -1)]))
    return {"shape": shape}


_shape_op("reshape_infer", per_framework("{0}.reshape({shape_args})", "paddle.reshape({0}, [{shape_args}])",
                                         "tf.reshape({0}, [{shape_args}])"),
          _reshape_infer, _reshape_attrs, "reshape with one dim given as -1 (inferred; it stands for the dynamic "
          "dim where there is one): a view", view=True, domain=lambda ivs, ts: ts[0].rank >= 1 and
          list(ts[0].shape).count(DYNAMIC) <= 1)


def _flatten_range_infer(ts, a):
    t = ts[0]
    s, e = a["start"], a["end"]
    need(0 <= s < e < t.rank, f"flatten dims {s}..{e} out of range for {t}")
    merged = t.shape[s:e + 1]
    size = DYNAMIC if DYNAMIC in merged else math.prod(merged)
    return TensorType(t.shape[:s] + (size,) + t.shape[e + 1:], t.dtype)


def _flatten_fields(ts, a) -> dict:
    out = _flatten_range_infer(ts, a)
    return {"tf_shape": "[" + ", ".join("-1" if n == DYNAMIC else str(n) for n in out.shape) + "]"}


_shape_op("flatten_range", per_framework("torch.flatten({0}, {start}, {end})", "paddle.flatten({0}, {start}, {end})",
                                         "tf.reshape({0}, {tf_shape})"),
          _flatten_range_infer, lambda draw, ts: dict(zip(("start", "end"), sorted(draw(strategies().lists(
              strategies().integers(0, ts[0].rank - 1), min_size=2, max_size=2, unique=True))))),
          "flatten the dims start..end into one: a view", view=True, fields=_flatten_fields,
          domain=lambda ivs, ts: ts[0].rank >= 2)
