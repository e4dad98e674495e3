"""Resizing (interpolation): nearest, linear, bilinear, bicubic and trilinear, with and without
``align_corners``, to explicit sizes or by scale factors, up and down.

Layouts are channels first: ``[N, C, L]`` (linear), ``[N, C, H, W]`` (nearest, bilinear, bicubic) and one
unbatched volume ``[C, D, H, W]`` (trilinear: the emitters add and remove the batch dim). The resized dims
have static sizes. Scale factors are drawn only where they give whole sizes (2 always, 0.5 for even
sizes), where every framework's index arithmetic agrees. TensorFlow's ``tf.image.resize`` is channels last
and computes in float32 even for float64 images (the fp64 reference would not be one): its emitters call a
helper that interpolates with gathers by torch's rules
(:func:`~conformance.program.ops.helper_code.tf_resize`), except bicubic, whose kernel differs by design.
"""

from __future__ import annotations

from conformance.program.ir import TensorType
from conformance.program.ops import helper_code
from conformance.program.ops.record import keep_bound, need, register, strategies

_TF_RESIZE = {"tf": helper_code.source(helper_code.tf_resize)}
_RANK = {1: 3, 2: 4, 3: 4}


def _fits(t: TensorType, n: int) -> bool:
    return t.rank == _RANK[n] and all(isinstance(d, int) for d in t.shape[-n:])


def _out_sizes(t: TensorType, n: int, a: dict) -> tuple:
    if a["scale"]:
        return tuple(int(d * a["scale"]) for d in t.shape[-n:])
    return tuple(a["sizes"])


def _resize_infer(n: int):
    def infer(ts, a):
        t = ts[0]
        need(_fits(t, n), f"{n}-d resizing needs rank {_RANK[n]} with static resized dims, got {t}")
        need(not a["scale"] or all(d * a["scale"] == int(d * a["scale"]) >= 1 for d in t.shape[-n:]),
             f"scale factor {a['scale']} does not give whole sizes for {t}")
        outs = _out_sizes(t, n, a)
        need(len(outs) == n and all(o >= 1 for o in outs), f"bad output sizes {outs}")
        return TensorType(t.shape[:-n] + outs, t.dtype)
    return infer


def _direction(n: int):
    """The coverage feature of a resize: whether it scales the dims down, up, both or neither (``OpRecord.bins``)."""
    def bins(ts, a):
        ins, outs = ts[0].shape[-n:], _out_sizes(ts[0], n, a)
        ways = {"down" if o < i else "up" if o > i else "same" for i, o in zip(ins, outs)}
        return {"scale": "mixed" if {"down", "up"} <= ways else "down" if "down" in ways else "up" if "up" in ways
                else "same"}
    return bins


def _resize_attrs(n: int, corners: bool):
    def attrs(draw, ts):
        st = strategies()
        dims = ts[0].shape[-n:]
        scales = [2.0] + ([0.5] if all(d % 2 == 0 for d in dims) else [])
        a = {"scale": draw(st.sampled_from([0.0] + scales)), "sizes": ()}
        if not a["scale"]:
            a["sizes"] = tuple(draw(st.integers(1, 2 * d)) for d in dims)
        if corners:
            a["align_corners"] = draw(st.booleans())
        return a
    return attrs


def _fields(n: int, batch: bool):
    def fields(ts, a):
        outs = _out_sizes(ts[0], n, a)
        how = f"scale_factor={a['scale']}" if a["scale"] else f"size={list(outs)}"
        corners = f", align_corners={a['align_corners']}" if "align_corners" in a else ""
        return {"how": how + corners, "out_list": list(outs), "add_batch": ".unsqueeze(0)" if batch else "",
                "half_pixel": not a.get("align_corners", False),
                "drop_batch": ".squeeze(0)" if batch else ""}
    return fields


_PADDLE_COORDINATES = {"paddle": "Paddle computes the source coordinates of linear and cubic interpolation in float32 "
                                 "(the ratio (in - 1) / (out - 1) with align_corners), also for float64 tensors"}


def _resize(name: str, n: int, mode: str, doc: str, tf: str, corners: bool, bound=keep_bound, **kw):
    batch = n == 3  # one unbatched volume: F.interpolate wants [N, C, D, H, W]
    call = f"F.interpolate({{0}}{{add_batch}}, {{how}}, mode='{mode}'){{drop_batch}}"
    emit = {"torch": call, "paddle": call, "tf": tf}
    for fw in kw.pop("without", ()):
        del emit[fw]
    register(name=name, family="resize", arity=1, doc=doc, emit=emit, infer=_resize_infer(n),
             weight=3.0 if n == 3 else 1.0,
             attrs=_resize_attrs(n, corners), fields=_fields(n, batch), bins=_direction(n),
             domain=lambda ivs, ts: _fits(ts[0], n),
             bound=bound, **kw)


_resize("interpolate_nearest", 2, "nearest", "nearest-neighbour resizing of [N, C, H, W] (index floor(i * in / out))",
        "tf_resize({0}, {out_list}, 'nearest', False)", corners=False, helpers=_TF_RESIZE)
_resize("interpolate_linear", 1, "linear", "linear resizing of [N, C, L], align_corners or half-pixel centres",
        "tf_resize({0}, {out_list}, 'linear', {align_corners})", corners=True, helpers=_TF_RESIZE,
        fp32_in_fp64=_PADDLE_COORDINATES,
        tolerance="interpolation weights computed in float64 (tf) or float32: judged against fp64")
_resize("interpolate_bilinear", 2, "bilinear", "bilinear resizing of [N, C, H, W], align_corners or half-pixel "
        "centres", "tf_resize({0}, {out_list}, 'linear', {align_corners})", corners=True, helpers=_TF_RESIZE,
        fp32_in_fp64=_PADDLE_COORDINATES,
        tolerance="interpolation weights computed in float64 (tf) or float32: judged against fp64")
_resize("interpolate_trilinear", 3, "trilinear", "trilinear resizing of one volume [C, D, H, W], align_corners or "
        "half-pixel centres", "tf_resize({0}, {out_list}, 'linear', {align_corners})", corners=True,
        helpers=_TF_RESIZE, fp32_in_fp64=_PADDLE_COORDINATES,
        tolerance="interpolation weights computed in float64 (tf) or float32: judged against fp64")


def _cubic_bound(ivs, a, ts):
    lo, hi = ivs[0]
    middle, half = (lo + hi) / 2, (hi - lo) / 2
    return (middle - 2.5 * half, middle + 2.5 * half)  # the cubic kernel's negative lobes overshoot


_resize("interpolate_bicubic", 2, "bicubic", "bicubic resizing of [N, C, H, W], align_corners or half-pixel centres",
        "tf.cast(tf.transpose(tf.compat.v1.image.resize_bicubic(tf.transpose({0}, [0, 2, 3, 1]), {out_list}, "
        "align_corners={align_corners}, half_pixel_centers={half_pixel}), [0, 3, 1, 2]), {0}.dtype)",
        corners=True, bound=_cubic_bound, fp32_in_fp64=_PADDLE_COORDINATES,
        differs={"tf": "TensorFlow's bicubic kernel has a = -0.5 (Keys); torch and paddle use a = -0.75, and "
                       "tf.image resizing computes in float32 even for float64 images"})
_resize("interpolate_nearest_exact", 2, "nearest-exact", "nearest-neighbour resizing with half-pixel centres "
        "(index floor((i + 0.5) * in / out)) of [N, C, H, W]",
        "tf.transpose(tf.image.resize(tf.transpose({0}, [0, 2, 3, 1]), {out_list}, method='nearest'), [0, 3, 1, 2])",
        corners=False, without=("paddle",),
        missing={"paddle": "paddle.nn.functional.interpolate has no half-pixel nearest mode (nearest-exact)"})
