"""``conformance check`` on hand-written models in the idioms users write (:mod:`tests.user_models`): whatever
a model takes (tensors by keyword, None, ints, floats, strings, int32 and 0-d tensors, dicts keyed by ints,
pytrees), every (model, path) result is a judged outcome, never this project's own error nor an exception
from ``check()``.

In CI each framework's models run along a few cheap paths; ``-m slow`` runs every default path."""

import importlib

import pytest

from conformance.run.records import OUTCOMES

#: The outcomes a judged result may have: ``harness_error`` (this project's own exception) is not one.
JUDGED = set(OUTCOMES) - {"harness_error"}
#: Per framework: its module, and the paths CI runs (ones that users' inputs tripped up: export's dynamic shapes,
#: jit.save's input_spec, tf.function's input_signature; autocast's, 1.7 s a model, with ``-m slow``).
FRAMEWORKS = {
    "torch": ("torch", ["export"]),
    "paddle": ("paddle", ["jit_save"]),
    "tf": ("tensorflow", ["function"]),
}


def _models(framework: str) -> dict:
    pytest.importorskip(FRAMEWORKS[framework][0])
    return importlib.import_module(f"tests.user_models.{framework}_models").MODELS


def _names(framework: str) -> list[str]:
    """The model names of a framework's module, read without importing the framework (for parametrize)."""
    import ast
    from pathlib import Path

    tree = ast.parse((Path(__file__).parent / "user_models" / f"{framework}_models.py").read_text())
    table = next(node.value for node in tree.body if isinstance(node, ast.Assign) and node.targets[0].id == "MODELS")
    return [key.value for key in table.keys]


def judged(report) -> list[str]:
    """The results of a report that are not judged outcomes (``harness_error``: this project's own exception)."""
    return [f"{r.path}: {r.outcome}: {r.message[:300]}" for r in report.results if r.outcome not in JUDGED]


def _check(framework: str, name: str, paths):
    import conformance

    factory, example = _models(framework)[name]
    args, kwargs = example()
    return conformance.check(factory(), args, kwargs, paths=paths, timeout=300)


CASES = [(fw, name) for fw in FRAMEWORKS for name in _names(fw)]


@pytest.mark.parametrize("framework, name", CASES)
def test_every_result_is_judged_on_the_ci_paths(framework, name):
    report = _check(framework, name, FRAMEWORKS[framework][1])
    assert report.results and not judged(report), "\n".join(judged(report))


@pytest.mark.slow
@pytest.mark.parametrize("framework, name", CASES)
def test_every_result_is_judged_on_every_path(framework, name):
    report = _check(framework, name, None)
    assert report.results and not judged(report), "\n".join(judged(report))


def test_there_are_thirty_models_per_framework():
    assert all(len(_names(fw)) >= 30 for fw in FRAMEWORKS), {fw: len(_names(fw)) for fw in FRAMEWORKS}


@pytest.mark.parametrize("framework, path", [("torch", "fx"), ("tf", "function_per_call")])
def test_a_none_between_tensors_passes_through_as_a_constant(framework, path):
    """``forward(x, bias=None, z)`` called with None in the middle: FX traces it as a concrete arg, and the per-call
    tf.function counts it in the call signature (a Proxy raised on None at run time; ``.shape`` of None raised)."""
    report = _check(framework, "optional_middle", [path])
    assert {r.path: r.outcome for r in report.results}[f"{framework}.{path}"] == "pass", judged(report)
