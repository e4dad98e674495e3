"""The check itself: a user's model, its call bound and its eager outputs computed once, then each path
converted, run and judged in a process of its own (see :mod:`conformance.check`)."""

from __future__ import annotations

import json
import pickle
import shutil
import tempfile
import time
from typing import Optional, Sequence

import numpy as np

from conformance.check.calls import (
    CheckError,
    arrays,
    bind_call,
    default_dynamic,
    derive,
    leaf_to_numpy,
    signature_of,
    spec_arrays,
)
from conformance.check.isolated import PathJob, pickled_path, registering_module, run_isolated, run_job
from conformance.check.prepared import UserPrepared, fresh_copy, to_fp64
from conformance.check.report import CheckReport, path_result
from conformance.check.shipped import dumps, in_memory_sources, sourceless
from conformance.judge.modes import InputRun
from conformance.judge.oracle import Stability
from conformance.paths.onnx_opset import OPSET_ENV, requested_opset
from conformance.paths.records import UnknownPathError, load_framework, select_paths
from conformance.program.case import Case, InputSet, map_tree
from conformance.program.ir import DYNAMIC, Input, Kwarg, OutVar
from conformance.program.program import Program
from conformance.run.onnx_checks import refused_paths
from conformance.run.records import ResultRecord
from conformance.run.runner import nudge

#: The variable that says where conversions write their files (:func:`conformance.render.loading.cache_dir`).
CACHE_ENV = "CONFORMANCE_CACHE"
#: The longest a path may take (convert, run every input set, localise) before its process is killed.
DEFAULT_TIMEOUT = 600.0


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


def check(model, args: Sequence, kwargs: Optional[dict] = None, *, paths: Optional[Sequence[str]] = None,
          device: str = "cpu", input_spec=None, extra_inputs: Sequence = (), seed: int = 0,
          onnx_opset: Optional[int] = None, isolate: bool = True, timeout: float = DEFAULT_TIMEOUT,
          localize: bool = True) -> CheckReport:
    """Run ``model`` along every conversion path of its framework and compare each with eager mode.

    ``args`` and ``kwargs``: the inputs as you call the model: tensors of the model's framework or numpy arrays,
    nested in lists, tuples and dicts, anywhere (a tensor passed by keyword to a parameter that can also be
    given positionally included), and constants (None for an optional input, bools, ints, floats, strings),
    which every path gets as they are. ``paths``: path names such as ``["script", "trace"]`` (default: all of
    the framework's default paths). ``device``: ``cpu`` or ``cuda``.

    ``input_spec``: the shapes of the inputs with ``None`` for dynamic dims, nested like ``args`` (tuples
    of ints and None, or ``InputSpec``/``tf.TensorSpec`` objects); dynamic dims are exported as dynamic
    and resized in a derived input set. All dynamic dims share one size (a batch). Without it, dim 0 is
    dynamic when every input has the same size there.

    ``extra_inputs``: more input sets, each ``args`` or ``(args, kwargs)``.

    ``onnx_opset``: the ONNX opset the ONNX paths ask their exporters for (default: ``$CONFORMANCE_ONNX_OPSET``
    if set, else each exporter's own). Where the installed onnxruntime cannot load that opset, those paths are
    ``unsupported`` with ``detail.configuration`` and the report's :attr:`~CheckReport.configuration_errors`
    says why once: never a finding.

    ``isolate``: run each path in a process of its own (forked from a server that imported the framework), killed
    after ``timeout`` seconds: a hang is a ``timeout``, a segfault a ``crash``, and the next path runs anyway.
    ``localize``: on a mismatch, name the first submodule whose output differs (torch and Paddle: forward hooks
    on submodules, and the intermediate outputs of an ONNX file; see :mod:`conformance.triage.localize_models`).

    Returns a :class:`CheckReport`; raises :class:`CheckError` when the model or inputs cannot be checked.
    An exception of this project's own code along a path is that path's ``harness_error``, never a finding.
    """
    framework = detect_framework(model)
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
    call = bind_call(model, framework, map_tree(leaf_to_numpy, list(args)),
                     {k: map_tree(leaf_to_numpy, v) for k, v in (kwargs or {}).items()})
    np_args, kwargs = call.args, call.kwargs
    dyn_spec = input_spec if input_spec is not None else default_dynamic(np_args)
    leaf_specs = dyn_spec if dyn_spec is not None else [None] * len(np_args)
    specs = [signature_of(a, s, n) for a, s, n in zip(np_args, leaf_specs, call.names)]
    sizes = {v.shape[i] for spec_leaf, v in zip(spec_arrays(specs), arrays(np_args))
             for i, d in enumerate(spec_leaf.shape) if d == DYNAMIC}
    if len(sizes) > 1:
        raise CheckError(f"dynamic dims have different sizes {sorted(sizes)} in the example; conformance check "
                         f"supports one dynamic size (the batch): mark the others static in input_spec")
    program = Program(seed=seed, inputs=tuple(Input(n, s) for n, s in zip(call.names, specs)),
                      kwargs=tuple(Kwarg(k, type(v).__name__, v, (v,)) for k, v in kwargs.items()),
                      params=(), body=(), output=OutVar("output"), meta=(("model", type(model).__name__),))

    t0 = time.perf_counter()
    eager_model = fw.prepare(fresh_copy(framework, model), "cpu", False)
    prep = UserPrepared(fw, eager_model, to_fp64(framework, eager_model))
    notes = [] if prep.model64 is not None else [f"{framework} models cannot be cast to fp64: the reference is "
                                                  f"eager fp32 (rounding allowance from nudged inputs)"]
    missing = sourceless(model)
    if missing:
        notes.append(f"the source of {missing} cannot be read (defined by exec or in a REPL?): the paths that read "
                     f"source (such as TorchScript's script, Paddle's to_static) and fail for want of it are "
                     f"unsupported; the others run")
    input_sets = _eager_runs(prep, np_args, kwargs, extra_inputs, bool(sizes), seed, notes)
    prep.prepare_s = time.perf_counter() - t0

    case = Case(program, tuple(InputSet(r.role, r.batch, i, tuple(sorted(r.kwargs.items())))
                               for i, r in enumerate(prep.runs)))
    versions = fw.versions()
    if isolate and not _picklable(prep, notes):
        isolate = False
    # the conversions of this check write into a folder of its own: two models with the same inputs would
    # otherwise share one (a case's folder is named by its program, here the inputs' signature alone)
    workdir = tempfile.mkdtemp(prefix="conformance-check-")
    sources = in_memory_sources() if isolate else {}
    environment = {OPSET_ENV: None if opset is None else str(opset), CACHE_ENV: workdir}
    results = []
    for path in chosen:
        if path.id in refused:  # the runtime cannot load what the exporter would write: not run, not a finding
            record = ResultRecord.for_case(case, path.framework, path.name, device, versions)
            record.detail.configuration, record.detail.onnx = True, {"requested_opset": opset}
            record.finish("unsupported", f"configuration error: {refused[path.id]}")
        else:
            job = PathJob(framework, prep.model, prep.model64, prep.runs, case, path.id, registering_module(path),
                          device, versions, localize, environment, sources, missing,
                          pickled_path(path) if isolate else None)
            record = run_isolated(job, timeout) if isolate else run_job(job)
        record.case = None  # arrays of a user's model are not reproducible from a seed
        results.append(path_result(path.id, record))
    shutil.rmtree(workdir, ignore_errors=True)
    return CheckReport(type(model).__name__, framework, device, input_sets, results, notes,
                       list(dict.fromkeys(refused.values())))


def _eager_runs(prep: UserPrepared, np_args: list, kwargs: dict, extra_inputs: Sequence, dynamic: bool, seed: int,
                notes: list) -> list[str]:
    """Eager on the example, the extra input sets and the derived ones (``prep.runs``); the names of the sets."""
    rng = np.random.default_rng(seed)
    candidates = [("example", np_args, kwargs)]
    candidates += [("extra", *_extra(e, kwargs)) for e in extra_inputs]
    candidates += derive(np_args, kwargs, dynamic, rng)
    input_sets = []
    for role, a, kw in candidates:
        nudged = map_tree(lambda x: nudge(x, rng) if isinstance(x, np.ndarray) else x, a)
        try:
            (eager, ref, noise), _ = prep.eager(a, nudged, kw)
        except Exception as e:  # noqa: BLE001 - eager failing on the example is the user's to fix
            if role == "example":
                raise CheckError(f"eager mode fails on your example: {type(e).__name__}: {e}") from e
            notes.append(f"dropped a derived {role} input set: eager fails on it ({type(e).__name__}: "
                         f"{' '.join(str(e).split())[:120]})")
            continue
        batch = next((v.shape[0] for v in arrays(a) if v.ndim), 1) if dynamic else 1
        prep.runs.append(InputRun(len(prep.runs), role, a, nudged, kw, batch, eager, ref, noise,
                                  Stability(True, decisions=(("unprobed", len(prep.runs)),))))
        input_sets.append(role if role != "kwargs" else f"kwargs {json.dumps(_changed(kwargs, kw))}")
    return input_sets


def _picklable(prep: UserPrepared, notes: list) -> bool:
    """Whether the model can reach a path's own process (pickled, by value where it must be, and unpickled); if
    not, a note says so."""
    try:
        pickle.loads(dumps((prep.model, prep.model64)))
        return True
    except Exception as e:  # noqa: BLE001 - e.g. a model holding a lock or an open file
        notes.append(f"the model cannot be pickled ({type(e).__name__}: {' '.join(str(e).split())[:120]}): its paths "
                     f"ran in this process, without a time limit")
        return False


def _extra(item, kwargs: dict) -> tuple[list, dict]:
    if isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], dict):
        a, kw = item
    else:
        a, kw = item, {}
    return map_tree(leaf_to_numpy, list(a)), {**kwargs, **kw}


def _changed(base: dict, kw: dict) -> dict:
    return {k: v for k, v in kw.items() if base.get(k) != v}


def assert_conforms(model, args: Sequence, kwargs: Optional[dict] = None, *,
                    fail_on: Sequence[str] = ("mismatch",), **options) -> CheckReport:
    """One line for a test suite: :func:`check` the model and raise if a path has an outcome in ``fail_on``.

        def test_my_model_converts():
            conformance.assert_conforms(MyModel(), [x], {"use_act": True}, paths=["script", "export"])
    """
    return check(model, args, kwargs, **options).raise_on_mismatch(fail_on)
