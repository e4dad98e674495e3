"""Run cases along a path in a worker process for the reducer: a crash or a hang becomes a record.

The worker imports the frameworks once and runs :func:`conformance.run.runner.check` (the runner's one
convert, run and judge loop) on each candidate, so a path that crashes or hangs costs a restart of the
worker, not the triage.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import signal

from conformance.program.case import Case
from conformance.run.crashes import report_fatal_signals
from conformance.run.records import ResultRecord, split_path_id


def run_check(case: Case, pid: str, mode: str, device: str) -> ResultRecord:
    """The record of ``case`` along path ``pid`` in runner ``mode``: what an :class:`Evaluator`'s worker answers."""
    from conformance.paths.records import PATHS
    from conformance.run.runner import check

    return check(case, PATHS[pid], device, mode=mode)


def _worker_main(conn, modules: list, device: str, log_path: str, answer, name: str) -> None:
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    os.environ.setdefault("TORCHINDUCTOR_COMPILE_THREADS", "1")
    fd = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(fd, 1)  # what frameworks print (C++ too) goes to the log, not the terminal
    os.dup2(fd, 2)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    import importlib
    import traceback

    from conformance.paths.records import load_framework

    for module in modules:
        importlib.import_module(module)
    conn.send("ready")
    while True:
        try:
            msg = conn.recv()
        except EOFError:
            return
        if msg is None:
            return
        case, pid, mode = msg
        framework, path = split_path_id(pid)
        try:
            load_framework(framework)
            report_fatal_signals(fd)  # a framework imported just now may have put its own handlers in
            reply = answer(case, pid, mode, device)
        except Exception as e:  # noqa: BLE001 - the harness itself failed (check makes a record of the rest)
            reply = ResultRecord.for_case(case, framework, path, device, {}, _record_mode(mode))
            reply.detail.traceback = traceback.format_exc()[-2000:]
            reply.finish("runtime_error", f"the {name}'s worker failed: {type(e).__name__}: {e}")
        conn.send(reply)


def _record_mode(mode: str) -> str:
    """The mode of a record made for a request (a request that is not a runner mode, like ``@decisions``: infer)."""
    return "infer" if mode.startswith("@") else mode


class Evaluator:
    """Runs cases along a path in a worker process; a crash or a hang becomes a record.

    ``modules`` are imported in the worker first (modules that register more paths, like a
    campaign's ``--load``). Use as a context manager, or call :meth:`close`.
    """

    #: What the worker answers a request ``(case, path id, mode)`` with: ``answer(case, pid, mode, device)``, a
    #: module-level function (the worker is spawned); a subclass may answer more than records.
    answer = staticmethod(run_check)
    #: Whose worker it is, in the message of a record made when the harness itself fails.
    name = "reducer"

    def __init__(self, modules: tuple = (), device: str = "cpu", timeout: float = 120.0, log: str = os.devnull):
        self.modules, self.device, self.timeout, self.log = list(modules), device, timeout, log
        self.ctx = mp.get_context("spawn")
        self.proc = self.conn = None
        self.runs = 0

    def _start(self) -> None:
        parent, child = self.ctx.Pipe()
        self.proc = self.ctx.Process(target=_worker_main, daemon=True,
                                     args=(child, self.modules, self.device, self.log, self.answer, self.name))
        self.proc.start()
        child.close()
        self.conn = parent
        if not self.conn.poll(max(self.timeout, 120.0)) or self.conn.recv() != "ready":
            raise RuntimeError(f"the {self.name}'s worker did not start (see {self.log})")

    def __call__(self, case: Case, pid: str, mode: str = "infer") -> ResultRecord:
        """The record of ``case`` along path ``pid`` in runner ``mode``: ``runner.check``'s, or a
        ``crash``/``timeout`` one."""
        if self.proc is None or not self.proc.is_alive():
            self._start()
        self.runs += 1
        try:
            self.conn.send((case, pid, mode))
            if self.conn.poll(self.timeout):
                return self.conn.recv()
            outcome, message = "timeout", f"ran past {self.timeout:g} s"
        except (EOFError, OSError):
            outcome, message = "crash", "the process died"
        self.proc.kill()
        self.proc.join(5)
        code = self.proc.exitcode
        if outcome == "crash" and code is not None and code < 0:
            try:
                message += f" (signal {signal.Signals(-code).name})"
            except ValueError:
                message += f" (signal {-code})"
        self.proc = None
        framework, path = split_path_id(pid)
        return ResultRecord.for_case(case, framework, path, self.device, {}, _record_mode(mode)).finish(outcome,
                                                                                                         message)

    def close(self) -> None:
        if self.proc is not None and self.proc.is_alive():
            try:
                self.conn.send(None)
            except OSError:
                pass
            self.proc.join(5)
            if self.proc.is_alive():
                self.proc.kill()
        self.proc = None

    def __enter__(self) -> "Evaluator":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
