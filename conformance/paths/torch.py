"""PyTorch conversion paths: eager, TorchScript (script, trace), torch.compile (inductor,
aot_eager), torch.export, and ONNX (dynamo and TorchScript exporters) run on onnxruntime."""

from __future__ import annotations

import warnings

import numpy as np
import torch

from ..ir import DYNAMIC, DictSpec, SeqSpec, TensorSpec
from ..ops import MAX_BATCH
from . import FRAMEWORKS, ConvertContext, Framework, Limitation, PathRecord, register
from .ort import OrtModel


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
    out = {"torch": torch.__version__}
    for mod in ("onnxruntime", "onnx", "onnxscript"):
        try:
            out[mod] = __import__(mod).__version__
        except ImportError:
            pass
    return out


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

FRAMEWORKS["torch"] = Framework("torch", lambda: torch.__version__, _to_tensor, _to_numpy, _prepare, _call,
                                _devices, _setup, _versions, repro=_REPRO_FRAMEWORK)


# ------------------------------------------------------------------ eager, TorchScript


def _eager(ctx: ConvertContext):
    return ctx.model


def _script(ctx: ConvertContext):
    return torch.jit.script(ctx.model)


def _trace(ctx: ConvertContext):
    # trace takes tensors only: non-tensor kwargs are bound at trace time, as users do with a wrapper.
    return _BoundKwargs(torch.jit.trace(_Bind(ctx.model, ctx.kwargs), tuple(ctx.args), strict=False))


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


def _compile(backend: str):
    def convert(ctx: ConvertContext):
        import torch._dynamo

        torch._dynamo.reset()
        compiled = torch.compile(ctx.model, backend=backend)
        _call(compiled, ctx.args, ctx.kwargs)  # compile now, so compiler errors are conversion errors
        return compiled
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
    "known bug: with a dict input, when torch.export refuses (data-dependent control flow) the exporter's "
    "fallback capture fails to bind the inputs and reports 'missing a required argument' instead",
    r"<class 'TypeError'>: missing a required argument: ", outcome=None, versions=">=2.9",
    reference="found by conformance 2026-11-21 (torch 2.13.0)")
_TRACE_NOTE = "(traced: control flow and non-tensor arguments are frozen to the example's)"

register(
    PathRecord("torch", "eager", "eager nn.Module (the reference, on the chosen device)", _eager, _call,
               reference=True),
    PathRecord("torch", "script", "torch.jit.script", _script, _call, repro=_REPRO_SCRIPT),
    PathRecord("torch", "trace", "torch.jit.trace " + _TRACE_NOTE, _trace, _call,
               specializes=frozenset({"kwargs", "control_flow"}), repro=_REPRO_TRACE),
    PathRecord("torch", "compile", "torch.compile(backend='inductor')", _compile("inductor"), _call,
               repro=_repro_compile("inductor")),
    PathRecord("torch", "compile_aot_eager", "torch.compile(backend='aot_eager')", _compile("aot_eager"), _call,
               repro=_repro_compile("aot_eager")),
    PathRecord("torch", "export", "torch.export.export(dynamic_shapes=B).module()", _export, _call,
               limitations=(_DATA_DEPENDENT_EXPORT, _SHAPE_GUARD, _KWARG_GUARD),
               specializes=frozenset({"kwargs"}), repro=_REPRO_EXPORT),
    PathRecord("torch", "onnx_dynamo", "torch.onnx.export(dynamo=True) on onnxruntime", _onnx(True), _ort_run,
               limitations=(_DATA_DEPENDENT_EXPORT, _SHAPE_GUARD, _ONNX_IDENTITY_OUTPUT, _ONNX_TUPLE_SHAPES,
                            _ONNX_DICT_FALLBACK),
               specializes=frozenset({"kwargs"}), requires=("onnxruntime", "onnx", "onnxscript"),
               repro=_repro_onnx(True)),
    PathRecord("torch", "onnx_torchscript", "torch.onnx.export(dynamo=False) on onnxruntime; " + _TRACE_NOTE,
               _onnx(False), _ort_run, specializes=frozenset({"kwargs", "control_flow"}),
               requires=("onnxruntime", "onnx"), repro=_repro_onnx(False)),
)
