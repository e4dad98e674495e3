"""Deliberately wrong torch paths, each wrong only where two attributes meet (``--load tests.planted_pairs``): the
faults pairwise coverage (``conformance.program.coverage``) exists to find.

Each runs the eager model with one torch function replaced, while the path runs, by a translation that is right
on its own and wrong only on one pair:

* ``planted_pair_conv_dilation``: a grouped convolution (``groups > 1``) with its kernel flipped, only where the
  convolution is also dilated (``dilation > 1``);
* ``planted_pair_resize_corners``: interpolation that treats ``align_corners=True`` as ``False``, only where it scales
  a dim down;
* ``planted_pair_scatter_amax``: ``scatter_reduce`` with ``reduce="amax"`` that takes the minimum, only where its
  index repeats a position along the dim;
* ``planted_pair_cumsum_empty``: a cumulative sum with a negative axis whose result gets an extra leading dim, only
  on a tensor with a dim of size 0.

Every other op, and these ops off the pair, run as eager does, so the paths pass on programs that do not meet
the pair: a campaign must draw the pair to catch the fault.
"""

from __future__ import annotations

import contextlib

import torch
import torch.nn.functional as F

import conformance.paths.torch  # noqa: F401 - registers the real torch paths first
from conformance.paths.records import PathRecord, register


@contextlib.contextmanager
def _replaced(module, name: str, wrong):
    """``module.name`` is ``wrong(original, *args, **kwargs)`` inside the block."""
    original = getattr(module, name)
    setattr(module, name, lambda *args, **kwargs: wrong(original, *args, **kwargs))
    try:
        yield
    finally:
        setattr(module, name, original)


def _dilated(dilation) -> bool:
    return any(d > 1 for d in (dilation if isinstance(dilation, (tuple, list)) else (dilation,)))


def _conv_flipped_when_dilated(original, x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    if groups > 1 and _dilated(dilation):
        weight = weight.flip(-1)
    return original(x, weight, bias, stride, padding, dilation, groups)


def _interpolate_without_corners_down(original, x, size=None, scale_factor=None, *args, **kwargs):
    if kwargs.get("align_corners"):
        spatial = x.shape[2:]
        if size is not None:
            outs = [size] * len(spatial) if isinstance(size, int) else list(size)
        else:
            outs = [int(n * scale_factor) for n in spatial]
        if any(o < n for o, n in zip(outs, spatial)):
            kwargs["align_corners"] = False
    return original(x, size, scale_factor, *args, **kwargs)


def _repeats(index: torch.Tensor, dim: int) -> bool:
    """Whether ``index`` names one position twice along ``dim``."""
    rows = index.movedim(dim, -1).reshape(-1, index.shape[dim])
    return any(len(set(row.tolist())) < len(row) for row in rows)


def _scatter_amax_as_amin(original, x, dim, index, src, reduce, *, include_self=True):
    if reduce == "amax" and _repeats(index, dim):
        reduce = "amin"
    return original(x, dim, index, src, reduce, include_self=include_self)


def _cumsum_empty_negative(original, x, dim, *args, **kwargs):
    out = original(x, dim, *args, **kwargs)
    return out.unsqueeze(0) if dim < 0 and x.numel() == 0 else out


_FAULTS = {
    "conv_dilation": [(F, name, _conv_flipped_when_dilated) for name in ("conv1d", "conv2d", "conv3d")],
    "resize_corners": [(F, "interpolate", _interpolate_without_corners_down)],
    "scatter_amax": [(torch, "scatter_reduce", _scatter_amax_as_amin)],
    "cumsum_empty": [(torch, "cumsum", _cumsum_empty_negative)],
}


def _runner(name: str):
    def run(model, args, kwargs):
        with torch.no_grad(), contextlib.ExitStack() as stack:
            for module, fn, wrong in _FAULTS[name]:
                stack.enter_context(_replaced(module, fn, wrong))
            return model(*args, **kwargs)
    return run


def _planted(name: str, description: str) -> PathRecord:
    # default=False: selected only by name, never by a plain "all torch paths"
    return PathRecord("torch", f"planted_pair_{name}", description, lambda ctx: ctx.model, _runner(name),
                      default=False)


PLANTED = {
    "conv_dilation": _planted("conv_dilation", "eager, with a grouped convolution wrong only when dilated"),
    "resize_corners": _planted("resize_corners", "eager, with align_corners=True ignored only when scaling down"),
    "scatter_amax": _planted("scatter_amax", "eager, with an amax scatter wrong only on duplicate indices"),
    "cumsum_empty": _planted("cumsum_empty", "eager, with a cumsum wrong only on an empty tensor, negative axis"),
}
register(*PLANTED.values())
