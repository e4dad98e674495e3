"""PyTorch conversion paths: eager, TorchScript (script, trace), ``torch.fx.symbolic_trace``,
torch.compile (inductor, aot_eager, ``dynamic=True``, ``mode="reduce-overhead"``), torch.export,
ONNX (dynamo and TorchScript exporters) run on onnxruntime, and mixed precision (``torch.autocast``).

The paths that autograd differentiates also run in the ``grad`` and ``train`` modes
(:mod:`conformance.training`), with the :class:`~conformance.paths.Autograd` adapter below."""

from __future__ import annotations

import warnings

import numpy as np
import torch

from conformance.paths.ort import OrtModel
from conformance.paths.records import (
    FRAMEWORKS,
    Autograd,
    ConvertContext,
    Framework,
    Limitation,
    PathRecord,
    loss_terms,
    module_versions,
    register,
)
from conformance.program.case import map_tree
from conformance.program.ir import DYNAMIC, DictSpec, SeqSpec, TensorSpec
from conformance.program.ops import MAX_BATCH


def _setup() -> None:
    torch.set_num_threads(1)
    if torch.cuda.is_available():  # parity with the CPU fp64 reference, not TF32 speed
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False


def _to_tensor(a: np.ndarray, device: str, fp64: bool):
    t = torch.from_numpy(np.array(a, copy=True))  # a copy: a path that writes into its inputs must not
    # change the saved inputs (nor eager outputs that alias them)
    if fp64 and t.is_floating_point():
        t = t.double()
    return t.to(device)


def _to_numpy(x):
    if isinstance(x, torch.Tensor):
        return x.detach().cpu().numpy().copy()
    if isinstance(x, (list, tuple)):
        return type(x)(_to_numpy(i) for i in x)
    if isinstance(x, dict):
        return {k: _to_numpy(v) for k, v in x.items()}
    return np.asarray(x)


def _prepare(model, device: str, fp64: bool):
    model = model.eval().to(device)
    return model.double() if fp64 else model


def _devices() -> list[str]:
    return ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])


def _versions() -> dict:
    return {"torch": torch.__version__, **module_versions("onnxruntime", "onnx", "onnxscript")}


def _call(model, args, kwargs):
    with torch.no_grad():
        return model(*args, **kwargs)


_REPRO_FRAMEWORK = '''
def make_model():
    return Model().eval()


def call(fn, args, kwargs):
    with torch.no_grad():
        return fn(*args, **kwargs)


def to_numpy(x):
    return x.detach().cpu().numpy() if isinstance(x, torch.Tensor) else np.asarray(x)
'''

# ------------------------------------------------------------------ autograd (grad and train modes)


def _set_training(model, training: bool) -> None:
    model.train(training)


def _backward(forward, args, kwargs, weights, params):
    """See :class:`~conformance.paths.Autograd`: ``torch.autograd.grad`` of the loss head, None for a
    tensor the loss does not reach."""
    wrt = []

    def leaf(a):
        if isinstance(a, torch.Tensor) and a.is_floating_point():
            a = a.detach().requires_grad_()
            wrt.append(a)
        return a


    args = map_tree(leaf, args)
    with torch.enable_grad():
        outputs = forward(*args, **kwargs)
        terms = [(o * torch.as_tensor(w, dtype=o.dtype, device=o.device)).sum()
                 for o, w in loss_terms(outputs, weights) if isinstance(o, torch.Tensor) and o.is_floating_point()]
        loss = sum(terms[1:], terms[0]) if terms else None
        targets = wrt + list(params)
        if loss is not None and loss.requires_grad and targets:
            grads = list(torch.autograd.grad(loss, targets, allow_unused=True))
        else:
            grads = [None] * len(targets)
    return outputs, None if loss is None else loss.detach(), grads[:len(wrt)], grads[len(wrt):]


def _optimizer(kind: str, params: list, lr: float):
    opt = {"sgd": torch.optim.SGD, "adam": torch.optim.Adam}[kind](params, lr=lr) if params else None

    def step(grads):
        for p, g in zip(params, grads):
            p.grad = g
        if opt is not None:
            opt.step()
    return step


def _assign(t, a) -> None:
    with torch.no_grad():
        t.copy_(torch.from_numpy(np.asarray(a)).to(t.dtype))


AUTOGRAD = Autograd(_set_training, _backward, _optimizer, _assign, torch.manual_seed)

FRAMEWORKS["torch"] = Framework("torch", lambda: torch.__version__, _to_tensor, _to_numpy, _prepare, _call,
                                _devices, _setup, _versions, repro=_REPRO_FRAMEWORK, autograd=AUTOGRAD)


def _warm_up(fn, ctx: ConvertContext) -> None:
    """Call a converted model once (paths that compile on a first call), as the mode will: without
    autograd for ``infer``, with inputs and parameters that require grad for ``grad`` and ``train``."""
    if ctx.mode == "infer":
        _call(fn, ctx.args, ctx.kwargs)
    else:
        _backward(fn, ctx.args, ctx.kwargs, None, [])


# ------------------------------------------------------------------ eager, TorchScript


def _eager(ctx: ConvertContext):
    return ctx.model


def _script(ctx: ConvertContext):
    return torch.jit.script(ctx.model)


def _trace(ctx: ConvertContext):
    # trace takes tensors only: non-tensor kwargs are bound at trace time, as users do with a wrapper.
    return _BoundKwargs(torch.jit.trace(_Bind(ctx.model, ctx.kwargs), tuple(ctx.args), strict=False))


def _fx(ctx: ConvertContext):
    gm = torch.fx.symbolic_trace(ctx.model, concrete_args=dict(ctx.kwargs))
    return _Concrete(gm, [ctx.kwargs[k.name] for k in ctx.program.kwargs])


class _Concrete:
    """A GraphModule traced with the non-tensor arguments as ``concrete_args``, called with the values it
    was traced with (kwargs given at run time are ignored). They go positionally: the GraphModule's forward
    renames those parameters (``mode`` becomes ``mode_1``), keeps the original defaults and asserts that
    the traced value is passed."""

    def __init__(self, gm, values: list):
        self.gm, self.values = gm, values

    def __call__(self, *args, **kwargs):
        return self.gm(*args, *self.values)


class _Bind(torch.nn.Module):
    """``model`` with its non-tensor keyword arguments fixed (what ``trace``/ONNX export see)."""

    def __init__(self, model, kwargs):
        super().__init__()
        self.model = model
        self.kwargs = dict(kwargs)

    def forward(self, *args):
        return self.model(*args, **self.kwargs)


class _BoundKwargs:
    """A converted artifact that takes tensors only: kwargs given at run time are ignored."""

    def __init__(self, fn):
        self.fn = fn

    def __call__(self, *args, **kwargs):
        return self.fn(*args)


# ------------------------------------------------------------------ torch.compile


def _compile(backend: str, **options):
    def convert(ctx: ConvertContext):
        import torch._dynamo
        import torch._inductor.config

        torch._dynamo.reset()
        # Inductor generates its own random numbers by design; for a model in train() (dropout) it is told
        # to draw from eager's generator, the documented way to compare with eager
        torch._inductor.config.fallback_random = ctx.model.training
        compiled = torch.compile(ctx.model, backend=backend, **options)
        _warm_up(compiled, ctx)  # compile now, so compiler errors are conversion errors
        return compiled
    return convert


# ------------------------------------------------------------------ mixed precision


class _Autocast:
    """The eager model under ``torch.autocast``; float outputs cast back to float32, as a user compares
    them with an fp32 model's."""

    def __init__(self, model, device: str, dtype):
        self.model, self.device, self.dtype = model, device, dtype

    def __call__(self, *args, **kwargs):
        with torch.autocast(self.device, dtype=self.dtype):
            out = self.model(*args, **kwargs)
        return map_tree(lambda t: t.float() if isinstance(t, torch.Tensor) and t.is_floating_point() else t, out)


def _autocast(dtype):
    def convert(ctx: ConvertContext):
        return _Autocast(ctx.model, ctx.device, dtype)
    return convert


# ------------------------------------------------------------------ torch.export


def _dynamic_shapes(ctx: ConvertContext) -> dict:
    """``dynamic_shapes`` for torch.export: the IR's dynamic dim as one ``Dim`` shared by all inputs."""
    batch = torch.export.Dim("B", min=1, max=MAX_BATCH * 16)

    def spec(s):
        if isinstance(s, TensorSpec):
            dims = {i: batch for i, d in enumerate(s.shape) if d == DYNAMIC}
            return dims or None
        if isinstance(s, SeqSpec):
            items = [spec(i) for i in s.items]
            return items if s.kind == "list" else tuple(items)
        if isinstance(s, DictSpec):
            return {k: spec(v) for k, v in s.items}
        raise TypeError(s)

    shapes = {i.name: spec(i.spec) for i in ctx.program.inputs}
    shapes.update({k.name: None for k in ctx.program.kwargs})
    return shapes


def _export(ctx: ConvertContext):
    ep = torch.export.export(ctx.model, tuple(ctx.args), dict(ctx.kwargs), dynamic_shapes=_dynamic_shapes(ctx))
    return ep.module()


# ------------------------------------------------------------------ ONNX on onnxruntime


def _onnx(dynamo: bool):
    def convert(ctx: ConvertContext):
        path = ctx.workdir / ("model_dynamo.onnx" if dynamo else "model_torchscript.onnx")
        names = ctx.tensor_names
        kw = dict(kwargs=dict(ctx.kwargs), input_names=names, dynamo=dynamo)
        if dynamo:
            kw["dynamic_shapes"] = _dynamic_shapes(ctx)
            kw["verbose"] = False
        else:
            dyn = [n for n, leaf in zip(names, ctx.program.input_leaves()) if DYNAMIC in leaf.shape]
            kw["dynamic_axes"] = {n: {i: "B" for i, d in enumerate(leaf.shape) if d == DYNAMIC}
                                  for n, leaf in zip(names, ctx.program.input_leaves()) if n in dyn}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            torch.onnx.export(ctx.model, tuple(ctx.args), str(path), **kw)
        return OrtModel(path, ctx.device, names, _to_numpy)
    return convert


def _ort_run(artifact, args, kwargs):
    return artifact(*args, **kwargs)


# ------------------------------------------------------------------ reproducer snippets (conformance triage)
# Each is the conversion above written for a standalone script (see PathRecord.repro).

_REPRO_SCRIPT = '''
def convert(model, args, kwargs):
    return torch.jit.script(model)
'''

_REPRO_TRACE = '''
class Bind(torch.nn.Module):
    """The model with its non-tensor keyword arguments fixed: trace takes tensors only."""

    def __init__(self, model, kwargs):
        super().__init__()
        self.model = model
        self.kwargs = dict(kwargs)

    def forward(self, *args):
        return self.model(*args, **self.kwargs)


def convert(model, args, kwargs):
    traced = torch.jit.trace(Bind(model, kwargs), tuple(args), strict=False)
    return lambda *args, **kwargs: traced(*args)  # kwargs were bound when tracing
'''


def _repro_compile(backend: str) -> str:
    return f'''
def convert(model, args, kwargs):
    compiled = torch.compile(model, backend={backend!r})
    call(compiled, args, kwargs)  # compile now
    return compiled
'''


_REPRO_DYNAMIC_SHAPES = f'''
def dynamic_shapes(args, kwargs):
    """torch.export's dynamic_shapes: one Dim shared by every dynamic axis (the batch)."""
    batch = torch.export.Dim("B", min=1, max={MAX_BATCH * 16})

    def spec(name, value):
        if isinstance(value, torch.Tensor):
            return {{axis: batch for axis in DYNAMIC_AXES[name]}} or None
        if isinstance(value, dict):
            return {{k: spec(f"{{name}}.{{k}}", v) for k, v in value.items()}}
        return type(value)(spec(f"{{name}}.{{i}}", v) for i, v in enumerate(value))

    shapes = {{name: spec(name, value) for name, value in zip(ARG_NAMES, args)}}
    shapes.update({{name: None for name in kwargs}})
    return shapes
'''

_REPRO_EXPORT = _REPRO_DYNAMIC_SHAPES + '''

def convert(model, args, kwargs):
    return torch.export.export(model, tuple(args), dict(kwargs), dynamic_shapes=dynamic_shapes(args, kwargs)).module()
'''


def _repro_onnx(dynamo: bool) -> str:
    if dynamo:
        dims = "dynamo=True, dynamic_shapes=dynamic_shapes(args, kwargs), verbose=False"
    else:
        dims = "dynamo=False,\n                      dynamic_axes={n: {a: 'B' for a in axes} for n, axes in DYNAMIC_AXES.items() if axes}"
    return (_REPRO_DYNAMIC_SHAPES if dynamo else "") + f'''

def convert(model, args, kwargs):
    import onnxruntime

    path = os.path.join(HERE, "model.onnx")
    torch.onnx.export(model, tuple(args), path, kwargs=dict(kwargs), input_names=LEAF_NAMES,
                      {dims})
    session = onnxruntime.InferenceSession(path, providers=["CPUExecutionProvider"])
    wanted = [i.name for i in session.get_inputs()]

    def run(*args, **kwargs):  # ONNX takes the flat tensors by name and returns a flat list
        feed = dict(zip(LEAF_NAMES, (to_numpy(t) for t in flatten(list(args)))))
        return session.run(None, {{name: feed[name] for name in wanted}})
    return run
'''


# ------------------------------------------------------------------ the records

_DATA_DEPENDENT_EXPORT = Limitation(
    "torch.export cannot capture Python control flow on tensor values; it needs torch.cond",
    r"GuardOnDataDependentSymNode|Could not guard on data-dependent expression", versions=">=2.1",
    reference="https://pytorch.org/docs/stable/export.html#data-dependent-control-flow")
_KWARG_GUARD = Limitation(
    "an exported program specialises non-tensor arguments and refuses other values at run time",
    r"AssertionError: Guard failed: [A-Za-z_]\w* == (True|False|-?[0-9.]+|'[^']*')", phase="run",
    reference="https://pytorch.org/docs/stable/export.html")
_SHAPE_GUARD = Limitation(
    "a shape-dependent branch specialises the dynamic dim: export refuses a dynamic Dim",
    r"Constraints violated \(B\)", versions=">=2.1",
    reference="https://pytorch.org/docs/stable/export.html#constraints-dynamic-shapes")
_ONNX_IDENTITY_OUTPUT = Limitation(
    "known bug: with input_names, an input returned unchanged as an output is defined twice and "
    "onnxruntime rejects the model", r"Duplicate definition of name", outcome=None, versions=">=2.9",
    reference="found by conformance 2026-11-21 (torch 2.13.0)")
_ONNX_TUPLE_SHAPES = Limitation(
    "known bug: a tuple input with tuple dynamic_shapes is rejected as a structure mismatch "
    "(torch.export itself accepts it)", r"is a <class 'tuple'>, but `dynamic_shapes\[.*\]` is a <class 'list'>",
    outcome=None, versions=">=2.9", reference="found by conformance 2026-11-21 (torch 2.13.0)")
_ONNX_DICT_FALLBACK = Limitation(
    "known bug: with kwargs empty, a dict that is the last positional input is taken for the keyword "
    "arguments (the TorchScript exporter's convention), so binding the inputs fails; torch.export accepts "
    "the same call",
    r"<class 'TypeError'>: missing a required argument: ", outcome=None, versions=">=2.9",
    reference="found by conformance 2026-11-21 (torch 2.13.0)")
_ONNX_FLOAT_KWARG_INPUT = Limitation(
    "known bug: the TorchScript exporter exports a float keyword argument used in tensor arithmetic "
    "(`x * alpha`) as an unnamed graph input ('onnx::Cast_N') instead of hard-coding it as it documents for "
    "non-tensor arguments, so the model cannot run on the model's own inputs",
    r"ONNX graph has inputs \['onnx::Cast_\d+'\] that are not model inputs", outcome=None, versions=">=2.13",
    reference="found by conformance 2026-11-21 (torch 2.13.0); cases/torch-onnx-torchscript-float-kwarg-exported-as-input.json")
_TRACE_NOTE = "(traced: control flow and non-tensor arguments are frozen to the example's)"
_FX_CONTROL_FLOW = Limitation(
    "symbolic tracing cannot follow Python control flow on tensor values or shapes (FX's documented "
    "limitation: dynamic control flow)", r"TraceError: symbolically traced variables cannot be used as inputs "
    r"to control flow", reference="https://pytorch.org/docs/stable/fx.html#dynamic-control-flow")
_SCRIPT_DROPS_BATCH_NORM = Limitation(
    "known bug: an unused batch_norm result in train() is dead code to TorchScript's optimised graph (after the "
    "profiling call), so the running statistics stop updating", r"\['buffers'\]", phase="compare", outcome=None,
    versions=">=2.13", reference="cases/torch-script-unused-batch-norm-stops-updating-running-stats.json")
_AOT_ZERO_GRADIENTS = Limitation(
    "known bug: AOTAutograd gives a zero gradient where eager gives None, to an input or parameter whose only "
    "use is an output of a compiled graph that the loss does not use (e.g. `a = x * 2` before a graph break, "
    "`a.detach()` after it)", r"a gradient where eager has none", phase="compare", outcome=None,
    versions=">=2.0", reference="https://github.com/pytorch/pytorch/issues/131794")
#: The modes of a path that autograd differentiates (see conformance.training).
_AUTOGRAD_MODES = frozenset({"infer", "grad", "train"})

register(
    PathRecord("torch", "eager", "eager nn.Module (the reference, on the chosen device)", _eager, _call,
               reference=True, modes=_AUTOGRAD_MODES),
    PathRecord("torch", "script", "torch.jit.script", _script, _call, repro=_REPRO_SCRIPT, modes=_AUTOGRAD_MODES,
               limitations=(_SCRIPT_DROPS_BATCH_NORM,)),
    # train: trace freezes the example's control flow, and training steps may change it: grad only
    PathRecord("torch", "trace", "torch.jit.trace " + _TRACE_NOTE, _trace, _call,
               specializes=frozenset({"kwargs", "control_flow"}), repro=_REPRO_TRACE,
               modes=frozenset({"infer", "grad"})),
    PathRecord("torch", "fx", "torch.fx.symbolic_trace (non-tensor arguments as concrete_args)", _fx, _call,
               specializes=frozenset({"kwargs"}), limitations=(_FX_CONTROL_FLOW,), modes=_AUTOGRAD_MODES),
    PathRecord("torch", "compile", "torch.compile(backend='inductor')", _compile("inductor"), _call,
               repro=_repro_compile("inductor"), modes=_AUTOGRAD_MODES,
               limitations=(_AOT_ZERO_GRADIENTS,)),
    PathRecord("torch", "compile_aot_eager", "torch.compile(backend='aot_eager')", _compile("aot_eager"), _call,
               repro=_repro_compile("aot_eager"), modes=_AUTOGRAD_MODES,
               limitations=(_AOT_ZERO_GRADIENTS,)),
    PathRecord("torch", "compile_dynamic", "torch.compile(dynamic=True) (inductor, symbolic shapes from the start)",
               _compile("inductor", dynamic=True), _call, modes=_AUTOGRAD_MODES,
               limitations=(_AOT_ZERO_GRADIENTS,)),
    PathRecord("torch", "compile_reduce_overhead", "torch.compile(mode='reduce-overhead') (CUDA graphs on CUDA; "
               "on the CPU, with no CUDA graphs to capture, the same code as compile)",
               _compile("inductor", mode="reduce-overhead"), _call, modes=_AUTOGRAD_MODES,
               limitations=(_AOT_ZERO_GRADIENTS,)),
    PathRecord("torch", "autocast_bf16", "torch.autocast(dtype=torch.bfloat16) around eager, outputs cast to float32; "
               "judged against fp32 eager with the bfloat16 tolerance rule", _autocast(torch.bfloat16), _call,
               precision="bfloat16"),
    PathRecord("torch", "autocast_fp16", "torch.autocast('cuda', dtype=torch.float16) around eager, outputs cast to "
               "float32; judged against fp32 eager with the float16 tolerance rule", _autocast(torch.float16), _call,
               precision="float16", devices=("cuda",)),
    PathRecord("torch", "export", "torch.export.export(dynamic_shapes=B).module()", _export, _call,
               limitations=(_DATA_DEPENDENT_EXPORT, _SHAPE_GUARD, _KWARG_GUARD),
               specializes=frozenset({"kwargs"}), repro=_REPRO_EXPORT, modes=_AUTOGRAD_MODES),
    PathRecord("torch", "onnx_dynamo", "torch.onnx.export(dynamo=True) on onnxruntime", _onnx(True), _ort_run,
               limitations=(_DATA_DEPENDENT_EXPORT, _SHAPE_GUARD, _ONNX_IDENTITY_OUTPUT, _ONNX_TUPLE_SHAPES,
                            _ONNX_DICT_FALLBACK),
               specializes=frozenset({"kwargs"}), requires=("onnxruntime", "onnx", "onnxscript"),
               repro=_repro_onnx(True)),
    PathRecord("torch", "onnx_torchscript", "torch.onnx.export(dynamo=False) on onnxruntime; " + _TRACE_NOTE,
               _onnx(False), _ort_run, specializes=frozenset({"kwargs", "control_flow"}),
               limitations=(_ONNX_FLOAT_KWARG_INPUT,), requires=("onnxruntime", "onnx"), repro=_repro_onnx(False)),
)
