"""Paths of your own: packages register paths through the ``conformance.paths`` entry-point group, and every
face of conformance (``conformance paths``, ``conformance fuzz``, ``check()``, the pytest plugin, the
dashboard) sees them.

The first tests load entry points of a distribution made on the fly (no install, no framework); the last ones
use the example package in ``tests/plugin_example`` (a custom torch.compile backend and a planted-fault
variant of it), installed beside conformance as CI installs it: ``pip install -e tests/plugin_example``.
"""

import importlib.util
import json
import subprocess
import sys
import textwrap
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from conformance.paths import PathRecord, UnknownPathError
from conformance.paths import records as R

ROOT = Path(__file__).resolve().parent.parent


def _distribution(tmp_path, entries: dict, module_source: str):
    """A distribution on sys.path with ``entries`` (name -> object reference) in the conformance.paths group
    and a module ``fake_paths_plugin`` with ``module_source``."""
    (tmp_path / "fake_paths_plugin.py").write_text(textwrap.dedent(module_source))
    info = tmp_path / "fake_paths_plugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fake-paths-plugin\nVersion: 0.1\n")
    lines = "".join(f"{name} = {ref}\n" for name, ref in entries.items())
    (info / "entry_points.txt").write_text(f"[{R.ENTRY_POINT_GROUP}]\n{lines}")


PLUGIN = """
    from conformance.paths import FRAMEWORKS, Framework, PathRecord, register

    def convert(ctx):
        return ctx.model

    def run(artifact, args, kwargs):
        return artifact(*args, **kwargs)

    FRAMEWORKS["fakefw"] = Framework("fakefw", lambda: "0", *[lambda *a: None] * 4, lambda: ["cpu"])
    register(PathRecord("fakefw", "eager", "the reference", convert, run, reference=True),
             PathRecord("fakefw", "from_module", "registered on import", convert, run))

    def more():
        return [PathRecord("fakefw", "from_callable", "returned by a callable", convert, run, default=False)]

    def replaces():
        return [PathRecord("fakefw", "from_module", "a second path of the same id", convert, run)]

    def broken():
        raise ImportError("planted: the backend's compiler is not installed")
"""


@pytest.fixture
def registry(monkeypatch, tmp_path):
    """A framework of its own (``fakefw``) whose plug-ins are not loaded yet; its paths go after the test."""
    monkeypatch.setattr(R, "_PLUGINS_LOADED", set(R._PLUGINS_LOADED) - {"fakefw"})
    monkeypatch.setattr(R, "PLUGIN_ERRORS", {})
    monkeypatch.setitem(R.FRAMEWORK_MODULES, "fakefw", "fake_paths_plugin")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    for key in [k for k in R.PATHS if k.startswith("fakefw.")]:
        del R.PATHS[key]
    R.FRAMEWORKS.pop("fakefw", None)
    sys.modules.pop("fake_paths_plugin", None)


def test_a_module_or_a_callable_registers_paths_with_its_framework(registry):
    _distribution(registry, {"fakefw.a": "fake_paths_plugin", "fakefw.b": "fake_paths_plugin:more",
                             "otherfw.c": "fake_paths_plugin:broken"}, PLUGIN)
    R.load_plugins("fakefw")
    assert {"fakefw.from_module", "fakefw.from_callable"} <= set(R.PATHS)
    assert isinstance(R.PATHS["fakefw.from_callable"], PathRecord)
    assert R.PLUGIN_ERRORS == {}  # otherfw's entry is not loaded with fakefw
    R.PATHS.pop("fakefw.from_module")
    R.load_plugins("fakefw")  # once per process
    assert "fakefw.from_module" not in R.PATHS


def test_select_paths_sees_plugin_paths(registry):
    _distribution(registry, {"fakefw.b": "fake_paths_plugin:more"}, PLUGIN)
    assert [p.id for p in R.select_paths(["fakefw"])] == ["fakefw.eager", "fakefw.from_module"]  # default=False
    assert [p.id for p in R.select_paths(["fakefw"], ["from_callable"])] == ["fakefw.eager", "fakefw.from_callable"]


def test_a_broken_plugin_registers_nothing_and_is_named(registry):
    _distribution(registry, {"fakefw.a": "fake_paths_plugin", "fakefw.broken": "fake_paths_plugin:broken",
                             "fakefw.gone": "no_such_module_anywhere"}, PLUGIN)
    R.load_plugins("fakefw")
    assert "fakefw.from_module" in R.PATHS
    assert "planted: the backend's compiler is not installed" in R.PLUGIN_ERRORS["fakefw.broken"]
    assert "ModuleNotFoundError" in R.PLUGIN_ERRORS["fakefw.gone"]


def test_a_plugin_may_not_replace_a_path(registry):
    _distribution(registry, {"fakefw.a": "fake_paths_plugin", "fakefw.z": "fake_paths_plugin:replaces"}, PLUGIN)
    R.load_plugins("fakefw")
    assert R.PATHS["fakefw.from_module"].description == "registered on import"
    assert "would replace the paths fakefw.from_module" in R.PLUGIN_ERRORS["fakefw.z"]


def test_an_unknown_path_names_the_plugin_that_failed(registry):
    _distribution(registry, {"fakefw.mine": "fake_paths_plugin:broken"}, PLUGIN)
    with pytest.raises(UnknownPathError, match="plug-in fakefw.mine failed: .*compiler is not installed"):
        R.select_paths(["fakefw"], ["mine"])


def test_the_public_api_names_the_group_and_conformance_paths_names_a_broken_plugin(tmp_path):
    """``conformance.paths`` exports the plug-in API; ``conformance paths`` says under its table which plug-in
    failed to load, and why (its paths are missing from the table)."""
    import os

    from conformance import paths

    pytest.importorskip("torch")  # the broken entry is a torch path's: loaded with torch's paths

    assert paths.ENTRY_POINT_GROUP == "conformance.paths" and paths.load_plugins is R.load_plugins
    assert paths.PLUGIN_ERRORS is R.PLUGIN_ERRORS
    _distribution(tmp_path, {"torch.broken_backend": "fake_paths_plugin:broken"}, PLUGIN)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    done = subprocess.run([sys.executable, "-m", "conformance", "paths"], capture_output=True, text=True, cwd=ROOT,
                          timeout=600, env=env)
    assert done.returncode == 0, done.stderr
    assert "plug-in torch.broken_backend" in done.stdout and "compiler is not installed" in done.stdout, done.stdout


# ------------------------------------------------------------------ the example package, installed

EXAMPLE = "tests/plugin_example"
installed = pytest.mark.skipif(
    importlib.util.find_spec("conformance_example_backend") is None
    or not any(e.name == "torch.example_backend" for e in entry_points(group=R.ENTRY_POINT_GROUP)),
    reason=f"the example plug-in is not installed: pip install --no-deps -e {EXAMPLE} (as .ci/run does)")


def _conformance(*args, timeout=600):
    return subprocess.run([sys.executable, "-m", "conformance", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=timeout)


@installed
def test_the_example_shows_up_in_conformance_paths():
    done = _conformance("paths")
    assert done.returncode == 0, done.stderr
    assert "torch.example_backend " in done.stdout or "torch.example_backend\n" in done.stdout.replace("│", "\n")
    assert "torch.example_backend_faulty" in done.stdout


@installed
def test_the_planted_fault_of_the_example_is_caught_by_fuzz_naming_it(tmp_path):
    pytest.importorskip("torch")
    out = tmp_path / "run"
    paths = "torch.example_backend,torch.example_backend_faulty"
    done = _conformance("fuzz", "--frameworks", "torch", "--paths", paths,
                        "--mode", "infer", "--max-cases", "2", "--budget", "300", "--workers", "1", "--seed", "0",
                        "--out", str(out), "--fail-on", "mismatch")
    assert done.returncode == 1, done.stdout[-3000:] + done.stderr[-3000:]
    records = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    outcomes = {(f"{r['framework']}.{r['path']}", r["outcome"]) for r in records}
    assert ("torch.example_backend_faulty", "mismatch") in outcomes, outcomes
    assert ("torch.example_backend", "pass") in outcomes and ("torch.example_backend", "mismatch") not in outcomes
    report = _conformance("report", str(out), "--out", str(tmp_path / "dashboard"))
    assert report.returncode == 0, report.stderr
    assert "torch.example_backend_faulty" in (tmp_path / "dashboard" / "index.html").read_text()


@installed
def test_the_pytest_plugin_parametrises_over_the_example():
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                           "oracles/test_torch_parity.py", "--conformance-frameworks", "torch",
                           "--conformance-paths", "torch.example_backend_faulty"],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert "test_path_agrees_with_eager[torch.example_backend_faulty]" in done.stdout, done.stdout + done.stderr


@installed
def test_check_sees_the_example():
    torch = pytest.importorskip("torch")
    from conformance.check import check

    from .plugin_models import TanhModel

    report = check(TanhModel(), [torch.linspace(-1, 1, 12).reshape(3, 4)],
                   paths=["example_backend", "example_backend_faulty"])
    outcomes = {r.path: r.outcome for r in report.results}
    assert outcomes["torch.example_backend"] == "pass" and outcomes["torch.example_backend_faulty"] == "mismatch"
