"""Every PyTorch conversion, as the campaign runs it and as a reproducer copies it.

Standalone (see :mod:`conformance.paths.standalone`): this module imports only the standard library,
numpy, torch and the standalone modules of conformance, so ``conformance triage`` copies these functions
verbatim into a ``repro.py``. A conversion takes a context with plain-data fields only (``model``,
``args``, ``kwargs``, ``device``, ``workdir``, ``tensor_names``, ``arg_names``, ``dynamic_axes``,
``kwarg_sets``, ``mode``: see :class:`~conformance.paths.records.ConvertContext`) and returns an artifact
that ``call`` (or ``run_flat`` for ONNX) runs on the model's inputs.
"""

from __future__ import annotations

import inspect
import os
import warnings

import numpy as np
import torch

from conformance.paths.onnx_opset import check_loadable, lower_ir_version
from conformance.paths.ort import OrtModel, UnknownGraphInputs
from conformance.program.trees import map_tree

#: The largest size torch.export's dynamic dim may take: the IR's largest batch times 16
#: (``conformance.program.ops.MAX_BATCH * 16``; a test keeps them equal).
MAX_DYNAMIC_SIZE = 96


# ------------------------------------------------------------------ the framework: models in, numpy out


def prepare(model, device: str, fp64: bool):
    """A fresh model ready for inference on ``device`` (in float64 for the reference run)."""
    model = model.eval().to(device)
    return model.double() if fp64 else model


def call(fn, args, kwargs):
    """Run a model, or a converted model, for inference."""
    with torch.no_grad():
        return fn(*args, **kwargs)


def to_numpy(x):
    """An output (a tensor, or a list, tuple or dict of them) as numpy arrays in the same structure."""
    if isinstance(x, torch.Tensor):
        return x.detach().cpu().numpy().copy()
    if isinstance(x, (list, tuple)):
        return type(x)(to_numpy(i) for i in x)
    if isinstance(x, dict):
        return {k: to_numpy(v) for k, v in x.items()}
    if isinstance(x, (bool, int, float)):  # a Python number stays one: the oracle judges it as a Python value
        return x
    return np.asarray(x)


def requiring_grad(leaf):
    """A float tensor as a new autograd leaf (other values unchanged)."""
    if isinstance(leaf, torch.Tensor) and leaf.is_floating_point():
        return leaf.detach().requires_grad_()
    return leaf


def warm_up(fn, ctx) -> None:
    """Call a converted model once (paths that compile on a first call) as the mode will: without autograd
    for ``infer``, with inputs that require grad for ``grad`` and ``train`` (the parameters already do)."""
    if ctx.mode == "infer":
        call(fn, ctx.args, ctx.kwargs)
    else:
        with torch.enable_grad():
            fn(*map_tree(requiring_grad, ctx.args), **ctx.kwargs)


# ------------------------------------------------------------------ eager, TorchScript, FX


def eager(ctx):
    return ctx.model


def script(ctx):
    return jit_script(ctx.model)


def jit_script(model):
    """``torch.jit.script(model)``. A failed attempt leaves the model's class half-defined in TorchScript's
    compilation unit, so scripting the same class again in the process would fail with "Can't redefine method:
    forward" instead of its own error: after a failure the class registry, the concrete-type cache and the
    per-class state are cleared, and each attempt reports what TorchScript finds in the model."""
    try:
        return torch.jit.script(model)
    except Exception:
        torch._C._jit_clear_class_registry()
        torch.jit._recursive.concrete_type_store = torch.jit._recursive.ConcreteTypeStore()
        torch.jit._state._clear_class_state()
        raise


class KwargsFixed(torch.nn.Module):
    """``model`` with its non-tensor keyword arguments fixed (what ``trace`` and ONNX export see)."""

    def __init__(self, model, kwargs):
        super().__init__()
        self.model = model
        self.kwargs = dict(kwargs)

    def forward(self, *args):
        return self.model(*args, **self.kwargs)


class TensorsOnly:
    """A converted model that takes tensors only: keyword arguments given at run time are ignored (they
    were fixed at conversion)."""

    def __init__(self, fn):
        self.fn = fn

    def __call__(self, *args, **kwargs):
        return self.fn(*args)


def trace(ctx):
    # trace takes tensors only: non-tensor kwargs are bound at trace time, as users do with a wrapper
    return TensorsOnly(torch.jit.trace(KwargsFixed(ctx.model, ctx.kwargs), tuple(ctx.args), strict=False))


class WithConcreteArgs:
    """A GraphModule traced with the non-tensor arguments as ``concrete_args``, called with the values it
    was traced with (kwargs given at run time are ignored). They go positionally: the GraphModule's forward
    renames those parameters (``mode`` becomes ``mode_1``), keeps the original defaults and asserts that
    the traced value is passed."""

    def __init__(self, graph_module, values: list):
        self.graph_module, self.values = graph_module, values

    def __call__(self, *args, **kwargs):
        return self.graph_module(*args, *self.values)


def fx(ctx):
    # a None passed positionally (an optional input) is a concrete arg too, as users give FX an optional input
    # they leave out; the GraphModule keeps its place among the positional parameters
    parameters = list(inspect.signature(ctx.model.forward).parameters.values())
    absent = {p.name: None for p, a in zip(parameters, ctx.args)
              if a is None and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)}
    graph_module = torch.fx.symbolic_trace(ctx.model, concrete_args={**absent, **ctx.kwargs})
    return WithConcreteArgs(graph_module, list(ctx.kwargs.values()))


# ------------------------------------------------------------------ torch.compile


def compile_model(ctx, backend: str, **options):
    """``torch.compile(model, backend=backend, **options)``, compiled now by a first call."""
    import torch._dynamo
    import torch._inductor.config

    torch._dynamo.reset()
    # Inductor generates its own random numbers by design; for a model in train() (dropout) it is told to
    # draw from eager's generator, the documented way to compare with eager
    torch._inductor.config.fallback_random = ctx.model.training
    compiled = torch.compile(ctx.model, backend=backend, **options)
    warm_up(compiled, ctx)  # compile now, so compiler errors are conversion errors
    return compiled


# ------------------------------------------------------------------ mixed precision


class Autocast:
    """The eager model under ``torch.autocast``; reduced-precision outputs (bfloat16, float16) cast back to
    float32, as a user compares them with an fp32 model's. A float64 output stays float64: autocast leaves
    float64 ops alone, and casting it down would turn a value beyond float32's range into inf."""

    def __init__(self, model, device: str, dtype):
        self.model, self.device, self.dtype = model, device, dtype

    def __call__(self, *args, **kwargs):
        with torch.autocast(self.device, dtype=self.dtype):
            out = self.model(*args, **kwargs)
        return map_tree(as_float32, out)


def as_float32(leaf):
    return leaf.float() if isinstance(leaf, torch.Tensor) and leaf.dtype in (torch.bfloat16, torch.float16) else leaf


def autocast(ctx, dtype):
    return Autocast(ctx.model, ctx.device, dtype)


# ------------------------------------------------------------------ torch.export


def dynamic_shapes(ctx) -> dict:
    """torch.export's ``dynamic_shapes``: the dynamic axes of every tensor input (``ctx.dynamic_axes``, by
    flat name ``x1.0.k0``) as one ``Dim`` they share (the batch); non-tensor arguments static."""
    batch = torch.export.Dim("B", min=1, max=MAX_DYNAMIC_SIZE)

    def spec(name, value):
        if isinstance(value, torch.Tensor):
            return {axis: batch for axis in ctx.dynamic_axes[name]} or None
        if isinstance(value, dict):
            return {k: spec(f"{name}.{k}", v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return type(value)(spec(f"{name}.{i}", v) for i, v in enumerate(value))
        return None  # a constant (None, an int, a str): static

    specs = [spec(name, value) for name, value in zip(ctx.arg_names, ctx.args)]
    try:  # keyed by forward's own parameter names (``*args`` takes a tuple)
        bound = inspect.signature(ctx.model.forward).bind(*specs, **{name: None for name in ctx.kwargs})
        return dict(bound.arguments)
    except (TypeError, ValueError):
        return {**dict(zip(ctx.arg_names, specs)), **{name: None for name in ctx.kwargs}}


def export(ctx):
    program = torch.export.export(ctx.model, tuple(ctx.args), dict(ctx.kwargs), dynamic_shapes=dynamic_shapes(ctx))
    return program.module()


# ------------------------------------------------------------------ ONNX on onnxruntime


def onnx_export(ctx, dynamo: bool):
    """``torch.onnx.export`` with the flat tensor names as input names and the dynamic axes marked (the
    dynamo exporter takes torch.export's ``dynamic_shapes``), at the opset asked for (``--onnx-opset``; else
    the exporter's default), run on onnxruntime."""
    path = os.path.join(ctx.workdir, "model_dynamo.onnx" if dynamo else "model_torchscript.onnx")
    options = dict(input_names=ctx.tensor_names, dynamo=dynamo)
    if dynamo:
        options.update(dynamic_shapes=dynamic_shapes(ctx), verbose=False)
    else:
        options["dynamic_axes"] = {name: {axis: "B" for axis in axes} for name, axes in ctx.dynamic_axes.items()
                                   if axes}
    opset = getattr(ctx, "onnx_opset", None)
    if opset is not None:
        options["opset_version"] = opset
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        # the kwargs as the last element of args, as torch.onnx.export documents: else an input that is a dict
        # would be taken for the kwargs where there are none
        torch.onnx.export(ctx.model, tuple(ctx.args) + (dict(ctx.kwargs),), path, **options)
    if opset is not None:
        lower_ir_version(path)  # the dynamo exporter stamps its newest IR version whatever the opset
    try:
        return OrtModel(path, ctx.device, ctx.tensor_names, to_numpy)
    except UnknownGraphInputs:
        raise
    except Exception:
        check_loadable(path)  # a runtime too old for the file's opset is a configuration error, not a finding
        raise


def run_flat(artifact, args, kwargs):
    """Run an artifact that returns its outputs flat (ONNX): the caller rebuilds eager's structure."""
    return artifact(*args, **kwargs)
