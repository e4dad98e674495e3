"""Padding: constant (and negative, which crops), reflect, replicate and circular, of the last 1, 2 or 3 dims.

torch lists pads from the last dim backwards (``[left, right, top, bottom, ...]``); Paddle's constant mode
takes a pair per dim from the first (the emitters write each framework's order), its other modes the
spatial dims of ``[N, C, L]``, ``[N, C, H, W]`` or ``[N, C, D, H, W]`` (a 3-d pad adds and removes the batch
dim of one volume ``[C, D, H, W]``); TensorFlow pads with a pair per dim and has no replicate or circular
mode (a helper: :func:`~conformance.program.ops.helper_code.tf_pad_edges`). Reflect pads are smaller than
the padded dim, circular ones no larger. Paddle's ``pad_negative`` gives negative pads for the spatial dims of
``[N, C, ...]`` (which Paddle crops with); for other ranks it crops by slicing, then pads (Paddle refuses a
negative pad given for every dim).
"""

from __future__ import annotations

from conformance.program.ir import TensorType
from conformance.program.ops import helper_code
from conformance.program.ops.record import hull, keep_bound, need, register, strategies

_TF_EDGES = {"tf": helper_code.source(helper_code.tf_pad_edges)}
#: the input rank each mode pads n dims of (constant: any rank of at least n)
_RANK = {1: 3, 2: 4, 3: 4}


def _pads_fit(t: TensorType, pads, mode: str) -> bool:
    sizes = t.shape[t.rank - len(pads):]
    if not all(isinstance(n, int) for n in sizes):
        return False
    for n, (before, after) in zip(sizes, pads):
        if mode == "reflect" and max(before, after) >= n:
            return False
        if mode == "circular" and max(before, after) > n:
            return False
        if n + before + after < 1:
            return False
    return True


def _pad_infer(mode: str):
    def infer(ts, a):
        t = ts[0]
        pads = a["pads"]
        n = len(pads)
        need(1 <= n <= 3 and (t.rank >= n if mode == "constant" else t.rank == _RANK[n]),
             f"{mode} padding of {n} dims does not fit {t}")
        need(_pads_fit(t, pads, mode), f"pads {pads} do not fit {t} in {mode} mode")
        return TensorType(t.shape[:t.rank - n] + tuple(s + b + e for s, (b, e) in zip(t.shape[t.rank - n:], pads)),
                          t.dtype)
    return infer


def _pad_attrs(mode: str, low: int = 0):
    def attrs(draw, ts):
        st = strategies()
        t = ts[0]
        choices = [n for n in (1, 2, 3) if (t.rank >= n if mode == "constant" else t.rank == _RANK[n])
                   and all(isinstance(s, int) for s in t.shape[t.rank - n:])]
        n = draw(st.sampled_from(choices))
        sizes = t.shape[t.rank - n:]
        top = {"reflect": lambda s: s - 1, "circular": lambda s: s}.get(mode, lambda s: 2)
        pads = tuple((draw(st.integers(max(low, -(s - 1)), min(2, top(s)))),
                      draw(st.integers(max(low, -(s - 1)), min(2, top(s))))) for s in sizes)
        if not _pads_fit(t, pads, mode):
            pads = tuple((0, 0) for _ in sizes)
        a = {"pads": pads}
        if mode == "constant":
            a["value"] = draw(st.sampled_from([0.0, 1.5]))
        return a
    return attrs


def _pad_fields(ts, a) -> dict:
    t, pads = ts[0], a["pads"]
    torch = [p for pair in reversed(pads) for p in pair]
    everything = [[0, 0]] * (t.rank - len(pads)) + [list(pair) for pair in pads]
    sizes = t.shape[t.rank - len(pads):]
    crop = [f"{max(0, -b)}:{n + min(0, e)}" for n, (b, e) in zip(sizes, pads)]
    grown = [[0, 0]] * (t.rank - len(pads)) + [[max(0, b), max(0, e)] for b, e in pads]
    # Paddle's F.pad crops with negative pads given for the spatial dims of [N, C, ...] (torch's order); given for
    # every dim it refuses them (its pad kernel: paddings >= 0), so other ranks crop by slicing first
    spatial = len(pads) == t.rank - 2
    cropped = not spatial and any(min(pair) < 0 for pair in pads)
    return {"torch_pads": torch, "paddle_constant": [p for pair in everything for p in pair], "tf_pads": everything,
            "paddle_crop": f"[..., {', '.join(crop)}]" if cropped else "",
            "paddle_grow": torch if spatial else [p for pair in grown for p in pair],
            "tf_pairs": [list(pair) for pair in pads], "add_batch": ".unsqueeze(0)" if len(pads) == 3 else "",
            "drop_batch": ".squeeze(0)" if len(pads) == 3 else ""}


def _pad(name: str, mode: str, doc: str, emit: dict, low: int = 0, bound=keep_bound, **kw):
    register(name=name, family="padding", arity=1, doc=doc, emit=emit, infer=_pad_infer(mode),
             attrs=_pad_attrs(mode, low), fields=_pad_fields, bound=bound,
             domain=lambda ivs, ts: any((ts[0].rank >= n if mode == "constant" else ts[0].rank == _RANK[n])
                                        and all(isinstance(s, int) for s in ts[0].shape[ts[0].rank - n:])
                                        for n in (1, 2, 3)), **kw)


_pad("pad_constant", "constant", "constant padding of the last 1-3 dims (value 0 or 1.5), 0-2 per side",
     {"torch": "F.pad({0}, {torch_pads}, mode='constant', value={value})",
      "paddle": "F.pad({0}, {paddle_constant}, mode='constant', value={value})",
      "tf": "tf.pad({0}, {tf_pads}, constant_values={value})"},
     bound=lambda ivs, a, ts: hull(*ivs[0], a["value"]))
_pad("pad_negative", "constant", "constant padding with negative pads (cropping) of the last 1-3 dims",
     {"torch": "F.pad({0}, {torch_pads}, mode='constant', value={value})",
      "paddle": "F.pad({0}{paddle_crop}, {paddle_grow}, mode='constant', value={value})"}, low=-2,
     bound=lambda ivs, a, ts: hull(*ivs[0], a["value"]),
     missing={"tf": "tf.pad takes no negative paddings (TensorFlow users crop by slicing)"})
_SPATIAL = "F.pad({{0}}{{add_batch}}, {{torch_pads}}, mode='{mode}'){{drop_batch}}"
for _mode in ("reflect", "replicate", "circular"):
    _tf = ("tf.pad({0}, {tf_pads}, mode='REFLECT')" if _mode == "reflect"
           else f"tf_pad_edges({{0}}, {{tf_pairs}}, '{_mode}')")
    _pad(f"pad_{_mode}", _mode, f"{_mode} padding of the spatial dims of [N, C, L], [N, C, H, W] or one volume "
         f"[C, D, H, W]", {"torch": _SPATIAL.format(mode=_mode), "paddle": _SPATIAL.format(mode=_mode), "tf": _tf},
         helpers={} if _mode == "reflect" else _TF_EDGES)
