"""The reduced-precision guard never runs this project's probes where they cannot run (issue 20, item 5): a path
that builds a graph from the model's code once (``paddle.to_static_amp``) is guarded by margins, and a probed model
that fails along an observed path falls back to margins too. Either way the probes' failure is never a record of
the path: before, ``to_static_amp`` converted the probed model and reported Paddle's "'pir.Value' object has no
attribute 'copy'" (from the probe helper ``_to_np``) as a ``runtime_error`` of Paddle."""

import sys

import numpy as np
import pytest

from conformance.judge.precision import near_threshold


def test_near_threshold_scales_the_fp32_guard_to_bfloat16():
    # 0.5% from the threshold: within bfloat16's rtol (1.6e-2) of the operands, far outside fp32's guard
    assert near_threshold(0.005, 0.005, 0.005, 1.0, "bfloat16")
    assert not near_threshold(0.2, 0.2, 0.2, 1.0, "bfloat16")
    # fp32 eager off by 1e-6 there: bfloat16 may be off by 2**16 times that, times the guard's 10
    assert near_threshold(0.3, 0.3 + 1e-6, 0.3, 1.0, "bfloat16")
    # a value compared with itself is an exact tie in every run: no rounding moves it
    assert not near_threshold(0.0, 0.0, 0.0, 2.0, "bfloat16")
    assert near_threshold(np.nan, 0.0, 0.0, 1.0, "bfloat16")
    assert list(near_threshold(np.array([0.001, 1.0]), np.array([0.001, 1.0]), np.array([0.001, 1.0]),
                               np.array([1.0, 1.0]), "bfloat16")) == [True, False]


paddle = pytest.importorskip("paddle")

from conformance.paths.records import PATHS, select_paths  # noqa: E402
from conformance.program.case import Case, InputSet, materialize  # noqa: E402
from conformance.program.ir import Get, If, Input, OpStmt, OutSeq, OutVar, Param, TensorCond, TensorSpec  # noqa: E402
from conformance.program.program import Program  # noqa: E402
from conformance.render.source import load_model_module  # noqa: E402
from conformance.run.runner import check  # noqa: E402

select_paths(["paddle"])
AMP = "paddle.to_static_amp"
needs_bf16 = pytest.mark.skipif(not paddle.base.core.supports_bfloat16(),
                                reason="this CPU has no oneDNN bfloat16 kernels (to_static_amp is refused)")


def _program(threshold: float, extra=()) -> Program:
    """linear(x) (bfloat16 under AMP), then if its sum > threshold: relu else neg; ``extra`` statements after."""
    return Program(seed=0, inputs=(Input("x", TensorSpec((4, 8))),), kwargs=(),
                   params=(Param("p0", (8, 8)), Param("p1", (8,))),
                   body=(Get("v0", "x"), OpStmt("v0", "linear", ("v0",), (("out_features", 8),), ("p0", "p1")),
                         If(TensorCond("v0", "sum", ">", threshold), (OpStmt("v0", "relu", ("v0",)),),
                            (OpStmt("v0", "neg", ("v0",)),))) + tuple(extra),
                   output=OutVar("v0") if not extra else OutSeq("tuple", (OutVar("v0"), OutVar("v1"))))


def _linear_sum(inputs: InputSet) -> float:
    """fp64 eager's sum of linear(x) on ``inputs``: the value the branch compares, as its probe records it."""
    program = _program(0.0)
    module = load_model_module(program, "paddle", probed=True, float_dtype="float64")
    model = module.Model()
    model.to(dtype="float64")
    (x,), _ = materialize(program, inputs)
    module.PROBES.clear()
    model(paddle.to_tensor(x.astype(np.float64)))
    (kind, _, (lhs, _), _), = module.PROBES
    assert kind == "cond"
    return float(lhs)


def _case(program: Program, inputs: InputSet) -> Case:
    return Case(program, (inputs,))


@needs_bf16
def test_to_static_amp_judges_a_branching_model_without_a_harness_error():
    record = check(_case(_program(-1e6), InputSet("example", 1, 0)), PATHS[AMP])
    assert record["outcome"] == "pass", record["detail"]["message"]


@needs_bf16
def test_to_static_amp_discards_a_predicate_within_bfloat16_reach_of_its_threshold():
    inputs = InputSet("example", 1, 0)
    total = _linear_sum(inputs)
    near = check(_case(_program(round(total - 0.004 * abs(total), 6)), inputs), PATHS[AMP])
    assert near["outcome"] == "discarded", near["detail"]["message"]
    assert "within bfloat16's reach" in near["detail"]["message"]
    far = check(_case(_program(round(total - 0.5 * abs(total) - 1.0, 6)), inputs), PATHS[AMP])
    assert far["outcome"] == "pass", far["detail"]["message"]


@needs_bf16
@pytest.mark.parametrize("op", ["gt", "to_int", "sign"])
def test_to_static_amp_runs_every_probe_kind(op):
    """Comparisons (cmp probes) and int casts (int probes) are watched by margins, never run through to_static."""
    args = ("v0", "v0") if op == "gt" else ("v0",)
    record = check(_case(_program(-1e6, (OpStmt("v1", op, args),)), InputSet("example", 1, 0)), PATHS[AMP])
    assert record["outcome"] in ("pass", "discarded"), record["detail"]["message"]
    assert "harness" not in record["detail"]["message"] and "pir.Value" not in record["detail"]["message"]


def test_a_probed_model_that_fails_along_an_observed_path_falls_back_to_margins():
    """A path that runs the model's code at every call but fails on the probed model (the probes are ours): the
    input set is judged by margins, the clean model's run decides the record."""
    from conformance.paths.paddle.conversions import call
    from conformance.paths.records import PathRecord, register

    def refuses_probes(ctx):
        if hasattr(sys.modules[type(ctx.model).__module__], "PROBES"):
            raise AttributeError("'pir.Value' object has no attribute 'copy'")
        return ctx.model

    register(PathRecord("paddle", "planted_refuses_probes", "eager, declared bfloat16; raises on a probed model",
                        refuses_probes, call, default=False, precision="bfloat16"))
    try:
        record = check(_case(_program(-1e6), InputSet("example", 1, 0)), PATHS["paddle.planted_refuses_probes"])
    finally:
        PATHS.pop("paddle.planted_refuses_probes", None)
    assert record["outcome"] == "pass", record["detail"]["message"]
