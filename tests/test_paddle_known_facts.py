"""Known Paddle bugs that a failure's kind alone cannot tell apart are named from what the conversion or its runs
showed (conformance.paths.paddle.limitations.Seen, the facts in conformance.paths.paddle.conversions.FACTS): issue
20, item 5. Each test is a real Paddle failure, named; and a failure of the same kind without the fact stays
unnamed."""

import pytest

pytest.importorskip("paddle")

from conformance.paths.records import PATHS, select_paths  # noqa: E402
from conformance.program.case import Case, InputSet  # noqa: E402
from conformance.program.ir import Get, If, Input, OpStmt, OutSeq, OutVar, Param, TensorCond, TensorSpec  # noqa: E402
from conformance.program.program import Program  # noqa: E402
from conformance.run.runner import check  # noqa: E402

select_paths(["paddle"])


def _case(body, output, params=(), sets=2) -> Case:
    program = Program(seed=1, inputs=(Input("x", TensorSpec(("B", 3))),), kwargs=(), params=params, body=body,
                      output=output)
    return Case(program, tuple(InputSet(role, 2, i) for i, role in enumerate(("example", "values")[:sets])))


def test_a_tensor_returned_twice_and_saved_once_is_named():
    case = _case((Get("v0", "x"), OpStmt("v1", "neg", ("v0",))), OutSeq("list", (OutVar("v1"), OutVar("v1"))))
    assert check(case, PATHS["paddle.to_static"])["outcome"] == "pass"
    for path in ("jit_save", "inference", "onnx"):
        record = check(case, PATHS[f"paddle.{path}"])
        assert record["outcome"] == "mismatch" and "1 outputs, eager has 2" in record["detail"]["message"], path
        assert "returns one tensor twice" in record["detail"]["known_issue"], path


def test_an_input_plus_a_constant_lost_by_jit_save_is_named():
    case = _case((Get("v0", "x"), OpStmt("v1", "add_scalar", ("v0",), (("c", 1.0),))), OutVar("v1"))
    record = check(case, PATHS["paddle.jit_save"])
    assert record["outcome"] == "mismatch" and "input plus a constant" in record["detail"]["known_issue"]


def test_a_program_writing_into_its_input_is_named_in_train_mode():
    """`if x.min() > 100: x = x + 1` (not taken: the if yields x itself), `x = x + 0.25` made in-place: six forwards
    on one batch drift (cases/paddle-to-static-inplace-pass-writes-input.json)."""
    body = (Get("v0", "x"),
            If(TensorCond("v0", "amin", ">", 100.0), (OpStmt("v0", "add_scalar", ("v0",), (("c", 1.0),)),)),
            OpStmt("v0", "add_scalar", ("v0",), (("c", 0.25),)))
    case = _case(body, OutVar("v0"), sets=1)
    assert check(case, PATHS["paddle.to_static_sot"], mode="train")["outcome"] == "pass"
    record = check(case, PATHS["paddle.to_static"], mode="train")
    assert record["outcome"] == "mismatch" and "inplace pass" in record["detail"]["known_issue"]


def test_training_a_layer_converted_in_eval_is_named_and_in_train_it_is_not_that():
    body = (Get("v0", "x"), OpStmt("v1", "linear", ("v0",), (("out_features", 3),), ("p0", "p1")))
    params = (Param("p0", (3, 3)), Param("p1", (3,)))
    case = _case(body, OutVar("v1"), params=params, sets=1)
    record = check(case, PATHS["paddle.to_static"], mode="train")  # generated models are in eval() unless training
    assert record["outcome"] == "mismatch" and "converted in eval()" in record["detail"]["known_issue"]
    trained = Case(Program(**{**{f: getattr(case.program, f) for f in ("seed", "inputs", "kwargs", "params", "body",
                                                                          "output")}, "training": True}), case.inputs)
    assert check(trained, PATHS["paddle.to_static"], mode="train")["outcome"] == "pass"
