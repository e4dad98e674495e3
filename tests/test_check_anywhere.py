"""``conformance.check()`` wherever users hold a model: a module loaded by file path (``spec_from_file_location``,
as ``pytest --import-mode=importlib`` loads test modules), a factory or a closure, code with no source (``exec``),
a Jupyter notebook, and the command line. Each path's process gets the model by value where it cannot import it,
and a notebook cell's source where a path reads source.

In CI each framework runs a few paths (one that reads source among them); ``-m slow`` runs every default path."""

import importlib.util
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conformance.run.records import OUTCOMES

DATA = Path(__file__).parent / "data" / "anywhere"
#: The outcomes a judged result may have: ``harness_error`` (this project's own exception) is not one.
JUDGED = set(OUTCOMES) - {"harness_error"}
#: Per framework: the package, and the paths CI runs (eager, one that reads source, one that does not).
FRAMEWORKS = {
    "torch": ("torch", ["eager", "script", "trace"]),
    "paddle": ("paddle", ["eager", "to_static", "to_static_sot"]),
    "tf": ("tensorflow", ["eager", "function"]),
}


def load_by_path(framework: str, name: str):
    """``tests/data/anywhere/{framework}_user.py`` as a module named ``name`` that no process can import by name:
    its folder is not on ``sys.path`` and is not a package."""
    pytest.importorskip(FRAMEWORKS[framework][0])
    spec = importlib.util.spec_from_file_location(name, DATA / f"{framework}_user.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def not_judged(report) -> list[str]:
    return [f"{r.path}: {r.outcome}: {r.message[:300]}" for r in report.results if r.outcome not in JUDGED]


def outcomes(report) -> dict:
    return {r.path.split(".", 1)[1]: r.outcome for r in report.results}


def _check(framework: str, factory: str, paths):
    import conformance

    module = load_by_path(framework, f"t07_{framework}_{factory}")
    args, kwargs = module.example()
    return conformance.check(getattr(module, factory)(), args, kwargs, paths=paths, timeout=300)


@pytest.mark.parametrize("framework", [pytest.param(f, marks=pytest.mark.slow) if f == "tf" else f  # TF: 30 s
                                       for f in sorted(FRAMEWORKS)])
def test_a_model_loaded_by_file_path_and_made_by_a_factory_reaches_every_path(framework):
    """The model's class exists only inside a call of a factory, its submodule's in a module only this process has:
    every path runs (the path that reads source reads the file), none is a harness error."""
    report = _check(framework, "make_model", FRAMEWORKS[framework][1])
    assert report.results and not not_judged(report), "\n".join(not_judged(report))
    got = outcomes(report)
    assert got["eager"] == "pass"
    source_reader = {"torch": "script", "paddle": "to_static", "tf": "function"}[framework]
    assert got[source_reader] == "pass", str(report)  # converted from the file's source, data-dependent if included


@pytest.mark.slow
@pytest.mark.parametrize("framework", sorted(FRAMEWORKS))
@pytest.mark.parametrize("factory", ["Gate", "make_model"])
def test_no_harness_error_on_any_path(framework, factory):
    report = _check(framework, factory, None)
    assert report.results and not not_judged(report), "\n".join(not_judged(report))


def test_a_model_with_no_source_runs_every_path_that_does_not_need_it():
    """A class made by ``exec``: TorchScript's script, which reads source, is ``unsupported`` saying why; trace
    runs and is judged."""
    torch = pytest.importorskip("torch")
    import conformance

    namespace = {"torch": torch}
    exec("class Inline(torch.nn.Module):\n"
         "    def forward(self, x):\n"
         "        return x * 2\n", namespace)
    report = conformance.check(namespace["Inline"](), [torch.ones(3, 4)], paths=["eager", "script", "trace"])
    assert report["script"].outcome == "unsupported"
    assert report["script"].message.startswith("no source: script reads the source of Inline.forward")
    assert report["script"].named.startswith("no source")
    assert "OSError" in report["script"].record.detail.extra["error"]  # TorchScript's own words, kept
    assert report["eager"].outcome == "pass" and report["trace"].outcome == "pass"
    assert any("the source of Inline.forward cannot be read" in n for n in report.notes)


SOURCELESS = {
    "paddle": ("import paddle\n"
               "class Inline(paddle.nn.Layer):\n"
               "    def forward(self, x):\n"
               "        if x.sum() > 0:\n"
               "            return x * 2\n"
               "        return x - 1\n", "to_static", "to_static_sot"),
    "tf": ("import tensorflow as tf\n"
           "class Inline(tf.Module):\n"
           "    def __call__(self, x):\n"
           "        if tf.reduce_sum(x) > 0:\n"
           "            return x * 2\n"
           "        return x - 1\n", "function", "eager"),
}


@pytest.mark.slow
@pytest.mark.parametrize("framework", sorted(SOURCELESS))
def test_paddle_and_tensorflow_models_with_no_source(framework):
    """Paddle's AST ``to_static`` asks for the source in vain, AutoGraph runs the code unconverted: both
    ``unsupported`` for want of source; SOT (bytecode) and eager are judged."""
    pytest.importorskip(FRAMEWORKS[framework][0])
    import numpy as np

    import conformance

    source, reader, other = SOURCELESS[framework]
    namespace = {"__name__": "__main__"}
    exec(source, namespace)
    x = np.random.default_rng(0).normal(size=(3, 4)).astype(np.float32)
    report = conformance.check(namespace["Inline"](), [x], paths=["eager", reader, other], timeout=300)
    assert report[reader].outcome == "unsupported", str(report)
    assert report[reader].message.startswith(f"no source: {reader} reads the source of Inline"), str(report)
    assert report[other].outcome == "pass" and report["eager"].outcome == "pass", str(report)


def test_a_path_that_ran_sourceless_code_unconverted_is_unsupported_only_on_a_model_with_no_source():
    """AutoGraph runs code made by ``exec`` as it is, without asking for its source: a tensor ``if`` then raises
    ``OperatorNotAllowedInGraphError``, for want of the source. On a model with source that error is a finding, and
    so is any wrong result."""
    from conformance.check.isolated import failed_for_want_of_source, without_source
    from conformance.run.records import ResultRecord

    def record(outcome, message):
        return ResultRecord("case", "tf", "function", "cpu", "infer", None).finish(outcome, message)

    unconverted = "OperatorNotAllowedInGraphError: Using a symbolic `tf.Tensor` as a Python `bool` is not allowed"
    assert failed_for_want_of_source(record("conversion_error", unconverted), "Inline.__call__", [])
    assert not failed_for_want_of_source(record("conversion_error", unconverted), None, [])
    assert failed_for_want_of_source(record("conversion_error", "OSError: could not get source"), "Inline.f", ["f"])
    assert not failed_for_want_of_source(record("conversion_error", "TypeError: bad"), "Inline.__call__", [])
    assert not failed_for_want_of_source(record("mismatch", "values differ"), "Inline.__call__", ["Inline.__call__"])
    refused = without_source(record("conversion_error", unconverted), "Inline.__call__", [])
    assert refused.outcome == "unsupported" and refused.detail.extra["error"] == unconverted
    assert refused.detail.message.startswith("no source: function reads the source of Inline.__call__")


def test_an_importable_model_is_pickled_by_reference_and_the_rest_by_value():
    from conformance.check.shipped import dumps, importable

    module = load_by_path("torch", "t07_torch_pickled")
    assert importable("conformance.check.shipped") and not importable("t07_torch_pickled")
    assert not importable("__main__")
    by_value, by_reference = dumps(module.Gate), dumps(importable)
    assert len(by_value) > 1000 and b"forward" in by_value  # the class and its functions' code
    assert len(by_reference) < 200 and b"conformance.check.shipped" in by_reference
    import cloudpickle

    assert len(cloudpickle.dumps(module.Gate)) < 200  # cloudpickle's own setting is left as it was: by reference


def test_a_notebook_cells_source_reaches_the_paths_process():
    """What IPython keeps of a cell (``linecache``, under a file name no disk has) is shipped and read there."""
    import linecache

    from conformance.check.shipped import in_memory_sources, seed_sources

    name = "/nonexistent/ipykernel_0/4242.py"
    linecache.cache[name] = (10, None, ["def f():\n", "    return 1\n"], name)
    try:
        shipped = in_memory_sources()
        assert shipped[name] == ["def f():\n", "    return 1\n"]
        assert not any(Path(n).exists() for n in shipped)
        del linecache.cache[name]
        seed_sources(shipped)
        assert linecache.getlines(name) == ["def f():\n", "    return 1\n"]
    finally:
        linecache.cache.pop(name, None)


# ------------------------------------------------------------------ a real notebook


def run_notebook(cells: list[str], folder: Path) -> list[str]:
    """Execute ``cells`` in a fresh Jupyter kernel of this interpreter (nbclient) and return each cell's printed
    text."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import AsyncKernelManager

    spec_dir = folder / "kernels" / "conformance-test"
    spec_dir.mkdir(parents=True)
    (spec_dir / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "conformance tests", "language": "python"}))
    km = AsyncKernelManager(kernel_name="conformance-test",
                            kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(folder / "kernels")]))
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(textwrap.dedent(c)) for c in cells])
    nbclient.NotebookClient(nb, km=km, timeout=600, resources={"metadata": {"path": str(folder)}}).execute()
    return ["".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream") for cell in nb.cells]


REPORT_CELL = """
    import json
    print(json.dumps({"outcomes": {r.path.split(".", 1)[1]: r.outcome for r in report.results},
                      "messages": {r.path.split(".", 1)[1]: r.message for r in report.results},
                      "notes": report.notes}))
"""


def test_a_torch_model_defined_in_a_notebook_cell(tmp_path):
    """The class exists only in the kernel's ``__main__`` and its source only in IPython's cell cache: eager and
    trace run, and script compiles the cell's source (its data-dependent ``if`` passes on flipped values)."""
    pytest.importorskip("torch")
    texts = run_notebook(["""
        import torch

        class Gate(torch.nn.Module):
            def __init__(self):
                super().__init__()
                torch.manual_seed(0)
                self.lin = torch.nn.Linear(4, 4)

            def forward(self, x):
                h = self.lin(x)
                if h.sum() > 0:
                    return h * 2
                return h - 1
        """, """
        import conformance

        report = conformance.check(Gate(), [torch.randn(3, 4)], paths=["eager", "script", "trace"], timeout=300)
        """, REPORT_CELL], tmp_path)
    result = json.loads(texts[-1])
    assert result["outcomes"] == {"eager": "pass", "script": "pass", "trace": "expected_divergence"}, result
    assert not result["notes"], result


def test_a_tensorflow_model_defined_in_a_notebook_cell(tmp_path):
    """AutoGraph (``tf.function``) reads the cell's source to convert its data-dependent ``if``."""
    pytest.importorskip("tensorflow")
    texts = run_notebook(["""
        import numpy as np
        import tensorflow as tf

        class Gate(tf.Module):
            def __init__(self):
                super().__init__()
                self.w = tf.Variable(tf.random.stateless_normal([4, 4], seed=[0, 1]))

            def __call__(self, x):
                h = tf.matmul(x, self.w)
                if tf.reduce_sum(h) > 0:
                    return h * 2
                return h - 1
        """, """
        import conformance

        x = np.random.default_rng(0).normal(size=(3, 4)).astype(np.float32)
        report = conformance.check(Gate(), [x], paths=["eager", "function"], timeout=300)
        """, REPORT_CELL], tmp_path)
    result = json.loads(texts[-1])
    assert result["outcomes"] == {"eager": "pass", "function": "pass"}, result


# ------------------------------------------------------------------ pytest --import-mode=importlib, the CLI


def test_assert_conforms_in_a_test_module_pytest_imports_by_path(tmp_path):
    """``pytest --import-mode=importlib`` loads a test module by file path, under a name no other process can
    import: a test that calls ``assert_conforms`` on a model defined there passes."""
    pytest.importorskip("torch")
    test_file = tmp_path / "user_tests" / "check_my_model.py"
    test_file.parent.mkdir()
    test_file.write_text((Path(__file__).parent / "data" / "importlib_mode" / "check_my_model.py").read_text())
    elsewhere = tmp_path / "elsewhere"  # the working directory, on sys.path: the test module is not under it
    elsewhere.mkdir()
    proc = subprocess.run([sys.executable, "-m", "pytest", "--import-mode=importlib", "-p", "no:cacheprovider",
                           "-p", "no:randomly", "-q", str(test_file)], capture_output=True, text=True, cwd=elsewhere,
                          timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "2 passed" in proc.stdout, proc.stdout[-3000:]


def _cli(*args, cwd):
    return subprocess.run([sys.executable, "-m", "conformance", "check", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=600)


@pytest.mark.slow  # subprocesses importing torch and TensorFlow: 30 s of CPU
@pytest.mark.parametrize("framework, name, paths", [("torch", "make_model", "eager,script,trace"),
                                                     ("tf", "make_functional", "eager,function,saved_model")])
def test_the_command_line_on_a_factory_in_a_folder_that_is_not_a_package(framework, name, paths, tmp_path):
    pytest.importorskip(FRAMEWORKS[framework][0])
    proc = _cli(f"{DATA / f'{framework}_user.py'}:{name}", "--example", "example", "--paths", paths, "--json",
                "report.json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:] + proc.stdout[-3000:]
    records = json.loads((tmp_path / "report.json").read_text())["records"]
    got = {r["path"]: r["outcome"] for r in records}
    assert set(got) == set(paths.split(",")) and got["eager"] == "pass"
    assert {v for k, v in got.items() if k != "trace"} == {"pass"}, got
