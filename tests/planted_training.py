"""Deliberately wrong torch paths for the gradient and training-step oracles (``--load tests.planted_training``).

Each converts to the eager model and breaks autograd or the optimizer in one known way, so the self-tests
can prove that the ``grad`` and ``train`` modes notice: a gradient scaled by 1.001, a gradient where eager
has none, an optimizer that skips its last step, batch-norm statistics that never update, and a
reduced-precision path whose decisions differ from fp32 eager (for the precision guard).
"""


import conformance.paths.torch  # noqa: F401 - registers the real torch paths first
from conformance.judge.training import STEPS
from conformance.paths.records import PathRecord, register
from conformance.paths.torch.conversions import call
from conformance.program.case import flatten, map_tree, unflatten

_MODES = frozenset({"infer", "grad", "train"})


def _trainable(ctx) -> list:
    return [getattr(ctx.model, q.name) for q in ctx.program.params if q.trainable]


def _grad_scaled(ctx):
    """The gradient of the first trainable parameter comes out scaled by 1.001 (a hook on it)."""
    params = _trainable(ctx)
    if params:
        params[0].register_hook(lambda g: g * 1.001)
    return ctx.model


class _Wrapped:
    """Calls the model; subclasses change what goes in or comes out."""

    def __init__(self, ctx):
        self.model, self.ctx = ctx.model, ctx

    def __call__(self, *args, **kwargs):
        return self.model(*args, **kwargs)


class _TouchesEveryParam(_Wrapped):
    """Adds 0 * (sum of every parameter) to the first float output: every parameter gets a gradient,
    zeros where eager has none."""

    def __call__(self, *args, **kwargs):
        out = self.model(*args, **kwargs)
        leaves = flatten(out)
        at = next((i for i, t in enumerate(leaves) if t.is_floating_point()), None)
        if at is not None and _trainable(self.ctx):
            leaves[at] = leaves[at] + 0.0 * sum(p.sum() for p in _trainable(self.ctx))
        return unflatten(out, leaves)


class _InputGradScaled(_Wrapped):
    """The gradient of the first float input leaf comes out scaled by 1.001."""

    def __call__(self, *args, **kwargs):
        first = next((a for a in flatten(list(args)) if a.requires_grad), None)
        if first is not None:
            first.register_hook(lambda g: g * 1.001)
        return self.model(*args, **kwargs)


class _StaleBatchNorm(_Wrapped):
    """Batch norm updates copies of its running statistics, dropped after every forward: they never update."""

    def __call__(self, *args, **kwargs):
        names = [q.name for q in self.ctx.program.params if not q.trainable]
        originals = {n: self.model._buffers[n] for n in names}
        self.model._buffers.update({n: b.clone() for n, b in originals.items()})
        try:
            return self.model(*args, **kwargs)
        finally:
            self.model._buffers.update(originals)


def _skip_last_step(step):
    """An optimizer step that does nothing on the last of the :data:`~conformance.training.STEPS` steps."""
    calls = [0]

    def wrapped(grads):
        calls[0] += 1
        if calls[0] < STEPS:
            step(grads)
    return wrapped


class _Negated(_Wrapped):
    """Runs the model on negated inputs: a stand-in for a reduced-precision path whose rounding flips
    every data-dependent decision (the precision guard must discard, not judge, such input sets)."""

    def __call__(self, *args, **kwargs):
        return self.model(*map_tree(lambda a: -a if a.is_floating_point() else a, list(args)), **kwargs)


def _planted(name, description, convert, **options):
    # default=False: selected only by name, never by a plain "all torch paths"
    return PathRecord("torch", name, description, convert, call, default=False, modes=_MODES, **options)


register(
    _planted("planted_grad_scale", "eager; the first trainable parameter's gradient scaled by 1.001", _grad_scaled),
    _planted("planted_grad_where_none", "eager; every parameter gets a gradient (zeros where eager has None)",
             _TouchesEveryParam),
    _planted("planted_input_grad_scale", "eager; the first input's gradient scaled by 1.001", _InputGradScaled),
    _planted("planted_optimizer_skip", "eager; the optimizer skips its last step", lambda ctx: ctx.model,
             optimizer=_skip_last_step),
    _planted("planted_stale_bn", "eager; batch-norm running statistics never update", _StaleBatchNorm),
    _planted("planted_precision_flip", "eager on negated inputs, declared bfloat16: every decision flips",
             _Negated, precision="bfloat16"),
)
