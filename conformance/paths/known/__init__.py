"""The catalogue of what the frameworks and their converters get wrong or refuse, one module per component.

Each module of this package is a component a conversion goes through (the TorchScript exporter, onnxruntime,
paddle2onnx, XLA ...) and holds every record about it, whichever path meets it, in ``RECORDS``: one
:class:`~conformance.paths.records.Limitation` each, built by the factories of
:mod:`~conformance.paths.known.factories`, with a one-sentence ``reason``, its provenance, its ``details`` and the
recorded failure it names (``example``). A :class:`~conformance.paths.records.PathRecord` lists the components it
goes through (``components``); a record is on the paths of its component that it names in ``paths``, or on all of
them. Of the records of a path that apply to a failure, the most specific wins
(:attr:`~conformance.paths.records.Limitation.specificity`); ``tests/test_known_catalogue.py`` checks that every
record matches its example and wins there on every path that carries it.

This package imports no framework: the records are data.
"""

from __future__ import annotations

import importlib

from conformance.paths.limitation import Limitation

#: The component modules, in the order ``conformance paths`` lists a path's records.
COMPONENTS = ("torch_eager", "paddle_eager", "tf_eager", "python_state", "torchscript", "fx", "torch_compile",
              "inductor", "torch_export", "dynamo_exporter", "torchscript_exporter", "executorch", "pir_ast", "sot",
              "paddle_amp",
              "paddle_jit_save", "paddle_inference", "paddle2onnx", "autograph", "xla", "tf1_graph", "tf_freeze",
              "tf2onnx", "tflite", "onnx", "onnxruntime", "openvino")


def component_records(component: str) -> tuple[Limitation, ...]:
    """The records of one component (a module of this package), in its order."""
    if component not in COMPONENTS:
        raise ValueError(f"unknown component {component!r}; known: {', '.join(COMPONENTS)}")
    return importlib.import_module(f"{__name__}.{component}").RECORDS


def all_records() -> tuple[Limitation, ...]:
    """Every record of the catalogue, component by component."""
    return tuple(rec for c in COMPONENTS for rec in component_records(c))


def records_for(path_id: str, components: tuple[str, ...]) -> tuple[Limitation, ...]:
    """The records of ``components`` that are on the path ``path_id``: those that name it in ``paths``, and those
    that name no path (every path through their component)."""
    return tuple(rec for c in components for rec in component_records(c) if not rec.paths or path_id in rec.paths)


def record(name: str) -> Limitation:
    """The record named ``name`` (``component.slug``)."""
    component = name.split(".")[0]
    found = [rec for rec in component_records(component) if rec.name == name]
    if not found:
        raise KeyError(f"no record {name!r} in component {component!r}")
    return found[0]
