"""The loss head of the ``grad`` and ``train`` modes adds outputs of mixed float dtypes (float16 next to float32 and
float64): eager's gradient reference no longer raises on such a program in Paddle and TensorFlow (TF's ``AddN``
refused mixed dtypes, so every such program was refused), it passes along eager again, and a path that gets the
float16 output wrong is still a mismatch in ``grad`` mode."""

from __future__ import annotations

import importlib.util

import pytest

#: ``x0`` (float32) cast to float16, as is, and cast to float64 (as in a TF campaign of issue 15)
_PROGRAM = {
    "format": 1, "seed": 12207200, "kwargs": [], "params": [],
    "inputs": [{"name": "x0", "spec": {"kind": "tensor", "dtype": "float32", "low": 0.1, "high": 2.0,
                                        "shape": [3, 2, 5]}}],
    "body": [{"kind": "get", "out": "v0", "path": [], "source": "x0"},
             {"kind": "op", "op": "cast", "out": "v1", "args": ["v0"], "attrs": {"dtype": "float16"}, "params": []},
             {"kind": "op", "op": "cast", "out": "v2", "args": ["v0"], "attrs": {"dtype": "float64"}, "params": []}],
    "output": {"kind": "tuple", "items": [{"kind": "var", "name": "v1"}, {"kind": "var", "name": "v0"},
                                          {"kind": "var", "name": "v2"}]},
}

FRAMEWORKS = [pytest.param(fw, marks=pytest.mark.skipif(importlib.util.find_spec(module) is None,
                                                        reason=f"{module} is not installed"))
              for fw, module in (("paddle", "paddle"), ("tf", "tensorflow"))]


def _case():
    from conformance.program.case import Case

    return Case.from_dict({"program": _PROGRAM, "inputs": [{"role": "example", "batch": 1, "seed": 0, "kwargs": {}}]})


def _doubled_float16(framework: str):
    """The framework's eager call, with its float16 output doubled."""
    from conformance.paths.records import PATHS, PathRecord

    eager = PATHS[f"{framework}.eager"]

    def convert(ctx):
        model = eager.convert(ctx)

        def doubled(*args, **kwargs):
            out = list(model(*args, **kwargs))
            out[0] = out[0] * 2
            return tuple(out)
        return doubled

    return PathRecord(framework, "planted_float16_doubled", "eager, float16 output doubled", convert,
                      lambda model, args, kwargs: model(*args, **kwargs), modes=eager.modes, default=False)


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_mixed_float_outputs_have_a_gradient_reference(framework):
    from conformance.paths.records import PATHS, load_framework
    from conformance.run.runner import check

    load_framework(framework)
    for mode in ("grad", "train"):
        record = check(_case(), PATHS[f"{framework}.eager"], mode=mode)
        assert record.outcome == "pass", (mode, record.outcome, record.detail.message)


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_a_wrong_float16_output_is_still_a_gradient_mismatch(framework):
    from conformance.paths.records import load_framework
    from conformance.run.runner import check

    load_framework(framework)
    record = check(_case(), _doubled_float16(framework), mode="grad")
    assert record.outcome == "mismatch", (record.outcome, record.detail.message)
