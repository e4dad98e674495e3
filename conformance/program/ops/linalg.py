"""Linear algebra: linear, matmul (x @ y.T, x @ W), einsum, bilinear, outer, dot; and two layers with weights
that came first: conv2d and layer norm."""

from __future__ import annotations

import math

from conformance.program.ir import TensorType
from conformance.program.ops.record import (
    Enabler,
    hull,
    interval_mul,
    need,
    per_framework,
    register,
    size_bound,
    static_last,
    strategies,
)


def _linear_infer(ts, a):
    t = ts[0]
    need(t.rank >= 1 and isinstance(t.shape[-1], int), f"linear needs a static last dim, got {t}")
    return TensorType(t.shape[:-1] + (a["out_features"],), t.dtype)


register(name="linear", family="linalg", arity=1, doc="x @ W.T + b with a weight W[out, in] and a bias b[out]",
         emit=per_framework("F.linear({0}, {p0}, {p1})", "paddle.matmul({0}, {p0}, transpose_y=True) + {p1}",
                  "tf.einsum('...i,oi->...o', {0}, {p0}) + {p1}"), infer=_linear_infer,
         domain=lambda ivs, ts: static_last(ts),
         attrs=lambda draw, ts: {"out_features": draw(strategies().integers(1, 6))},
         params=lambda ts, a: [((a["out_features"], ts[0].shape[-1]), 0.5), ((a["out_features"],), 0.5)],
         bound=lambda ivs, a, ts: hull(*(s * (ts[0].shape[-1] * max(map(abs, ivs[0])) * 0.5 + 0.5) for s in (-1, 1))),
         tolerance="blocked matmul sums in a different order: judged against fp64")


def _matmul_infer(ts, a):
    x, y = ts
    need(x == y and x.rank >= 2, f"matmul here multiplies x by y transposed, same shapes of rank >= 2; got {x}, {y}")
    return TensorType(x.shape[:-1] + (x.shape[-2],), x.dtype)


register(name="matmul", family="linalg", arity=2, arg_shapes="any", doc="x @ y.transpose(-2, -1) (attention scores)",
         emit=per_framework("torch.matmul({0}, {1}.transpose(-2, -1))", "paddle.matmul({0}, {1}, transpose_y=True)",
                  "tf.matmul({0}, {1}, transpose_b=True)"), infer=_matmul_infer,
         domain=lambda ivs, ts: ts[0] == ts[1] and ts[0].rank >= 2,
         bound=lambda ivs, a, ts: hull(*(s * size_bound(ts[0].shape[-1]) * max(map(abs, ivs[0])) * max(map(abs, ivs[1]))
                                          for s in (-1, 1))),
         tolerance="blocked matmul sums in a different order: judged against fp64")


def _conv_infer(ts, a):
    t = ts[0]
    need(t.rank == 4 and all(isinstance(d, int) for d in t.shape[1:]), f"conv2d needs [N, C, H, W], got {t}")
    k, p = a["kernel"], a["padding"]
    h, w = t.shape[2] + 2 * p - k + 1, t.shape[3] + 2 * p - k + 1
    need(h >= 1 and w >= 1, f"conv2d kernel {k} does not fit {t} with padding {p}")
    return TensorType((t.shape[0], a["out_channels"], h, w), t.dtype)


def _conv_domain(ivs, ts):
    t = ts[0]
    return t.rank == 4 and all(isinstance(d, int) for d in t.shape[1:]) and min(t.shape[2:]) >= 1


def _conv_attrs(draw, ts):
    st = strategies()
    k = draw(st.sampled_from([1, 3, 2]))
    smallest = min(ts[0].shape[2:])
    min_pad = max(0, -(-(k - smallest) // 2))  # output size h + 2p - k + 1 >= 1
    return {"out_channels": draw(st.integers(1, 4)), "kernel": k,
            "padding": draw(st.integers(min_pad, max(min_pad, k // 2)))}


register(name="conv2d", family="convolution", arity=1, doc="2-D convolution with a weight [out, in, k, k] and a bias",
         emit=per_framework("F.conv2d({0}, {p0}, {p1}, padding={padding})",
                            "F.conv2d({0}, {p0}, {p1}, padding={padding})",
                  # TensorFlow's CPU kernels want NHWC and a [k, k, in, out] filter
                  "tf.transpose(tf.nn.conv2d(tf.transpose({0}, [0, 2, 3, 1]), tf.transpose({p0}, [2, 3, 1, 0]), 1, "
                  "[[0, 0], [{padding}, {padding}], [{padding}, {padding}], [0, 0]]) + {p1}, [0, 3, 1, 2])"),
         infer=_conv_infer, domain=_conv_domain,
         attrs=_conv_attrs,
         params=lambda ts, a: [((a["out_channels"], ts[0].shape[1], a["kernel"], a["kernel"]), 0.5),
                               ((a["out_channels"],), 0.5)],
         bound=lambda ivs, a, ts: hull(*(s * (ts[0].shape[1] * a["kernel"] ** 2 * max(map(abs, ivs[0])) * 0.5 + 0.5)
                                          for s in (-1, 1))),
         tolerance="convolution algorithms sum in different orders: judged against fp64")


def _ln_infer(ts, a):
    need(static_last(ts), f"layer_norm needs a static last dim, got {ts[0]}")
    return ts[0]


register(name="layer_norm", family="linalg", arity=1, doc="layer norm over the last dim, with weight and bias",
         # paddle's layer_norm refuses a 1-D input (begin_norm_axis must be > 0, paddle 3.3): add a leading dim
         emit=per_framework("F.layer_norm({0}, [{n}], {p0}, {p1})",
                            "F.layer_norm({0}.unsqueeze(0), [{n}], {p0}, {p1}).squeeze(0)",
                  "tf.nn.batch_normalization({0}, tf.reduce_mean({0}, -1, keepdims=True), "
                  "tf.math.reduce_variance({0}, -1, keepdims=True), {p1}, {p0}, 1e-5)"), infer=_ln_infer,
         domain=lambda ivs, ts: static_last(ts) and ts[0].shape[-1] >= 2 and ivs[0][1] - ivs[0][0] > 0,
         attrs=lambda draw, ts: {"n": ts[0].shape[-1]},
         params=lambda ts, a: [((a["n"],), 0.5), ((a["n"],), 0.5)],
         bound=lambda ivs, a, ts: (-(math.sqrt(a["n"]) * 0.5 + 0.5), math.sqrt(a["n"]) * 0.5 + 0.5),
         tolerance="near-constant rows amplify rounding; the fp64 reference decides")


# ---------------------------------------------------------------- more linear algebra


def _magnitude(ivs, i=0) -> float:
    return max(map(abs, ivs[i]))


def _weight_matmul_infer(ts, a):
    t = ts[0]
    need(t.rank >= 2 and isinstance(t.shape[-1], int), f"matmul_weight needs rank >= 2 and a static last dim, got {t}")
    return TensorType(t.shape[:-1] + (a["out_features"],), t.dtype)


register(name="matmul_weight", family="linalg", arity=1, doc="x @ W for a weight W[in, out] (batched matmul with "
         "broadcasting over the leading dims, no bias)",
         emit=per_framework("torch.matmul({0}, {p0})", "paddle.matmul({0}, {p0})", "tf.matmul({0}, {p0})"),
         infer=_weight_matmul_infer, domain=lambda ivs, ts: ts[0].rank >= 2 and static_last(ts),
         attrs=lambda draw, ts: {"out_features": draw(strategies().integers(1, 5))},
         params=lambda ts, a: [((ts[0].shape[-1], a["out_features"]), 0.5)],
         bound=lambda ivs, a, ts: hull(*(s * ts[0].shape[-1] * _magnitude(ivs) * 0.5 for s in (-1, 1))),
         tolerance="blocked matmul sums in a different order: judged against fp64")

#: einsum equations on two operands of one type [..., i, j], and the shape rule of each
_EQUATIONS = {
    "...ij,...kj->...ik": lambda s: s[:-1] + (s[-2],),  # x @ y.T
    "...ij,...ij->...i": lambda s: s[:-1],  # row-wise dot products
    "...ij,...ij->...j": lambda s: s[:-2] + (s[-1],),  # column-wise dot products
    "...ij,...ik->...jk": lambda s: s[:-2] + (s[-1], s[-1]),  # x.T @ y
}


def _einsum_infer(ts, a):
    x, y = ts
    need(x == y and x.rank >= 2, f"einsum here takes two operands of one type of rank >= 2, got {x}, {y}")
    need(a["equation"] in _EQUATIONS, f"unknown equation {a['equation']!r}")
    return TensorType(_EQUATIONS[a["equation"]](x.shape), x.dtype)


register(name="einsum", family="linalg", arity=2, arg_shapes="any", doc="einsum of two operands of one type with "
         "one of four equations (x @ y.T, row-wise and column-wise dot products, x.T @ y)",
         emit=per_framework("torch.einsum({equation!r}, {0}, {1})", "paddle.einsum({equation!r}, {0}, {1})",
                            "tf.einsum({equation!r}, {0}, {1})"),
         infer=_einsum_infer, domain=lambda ivs, ts: ts[0] == ts[1] and ts[0].rank >= 2,
         attrs=lambda draw, ts: {"equation": draw(strategies().sampled_from(list(_EQUATIONS)))},
         bound=lambda ivs, a, ts: hull(*(s * max(size_bound(n) for n in ts[0].shape[-2:]) * _magnitude(ivs)
                                         * _magnitude(ivs, 1) for s in (-1, 1))),
         tolerance="sums in a different order: judged against fp64")


def _bilinear_infer(ts, a):
    x, y = ts
    need(x == y and x.rank == 2 and isinstance(x.shape[1], int), f"bilinear here takes two [N, in] of one type, got "
         f"{x}, {y}")
    return TensorType((x.shape[0], a["out_features"]), x.dtype)


register(name="bilinear", family="linalg", arity=2, arg_shapes="any", doc="x1 W x2 + b for [N, in] inputs, a weight "
         "W[out, in, in] and a bias b[out]",
         emit=per_framework("F.bilinear({0}, {1}, {p0}, {p1})", "F.bilinear({0}, {1}, {p0}, {p1}.unsqueeze(0))",
                            "tf.einsum('ni,oij,nj->no', {0}, {p0}, {1}) + {p1}"),
         infer=_bilinear_infer, domain=lambda ivs, ts: ts[0] == ts[1] and ts[0].rank == 2 and static_last(ts),
         attrs=lambda draw, ts: {"out_features": draw(strategies().integers(1, 4))},
         params=lambda ts, a: [((a["out_features"], ts[0].shape[1], ts[0].shape[1]), 0.5), ((a["out_features"],), 0.5)],
         bound=lambda ivs, a, ts: hull(*(s * (ts[0].shape[1] ** 2 * _magnitude(ivs) * _magnitude(ivs, 1) * 0.5 + 0.5)
                                         for s in (-1, 1))),
         tolerance="Paddle's bilinear takes the bias as [1, out]; sums in a different order: judged against fp64")


def _outer_infer(ts, a):
    x, y = ts
    need(x.rank == 1 and y.rank == 1, f"outer takes two vectors, got {x}, {y}")
    return TensorType((x.shape[0], y.shape[0]), x.dtype)


register(name="outer", family="linalg", arity=2, arg_shapes="any", doc="the outer product of two vectors",
         emit=per_framework("torch.outer({0}, {1})", "paddle.outer({0}, {1})", "tf.einsum('i,j->ij', {0}, {1})"),
         infer=_outer_infer, domain=lambda ivs, ts: ts[0].rank == 1 and ts[1].rank == 1,
         enabler=Enabler("sum", lambda ts: {"dim": -1, "keepdim": False} if ts[0].rank == 2 else None),
         bound=lambda ivs, a, ts: interval_mul(ivs[0], ivs[1]))


def _dot_infer(ts, a):
    x, y = ts
    need(x == y and x.rank == 1, f"dot takes two vectors of one type, got {x}, {y}")
    return TensorType((), x.dtype)


register(name="dot", family="linalg", arity=2, arg_shapes="any", weight=2.0,
         doc="the dot product of two vectors (a scalar)",
         emit=per_framework("torch.dot({0}, {1})", "paddle.dot({0}, {1})", "tf.tensordot({0}, {1}, 1)"),
         infer=_dot_infer, domain=lambda ivs, ts: ts[0] == ts[1] and ts[0].rank == 1,
         bound=lambda ivs, a, ts: hull(*(s * size_bound(ts[0].shape[0]) * _magnitude(ivs) * _magnitude(ivs, 1)
                                         for s in (-1, 1))),
         tolerance="sums in a different order: judged against fp64")
