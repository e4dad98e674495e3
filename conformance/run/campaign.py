"""Campaigns: generate cases from a seed and run them in isolated worker processes.

* **Deterministic**: case ``i`` of seed ``s`` is the same on every run and machine with the same
  Hypothesis version, whatever the number of workers (:mod:`conformance.run.stream`).
* **Planned case by case** (:mod:`conformance.run.plan`): the paths a user names judge every case; a default
  campaign shares the worker time by the costs measured in the run (:mod:`conformance.run.schedule`); a task on
  which a known bug has fired ``known_bug_limit`` times skips the programs that meet that bug's selector
  (:mod:`conformance.run.steering`, decided in case order from the records of earlier cases). Each case's tasks
  are written to ``plan.jsonl``, which ``resume`` follows.
* **Nothing the generator raises stops it**: a draw that raises is a ``harness_error`` record
  (:mod:`conformance.run.draws`) and the campaign goes on.
* **On budget**: once ``budget`` seconds have passed (counted from the first worker ready to run cases), no
  case starts, and each case in flight ends with the task it is running (``resume`` runs the rest).
* **Isolated**: cases run in worker processes that import the frameworks once. A worker that dies
  (segfault, abort) turns the path it was running into a ``crash`` record; one that runs past
  ``timeout`` seconds on a path is killed and the path becomes a ``timeout`` record. The worker is
  replaced and the case goes on with its remaining paths. A path that crashed a worker which had run other
  tasks before is run once more, first, in the fresh worker: a crash there too is the ``crash`` record; else the
  fresh run's record is kept, with the first crash in its ``detail.crashed_before`` (a framework whose state,
  left by earlier conversions, corrupts a later one: Paddle's,
  ``cases/standalone/paddle_segv_repeated_to_static.py``). With ``memory_gb``, each worker's address space is
  limited, and a path that allocates past it is a ``crash`` record too (the worker lives on).
* **Nothing lost**: each record is appended to ``results.jsonl`` and flushed as it arrives. With
  ``resume``, a campaign killed at any point (SIGKILL included) continues where it stopped: the
  (case, path, mode) tasks already recorded are skipped, and a line cut short by the kill is dropped.
* **Sharded**: ``shard=(i, n)`` runs only the cases whose index is ``i`` modulo ``n``, so n machines
  with the same seed cover the campaign once.
* **Shared findings**: with ``database`` (see :mod:`conformance.run.database`), every finding is saved there as
  it is found, and the findings already there are replayed first (records with negative indices: -1,
  -2 ... in the order of their case ids), on every shard and machine.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import sys
import time
from collections import deque
from dataclasses import dataclass, field
from multiprocessing.connection import wait
from pathlib import Path
from typing import Callable, Optional

from conformance.run.crashes import crash_site
from conformance.run.draws import DrawError, draw_error_records
from conformance.run.pool import Job, case_records, lost_records, lost_tasks, next_to_send, start_worker
from conformance.run.records import FINDINGS, ResultRecord, read_results, results_line
from conformance.run.stream import NOT_READY, every_statement, generate_cases

#: What the parent tells a worker whose case must end after the task in flight (the budget ran out).
STOP = "stop"


# ------------------------------------------------------------------ worker side


def _worker_main(conn, path_ids: list[str], device: str, log_path: str, modules: list[str],
                 memory_gb: Optional[float], onnx_opset: Optional[int] = None) -> None:
    start_worker(path_ids, log_path, modules, memory_gb, onnx_opset)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    conn.send(("ready", None))  # imports done: the parent starts the clock only now
    while True:
        try:
            msg = conn.recv()
        except EOFError:
            return
        if msg is None:
            return
        if msg == STOP:  # came after the case it was meant for had ended
            continue
        case_dict, wanted = msg  # wanted: task keys (runner.task_key), in order
        for record in case_records(case_dict, wanted, device, lambda key: conn.send(("start", key))):
            conn.send(("record", record))
            if conn.poll() and conn.recv() == STOP:  # the budget ran out: the case's other tasks wait for --resume
                break
        conn.send(("done", None))


# ------------------------------------------------------------------ parent side


class WorkerStartError(RuntimeError):
    """Worker processes keep dying before they are ready (a broken install or --load module)."""


@dataclass
class _Worker:
    proc: mp.Process
    conn: object
    log: Path
    job: Optional[Job] = None
    ready: bool = False
    spawned_at: float = field(default_factory=time.monotonic)
    stopping: bool = False  # told to end its case after the task in flight (the budget ran out)
    tasks: int = 0  # tasks it has recorded


@dataclass
class CampaignOptions:
    seed: int = 0
    budget: float = 120.0
    max_cases: Optional[int] = None
    paths: list = field(default_factory=list)  # PathRecord
    device: str = "cpu"
    workers: int = 1
    timeout: float = 120.0
    out: Path = Path("reports/latest")
    generator: dict = field(default_factory=dict)
    modules: list = field(default_factory=list)  # extra modules that register path records
    shard: tuple = (0, 1)  # (i, n): run the cases whose index is i modulo n
    memory_gb: Optional[float] = None  # address-space limit of each worker process
    resume: bool = False  # keep results.jsonl and skip the (case, path, mode) tasks it already has
    database: Optional[str] = None  # a shared findings database (conformance.run.database): replayed first, fed
    modes: tuple = ("infer",)  # what is compared with eager (conformance.paths.MODES), each path in each it has
    onnx_opset: Optional[int] = None  # the ONNX opset asked of every exporter (--onnx-opset); None: their defaults
    costs: Optional[dict] = None  # seconds per program by task key, for the schedule (None: run.costs.COSTS)
    sample: str = "all"  # "all": every task judges every case; "cost": worker time by cost (run.schedule)
    adapt: bool = True  # the schedule follows the costs measured in the run (False: ``costs`` alone, every run alike)
    known_bug_limit: int = 3  # fires of a known bug on a task before it skips programs that meet it (run.steering)


class ResumeError(RuntimeError):
    """The results being resumed were made by a campaign with other options (another seed...)."""


def recorded(results: Path) -> dict:
    """``{index: (case_id, {task keys})}`` of a results.jsonl; drops a last line cut short by a kill."""
    from conformance.run.runner import task_key

    done: dict = {}
    if not results.exists():
        return done
    data = results.read_bytes()
    if data and not data.endswith(b"\n"):  # the process died inside a write: that record is incomplete
        data = data[: data.rfind(b"\n") + 1]
        results.write_bytes(data)
    for record in read_results(results):
        case_id, keys = done.setdefault(record.index, (record.case_id, set()))
        keys.add(task_key(record.path_id, record.mode))
    return done


class Campaign:
    """Runs a campaign; ``on_record(record)`` is called for each record as it is written."""

    def __init__(self, options: CampaignOptions, on_record: Callable[[ResultRecord], None] = lambda r: None):
        self.options = options
        self.on_record = on_record
        self.ctx = mp.get_context("spawn")
        self.workers: list[_Worker] = []
        self.n_cases = 0
        self.spawned = 0
        self.startup_failures = 0
        self.t0: Optional[float] = None  # when the first worker became ready
        self.stopped = False
        from conformance.run.plan import planner_for

        #: which tasks judge which case, decided case by case and written to plan.jsonl (:mod:`conformance.run.plan`)
        self.planner = planner_for(options, lambda: None if self.t0 is None else time.monotonic() - self.t0)
        self.plan = self.planner.schedule

    def _spawn(self, slot: int) -> _Worker:
        parent, child = self.ctx.Pipe()
        self.spawned += 1
        log = self.options.out / "logs" / f"worker{slot}-{self.spawned}.log"  # one log per process
        log.parent.mkdir(parents=True, exist_ok=True)
        options = self.options
        worker_args = (child, [p.id for p in options.paths], options.device, str(log), list(options.modules),
                       options.memory_gb, options.onnx_opset)
        proc = self.ctx.Process(target=_worker_main, args=worker_args, daemon=True)
        proc.start()
        child.close()
        return _Worker(proc, parent, log)

    def _send(self, worker: _Worker, job: Job) -> None:
        job.current, job.started = None, time.monotonic()
        worker.job = job
        worker.conn.send((job.case.to_dict(), list(job.remaining)))

    def _receive(self, worker: _Worker, write) -> None:
        """Take every message the worker has sent (raises EOFError/OSError once it is gone)."""
        while worker.conn.poll():
            kind, payload = worker.conn.recv()
            now = time.monotonic()
            if kind == "ready":
                worker.ready = True
                if self.t0 is None:
                    self.t0 = now  # the budget counts from the first worker that can run cases
            elif kind == "start":
                worker.job.current, worker.job.started = payload, now
            elif kind == "record":
                write(worker.job.index, worker.job.take(payload, now))
                worker.tasks += 1
            else:  # done
                worker.job = None
                self.n_cases += 1

    def _lost(self, slot: int, outcome: str, why: str, write) -> None:
        """The worker in ``slot`` died or hung: record it, replace the worker, resume the case.

        What was in flight decides the record: a task (a path in a mode) gets ``outcome``; the eager
        reference of a framework (``prepare:<framework>``) takes all that framework's remaining tasks with it; a
        worker that never became ready, or had not been sent its case yet, records nothing.
        """
        worker = self.workers[slot]
        job = worker.job
        in_flight = job.current if job is not None and job.started is not None else None
        if worker.proc.is_alive():
            worker.proc.kill()
        worker.proc.join(5)
        try:  # records sent before it died still count
            self._receive(worker, write)
        except (EOFError, OSError):
            pass
        job = worker.job
        if not worker.ready:
            self.startup_failures += 1
            if self.startup_failures >= 3:
                tail = worker.log.read_text(errors="replace")[-2000:] if worker.log.exists() else ""
                raise WorkerStartError(f"worker processes die or hang while starting (exit code "
                                       f"{worker.proc.exitcode}); the end of {worker.log}:\n{tail}")
        else:
            self.startup_failures = 0
        self.workers[slot] = self._spawn(slot)
        if job is None:
            return
        if worker.ready and job.started is not None:
            code = worker.proc.exitcode
            lost, why = lost_tasks(job, in_flight or job.current or job.remaining[0], outcome, why, code, worker.tasks,
                                   str(worker.log))
            if lost:  # else rerun alone (job.crashed), or finished in the drain
                tail = worker.log.read_text(errors="replace")[-1500:] if worker.log.exists() else ""
                for record in lost_records(job, lost, outcome, why, self.options.device, code, tail,
                                           lambda fw: crash_site(job.case.program, fw, worker.log)):
                    write(job.index, record)
        if job.remaining:
            job.current, job.started = None, None
            self.workers[slot].job = job  # sent once the replacement says it is ready
        else:
            self.n_cases += 1

    def run(self) -> dict:
        options = self.options
        options.out.mkdir(parents=True, exist_ok=True)
        done = recorded(options.out / "results.jsonl") if options.resume else {}
        self.planner.open(options.out, options.resume)
        from conformance.run.runner import task_key, tasks_of

        keys = [task_key(p.id, mode) for p, mode in tasks_of(options.paths, options.modes)]
        db = None
        replays: list[Job] = []
        if options.database:
            from conformance.run.database import findings, open_database

            db = open_database(options.database)
            replays = replay_jobs(findings(db), keys, done)
        results = (options.out / "results.jsonl").open("a" if options.resume else "w")

        def write(index: int, record: ResultRecord) -> None:
            record.seed, record.index = options.seed, index
            results.write(results_line(record))
            results.flush()
            if db is not None and index >= 0 and record.outcome in FINDINGS:
                from conformance.run.database import publish

                publish(db, record)
            self.planner.observe(index, record)
            self.on_record(record)

        shard, shards = options.shard

        def counted(index: int):
            """Which statements of the case at ``index`` count as seen (the other shards' cases: every one)."""
            return self.planner.counted(index) if index % shards == shard else every_statement

        def avoided(index: int) -> tuple:
            """What the generator leaves out after the case at ``index`` (the other shards' cases: nothing)."""
            return self.planner.avoided(index) if index % shards == shard else ()

        def numbered():
            index = 0
            for case in generate_cases(options.seed, counted=counted, avoided=avoided, **options.generator):
                if case is NOT_READY:
                    yield None, case
                    continue
                if index % shards == shard:
                    yield index, case
                index += 1

        stream = numbered()

        def next_job():
            """The next shared finding to replay, else the next case of this shard with paths left to run
            (None past ``max_cases``; :data:`NOT_READY` while the stream waits for a decision on a case running)."""
            if replays:
                return replays.pop(0)
            for index, case in stream:
                if case is NOT_READY:
                    return case
                if options.max_cases is not None and index >= options.max_cases:
                    return None
                case_id, have = done.get(index, (case.id, set()))
                if case_id != case.id:
                    raise ResumeError(f"case {index} in {options.out / 'results.jsonl'} is {case_id}, this campaign's "
                                      f"is {case.id}: resume with the seed and options that made those results")
                if isinstance(case, DrawError):  # the generator raised: a harness_error record, and on
                    for record in [] if have else draw_error_records(case, options.paths, options.modes,
                                                                     options.device, options.seed, index):
                        write(index, record)
                    continue
                job = Job(index, case, self.planner.candidates(index, case, index // shards, have))
                if job.remaining and (not self.planner.settle(job) or job.remaining):  # settled now, or when sent
                    return job
            return None

        try:
            self.run_jobs(next_job, write)
        finally:
            results.close()
            self.planner.close()
        elapsed = time.monotonic() - self.t0 if self.t0 is not None else 0.0
        return {"cases": self.n_cases, "elapsed_s": elapsed, "interrupted": self.stopped}

    def run_jobs(self, next_job: Callable[[], Optional[Job]], write: Callable[[int, ResultRecord], None]) -> None:
        """The worker pool: run the jobs ``next_job`` gives (None: no more) until they or the budget run out, and
        ``write(index, record)`` each record. Here, on worker processes of this machine (on a cluster:
        :class:`conformance.run.cluster.ClusterCampaign`)."""
        options = self.options
        self.workers = [self._spawn(i) for i in range(max(1, options.workers))]
        exhausted = False
        # cases drawn ahead, in order, while the workers start and run (drawing a case overlaps their work)
        ahead: deque = deque()
        drained = False
        try:
            while True:
                out_of_time = (self.t0 is not None and time.monotonic() - self.t0 >= options.budget) or exhausted \
                    or self.stopped
                for worker in self.workers:
                    if worker.ready and worker.job is not None and worker.job.started is None:
                        self._send(worker, worker.job)  # a case resumed after a crash or timeout
                    elif worker.ready and worker.job is None and not out_of_time:
                        job = next_to_send(self.planner, ahead, lambda: None if drained else next_job())
                        if job is None:
                            exhausted = out_of_time = True
                        elif job is not NOT_READY:
                            self._send(worker, job)
                if out_of_time and not any(worker.job is not None for worker in self.workers):
                    break
                if out_of_time and not exhausted:  # the budget ran out: each case ends with the task in flight
                    for worker in self.workers:
                        if worker.job is not None and worker.job.started is not None and not worker.stopping:
                            worker.stopping = True
                            worker.conn.send(STOP)
                while (not out_of_time and not drained and len(ahead) < 2 * len(self.workers)
                       and not any(w.conn.poll() for w in self.workers)):
                    job = next_job()
                    if job is NOT_READY:
                        break
                    drained = job is None
                    if job is not None:
                        ahead.append(job)
                wait([w.conn for w in self.workers] + [w.proc.sentinel for w in self.workers], timeout=1.0)
                for slot, worker in enumerate(list(self.workers)):
                    try:
                        self._receive(worker, write)
                    except (EOFError, OSError):
                        self._lost(slot, "crash", "the worker process died", write)
                        continue
                    now = time.monotonic()
                    if not worker.proc.is_alive():
                        self._lost(slot, "crash", "the worker process died", write)
                    elif not worker.ready and now - worker.spawned_at > max(options.timeout, 60.0):
                        self._lost(slot, "crash", "the worker process hung while starting", write)
                    elif (worker.job is not None and worker.job.started is not None
                          and now - worker.job.started > options.timeout):
                        self._lost(slot, "timeout", f"no result within {options.timeout:g} s", write)
        except KeyboardInterrupt:
            self.stopped = True
        finally:
            for worker in self.workers:
                try:
                    worker.conn.send(None)
                except (OSError, BrokenPipeError):
                    pass
            for worker in self.workers:
                worker.proc.join(3)
                if worker.proc.is_alive():
                    worker.proc.kill()


def replay_jobs(found, keys: list[str], done: dict) -> list[Job]:
    """Jobs replaying shared findings on this campaign's tasks (paths in modes): one per case, numbered
    -1, -2 ...; with ``--resume``, what an earlier run of this campaign already replayed (same case id) is
    skipped."""
    from conformance.run.runner import task_key

    by_case: dict[str, tuple] = {}
    for case, path, mode, _ in found:
        if task_key(path, mode) in keys:
            by_case.setdefault(case.id, (case, []))[1].append(task_key(path, mode))
    replayed: dict[str, set] = {}
    for index, (case_id, paths) in done.items():
        if index < 0:
            replayed.setdefault(case_id, set()).update(paths)
    jobs = []
    for k, (case_id, (case, paths)) in enumerate(by_case.items()):
        remaining = [k for k in keys if k in paths and k not in replayed.get(case_id, set())]
        if remaining:
            jobs.append(Job(-(k + 1), case, remaining))
    return jobs


def campaign_manifest(options: CampaignOptions, summary: dict, started: float, argv: Optional[list] = None) -> dict:
    """The run manifest written beside the results: what ran, where, with which versions."""
    import platform

    from conformance.paths.records import load_framework
    from conformance.version import __version__

    versions = {"conformance": __version__, "python": platform.python_version()}
    for fw in sorted({p.framework for p in options.paths}):
        versions.update(load_framework(fw).versions())
    return {
        "seed": options.seed, "budget_s": options.budget, "device": options.device, "modes": list(options.modes),
        "workers": options.workers,
        "shard": f"{options.shard[0]}/{options.shard[1]}", "resumed": options.resume,
        "database": _redacted(options.database),
        "memory_limit_gb": options.memory_gb, "onnx_opset": options.onnx_opset,
        "timeout_s": options.timeout, "paths": [p.id for p in options.paths], "versions": versions,
        "machine": {"platform": platform.platform(), "cpus": os.cpu_count()},
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started)),
        "ended": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "command": list(argv if argv is not None else sys.argv), **summary,
    }


def _redacted(url: Optional[str]) -> Optional[str]:
    """A database URL without its password, for the manifest."""
    if url and "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        return f"{scheme}://***@{rest.rsplit('@', 1)[1]}"
    return url
