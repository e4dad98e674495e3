"""Deliberately wrong torch paths for programs with effects (``--load tests.planted_effects``).

Each runs the eager model and gets one effect wrong, as converters have: it drops the in-place write to an
input, reads a view as it was before the write to its base, updates the buffers on the first call only, or keeps
the value a module flag had on the first call. Their outputs are otherwise eager's.
"""

import re

import torch

import conformance.paths.torch  # noqa: F401 - registers the real torch paths first
from conformance.paths.records import PathRecord, register
from conformance.render.source import cache_dir, load_source, render


def _model(ctx):
    return ctx.model


def _clone_leaves(tree):
    if isinstance(tree, torch.Tensor):
        return tree.clone()
    if isinstance(tree, dict):
        return {k: _clone_leaves(v) for k, v in tree.items()}
    return type(tree)(_clone_leaves(v) for v in tree)


def _drops_input_writes(model, args, kwargs):
    """Runs on copies of the inputs: the outputs are right, the caller's tensors are never written."""
    return model(*_clone_leaves(list(args)), **kwargs)


_VIEW = re.compile(r"^(\s+\w+_v = .+)$", re.M)


def _stale_views(ctx):
    """The model re-rendered with every view copied where it is taken: a view read after a write to its base
    holds the values from before the write (and a write through it misses the base)."""
    source = _VIEW.sub(r"\1.clone()", render(ctx.program, "torch"))
    path = cache_dir() / "torch" / ctx.program.id / "planted_stale_views.py"
    module = load_source(source, path, f"planted_stale_views_{ctx.program.id}")
    model = module.Model()
    model.load_state_dict(ctx.model.state_dict())
    return model.train(ctx.model.training)


def _state_on_first_call_only(model, args, kwargs):
    """The buffers' updates of every call but the first are undone after it."""
    model.planted_calls = getattr(model, "planted_calls", 0) + 1
    names = [name for name, _ in model.named_buffers()]
    kept = {name: getattr(model, name).clone() for name in names} if model.planted_calls > 1 else {}
    out = model(*args, **kwargs)
    for name, value in kept.items():
        setattr(model, name, value)
    return out


def _flags_of_first_call(model, args, kwargs):
    """Each flag keeps the value the first call saw, whatever the caller set since."""
    if not hasattr(model, "planted_flags"):
        model.planted_flags = {k: v for k, v in vars(model).items() if k.startswith("switch")}
    for name, value in model.planted_flags.items():
        setattr(model, name, value)
    return model(*args, **kwargs)


def _no_grad(fn):
    def run(model, args, kwargs):
        with torch.no_grad():
            return fn(model, args, kwargs)
    return run


register(
    PathRecord("torch", "planted_drops_input_write", "eager on copies of the inputs: in-place writes to inputs lost",
               _model, _no_grad(_drops_input_writes), default=False),
    PathRecord("torch", "planted_stale_view", "eager with every view copied where it is taken", _stale_views,
               _no_grad(lambda model, args, kwargs: model(*args, **kwargs)), default=False),
    PathRecord("torch", "planted_state_first_call", "eager, buffers updated on the first call only", _model,
               _no_grad(_state_on_first_call_only), default=False),
    PathRecord("torch", "planted_flag_cached", "eager, module flags kept as the first call saw them", _model,
               _no_grad(_flags_of_first_call), default=False),
)
