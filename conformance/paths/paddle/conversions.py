"""PaddlePaddle's framework functions and its in-memory conversions (dygraph, ``paddle.jit.to_static``), as the
campaign runs them and as a reproducer copies them.

Standalone (see :mod:`conformance.paths.standalone`): this module imports only the standard library, numpy,
paddle and the standalone modules of conformance, so ``conformance triage`` copies these functions verbatim
into a ``repro.py``. A conversion takes a context with plain-data fields only (``model``, ``args``,
``kwargs``, ``device``, ``workdir``, ``tensor_names``, ``arg_names``, ``dynamic_axes``, ``kwarg_sets``,
``mode``: see :class:`~conformance.paths.records.ConvertContext`). The saved-model conversions are in
:mod:`conformance.paths.paddle.saved`.

Every AST conversion is given the ``input_spec`` a user writes by hand for the model (:func:`input_spec`):
nested lists, tuples and dicts of ``InputSpec``, ``None`` for the dynamic (batch) dim, and the non-tensor
arguments as plain values. Paddle then builds the program for those values.
"""

from __future__ import annotations

import os
import re

import numpy as np
import paddle

from conformance.program.trees import flatten, map_tree

# ------------------------------------------------------------------ the framework: models in, numpy out


def place(device: str):
    """Paddle's place for ``cpu`` or ``cuda``."""
    return paddle.CUDAPlace(0) if device == "cuda" else paddle.CPUPlace()


def prepare(model, device: str, fp64: bool):
    """A fresh model ready for inference on ``device`` (in float64 for the reference run)."""
    model.eval()
    model.to(device=place(device), dtype="float64" if fp64 else None)
    return model


def call(fn, args, kwargs):
    """Run a model, or a converted model, for inference."""
    before = _float_leaves(args) if WATCH_INPUTS else None
    with paddle.no_grad():
        out = fn(*args, **kwargs)
    if before is not None:
        inputs_written(fn, args, before)
    return out


# ------------------------------------------------------------------ facts a mismatch alone cannot tell

#: Whether :func:`call` watches its inputs for writes (conformance turns it on; a reproducer leaves it off).
WATCH_INPUTS = False
#: The attribute by which an artifact carries the facts of its conversion (``ctx.facts``): its runs add to them.
FACTS_ATTRIBUTE = "conformance_facts"


def note(ctx, **facts) -> None:
    """Record in ``ctx.facts`` what the conversion showed about itself, for the known bugs a comparison alone cannot
    tell apart (:attr:`~conformance.paths.records.Failure.facts`): ``eval_program`` (to_static of a layer in eval() in
    a mode that trains it: an inference program, no backward), ``duplicate_outputs`` (forward returns one tensor
    twice), ``python_outputs`` (forward returns a Python value that a saved program leaves out),
    ``undefined_outputs`` (the program returns an ``UndefinedVar``, which a saved program leaves out),
    ``output_is_input`` (a saved program returns an input where forward computed an output from it),
    ``saved_for_inference`` (a layer in train() saved with operators for inference, ``is_test`` true),
    ``branch_repeats_output`` (paddle2onnx's file has an If branch listing one value twice); its runs add
    ``wrote_inputs`` (:func:`watched`). The runner started ``ctx.facts`` with what the example inputs tell
    (:func:`~conformance.paths.records.example_facts`: ``zero_size_input`` ...). A reproducer's context has no
    ``facts``: it ignores them."""
    seen = getattr(ctx, "facts", None)
    if seen is not None:
        seen.update(facts)


def watched(ctx, artifact):
    """``artifact``, carrying the facts of its conversion (``ctx.facts``) for its runs to add to (:func:`call`,
    :func:`run`: ``wrote_inputs``, the program wrote into its input tensors)."""
    seen = getattr(ctx, "facts", None)
    if seen is not None:
        setattr(artifact, FACTS_ATTRIBUTE, seen)
    return artifact


def _float_leaves(args) -> list:
    return [(t, t.numpy().copy()) for t in flatten(list(args))
            if isinstance(t, paddle.Tensor) and t.is_floating_point() and t.place.is_cpu_place()]


def inputs_written(artifact, args, before: list) -> None:
    """Note ``wrote_inputs`` in the facts ``artifact`` carries where a float input tensor no longer holds its
    values."""
    seen = getattr(artifact, FACTS_ATTRIBUTE, None)
    if seen is not None and any(not np.array_equal(t.numpy(), a, equal_nan=True) for t, a in before):
        seen["wrote_inputs"] = True


def to_numpy(x):
    """An output (a tensor, or a list, tuple or dict of them) as numpy arrays in the same structure."""
    if isinstance(x, paddle.Tensor):
        return x.numpy().copy()
    if isinstance(x, (list, tuple)):
        return type(x)(to_numpy(i) for i in x)
    if isinstance(x, dict):
        return {k: to_numpy(v) for k, v in x.items()}
    if isinstance(x, (bool, int, float)):  # a Python number stays one: the oracle judges it as a Python value
        return x
    return np.asarray(x)


def run(artifact, args, kwargs):
    """Run a converted model as it is (the saved paths' artifacts take the tensors flattened themselves)."""
    before = _float_leaves(args) if WATCH_INPUTS else None
    out = artifact(*args, **kwargs)
    if before is not None:
        inputs_written(artifact, args, before)
    return out


# ------------------------------------------------------------------ input_spec


def input_spec(ctx) -> list:
    """The ``input_spec`` a user writes for the model's ``forward``, in its parameter order.

    Each tensor input becomes an ``InputSpec`` (``None`` for each of its dynamic axes, its dtype, its flat
    name), nested in lists, tuples and dicts as the input is; each non-tensor argument is its value.
    """
    names = iter(ctx.tensor_names)

    def spec(value):
        if isinstance(value, paddle.Tensor):
            name = next(names)
            shape = [None if axis in ctx.dynamic_axes[name] else size for axis, size in enumerate(value.shape)]
            return paddle.static.InputSpec(shape, value.dtype, name=name)
        if isinstance(value, dict):
            return {k: spec(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return type(value)(spec(v) for v in value)
        return value  # a constant of the call (None for an optional input, an int, a str)

    return [spec(a) for a in ctx.args] + list(ctx.kwargs.values())


def spec_from_examples(ctx) -> list:
    """The ``input_spec`` taken from the example inputs: ``InputSpec.from_tensor`` for a tensor argument,
    ``InputSpec.from_numpy`` of its values for a tensor nested in a list, tuple or dict; the example's
    shapes, batch included, are fixed. Non-tensor arguments are their values, as in :func:`input_spec`."""
    names = iter(ctx.tensor_names)

    def spec(value, nested: bool):
        if isinstance(value, paddle.Tensor):
            name = next(names)
            return (paddle.static.InputSpec.from_numpy(value.numpy(), name=name) if nested
                    else paddle.static.InputSpec.from_tensor(value, name=name))
        if isinstance(value, dict):
            return {k: spec(v, True) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return type(value)(spec(v, True) for v in value)
        return value

    return [spec(a, False) for a in ctx.args] + list(ctx.kwargs.values())


# ------------------------------------------------------------------ dygraph, to_static


def eager(ctx):
    """The dygraph model itself (the reference path)."""
    note(ctx)
    return watched(ctx, ctx.model)


def fusing_strategy():
    """A ``BuildStrategy`` that fuses an elementwise add with the activation after it and accumulates
    gradients in place (``addto``). Paddle 3's PIR runner of to_static keeps the strategy but applies
    neither (only the legacy-IR runner did: ``add_build_strategy_for`` in dy2static/partial_program.py)."""
    strategy = paddle.static.BuildStrategy()
    strategy.fuse_elewise_add_act_ops = True
    strategy.enable_addto = True
    return strategy


def to_static(ctx, fuse: bool = False, spec_from_tensor: bool = False):
    """``paddle.jit.to_static`` of the model by AST transcription (``full_graph=True``) with the hand-written
    :func:`input_spec`, or with the one taken from the example tensors (``spec_from_tensor``: see
    :func:`spec_from_examples`); ``fuse``: with the :func:`fusing_strategy` ``BuildStrategy``."""
    specs = spec_from_examples(ctx) if spec_from_tensor else input_spec(ctx)
    training = getattr(ctx, "mode", "infer") in ("grad", "train")
    note(ctx, eval_program=training and not ctx.model.training)
    static = paddle.jit.to_static(ctx.model, input_spec=specs, full_graph=True,
                                  build_strategy=fusing_strategy() if fuse else None)
    call(static, ctx.args, ctx.kwargs)  # convert now: transcription errors are conversion errors
    if training:
        # the program the gradient calls run (float inputs needing a gradient, the others as given), not the
        # InputSpec's (every input needing one, a bool too: what jit.save builds, which these calls never run)
        leaves = map_tree(gradient_leaf, list(ctx.args))
        program = static.forward.get_concrete_program(*leaves, **ctx.kwargs)[0].main_program
        note(ctx, eval_program=not ctx.model.training, detached_branch=detached_branch(str(program)))
    return watched(ctx, static)


def gradient_leaf(a):
    """``a`` as a gradient call passes it: a float tensor needing a gradient; anything else as it is."""
    if isinstance(a, paddle.Tensor) and a.is_floating_point():
        a = a.detach()
        a.stop_gradient = False
    return a


_IF = re.compile(r'^(\s*)\(([^)]*)\) = "pd_op\.if" .*?\{stop_gradient:\[([^\]]*)\]\}')
_DEF = re.compile(r'^\s*\(([^)]*)\) = "[\w.]+".*?stop_gradient:\[([^\]]*)\]')
_YIELD = re.compile(r'"cf\.yield" \(([^)]*)\)')


def detached_branch(program: str) -> bool:
    """Whether a ``pd_op.if`` of ``program`` (its text) has a result that stops gradients although one of its
    branches yields there a value that does not: a branch that detaches (``y = y.detach()``) makes PIR stop the
    gradient of the if's result whichever branch runs."""
    lines = program.splitlines()
    grads = {}  # value name -> stop_gradient
    for line in lines:
        m = _DEF.match(line)
        if m:
            for name, flag in zip(m.group(1).split(", "), m.group(2).split(",")):
                grads[name.strip()] = flag.strip() == "true"
    for i, line in enumerate(lines):
        m = _IF.match(line)
        if not m:
            continue
        indent, stops = len(m.group(1)), [f.strip() == "true" for f in m.group(3).split(",")]
        for inner in lines[i + 1:]:
            if len(inner) - len(inner.lstrip()) <= indent and inner.strip().startswith("}") and \
                    not inner.strip().startswith("} else"):
                break
            y = _YIELD.search(inner)
            if y and len(inner) - len(inner.lstrip()) == indent + 4:
                for stop, name in zip(stops, y.group(1).split(", ")):
                    if stop and grads.get(name.strip()) is False:
                        return True
    return False


def to_static_per_call(ctx):
    """``paddle.jit.to_static(full_graph=True)`` (AST) as most users call it: no ``input_spec``, the non-tensor
    arguments passed on every call: Paddle builds a program per new Python value and per new input shape, and must
    never run one built for other values."""
    note(ctx, eval_program=getattr(ctx, "mode", "infer") in ("grad", "train") and not ctx.model.training)
    static = paddle.jit.to_static(ctx.model, full_graph=True)
    call(static, ctx.args, ctx.kwargs)  # convert now: transcription errors are conversion errors
    return watched(ctx, static)


def clear_sot_cache() -> None:
    """Forget SOT's translations, as a fresh process would (Paddle's own SOT tests do the same).

    SOT caches translated bytecode by code-object *equality*: a model whose ``forward`` compiles to
    the same bytecode as one converted earlier in the process (another generated module, differing
    only in weights or default values) would run that module's translation and fail with a
    ``NameError`` on its generated globals. Clearing keeps every case independent and replayable.
    """
    from paddle.jit.sot.opcode_translator.executor.executor_cache import OpcodeExecutorCache

    OpcodeExecutorCache().clear()


def to_static_sot(ctx):
    """``paddle.jit.to_static(full_graph=False)``: SOT bytecode translation. SOT ignores an input_spec (it warns
    so) and guards on what it sees instead: none is given."""
    clear_sot_cache()
    note(ctx, eval_program=getattr(ctx, "mode", "infer") in ("grad", "train") and not ctx.model.training)
    static = paddle.jit.to_static(ctx.model, full_graph=False)
    call(static, ctx.args, ctx.kwargs)  # convert now: translation errors are conversion errors
    return watched(ctx, static)


# ------------------------------------------------------------------ callers of the model (AMP, a plain function)

#: What ``paddle.to_static_amp`` computes in: ``paddle.amp.auto_cast``'s O1 (white-listed operators such as
#: matmul in bfloat16, the rest in float32) with bfloat16, the reduced dtype Paddle supports on the CPU.
AMP = {"level": "O1", "dtype": "bfloat16"}
#: The template of the callers module (a reproducer reads it beside itself), and its placeholder for
#: ``forward``'s parameters.
CALLERS_TEMPLATE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "callers.py")
CALLERS_PLACEHOLDER = "PARAMETERS"


def callers(ctx):
    """The callers module (:data:`CALLERS_TEMPLATE`) with ``forward``'s parameters (its tensor inputs, then its
    keyword arguments) in place of the placeholder, written to the workdir and imported: to_static refuses
    ``*args`` with an input_spec, and reads the source from a file."""
    import importlib.util

    with open(CALLERS_TEMPLATE) as f:
        source = f.read().replace(CALLERS_PLACEHOLDER, ", ".join(list(ctx.arg_names) + list(ctx.kwargs)))
    path = os.path.join(ctx.workdir, "model_callers.py")
    written = ""
    if os.path.exists(path):
        with open(path) as f:
            written = f.read()
    if written != source:
        temporary = f"{path}.tmp{os.getpid()}"  # another process may convert the same model at the same time
        with open(temporary, "w") as f:
            f.write(source)
        os.replace(temporary, path)
    spec = importlib.util.spec_from_file_location("model_callers", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def amp_static(ctx):
    """The model under :data:`AMP` auto_cast converted by AST to_static with its input_spec, the program built
    (not run)."""
    model = callers(ctx).AutoCast(ctx.model, AMP["level"], AMP["dtype"])
    static = paddle.jit.to_static(model, input_spec=input_spec(ctx), full_graph=True)
    static.forward.concrete_program  # noqa: B018 - builds the program: transcription errors are conversion errors
    return static


class NoBfloat16Kernels(RuntimeError):
    """The CPU has no oneDNN bfloat16 kernels: running a bfloat16 program would abort the process."""


def float32(out):
    """Float outputs cast to float32, as a user compares a reduced-precision model's with an fp32 one's."""
    return map_tree(lambda t: t.astype("float32") if isinstance(t, paddle.Tensor) and t.is_floating_point() else t,
                    out)


class Float32Outputs:
    """A reduced-precision model whose outputs come back through :func:`float32`."""

    def __init__(self, fn):
        self.fn = fn

    def __call__(self, *args, **kwargs):
        return float32(self.fn(*args, **kwargs))


def no_cpu_bfloat16(device: str):
    """Why this machine cannot run a bfloat16 program on ``device`` (None where it can)."""
    if device == "cpu" and not paddle.base.core.supports_bfloat16():
        return ("this CPU has no oneDNN bfloat16 support (paddle.base.core.supports_bfloat16() is False): running "
                "the bfloat16 program would abort the process")
    return None


def to_static_amp(ctx):
    """:func:`amp_static`, run once; its outputs in float32."""
    note(ctx)
    static = amp_static(ctx)
    if why := no_cpu_bfloat16(ctx.device):
        raise NoBfloat16Kernels(why)
    call(static, ctx.args, ctx.kwargs)
    return watched(ctx, Float32Outputs(static))


#: The artifact runs a program built once from the model's code (AMP applies only there: dygraph auto_cast on the
#: CPU does nothing), so a probed model's probes cannot record each call's decisions: the reduced-precision guard
#: judges by margins instead (see conformance.judge.precision.builds_graph).
to_static_amp.builds_graph = True
