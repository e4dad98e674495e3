"""What every worker pool of a campaign shares, wherever its workers run (local processes:
:mod:`conformance.run.campaign`; Ray actors: :mod:`conformance.run.cluster`).

* :func:`start_worker`: the setup of a worker process, which then runs cases with :func:`case_records`;
* :class:`Job`: a case and the tasks (paths in modes) it has left, as the parent tracks it, and
  :func:`next_to_send`: the next one to give an idle worker;
* :func:`lost_tasks` and :func:`lost_records`: what a worker that died (``crash``) or hung (``timeout``) leaves
  behind: the record of the task it was running (the eager reference of a framework takes all that framework's
  remaining tasks with it), or, the first time a worker that had run other tasks crashes on a task, that task run
  again alone in a fresh worker (a crash of its own, or the state left by the others?).
"""

from __future__ import annotations

import os
import sys
from collections import deque
from dataclasses import dataclass, field
from typing import Callable, Iterator, Optional

from conformance.program.case import Case
from conformance.run.crashes import finish_lost, report_fatal_signals, signal_name
from conformance.run.records import ResultRecord
from conformance.run.stream import NOT_READY


def start_worker(path_ids: list[str], log_path: str, modules: list[str], memory_gb: Optional[float],
                 onnx_opset: Optional[int] = None) -> None:
    """Make this process a campaign worker: its limits and thread pools, its output to ``log_path``, the modules
    that register path records (``modules``) and the converters and runtimes of ``path_ids`` imported once."""
    from conformance.paths.onnx_opset import OPSET_ENV

    if onnx_opset is not None:  # --onnx-opset: every ConvertContext of this process asks the exporters for it
        os.environ[OPSET_ENV] = str(onnx_opset)
    else:
        os.environ.pop(OPSET_ENV, None)
    if memory_gb:  # an allocation past this fails (MemoryError) instead of taking the machine down
        import resource

        limit = int(memory_gb * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    # one core per worker: frameworks' own thread and compile pools would fight the other workers
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    os.environ.setdefault("TORCHINDUCTOR_COMPILE_THREADS", "1")
    fd = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(fd, 1)  # frameworks print to stdout/stderr from C++ too: keep it out of the terminal
    os.dup2(fd, 2)
    import importlib

    from conformance.paths.records import load_framework, select_paths

    for module in modules:
        importlib.import_module(module)
    frameworks = sorted({p.split(".")[0] for p in path_ids})
    select_paths(frameworks)
    for fw in frameworks:  # the converters and runtimes each record names (onnxscript takes seconds to import)
        load_framework(fw).versions()
    report_fatal_signals(fd)  # a crash's record names the statement it died in (run/crashes.py)
    sys.dont_write_bytecode = True  # each rendered model is imported once: no .pyc to write


def case_records(case_dict: dict, wanted: list[str], device: str,
                 on_path_start: Callable[[str], None]) -> Iterator[ResultRecord]:
    """The records of a case (its JSON form) on the tasks ``wanted`` (task keys, in order), run in this worker."""
    from conformance.paths.records import PATHS
    from conformance.run.runner import run_case, split_task_key

    tasks = [(PATHS[p], mode) for p, mode in map(split_task_key, wanted)]
    return run_case(Case.from_dict(case_dict), tasks, device, on_path_start=on_path_start)


@dataclass
class Job:
    """A case in a campaign, as the parent tracks it."""

    index: int
    case: Case
    remaining: list[str]  # task keys (runner.task_key) not recorded yet
    current: Optional[str] = None
    started: Optional[float] = None  # when the clock of the path in flight started (None: not sent yet)
    crashed: dict = field(default_factory=dict)  # task key: how it crashed a worker that had run other tasks

    def take(self, record: ResultRecord, now: float) -> ResultRecord:
        """``record`` of one of this job's tasks, as a worker sent it: the task is done."""
        from conformance.run.runner import task_key

        key = task_key(record.path_id, record.mode)
        if key in self.crashed:
            record.detail.extra["crashed_before"] = self.crashed[key]
        self.remaining = [k for k in self.remaining if k != key]
        self.current, self.started = None, now
        return record


def next_to_send(planner, held: deque, pull: Callable[[], object]):
    """The next case with tasks left to run, for an idle worker: the first of ``held`` (drawn cases not settled yet,
    in order), else the next ``pull()`` gives (None: no more cases; :data:`~conformance.run.stream.NOT_READY`: the
    stream waits for cases running). ``planner`` settles its tasks first
    (:meth:`~conformance.run.plan.Planner.settle`): while cases before it still running decide them, it goes back
    to ``held`` and this returns NOT_READY. A case left with no task (each steered away from a known bug) is passed
    over for the next one: the worker is not left idle while a case could run."""
    while True:
        job = held.popleft() if held else pull()
        if job is None or job is NOT_READY:
            return job
        if not planner.settle(job):
            held.appendleft(job)
            return NOT_READY
        if job.remaining:
            return job


def exit_text(code: Optional[int], outcome: str) -> str:
    """How a lost worker ended, for its record's message: `` (signal SIGSEGV)``, `` (exit code 1)``."""
    if code is not None and code < 0:
        return f" (signal {signal_name(code)})"
    return f" (exit code {code})" if code is not None and outcome == "crash" else ""


def lost_tasks(job: Job, in_flight: str, outcome: str, why: str, code: Optional[int], tasks_before: int,
               log: str) -> tuple[list[str], str]:
    """The tasks of ``job`` lost with a worker that died (``crash``) or hung (``timeout``) while running
    ``in_flight`` (a task key, or ``prepare:<framework>``) after ``tasks_before`` other tasks, and the message of
    their records. A task that crashed a worker which had run other tasks is, the first time, not lost: it moves
    to the front of ``job.remaining``, to run alone in a fresh worker."""
    if in_flight.startswith("prepare:"):
        fw = in_flight.split(":", 1)[1]
        return [p for p in job.remaining if p.startswith(fw + ".")], f"{why} while running the {fw} eager reference"
    lost = [in_flight] if in_flight in job.remaining else []  # else it finished in the drain
    if outcome == "crash" and tasks_before and lost and in_flight not in job.crashed:
        # run it again alone in a fresh worker, first: a crash of its own, or the state left by others?
        job.crashed[in_flight] = (f"{why}{exit_text(code, outcome)} after {tasks_before} other task(s) in that "
                                  f"process (log: {log})")
        job.remaining = [in_flight] + [k for k in job.remaining if k != in_flight]
        return [], why
    return lost, why


def lost_records(job: Job, lost: list[str], outcome: str, why: str, device: str, code: Optional[int], tail: str,
                 site: Callable[[str], str]) -> Iterator[ResultRecord]:
    """The records of ``lost`` tasks of ``job`` (:func:`lost_tasks`), whose worker ended with exit code ``code``
    (a negative signal number, or None) and wrote ``tail`` last; ``site(framework)`` says where in the program a
    crash happened (:func:`~conformance.run.crashes.crash_site`). They leave ``job.remaining``."""
    if not lost:
        return
    from conformance.paths.records import PATHS, load_framework
    from conformance.run.runner import split_task_key

    why += exit_text(code, outcome)
    if any(key in job.crashed for key in lost):
        why += ", again when run alone in a fresh worker"
    job.remaining = [p for p in job.remaining if p not in lost]
    for key in lost:
        pid, mode = split_task_key(key)
        path = PATHS[pid]
        fw = load_framework(path.framework)
        record = ResultRecord.for_case(job.case, path.framework, path.name, device, fw.versions(), mode)
        record.detail.stderr_tail = tail
        where = site(path.framework) if outcome == "crash" else ""
        yield finish_lost(record, path, outcome, why + where, code, tail, job.case.program, fw.version())
