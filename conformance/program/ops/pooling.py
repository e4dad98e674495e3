"""Pooling: max and average pooling in 1, 2 and 3 dims with the attributes converters branch on (kernel,
stride other than the kernel, padding, ``ceil_mode``, ``count_include_pad``, dilation), adaptive pooling
and global pooling.

Layouts are channels first: ``[N, C, L]`` for 1-d, ``[N, C, H, W]`` for 2-d, and one unbatched volume
``[C, D, H, W]`` for 3-d (generated inputs have rank 4 at most; torch pools it as it is, Paddle and the
TensorFlow helper add and remove the batch dim). The pooled dims have static sizes. With ``ceil_mode``, the generator
draws no attributes whose rounded-up output would start a last window past the input (torch drops it,
Paddle keeps it and fills it with garbage: see ``_window_past_input``). TensorFlow's own pooling
ops are channels last and have no ``ceil_mode`` or ``count_include_pad``: its emitters call a helper that
pools by torch's rules (:func:`~conformance.program.ops.helper_code.tf_pool`).
"""

from __future__ import annotations

from conformance.program.ir import TensorType
from conformance.program.ops import helper_code
from conformance.program.ops.record import hull, keep_bound, need, register, strategies

_TF_POOL = {"tf": helper_code.source(helper_code.tf_pool)}
_TF_ADAPTIVE = {"tf": helper_code.source(helper_code.tf_adaptive_pool)}
#: the input rank of n-d pooling (3-d: one unbatched volume [C, D, H, W])
_RANK = {1: 3, 2: 4, 3: 4}
#: draw weights: few variables fit 3-d pooling (rank 4 with every dim static)
_WEIGHT = {1: 1.5, 2: 1.0, 3: 3.0}


def _spatial(t: TensorType, n: int) -> list:
    return list(t.shape[-n:])


def _fits(t: TensorType, n: int) -> bool:
    return t.rank == _RANK[n] and all(isinstance(d, int) for d in _spatial(t, n))


def pooled_size(size: int, kernel: int, stride: int, padding: int, dilation: int, ceil_mode: bool) -> int:
    """The output size of pooling a dim of ``size`` by torch's rules (0: no window fits)."""
    span = dilation * (kernel - 1) + 1
    total = size + 2 * padding - span
    if total < 0:
        return 0
    out = (-(-total // stride) if ceil_mode else total // stride) + 1
    if ceil_mode and (out - 1) * stride >= size + padding:
        out -= 1  # the last window would start in the right padding
    return out


def _windows_see_input(size: int, a: dict, n: int = 2) -> bool:
    """Every window reads at least one element of the input (else max pooling gives -inf); torch's 3-d pooling
    also refuses an input dim smaller than the kernel, padding or not."""
    k, s, p, d = a["kernel"], a["stride"], a["padding"], a.get("dilation", 1)
    if n == 3 and size < k:
        return False
    out = pooled_size(size, k, s, p, d, a["ceil_mode"])
    return out >= 1 and all(any(0 <= o * s - p + j * d < size for j in range(k)) for o in range(out))


def _window_past_input(size: int, a: dict) -> bool:
    """With ``ceil_mode``, whether the rounded-up output would have a last window that starts past the input and
    its left padding: torch drops that window, Paddle 3.3 keeps it and fills it with -FLT_MAX (max) or NaN
    (average). The generator does not draw such attributes (see ``_pool_attrs``)."""
    k, s, p, d = a["kernel"], a["stride"], a["padding"], a.get("dilation", 1)
    total = size + 2 * p - d * (k - 1) - 1
    return bool(a["ceil_mode"]) and total >= 0 and (-(-total // s)) * s >= size + p


def _pool_infer(n: int):
    def infer(ts, a):
        t = ts[0]
        need(_fits(t, n), f"{n}-d pooling needs rank {_RANK[n]} with static pooled dims, got {t}")
        need(a["padding"] <= a["kernel"] // 2, f"padding {a['padding']} is more than half the kernel {a['kernel']}")
        need(all(_windows_see_input(size, a, n) for size in _spatial(t, n)),
             f"a pooling window of {a} reads no element of {t}")
        outs = tuple(pooled_size(size, a["kernel"], a["stride"], a["padding"], a.get("dilation", 1), a["ceil_mode"])
                     for size in _spatial(t, n))
        return TensorType(t.shape[:-n] + outs, t.dtype)
    return infer


def _pool_attrs(n: int, average: bool = False, dilated: bool = False):
    def attrs(draw, ts):
        st = strategies()
        kernel = draw(st.sampled_from([2, 3, 1]))
        a = {"kernel": kernel, "stride": draw(st.sampled_from([kernel, 1, 2])),
             "padding": draw(st.integers(0, kernel // 2)), "ceil_mode": draw(st.booleans())}
        if average:
            a["count_include_pad"] = draw(st.booleans())
        if dilated:
            a["dilation"] = draw(st.sampled_from([2, 1]))
        if not all(_windows_see_input(size, a, n) for size in _spatial(ts[0], n)):
            a.update(kernel=1, stride=1, padding=0)  # always fits
        if any(_window_past_input(size, a) for size in _spatial(ts[0], n)):
            a["ceil_mode"] = False  # the frameworks disagree there (see _window_past_input)
        return a
    return attrs


def _average_bound(ivs, a, ts):
    zero = [0.0] if a["padding"] and a["count_include_pad"] else []
    return hull(*ivs[0], *zero)


def _pool(name: str, n: int, emit: dict, doc: str, average: bool = False, dilated: bool = False, **kw):
    register(name=name, family="pooling", arity=1, doc=doc, emit=emit, infer=_pool_infer(n), weight=_WEIGHT[n],
             attrs=_pool_attrs(n, average, dilated), domain=lambda ivs, ts: _fits(ts[0], n),
             bound=_average_bound if average else keep_bound,
             fields=lambda ts, a: {"exclusive": not a.get("count_include_pad", True)}, **kw)


def _unbatched(call: str) -> str:
    """A Paddle pooling call on one unbatched volume: add the batch dim, pool, remove it."""
    return call.replace("({0}", "({0}.unsqueeze(0)", 1) + ".squeeze(0)"


_MAX = "F.max_pool{n}d({{0}}, {{kernel}}, {{stride}}, {{padding}}, ceil_mode={{ceil_mode}})"
_AVG_TORCH = ("F.avg_pool{n}d({{0}}, {{kernel}}, {{stride}}, {{padding}}, ceil_mode={{ceil_mode}}, "
              "count_include_pad={{count_include_pad}})")
_AVG_PADDLE = ("F.avg_pool{n}d({{0}}, {{kernel}}, {{stride}}, {{padding}}, ceil_mode={{ceil_mode}}, "
               "exclusive={{exclusive}})")
_TF_MAX = "tf_pool({{0}}, 'max', {{kernel}}, {{stride}}, {{padding}}, 1, {{ceil_mode}}, True, {n})"
_TF_AVG = "tf_pool({{0}}, 'avg', {{kernel}}, {{stride}}, {{padding}}, 1, {{ceil_mode}}, {{count_include_pad}}, {n})"
_LAYOUT = {1: "[N, C, L]", 2: "[N, C, H, W]", 3: "one unbatched volume [C, D, H, W]"}

for _n in (1, 2, 3):
    _paddle_max, _paddle_avg = _MAX.format(n=_n), _AVG_PADDLE.format(n=_n)
    if _n == 3:
        _paddle_max, _paddle_avg = _unbatched(_paddle_max), _unbatched(_paddle_avg)
    _pool(f"max_pool{_n}d", _n, {"torch": _MAX.format(n=_n), "paddle": _paddle_max, "tf": _TF_MAX.format(n=_n)},
          f"{_n}-d max pooling of {_LAYOUT[_n]}: kernel, stride, padding, ceil_mode", helpers=_TF_POOL)
    _pool(f"avg_pool{_n}d", _n, {"torch": _AVG_TORCH.format(n=_n), "paddle": _paddle_avg, "tf": _TF_AVG.format(n=_n)},
          f"{_n}-d average pooling of {_LAYOUT[_n]}: kernel, stride, padding, ceil_mode, count_include_pad "
          f"(Paddle: exclusive = not count_include_pad)", average=True, helpers=_TF_POOL,
          tolerance="sums in a different order: judged against fp64")

_pool("max_pool2d_dilated", 2,
      {"torch": "F.max_pool2d({0}, {kernel}, {stride}, {padding}, dilation={dilation}, ceil_mode={ceil_mode})",
       "tf": "tf_pool({0}, 'max', {kernel}, {stride}, {padding}, {dilation}, {ceil_mode}, True, 2)"},
      "2-d max pooling with a dilated window (dilation 1 or 2)", dilated=True, helpers=_TF_POOL,
      missing={"paddle": "paddle.nn.functional.max_pool2d has no dilation argument"})


# ---------------------------------------------------------------- adaptive and global pooling


def _adaptive_infer(n: int):
    def infer(ts, a):
        t = ts[0]
        need(_fits(t, n), f"{n}-d adaptive pooling needs rank {_RANK[n]} with static pooled dims, got {t}")
        need(len(a["sizes"]) == n and all(1 <= o for o in a["sizes"]), f"bad output sizes {a['sizes']}")
        return TensorType(t.shape[:-n] + tuple(a["sizes"]), t.dtype)
    return infer


def _adaptive_attrs(n: int):
    def attrs(draw, ts):
        return {"sizes": tuple(draw(strategies().integers(1, size)) for size in _spatial(ts[0], n))}
    return attrs


def _adaptive(name: str, n: int, kind: str, doc: str):
    short = "max" if kind == "max" else "avg"
    paddle = f"F.adaptive_{short}_pool{n}d({{0}}, {{size_list}})"
    register(name=name, family="pooling", arity=1, doc=doc, infer=_adaptive_infer(n), attrs=_adaptive_attrs(n),
             weight=_WEIGHT[n],
             emit={"torch": f"F.adaptive_{short}_pool{n}d({{0}}, {{size_tuple}})",
                   "paddle": _unbatched(paddle) if n == 3 else paddle,
                   "tf": f"tf_adaptive_pool({{0}}, {{size_list}}, '{kind}')"},
             fields=lambda ts, a: {"size_list": list(a["sizes"]),
                                   "size_tuple": a["sizes"][0] if n == 1 else tuple(a["sizes"])},
             domain=lambda ivs, ts: _fits(ts[0], n), bound=keep_bound, helpers=_TF_ADAPTIVE,
             tolerance="" if kind == "max" else "sums in a different order: judged against fp64")


_adaptive("adaptive_avg_pool1d", 1, "avg", "1-d adaptive average pooling of [N, C, L] to a given size")
_adaptive("adaptive_avg_pool2d", 2, "avg", "2-d adaptive average pooling of [N, C, H, W] to given sizes")
_adaptive("adaptive_avg_pool3d", 3, "avg", "3-d adaptive average pooling of one volume [C, D, H, W]")
_adaptive("adaptive_max_pool1d", 1, "max", "1-d adaptive max pooling of [N, C, L] to a given size")
_adaptive("adaptive_max_pool2d", 2, "max", "2-d adaptive max pooling of [N, C, H, W] to given sizes")


def _global_infer(ts, a):
    t = ts[0]
    need(t.rank == 4, f"global pooling needs [N, C, H, W], got {t}")
    return TensorType(t.shape[:2] + (1, 1), t.dtype)


register(name="global_avg_pool2d", family="pooling", arity=1, doc="global average pooling of [N, C, H, W] to "
         "[N, C, 1, 1]", infer=_global_infer, domain=lambda ivs, ts: ts[0].rank == 4, bound=keep_bound,
         emit={"torch": "F.adaptive_avg_pool2d({0}, 1)", "paddle": "F.adaptive_avg_pool2d({0}, 1)",
               "tf": "tf.reduce_mean({0}, axis=[2, 3], keepdims=True)"},
         tolerance="sums in a different order: judged against fp64")
register(name="global_max_pool2d", family="pooling", arity=1, doc="global max pooling of [N, C, H, W] to "
         "[N, C, 1, 1]", infer=_global_infer, domain=lambda ivs, ts: ts[0].rank == 4, bound=keep_bound,
         emit={"torch": "F.adaptive_max_pool2d({0}, 1)", "paddle": "F.adaptive_max_pool2d({0}, 1)",
               "tf": "tf.reduce_max({0}, axis=[2, 3], keepdims=True)"})
