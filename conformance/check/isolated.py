"""Each path of a check in a process of its own, with a time limit: a path that hangs is a ``timeout``, one that
kills its process (a segfault, an abort) a ``crash``, and the paths after it still run on a clean process (one
path's conversions cannot corrupt the next's).

The processes are forked from a server that has imported the framework once (``multiprocessing``'s
``forkserver``), so a path's process starts in a fraction of a second; the model, its eager outputs and the case
reach it pickled (by value where that process could not import the model's module: :mod:`~conformance.check.shipped`),
with the source of code defined in a notebook cell. What the framework prints there goes to a log, whose tail a dead
path's record keeps."""

from __future__ import annotations

import contextlib
import functools
import os
import pickle
import signal
import sys
import tempfile
import time
import traceback
import types
from dataclasses import dataclass, field
from typing import Optional

from conformance.check.shipped import dumps, seed_sources, source_misses
from conformance.paths.records import FRAMEWORK_MODULES, PATHS, PathRecord, load_framework
from conformance.program.case import Case
from conformance.run.crashes import finish_lost, report_fatal_signals, signal_name
from conformance.run.records import ResultRecord


@dataclass
class PathJob:
    """What one path's process needs: the model (eager, and its fp64 copy or None), eager's input sets, the case,
    the path and where it was registered, and whether to localise a mismatch."""

    framework: str
    model: object
    model64: object
    runs: list
    case: Case
    pid: str
    path_module: Optional[str]
    device: str
    versions: dict
    localize: bool
    #: Environment variables the path runs with (None: unset): the ONNX opset asked for and the folder the
    #: conversion writes into (a process forked from the server does not see the caller's later changes).
    environment: dict
    #: Source that only the caller's memory holds (notebook cells): file name -> lines, for ``linecache`` there.
    sources: dict = field(default_factory=dict)
    #: The first of the model's methods that has no source at all (defined by ``exec`` or in a REPL), or None.
    sourceless: Optional[str] = None
    #: The path's record pickled (:func:`pickled_path`), for a path that importing ``path_module`` does not register
    #: (a conversion function registered by another module, e.g. a wrapper of a real path).
    path_record: Optional[bytes] = None


def registering_module(path: PathRecord) -> Optional[str]:
    """The module that defines ``path``'s conversion (imported first in a path's process, so a path registered
    by the caller's own module exists there too)."""
    fn = path.convert
    while isinstance(fn, functools.partial):
        fn = fn.func
    return getattr(fn, "__module__", None)


def pickled_path(path: PathRecord) -> Optional[bytes]:
    """``path`` pickled (by value where it must be), or None where it cannot be."""
    try:
        return dumps(path)
    except Exception:  # noqa: BLE001 - then the path's process has only the registry to find it in
        return None


def run_job(job: PathJob) -> ResultRecord:
    """Convert, run and judge one path (in this process), and localise a mismatch to a submodule."""
    import importlib

    from conformance.check.prepared import UserPrepared
    from conformance.paths.records import PATHS, load_framework
    from conformance.run.runner import run_path

    fw = load_framework(job.framework)
    fw.setup()
    if job.pid not in PATHS and job.path_module:
        importlib.import_module(job.path_module)
    path = PATHS[job.pid] if job.pid in PATHS or job.path_record is None else pickle.loads(job.path_record)
    prep = UserPrepared(fw, job.model, job.model64, job.runs)
    seed_sources(job.sources)
    with environment(job.environment):
        with source_misses(job.sourceless is not None) as misses:
            record = run_path(job.case, prep, path, job.device, job.versions)
        if failed_for_want_of_source(record, job.sourceless, misses):
            return without_source(record, job.sourceless, misses)
        if record.outcome == "mismatch" and job.localize:
            record.detail.extra["localisation"] = localise(job, path)
    return record


#: What names the outcome of a path that failed for want of the model's source.
NO_SOURCE = ("no source: the path reads the model's source, and code defined by exec or in a REPL has none "
             "(a .py file or a notebook cell has)")
#: How a path fails that ran the model's code unconverted for want of its source, without asking ``inspect`` for
#: it: AutoGraph runs code compiled from a string (``exec``) as it is ("Permanently allowed: dynamic code"), and a
#: Python ``if`` on a tensor then raises this ("your source code may not be visible to AutoGraph").
UNCONVERTED_ERRORS = ("OperatorNotAllowedInGraphError",)


def failed_for_want_of_source(record: ResultRecord, sourceless: Optional[str], misses: list) -> bool:
    """Whether a path failed (an error, not a wrong result) on a model with no source (``sourceless`` names what
    lacks it) after asking for that source in vain (``misses``, from :func:`~conformance.check.shipped.source_misses`)
    or by running it unconverted (:data:`UNCONVERTED_ERRORS`)."""
    return bool(sourceless) and record.outcome in ("conversion_error", "runtime_error") and (
        bool(misses) or record.detail.message.split(":", 1)[0] in UNCONVERTED_ERRORS)


def without_source(record: ResultRecord, sourceless: str, misses: list) -> ResultRecord:
    """A path that failed for want of the model's source: ``unsupported``, saying so (the path's own error kept in
    ``detail.extra['error']``)."""
    record.detail.extra["error"] = record.detail.message
    record.detail.limitation = NO_SOURCE
    sought = ", ".join(dict.fromkeys(misses)) or sourceless
    return record.finish("unsupported", f"no source: {record.path} reads the source of {sought}, which is nowhere to "
                                        f"be found ({sourceless} was defined by exec or in a REPL?); the other paths "
                                        f"run without it")


@contextlib.contextmanager
def environment(values: dict):
    """``os.environ`` with ``values`` set (None: unset) meanwhile."""
    saved = {k: os.environ.get(k) for k in values}
    try:
        for k, v in values.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def localise(job: PathJob, path: PathRecord) -> dict:
    """The first submodule whose output differs along ``path`` (:func:`~conformance.triage.localize_models.
    localize_model`), as a dict; where it cannot be localised, why."""
    from conformance.check.calls import arrays
    from conformance.program.trees import flatten
    from conformance.run.runner import error_text
    from conformance.triage.localize_models import localize_model

    example = job.runs[0]
    if len(arrays(example.args)) != len(flatten(example.args)):
        return {"status": "unavailable", "message": "the model takes constants among its positional inputs: "
                                                    "submodule hooks are not run on such calls"}
    try:
        return localize_model(job.model, example.args, dict(example.kwargs), path, device=job.device).to_dict()
    except Exception as e:  # noqa: BLE001 - a diagnosis: the finding stands without it
        return {"status": "unavailable", "message": f"localisation failed: {error_text(e)[:300]}"}


def _child(conn, payload: bytes, log_path: str) -> None:
    fd = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(fd, 1)  # the framework's prints and C++ logs: into the log, not over the caller's output
    os.dup2(fd, 2)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    report_fatal_signals(fd)  # the framework the server imported may have put its own handlers in
    try:
        record = run_job(pickle.loads(payload))  # cloudpickle's output loads with pickle
        conn.send(("record", record))
    except BaseException:  # noqa: BLE001 - this project's own failure outside the judged loop: say where
        conn.send(("harness_error", traceback.format_exc()[-4000:]))
    finally:
        conn.close()


def _context(framework: str):
    """The ``forkserver`` context whose server has imported ``framework``. A process has one fork server, which
    imports its preloads when it starts: a server started for another framework is stopped first (a child forked
    from it would import this framework anew, seconds each, next to the other one: Paddle after TensorFlow
    segfaults), and the next process started starts one for ``framework``."""
    import multiprocessing as mp
    from multiprocessing import forkserver

    ctx = mp.get_context("forkserver")
    preload = ["conformance.check.isolated", FRAMEWORK_MODULES[framework]]
    server = forkserver._forkserver
    if server._preload_modules != preload:
        server._stop()  # nothing runs on it: each path's process is joined before the next starts
        ctx.set_forkserver_preload(preload)
    return ctx


def run_isolated(job: PathJob, timeout: float) -> ResultRecord:
    """:func:`run_job` in a process forked for this path alone, killed after ``timeout`` seconds."""
    ctx = _context(job.framework)
    payload = dumps(job)
    with tempfile.NamedTemporaryFile(prefix="conformance-check-", suffix=".log", delete=False) as log:
        log_path = log.name
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(child, payload, log_path), daemon=True)
    t0 = time.monotonic()
    with _without_main_script():
        proc.start()
    child.close()
    message = None
    try:
        if parent.poll(timeout):
            message = parent.recv()
    except (EOFError, OSError):
        message = None
    finally:
        if proc.is_alive() and message is None:
            proc.kill()
        proc.join(10)
        if proc.is_alive():
            proc.kill()
            proc.join(5)
        parent.close()
    elapsed = time.monotonic() - t0
    tail = _tail(log_path)
    if message is not None and message[0] == "record":
        record = message[1]
        if record.detail.output_tail is None and tail.strip():
            record.detail.output_tail = tail[-2000:]
        return record
    framework, name = job.pid.split(".", 1)
    record = ResultRecord.for_case(job.case, framework, name, job.device, job.versions)
    record.detail.stderr_tail = tail[-1500:] or None
    if message is not None:  # harness_error: this project's code failed around the path
        record.detail.traceback = message[1]
        last = message[1].strip().splitlines()[-1] if message[1].strip() else ""
        return record.finish("harness_error", f"this project's code raised {last[:400]} in the path's process")
    path, version, end = PATHS[job.pid], load_framework(framework).version(), tail[-1500:]
    if elapsed >= timeout:
        return finish_lost(record, path, "timeout", f"no result after {timeout:.0f} s: the path's process was killed",
                           None, end, job.case.program, version)
    code = proc.exitcode
    why = f"signal {signal_name(code)}" if signal_name(code) else f"exit code {code}"
    return finish_lost(record, path, "crash", f"the path's process died ({why}) without a result", code, end,
                       job.case.program, version)


@contextlib.contextmanager
def _without_main_script():
    """A path's process never runs the caller's main script again (as ``multiprocessing`` would, to import it): what
    the model needs from ``__main__`` reaches it by value."""
    saved = sys.modules["__main__"]
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:
        sys.modules["__main__"] = saved


def _tail(log_path: str, n: int = 4000) -> str:
    try:
        with open(log_path, "rb") as f:
            f.seek(0, os.SEEK_END)
            f.seek(max(0, f.tell() - n))
            text = f.read().decode(errors="replace")
        os.unlink(log_path)
        return text
    except OSError:
        return ""
