"""Deliberately wrong torch paths, registered for the self-tests (``--load tests.planted_paths``).

Each wraps the eager model and breaks its result in one known way, so the tests can prove the
oracle and the campaign notice: a perturbed element, a wrong dtype, a NaN, a segfault, a hang.
"""

import os
import signal
import time

import torch

import conformance.paths.torch  # noqa: F401 - registers the real torch paths first
from conformance.paths.records import PathRecord, register
from conformance.paths.torch.conversions import trace


def _eager(ctx):
    return ctx.model


def _first_float(out):
    """The first float tensor of ``out`` with a finite element (an input returned as it is may hold only NaN and
    infinities, which no perturbation changes)."""
    if isinstance(out, torch.Tensor):
        return out if out.is_floating_point() and bool(torch.isfinite(out).any()) else None
    items = out.values() if isinstance(out, dict) else out
    return next((t for t in map(_first_float, items) if t is not None), None)


def _perturbed(model, args, kwargs):
    out = model(*args, **kwargs)
    t = _first_float(out)
    if t is not None:  # its largest finite element, off by 1e-4 (relative; absolute where it is 0)
        flat = t.view(-1)
        i = int(torch.where(torch.isfinite(flat), flat.abs(), -1.0).argmax())
        flat[i] = flat[i] * (1 + 1e-4) + (1e-4 if flat[i] == 0 else 0.0)
    return out


def _as_fp64(out):
    if isinstance(out, torch.Tensor):
        return out.double() if out.is_floating_point() else out
    if isinstance(out, dict):
        return {k: _as_fp64(v) for k, v in out.items()}
    return type(out)(_as_fp64(v) for v in out)


def _nan(model, args, kwargs):
    out = model(*args, **kwargs)
    t = _first_float(out)
    if t is not None:
        t.view(-1)[0] = float("nan")
    return out


_calls = {"n": 0}


def _every_other_call(model, args, kwargs):
    """Right on every second call: a nondeterministic path."""
    _calls["n"] += 1
    return _perturbed(model, args, kwargs) if _calls["n"] % 2 else model(*args, **kwargs)


def _hog(model, args, kwargs):
    """Allocates without bound (a path whose memory use explodes; untouched pages, so it is quick)."""
    hoard = []
    while True:
        hoard.append(torch.empty(2**27))  # 512 MiB of address space each


def _segfault(model, args, kwargs):
    os.kill(os.getpid(), signal.SIGSEGV)


_converted = {"n": 0}


def _counted(ctx):
    _converted["n"] += 1
    return ctx.model


def _segfault_after_others(model, args, kwargs):
    """Segfaults in a process that has converted before: state left by earlier conversions (Paddle's kind)."""
    if _converted["n"] > 1:
        os.kill(os.getpid(), signal.SIGSEGV)
    return model(*args, **kwargs)


def _hang(model, args, kwargs):
    while True:
        time.sleep(0.1)


def _run(fn):
    def run(model, args, kwargs):
        with torch.no_grad():
            return fn(model, args, kwargs)
    return run


def _trace_then_wrong(ctx):
    traced = trace(ctx)
    example = [t.clone() for t in _leaves(ctx.args)]

    def run(*args, **kwargs):
        out = traced(*args, **kwargs)
        if any(not torch.equal(a, b) for a, b in zip(_leaves(list(args)), example)):
            t = _first_float(out)
            if t is not None:
                t.mul_(1.01)  # wrong on every input but the example: not trace's documented freezing
        return out
    return run


def _leaves(tree):
    if isinstance(tree, torch.Tensor):
        return [tree]
    items = tree.values() if isinstance(tree, dict) else tree
    return [leaf for item in items for leaf in _leaves(item)]


def _planted(name, description, run):
    # default=False: selected only by name, never by a plain "all torch paths"
    return PathRecord("torch", name, description, _eager, _run(run), default=False)


register(
    _planted("planted_perturb", "eager, one output element off by 1e-4 relative", _perturbed),
    _planted("planted_dtype", "eager, float outputs cast to float64", lambda m, a, k: _as_fp64(m(*a, **k))),
    _planted("planted_nan", "eager, a NaN in the first float output", _nan),
    _planted("planted_segfault", "segfaults when run", _segfault),
    PathRecord("torch", "planted_segfault_after_others", "segfaults in a process that converted before", _counted,
               _run(_segfault_after_others), default=False),
    _planted("planted_flaky", "wrong on every other call", _every_other_call),
    _planted("planted_hog", "allocates without bound", _hog),
    _planted("planted_hang", "never returns", _hang),
    PathRecord("torch", "planted_trace_wrong", "trace, then 1% off on inputs other than the example",
               _trace_then_wrong, _run(lambda m, a, k: m(*a, **k)), specializes=frozenset({"kwargs", "control_flow"}),
               default=False),
)
