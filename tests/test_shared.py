"""A findings database shared between machines: a campaign replays the findings another one saved
before its own cases, and pytest replays a failing example another machine saved, on a real Redis
server started on loopback (and on a shared directory, which needs no server)."""

import json
import shutil
import socket
import subprocess
import sys
import textwrap
import time

import pytest

from conformance.run.database import DatabaseError, open_database


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory):
    server = shutil.which("redis-server")
    if server is None:
        pytest.skip("redis-server is not installed (apt install redis-server)")
    redis = pytest.importorskip("redis", reason="the redis package is not installed (pip install conformance[shared])")
    port = _free_port()
    proc = subprocess.Popen([server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                             "--dir", str(tmp_path_factory.mktemp("redis"))], stdout=subprocess.DEVNULL)
    client = redis.Redis(port=port)
    for _ in range(100):
        try:
            client.ping()
            break
        except redis.ConnectionError:
            time.sleep(0.05)
    else:
        proc.kill()
        pytest.fail("redis-server did not start")
    yield f"redis://127.0.0.1:{port}/0"
    proc.terminate()
    proc.wait(10)


@pytest.fixture(params=["directory", "redis"])
def database(request, tmp_path):
    return str(tmp_path / "shared-db") if request.param == "directory" else request.getfixturevalue("redis_url")


def _campaign(database, seed, out, max_cases):
    pytest.importorskip("torch")
    import tests.planted_paths  # noqa: F401 - registers planted_perturb (always a mismatch)
    from conformance.paths.records import PATHS, select_paths
    from conformance.run.campaign import Campaign, CampaignOptions

    select_paths(["torch"])
    opts = CampaignOptions(seed=seed, budget=300, max_cases=max_cases, paths=[PATHS["torch.eager"],
                           PATHS["torch.planted_perturb"]], workers=1, out=out, modules=["tests.planted_paths"],
                           database=database)
    Campaign(opts).run()
    return [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]


def test_a_finding_of_one_machine_is_replayed_first_by_the_others(database, tmp_path):
    first = _campaign(database, 3, tmp_path / "machine-a", max_cases=2)  # two cases the perturbation changes
    found = {r["case_id"] for r in first if r["outcome"] == "mismatch"}
    assert len(found) == 2 and all(r["index"] >= 0 for r in first)

    second = _campaign(database, 2, tmp_path / "machine-b", max_cases=1)
    replayed = [r for r in second if r["index"] < 0]
    assert second[: len(replayed)] == replayed  # before its own cases
    assert {r["case_id"] for r in replayed if r["path"] == "planted_perturb"} == found
    assert all(r["outcome"] == "mismatch" for r in replayed if r["path"] == "planted_perturb")
    assert {r["index"] for r in second if r["index"] >= 0} == {0}
    # the second machine's own finding joined the database: a third machine replays them all
    own = {r["case_id"] for r in second if r["index"] >= 0 and r["outcome"] == "mismatch"}
    assert own
    third = _campaign(database, 3, tmp_path / "machine-c", max_cases=0)
    assert {r["case_id"] for r in third} == found | own and all(r["index"] < 0 for r in third)


def test_a_finding_is_replayed_in_the_mode_that_found_it(tmp_path):
    from conformance.run.campaign import replay_jobs
    from conformance.run.database import findings, open_database, publish
    from conformance.run.records import ResultRecord
    from conformance.run.stream import generate_cases

    db = open_database(str(tmp_path / "shared-db"))
    case = next(generate_cases(0))
    publish(db, ResultRecord.for_case(case, "torch", "script", "cpu", {}, "grad").finish("mismatch", ""))
    jobs = replay_jobs(findings(db), ["torch.script@infer", "torch.script@grad", "torch.script@train"], {})
    assert [(j.index, j.case.id, j.remaining) for j in jobs] == [(-1, case.id, ["torch.script@grad"])]
    assert replay_jobs(findings(db), ["torch.script@infer"], {}) == []  # a campaign without grad mode skips it


def test_pytest_replays_a_failing_example_saved_by_another_machine(redis_url, tmp_path):
    test_file = textwrap.dedent('''
        import os
        from hypothesis import given, settings, strategies as st

        @settings(max_examples=300, derandomize=False)
        @given(st.integers(0, 10**9))
        def test_not_three_mod_seven(n):
            with open(os.environ["SEEN"], "a") as f:
                f.write(f"{n}\\n")
            assert n % 7 != 3
    ''')
    seen = {}
    for machine in ("a", "b"):
        folder = tmp_path / machine  # each machine has its own local .hypothesis database
        folder.mkdir()
        (folder / "test_property.py").write_text(test_file)
        seen[machine] = folder / "seen.txt"
        proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
                               "--conformance-database", redis_url, "test_property.py"], cwd=folder,
                              capture_output=True, text=True, timeout=300, env={**_env(), "SEEN": str(seen[machine])})
        assert proc.returncode == 1, proc.stdout + proc.stderr  # the property is false on both machines
    failing = int(seen["a"].read_text().split()[-1])  # the example machine a reported
    assert failing % 7 == 3
    assert int(seen["b"].read_text().split()[0]) == failing  # machine b tried machine a's failure first


def _env():
    import os

    return {k: v for k, v in os.environ.items() if not k.startswith(("HYPOTHESIS", "PYTEST"))}


def test_bad_database_urls_are_named():
    with pytest.raises(DatabaseError, match="unknown database"):
        open_database("ftp://example.org/db")
    with pytest.raises(DatabaseError, match="cannot reach the Redis server"):
        pytest.importorskip("redis")
        open_database(f"redis://127.0.0.1:{_free_port()}/0")


def test_cli_rejects_an_unreachable_database(tmp_path):
    pytest.importorskip("redis")
    proc = subprocess.run([sys.executable, "-m", "conformance", "fuzz", "--max-cases", "1", "--out", str(tmp_path),
                           "--frameworks", "torch",
                           "--database", f"redis://127.0.0.1:{_free_port()}"], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode != 0 and "cannot reach the Redis server" in proc.stderr
