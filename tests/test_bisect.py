"""``conformance bisect`` without the network: a planted fault that a fixture package introduces in one release of
a local index (a ``--find-links`` folder of wheels this test writes), found by binary search in release
environments that uv builds; and the search itself over every boundary with releases that cannot run."""

from __future__ import annotations

import base64
import hashlib
import itertools
import json
import zipfile
from pathlib import Path

import pytest

from conformance.run.releases import Index
from conformance.triage.bisect import (
    ABSENT,
    CANNOT_RUN,
    PRESENT,
    BisectError,
    Reproducer,
    Verdict,
    bisect,
    in_range,
    script_status,
    search,
    store,
    write_gate,
)

pytest.importorskip("uv", reason="conformance bisect builds its environments with uv (the releases extra)")

#: The fixture package's releases: 1.2 does not import (that release cannot run), 1.3 introduces the fault
#: (add(1, 2) is 4), 1.6 fixes it.
RELEASES = {"1.0": "ok", "1.1": "ok", "1.2": "broken", "1.3": "fault", "1.4": "fault", "1.5": "fault", "1.6": "ok"}
SOURCES = {"ok": "def add(a, b):\n    return a + b\n",
           "fault": "def add(a, b):\n    return a + b + (a == 1)\n",
           "broken": "import a_module_that_does_not_exist\n"}
REPRO = "import sys\n\nimport plantedpkg\n\nsys.exit(0 if plantedpkg.add(1, 2) == 3 else 1)\n"


def write_wheel(folder: Path, name: str, version: str, source: str) -> Path:
    """A pure-Python wheel holding ``name/__init__.py`` (a valid RECORD with hashes, as installers check)."""
    dist = f"{name}-{version}.dist-info"
    files = {f"{name}/__init__.py": source,
             f"{dist}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
             f"{dist}/WHEEL": "Wheel-Version: 1.0\nGenerator: conformance-tests\nRoot-Is-Purelib: true\n"
                              "Tag: py3-none-any\n"}
    record = []
    for path, text in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(text.encode())}")
    files[f"{dist}/RECORD"] = "\n".join(record + [f"{dist}/RECORD,,"]) + "\n"
    wheel = folder / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as z:
        for path, text in files.items():
            z.writestr(path, text)
    return wheel


@pytest.fixture(scope="module")
def local_index(tmp_path_factory):
    folder = tmp_path_factory.mktemp("wheels")
    for version, kind in RELEASES.items():
        write_wheel(folder, "plantedpkg", version, SOURCES[kind])
    return folder


def test_planted_fault_is_bisected_in_a_local_index(local_index, tmp_path, monkeypatch):
    monkeypatch.setenv("CONFORMANCE_ENVS", str(tmp_path / "envs"))
    script = tmp_path / "repro.py"
    script.write_text(REPRO)
    index = Index.from_options(find_links=[str(local_index)], no_index=True)
    assert index.versions("plantedpkg") == list(RELEASES)
    result = bisect(Reproducer("planted", script=script), "plantedpkg", index.versions("plantedpkg"), "1.4", index)
    assert (result.last_good, result.first_bad, result.last_bad, result.first_good) == ("1.1", "1.3", "1.5", "1.6")
    assert result.unknown_before == ["1.2"] and result.unknown_after == []
    assert result.tested["1.2"]["status"] == CANNOT_RUN and "a_module_that_does_not_exist" in \
        result.tested["1.2"]["note"]
    assert {v: t["status"] for v, t in result.tested.items() if v != "1.2"} == \
        {v: PRESENT if RELEASES[v] == "fault" else ABSENT for v in result.tested if v != "1.2"}
    assert result.gate() == "plantedpkg<1.6"  # 1.2 cannot run: where the fault came in is known to lie in 1.2..1.3
    assert result.exact() == (None, "1.6")
    assert "first present in 1.3, absent in 1.1 (cannot run: 1.2)" in result.summary()
    # the environments are kept: a second bisection builds none
    envs = sorted(p.name for p in (tmp_path / "envs").iterdir())
    again = bisect(Reproducer("planted", script=script), "plantedpkg", list(RELEASES), "1.4", index)
    assert again.gate() == result.gate() and sorted(p.name for p in (tmp_path / "envs").iterdir()) == envs
    kept = store(result, tmp_path / "bisections.json")
    assert json.loads(kept.read_text())["planted"]["first_good"] == "1.6"


def test_a_finding_absent_with_the_installed_release_is_refused(local_index, tmp_path, monkeypatch):
    monkeypatch.setenv("CONFORMANCE_ENVS", str(tmp_path / "envs"))
    script = tmp_path / "repro.py"
    script.write_text(REPRO)
    index = Index.from_options(find_links=[str(local_index)], no_index=True)
    with pytest.raises(BisectError, match="absent with 1.1"):
        bisect(Reproducer("planted", script=script), "plantedpkg", list(RELEASES), "1.1", index)


@pytest.mark.parametrize("n", [1, 2, 5, 9])
def test_search_finds_every_boundary_and_never_guesses_a_release_that_cannot_run(n):
    releases = [f"1.{i}" for i in range(n)]
    for first_bad, first_good in itertools.combinations(range(n + 1), 2):
        for dead in itertools.chain([()], itertools.combinations(range(n), 1), [(0, n - 1)]):
            truth = {v: CANNOT_RUN if i in dead else PRESENT if first_bad <= i < first_good else ABSENT
                     for i, v in enumerate(releases)}
            anchors = [v for v in releases if truth[v] == PRESENT]
            if not anchors:
                continue
            calls = []
            found = search(releases, anchors[-1], lambda v: calls.append(v) or Verdict(truth[v]))
            assert len(calls) == len(set(calls)) and set(found["tested"]) == set(calls)
            before = [v for v in releases[:first_bad] if truth[v] != CANNOT_RUN]
            after = [v for v in releases[first_good:] if truth[v] != CANNOT_RUN]
            runs = [v for v in releases[first_bad:first_good] if truth[v] == PRESENT]
            assert found["first_bad"] == runs[0] and found["last_bad"] == runs[-1]
            assert found["last_good"] == (before[-1] if before else None)
            assert found["first_good"] == (after[0] if after else None)
            between = releases[releases.index(found["last_good"]) + 1 if found["last_good"] else 0:
                               releases.index(found["first_bad"])]
            assert found["unknown_before"] == [v for v in between if truth[v] == CANNOT_RUN]


def test_search_takes_few_runs():
    releases = [f"1.{i}" for i in range(40)]
    calls = []
    found = search(releases, "1.39", lambda v: calls.append(v) or Verdict(PRESENT if v >= "1.23" else ABSENT))
    assert found["first_bad"] == "1.23" and len(calls) <= 8


def test_exit_status_convention():
    assert script_status(0, "") == ABSENT
    assert script_status(1, "FAILED: differs") == PRESENT
    assert script_status(139, "") == PRESENT and script_status(-11, "") == PRESENT
    assert script_status(1, "ModuleNotFoundError: No module named 'paddle'") == CANNOT_RUN
    assert script_status(1, "onnxruntime: Opset 20 is under development") == CANNOT_RUN
    assert script_status(2, "usage: ...") == CANNOT_RUN


def test_range():
    releases = ["1.14.1", "1.15.0", "1.15.1", "1.16.0", "1.31.1", "1.32.0"]
    assert in_range(releases, "1.15..1.16") == ["1.15.0", "1.15.1", "1.16.0"]
    assert in_range(releases, "1.16..") == ["1.16.0", "1.31.1", "1.32.0"]
    assert in_range(releases, "..1.15.0") == ["1.14.1", "1.15.0"]
    with pytest.raises(BisectError, match="A..B"):
        in_range(releases, "1.15")


def test_write_gate_keeps_the_case_file_valid(tmp_path):
    case = json.loads(Path("cases/onnxruntime-reduce-over-empty-axis-keeps-zero.json").read_text())
    file = tmp_path / "case.json"
    file.write_text(json.dumps(case, indent=1) + "\n")
    from conformance.triage.bisect import Bisection

    b = Bisection("x", "onnxruntime", "case", "1.31.1", {"1.16.3": {"status": ABSENT, "note": "", "seconds": 1,
                                                                      "outcome": "pass"}},
                  first_bad="1.17.0", last_good="1.16.3")
    write_gate(file, "torch.onnx_torchscript", b)
    written = json.loads(file.read_text())["expected"]["torch.onnx_torchscript"]
    assert written == [{"outcome": "mismatch", "versions": "onnxruntime>=1.17.0"},
                       {"outcome": "pass", "versions": "onnxruntime<1.17.0"}]
    b.unknown_before = ["1.16.4"]  # a release between them could not run: the boundary is not exact
    with pytest.raises(BisectError, match="no exact boundary"):
        write_gate(file, "torch.onnx_torchscript", b)


def test_the_dashboard_finds_a_buckets_bisection():
    from types import SimpleNamespace

    from conformance.triage.bisect import bisection_for

    stored = {"bucket-0a1b": {"first_bad": "1.27.0"}, "microsoft/onnxruntime/issues/7563": {"first_good": "1.32.0"}}

    def bucket(directory=None, known=None):
        record = SimpleNamespace(detail=SimpleNamespace(known_issue=known))
        return SimpleNamespace(triage=SimpleNamespace(directory=directory) if directory else None, records=[record])

    assert bisection_for(bucket("reports/triage/bucket-0a1b"), stored) == {"first_bad": "1.27.0"}
    assert bisection_for(bucket(known="A ReduceSum ... https://github.com/microsoft/onnxruntime/issues/7563"),
                         stored) == {"first_good": "1.32.0"}
    assert bisection_for(bucket("reports/triage/other", known="another bug"), stored) is None
