"""Campaigns on a Ray cluster (``conformance fuzz --cluster ADDRESS``; ``pip install 'conformance[ray]'``).

The driver (the process that runs ``conformance fuzz``) draws the cases as a campaign on one machine does (same
seed, same cases, same order), owns ``results.jsonl`` and the findings database, and sends each case to a
long-lived Ray actor: a worker that imports its frameworks once, wherever Ray places it. Each actor asks for one
CPU, and one GPU with ``--device cuda`` (so CUDA cases land only on nodes with one). Ray does the placing and
reports the failures; the driver keeps the campaign's guarantees on top:

* a task that kills its actor (segfault, abort, Ray's memory monitor) is a ``crash`` record, with the signal and
  the end of the actor's log (read on its node), and the rerun-alone rule of the local pool: a task that crashed an
  actor which had run other tasks runs once more, first, in a fresh actor;
* a task past ``--timeout`` is a ``timeout`` record: its actor is killed (``ray.kill``) and replaced;
* a node that disappears takes no task with it: the case it was running goes on, on another node, from the first
  task not recorded (nothing is recorded as a crash of the framework);
* ``results.jsonl`` is written as on one machine, so ``--resume`` continues a campaign whose driver was killed.

Each record says where it ran (``ran_on``: the node, and whether the actor held a GPU); :func:`node_shares` sums the
worker time per node for the summary, the manifest and the dashboard.
"""

from __future__ import annotations

import os
import re
import signal
import tempfile
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

from conformance.run.campaign import Campaign, CampaignOptions, WorkerStartError
from conformance.run.crashes import TAIL_CHARS, crash_site
from conformance.run.pool import Job, case_records, lost_records, lost_tasks, next_to_send, start_worker
from conformance.run.records import ResultRecord
from conformance.run.stream import NOT_READY

#: What an actor writes to its log before each task (and each framework's eager reference): the post-mortem of
#: an actor reads the task it died in from there.
MARK = "conformance: running "
#: The fatal signals faulthandler names in the dump it writes to the log.
_FATAL_NAMES = {"Segmentation fault": "SIGSEGV", "Aborted": "SIGABRT", "Floating-point exception": "SIGFPE",
                "Bus error": "SIGBUS", "Illegal instruction": "SIGILL"}


class ClusterError(RuntimeError):
    """The cluster cannot run this campaign (Ray is not installed, unreachable, or lacks the resources)."""


def connect(address: str) -> None:
    """Join the Ray cluster at ``address`` as its driver: ``ray://HOST:PORT`` (Ray Client), ``HOST:PORT`` (the
    head's GCS, from a machine of the cluster) or ``auto`` (``RAY_ADDRESS``, else the cluster started on this
    machine). A process already connected stays connected where it is."""
    try:
        import ray
    except ImportError:
        raise ClusterError("--cluster needs Ray: pip install 'conformance[ray]'") from None
    if ray.is_initialized():
        return
    try:  # the actors' output goes to their own logs; what Ray itself says goes to this process's log
        ray.init(address=address, log_to_driver=False)
    except (ConnectionError, RuntimeError, ValueError) as e:
        raise ClusterError(f"cannot join the Ray cluster at {address}: {e}") from None


def actor_resources(device: str) -> dict:
    """What each actor asks Ray for: one CPU, and a GPU for ``--device cuda``."""
    return {"num_cpus": 1, "num_gpus": 1 if device == "cuda" else 0}


def node_log(requested: str) -> str:
    """Where an actor logs: ``requested`` (under the campaign's folder) where that folder can be made on its node,
    else the same name in the node's temporary directory."""
    try:
        Path(requested).parent.mkdir(parents=True, exist_ok=True)
        return requested
    except OSError:
        fallback = Path(tempfile.gettempdir()) / "conformance-logs" / Path(requested).name
        fallback.parent.mkdir(parents=True, exist_ok=True)
        return str(fallback)


class CampaignActor:
    """A campaign worker in a Ray actor: imports its frameworks once, then runs cases."""

    def __init__(self, path_ids: list[str], device: str, log_path: str, modules: list[str],
                 memory_gb: Optional[float], onnx_opset: Optional[int]):
        self.device = device
        start_worker(path_ids, node_log(log_path), modules, memory_gb, onnx_opset)

    def where(self) -> dict:
        """The node this actor runs on (its id and address) and the GPUs it holds."""
        import ray

        return {"node_id": ray.get_runtime_context().get_node_id(), "ip": ray.util.get_node_ip_address(),
                "gpus": [str(g) for g in ray.get_gpu_ids()]}

    def start(self, case_dict: dict, wanted: list[str]) -> None:
        """Take a case (its JSON form): its tasks ``wanted`` (task keys, in order) run one per :meth:`next`."""
        self.records = case_records(case_dict, wanted, self.device, _mark)

    def next(self) -> Optional[ResultRecord]:
        """Run the case's next task: its record, or None once every task has run. (One call per task rather than a
        streaming generator: Ray Client, ``ray://``, does not stream from actors.)"""
        return next(self.records, None)


def _mark(key: str) -> None:
    os.write(1, f"\n{MARK}{key}\n".encode())


def post_mortem(log_path: str, case_dict: dict) -> dict:
    """Run on the node of an actor that died or was killed: the task it was running (its last mark), the signal
    that killed it (from the stack dump in its log), the end of its log and where in the program it crashed."""
    from conformance.program.case import Case

    log = Path(node_log(log_path))
    text = log.read_text(errors="replace")[-TAIL_CHARS:] if log.exists() else ""
    marks = re.findall(re.escape(MARK) + r"(\S+)", text)
    in_flight = marks[-1] if marks else None
    code = signal_code(text[text.rfind(MARK):] if marks else text)
    site = ""
    if in_flight:
        framework = in_flight.split(":", 1)[1] if in_flight.startswith("prepare:") else in_flight.split(".")[0]
        site = crash_site(Case.from_dict(case_dict).program, framework, log)
    return {"in_flight": in_flight, "code": code, "tail": text[-1500:], "site": site}


def signal_code(text: str) -> Optional[int]:
    """The exit code (a negative signal number) of a process whose log ends with ``text``, read from the fatal
    signal reports in it (Ray's and faulthandler's); None where there is none."""
    names = re.findall(r"\*\*\* (SIG[A-Z]+) received", text)
    names += [_FATAL_NAMES[m] for m in re.findall(r"Fatal Python error: ([A-Za-z -]+)", text) if m in _FATAL_NAMES]
    return -signal.Signals[names[0]].value if names else None


@dataclass
class _Actor:
    handle: object
    ready: object  # the reference of its where() until it has answered; None once ready
    log: str
    spawned_at: float = field(default_factory=time.monotonic)
    node: Optional[dict] = None  # where() once ready
    job: Optional[Job] = None
    pending: object = None  # the reference of the next record of the case it runs
    last: float = 0.0  # when its clock started: the case sent, or its last record
    tasks: int = 0  # tasks it has recorded


class ClusterCampaign(Campaign):
    """A campaign whose workers are Ray actors on the cluster at ``address`` (see the module docstring)."""

    def __init__(self, options: CampaignOptions, address: str,
                 on_record: Callable[[ResultRecord], None] = lambda r: None):
        super().__init__(options, on_record)
        self.address = address
        self.actors: list[_Actor] = []
        self.queue: deque = deque()  # cases handed back by lost actors, to go on first
        self.held: deque = deque()  # drawn cases whose tasks the planner cannot settle yet (cases before them run)
        self.exhausted = False
        self.nodes_lost: set = set()
        self.nodes_at_start: dict = {}

    def run_jobs(self, next_job: Callable[[], Optional[Job]], write: Callable[[int, ResultRecord], None]) -> None:
        import ray

        connect(self.address)
        options = self.options
        want = actor_resources(options.device)
        have = ray.cluster_resources()
        per_actor = "GPU" if want["num_gpus"] else "CPU"
        room = int(have.get(per_actor, 0))
        if room < 1:
            raise ClusterError(f"the Ray cluster at {self.address} has no {per_actor} for the campaign's actors")
        self.remote_actor = ray.remote(max_restarts=0, **want)(CampaignActor)
        self.remote_post_mortem = ray.remote(num_cpus=0, max_retries=0)(post_mortem)
        self.nodes_at_start = _alive_nodes()
        options.workers = options.workers or room  # as the manifest says it
        self.actors = [self._spawn(i) for i in range(options.workers)]
        try:
            while True:
                now = time.monotonic()
                out_of_time = (self.t0 is not None and now - self.t0 >= options.budget) or self.stopped
                for actor in self.actors:
                    if actor.node is None or actor.job is not None or out_of_time:
                        continue
                    job = self._queued(actor) or self._fresh(next_job)
                    if job is not None:
                        self._send(actor, job)
                busy = [a for a in self.actors if a.job is not None]
                if not busy and (out_of_time or (self.exhausted and not self.queue and not self.held)):
                    break
                self._wait(write)
                self._check_clocks(write)
        except KeyboardInterrupt:
            self.stopped = True
        finally:
            for actor in self.actors:
                ray.kill(actor.handle, no_restart=True)
            self._gone_since_start()

    # ------------------------------------------------------------------ actors

    def _spawn(self, slot: int) -> _Actor:
        self.spawned += 1
        options = self.options
        log = str((options.out / "logs" / f"actor{slot}-{self.spawned}.log").resolve())
        handle = self.remote_actor.remote([p.id for p in options.paths], options.device, log, list(options.modules),
                                          options.memory_gb, options.onnx_opset)
        return _Actor(handle, handle.where.remote(), log)

    def _queued(self, actor: _Actor) -> Optional[Job]:
        """The first case handed back that ``actor`` may take: a task to rerun alone needs a fresh actor."""
        for job in self.queue:
            if actor.tasks == 0 or job.remaining[0] not in job.crashed:
                self.queue.remove(job)
                return job
        return None

    def _fresh(self, next_job: Callable[[], Optional[Job]]) -> Optional[Job]:
        """The next drawn case to start, settled by the planner (:func:`conformance.run.pool.next_to_send`)."""
        job = next_to_send(self.planner, self.held, lambda: None if self.exhausted else next_job())
        self.exhausted = self.exhausted or job is None
        return None if job is NOT_READY else job

    def _send(self, actor: _Actor, job: Job) -> None:
        actor.job, actor.last = job, time.monotonic()
        job.current, job.started = None, actor.last
        actor.handle.start.remote(job.case.to_dict(), list(job.remaining))  # an actor runs its calls in order
        actor.pending = actor.handle.next.remote()

    def _wait(self, write) -> None:
        """Wait (a second at most) for actors to become ready or send records, and take what they sent."""
        import ray

        waitables = [a.ready for a in self.actors if a.ready is not None]
        waitables += [a.pending for a in self.actors if a.pending is not None]
        if not waitables:
            time.sleep(0.2)
            return
        ray.wait(waitables, num_returns=1, timeout=1.0)
        for actor in list(self.actors):
            if actor.ready is not None and ray.wait([actor.ready], timeout=0)[0]:
                self._started(actor, write)
            elif actor.pending is not None:
                self._take(actor, write)

    def _started(self, actor: _Actor, write) -> None:
        import ray

        try:
            actor.node = ray.get(actor.ready)
        except ray.exceptions.RayError as e:
            self._lost(actor, "crash", f"the Ray actor died while starting: {_first_line(e)}", write)
            return
        actor.ready = None
        actor.node["name"] = f"{actor.node['ip']}/{actor.node['node_id'][:8]}"
        self.startup_failures = 0
        if self.t0 is None:
            self.t0 = time.monotonic()  # the budget counts from the first actor that can run cases

    def _take(self, actor: _Actor, write) -> None:
        """Take the record ``actor`` has sent and ask for the next; the end of its case; or its death."""
        import ray

        if actor.pending is None or not ray.wait([actor.pending], num_returns=1, timeout=0)[0]:
            return
        try:
            record = ray.get(actor.pending)
        except (ray.exceptions.RayActorError, ray.exceptions.ObjectLostError, ray.exceptions.OwnerDiedError) as e:
            self._lost(actor, "crash", "the worker process died", write, detail=_first_line(e))
            return
        actor.last = time.monotonic()
        if record is not None:
            record.extra["ran_on"] = _ran_on(actor)
            write(actor.job.index, actor.job.take(record, actor.last))
            actor.tasks += 1
        out_of_time = actor.last - self.t0 >= self.options.budget or self.stopped
        if record is None or out_of_time:  # the case ended: every task recorded, or the budget ran out (resume)
            actor.job = actor.pending = None
            self.n_cases += 1
        else:
            actor.pending = actor.handle.next.remote()

    def _check_clocks(self, write) -> None:
        timeout = self.options.timeout
        now = time.monotonic()
        for actor in list(self.actors):
            if actor.job is not None and now - actor.last > timeout:
                self._take(actor, write)  # what it sent meanwhile still counts
                if actor.job is not None and time.monotonic() - actor.last > timeout:
                    self._lost(actor, "timeout", f"no result within {timeout:g} s", write)
            elif actor.ready is not None and not any(a.node for a in self.actors) \
                    and now - actor.spawned_at > max(timeout, 60.0) + 60.0:
                raise ClusterError(f"no actor became ready in {now - actor.spawned_at:.0f} s: does the cluster have "
                                   f"{actor_resources(self.options.device)} free per actor?")

    # ------------------------------------------------------------------ losses

    def _lost(self, actor: _Actor, outcome: str, why: str, write, detail: str = "") -> None:
        """``actor`` died or hung: replace it; record the task it was running (unless its node is gone: then the
        case goes on elsewhere), and hand the rest of its case back."""
        import ray

        ray.kill(actor.handle, no_restart=True)
        slot = self.actors.index(actor)
        self.actors[slot] = self._spawn(slot)
        job, actor.job, actor.pending = actor.job, None, None
        if actor.node is not None and not _alive(actor.node["node_id"]):
            self._node_lost(actor, job)
            return
        if actor.node is None:  # it never became ready
            if self._gone_since_start():  # perhaps on a node that is gone: not the actors' own failure
                return
            self.startup_failures += 1
            if self.startup_failures >= 3:
                tail = self._post_mortem(actor, None, "")
                raise WorkerStartError(f"Ray actors die while starting ({why}); the end of {actor.log}:\n"
                                       + (tail["tail"] if tail else "(its node is gone)"))
            return
        if job is None:
            return
        found = self._post_mortem(actor, job, why)
        if found is None:
            self._node_lost(actor, job)
            return
        in_flight = found["in_flight"] if found["in_flight"] else job.remaining[0]
        if found["code"] is None and detail and outcome == "crash":
            why += f" ({detail})"
        log = f"{actor.node['name']}:{actor.log}"
        lost, why = lost_tasks(job, in_flight, outcome, why, found["code"], actor.tasks, log)
        for record in lost_records(job, lost, outcome, why, self.options.device, found["code"], found["tail"],
                                   lambda fw: found["site"]):
            record.extra["ran_on"] = _ran_on(actor)
            write(job.index, record)
        if job.remaining:
            job.current = job.started = None
            self.queue.appendleft(job)
        else:
            self.n_cases += 1

    def _gone_since_start(self) -> set:
        """The nodes alive when the campaign started that are gone now (added to ``nodes_lost``)."""
        alive = _alive_nodes()
        gone = {name for node_id, name in self.nodes_at_start.items() if node_id not in alive}
        self.nodes_lost |= gone
        return gone

    def _node_lost(self, actor: _Actor, job: Optional[Job]) -> None:
        """The node of ``actor`` is gone: nothing it was running is a finding; its case goes on elsewhere."""
        self.nodes_lost.add(actor.node["name"])
        if job is not None:
            job.current = job.started = None
            self.queue.appendleft(job)

    def _post_mortem(self, actor: _Actor, job: Optional[Job], why: str) -> Optional[dict]:
        """:func:`post_mortem` of ``actor``, run on its node; None where the node is gone."""
        import ray
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        node_id = (actor.node or {}).get("node_id")
        strategy = NodeAffinitySchedulingStrategy(node_id, soft=False) if node_id else "DEFAULT"
        task = self.remote_post_mortem.options(scheduling_strategy=strategy)
        try:
            return ray.get(task.remote(actor.log, job.case.to_dict() if job else {}), timeout=120)
        except (ray.exceptions.RayError, ray.exceptions.GetTimeoutError):
            if node_id is not None and not _alive(node_id):
                return None
            return {"in_flight": None, "code": None, "tail": "", "site": ""}


def _alive(node_id: str) -> bool:
    return node_id in _alive_nodes()


def _alive_nodes() -> dict:
    """``{node id: name}`` of the cluster's nodes alive now (the name as :meth:`CampaignActor.where` gives it)."""
    import ray

    return {n["NodeID"]: f"{n['NodeManagerAddress']}/{n['NodeID'][:8]}" for n in ray.nodes() if n["Alive"]}


def _ran_on(actor: _Actor) -> dict:
    return {"node": actor.node["name"], "gpu": bool(actor.node["gpus"])}


def _first_line(error: BaseException) -> str:
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    detail = next((line for line in lines if "Worker exit detail" in line or "OutOfMemory" in line), "")
    return (detail or (lines[0] if lines else type(error).__name__))[:300]


def node_shares(records: list) -> dict:
    """Per node of ``records`` (their ``ran_on``): the tasks it ran, whether its actors held a GPU, the worker
    seconds it spent (converting, running and comparing, plus each case's eager reference once per framework) and
    its share of them. Empty for records of a campaign on one machine."""
    from conformance.run.schedule import judged_seconds

    nodes: dict = {}
    prepared: dict = {}
    for r in records:
        where = r.extra.get("ran_on")
        if not where:
            continue
        entry = nodes.setdefault(where["node"], {"tasks": 0, "gpu": False, "seconds": 0.0})
        entry["tasks"] += 1
        entry["gpu"] = entry["gpu"] or bool(where.get("gpu"))
        entry["seconds"] += judged_seconds(r)
        if r.timings.prepare_s is not None:
            prepared[(where["node"], r.framework, r.case_id)] = r.timings.prepare_s
    for (node, _, _), seconds in prepared.items():
        nodes[node]["seconds"] += seconds
    total = sum(e["seconds"] for e in nodes.values()) or 1.0
    return {node: {**e, "seconds": round(e["seconds"], 3), "share": round(e["seconds"] / total, 4)}
            for node, e in sorted(nodes.items())}
