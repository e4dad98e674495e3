"""What Paddle's to_static path looks at in grad and train modes is the program the gradient calls run: a bool input
that an InputSpec would mark as needing a gradient (what jit.save builds) is not one here, so a program static
paddle.expand accepts from the calls converts; the fact that names the detached-branch bug is still read from it."""

import pytest

from conformance.program.case import Case, InputSet
from conformance.program.ir import Get, If, Input, OpStmt, OutSeq, OutVar, SeqSpec, TensorCond, TensorSpec
from conformance.program.program import Program

from .test_python_values import program_of

pytest.importorskip("paddle")


def _check(program, path, mode):
    from conformance.paths.records import PATHS, load_framework
    from conformance.run.runner import check

    load_framework("paddle")
    return check(Case(program, (InputSet("example", 2, 1, ()),)), PATHS[path], mode=mode)


def test_a_bool_input_expanded_converts_in_train_mode_and_only_jit_save_refuses_it():
    body = (Get("v0", "x0", (0,)), OpStmt("v1", "reshape", ("v0",), (("shape", (1, 3, 1)),)),
            OpStmt("v2", "expand", ("v1",), (("sizes", (2, -1, 2)),)))
    program = Program(5, (Input("x0", SeqSpec("list", (TensorSpec((1, 3), "bool"),))),), (), (), body,
                      OutSeq("list", (OutVar("v2"),)), training=True)
    program = Program.from_dict(program.to_dict())
    record = _check(program, "paddle.to_static", "train")
    assert record.outcome == "pass", record.detail.message[:500]
    saved = _check(program, "paddle.jit_save", "infer")
    assert saved.outcome == "conversion_error" and saved.detail.known_issue.startswith(
        "paddle_jit_save.expand_bool_input_spec"), saved.detail.message[:500]


def test_a_branch_that_detaches_is_still_told_from_the_program_of_the_gradient_calls():
    program = program_of(OpStmt("v1", "tanh", ("v0",)),
                         If(TensorCond("v0", "mean", ">", 5.0), (OpStmt("v1", "detach", ("v1",)),),
                            (OpStmt("v1", "neg", ("v1",)),)),
                         OpStmt("v2", "mul", ("v1", "v0")), output=OutVar("v2"))
    program = Program.from_dict({**program.to_dict(), "training": True})
    record = _check(program, "paddle.to_static", "grad")
    assert record.outcome == "mismatch" and (record.detail.known_issue or "").startswith(
        "pir_ast.detached_branch_gradient"), record.detail.message[:500]
