"""Conversion paths as records.

A :class:`PathRecord` names a way to turn an eager model into something else (``torch.script``,
``torch.onnx_dynamo`` ...): how to convert, how to run the result, what the path documents it
specialises on (non-tensor arguments, Python control flow, shapes), and its known
:class:`Limitation` records — documented refusals and divergences as data, with reasons and the
framework versions they apply to. ``conformance paths`` prints the table generated from them.

Paths are registered per framework by :mod:`conformance.paths.torch` (and later modules); a
framework's module is imported only when its paths are asked for, so ``import conformance``
never imports a framework.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

import numpy as np

from conformance.paths.limitation import (  # noqa: F401 - part of the path API
    DIVERGENCES,
    PHASES,
    REASON_MAX,
    Failure,
    Limitation,
)
from conformance.paths.onnx_opset import requested_opset
from conformance.program.trees import FlatOutputs, flatten  # noqa: F401 - FlatOutputs: part of the path API

#: Framework name -> module that registers its paths and its :class:`Framework` adapter.
FRAMEWORK_MODULES = {"torch": "conformance.paths.torch", "paddle": "conformance.paths.paddle",
                     "tf": "conformance.paths.tf"}
#: Framework name -> the package it is imported as (and named by in a record's ``versions``).
FRAMEWORK_PACKAGES = {"torch": "torch", "paddle": "paddle", "tf": "tensorflow"}

#: What a path may be documented to specialise on.
SPECIALISATIONS = ("kwargs", "control_flow", "shapes")
#: What a case checks along a path (``conformance fuzz --mode``): ``infer`` the outputs; ``grad`` the outputs
#: and the gradients of a loss with respect to the inputs and every parameter; ``train`` the losses,
#: parameters and buffers (batch-norm statistics) after a few optimizer steps (see :mod:`conformance.judge.training`).
MODES = ("infer", "grad", "train")


def split_names(value) -> list[str]:
    """``"a,b,,c"`` -> ``["a", "b", "c"]`` (None -> [])."""
    return [x for x in (value or "").split(",") if x]


class UnknownPathError(ValueError):
    """A path or framework name that does not exist; the message lists the known ones."""


class FrameworkUnavailable(RuntimeError):
    """A framework (or a package a path needs) is not installed."""


@dataclass(frozen=True)
class PathRecord:
    """One conversion path of one framework."""

    framework: str
    name: str
    description: str
    convert: Callable[[Any], Any]  # (ConvertContext) -> artifact
    run: Callable[[Any, list, dict], Any]  # (artifact, args, kwargs) -> outputs
    specializes: frozenset = frozenset()
    #: The components the path goes through (``torchscript_exporter``, ``onnxruntime``: modules of
    #: :mod:`conformance.paths.known`): their records that name this path, or every path through them, are its.
    components: tuple[str, ...] = ()
    #: Records of the path's own besides the catalogue's (a path another package registers brings its own).
    limitations: tuple[Limitation, ...] = ()
    requires: tuple[str, ...] = ()  # importable modules the path needs besides the framework
    devices: tuple[str, ...] = ("cpu", "cuda")
    reference: bool = False  # the eager path
    default: bool = True  # selected when no path names are given (False: only when named)
    #: What the path counts on its artifact (e.g. ``{"traces": 2}`` for tf.function), recorded in
    #: ``detail.counters`` after conversion and ``detail.inputs[].counters`` after each input set.
    counters: Optional[Callable[[Any], dict]] = None
    #: The modes the path supports (see :data:`MODES`): ``grad`` and ``train`` need an artifact that
    #: autograd differentiates (its framework's :class:`Autograd` computes the gradients and steps).
    modes: frozenset = frozenset({"infer"})
    #: ``train`` mode: wraps the framework's optimizer step for this path, ``step -> step`` (a step takes
    #: the gradients, in the order of the parameters); None: the framework's eager optimizer.
    optimizer: Optional[Callable[[Callable], Callable]] = None
    #: The reduced float dtype the path computes in (``"bfloat16"``: autocast), or None. Such a path is
    #: judged against fp32 eager with that dtype's tolerance rule, and a control-flow decision that the
    #: reduced precision flips is not judged (see :mod:`conformance.judge.precision`).
    precision: Optional[str] = None
    #: The float dtype the path computes float64 in (``"float32"``: OpenVINO's CPU plugin, which has no float64
    #: arithmetic and narrows a float64 model), or None. Its float64 outputs are judged with that dtype's
    #: tolerance rule (:data:`conformance.judge.oracle.TOLERANCES`), not float64's.
    float64_as: Optional[str] = None
    #: False where the path's outputs come back through a structure with no order (a SavedModel keeps a function's
    #: output structure in a protobuf map): its dict outputs are judged as mappings, their key order aside.
    dict_order: bool = True
    #: Files the conversion reads beside its own module (absolute paths; Paddle's callers template): a reproducer
    #: needs a copy of each beside it (``conformance triage`` copies them).
    files: tuple[str, ...] = ()
    #: An ONNX path: ``() -> int``, the opset its exporter writes when none is asked for (``--onnx-opset``), so
    #: a run can tell before any case that the installed onnxruntime cannot load it
    #: (:func:`~conformance.paths.onnx_opset.configuration_errors`); None: not an ONNX path.
    default_onnx_opset: Optional[Callable[[], int]] = None
    #: A variant that may run the very code of another path: ``(device) -> why`` it does on that device (naming
    #: the other path; e.g. ``torch.compile(mode='reduce-overhead')`` without CUDA graphs to capture), or None
    #: where it does not. Such a path is left out of runs that name no paths (:func:`duplicate_work`).
    same_code_as: Optional[Callable[[str], Optional[str]]] = None
    #: ``(device) -> why`` this machine cannot run the path on that device though the path supports it (e.g.
    #: onnxruntime without its CUDA execution provider), or None where it can: such a path is skipped, saying why.
    unavailable_on: Optional[Callable[[str], Optional[str]]] = None

    def __post_init__(self):
        unknown = set(self.specializes) - set(SPECIALISATIONS)
        if unknown:
            raise ValueError(f"path {self.framework}.{self.name}: unknown specialisations {sorted(unknown)}; "
                             f"known: {', '.join(SPECIALISATIONS)}")
        if set(self.modes) - set(MODES) or "infer" not in self.modes:
            raise ValueError(f"path {self.framework}.{self.name}: modes {sorted(self.modes)} must include 'infer' "
                             f"and be among {', '.join(MODES)}")

    @property
    def id(self) -> str:
        return f"{self.framework}.{self.name}"

    @property
    def records(self) -> tuple[Limitation, ...]:
        """Every limitation of the path: its own (:attr:`limitations`), then the catalogue's records of the
        components it goes through (:mod:`conformance.paths.known`)."""
        from conformance.paths.known import records_for

        return tuple(self.limitations) + records_for(self.id, self.components)

    def limitation_for(self, failure: Failure, version: str) -> Optional[Limitation]:
        """The most specific of the path's records that applies to ``failure`` (:attr:`Limitation.specificity`),
        or None. Two records that apply to a record's example with the same specificity are a catalogue error
        (``tests/test_known_catalogue.py``)."""
        return max((lim for lim in self.records if lim.applies(failure, version)), key=lambda lim: lim.specificity,
                   default=None)

    def mismatch_named_by(self, failure: Failure, version: str) -> Optional[Limitation]:
        """The record that names a mismatch (``failure``: its diverging leaves): the documented divergences that
        apply, where together they cover every diverging leaf (the most specific of them names it); else the most
        specific other record (a known bug) that applies to a leaf they leave; None: a new finding. A documented
        divergence of some leaves does not excuse the others, and a known bug does not name leaves it does not
        speak of."""
        applicable = sorted((lim for lim in self.records if lim.applies(failure, version)),
                            key=lambda lim: lim.specificity, reverse=True)
        documented = [lim for lim in applicable if lim.outcome == "expected_divergence"]
        left = [d for d in failure.divergences if not any(lim.covers(*d) for lim in documented)]
        if documented and not left:
            return documented[0]
        return next((lim for lim in applicable if lim.outcome != "expected_divergence"
                     and any(lim.covers(*d) for d in left)), None)


@dataclass
class ConvertContext:
    """What a path's ``convert`` gets: a fresh eager model and the example inputs, on the device.

    A conversion uses the plain-data fields only, never ``program``: the same conversion function runs in a
    standalone reproducer (``repro.py``), where the context is a namespace with these fields and no program.
    """

    model: Any
    args: list
    kwargs: dict
    program: Any
    device: str
    workdir: Any  # a pathlib.Path the path may write files to
    tensor_names: list = field(default_factory=list)  # flattened tensor input names ("x0", "x1.0.k0")
    #: The distinct kwargs of the case's input sets, the example's first: for a path that prepares one
    #: artifact per value a user will call it with (a SavedModel's concrete functions). Most paths
    #: convert with ``kwargs`` only.
    kwarg_sets: list = field(default_factory=list)
    #: What the artifact will be used for (:data:`MODES`): in ``grad`` and ``train`` a path that compiles
    #: on a first call makes that call with autograd on. The model is already in ``train()`` or ``eval()``.
    mode: str = "infer"
    #: The names of ``forward``'s tensor inputs, in order (``x0``, ``x1``); from ``program`` when not given.
    arg_names: list = field(default_factory=list)
    #: Per flat tensor input name (``tensor_names``), the axes that are dynamic (the IR's ``B``); from
    #: ``program`` when not given.
    dynamic_axes: dict = field(default_factory=dict)
    #: The ONNX opset an ONNX path asks its exporter for (``--onnx-opset``); None: the exporter's own default.
    #: Its default is :data:`~conformance.paths.onnx_opset.OPSET_ENV`, which carries the option to every
    #: process of a run. A conversion that sets it also restamps the file with the lowest IR version the opset
    #: needs (:func:`~conformance.paths.onnx_opset.lower_ir_version`).
    onnx_opset: Optional[int] = field(default_factory=requested_opset)
    #: ``forward``'s output nest, None in place of each tensor (lists, tuples and dicts as it returns them): for
    #: an artifact that returns the tensors flat and rebuilds the nest (Paddle's loaded layer, fine-tuned in the
    #: ``grad`` and ``train`` modes); from ``program`` when not given.
    output_structure: Any = None
    #: What the conversion observed about itself (fact name -> bool; Paddle's conversions note them), for the known
    #: bugs a failure's kind alone cannot tell apart: the runner puts those that hold on the :class:`Failure`
    #: (:meth:`Failure.of_context`). Per conversion: nothing carries them from one conversion to the next. The
    #: runner starts it with what the example inputs tell (:func:`example_facts`).
    facts: dict = field(default_factory=dict)

    def __post_init__(self):
        if self.program is not None:
            from conformance.program.program import dynamic_axes

            self.arg_names = self.arg_names or [i.name for i in self.program.inputs]
            self.dynamic_axes = self.dynamic_axes or dynamic_axes(self.program)
            self.tensor_names = self.tensor_names or list(self.dynamic_axes)
            if self.output_structure is None:
                self.output_structure = _output_structure(self.program.output)


def example_facts(args) -> dict:
    """What the example inputs (``args``, numpy arrays in any nest) tell every conversion of a case, noted in
    :attr:`ConvertContext.facts` by the runner: ``zero_size_input``, a tensor with a dim of 0;
    ``int64_beyond_int32``, an int64 tensor holding a value outside int32's range (OpenVINO's CPU plugin computes
    integers in int32)."""
    arrays = [a for a in flatten(list(args)) if isinstance(a, np.ndarray)]
    low, high = np.iinfo(np.int32).min, np.iinfo(np.int32).max
    return {"zero_size_input": any(0 in a.shape for a in arrays),
            "int64_beyond_int32": any(a.dtype == np.int64 and a.size and (a.min() < low or a.max() > high)
                                      for a in arrays)}


def _output_structure(out):
    """The nest of a program's output (:class:`~conformance.program.ir.Out`), None in place of each tensor."""
    from conformance.program.ir import OutDict, OutSeq

    if isinstance(out, OutSeq):
        items = [_output_structure(i) for i in out.items]
        return items if out.kind == "list" else tuple(items)
    if isinstance(out, OutDict):
        return {k: _output_structure(v) for k, v in out.items}
    return None


@dataclass(frozen=True)
class Framework:
    """A framework adapter: what the runner needs to move data in and out of it."""

    name: str
    version: Callable[[], str]
    to_tensor: Callable[[Any, str, bool], Any]  # (numpy array, device, as_fp64) -> tensor
    to_numpy: Callable[[Any], Any]
    prepare: Callable[[Any, str, bool], Any]  # (model, device, as_fp64) -> model
    call: Callable[[Any, list, dict], Any]  # run a model for inference (no autograd)
    devices: Callable[[], list[str]]
    setup: Callable[[], None] = lambda: None
    versions: Callable[[], dict] = lambda: {}
    #: What ``grad`` and ``train`` modes need; None: the framework's paths run in ``infer`` mode only.
    autograd: Optional["Autograd"] = None


@dataclass(frozen=True)
class Autograd:
    """A framework's autograd and optimizers, for the ``grad`` and ``train`` modes.

    The loops around these (the loss head, the optimizer steps, what is compared) are framework-neutral
    and live in :mod:`conformance.judge.training`; parameters and buffers are found on the model by the names of
    the program's ``Param``s.
    """

    #: ``(model, training)``: put the model in ``train()`` (True) or ``eval()`` mode
    set_training: Callable[[Any, bool], None]
    #: ``(forward, args, kwargs, weights, params) -> (outputs, loss, input_grads, param_grads)``: run
    #: ``forward(*args, **kwargs)`` with autograd, take the loss ``sum(out * w)`` over the pairs of
    #: :func:`loss_terms` (``weights``: numpy arrays in the outputs' structure, None
    #: for leaves left out), and return the outputs, the loss (None without a term) and the gradients of
    #: the loss with respect to every float input leaf (``flatten`` order) and to each of ``params``; a
    #: gradient autograd does not produce is None.
    backward: Callable[[Callable, list, dict, list, list], tuple]
    #: ``(kind, params, lr) -> step``: an optimizer (``"sgd"`` or ``"adam"``) over ``params``; ``step(grads)``
    #: applies one update with the gradients in the order of ``params`` (None: that parameter is skipped).
    optimizer: Callable[[str, list, float], Callable[[list], None]]
    #: ``(tensor, array)``: write the values of a numpy array into a parameter or buffer, in place
    assign: Callable[[Any, Any], None]
    #: ``(seed)``: seed the framework's global generator (before every forward, for dropout)
    seed: Callable[[int], None]


def loss_terms(outputs, weights) -> list:
    """``(output leaf, weight)`` pairs of the loss head: ``weights``' structure walked into ``outputs`` (dicts
    by key, so a framework that orders dict outputs otherwise pairs them right); a leaf missing from the
    outputs, of another shape, or without a weight is left out (the comparison of outputs reports it)."""
    if isinstance(weights, dict):
        return [t for k, w in weights.items() if isinstance(outputs, dict) and k in outputs
                for t in loss_terms(outputs[k], w)]
    if isinstance(weights, (list, tuple)):
        if not isinstance(outputs, (list, tuple)) or len(outputs) != len(weights):
            return []
        return [t for o, w in zip(outputs, weights) for t in loss_terms(o, w)]
    if weights is None or tuple(getattr(outputs, "shape", ())) != weights.shape:
        return []
    return [(outputs, weights)]


PATHS: dict[str, PathRecord] = {}
FRAMEWORKS: dict[str, Framework] = {}


def register(*records: PathRecord) -> None:
    for rec in records:
        PATHS[rec.id] = rec


def load_framework(name: str) -> Framework:
    """Import the module of framework ``name`` (registering its paths), then the paths other packages
    register for it (:func:`load_plugins`), and return its adapter."""
    if name not in FRAMEWORK_MODULES:
        raise UnknownPathError(f"unknown framework {name!r}; known: {', '.join(FRAMEWORK_MODULES)}")
    if name not in FRAMEWORKS:
        importlib.import_module(FRAMEWORK_MODULES[name])
    load_plugins(name)
    return FRAMEWORKS[name]


#: The entry-point group by which other packages add paths: an entry named ``<framework>.<name>``
#: (``torch.my_backend``) points at a module that registers :class:`PathRecord` s when imported, or at a
#: callable that registers them or returns them. It is loaded with its framework's built-in paths, in every
#: process that asks for that framework.
ENTRY_POINT_GROUP = "conformance.paths"
#: Entry points of :data:`ENTRY_POINT_GROUP` that failed to load or to register: entry name -> why.
PLUGIN_ERRORS: dict[str, str] = {}
_PLUGINS_LOADED: set = set()


def load_plugins(framework: str) -> None:
    """Load, once per process, the :data:`ENTRY_POINT_GROUP` entries for ``framework``. One that fails (or
    that would replace a path already registered) registers nothing and is named in :data:`PLUGIN_ERRORS`."""
    if framework in _PLUGINS_LOADED:
        return
    _PLUGINS_LOADED.add(framework)
    from importlib.metadata import entry_points

    for entry in entry_points(group=ENTRY_POINT_GROUP):
        if entry.name.split(".")[0] != framework:
            continue
        before = dict(PATHS)
        try:
            loaded = entry.load()
            if callable(loaded):
                register(*(loaded() or ()))
            replaced = sorted(k for k, rec in before.items() if PATHS[k] is not rec)
            if replaced:
                raise ValueError(f"it would replace the paths {', '.join(replaced)}: choose other names")
        except Exception as e:  # noqa: BLE001 - a broken plug-in must not take the built-in paths down
            PATHS.clear()
            PATHS.update(before)
            PLUGIN_ERRORS[entry.name] = f"{entry.value}: {type(e).__name__}: {e}"


def module_versions(*modules: str) -> dict:
    """``{module: __version__}`` of the given modules that are installed (a framework adapter's ``versions``
    lists its converters and runtimes with this)."""
    out = {}
    for mod in modules:
        try:
            out[mod] = __import__(mod).__version__
        except ImportError:
            pass
    return out


def framework_available(name: str) -> bool:
    return importlib.util.find_spec(FRAMEWORK_PACKAGES.get(name, name)) is not None


def select_paths(frameworks: Optional[list[str]] = None, names: Optional[list[str]] = None) -> list[PathRecord]:
    """Path records for the given frameworks, filtered by path names (``script`` or ``torch.script``).

    Raises :class:`UnknownPathError` naming an unknown framework or path, with the known ones.
    """
    frameworks = list(frameworks or FRAMEWORK_MODULES)
    for fw in frameworks:
        load_framework(fw)
    pool = [p for p in PATHS.values() if p.framework in frameworks]
    if not names:
        return [p for p in pool if p.default]
    chosen = []
    for n in names:
        hits = [p for p in pool if n in (p.id, p.name)]
        if not hits:
            known = ", ".join(p.id for p in pool)
            broken = "".join(f"; plug-in {k} failed: {v}" for k, v in PLUGIN_ERRORS.items()
                             if k.split(".")[0] in frameworks)
            raise UnknownPathError(f"unknown path {n!r} for frameworks {', '.join(frameworks)}; known: {known}"
                                   + broken)
        chosen += [h for h in hits if h not in chosen]
    for fw in dict.fromkeys(p.framework for p in chosen):  # each framework's eager path, the reference, first
        if not any(p.reference and p.framework == fw for p in chosen):
            first = next(i for i, p in enumerate(chosen) if p.framework == fw)
            chosen.insert(first, next(p for p in pool if p.reference and p.framework == fw))
    return chosen


def duplicate_work(paths: list[PathRecord], device: str) -> dict[str, str]:
    """``{path id: why}`` of the paths among ``paths`` that would run the same code as another path on
    ``device`` (:attr:`PathRecord.same_code_as`): a run that names no paths leaves them out."""
    out = {}
    for p in paths:
        why = p.same_code_as(device) if p.same_code_as else None
        if why:
            out[p.id] = why
    return out


def missing_requirements(path: PathRecord) -> list[str]:
    return [m for m in path.requires if importlib.util.find_spec(m) is None]


def unavailable_reason(path: PathRecord, device: str) -> Optional[str]:
    """Why this machine cannot run ``path`` on ``device`` (:attr:`PathRecord.devices`,
    :attr:`PathRecord.unavailable_on`), or None where it can."""
    if device not in path.devices:
        return f"it runs on {', '.join(path.devices)} only"
    return path.unavailable_on(device) if path.unavailable_on else None
