"""Convolution: 1-d, 2-d and 3-d, strided, dilated, grouped and depthwise, ``same`` padding and the padding
modes (reflect, replicate, circular), and transposed convolution with ``output_padding``.

Layouts are channels first with static channels and spatial dims: ``[N, C, L]``, ``[N, C, H, W]``, and one
unbatched volume ``[C, D, H, W]`` for 3-d (torch convolves it as it is; Paddle and the TensorFlow helper
add and remove the batch dim). Weights are torch's: ``[out, in / groups, *kernel]``, transposed
``[in, out, *kernel]``, and a bias ``[out]``. TensorFlow's convolutions are channels last: helpers
(:func:`~conformance.program.ops.helper_code.tf_conv`, ``tf_conv_transpose``) move the channels and the
weight's dims. (``conv2d`` itself, the first convolution record, is in :mod:`.linalg`.)
"""

from __future__ import annotations

import math

from conformance.program.ir import TensorType
from conformance.program.ops import helper_code
from conformance.program.ops.record import hull, need, register, strategies

_TF_CONV = {"tf": helper_code.source(helper_code.tf_conv)}
_TF_CONV_T = {"tf": helper_code.source(helper_code.tf_conv_transpose)}
_RANK = {1: 3, 2: 4, 3: 4}
_TOLERANCE = "convolution algorithms sum in different orders: judged against fp64"


def _fits(t: TensorType, n: int) -> bool:
    return t.rank == _RANK[n] and all(isinstance(d, int) for d in t.shape[-n - 1:])


def _channels(t: TensorType, n: int) -> int:
    return t.shape[-n - 1]


def conv_size(size: int, a: dict) -> int:
    """A convolution's output size along a dim of ``size`` (``same``: the input's)."""
    if a["padding"] == "same":
        return size
    return (size + 2 * a["padding"] - a["dilation"] * (a["kernel"] - 1) - 1) // a["stride"] + 1


def _conv_infer(n: int):
    def infer(ts, a):
        t = ts[0]
        need(_fits(t, n), f"conv{n}d needs rank {_RANK[n]} with static channels and spatial dims, got {t}")
        need(_channels(t, n) % a["groups"] == 0 and a["out_channels"] % a["groups"] == 0,
             f"{a['groups']} groups do not divide the channels of {t} and {a['out_channels']}")
        outs = tuple(conv_size(size, a) for size in t.shape[-n:])
        need(min(outs) >= 1, f"conv{n}d {a} does not fit {t}")
        if a.get("mode") in ("reflect", "circular"):
            need(all(a["padding"] < size for size in t.shape[-n:]), f"{a['mode']} padding larger than {t}")
        return TensorType(t.shape[:-n - 1] + (a["out_channels"],) + outs, t.dtype)
    return infer


def _conv_attrs(n: int, groups=False, depthwise=False, same=False, modes=False):
    def attrs(draw, ts):
        st = strategies()
        t = ts[0]
        channels, smallest = _channels(t, n), min(t.shape[-n:])
        kernel = draw(st.sampled_from([3, 2, 1]))
        a = {"kernel": kernel, "stride": 1 if same else draw(st.sampled_from([1, 2])),
             "dilation": draw(st.sampled_from([1, 2])),
             "padding": "same" if same else draw(st.integers(0, kernel // 2)),
             "groups": 1, "mode": "zeros"}
        if depthwise:
            a["groups"] = channels
        elif groups:
            a["groups"] = draw(st.sampled_from([g for g in range(1, channels + 1) if channels % g == 0]))
        a["out_channels"] = a["groups"] * draw(st.integers(1, 2 if a["groups"] > 1 else 4))
        if modes:
            a["mode"] = draw(st.sampled_from(["reflect", "replicate", "circular"]))
            a["padding"] = min(max(1, kernel // 2), smallest - 1)
        if min(conv_size(size, a) for size in t.shape[-n:]) < 1:
            a.update(kernel=1, dilation=1)  # fits any size
        return a
    return attrs


def _conv_bound(n: int, transposed: bool = False):
    def bound(ivs, a, ts):
        t = ts[0]
        fan_in = _channels(t, n) // a.get("groups", 1) * a["kernel"] ** n
        if transposed:
            fan_in = _channels(t, n) * math.ceil(a["kernel"] / a["stride"]) ** n
        m = fan_in * max(map(abs, ivs[0])) * 0.5 + 0.5
        return hull(-m, m)
    return bound


def _batched(call: str, n: int) -> str:
    """A Paddle call on one unbatched volume (3-d): add the batch dim, call, remove it."""
    return call.replace("({0}", "({0}.unsqueeze(0)", 1) + ".squeeze(0)" if n == 3 else call


def _conv(name, n, doc, torch, paddle, tf, attrs, **kw):
    register(name=name, family="convolution", arity=1, doc=doc, infer=_conv_infer(n), attrs=attrs,
             emit={**({"torch": torch} if torch else {}), **({"paddle": _batched(paddle, n)} if paddle else {}),
                   "tf": tf},
             domain=lambda ivs, ts: _fits(ts[0], n),
             params=lambda ts, a: [((a["out_channels"], _channels(ts[0], n) // a["groups"]) + (a["kernel"],) * n, 0.5),
                                   ((a["out_channels"],), 0.5)],
             fields=lambda ts, a: {"torch_padding": repr(a["padding"]), "tf_padding": repr(a["padding"]),
                                   "paddle_padding": "'SAME'" if a["padding"] == "same" else a["padding"],
                                   "torch_pads": [a["padding"]] * (2 * n) if isinstance(a["padding"], int) else []},
             bound=_conv_bound(n), helpers=_TF_CONV, tolerance=_TOLERANCE, **kw)


_TORCH = "F.conv{n}d({{0}}, {{p0}}, {{p1}}, stride={{stride}}, padding={{torch_padding}}, dilation={{dilation}}, " \
         "groups={{groups}})"
_PADDLE = "F.conv{n}d({{0}}, {{p0}}, {{p1}}, stride={{stride}}, padding={{paddle_padding}}, dilation={{dilation}}, " \
          "groups={{groups}})"
_TF = "tf_conv({{0}}, {{p0}}, {{p1}}, {{stride}}, {{tf_padding}}, {{dilation}}, {n}, {{mode!r}})"

_conv("conv1d", 1, "1-d convolution of [N, C, L]: kernel, stride, padding, dilation", _TORCH.format(n=1),
      _PADDLE.format(n=1), _TF.format(n=1), _conv_attrs(1))
_conv("conv2d_grouped", 2, "2-d convolution of [N, C, H, W] with stride, dilation and groups (a divisor of C)",
      _TORCH.format(n=2), _PADDLE.format(n=2), _TF.format(n=2), _conv_attrs(2, groups=True))
_conv("conv2d_depthwise", 2, "depthwise 2-d convolution: one group per input channel, 1 or 2 outputs each",
      _TORCH.format(n=2), _PADDLE.format(n=2), _TF.format(n=2), _conv_attrs(2, depthwise=True))
_conv("conv2d_same", 2, "2-d convolution with padding 'same' (stride 1; an even kernel pads more on the right)",
      _TORCH.format(n=2), _PADDLE.format(n=2), _TF.format(n=2), _conv_attrs(2, same=True),
      differs={"paddle": "a suspected Paddle bug, not yet reported: padding='SAME' with dilation 2 gives other "
                         "values than torch's 'same' and TensorFlow's 'SAME', which agree (a 1x2x5x6 input, a 3x3 "
                         "kernel: up to 3.48 apart, the same shape)"})
_conv("conv2d_padding_mode", 2, "2-d convolution of an input padded in reflect, replicate or circular mode (what "
      "a layer's padding_mode does)", "F.conv2d(F.pad({0}, {torch_pads}, mode={mode!r}), {p0}, {p1}, stride={stride}, "
      "dilation={dilation})", "F.conv2d(F.pad({0}, {torch_pads}, mode={mode!r}), {p0}, {p1}, stride={stride}, "
      "dilation={dilation})", _TF.format(n=2), _conv_attrs(2, modes=True))
_conv("conv3d", 3, "3-d convolution of one volume [C, D, H, W]: kernel, stride, padding, dilation",
      _TORCH.format(n=3), _PADDLE.format(n=3), _TF.format(n=3), _conv_attrs(3), weight=3.0)

# ---------------------------------------------------------------- transposed


def transposed_size(size: int, a: dict) -> int:
    return (size - 1) * a["stride"] - 2 * a["padding"] + a["kernel"] + a["output_padding"]


def _transposed_infer(n: int):
    def infer(ts, a):
        t = ts[0]
        need(_fits(t, n), f"conv_transpose{n}d needs rank {_RANK[n]} with static channels and spatial dims, got {t}")
        need(a["output_padding"] < a["stride"] and a["padding"] <= (a["kernel"] - 1) // 2 + a["output_padding"],
             f"output_padding {a['output_padding']} must be smaller than the stride {a['stride']}")
        outs = tuple(transposed_size(size, a) for size in t.shape[-n:])
        need(min(outs) >= 1, f"conv_transpose{n}d {a} does not fit {t}")
        return TensorType(t.shape[:-n - 1] + (a["out_channels"],) + outs, t.dtype)
    return infer


def _transposed_attrs(draw, ts):
    st = strategies()
    kernel = draw(st.sampled_from([2, 3, 1]))
    stride = draw(st.sampled_from([2, 1]))
    return {"kernel": kernel, "stride": stride, "padding": draw(st.integers(0, (kernel - 1) // 2)),
            "output_padding": draw(st.integers(0, stride - 1)), "out_channels": draw(st.integers(1, 3))}


def _transposed(n: int, doc: str):
    paddle = (f"F.conv{n}d_transpose({{0}}, {{p0}}, {{p1}}, stride={{stride}}, padding={{padding}}, "
              f"output_padding={{output_padding}})")
    register(name=f"conv_transpose{n}d", family="convolution", arity=1, doc=doc, infer=_transposed_infer(n),
             attrs=_transposed_attrs, domain=lambda ivs, ts: _fits(ts[0], n),
             emit={"torch": f"F.conv_transpose{n}d({{0}}, {{p0}}, {{p1}}, stride={{stride}}, padding={{padding}}, "
                            f"output_padding={{output_padding}})",
                   "paddle": _batched(paddle, n),
                   "tf": f"tf_conv_transpose({{0}}, {{p0}}, {{p1}}, {{stride}}, {{padding}}, {{output_padding}}, {n})"},
             params=lambda ts, a: [((_channels(ts[0], n), a["out_channels"]) + (a["kernel"],) * n, 0.5),
                                   ((a["out_channels"],), 0.5)],
             bound=_conv_bound(n, transposed=True), helpers=_TF_CONV_T, tolerance=_TOLERANCE,
             weight=3.0 if n == 3 else 1.0)  # one volume [C, D, H, W] with static dims: few arguments fit


_transposed(1, "transposed 1-d convolution of [N, C, L]: kernel, stride, padding, output_padding")
_transposed(2, "transposed 2-d convolution of [N, C, H, W]: kernel, stride, padding, output_padding")
_transposed(3, "transposed 3-d convolution of one volume [C, D, H, W]: kernel, stride, padding, output_padding")
