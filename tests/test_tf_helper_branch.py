"""The ``helper_branch`` statement (a helper calling a helper whose ``if`` tests the tensor) inside an ``if`` on a
tensor: AutoGraph carries a variable that a local function closes over (the first helper, which the second calls)
through the ``tf.cond`` around it, so helpers defined inside the branch would be refused as function-valued outputs
(in a ``while`` on a tensor: "must be defined before the loop"). TensorFlow's rendering defines them at module level,
as TensorFlow users do; every graph path converts the statement there and agrees with eager on both of the helper's
branches."""

import numpy as np
import pytest

pytest.importorskip("conformance.paths.tf", reason="tensorflow is not installed")  # the adapter imports it

from conformance.paths.records import PATHS  # noqa: E402
from conformance.program.case import Case, InputSet  # noqa: E402
from conformance.program.ir import Get, If, Input, OpStmt, OutVar, TensorCond, TensorSpec  # noqa: E402
from conformance.program.program import Program  # noqa: E402
from conformance.render.source import render  # noqa: E402
from conformance.run.runner import prepare, run_path  # noqa: E402


def _case() -> Case:
    """if x.amax() > -5 (always, but decided by the data): helper_branch(x) else: -x; x: float32[B, 3]."""
    program = Program(
        seed=7, inputs=(Input("x", TensorSpec(("B", 3))),), kwargs=(), params=(),
        body=(Get("v0", "x"),
              If(TensorCond("v0", "amax", ">", -5.0), (OpStmt("v0", "helper_branch", ("v0",)),),
                 (OpStmt("v0", "neg", ("v0",)),))),
        output=OutVar("v0"))
    return Case(program, tuple(InputSet(role, 2, seed) for role, seed in
                               (("example", 1), ("values", 2), ("values", 3), ("values", 4), ("values", 5))))


@pytest.fixture(scope="module")
def prepared():
    case = _case()
    return case, prepare(case, "tf")


def test_the_helpers_are_module_level_functions():
    source = render(_case().program, "tf")
    assert "\ndef _branch_step(t):" in source and "\ndef _branch_helper(t):" in source
    assert "        def " not in source  # nothing defined inside the model's __call__


def test_the_inputs_take_both_of_the_helpers_branches(prepared):
    _, prep = prepared
    sums = [float(np.sum(run.args[0])) for run in prep.runs]
    assert min(sums) < 0.0 < max(sums), sums


@pytest.mark.parametrize("path", ["tf.function", "tf.xla", "tf.saved_model"])
def test_a_helper_branch_inside_a_tf_cond_converts_and_agrees_with_eager(prepared, path):
    case, prep = prepared
    record = run_path(case, prep, PATHS[path])
    assert record["outcome"] == "pass", record["detail"]["message"]
    assert [e["outcome"] for e in record["detail"]["inputs"]] == ["pass"] * len(case.inputs)
