"""Deliberately wrong torch paths that each break at an edge the generator now reaches (``--load tests.planted_edges``):

* ``planted_nan_to_zero``: every NaN of a float output becomes 0 (what a fast-math kernel or a wrong NaN
  propagation does);
* ``planted_trunc_division``: integer ``//`` rounds toward zero instead of down (an exporter emitting a plain
  ``Div``);
* ``planted_empty_flat``: an empty output comes back flat, shape ``[0]``, whatever its rank;
* ``planted_fp16_chop``: float16 results come back with their last 4 mantissa bits cleared (computed in float32,
  rounded toward zero to 6 bits: far beyond float16's own rounding).
* ``planted_fp16_promotion``: an integer tensor plus or times a float32 one is computed in float16 (a promotion
  table that takes the narrowest float);
* ``planted_empty_matmul_ones``: a matmul whose contracted dim is empty returns ones instead of zeros (the empty
  sum).

Every other program, and programs that do not reach the edge, run as eager does: the paths pass there.
"""

from __future__ import annotations

import contextlib

import torch

import conformance.paths.torch  # noqa: F401 - registers the real torch paths first
from conformance.paths.records import PathRecord, register
from conformance.program.trees import map_tree


def _chop(t: torch.Tensor) -> torch.Tensor:
    if t.dtype != torch.float16:
        return t
    return (t.contiguous().view(torch.int16) & ~0xF).view(torch.float16)


def _nan_to_zero(t: torch.Tensor) -> torch.Tensor:
    return torch.nan_to_num(t, nan=0.0, posinf=torch.inf, neginf=-torch.inf) if t.is_floating_point() else t


def _flat_if_empty(t: torch.Tensor) -> torch.Tensor:
    return t.reshape(0) if t.numel() == 0 else t


@contextlib.contextmanager
def _patched(owner, name: str, wrong):
    """``owner.name`` replaced by ``wrong(original, *args)`` inside the block."""
    original = getattr(owner, name)
    setattr(owner, name, lambda *args: wrong(original, *args))
    try:
        yield
    finally:
        setattr(owner, name, original)


def _fp16_promotion(original, a, b):
    tensors = [x for x in (a, b) if isinstance(x, torch.Tensor)]
    if len(tensors) == 2 and {x.is_floating_point() for x in tensors} == {True, False} and \
            torch.float32 in {x.dtype for x in tensors}:
        return original(a.to(torch.float16), b.to(torch.float16))
    return original(a, b)


def _empty_matmul_ones(original, a, b):
    out = original(a, b)
    return torch.ones_like(out) if a.shape[-1] == 0 and out.numel() else out


@contextlib.contextmanager
def _both(first, second):
    with first, second:
        yield


def _trunc_floordiv(original, a, b):
    if not a.is_floating_point() and not (isinstance(b, torch.Tensor) and b.is_floating_point()):
        return torch.div(a, b, rounding_mode="trunc")
    return original(a, b)


#: The faults that patch torch while the model runs (the others change its outputs).
_PATCHES = {"trunc_division": lambda: _patched(torch.Tensor, "__floordiv__", _trunc_floordiv),
            "fp16_promotion": lambda: _both(_patched(torch.Tensor, "__add__", _fp16_promotion),
                                            _patched(torch.Tensor, "__mul__", _fp16_promotion)),
            "empty_matmul_ones": lambda: _patched(torch, "matmul", _empty_matmul_ones)}


def _runner(fault: str):
    def run(model, args, kwargs):
        with torch.no_grad(), _PATCHES.get(fault, contextlib.nullcontext)():
            out = model(*args, **kwargs)
        wrong = {"nan_to_zero": _nan_to_zero, "empty_flat": _flat_if_empty, "fp16_chop": _chop}.get(fault)
        return map_tree(lambda t: wrong(t) if isinstance(t, torch.Tensor) else t, out) if wrong else out
    return run


def _planted(name: str, description: str) -> PathRecord:
    # default=False: selected only by name, never by a plain "all torch paths"
    return PathRecord("torch", f"planted_{name}", description, lambda ctx: ctx.model, _runner(name), default=False)


PLANTED = {
    "nan_to_zero": _planted("nan_to_zero", "eager, with every NaN of a float output turned into 0"),
    "trunc_division": _planted("trunc_division", "eager, with integer // rounding toward zero"),
    "empty_flat": _planted("empty_flat", "eager, with empty outputs returned flat (shape [0])"),
    "fp16_chop": _planted("fp16_chop", "eager, with float16 outputs rounded toward zero to 6 mantissa bits"),
    "fp16_promotion": _planted("fp16_promotion", "eager, with integer + or * float32 computed in float16"),
    "empty_matmul_ones": _planted("empty_matmul_ones", "eager, with ones from a matmul over an empty dim"),
}
register(*PLANTED.values())
