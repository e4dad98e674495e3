"""A program eager itself refuses (an integer division by zero raises) is ``discarded`` ("eager refuses ..."),
never a finding; the same program with a non-zero divisor passes; a path that raises where eager does not is
still a ``runtime_error`` finding; the branch-flip guard's probes (this project's code in the rendered model) that
raise where the model without them runs are a ``harness_error``, not eager's refusal."""

from __future__ import annotations

import copy
import importlib.util
import json
from pathlib import Path

import pytest

needs_torch = pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")

#: ``x0 // x1`` and ``x2 // x3`` on int64 and float32 (the IR case of pytorch/pytorch#78442)
_CASE = Path(__file__).parent.parent / "cases" / "torch-onnx-floor-divide-truncates.json"


def _case(divisor: list):
    from conformance.program.case import Case

    d = copy.deepcopy(json.loads(_CASE.read_text())["case"])
    d["program"]["inputs"][1]["spec"]["values"] = divisor
    return Case.from_dict(d)


def _path(name: str, run):
    from conformance.paths.records import PathRecord

    return PathRecord("torch", name, "eager again", lambda ctx: ctx.model, run, default=False)


def _eager_again(model, args, kwargs):
    return model(*args, **kwargs)


def _raises_on_int_division(model, args, kwargs):
    import torch

    original = torch.Tensor.__floordiv__

    def refuse(a, b):
        if not a.is_floating_point():
            raise RuntimeError("planted: integer // refused")
        return original(a, b)

    torch.Tensor.__floordiv__ = refuse
    try:
        return model(*args, **kwargs)
    finally:
        torch.Tensor.__floordiv__ = original


@needs_torch
def test_integer_division_by_zero_is_an_eager_refusal_not_a_finding():
    from conformance.run.records import FINDINGS
    from conformance.run.runner import check

    record = check(_case([3, 0, 2, -2]), _path("eager_refusal_clean", _eager_again))
    assert record.outcome == "discarded", record.detail.message
    assert record.outcome not in FINDINGS
    assert record.detail.message.startswith("eager refuses the program: ")
    assert "ZeroDivisionError" in record.detail.message


@needs_torch
def test_the_same_program_with_a_nonzero_divisor_passes():
    from conformance.run.runner import check

    record = check(_case([3, -3, 2, -2]), _path("eager_refusal_clean", _eager_again))
    assert record.outcome == "pass", record.detail.message


@needs_torch
def test_a_path_that_raises_where_eager_does_not_is_still_a_finding():
    from conformance.run.records import FINDINGS
    from conformance.run.runner import check

    record = check(_case([3, -3, 2, -2]), _path("eager_refusal_planted", _raises_on_int_division))
    assert record.outcome == "runtime_error" and record.outcome in FINDINGS, record.detail.message
    assert "planted: integer // refused" in json.dumps(record.to_json())


@needs_torch
def test_a_probe_that_raises_where_the_model_without_probes_runs_is_a_harness_error(monkeypatch):
    from conformance.run import runner

    real = runner.load_model_module

    def refuse(t):
        raise RuntimeError("planted: the probe's kernel is missing")

    def planted(program, framework, *, probed=False, **options):
        module = real(program, framework, probed=probed, **options)
        if probed:  # the probe of x0 // x1 (the quotient the guard watches) raises as a framework would
            monkeypatch.setattr(module, "_to_np", refuse)
        return module

    monkeypatch.setattr(runner, "load_model_module", planted)
    record = runner.check(_case([3, -3, 2, -2]), _path("eager_refusal_clean", _eager_again))
    assert record.outcome == "harness_error", record.detail.message
    assert runner.PROBES_AT_FAULT in record.detail.message and "planted: the probe's kernel" in record.detail.message
    # a program that raises without the probes too is eager's refusal, whatever the probes do
    record = runner.check(_case([3, 0, 2, -2]), _path("eager_refusal_clean", _eager_again))
    assert record.outcome == "discarded" and record.detail.message.startswith("eager refuses the program: ")
