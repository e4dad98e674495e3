"""The Ray engine's overhead: the same campaign on the local pool and on Ray, with the same number of cores, and the
memory Ray's own processes take.

    python benchmarks/bench_cluster.py --cases 20 --seed 0 --cpus 2 [--paths script,trace]

Runs the same cases (one seed) on the local pool (``--cpus`` worker processes) and on a Ray instance started here
with ``--cpus`` CPUs (one actor each), through the real campaign machinery, and prints cases per minute measured
from the first ready worker to the last record, the wall time with start-up, and the peak resident memory of each
kind of process (Ray's GCS, raylet and helpers; the workers) sampled every second. Needs ``conformance[ray]``.
"""

import argparse
import os
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path

# Ray runs on 127.0.0.1 here (it would give the loopback this machine's own address otherwise); read at its import
os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")

import psutil  # noqa: E402 - installed with Ray

from conformance.paths.records import select_paths  # noqa: E402
from conformance.run.campaign import Campaign, CampaignOptions  # noqa: E402

KINDS = {"ray::CampaignActor": "campaign actor", "spawn_main": "local worker",
         "ray::DashboardAgent": "dashboard agent", "ray::RuntimeEnvAgent": "runtime env agent",
         "log_monitor.py": "log monitor", "monitor.py": "autoscaler monitor",
         "dashboard.py": "dashboard (head)", "ray::IDLE": "idle Ray worker"}


def kind_of(proc: psutil.Process) -> str:
    try:
        name, text = proc.name(), " ".join(proc.cmdline())
    except psutil.Error:
        return ""
    if name in ("gcs_server", "raylet"):
        return name
    return next((kind for key, kind in KINDS.items() if key in text), "other")


class PeakMemory(threading.Thread):
    """Samples the resident memory of this process's descendants every second: the peak per kind, and of all."""

    def __init__(self):
        super().__init__(daemon=True)
        self.peak: dict = defaultdict(int)
        self.count: dict = defaultdict(int)
        self.total = 0
        self.stopped = threading.Event()

    def run(self) -> None:
        while not self.stopped.wait(1.0):
            now: dict = defaultdict(int)
            count: dict = defaultdict(int)
            for proc in psutil.Process().children(recursive=True):
                kind = kind_of(proc)
                try:
                    rss = proc.memory_info().rss
                except psutil.Error:
                    continue
                if not kind:
                    continue
                now[kind] += rss
                count[kind] += 1
            for kind, rss in now.items():
                if rss > self.peak[kind]:
                    self.peak[kind], self.count[kind] = rss, count[kind]
            self.total = max(self.total, sum(now.values()))


def campaign(pool: str, args, paths, out: Path):
    options = CampaignOptions(seed=args.seed, budget=1e9, max_cases=args.cases, paths=paths, workers=args.cpus,
                              timeout=300, out=out)
    if pool == "local":
        return Campaign(options)
    import ray

    from conformance.run.cluster import ClusterCampaign

    os.environ["RAY_TMPDIR"] = str(out / "ray")  # Ray's session folder, removed with the campaign's
    ray.init(num_cpus=args.cpus, object_store_memory=80 * 2**20, include_dashboard=False, log_to_driver=False)
    return ClusterCampaign(options, "auto")  # joins the instance this process started


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cpus", type=int, default=2)
    ap.add_argument("--paths", default="script,trace")
    ap.add_argument("--pools", default="local,ray")
    args = ap.parse_args()
    paths = select_paths(["torch"], [p for p in args.paths.split(",") if p])
    rates = {}
    for pool in args.pools.split(","):
        with tempfile.TemporaryDirectory() as out:
            memory = PeakMemory()
            memory.start()
            t = time.perf_counter()
            summary = campaign(pool, args, paths, Path(out)).run()
            wall = time.perf_counter() - t
            tasks = len((Path(out) / "results.jsonl").read_text().splitlines())
            memory.stopped.set()
            memory.join()
            if pool == "ray":
                import ray

                ray.shutdown()  # before its session folder goes with the campaign's
        rates[pool] = summary["cases"] / summary["elapsed_s"] * 60
        print(f"{pool}: {summary['cases']} cases ({tasks} tasks) in {summary['elapsed_s']:.1f} s after start-up "
              f"({wall:.1f} s wall, {args.cpus} worker(s)): {rates[pool]:.1f} cases/min")
        for kind, rss in sorted(memory.peak.items(), key=lambda kv: -kv[1]):
            print(f"    {kind:>16}: peak {rss / 2**20:7.0f} MiB RSS ({memory.count[kind]} process(es))")
        print(f"    {'all':>16}: peak {memory.total / 2**20:7.0f} MiB RSS")
    if {"local", "ray"} <= set(rates):
        print(f"Ray / local: {rates['ray'] / rates['local']:.2f}× the cases per minute")


if __name__ == "__main__":
    main()
