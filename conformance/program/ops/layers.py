"""Layers with weights or statistics: group norm, instance norm, RMS norm, L2 normalization, cosine similarity,
scaled dot-product attention (with and without a causal mask), multi-head self-attention, one recurrent layer
(LSTM or GRU, one or two directions, over a time dim that may be the dynamic one: a sequence length that
changes from call to call), and pixel (un)shuffle.

Where a framework has no single function (TensorFlow's group norm, Paddle's and TensorFlow's attention and
recurrent layers), the emitter calls a helper of :mod:`~conformance.program.ops.helper_code` that computes
what torch's function does, written as users of that framework write it.
"""

from __future__ import annotations

import math

from conformance.program.ir import TensorType
from conformance.program.ops import helper_code
from conformance.program.ops.record import (
    axis_of,
    hull,
    keep_bound,
    need,
    per_framework,
    register,
    static_last,
    strategies,
)


def _channels_first(t: TensorType) -> bool:
    """[N, C, L] or [N, C, H, W] with static channels and spatial dims."""
    return t.rank in (3, 4) and all(isinstance(n, int) for n in t.shape[1:])


def _normalized_bound(count: int):
    """|x - mean| / std <= sqrt(count - 1), times a weight in ±0.5, plus a bias in ±0.5."""
    m = math.sqrt(max(count - 1, 1)) * 0.5 + 0.5
    return lambda ivs, a, ts: (-m, m)


def _group_count(t: TensorType, groups: int) -> int:
    return t.shape[1] // groups * math.prod(t.shape[2:])


def _group_infer(ts, a):
    t = ts[0]
    need(_channels_first(t) and t.shape[1] % a["groups"] == 0 and _group_count(t, a["groups"]) >= 2,
         f"group_norm with {a['groups']} groups does not fit {t}")
    return t


def _channel_params(ts, a):
    return [((ts[0].shape[1],), 0.5), ((ts[0].shape[1],), 0.5)]


_TF_GROUP_NORM = {"tf": helper_code.source(helper_code.tf_group_norm)}
_NORM_TOLERANCE = "near-constant groups amplify rounding: judged against fp64 with the nudged run's noise"

register(name="group_norm", family="normalization", arity=1, doc="group norm of [N, C, ...]: statistics per group of "
         "channels (a divisor of C) and the spatial dims, a weight and bias per channel",
         emit=per_framework("F.group_norm({0}, {groups}, {p0}, {p1}, 1e-05)",
                            "F.group_norm({0}, {groups}, 1e-05, {p0}, {p1})",
                            "tf_group_norm({0}, {groups}, {p0}, {p1}, 1e-05)"),
         infer=_group_infer, helpers=_TF_GROUP_NORM, params=_channel_params, tolerance=_NORM_TOLERANCE,
         domain=lambda ivs, ts: _channels_first(ts[0]) and _group_count(ts[0], ts[0].shape[1]) >= 2
         and ivs[0][1] > ivs[0][0],
         attrs=lambda draw, ts: {"groups": draw(strategies().sampled_from(
             [g for g in range(1, ts[0].shape[1] + 1) if ts[0].shape[1] % g == 0 and _group_count(ts[0], g) >= 2]))},
         bound=lambda ivs, a, ts: _normalized_bound(_group_count(ts[0], a["groups"]))(ivs, a, ts))
register(name="instance_norm", family="normalization", arity=1, doc="instance norm of [N, C, ...]: statistics per "
         "sample and channel over the spatial dims, a weight and bias per channel",
         emit=per_framework("F.instance_norm({0}, weight={p0}, bias={p1}, eps=1e-05)",
                            "F.instance_norm({0}, weight={p0}, bias={p1}, eps=1e-05)",
                            "tf_group_norm({0}, {channels}, {p0}, {p1}, 1e-05)"),
         infer=lambda ts, a: _group_infer(ts, {"groups": ts[0].shape[1]}), helpers=_TF_GROUP_NORM,
         fields=lambda ts, a: {"channels": ts[0].shape[1]}, params=_channel_params, tolerance=_NORM_TOLERANCE,
         domain=lambda ivs, ts: _channels_first(ts[0]) and math.prod(ts[0].shape[2:]) >= 2 and ivs[0][1] > ivs[0][0],
         bound=lambda ivs, a, ts: _normalized_bound(math.prod(ts[0].shape[2:]))(ivs, a, ts))
register(name="rms_norm", family="normalization", arity=1, doc="RMS norm over the last dim: x / sqrt(mean(x^2) + "
         "1e-6) times a weight",
         emit=per_framework("F.rms_norm({0}, [{n}], {p0}, 1e-06)",
                            "{0} * paddle.rsqrt(paddle.mean({0} * {0}, -1, keepdim=True) + 1e-06) * {p0}",
                            "{0} * tf.math.rsqrt(tf.reduce_mean({0} * {0}, -1, keepdims=True) + 1e-06) * {p0}"),
         infer=lambda ts, a: ts[0], fields=lambda ts, a: {"n": ts[0].shape[-1]},
         domain=lambda ivs, ts: static_last(ts), params=lambda ts, a: [((ts[0].shape[-1],), 0.5)],
         bound=lambda ivs, a, ts: hull(*(s * math.sqrt(ts[0].shape[-1]) * 0.5 for s in (-1, 1))),
         tolerance="Paddle's rms_norm has no CPU kernel (3.3): its emitter writes the formula out")


def _dim_attrs(draw, ts):
    return {"dim": draw(strategies().integers(0, ts[0].rank - 1))}


register(name="normalize", family="normalization", arity=1, doc="x divided by its L2 norm along one dim (at least "
         "1e-12)", emit=per_framework("F.normalize({0}, 2.0, {dim})", "F.normalize({0}, 2.0, {dim})",
                                      "{0} / tf.maximum(tf.norm({0}, axis={dim}, keepdims=True), 1e-12)"),
         infer=lambda ts, a: (axis_of(ts[0], a), ts[0])[1], attrs=_dim_attrs, domain=lambda ivs, ts: ts[0].rank >= 1,
         bound=lambda ivs, a, ts: (-1.0, 1.0), tolerance="near-zero vectors: judged against fp64")


def _similarity_infer(ts, a):
    x, y = ts
    need(x == y, f"cosine_similarity here takes two tensors of one type, got {x}, {y}")
    d = axis_of(x, a)
    return TensorType(x.shape[:d] + x.shape[d + 1:], x.dtype)


register(name="cosine_similarity", family="normalization", arity=2, arg_shapes="any", doc="the cosine of the angle "
         "between x and y along one dim",
         emit=per_framework("F.cosine_similarity({0}, {1}, {dim})", "F.cosine_similarity({0}, {1}, axis={dim})",
                            "tf.reduce_sum({0} * {1}, {dim}) / tf.maximum(tf.norm({0}, axis={dim}) * "
                            "tf.norm({1}, axis={dim}), 1e-8)"),
         infer=_similarity_infer, attrs=_dim_attrs, domain=lambda ivs, ts: ts[0] == ts[1] and ts[0].rank >= 1,
         bound=lambda ivs, a, ts: (-1.0, 1.0), tolerance="near-zero vectors: judged against fp64")

# ---------------------------------------------------------------- attention


def _heads_fit(t: TensorType) -> bool:
    return t.rank == 4 and all(isinstance(n, int) for n in t.shape[2:])


def _sdpa_infer(ts, a):
    q, kv = ts
    need(q == kv and _heads_fit(q), f"attention here takes queries and keys/values of one type [N, H, L, E], got "
         f"{q}, {kv}")
    return q


def _causal_mask(ts, a) -> dict:
    length = ts[0].shape[-2]
    mask = f" + tf.constant(np.triu(np.full([{length}, {length}], -np.inf), 1), {{0}}.dtype)" if a["causal"] else ""
    return {"tf_mask": mask, "scale": repr(math.sqrt(ts[0].shape[-1]))}


_PADDLE_LAYOUT = ".transpose([0, 2, 1, 3])"  # Paddle's attention takes [N, L, H, E]
register(name="scaled_dot_product_attention", family="attention", arity=2, arg_shapes="any",
         doc="softmax(q k^T / sqrt(E)) v with keys = values, [N, H, L, E], causal or not",
         emit=per_framework(
             "F.scaled_dot_product_attention({0}, {1}, {1}, is_causal={causal})",
             f"F.scaled_dot_product_attention({{0}}{_PADDLE_LAYOUT}, {{1}}{_PADDLE_LAYOUT}, {{1}}{_PADDLE_LAYOUT}, "
             f"is_causal={{causal}}){_PADDLE_LAYOUT}",
             "tf.einsum('nhqk,nhkd->nhqd', tf.nn.softmax(tf.einsum('nhqd,nhkd->nhqk', {0}, {1}) / {scale}{tf_mask}, "
             "-1), {1})"),
         infer=_sdpa_infer, fields=_causal_mask, domain=lambda ivs, ts: ts[0] == ts[1] and _heads_fit(ts[0]),
         attrs=lambda draw, ts: {"causal": draw(strategies().booleans())},
         bound=lambda ivs, a, ts: ivs[1], tolerance="softmax of sums: judged against fp64")


def _mha_fits(t: TensorType) -> bool:
    return t.rank == 3 and all(isinstance(n, int) for n in t.shape[1:])


def _mha_bound(ivs, a, ts):
    embed = ts[0].shape[2]
    value = embed * max(map(abs, ivs[0])) * 0.5 + 0.5
    m = embed * value * 0.5 + 0.5
    return (-m, m)


register(name="multi_head_attention", family="attention", arity=1, doc="multi-head self-attention of [N, L, E] "
         "(nn.MultiheadAttention's computation): input projection [3E, E], 1 or 2 heads, causal or not, output "
         "projection [E, E]",
         emit=per_framework("torch_attention({0}, {p0}, {p1}, {p2}, {p3}, {heads}, {causal})",
                            "paddle_attention({0}, {p0}, {p1}, {p2}, {p3}, {heads}, {causal})",
                            "tf_attention({0}, {p0}, {p1}, {p2}, {p3}, {heads}, {causal})"),
         helpers={"torch": helper_code.source(helper_code.torch_attention),
                  "paddle": helper_code.source(helper_code.paddle_attention),
                  "tf": helper_code.source(helper_code.tf_attention)},
         infer=lambda ts, a: (need(_mha_fits(ts[0]) and ts[0].shape[2] % a["heads"] == 0,
                                   f"multi_head_attention with {a['heads']} heads does not fit {ts[0]}"), ts[0])[1],
         domain=lambda ivs, ts: _mha_fits(ts[0]),
         attrs=lambda draw, ts: {"heads": draw(strategies().sampled_from([h for h in (1, 2)
                                                                        if ts[0].shape[2] % h == 0])),
                                 "causal": draw(strategies().booleans())},
         params=lambda ts, a: [((3 * ts[0].shape[2], ts[0].shape[2]), 0.5), ((3 * ts[0].shape[2],), 0.5),
                               ((ts[0].shape[2], ts[0].shape[2]), 0.5), ((ts[0].shape[2],), 0.5)],
         bound=_mha_bound, tolerance="softmax of sums: judged against fp64")

# ---------------------------------------------------------------- recurrent


def _rnn_fits(t: TensorType) -> bool:
    return t.rank == 3 and all(isinstance(n, int) for n in t.shape[1:])


def _rnn_infer(ts, a):
    t = ts[0]
    need(_rnn_fits(t), f"a recurrent layer takes [T, N, E] with static N and E, got {t}")
    return TensorType(t.shape[:2] + (a["hidden"] * (2 if a["bidirectional"] else 1),), t.dtype)


def _rnn_params(gates: int):
    def params(ts, a):
        e, h = ts[0].shape[2], a["hidden"]
        one = [((gates * h, e), 0.5), ((gates * h, h), 0.5), ((gates * h,), 0.5), ((gates * h,), 0.5)]
        return one * (2 if a["bidirectional"] else 1)
    return params


def _rnn_fields(ts, a) -> dict:
    count = 8 if a["bidirectional"] else 4
    return {"weights": ", ".join(f"{{p{i}}}" for i in range(count)),
            "h0": f"{{0}}.new_zeros(({2 if a['bidirectional'] else 1}, {{0}}.size(1), {a['hidden']}))"}


def _rnn(cell: str, gates: int, torch: str):
    register(name=cell, family="recurrent", arity=1, doc=f"one {cell.upper()} layer over [T, N, E], time first (T "
             "may be the dynamic dim: a sequence length that changes between calls), one or two directions, torch's "
             "weights and gate order; the hidden states of every step, [T, N, hidden * directions]",
             emit=per_framework(torch, f"paddle_rnn({{0}}, [{{weights}}], '{cell}', {{bidirectional}})",
                                f"tf_rnn({{0}}, [{{weights}}], '{cell}', {{bidirectional}})"),
             helpers={"paddle": helper_code.source(helper_code.paddle_rnn),
                      "tf": helper_code.source(helper_code.tf_rnn)},
             infer=_rnn_infer, fields=_rnn_fields, params=_rnn_params(gates), domain=lambda ivs, ts: _rnn_fits(ts[0]),
             attrs=lambda draw, ts: {"hidden": draw(strategies().sampled_from([2, 3])),
                                     "bidirectional": draw(strategies().booleans())},
             bound=lambda ivs, a, ts: (-1.0, 1.0), weight=1.5,
             tolerance="Paddle and TensorFlow have no functional recurrent layer: their emitters loop over the time "
                       "steps (a Python loop, tf.scan); torch calls torch.{cell} (what nn.{cell.upper()} runs)")


_rnn("lstm", 4, "torch.lstm({0}, ({h0}, {h0}), [{weights}], True, 1, 0.0, False, {bidirectional}, False)[0]")
_rnn("gru", 3, "torch.gru({0}, {h0}, [{weights}], True, 1, 0.0, False, {bidirectional}, False)[0]")

# ---------------------------------------------------------------- pixel shuffle


def _shuffle_infer(ts, a):
    t = ts[0]
    r = a["factor"]
    need(t.rank == 4 and all(isinstance(n, int) for n in t.shape[1:]) and t.shape[1] % (r * r) == 0,
         f"pixel_shuffle by {r} needs [N, C * {r * r}, H, W], got {t}")
    return TensorType((t.shape[0], t.shape[1] // (r * r), t.shape[2] * r, t.shape[3] * r), t.dtype)


def _unshuffle_infer(ts, a):
    t = ts[0]
    r = a["factor"]
    need(t.rank == 4 and all(isinstance(n, int) for n in t.shape[1:]) and t.shape[2] % r == 0 and t.shape[3] % r == 0,
         f"pixel_unshuffle by {r} needs [N, C, H * {r}, W * {r}], got {t}")
    return TensorType((t.shape[0], t.shape[1] * r * r, t.shape[2] // r, t.shape[3] // r), t.dtype)


def _shuffle_fields(ts, a) -> dict:
    _, c, h, w = ts[0].shape
    return dict(c=c, h=h, w=w, r=a["factor"], cr=c // a["factor"] ** 2, hr=h * a["factor"], wr=w * a["factor"],
                hd=h // a["factor"], wd=w // a["factor"], cu=c * a["factor"] ** 2)


register(name="pixel_shuffle", family="shape", arity=1, weight=4.0,
         doc="[N, C r^2, H, W] to [N, C, H r, W r] (r = 2), torch's "
         "channel order (TensorFlow's depth_to_space orders channels differently: reshapes)",
         emit=per_framework("F.pixel_shuffle({0}, {r})", "F.pixel_shuffle({0}, {r})",
                            "tf.reshape(tf.transpose(tf.reshape({0}, [-1, {cr}, {r}, {r}, {h}, {w}]), "
                            "[0, 1, 4, 2, 5, 3]), [-1, {cr}, {hr}, {wr}])"),
         infer=_shuffle_infer, fields=_shuffle_fields, attrs=lambda draw, ts: {"factor": 2}, bound=keep_bound,
         domain=lambda ivs, ts: ts[0].rank == 4 and isinstance(ts[0].shape[1], int) and ts[0].shape[1] % 4 == 0
         and all(isinstance(n, int) for n in ts[0].shape[2:]))
register(name="pixel_unshuffle", family="shape", arity=1, weight=4.0,
         doc="[N, C, H r, W r] to [N, C r^2, H, W] (r = 2)",
         emit=per_framework("F.pixel_unshuffle({0}, {r})", "F.pixel_unshuffle({0}, {r})",
                            "tf.reshape(tf.transpose(tf.reshape({0}, [-1, {c}, {hd}, {r}, {wd}, {r}]), "
                            "[0, 1, 3, 5, 2, 4]), [-1, {cu}, {hd}, {wd}])"),
         infer=_unshuffle_infer, fields=_shuffle_fields, attrs=lambda draw, ts: {"factor": 2}, bound=keep_bound,
         domain=lambda ivs, ts: ts[0].rank == 4 and all(isinstance(n, int) for n in ts[0].shape[1:])
         and ts[0].shape[2] % 2 == 0 and ts[0].shape[3] % 2 == 0)
