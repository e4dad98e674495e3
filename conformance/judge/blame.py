"""Which component a wrong result or an error of a deployment path comes from: "is it the converter or the
runtime?", the first question asked in the converters' trackers.

A path's artifact is run again along a *ladder* of :class:`Rung` s, from the one that leaves out every
component but the first to the one the path ran; each rung adds one component, named as data. For an
ONNX file (:func:`onnx_rungs`):

===================================  ==========================  =============================================
rung                                 adds the component          what it runs
===================================  ==========================  =============================================
``onnx.reference``                   ``exporter``                the graph as written, by the operators'
                                                                 specification (``ReferenceEvaluator``)
``onnxruntime ORT_DISABLE_ALL``      ``onnxruntime.kernel``      onnxruntime's kernels, graph optimisations off
``onnxruntime ORT_ENABLE_ALL``       ``onnxruntime.optimizer``   what the ONNX paths run
===================================  ==========================  =============================================

Each rung's outputs are judged against eager by the same oracle as the path (:func:`decide`). The
blamed component is the one added by the first rung from which on every rung is wrong (the rungs before
it agree with eager): the exporter when the reference evaluator already disagrees with eager *and* a
later rung computes what it computes (an interpreter alone may be wrong itself), onnxruntime's optimiser
when only the optimised session diverges, an onnxruntime kernel when both sessions diverge while the
reference evaluator agrees with eager. Errors climb the same ladder (which rung fails first); a file that
``onnx.checker`` rejects and onnxruntime refuses to load is the exporter's. Where a rung that would decide
cannot run (the reference evaluator lacks an operator), the verdict is undecided and says why.

OpenVINO (frontend, then its CPU plugin) and the Paddle predictor (IR optimisation off, then on) are other
ladders of the same :class:`Rung` s.
"""

from __future__ import annotations

import os
import shutil
import signal
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

import numpy as np

from conformance.judge.modes import structure_failure
from conformance.judge.oracle import Report, diagnose
from conformance.paths.onnx_opset import file_refusal, model_versions, runtime_version
from conformance.paths.onnx_runtimes import (
    ReferenceCannotRun,
    check_model,
    graph_inputs,
    onnxruntime_session,
    output_types,
    reference_evaluator,
    reproduce,
    run_reference,
    run_session,
)
from conformance.paths.records import module_versions
from conformance.paths.standalone import standalone_source
from conformance.program.trees import flatten, unflatten

#: Component ids a verdict may name (data: deployment ladders add theirs), with what each one is.
COMPONENTS = {
    "exporter": "the converter that wrote the ONNX file (torch.onnx.export, paddle2onnx, tf2onnx)",
    "onnxruntime.kernel": "onnxruntime's kernels (and graph loading), graph optimisations off",
    "onnxruntime.optimizer": "onnxruntime's graph optimisations (ORT_ENABLE_ALL over ORT_DISABLE_ALL)",
}

#: What a rung did: computed what eager computes, computed something else, raised, or cannot judge this
#: artifact at all (an interpreter without an operator).
AGREES, DIVERGES, FAILS, CANNOT_RUN = "agrees", "diverges", "fails", "cannot_run"
#: Two rungs compute "the same" result at the ONNX backend tests' rtol (1e-3) and ``assert_close``'s float32
#: atol: both sides are implementations of one graph, so this only has to tell one wrong answer from another.
AGREE_RTOL, AGREE_ATOL = 1e-3, 1e-5


@dataclass(frozen=True)
class Rung:
    """One way to run an artifact. ``load()`` returns ``run(feed) -> flat list of numpy outputs``; an
    exception of one of ``cannot_run``'s types (in loading or running) means this rung cannot judge the
    artifact, any other that it fails on it. ``corroborate``: an interpreter that may be wrong itself, so
    its disagreement with eager blames ``component`` only when a later rung computes (or fails) the same."""

    name: str
    component: str
    load: Callable[[], Callable[[dict], list]]
    cannot_run: tuple = ()
    corroborate: bool = False


@dataclass
class RungResult:
    name: str
    component: str
    status: str
    detail: str = ""
    phase: str = ""  # where a failing rung failed: "load" or "run"
    seconds: float = 0.0
    outputs: Optional[list] = field(default=None, repr=False)
    corroborate: bool = False  # the rung's flag (see :class:`Rung`)

    def to_dict(self) -> dict:
        return {"name": self.name, "component": self.component, "status": self.status, "detail": self.detail,
                **({"phase": self.phase} if self.phase else {}), "seconds": round(self.seconds, 4)}


@dataclass
class Blame:
    """The verdict: ``component`` (one of :data:`COMPONENTS`' ids, or None: undecided, or a configuration
    error) and why, with what each rung did."""

    component: Optional[str]
    reason: str
    rungs: list = field(default_factory=list)
    configuration: bool = False  # the runtime cannot load the file at all: a configuration error
    versions: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        """JSON-ready, for a result record's ``detail.blame``."""
        return {"component": self.component, "reason": self.reason, "configuration": self.configuration,
                "rungs": [r.to_dict() for r in self.rungs], "versions": dict(self.versions)}

    @property
    def label(self) -> str:
        """A short name for triage buckets and the dashboard: the component, or ``undecided``."""
        return self.component or ("configuration" if self.configuration else "undecided")


def label_of(blame: Optional[dict]) -> Optional[str]:
    """What triage buckets and the dashboard show for a record's ``detail.blame`` (:meth:`Blame.to_dict`): the
    component, ``configuration`` or ``undecided``; None for a record without one."""
    if not blame:
        return None
    return blame.get("component") or ("configuration" if blame.get("configuration") else "undecided")


def agree(a: Optional[list], b: Optional[list]) -> bool:
    """Do two rungs compute the same flat outputs (at :data:`AGREE_RTOL`, :data:`AGREE_ATOL`)?"""
    if a is None or b is None or len(a) != len(b):
        return False
    return all(diagnose(np.asarray(x), np.asarray(y), rtol=AGREE_RTOL, atol=AGREE_ATOL).ok for x, y in zip(a, b))


def judge_against(eager, reference=None, noise=None) -> Callable[[list], Report]:
    """The oracle's verdict on flat outputs against eager's output tree (and its fp64 reference and noise),
    as the runner judges an ONNX path's :class:`~conformance.paths.FlatOutputs`."""

    def judge(outputs: list) -> Report:
        if len(outputs) != len(flatten(eager)):
            return structure_failure(f"{len(outputs)} outputs, eager has {len(flatten(eager))}")
        return diagnose(unflatten(eager, list(outputs)), eager, reference, noise=noise)
    return judge


def climb(rungs: list, feed: dict, judge: Callable[[list], Report]) -> list:
    """Run every rung on ``feed`` and judge its outputs against eager: one :class:`RungResult` each."""
    results = []
    for rung in rungs:
        t0 = time.perf_counter()
        phase = "load"
        try:
            run = rung.load()
            phase = "run"
            outputs = run(feed) if run is not None else None
        except Exception as e:  # noqa: BLE001 - what a rung raises is the evidence
            status = CANNOT_RUN if isinstance(e, tuple(rung.cannot_run)) else FAILS
            text = " ".join(f"{type(e).__name__}: {e}".split())[:600]
            results.append(RungResult(rung.name, rung.component, status, text, phase, time.perf_counter() - t0,
                                      corroborate=rung.corroborate))
            continue
        report = judge(outputs)
        results.append(RungResult(rung.name, rung.component, AGREES if report.ok else DIVERGES,
                                  "" if report.ok else report.summary()[:600], "", time.perf_counter() - t0, outputs,
                                  rung.corroborate))
    return results


def decide(results: list, invalid: str = "") -> tuple[Optional[str], str]:
    """``(component or None, reason)`` from the rungs' results, the last being what the path ran.

    ``invalid``: why a validator (``onnx.checker``) rejects the artifact ("" if it accepts it); a rung that
    fails to *load* an invalid artifact blames the first rung's component (the exporter wrote it)."""
    observed = results[-1]
    if observed.status == AGREES:
        return None, f"not reproduced: {observed.name} agrees with eager when run again (nondeterministic?)"
    if observed.status == CANNOT_RUN:
        return None, f"{observed.name} cannot run here: {observed.detail}"
    last_good = max((i for i, r in enumerate(results) if r.status == AGREES), default=-1)
    rest = results[last_good + 1:]
    first_at = next(i for i, r in enumerate(rest) if r.status in (DIVERGES, FAILS))
    first = rest[first_at]
    gap = [r for r in rest[:first_at] if r.status == CANNOT_RUN]
    notes = [f"{r.name} {'disagrees with eager' if r.status == DIVERGES else 'fails'} too, yet a later rung agrees "
             f"with eager: a fault of its own" for r in results[:max(last_good, 0)] if r.status in (DIVERGES, FAILS)]
    before = f"{results[last_good].name} agrees with eager; " if last_good >= 0 else ""
    what = "computes something else than eager" if first.status == DIVERGES else f"fails ({first.phase})"
    if gap:
        return None, (f"{' or '.join([r.component for r in gap] + [first.component])}: {gap[0].name} cannot run "
                      f"this ({gap[0].detail[:200]}), so it cannot tell them apart; {first.name} {what}")
    if invalid and first.status == FAILS and first.phase == "load" and first is not results[0]:
        return results[0].component, (f"the file is not valid ONNX ({invalid[:300]}) and {first.name} refuses to "
                                      f"load it")
    reason = f"{before}{first.name} {what}"
    if first.corroborate:
        later = rest[first_at + 1:]
        backers = [r for r in later if r.status == first.status
                   and (first.status == FAILS or agree(first.outputs, r.outputs))]
        if not backers:
            return None, (f"{first.name} {what}, but no later rung computes the same: more than one component "
                          f"diverges, or {first.name} is wrong itself")
        reason += f", and {backers[0].name} " + ("computes the same" if first.status == DIVERGES else "fails too")
    return first.component, "; ".join([reason] + notes)


#: Seconds the ONNX reference evaluator (pure Python) may take on one input set of a blame: a graph with loops can
#: take minutes there, and a diagnosis must not turn a path's record into a timeout. Past it, the rung cannot judge.
REFERENCE_LIMIT_S = 20.0


@contextmanager
def _time_limit(seconds: float):
    """Raise :class:`ReferenceCannotRun` in the block after ``seconds`` (in the main thread, where signals arrive;
    elsewhere the block runs unbounded)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum, frame):
        raise ReferenceCannotRun(f"the reference evaluator ran past {seconds:g} s: too slow to judge this graph")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def onnx_rungs(path, session_factory: Callable = onnxruntime_session,
               evaluator_factory: Callable = reference_evaluator) -> list:
    """The ONNX ladder for the file at ``path``: the reference evaluator (at most :data:`REFERENCE_LIMIT_S` an input
    set), onnxruntime without and with graph optimisations. ``session_factory(path, optimise)`` and
    ``evaluator_factory(path)`` make the runtimes (self-tests plant faults through them)."""
    path = str(path)

    def reference():
        evaluator = evaluator_factory(path)
        types = output_types(path)

        def run(feed):
            with _time_limit(REFERENCE_LIMIT_S):
                return run_reference(evaluator, feed, types)
        return run

    def onnxruntime(optimise: bool):
        def load():
            session = session_factory(path, optimise)
            return lambda feed: run_session(session, feed)
        return load

    return [Rung("onnx.reference", "exporter", reference, cannot_run=(ReferenceCannotRun,), corroborate=True),
            Rung("onnxruntime ORT_DISABLE_ALL", "onnxruntime.kernel", onnxruntime(False)),
            Rung("onnxruntime ORT_ENABLE_ALL", "onnxruntime.optimizer", onnxruntime(True))]


def blame_onnx(path, feed: dict, judge: Callable[[list], Report], rungs: Optional[list] = None) -> Blame:
    """Which component makes the ONNX file at ``path`` compute something else than eager on ``feed`` (input
    name -> numpy array), or fail on it. ``judge(flat outputs) -> Report``: the oracle against eager
    (:func:`judge_against`). ``rungs``: :func:`onnx_rungs` of the file unless given."""
    versions = _versions()
    if not Path(path).exists():
        return Blame("exporter", "the exporter wrote no ONNX file", versions=versions)
    try:
        refused = file_refusal(path)
    except Exception as e:  # noqa: BLE001 - a file onnx cannot even parse
        return Blame("exporter", f"onnx cannot read the file: {type(e).__name__}: {str(e)[:300]}", versions=versions)
    if refused:
        ir_version, opsets = model_versions(path)
        return Blame(None, f"configuration error: onnxruntime {runtime_version()} cannot load ONNX opset "
                           f"{opsets.get('', '?')} (IR version {ir_version}): {refused[:300]}; see --onnx-opset",
                     configuration=True, versions=versions)
    unknown = sorted(set(graph_inputs(path)) - set(feed))
    if unknown:
        return Blame("exporter", f"the graph takes inputs {unknown} that are none of the model's tensor inputs "
                                 f"{sorted(feed)}", versions=versions)
    results = climb(rungs if rungs is not None else onnx_rungs(path), feed, judge)
    component, reason = decide(results, _validity(path))
    return Blame(component, reason, results, versions=versions)


def _validity(path) -> str:
    """Why ``onnx.checker`` rejects the file ("" if it accepts it, or cannot judge operators of other domains)."""
    _, opsets = model_versions(path)
    if set(opsets) - {"", "ai.onnx.ml"}:
        return ""
    try:
        check_model(path)
    except Exception as e:  # noqa: BLE001
        return " ".join(f"{type(e).__name__}: {e}".split())
    return ""


def _versions() -> dict:
    return module_versions("onnx", "onnxruntime")


def onnx_feed(names: list, args: list) -> dict:
    """The feed of an ONNX graph: the flat tensor inputs (numpy arrays) by name, as the ONNX paths name them
    (:attr:`~conformance.paths.ConvertContext.tensor_names`)."""
    return {name: np.asarray(leaf) for name, leaf in zip(names, flatten(list(args)))}


def onnx_file_of(artifact=None, workdir=None, since: float = 0.0) -> Optional[Path]:
    """The ONNX file behind a path's artifact (an :class:`~conformance.paths.ort.OrtModel`), or, where the
    conversion failed before making one, the newest ``.onnx`` file in ``workdir`` written since ``since``."""
    session = getattr(artifact, "session", None)
    for candidate in (getattr(artifact, "path", None), getattr(session, "_model_path", None)):
        if candidate and os.path.exists(candidate):
            return Path(candidate)
    if workdir is not None and Path(workdir).is_dir():
        files = [f for f in Path(workdir).rglob("*.onnx") if f.stat().st_mtime >= since]
        if files:
            return max(files, key=lambda f: f.stat().st_mtime)
    return None


def write_runtime_reproducer(blame: Blame, path, feed: dict, expected: list, directory) -> Path:
    """A reproducer for a runtime bug that needs only the ``.onnx`` file and the runtime: ``directory`` gets
    ``model.onnx``, ``inputs.npz`` (the feed), ``expected.npz`` (eager's flat outputs) and ``repro.py``,
    which runs the runtime both ways and on the reference evaluator and exits 1 while the bug is there. Its
    code is :func:`~conformance.paths.onnx_runtimes.reproduce`, copied."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(path, directory / "model.onnx")
    np.savez(directory / "inputs.npz", **feed)
    np.savez(directory / "expected.npz", *[np.asarray(e) for e in expected])
    header = (f'"""{blame.label}: {blame.reason}\n\nRun: python repro.py (needs numpy, onnx, onnxruntime '
              f'{blame.versions.get("onnxruntime", "")}); exit status 1 while the bug is there."""\n')
    main = (f'\n\nif __name__ == "__main__":\n    import sys\n\n'
            f'    sys.exit(reproduce(os.path.dirname(os.path.abspath(__file__)), {blame.component!r}))\n')
    source = standalone_source(reproduce)
    if "import os" not in source:
        source = "import os\n" + source
    (directory / "repro.py").write_text(header + source + main)
    return directory / "repro.py"
