"""Check a model of your own: which conversion paths give the same answer as eager mode, on your inputs?

    >>> import conformance
    >>> report = conformance.check(model, [x, {"mask": m}], {"use_act": True})
    >>> print(report)                 # one row per path: outcome, max errors, tolerance that would pass, time
    >>> report.raise_on_mismatch()    # inside your own tests

:func:`check` takes a ``torch.nn.Module``, a ``paddle.nn.Layer`` or a ``tf.Module`` (a Keras model is
one), finds its framework, and runs every conversion path of that framework the fuzzer runs, with the
same oracle: outputs are judged against an fp64 eager reference where the model can be cast to fp64,
with a per-element rounding allowance measured by running eager on inputs nudged by one ulp; NaN where
eager is finite is a mismatch.

Besides your example, each path runs on *derived* input sets that test whether the conversion
generalises: other values (floats negated and redrawn, ints permuted, bools inverted) that may take the
other branch of a data-dependent ``if``; another size along the dynamic dims (rows resampled); and each
bool keyword argument flipped. Input sets you pass as ``extra_inputs`` are used as well. A derived set
on which eager itself fails is dropped with a note.

Paths documented to specialise (``torch.jit.trace`` freezes control flow and non-tensor arguments) that
differ only on inputs they specialise on are ``expected_divergence`` when the conversion warned about
it, and ``mismatch`` when it did not. Script-like paths read your model's source, so the model's class
must be defined in a file (not in a notebook cell or an ``exec`` string); :func:`check` says so when
it is not.
"""

from __future__ import annotations

import contextlib
import copy
import inspect
import json
import os
import time
from dataclasses import dataclass, field
from typing import Optional, Sequence

import numpy as np

from conformance.judge.modes import InputRun, Prepared, ReplayUnavailable
from conformance.judge.oracle import Stability
from conformance.paths.onnx_opset import OPSET_ENV, requested_opset
from conformance.paths.records import PathRecord, UnknownPathError, load_framework, select_paths
from conformance.program.case import Case, InputSet, map_tree
from conformance.program.ir import DYNAMIC, DictSpec, Input, Kwarg, OutVar, SeqSpec, TensorSpec
from conformance.program.program import Program
from conformance.run.onnx_checks import refused_paths
from conformance.run.records import FINDINGS, ResultRecord
from conformance.run.runner import nudge, run_path

__all__ = ["check", "assert_conforms", "CheckError", "CheckReport", "PathResult", "detect_framework"]


class CheckError(ValueError):
    """The model or its inputs cannot be checked; the message says what is wrong and what to do."""


class ConformanceMismatch(AssertionError):
    """Raised by :meth:`CheckReport.raise_on_mismatch`; ``.report`` holds the :class:`CheckReport`."""

    def __init__(self, report: "CheckReport", failing: list):
        super().__init__(f"{len(failing)} conversion path(s) disagree with eager: "
                         f"{', '.join(r.path for r in failing)}\n{report}")
        self.report = report


@dataclass
class PathResult:
    """The verdict on one path: an outcome of the fuzzer's (``pass``, ``mismatch``, ``conversion_error``,
    ``unsupported`` ...), the worst errors, the smallest tolerances that would have passed, and times."""

    path: str
    outcome: str
    message: str
    max_abs_err: Optional[float]
    max_rel_err: Optional[float]
    required_atol: Optional[float]
    required_rtol: Optional[float]
    convert_s: Optional[float]
    run_s: Optional[float]
    record: ResultRecord = field(repr=False)


@dataclass
class CheckReport:
    """What :func:`check` found: one :class:`PathResult` per path, and notes on the input sets."""

    model: str
    framework: str
    device: str
    input_sets: list[str]
    results: list[PathResult]
    notes: list[str]
    #: The installed onnxruntime cannot load the opset the ONNX paths would write (each message once): those
    #: paths are ``unsupported`` records with ``detail.configuration``, never findings; see ``onnx_opset``.
    configuration_errors: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """No path is a finding (mismatch, conversion or runtime error, timeout, crash)."""
        return not any(r.outcome in FINDINGS for r in self.results)

    def __getitem__(self, path: str) -> PathResult:
        for r in self.results:
            if path in (r.path, r.path.split(".", 1)[-1]):
                return r
        raise KeyError(f"no result for path {path!r}; have {', '.join(r.path for r in self.results)}")

    def raise_on_mismatch(self, outcomes: Sequence[str] = ("mismatch",)) -> "CheckReport":
        """Raise :class:`ConformanceMismatch` if a path has one of ``outcomes`` (default: a silent mismatch).

        Pass ``outcomes=conformance.run.records.FINDINGS`` to fail on conversion errors and crashes too."""
        failing = [r for r in self.results if r.outcome in outcomes]
        if failing:
            raise ConformanceMismatch(self, failing)
        return self

    def to_dict(self) -> dict:
        return {"model": self.model, "framework": self.framework, "device": self.device,
                "input_sets": self.input_sets, "notes": self.notes, "configuration_errors": self.configuration_errors,
                "records": [r.record.to_json() for r in self.results]}

    def rows(self) -> tuple[list[str], list[list[str]]]:
        header = ["path", "outcome", "max abs err", "max rel err", "atol to pass", "rtol to pass", "time", "message"]
        rows = [[r.path, r.outcome, _num(r.max_abs_err), _num(r.max_rel_err), _num(r.required_atol),
                 _num(r.required_rtol), _secs(r),
                 "the runtime cannot load it: a configuration error (below), not a finding"
                 if r.record.detail.configuration else _one_line(r.message)] for r in self.results]
        return header, rows

    def __str__(self) -> str:
        header, rows = self.rows()
        widths = [max(len(h), *(len(row[i]) for row in rows)) if rows else len(h) for i, h in enumerate(header)]
        widths[-1] = len(header[-1])
        line = lambda cells: "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()  # noqa: E731
        out = [f"conformance check of {self.model} ({self.framework}, {self.device}); "
               f"input sets: {', '.join(self.input_sets)}", line(header)]
        out += [line(row) for row in rows]
        out += [f"note: {n}" for n in self.notes]
        out += [f"configuration error: {e}" for e in self.configuration_errors]
        return "\n".join(out)


def _num(x) -> str:
    return "-" if x is None else f"{x:.3g}"


def _secs(r: PathResult) -> str:
    total = (r.convert_s or 0.0) + (r.run_s or 0.0)
    return f"{total:.3f}s" if r.convert_s is not None else "-"


def _one_line(text: str, n: int = 110) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= n else text[: n - 3] + "..."


# ------------------------------------------------------------------ frameworks


def detect_framework(model) -> str:
    """``torch``, ``paddle`` or ``tf`` from the model's class (without importing any framework)."""
    for cls in type(model).__mro__:
        mod = cls.__module__ or ""
        if mod.startswith("torch."):
            return "torch"
        if mod.startswith("paddle."):
            return "paddle"
        if mod.startswith(("tensorflow.", "tf_keras.", "keras.")):
            return "tf"
    raise CheckError(f"{type(model).__name__} is not a torch.nn.Module, paddle.nn.Layer or tf.Module; "
                     f"conformance check needs a model of one of these frameworks")


def _to_fp64(framework: str, model):
    """An fp64 copy of ``model`` for the reference, or None where the framework cannot cast a model."""
    model = copy.deepcopy(model)
    if framework == "torch":
        return model.double()
    if framework == "paddle":
        model.to(dtype="float64")
        return model
    return None  # a tf.Module's variables have fixed dtypes


def _leaf_to_numpy(x) -> np.ndarray:
    if isinstance(x, np.ndarray):
        return x
    if hasattr(x, "detach"):  # torch
        return x.detach().cpu().numpy()
    if hasattr(x, "numpy"):  # paddle, tensorflow
        return np.asarray(x.numpy())
    return np.asarray(x)


# ------------------------------------------------------------------ signatures and input sets


def _is_leaf(x) -> bool:
    return not isinstance(x, (list, tuple, dict))


def _spec_of(value: np.ndarray, shape_spec) -> TensorSpec:
    shape = tuple(DYNAMIC if d is None else int(v) for d, v in zip(shape_spec, value.shape)) \
        if shape_spec is not None else tuple(value.shape)
    dtype = {"f": "float32", "i": "int64", "u": "int64", "b": "bool"}.get(value.dtype.kind)
    if dtype is None:
        raise CheckError(f"input of dtype {value.dtype} is not supported (floats, ints and bools are)")
    lo, hi = (float(value.min()), float(value.max())) if value.size else (0.0, 0.0)
    return TensorSpec(shape, dtype, lo, hi)


def _leaf_shape_spec(s):
    """The shape of one input_spec leaf: a tuple/list of ints and None, or an object with ``.shape``
    (``paddle.static.InputSpec``, ``tf.TensorSpec``, ``torch.Size``)."""
    shape = getattr(s, "shape", s)
    shape = list(shape.as_list() if hasattr(shape, "as_list") else shape)
    return [None if d is None or (isinstance(d, int) and d < 0) else int(d) for d in shape]


def _is_spec_leaf(s) -> bool:
    return hasattr(s, "shape") or (isinstance(s, (list, tuple)) and all(d is None or isinstance(d, int) for d in s))


def _signature(value, spec, where: str):
    if _is_leaf(value):
        shape_spec = _leaf_shape_spec(spec) if spec is not None else None
        if shape_spec is not None and len(shape_spec) != value.ndim:
            raise CheckError(f"input_spec for {where} has rank {len(shape_spec)}, the input has shape "
                             f"{list(value.shape)}")
        return _spec_of(value, shape_spec)
    if spec is not None and _is_spec_leaf(spec):
        raise CheckError(f"input_spec for {where} is a tensor spec, the input is a {type(value).__name__}")
    if isinstance(value, dict):
        sub = spec or {}
        return DictSpec(tuple((str(k), _signature(v, sub.get(k), f"{where}[{k!r}]")) for k, v in value.items()))
    sub = spec or [None] * len(value)
    if len(sub) != len(value):
        raise CheckError(f"input_spec for {where} has {len(sub)} items, the input has {len(value)}")
    return SeqSpec("list" if isinstance(value, list) else "tuple",
                   tuple(_signature(v, s, f"{where}[{i}]") for i, (v, s) in enumerate(zip(value, sub))))


def _default_dynamic(args) -> Optional[list]:
    """Without an input_spec: dim 0 of every tensor is dynamic when all tensors share its size (a batch)."""
    leaves = [leaf for leaf in _leaves(args) if leaf.ndim >= 1]
    if leaves and len({leaf.shape[0] for leaf in leaves}) == 1:
        return map_tree(lambda a: [None] + list(a.shape[1:]) if a.ndim else [], args)
    return None


def _leaves(tree) -> list:
    from conformance.program.case import flatten

    return flatten(tree)


def _forward_names(model, framework: str, args: list, kwargs: dict) -> list[str]:
    """Names of the positional inputs; raises :class:`CheckError` where the inputs do not fit the signature."""
    fn = model.__call__ if framework == "tf" else model.forward
    signature = inspect.signature(fn)
    try:
        signature.bind(*args, **kwargs)
    except TypeError as e:
        raise CheckError(f"the inputs do not match {type(model).__name__}.{fn.__name__}{signature}: {e}") from None
    params = [p for p in signature.parameters.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    names = [p.name for p in params[:len(args)]]
    return names + [f"arg{i}" for i in range(len(names), len(args))]


def _derive(args: list, kwargs: dict, dynamic: bool, rng: np.random.Generator) -> list[tuple[str, list, dict]]:
    """Input sets that test generalisation, made from the example (see the module docstring)."""

    def values(a: np.ndarray, redraw: bool) -> np.ndarray:
        if a.dtype.kind == "f":
            if redraw:
                return rng.normal(a.mean(), a.std() or 1.0, a.shape).astype(a.dtype)
            return -a
        if a.dtype.kind == "b":
            return rng.random(a.shape) < 0.5 if redraw else ~a
        return rng.permutation(a.reshape(-1)).reshape(a.shape)

    sets = [("values", map_tree(lambda a: values(a, False), args), dict(kwargs)),
            ("values", map_tree(lambda a: values(a, True), args), dict(kwargs))]
    if dynamic:
        size = _leaves(args)[0].shape[0]
        rows = rng.integers(0, size, size + 1)
        sets.append(("batch", map_tree(lambda a: a[rows] if a.ndim else a, args), dict(kwargs)))
    for name, v in kwargs.items():
        if isinstance(v, bool):
            sets.append(("kwargs", args, {**kwargs, name: not v}))
    return sets


class _UserPrepared(Prepared):
    """Eager runs of a user's model: fp32, fp64 (where the model can be cast) and fp32 on nudged inputs.

    A user's model has no probes, so the branch-flip guard cannot see its decisions, and eager cannot
    replay the example's control flow on other inputs (:class:`~conformance.run.runner.ReplayUnavailable`)."""

    def __init__(self, fw, model, model64, framework: str):
        super().__init__(fw, None, [], 0.0, ())
        self.model, self.model64, self.framework_name = model, model64, framework

    def new_model(self):
        return copy.deepcopy(self.model)

    def eager(self, args, nudged, kwargs, force=None):
        example = self.runs[0] if self.runs else None
        if force is not None and not (example and kwargs == example.kwargs and _same_arrays(args, example.args)):
            # (on the example's own inputs and kwargs, the example's control flow is just eager's)
            raise ReplayUnavailable("a user model has no probes to replay control flow with")
        fw = self.framework
        run = lambda model, values, fp64: fw.to_numpy(fw.call(model, map_tree(  # noqa: E731
            lambda a: fw.to_tensor(a, "cpu", fp64), values), kwargs))
        eager = run(self.model, args, False)
        reference = run(self.model64, args, True) if self.model64 is not None else eager
        return (eager, reference, run(self.model, nudged, False)), Stability(True)


# ------------------------------------------------------------------ check


def check(model, args: Sequence, kwargs: Optional[dict] = None, *, paths: Optional[Sequence[str]] = None,
          device: str = "cpu", input_spec=None, extra_inputs: Sequence = (), seed: int = 0,
          onnx_opset: Optional[int] = None) -> CheckReport:
    """Run ``model`` along every conversion path of its framework and compare each with eager mode.

    ``args``: the positional inputs (tensors of the model's framework or numpy arrays, nested in lists,
    tuples and dicts as ``forward`` takes them); ``kwargs``: keyword arguments (tensors are not supported
    as keyword arguments: pass them positionally). ``paths``: path names such as ``["script", "trace"]``
    (default: all of the framework's default paths). ``device``: ``cpu`` or ``cuda``.

    ``input_spec``: the shapes of the inputs with ``None`` for dynamic dims, nested like ``args`` (tuples
    of ints and None, or ``InputSpec``/``tf.TensorSpec`` objects); dynamic dims are exported as dynamic
    and resized in a derived input set. All dynamic dims share one size (a batch). Without it, dim 0 is
    dynamic when every input has the same size there.

    ``extra_inputs``: more input sets, each ``args`` or ``(args, kwargs)``.

    ``onnx_opset``: the ONNX opset the ONNX paths ask their exporters for (default: ``$CONFORMANCE_ONNX_OPSET``
    if set, else each exporter's own). Where the installed onnxruntime cannot load that opset, those paths are
    ``unsupported`` with ``detail.configuration`` and the report's :attr:`~CheckReport.configuration_errors`
    says why once: never a finding.
    Returns a :class:`CheckReport`; raises :class:`CheckError` when the model or inputs cannot be checked.
    """
    framework = detect_framework(model)
    try:
        inspect.getsource(type(model))
    except (OSError, TypeError):
        raise CheckError(f"the source of {type(model).__name__} cannot be read (defined in a notebook cell, "
                         f"a REPL or exec?): script and to_static paths convert a model from its source; "
                         f"put the class in a .py file and import it") from None
    try:
        fw = load_framework(framework)
    except ImportError as e:
        raise CheckError(f"{framework} paths need {framework} installed: {e}") from None
    fw.setup()
    try:
        chosen = select_paths([framework], list(paths) if paths else None)
    except UnknownPathError as e:
        raise CheckError(str(e)) from None
    try:
        opset = requested_opset(onnx_opset)
    except ValueError as e:
        raise CheckError(str(e)) from None
    refused = refused_paths(chosen, opset)
    kwargs = dict(kwargs or {})
    for k, v in kwargs.items():
        if not isinstance(v, (bool, int, float, str, type(None))):
            raise CheckError(f"keyword argument {k!r} is a {type(v).__name__}: only bool, int, float, str and None "
                             f"keyword arguments are supported; pass tensors positionally")
    np_args = map_tree(_leaf_to_numpy, list(args))
    dyn_spec = input_spec if input_spec is not None else _default_dynamic(np_args)
    names = _forward_names(model, framework, np_args, kwargs)
    leaf_specs = dyn_spec if dyn_spec is not None else [None] * len(np_args)
    specs = [_signature(a, s, n) for a, s, n in zip(np_args, leaf_specs, names)]
    sizes = {v.shape[i] for spec_leaf, v in zip(_spec_leaves(specs), _leaves(np_args))
             for i, d in enumerate(spec_leaf.shape) if d == DYNAMIC}
    if len(sizes) > 1:
        raise CheckError(f"dynamic dims have different sizes {sorted(sizes)} in the example; conformance check "
                         f"supports one dynamic size (the batch): mark the others static in input_spec")
    program = Program(seed=seed, inputs=tuple(Input(n, s) for n, s in zip(names, specs)),
                      kwargs=tuple(Kwarg(k, type(v).__name__, v, (v,)) for k, v in kwargs.items()),
                      params=(), body=(), output=OutVar("output"), meta=(("model", type(model).__name__),))

    t0 = time.perf_counter()
    eager_model = fw.prepare(copy.deepcopy(model), "cpu", False)
    prep = _UserPrepared(fw, eager_model, _to_fp64(framework, eager_model), framework)
    notes = [] if prep.model64 is not None else [f"{framework} models cannot be cast to fp64: the reference is "
                                                  f"eager fp32 (rounding allowance from nudged inputs)"]
    rng = np.random.default_rng(seed)
    candidates = [("example", np_args, kwargs)]
    candidates += [("extra", *_extra(e, kwargs)) for e in extra_inputs]
    candidates += _derive(np_args, kwargs, bool(sizes), rng)
    input_sets = []
    for i, (role, a, kw) in enumerate(candidates):
        nudged = map_tree(lambda x: nudge(x, rng), a)
        try:
            (eager, ref, noise), stability = prep.eager(a, nudged, kw)
        except Exception as e:  # noqa: BLE001 - eager failing on the example is the user's to fix
            if role == "example":
                raise CheckError(f"eager mode fails on your example: {type(e).__name__}: {e}") from e
            notes.append(f"dropped a derived {role} input set: eager fails on it ({type(e).__name__}: "
                         f"{_one_line(str(e), 120)})")
            continue
        batch = next((v.shape[0] for v in _leaves(a) if v.ndim), 1) if sizes else 1
        prep.runs.append(InputRun(len(prep.runs), role, a, nudged, kw, batch, eager, ref, noise,
                                  Stability(True, decisions=(("unprobed", len(prep.runs)),))))
        input_sets.append(role if role != "kwargs" else f"kwargs {json.dumps(_changed(kwargs, kw))}")
    prep.prepare_s = time.perf_counter() - t0

    case = Case(program, tuple(InputSet(r.role, r.batch, i, tuple(sorted(r.kwargs.items())))
                               for i, r in enumerate(prep.runs)))
    results = []
    versions = fw.versions()
    for path in chosen:
        if path.id in refused:  # the runtime cannot load what the exporter would write: not run, not a finding
            record = ResultRecord.for_case(case, path.framework, path.name, device, versions)
            record.detail.configuration, record.detail.onnx = True, {"requested_opset": opset}
            record.finish("unsupported", f"configuration error: {refused[path.id]}")
        else:
            with _opset_environment(opset):
                record = run_path(case, prep, path, device, versions)
        record.case = None  # arrays of a user's model are not reproducible from a seed
        results.append(_result(path, record))
    return CheckReport(type(model).__name__, framework, device, input_sets, results, notes,
                       list(dict.fromkeys(refused.values())))


@contextlib.contextmanager
def _opset_environment(opset: Optional[int]):
    """:data:`~conformance.paths.onnx_opset.OPSET_ENV` set to ``opset`` (unset for None) while converting: every
    ConvertContext, and the exporters' own processes, read it there."""
    saved = os.environ.get(OPSET_ENV)
    if opset is None:
        os.environ.pop(OPSET_ENV, None)
    else:
        os.environ[OPSET_ENV] = str(opset)
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop(OPSET_ENV, None)
        else:
            os.environ[OPSET_ENV] = saved


def _same_arrays(a, b) -> bool:
    x, y = _leaves(a), _leaves(b)
    return len(x) == len(y) and all(u.shape == v.shape and np.array_equal(u, v) for u, v in zip(x, y))


def _spec_leaves(specs) -> list[TensorSpec]:
    from conformance.program.ir import spec_leaves

    return [leaf for s in specs for _, leaf in spec_leaves(s)]


def _extra(item, kwargs: dict) -> tuple[list, dict]:
    if isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], dict):
        a, kw = item
    else:
        a, kw = item, {}
    return map_tree(_leaf_to_numpy, list(a)), {**kwargs, **kw}


def _changed(base: dict, kw: dict) -> dict:
    return {k: v for k, v in kw.items() if base.get(k) != v}


def _result(path: PathRecord, record: ResultRecord) -> PathResult:
    failures = [f for e in record.detail.inputs or [] for f in (e.report or {}).get("failures", [])]
    need = lambda key: max((f[key] for f in failures if f.get(key) is not None), default=None)  # noqa: E731
    return PathResult(path.id, record.outcome, record.detail.message, record.max_abs_err, record.max_rel_err,
                      need("required_atol"), need("required_rtol"), record.timings.convert_s, record.timings.run_s,
                      record)


def assert_conforms(model, args: Sequence, kwargs: Optional[dict] = None, *,
                    fail_on: Sequence[str] = ("mismatch",), **options) -> CheckReport:
    """One line for a test suite: :func:`check` the model and raise if a path has an outcome in ``fail_on``.

        def test_my_model_converts():
            conformance.assert_conforms(MyModel(), [x], {"use_act": True}, paths=["script", "export"])
    """
    return check(model, args, kwargs, **options).raise_on_mismatch(fail_on)
