"""Release environments (``--with``): built with uv over this environment, cached, and refused once, before any
case, where they cannot be built or imported; without the package index the commands say so and exit 2.

The tests marked ``index`` need the package index (PyPI; CI reaches it) and skip without it: they build
onnxruntime environments and bisect one of the project's own onnxruntime findings."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.cli.releases import without_with
from conformance.run.releases import Index, IndexUnreachable, ReleaseError, environment, spec_name
from tests.test_bisect import write_wheel

pytest.importorskip("uv", reason="release environments are built with uv (the releases extra)")

UNREACHABLE = "http://127.0.0.1:9/simple"  # the discard port: refused at once


def index_reachable() -> bool:
    try:
        Index.from_options().check_reachable("onnxruntime", timeout=5)
    except IndexUnreachable:
        return False
    return True


needs_index = pytest.mark.skipif(os.environ.get("CONFORMANCE_NO_INDEX") == "1" or not index_reachable(),
                                 reason="needs the package index (PyPI) to build onnxruntime environments")


@pytest.fixture
def envs(tmp_path, monkeypatch):
    monkeypatch.setenv("CONFORMANCE_ENVS", str(tmp_path / "envs"))
    return tmp_path / "envs"


@pytest.fixture
def wheels(tmp_path):
    folder = tmp_path / "wheels"
    folder.mkdir()
    write_wheel(folder, "shadowpkg", "1.0", "VALUE = 'older'\n")
    write_wheel(folder, "shadowpkg", "2.0", "raise ImportError('shadowpkg 2.0 needs a library this machine lacks')\n")
    return folder


def test_the_with_options_are_left_out_of_the_command_run_there():
    argv = ["fuzz", "--with", "onnxruntime==1.18.1", "--budget", "5", "--with=numpy<2", "--find-links", "w",
            "--no-index", "--index-url=http://x", "--onnx-opset", "17"]
    assert without_with(argv) == ["fuzz", "--budget", "5", "--onnx-opset", "17"]
    assert spec_name("Onnx_Runtime >= 1.18") == "onnx-runtime"
    with pytest.raises(ReleaseError, match="not a requirement"):
        spec_name("==1.0")


def test_an_overlay_shadows_the_installed_release_and_is_reused(envs, wheels):
    index = Index.from_options(find_links=[str(wheels)], no_index=True)
    env = environment(["shadowpkg==1.0"], index)
    assert env.packages == {"shadowpkg": "1.0"} and env.versions == {"shadowpkg": "1.0"}
    # the overlay sees this environment's packages behind its own
    out = os.popen(f"{env.python} -c 'import shadowpkg, numpy, conformance; print(shadowpkg.VALUE)'").read()
    assert out.strip() == "older"
    built = sorted(envs.iterdir())
    t0 = time.monotonic()
    assert environment(["shadowpkg==1.0"], index).folder == env.folder and sorted(envs.iterdir()) == built
    assert time.monotonic() - t0 < 5  # remembered: neither uv nor the index is asked again


def test_a_release_that_does_not_import_is_one_configuration_error(envs, wheels, capsys):
    index = Index.from_options(find_links=[str(wheels)], no_index=True)
    with pytest.raises(ReleaseError) as e:
        environment(["shadowpkg==2.0"], index)
    assert "does not import here" in str(e.value) and "needs a library this machine lacks" in str(e.value)
    assert "--with" in str(e.value)  # which pins to try
    with pytest.raises(ReleaseError, match="cannot resolve"):
        environment(["shadowpkg==3.0"], index)
    # from the command line: said once, exit 2, before any case
    with pytest.raises(SystemExit) as exit_:
        main(["replay", "cases/onnxruntime-reduce-over-empty-axis-keeps-zero.json", "--with", "shadowpkg==2.0",
              "--find-links", str(wheels), "--no-index"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.count("configuration error") == 1 and "shadowpkg" in err


def test_without_the_index_the_commands_say_so_once_and_exit_2(envs, capsys):
    t0 = time.monotonic()
    with pytest.raises(SystemExit) as e:
        main(["fuzz", "--with", "onnxruntime==1.18.1", "--index-url", UNREACHABLE, "--budget", "1"])
    assert e.value.code == 2
    assert main(["bisect", "cases/onnxruntime-reduce-over-empty-axis-keeps-zero.json", "--package", "numpy",
                 "--path", "torch.onnx_torchscript", "--index-url", UNREACHABLE]) == 2
    err = capsys.readouterr().err
    assert err.count("cannot be reached") == 2 and time.monotonic() - t0 < 30



def test_with_and_a_cluster_are_refused_together(capsys):
    assert main(["fuzz", "--with", "onnxruntime==1.18.1", "--cluster", "auto", "--budget", "1"]) == 2
    assert "--with and --cluster cannot be combined" in capsys.readouterr().err


@pytest.mark.slow  # builds an environment of a 2023 release from the index: 15 s
@needs_index
def test_an_older_onnxruntime_gets_the_numpy_it_was_built_for(envs):
    env = environment(["onnxruntime==1.15.1"], modules=("conformance",))
    assert env.versions["onnxruntime"] == "1.15.1"
    assert env.packages["numpy"].startswith("1.") and "numpy<2" in env.added
    probe = "import numpy, onnxruntime; onnxruntime.InferenceSession; print(numpy.__version__)"
    assert os.popen(f"{env.python} -c '{probe}'").read().startswith("1.")


@pytest.mark.slow  # installs four onnxruntime releases, about 25 s: the overlay tests above run by default
@needs_index
def test_bisects_an_onnxruntime_finding_of_the_corpus(envs, tmp_path, capsys):
    """onnxruntime's LayerNormalization of values near 8.5e37 (cases/onnxruntime-layer-norm-huge-values-finite.json):
    finite since onnxruntime 1.27.0 where eager overflows to NaN; 1.26.0 and older agree with eager (bisected over
    every release from 1.15.0 to 1.32.0 on 2026-11-29). Here over four releases, 1.25.0 to 1.27.0, then written into
    a copy of the case file as its gate."""
    pytest.importorskip("torch")
    case = tmp_path / "case.json"
    case.write_text(Path("cases/onnxruntime-layer-norm-huge-values-finite.json").read_text())
    store = tmp_path / "bisections.json"
    assert main(["bisect", str(case), "--package", "onnxruntime", "--path", "torch.onnx_torchscript", "--range",
                 "1.25.0..1.27", "--onnx-opset", "17", "--store", str(store), "--write"]) == 0
    found = json.loads(store.read_text())["case torch.onnx_torchscript"]
    assert set(found["tested"]) <= {"1.25.0", "1.25.1", "1.26.0", "1.27.0"} and len(found["tested"]) >= 2
    assert (found["last_good"], found["first_bad"]) == ("1.26.0", "1.27.0")
    assert found["tested"]["1.27.0"]["status"] == "present" and found["tested"]["1.26.0"]["outcome"] == "pass"
    assert json.loads(case.read_text())["expected"]["torch.onnx_torchscript"] == [
        {"outcome": "mismatch", "versions": "onnxruntime>=1.27.0"},
        {"outcome": "pass", "versions": "onnxruntime<1.27.0"}]
    assert "first present in 1.27.0, absent in 1.26.0" in capsys.readouterr().out


@pytest.mark.slow  # a pytest session in an overlay environment, in a subprocess: 50 s
def test_the_pytest_plugin_runs_the_session_with_the_release(tmp_path, envs, wheels, monkeypatch):
    monkeypatch.setenv("UV_FIND_LINKS", str(wheels))
    monkeypatch.setenv("UV_NO_INDEX", "1")
    (tmp_path / "test_release.py").write_text("def test_release():\n    import shadowpkg\n"
                                              "    assert shadowpkg.VALUE == 'older'\n")

    def pytest_(*args):
        return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:cacheprovider",
                               "test_release.py", *args], cwd=tmp_path, capture_output=True, text=True, timeout=600)

    ran = pytest_("--conformance-with", "shadowpkg==1.0")
    assert ran.returncode == 0 and "1 passed" in ran.stdout, ran.stdout + ran.stderr
    broken = pytest_("--conformance-with=shadowpkg==2.0")
    assert broken.returncode == pytest.ExitCode.USAGE_ERROR and "does not import here" in broken.stderr
