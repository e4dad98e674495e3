"""The op records' own rules: every framework has an emitter or a reason, results with data-dependent sizes
are typed one symbol per result (never reassigned, never in a loop), programs drawn for one framework use
ops only it has, and the records' helpers are real code that the model modules get."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from conformance.program.ir import ProgramError, TensorType
from conformance.program.ops import OPS
from conformance.program.ops.record import FRAMEWORKS, OpRecord, has_data_dim, same_type
from conformance.program.program import Program
from conformance.program.strategies import programs
from conformance.program.typecheck import op_arg_types


def _program(body, output, shape=(2, 3)):
    return {"format": 1, "seed": 0, "kwargs": [], "params": [],
            "inputs": [{"name": "x", "spec": {"kind": "tensor", "shape": list(shape), "dtype": "float32",
                                              "low": -1.0, "high": 1.0}}],
            "body": [{"kind": "get", "out": "v0", "source": "x", "path": []}] + body,
            "output": {"kind": "var", "name": output}}


def _op(out, op, args, **attrs):
    return {"kind": "op", "out": out, "op": op, "args": list(args), "attrs": attrs}


_MASKED = [_op("m", "gt", ["v0", "v0"]), _op("s", "masked_select", ["v0", "m"])]


def test_a_record_needs_an_emitter_or_a_reason_for_every_framework():
    with pytest.raises(ValueError, match="no emitter and no reason"):
        OpRecord(name="x", family="f", arity=1, doc="", infer=same_type, bound=lambda ivs, a, ts: ivs[0],
                 emit={"torch": "{0}"})
    assert all(set(rec.emit) | set(rec.missing) == set(FRAMEWORKS) for rec in OPS.values())


def test_a_data_dependent_result_has_a_symbol_of_its_own():
    p = Program.from_dict(_program(_MASKED + [_op("n", "neg", ["s"]), _op("t", "add", ["s", "n"])], "t"))
    types = list(op_arg_types(p).values())
    assert [str(t) for t in types[-1]] == ["float32[n_s]", "float32[n_s]"]


@pytest.mark.parametrize("body, message", [
    (_MASKED + [_op("s", "masked_select", ["v0", "m"])], "assigns a new variable"),
    ([_op("m", "gt", ["v0", "v0"]), {"kind": "for", "var": "i", "count": 2,
                                     "body": [_op("s", "masked_select", ["v0", "m"])]}], "inside a loop"),
    (_MASKED + [_op("a", "amax", ["s"], dim=0, keepdim=False)], "may be empty"),
    (_MASKED + [{"kind": "op", "out": "u", "op": "masked_select", "args": ["v0", "m"]},
                _op("t", "add", ["s", "u"])], "do not broadcast"),
])
def test_data_dependent_sizes_are_checked(body, message):
    with pytest.raises(ProgramError, match=message):
        Program.from_dict(_program(body, "v0"))


@settings(max_examples=30, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(programs(frameworks=("torch",)))
def test_a_draw_for_one_framework_uses_only_its_ops(p):
    assert all("torch" in OPS[name].emit for name in p.ops())


@settings(max_examples=30, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(programs())
def test_a_default_draw_renders_everywhere_and_types_data_dependent_sizes(p):
    assert all(set(FRAMEWORKS) <= set(OPS[name].emit) for name in p.ops())
    again = Program.from_json(p.to_json())
    for types in op_arg_types(again).values():
        for t in (t for t in types if isinstance(t, TensorType)):  # a Python value's type has no dims
            assert not has_data_dim(t) or all(isinstance(d, int) or d in ("B",) or d.startswith("n_")
                                             for d in t.shape)


def test_helpers_are_rendered_into_the_models_that_use_them():
    from conformance.render.source import render

    p = Program.from_dict(_program([_op("c", "cummax", ["v0"], dim=1)], "c"))
    assert "def tf_cumulative(" in render(p, "tf") and "tf_cumulative(" not in render(p, "torch")
