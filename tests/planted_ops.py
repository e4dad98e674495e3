"""Deliberately wrong torch paths that each mistranslate one op the way converters do (``--load tests.planted_ops``).

Each runs the eager model with one torch function replaced, while the path runs, by a wrong translation of it:

* ``planted_pool_ceil``: pooling that ignores ``ceil_mode`` (rounds the output size down);
* ``planted_resize_corners``: interpolation that treats ``align_corners=True`` as ``False``;
* ``planted_scatter_order``: a ``sum`` scatter that writes its duplicates one after another instead of adding
  them (each duplicate overwrites the one before: what a ScatterElements without reduction does);
* ``planted_unstable_sort``: an argsort asked to be stable that puts equal values in reverse order.

Every other op, and these ops where the fault makes no difference, run as eager does, so the paths pass on
programs that do not exercise the fault: what a campaign's judgement must tell apart.
"""

from __future__ import annotations

import contextlib

import torch
import torch.nn.functional as F

import conformance.paths.torch  # noqa: F401 - registers the real torch paths first
from conformance.paths.records import PathRecord, register

_POOLS = [f"{kind}_pool{n}d" for kind in ("max", "avg") for n in (1, 2, 3)]


@contextlib.contextmanager
def _replaced(module, name: str, wrong):
    """``module.name`` is ``wrong(original, *args, **kwargs)`` inside the block."""
    original = getattr(module, name)
    setattr(module, name, lambda *args, **kwargs: wrong(original, *args, **kwargs))
    try:
        yield
    finally:
        setattr(module, name, original)


def _pool_without_ceil(original, *args, **kwargs):
    kwargs["ceil_mode"] = False
    return original(*args, **kwargs)


def _interpolate_without_corners(original, *args, **kwargs):
    if kwargs.get("align_corners"):
        kwargs["align_corners"] = False
    return original(*args, **kwargs)


def _scatter_sum_overwriting(x, dim, index, src):
    """Each index writes x's value plus its own source value: duplicates overwrite instead of summing."""
    block = src[tuple(slice(0, n) for n in index.shape)]
    return x.scatter(dim, index, x.gather(dim, index) + block)


def _scatter_add_overwriting(original, x, dim, index, src):
    return _scatter_sum_overwriting(x, dim, index, src)


def _scatter_reduce_overwriting(original, x, dim, index, src, reduce, *, include_self=True):
    if reduce == "sum" and include_self:
        return _scatter_sum_overwriting(x, dim, index, src)
    return original(x, dim, index, src, reduce, include_self=include_self)


def _argsort_unstable(original, x, dim=-1, descending=False, stable=False):
    """A stable argsort of the tensor reversed along ``dim``, mapped back: equal values in reverse order."""
    if not stable:
        return original(x, dim=dim, descending=descending)
    in_reverse = original(x.flip(dim), dim=dim, descending=descending, stable=True)
    return x.shape[dim] - 1 - in_reverse


def _faults(name: str):
    stack = contextlib.ExitStack()
    if name == "pool_ceil":
        for fn in _POOLS:
            stack.enter_context(_replaced(F, fn, _pool_without_ceil))
    elif name == "resize_corners":
        stack.enter_context(_replaced(F, "interpolate", _interpolate_without_corners))
    elif name == "scatter_order":
        stack.enter_context(_replaced(torch, "scatter_add", _scatter_add_overwriting))
        stack.enter_context(_replaced(torch, "scatter_reduce", _scatter_reduce_overwriting))
    elif name == "unstable_sort":
        stack.enter_context(_replaced(torch, "argsort", _argsort_unstable))
    return stack


def _eager(ctx):
    return ctx.model


def _runner(name: str):
    def run(model, args, kwargs):
        with torch.no_grad(), _faults(name):
            return model(*args, **kwargs)
    return run


def _planted(name: str, description: str) -> PathRecord:
    # default=False: selected only by name, never by a plain "all torch paths"
    return PathRecord("torch", f"planted_{name}", description, _eager, _runner(name), default=False)


PLANTED = {
    "pool_ceil": _planted("pool_ceil", "eager, with pooling that ignores ceil_mode"),
    "resize_corners": _planted("resize_corners", "eager, with interpolation that treats align_corners=True as False"),
    "scatter_order": _planted("scatter_order", "eager, with a sum scatter whose duplicates overwrite each other"),
    "unstable_sort": _planted("unstable_sort", "eager, with a stable argsort that reverses equal values"),
}
register(*PLANTED.values())
