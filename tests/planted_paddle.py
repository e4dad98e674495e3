"""Deliberately wrong Paddle paths, registered for the self-tests (``--load tests.planted_paddle``).

Each is a real Paddle path broken in one known way, so the tests can prove that every Paddle path's
outputs really reach the oracle and that a wrong result is a ``mismatch``: a perturbed output, a
loaded model that reads the first item of a list input in place of the second, a predictor that
answers every call with its first call's outputs, a SOT model that keeps the first call's kwargs, an
ONNX export that drops the last iteration of every loop, and an AST conversion that is wrong beyond
the kwargs it documents fixing.
"""

import dataclasses

import numpy as np

import conformance.paths.paddle as real  # registers the real paddle paths first
from conformance.case import map_tree
from conformance.ir import For, Grow, If, Program, While
from conformance.paths import PATHS, ConvertContext, FlatOutputs, PathRecord, register
from conformance.render import load_model_module


def _perturb(out):
    """``out`` with its largest float element off by 1e-4 relative (numpy or paddle leaves)."""
    leaves = out if isinstance(out, FlatOutputs) else None
    arrays = real._to_numpy(list(out) if leaves is not None else out)
    flat = []

    def collect(a):
        flat.append(a)
        return a
    map_tree(collect, arrays)
    target = next((a for a in flat if a.dtype.kind == "f" and a.size), None)
    if target is not None:
        view = target.reshape(-1)
        i = int(np.abs(view).argmax())
        view[i] = view[i] * (1 + 1e-4) + (1e-4 if view[i] == 0 else 0.0)
    return FlatOutputs(arrays) if leaves is not None else arrays


def _perturbed(path: PathRecord) -> PathRecord:
    return dataclasses.replace(path, name=f"planted_perturb_{path.name}", default=False, limitations=(),
                               description=f"{path.description}; one output element off by 1e-4 relative",
                               run=lambda artifact, args, kwargs: _perturb(path.run(artifact, args, kwargs)))


def _second_item_is_the_first(args):
    """A list input of tensors with its second item replaced by its first (same shape only)."""
    def fix(a):
        if isinstance(a, list) and len(a) > 1 and not isinstance(a[0], (list, dict)) and a[0].shape == a[1].shape:
            return [a[0], a[0]] + a[2:]
        return a
    return [fix(a) for a in args]


def _load_ignoring_second_item(ctx: ConvertContext):
    loaded = real._jit_load(ctx)
    return lambda *args, **kwargs: loaded(*_second_item_is_the_first(list(args)))


def _stale_predictor(ctx: ConvertContext):
    predictor = real._inference(ctx)
    first = []

    def run(*args, **kwargs):
        if not first:
            first.append(predictor(*args, **kwargs))
        return FlatOutputs(first[0])
    return run


def _sot_first_kwargs(ctx: ConvertContext):
    static = real._to_static(False)(ctx)
    kept = dict(ctx.kwargs)
    return lambda *args, **kwargs: static(*args, **kept)


def _one_iteration_less(program: Program) -> Program:
    def fewer(stmts):
        out = []
        for s in stmts:
            if isinstance(s, If):
                s = If(s.cond, fewer(s.then), fewer(s.orelse))
            elif isinstance(s, For):
                s = For(s.var, s.count - 1 if isinstance(s.count, int) and s.count else s.count, fewer(s.body))
            elif isinstance(s, While):
                s = While(s.cond, max(s.max_iter - 1, 0), s.counter, fewer(s.body))
            elif isinstance(s, Grow) and isinstance(s.count, int) and s.count:
                s = dataclasses.replace(s, count=s.count - 1)
            out.append(s)
        return tuple(out)
    return dataclasses.replace(program, body=fewer(program.body))


def _onnx_dropping_an_iteration(ctx: ConvertContext):
    """The ONNX export of the program with one iteration less in every loop (an exporter bug)."""
    shorter = _one_iteration_less(ctx.program)
    model = real._prepare(load_model_module(shorter, "paddle").Model(), ctx.device, False)
    return real._onnx(dataclasses.replace(ctx, model=model, program=shorter))


def _static_wrong_on_other_kwargs(ctx: ConvertContext):
    static = real._to_static(True)(ctx)
    example = dict(ctx.kwargs)

    def run(*args, **kwargs):
        out = real._to_numpy(static(*args, **kwargs))
        return _perturb(out) if kwargs != example else out
    return run


def _planted(name, description, convert, run=real._run, specializes=frozenset()):
    # default=False: selected only by name, never by a plain "all paddle paths"
    return PathRecord("paddle", name, description, convert, run, specializes=specializes, default=False)


PERTURBED = [_perturbed(PATHS[f"paddle.{name}"])
             for name in ("eager", "to_static", "to_static_sot", "jit_save", "inference", "onnx")]
register(
    *PERTURBED,
    _planted("planted_load_list", "jit.save/load; the loaded model reads a list input's first item as its second",
             _load_ignoring_second_item, specializes=frozenset({"kwargs"})),
    _planted("planted_stale_predictor", "Paddle Inference; every call returns the first call's outputs",
             _stale_predictor, specializes=frozenset({"kwargs"})),
    _planted("planted_sot_first_kwargs", "SOT; every call runs with the first call's kwargs", _sot_first_kwargs),
    _planted("planted_onnx_short_loops", "paddle2onnx on onnxruntime; every loop runs one iteration less",
             _onnx_dropping_an_iteration, specializes=frozenset({"kwargs"})),
    _planted("planted_static_kwargs_wrong", "AST to_static; 1e-4 off on calls with other kwargs than the example's",
             _static_wrong_on_other_kwargs, specializes=frozenset({"kwargs"})),
)
