"""Shared by the deployment paths' self-tests: a clean program every deployment path must pass, and a planted
fault for any path: the real conversion, its outputs perturbed (the largest float element off by 1e-3 relative), so
the tests prove that the oracle catches a runtime that computes a wrong value.

The deployment records are registered here when the framework's own module has not registered them (yet).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from conformance.paths.records import PATHS, PathRecord, register
from conformance.program.case import Case, InputSet
from conformance.program.ir import (
    DictSpec,
    Get,
    If,
    Input,
    Kwarg,
    KwargCond,
    OpStmt,
    OutDict,
    OutSeq,
    OutVar,
    SeqSpec,
    TensorSpec,
)
from conformance.program.program import Program


def ensure_registered(records: tuple) -> None:
    """Register ``records`` unless their framework's module already did."""
    register(*(r for r in records if r.id not in PATHS))


def skip_without_requirements(path_id: str) -> None:
    """Skip the test where a module the path needs (its optional runtime) is not installed."""
    for module in PATHS[path_id].requires:
        pytest.importorskip(module)


def assert_clean_passes(case: Case, prepared, path_id: str) -> None:
    """The path passes the clean case on each of its input sets."""
    from conformance.run.runner import run_path

    skip_without_requirements(path_id)
    record = run_path(case, prepared, PATHS[path_id])
    assert record["outcome"] == "pass", record["detail"]["message"]
    assert [e["outcome"] for e in record["detail"]["inputs"]] == ["pass"] * len(case.inputs)


def assert_planted_is_a_mismatch(case: Case, prepared, path_id: str) -> None:
    """The path with a planted fault (:func:`planted`) is a mismatch on each of the case's input sets."""
    from conformance.run.runner import run_path

    skip_without_requirements(path_id)
    record = run_path(case, prepared, planted(PATHS[path_id]))
    assert record["outcome"] == "mismatch", record["detail"]["message"]
    assert all(e["outcome"] == "mismatch" for e in record["detail"]["inputs"])


def clean_program(keys: tuple = ("zeta", "alpha")) -> Program:
    """Nested inputs (a list and a dict), a bool and a float kwarg, a dict in the output; no data-dependent control
    flow, so that torch.export (and every path through it) captures it. (The float kwarg is not used in arithmetic:
    the TorchScript ONNX exporter makes such a kwarg a graph input, a known torch bug of its own.) ``keys``: those of
    the output dict, unsorted by default (TensorFlow and tf2onnx order outputs by sorted key)."""
    return Program(
        seed=3,
        inputs=(Input("x", SeqSpec("list", (TensorSpec(("B", 3)), TensorSpec(("B", 3))))),
                Input("y", DictSpec((("k1", TensorSpec(("B", 2))), ("k0", TensorSpec((2,))))))),
        kwargs=(Kwarg("flag", "bool", True, (True, False)), Kwarg("alpha", "float", 0.5, (0.5, 2.0))),
        params=(),
        body=(Get("v0", "x", (0,)), Get("v1", "x", (1,)), Get("v2", "y", ("k1",)), Get("v3", "y", ("k0",)),
              OpStmt("v4", "add", ("v0", "v1")),
              If(KwargCond("flag", "truth"), (OpStmt("v4", "relu", ("v4",)),), (OpStmt("v4", "neg", ("v4",)),)),
              If(KwargCond("alpha", ">", 1.0), (OpStmt("v4", "mul_scalar", ("v4",), (("c", 3.0),)),), ()),
              OpStmt("v5", "exp", ("v2",)), OpStmt("v6", "mul_scalar", ("v3",), (("c", 0.5),))),
        output=OutSeq("tuple", (OutDict(((keys[0], OutVar("v4")), (keys[1], OutVar("v5")))), OutVar("v6"))))


def clean_case(keys: tuple = ("zeta", "alpha")) -> Case:
    """The clean program on the example, other values, and another batch size (the same kwargs)."""
    kwargs = (("alpha", 0.5), ("flag", True))
    return Case(clean_program(keys), (InputSet("example", 2, 1, kwargs), InputSet("values", 2, 2, kwargs),
                                  InputSet("batch", 4, 3, kwargs)))


def _as_array(leaf):
    if hasattr(leaf, "detach"):  # torch
        leaf = leaf.detach().cpu()
    if hasattr(leaf, "numpy") and not isinstance(leaf, np.ndarray):
        return leaf.numpy()
    return np.asarray(leaf)


def perturbed(tree, done: list):
    """``tree`` with its first non-empty float leaf replaced by a numpy copy whose largest element is off by 1e-3
    relative (``done`` records that it happened); lists keep their type (the runner rebuilds flat outputs)."""
    if isinstance(tree, dict):
        return {k: perturbed(v, done) for k, v in tree.items()}
    if isinstance(tree, (list, tuple)):
        return type(tree)([perturbed(v, done) for v in tree])
    if done:
        return tree
    array = _as_array(tree)
    if array.dtype.kind != "f" or not array.size:
        return tree
    array = array.copy()
    flat = array.reshape(-1)
    i = int(np.abs(flat).argmax())
    flat[i] = flat[i] * (1 + 1e-3) + (1e-3 if flat[i] == 0 else 0.0)
    done.append(True)
    return array


class Perturbed:
    """A converted model whose outputs come back perturbed (see :func:`perturbed`)."""

    def __init__(self, artifact, run):
        self.artifact, self.run = artifact, run

    def __call__(self, *args, **kwargs):
        return perturbed(self.run(self.artifact, list(args), dict(kwargs)), [])


def planted(path: PathRecord) -> PathRecord:
    """``path`` with a planted fault: the same conversion, the outputs perturbed. Selected only by name."""
    def convert(ctx):
        return Perturbed(path.convert(ctx), path.run)

    def run(artifact, args, kwargs):
        return artifact(*args, **kwargs)

    record = dataclasses.replace(path, name="planted_" + path.name, convert=convert, run=run, default=False)
    register(record)
    return record
