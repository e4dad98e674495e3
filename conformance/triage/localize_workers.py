"""What runs localisation's candidates: in a worker process (:class:`LocalizeEvaluator`, the reducer's
:class:`~conformance.triage.evaluator.Evaluator` whose worker also tells eager's control-flow decisions), or
in this process (:class:`InProcess`, for ``check()`` and ``conformance replay --localize`` where the
framework is already imported).

Both are a :class:`~conformance.triage.localize.Runner`: ``runner(case, path_id, mode)`` is the record of
the case along the path (``runner.check``'s), and ``runner.decisions(case, framework)`` is, per input set,
eager's control-flow decisions ``(probe id, taken)`` in execution order (the fp64 probed run's).
"""

from __future__ import annotations

from conformance.program.case import Case
from conformance.run.records import ResultRecord, split_path_id
from conformance.triage.evaluator import Evaluator, run_check

#: The modes a :class:`LocalizeEvaluator` sends to ask its worker for eager's decisions, or for the intermediate
#: outputs of the path's ONNX file on an input set (``@intermediates:<index>``), instead of a record.
DECISIONS = "@decisions"
INTERMEDIATES = "@intermediates:"


def eager_decisions(case: Case, framework: str) -> list[list]:
    """Per input set of ``case``, eager's control-flow decisions on it (see the module docstring)."""
    from conformance.run.runner import prepare

    return [list(run.stability.decisions) for run in prepare(case, framework).runs]


def localizer_answer(case: Case, pid: str, mode: str, device: str):
    """What a :class:`LocalizeEvaluator`'s worker answers: eager's decisions (``@decisions``), the intermediate
    outputs of the path's ONNX file (``@intermediates:<index>``), else the record of the case along the path."""
    framework = split_path_id(pid)[0]
    if mode == DECISIONS:
        return {"decisions": eager_decisions(case, framework)}
    if mode.startswith(INTERMEDIATES):
        from conformance.triage.intermediates import onnx_intermediates

        return onnx_intermediates(case, pid, int(mode[len(INTERMEDIATES):]), device)
    return run_check(case, pid, mode, device)


class LocalizeEvaluator(Evaluator):
    """The reducer's evaluator (a worker process; a crash or a hang becomes a record) whose worker also
    answers :meth:`decisions` and :meth:`intermediates` (:func:`localizer_answer`)."""

    answer = staticmethod(localizer_answer)
    name = "localiser"

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
        from conformance.paths.records import load_framework

        self.runs += 1
        load_framework(split_path_id(pid)[0])
        return run_check(case, pid, mode, self.device)

    def decisions(self, case: Case, framework: str) -> list[list]:
        return eager_decisions(case, framework)

    def intermediates(self, case: Case, finding: dict) -> dict:
        from conformance.triage.intermediates import onnx_intermediates
        from conformance.triage.localize import failing_input

        return onnx_intermediates(case, f"{finding['framework']}.{finding['path']}", failing_input(finding),
                                  self.device)
