"""Each path of a check in a process of its own, with a time limit: a path that hangs is a ``timeout``, one that
kills its process (a segfault, an abort) a ``crash``, and the paths after it still run on a clean process (one
path's conversions cannot corrupt the next's).

The processes are forked from a server that has imported the framework once (``multiprocessing``'s
``forkserver``), so a path's process starts in a fraction of a second; the model, its eager outputs and the case
reach it pickled. What the framework prints there goes to a log, whose tail a dead path's record keeps."""

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
from dataclasses import dataclass
from typing import Optional

from conformance.paths.records import FRAMEWORK_MODULES, PATHS, PathRecord, load_framework
from conformance.program.case import Case
from conformance.run.crashes import finish_lost, signal_name
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


def registering_module(path: PathRecord) -> Optional[str]:
    """The module that defines ``path``'s conversion (imported first in a path's process, so a path registered
    by the caller's own module exists there too)."""
    fn = path.convert
    while isinstance(fn, functools.partial):
        fn = fn.func
    return getattr(fn, "__module__", None)


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
    path = PATHS[job.pid]
    prep = UserPrepared(fw, job.model, job.model64, job.runs)
    with environment(job.environment):
        record = run_path(job.case, prep, path, job.device, job.versions)
        if record.outcome == "mismatch" and job.localize:
            record.detail.extra["localisation"] = localise(job, path)
    return record


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
    try:
        record = run_job(pickle.loads(payload))
        conn.send(("record", record))
    except BaseException:  # noqa: BLE001 - this project's own failure outside the judged loop: say where
        conn.send(("harness_error", traceback.format_exc()[-4000:]))
    finally:
        conn.close()


@functools.lru_cache(maxsize=None)
def _context(framework: str):
    import multiprocessing as mp

    ctx = mp.get_context("forkserver")
    ctx.set_forkserver_preload(["conformance.check.isolated", FRAMEWORK_MODULES[framework]])
    return ctx


def run_isolated(job: PathJob, timeout: float) -> ResultRecord:
    """:func:`run_job` in a process forked for this path alone, killed after ``timeout`` seconds."""
    ctx = _context(job.framework)
    payload = pickle.dumps(job)
    with tempfile.NamedTemporaryFile(prefix="conformance-check-", suffix=".log", delete=False) as log:
        log_path = log.name
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(child, payload, log_path), daemon=True)
    t0 = time.monotonic()
    with _main_module_if_needed(job.model):
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
def _main_module_if_needed(model):
    """A path's process imports the caller's main script only where the model's class is defined there (then the
    script must guard its own work with ``if __name__ == "__main__":``, as every ``multiprocessing`` user does):
    otherwise the script would run again in every path's process."""
    if type(model).__module__ == "__main__":
        yield
        return
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
