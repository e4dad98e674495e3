"""Deliberately wrong Paddle paths, registered for the self-tests (``--load tests.planted_paddle``).

Each is a real Paddle path broken in one known way, so the tests can prove that every Paddle path's
outputs really reach the oracle and that a wrong result is a ``mismatch``: a perturbed output, a
loaded model that reads the first item of a list input in place of the second, a predictor that
answers every call with its first call's outputs, a SOT model that keeps the first call's kwargs, an
ONNX export that drops the last iteration of every loop, an AST conversion that is wrong beyond
the kwargs it documents fixing, a loaded second method that answers with forward's result for another
input, a oneDNN predictor that drops every addition, and a fine-tuned loaded layer whose gradients and
steps go to the eager model's parameters instead of its own.
"""

import dataclasses
from types import SimpleNamespace

import numpy as np

import conformance.paths.paddle as paddle_paths  # registers the real paddle paths first
from conformance.paths.paddle import conversions, saved
from conformance.paths.records import PATHS, ConvertContext, FlatOutputs, PathRecord, register
from conformance.program.case import map_tree
from conformance.program.ir import For, Grow, If, OpStmt, While
from conformance.program.program import Program
from conformance.render.source import load_model_module


def _perturb(out):
    """``out`` with its largest float element off by 1e-4 relative (numpy or paddle leaves)."""
    leaves = out if isinstance(out, FlatOutputs) else None
    arrays = conversions.to_numpy(list(out) if leaves is not None else out)
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
    return dataclasses.replace(path, name=f"planted_perturb_{path.name}", default=False, limitations=(), components=(),
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
    loaded = saved.jit_load(ctx)
    return lambda *args, **kwargs: loaded(*_second_item_is_the_first(list(args)))


def _stale_predictor(ctx: ConvertContext):
    predictor = saved.inference(ctx)
    first = []

    def run(*args, **kwargs):
        if not first:
            first.append(predictor(*args, **kwargs))
        return FlatOutputs(first[0])
    return run


def _sot_first_kwargs(ctx: ConvertContext):
    static = conversions.to_static_sot(ctx)
    kept = dict(ctx.kwargs)
    return lambda *args, **kwargs: static(*args, **kept)


def _rewritten(program: Program, rewrite) -> Program:
    """``program`` with ``rewrite`` applied to every statement, inside branches and loops too (a statement or
    a tuple of statements in its place)."""
    def each(stmts):
        out = []
        for s in stmts:
            if isinstance(s, If):
                s = If(s.cond, each(s.then), each(s.orelse))
            elif isinstance(s, For):
                s = For(s.var, s.count, each(s.body))
            elif isinstance(s, While):
                s = While(s.cond, s.max_iter, s.counter, each(s.body))
            new = rewrite(s)
            out += new if isinstance(new, tuple) else [new]
        return tuple(out)
    return dataclasses.replace(program, body=each(program.body))


def _one_iteration_less(s):
    if isinstance(s, For) and isinstance(s.count, int) and s.count:
        return For(s.var, s.count - 1, s.body)
    if isinstance(s, While):
        return While(s.cond, max(s.max_iter - 1, 0), s.counter, s.body)
    if isinstance(s, Grow) and isinstance(s.count, int) and s.count:
        return dataclasses.replace(s, count=s.count - 1)
    return s


def _addition_dropped(s):
    """``x + y`` computes ``x + y * 0`` (``y`` stays an input of the program: jit.save refuses an unused one)."""
    if isinstance(s, OpStmt) and s.op == "add":
        zero = f"{s.out}_zero"
        return OpStmt(zero, "mul_scalar", s.args[1:], (("c", 0.0),)), OpStmt(s.out, "add", (s.args[0], zero))
    return s


def _converting(rewrite, convert):
    """``convert`` of the program with every statement rewritten (a converter bug)."""
    def wrong(ctx: ConvertContext):
        program = _rewritten(ctx.program, rewrite)
        model = conversions.prepare(load_model_module(program, "paddle").Model(), ctx.device, False)
        return convert(dataclasses.replace(ctx, model=model, program=program))
    return wrong


def _static_wrong_on_other_kwargs(ctx: ConvertContext):
    static = conversions.to_static(ctx)
    example = dict(ctx.kwargs)

    def run(*args, **kwargs):
        out = conversions.to_numpy(static(*args, **kwargs))
        return _perturb(out) if kwargs != example else out
    return run


def _method_answering_for_other_inputs(ctx: ConvertContext):
    """The loaded second method answers with the loaded forward's result for its first input doubled."""
    loaded = saved.load_with_method(ctx)
    return saved.Flat(lambda first, *rest: loaded(first * 2, *rest))


def _fine_tuning_the_eager_tensors(ctx: ConvertContext):
    """A loaded layer fine-tuned, its parameters looked up on the eager model (not the tensors it computes with)."""
    tuned = saved.jit_load(ctx)
    tuned.own_state = SimpleNamespace(**{q.name: getattr(ctx.model, q.name) for q in ctx.program.params})
    return tuned


def _planted(name, description, convert, run=conversions.run, specializes=frozenset(), **more):
    # default=False: selected only by name, never by a plain "all paddle paths"
    return PathRecord("paddle", name, description, convert, run, specializes=specializes, default=False, **more)


PERTURBED = [_perturbed(PATHS[f"paddle.{name}"])
             for name in ("eager", "to_static", "to_static_sot", "to_static_build_strategy",
                          "to_static_spec_from_tensor", "jit_save", "jit_save_methods", "inference",
                          "inference_no_onednn", "onnx")]
#: Perturbed paths that refuse a model with parameters (a saved function keeps no parameters).
PERTURBED_WITHOUT_PARAMETERS = [_perturbed(PATHS["paddle.jit_save_function"])]
register(
    *PERTURBED, *PERTURBED_WITHOUT_PARAMETERS,
    _planted("planted_load_list", "jit.save/load; the loaded model reads a list input's first item as its second",
             _load_ignoring_second_item, specializes=frozenset({"kwargs"})),
    _planted("planted_stale_predictor", "Paddle Inference; every call returns the first call's outputs",
             _stale_predictor, specializes=frozenset({"kwargs"})),
    _planted("planted_sot_first_kwargs", "SOT; every call runs with the first call's kwargs", _sot_first_kwargs),
    _planted("planted_onnx_short_loops", "paddle2onnx on onnxruntime; every loop runs one iteration less",
             _converting(_one_iteration_less, saved.to_onnx), specializes=frozenset({"kwargs"})),
    _planted("planted_onednn_drops_add", "Paddle Inference with oneDNN; every addition computes its first operand",
             _converting(_addition_dropped, saved.inference), specializes=frozenset({"kwargs"})),
    _planted("planted_method_other_inputs", f"jit.save of two methods; the loaded {saved.METHOD} answers with "
             "forward's result for its first input doubled", _method_answering_for_other_inputs,
             specializes=frozenset({"kwargs"})),
    _planted("planted_fine_tuned_eager_tensors", "jit.save/load fine-tuned; gradients and steps taken on the eager "
             "model's parameters, not the loaded layer's", _fine_tuning_the_eager_tensors,
             specializes=frozenset({"kwargs"}), modes=paddle_paths.AUTOGRAD_MODES),
    _planted("planted_static_kwargs_wrong", "AST to_static; 1e-4 off on calls with other kwargs than the example's",
             _static_wrong_on_other_kwargs, specializes=frozenset({"kwargs"})),
)
