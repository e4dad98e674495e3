"""What runs localisation's candidates: in a worker process (:class:`LocalizeEvaluator`, the reducer's
:class:`~conformance.triage.evaluator.Evaluator` whose worker also tells eager's control-flow decisions), or
in this process (:class:`InProcess`, for ``check()`` and ``conformance replay --localize`` where the
framework is already imported).

Both are a :class:`~conformance.triage.localize.Runner`: ``runner(case, path_id, mode)`` is the record of
the case along the path (``runner.check``'s), and ``runner.decisions(case, framework)`` is, per input set,
eager's control-flow decisions ``(probe id, taken)`` in execution order (the fp64 probed run's).
"""

from __future__ import annotations

import os
import signal

from conformance.program.case import Case
from conformance.run.records import ResultRecord, split_path_id
from conformance.triage.evaluator import Evaluator

#: The modes a :class:`LocalizeEvaluator` sends to ask its worker for eager's decisions, or for the intermediate
#: outputs of the path's ONNX file on an input set (``@intermediates:<index>``), instead of a record.
DECISIONS = "@decisions"
INTERMEDIATES = "@intermediates:"


def eager_decisions(case: Case, framework: str) -> list[list]:
    """Per input set of ``case``, eager's control-flow decisions on it (see the module docstring)."""
    from conformance.run.runner import prepare

    return [list(run.stability.decisions) for run in prepare(case, framework).runs]


def _worker_main(conn, modules: list, device: str, log_path: str) -> None:
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    os.environ.setdefault("TORCHINDUCTOR_COMPILE_THREADS", "1")
    fd = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(fd, 1)  # what frameworks print (C++ too) goes to the log, not the terminal
    os.dup2(fd, 2)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    import importlib
    import traceback

    from conformance.paths.records import PATHS, load_framework
    from conformance.run.runner import check

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
            if mode == DECISIONS:
                reply = {"decisions": eager_decisions(case, framework)}
            elif mode.startswith(INTERMEDIATES):
                from conformance.triage.intermediates import onnx_intermediates

                reply = onnx_intermediates(case, pid, int(mode[len(INTERMEDIATES):]), device)
            else:
                reply = check(case, PATHS[pid], device, mode=mode)
        except Exception as e:  # noqa: BLE001 - the harness itself failed (check makes a record of the rest)
            reply = ResultRecord.for_case(case, framework, path, device, {}, "infer")
            reply.detail.traceback = traceback.format_exc()[-2000:]
            reply.finish("runtime_error", f"the localiser's worker failed: {type(e).__name__}: {e}")
        conn.send(reply)


class LocalizeEvaluator(Evaluator):
    """The reducer's evaluator (a worker process; a crash or a hang becomes a record) whose worker also
    answers :meth:`decisions`."""

    def _start(self) -> None:
        parent, child = self.ctx.Pipe()
        self.proc = self.ctx.Process(target=_worker_main, args=(child, self.modules, self.device, self.log),
                                     daemon=True)
        self.proc.start()
        child.close()
        self.conn = parent
        if not self.conn.poll(max(self.timeout, 120.0)) or self.conn.recv() != "ready":
            raise RuntimeError(f"the localiser's worker did not start (see {self.log})")

    def decisions(self, case: Case, framework: str) -> list[list]:
        reply = self(case, f"{framework}.eager", DECISIONS)
        if isinstance(reply, dict) and "decisions" in reply:
            return reply["decisions"]
        raise RuntimeError(f"eager failed in the worker: {reply['outcome']}: {reply['detail']['message']}")

    def intermediates(self, case: Case, finding: dict) -> dict:
        """What the intermediate outputs of the finding's converted ONNX file show (the localiser's fallback)."""
        from conformance.triage.localize import failing_input

        pid = f"{finding['framework']}.{finding['path']}"
        reply = self(case, pid, f"{INTERMEDIATES}{failing_input(finding)}")
        if isinstance(reply, dict) and "message" in reply:
            return reply
        return {"method": "onnx", "message": f"intermediate outputs failed: {reply['outcome']}: "
                                             f"{reply['detail']['message'][:300]}"}


class InProcess:
    """Runs candidates in this process (no isolation: for a framework already imported)."""

    def __init__(self, device: str = "cpu"):
        self.device = device
        self.runs = 0

    def __call__(self, case: Case, pid: str, mode: str = "infer") -> ResultRecord:
        from conformance.paths.records import PATHS, load_framework
        from conformance.run.runner import check

        self.runs += 1
        load_framework(split_path_id(pid)[0])
        return check(case, PATHS[pid], self.device, mode=mode)

    def decisions(self, case: Case, framework: str) -> list[list]:
        return eager_decisions(case, framework)

    def intermediates(self, case: Case, finding: dict) -> dict:
        from conformance.triage.intermediates import onnx_intermediates
        from conformance.triage.localize import failing_input

        return onnx_intermediates(case, f"{finding['framework']}.{finding['path']}", failing_input(finding),
                                  self.device)
