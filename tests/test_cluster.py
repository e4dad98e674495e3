"""Campaigns on a Ray cluster keep the local pool's guarantees: a two-node cluster on 127.0.0.1, started and stopped
here, runs a campaign with a planted segfault and a planted hang; it gives the local pool's records, loses no task
when a node dies mid-run, and resumes after its driver is killed."""

import itertools
import json
import signal
import socket
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("torch")
ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'conformance[ray]')")

from conformance.paths.records import PATHS  # noqa: E402
from conformance.run.campaign import Campaign, CampaignOptions  # noqa: E402
from conformance.run.cluster import ClusterCampaign, connect, node_shares, signal_code  # noqa: E402
from conformance.run.pool import Job, lost_tasks  # noqa: E402
from conformance.run.records import ResultRecord  # noqa: E402
from conformance.run.stream import generate_cases  # noqa: E402

from . import planted_cluster  # noqa: E402,F401

CASES = 30
PLANTED = ("torch.eager", "torch.planted_segv_some", "torch.planted_hang_some")


class LocalCluster:
    """A head and a second node on 127.0.0.1, one CPU each (Ray's own test cluster, :class:`ray.cluster_utils.Cluster`:
    each node's processes are children of this one, and a node can be killed at once, as a machine that
    disappears); this process joins it as a driver."""

    def __init__(self, temp: Path):
        from ray.cluster_utils import Cluster

        node = {"num_cpus": 1, "num_gpus": 0, "object_store_memory": 80 * 2**20, "node_ip_address": "127.0.0.1"}
        # a lost node is noticed within seconds (Ray's default: half a minute)
        config = {"health_check_period_ms": 500, "health_check_failure_threshold": 4,
                  "health_check_initial_delay_ms": 0}
        with socket.socket() as free:
            free.bind(("127.0.0.1", 0))
            client_port = free.getsockname()[1]
        self.cluster = Cluster(initialize_head=True, head_node_args={
            **node, "include_dashboard": False, "_system_config": config, "ray_client_server_port": client_port})
        self.address = f"127.0.0.1:{self.cluster.gcs_address.rsplit(':', 1)[1]}"
        self.client_address = f"ray://127.0.0.1:{client_port}"  # Ray Client
        try:
            self.second = self.cluster.add_node(**node)
            connect(self.address)
            deadline = time.monotonic() + 120
            while sum(1 for n in ray.nodes() if n["Alive"]) < 2 and time.monotonic() < deadline:
                time.sleep(0.5)
        except BaseException:
            self.stop()
            raise

    def kill_second(self) -> None:
        self.cluster.remove_node(self.second, allow_graceful=False)

    def stop(self) -> None:
        if ray.is_initialized():
            ray.shutdown()
        self.cluster.shutdown()


@pytest.fixture
def cluster(monkeypatch):
    import shutil
    import tempfile

    temp = Path(tempfile.mkdtemp(prefix="ray", dir="/tmp"))  # short: Ray's socket paths must fit in 107 bytes
    monkeypatch.setenv("RAY_TMPDIR", str(temp))  # the cluster's sessions and address file, removed afterwards
    # Ray gives 127.0.0.1 the machine's own address unless told it runs on one machine only
    monkeypatch.setenv("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
    monkeypatch.setattr(ray._private.ray_constants, "ENABLE_RAY_CLUSTER", False)
    try:
        local = LocalCluster(temp)
        yield local
        local.stop()
    finally:
        shutil.rmtree(temp, ignore_errors=True)


def _records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _runs(records: list[dict]) -> dict:
    return {(r["index"], r["path"], r["mode"]): r for r in records}


def test_signal_read_from_a_log():
    assert signal_code("...\nFatal Python error: Segmentation fault\n\nStack") == -signal.SIGSEGV
    assert signal_code("*** SIGABRT received at time=1 on cpu 0 ***") == -signal.SIGABRT
    assert signal_code("Fatal Python error: Aborted") == -signal.SIGABRT
    assert signal_code("MemoryError") is None


def _planted_seed() -> tuple[int, set, set]:
    """The first seed whose first CASES cases meet the planted segfault and the planted hang, each once or twice (a
    crash costs a fresh worker, a hang the timeout): the seed and the indices of the cases each strikes."""
    for seed in range(40):
        ids = [c.program.id for c in itertools.islice(generate_cases(seed), CASES)]
        segv = {i for i, p in enumerate(ids) if planted_cluster.bucket(p, "segv")}
        hang = {i for i, p in enumerate(ids) if planted_cluster.bucket(p, "hang")}
        if 1 <= len(segv) <= 2 and 1 <= len(hang) <= 2:
            return seed, segv, hang
    raise AssertionError("no seed meets each planted fault once or twice")


@pytest.mark.slow
def test_cluster_campaign_matches_the_local_pool_and_outlives_a_node(tmp_path, cluster):
    seed, segv, hang = _planted_seed()
    options = dict(seed=seed, budget=900, max_cases=CASES, paths=[PATHS[p] for p in PLANTED], timeout=8,
                   modules=["tests.planted_cluster"], workers=2)
    Campaign(CampaignOptions(out=tmp_path / "local", **options)).run()
    expected = _runs(_records(tmp_path / "local" / "results.jsonl"))

    out = tmp_path / "ray"
    results = out / "results.jsonl"
    done = threading.Event()

    def kill_the_second_node_mid_run():
        while not done.is_set():
            if results.exists() and len(_records(results)) >= 2 * CASES // 3:
                cluster.kill_second()
                return
            time.sleep(0.2)

    killer = threading.Thread(target=kill_the_second_node_mid_run, daemon=True)
    killer.start()
    campaign = ClusterCampaign(CampaignOptions(out=out, **options), cluster.address)
    try:
        summary = campaign.run()
    finally:
        done.set()
        killer.join()
    records = _records(results)
    runs = _runs(records)
    assert len(runs) == len(records)  # every task recorded once
    assert set(runs) == set(expected) and summary["cases"] == CASES  # nothing lost
    for key, r in expected.items():  # the local pool's records
        assert (runs[key]["case_id"], runs[key]["outcome"]) == (r["case_id"], r["outcome"]), key
    crashes = [r for r in records if r["outcome"] == "crash"]
    assert crashes and {r["index"] for r in crashes} <= segv and {r["path"] for r in crashes} == {"planted_segv_some"}
    for r in crashes:
        assert "SIGSEGV" in r["detail"]["message"] and r["detail"]["stderr_tail"]
    timeouts = [r for r in records if r["outcome"] == "timeout"]
    assert timeouts and {r["index"] for r in timeouts} <= hang
    assert {r["path"] for r in timeouts} == {"planted_hang_some"}
    # where each task ran: both nodes, the second one lost on the way
    nodes = node_shares([ResultRecord.from_json(r) for r in records])
    assert len(nodes) == 2 and abs(sum(n["share"] for n in nodes.values()) - 1) < 1e-3
    assert len(campaign.nodes_lost) == 1 and campaign.nodes_lost <= set(nodes)


@pytest.mark.slow
def test_resume_after_sigkill_of_the_driver_loses_and_repeats_nothing(tmp_path, cluster):
    """The driver joins by the head's address, is killed, and the campaign is resumed through Ray Client."""
    import os
    import subprocess
    import sys

    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "conformance", "fuzz", "--cluster", cluster.address, "--seed", "4", "--max-cases",
           "12", "--budget", "600", "--frameworks", "torch", "--paths", "script", "--mode", "infer,grad", "--out",
           str(out)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    results = out / "results.jsonl"
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and (not results.exists() or len(_records(results)) < 3):
        time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGKILL)  # the driver, mid-campaign: Ray ends its actors
    proc.wait()
    before = _records(results)
    assert 3 <= len(before) < 48
    with results.open("a") as f:
        f.write('{"schema": 1, "case_id": "cut sho')  # a write the kill interrupted
    # resumed from another machine's point of view: through Ray Client
    cmd[cmd.index(cluster.address)] = cluster.client_address
    done = subprocess.run(cmd + ["--resume"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    after = _records(results)
    runs = sorted((r["index"], r["path"], r["mode"]) for r in after)
    assert runs == sorted({(i, p, m) for i in range(12) for p in ("eager", "script") for m in ("infer", "grad")})
    assert after[:len(before)] == before  # what was there is kept as it was
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["cluster"] == cluster.client_address and sum(n["tasks"] for n in manifest["nodes"].values()) == 48
    assert "## Where the tasks ran" in (out / "summary.md").read_text()


# ------------------------------------------------------------------ the shared rules, without a cluster


def test_a_crash_after_other_tasks_is_rerun_alone_first_then_recorded():
    job = Job(0, None, ["torch.eager@infer", "torch.script@infer", "torch.trace@infer"])
    lost, why = lost_tasks(job, "torch.script@infer", "crash", "died", -signal.SIGSEGV, 1, "node:log")
    assert lost == [] and job.remaining[0] == "torch.script@infer"  # first, in a fresh worker
    first = job.crashed["torch.script@infer"]
    assert "SIGSEGV" in first and "after 1 other task(s)" in first and "node:log" in first
    lost, _ = lost_tasks(job, "torch.script@infer", "crash", "died", -signal.SIGSEGV, 0, "node:log")
    assert lost == ["torch.script@infer"]  # crashed alone too: the crash record
    lost, why = lost_tasks(job, "prepare:torch", "crash", "died", -signal.SIGSEGV, 3, "node:log")
    assert lost == job.remaining and "torch eager reference" in why  # the eager reference takes its tasks along
    lost, _ = lost_tasks(job, "torch.trace@infer", "timeout", "no result", None, 5, "node:log")
    assert lost == ["torch.trace@infer"]  # a timeout is never rerun


def _placed(case, node, gpu=False, seconds=1.0):
    record = ResultRecord.for_case(case, "torch", "script", "cpu", {}).finish("pass", "")
    record.timings.convert_s, record.timings.prepare_s = seconds, 0.5
    record.extra["ran_on"] = {"node": node, "gpu": gpu}
    return record


def test_where_tasks_ran_is_summed_per_node_and_shown(tmp_path):
    from conformance.report import write_report
    from conformance.report.results import load_results
    from conformance.report.verdicts import markdown_summary
    from conformance.run.records import results_line

    cases = list(itertools.islice(generate_cases(0), 3))
    records = [_placed(cases[0], "10.0.0.1/aa", seconds=3.0), _placed(cases[1], "10.0.0.1/aa", seconds=1.0),
               _placed(cases[2], "10.0.0.2/bb", gpu=True, seconds=4.5)]
    nodes = node_shares(records)
    assert nodes["10.0.0.1/aa"] == {"tasks": 2, "gpu": False, "seconds": 5.0, "share": 0.5}  # 3 + 1 + 2 × 0.5
    assert nodes["10.0.0.2/bb"] == {"tasks": 1, "gpu": True, "seconds": 5.0, "share": 0.5}
    assert node_shares([ResultRecord.from_json(json.loads(results_line(records[0])))]) == {
        "10.0.0.1/aa": {"tasks": 1, "gpu": False, "seconds": 3.5, "share": 1.0}}  # ran_on is written and read back
    summary = markdown_summary(records, nodes=nodes)
    assert "## Where the tasks ran" in summary and "| 10.0.0.2/bb | yes | 1 |" in summary
    run = tmp_path / "run"
    run.mkdir()
    (run / "results.jsonl").write_text("".join(results_line(r) for r in records))
    (run / "manifest.json").write_text(json.dumps({"seed": 0, "shard": "0/1", "cluster": "auto", "nodes": nodes,
                                                   "nodes_lost": ["10.0.0.2/bb"]}))
    html = write_report(load_results([run]), tmp_path / "report")["html"].read_text()
    assert "10.0.0.1/aa: 2 tasks, 50%" in html and "10.0.0.2/bb (GPU): 1 tasks, 50% (lost)" in html
