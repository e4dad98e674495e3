"""Paths judged end to end: planted wrong paths are caught, trace's frozen branch is never a pass."""

import pytest
from hypothesis import HealthCheck, assume, given, settings

pytest.importorskip("torch")

from conformance.paths.records import PATHS  # noqa: E402
from conformance.program.case import Case, InputSet, materialize  # noqa: E402
from conformance.program.ir import Get, If, Input, OpStmt, OutVar, TensorCond, TensorSpec  # noqa: E402
from conformance.program.program import Program
from conformance.program.strategies import cases  # noqa: E402
from conformance.run.runner import check  # noqa: E402

from . import planted_paths  # noqa: E402

quick = settings(max_examples=8, deadline=None, derandomize=True, database=None,
                 suppress_health_check=list(HealthCheck))


def _has_float_output(record) -> bool:
    return any(e.get("outcome") != "discarded" for e in record["detail"].get("inputs", []))


@quick
@given(cases())
def test_planted_perturbation_is_a_mismatch(case):
    eager = check(case, PATHS["torch.eager"])
    assume(eager["outcome"] == "pass")
    record = check(case, PATHS["torch.planted_perturb"])
    outs = [e for e in record["detail"]["inputs"] if e["outcome"] != "discarded"]
    if all(e.get("max_abs_err", 0) == 0 for e in outs):  # no float output to perturb
        assume(False)
    assert record["outcome"] == "mismatch", record["detail"]["message"]


@quick
@given(cases())
def test_planted_dtype_and_nan_are_mismatches(case):
    assume(check(case, PATHS["torch.eager"])["outcome"] == "pass")
    dtype = check(case, PATHS["torch.planted_dtype"])
    nan = check(case, PATHS["torch.planted_nan"])
    float_out = dtype["outcome"] != "pass"  # only programs with a float output can be broken this way
    assume(float_out)
    assert dtype["outcome"] == "mismatch" and "dtype" in dtype["detail"]["message"]
    assert nan["outcome"] == "mismatch" and "NaN" in nan["detail"]["message"]


@quick
@given(cases())
def test_eager_and_script_pass_generated_programs(case):
    for name in ("torch.eager", "torch.script"):
        record = check(case, PATHS[name])
        assert record["outcome"] in ("pass", "discarded"), record["detail"]["message"]


def _branch_program() -> Program:
    """if x.sum() > 0: relu(x) else: -x — a data-dependent branch."""
    return Program(
        seed=0, inputs=(Input("x", TensorSpec((4, 3))),), kwargs=(), params=(),
        body=(Get("v0", "x"),
              If(TensorCond("v0", "sum", ">", 0.0), (OpStmt("v0", "relu", ("v0",)),), (OpStmt("v0", "neg", ("v0",)),))),
        output=OutVar("v0"))


def _seed_with_sign(program, positive: bool) -> int:
    for s in range(1000):
        args, _ = materialize(program, InputSet("example", 1, s))
        if (args[0].sum() > 0.5) == positive and abs(args[0].sum()) > 0.5:
            return s
    raise AssertionError("no seed found")


@pytest.mark.parametrize("path", ["torch.trace", "torch.onnx_torchscript"])
def test_trace_on_the_other_branch_is_caught(path):
    p = _branch_program()
    case = Case(p, (InputSet("example", 1, _seed_with_sign(p, True)), InputSet("values", 1, _seed_with_sign(p, False))))
    record = check(case, PATHS[path])
    by_role = {e["role"]: e["outcome"] for e in record["detail"]["inputs"]}
    assert by_role["example"] == "pass"
    assert by_role["values"] in ("expected_divergence", "mismatch")
    assert record["outcome"] in ("expected_divergence", "mismatch")
    assert any("TracerWarning" in w for w in record["detail"]["warnings"]) or path != "torch.trace"
    # script follows the branch: no divergence at all
    assert check(case, PATHS["torch.script"])["outcome"] == "pass"


def test_a_mismatch_is_rerun_to_tell_flaky_from_wrong():
    p = _branch_program()
    case = Case(p, (InputSet("example", 1, _seed_with_sign(p, True)),))
    wrong = check(case, PATHS["torch.planted_perturb"])
    assert wrong["outcome"] == "mismatch" and wrong["detail"]["inputs"][0]["flaky"] is False
    planted_paths._calls["n"] = 0
    flaky = check(case, PATHS["torch.planted_flaky"])
    assert flaky["outcome"] == "mismatch" and flaky["detail"]["inputs"][0]["flaky"] is True
    assert flaky["detail"]["message"].startswith("example inputs: flaky")


def test_specialisation_does_not_excuse_a_wrong_result():
    """On the other branch trace must compute eager with the example's branch; anything else is a bug."""
    p = _branch_program()
    case = Case(p, (InputSet("example", 1, _seed_with_sign(p, True)), InputSet("values", 1, _seed_with_sign(p, False))))
    trace = check(case, PATHS["torch.trace"])
    assert trace["outcome"] == "expected_divergence"
    assert "matches eager replayed with the example's kwargs and control flow" in trace["detail"]["message"]
    wrong = check(case, PATHS["torch.planted_trace_wrong"])
    assert wrong["outcome"] == "mismatch", wrong["detail"]["message"]
    assert "differs even from eager replayed" in wrong["detail"]["message"]


def test_a_known_bug_is_named_on_inputs_a_path_specialises_on_too():
    """A mismatch against eager's replay (inputs the path specialises on) is named by a compare-phase
    known-bug record like any other mismatch: it stays a mismatch, with the record's reason."""
    import dataclasses

    from conformance.paths.records import Limitation

    p = _branch_program()
    case = Case(p, (InputSet("example", 1, _seed_with_sign(p, True)), InputSet("values", 1, _seed_with_sign(p, False))))
    known = Limitation("known bug: planted, 1% off off the example", r"differs even from eager replayed|value",
                       phase="compare", outcome=None)
    path = dataclasses.replace(PATHS["torch.planted_trace_wrong"], limitations=(known,))
    record = check(case, path)
    assert record["outcome"] == "mismatch" and record["detail"]["inputs"][1]["outcome"] == "mismatch"
    assert record["detail"]["inputs"][1]["known_issue"].startswith("known bug: planted")


def test_export_refuses_data_dependent_branch_as_documented():
    p = _branch_program()
    case = Case(p, (InputSet("example", 1, _seed_with_sign(p, True)),))
    record = check(case, PATHS["torch.export"])
    assert record["outcome"] == "unsupported" and "torch.cond" in record["detail"]["limitation"]
