"""The known-bug records added for the Paddle seed-0 campaign of 2026-11-28 name their bug, on small programs, and
leave the same program without the bug's trigger passing (see conformance/paths/paddle/limitations.py and
onednn_limitations.py)."""

import pytest

pytest.importorskip("paddle")

from conformance.paths.paddle import limitations as known  # noqa: E402
from conformance.paths.paddle import onednn_limitations as onednn  # noqa: E402
from conformance.paths.records import PATHS, Failure  # noqa: E402
from conformance.program.case import Case, InputSet  # noqa: E402
from conformance.program.ir import Get, If, Input, OpStmt, OutVar, Return, TensorCond, TensorSpec  # noqa: E402
from conformance.program.program import Program  # noqa: E402
from conformance.run.runner import check  # noqa: E402


def _case(body, output, shape=(2, 3), training: bool = False) -> Case:
    program = Program(seed=1, inputs=(Input("x", TensorSpec(shape)),), kwargs=(), params=(), body=body, output=output,
                      training=training)
    return Case(program, (InputSet("example", 2, 1),))


def test_known_bug_a_layer_saved_in_train_runs_batch_norm_for_inference():
    """jit.save of a layer in train() writes batch norm and dropout with is_test=true: named on the saved paths in
    infer mode by the saved model's own attributes (the fact saved_for_inference), not by the ops alone."""
    from .test_training import batch_norm_program

    case = Case(batch_norm_program(p=0.0), (InputSet("example", 1, 11),))
    record = check(case, PATHS["paddle.jit_save"])
    assert record["outcome"] == "mismatch", record["detail"]["message"]
    assert "writes its batch norm and dropout for inference" in record["detail"]["known_issue"]
    assert check(Case(batch_norm_program(p=0.0, training=False), case.inputs), PATHS["paddle.jit_save"])[
        "outcome"] == "pass"


def test_known_bug_a_variable_rebound_after_an_early_return_loses_its_gradient():
    """if x.mean() < -0.97: return x; x = -x; return x  (grad through AST to_static: 0; SOT is right)"""
    body = (Get("v0", "x"), If(TensorCond("v0", "mean", "<", -0.97), (Return(OutVar("v0")),)),
            OpStmt("v0", "neg", ("v0",)))
    case = _case(body, OutVar("v0"), training=True)  # in eval() every gradient is None (EVAL_NO_GRADIENTS)
    assert check(case, PATHS["paddle.to_static_sot"], mode="grad")["outcome"] == "pass"
    record = check(case, PATHS["paddle.to_static"], mode="grad")
    assert record["outcome"] == "mismatch" and "rebinding" in record["detail"]["known_issue"]


def test_known_bug_the_onednn_predictor_overwrites_a_value_read_again():
    """y = -x; z = expm1(y); return z + y: the oneDNN predictor returns 2 * expm1(y); without oneDNN it is right."""
    body = (Get("v0", "x"), OpStmt("v1", "neg", ("v0",)), OpStmt("v2", "expm1", ("v1",)),
            OpStmt("v3", "add", ("v2", "v1")))
    case = _case(body, OutVar("v3"))
    assert check(case, PATHS["paddle.inference_no_onednn"])["outcome"] == "pass"
    record = check(case, PATHS["paddle.inference"])
    assert record["outcome"] == "mismatch" and "inplace pass" in record["detail"]["known_issue"]


def test_the_new_selectors_name_only_their_bug():
    """Each record needs its own message, op or construct: the same kind of failure without it stays a finding."""
    grad_message = ("(InvalidArgument) The input tensor output_grad_0 of RunProgram(Grad)Op should be initialized.")
    assert known.ZERO_SIZE_THROUGH_IF.applies(
        Failure("run", "train", ("ValueError",), grad_message, constructs=("if_tensor",)), "3.3.1")
    assert not known.ZERO_SIZE_THROUGH_IF.applies(
        Failure("run", "train", ("ValueError",), grad_message, constructs=("while_tensor",)), "3.3.1")
    assert not known.ZERO_SIZE_THROUGH_IF.applies(
        Failure("run", "infer", ("ValueError",), grad_message, constructs=("if_tensor",)), "3.3.1")
    value = (("value", "[0]"),)
    assert onednn.PREDICTOR_ONEDNN_INPLACE.applies(Failure("compare", divergences=value, ops=("expm1",)), "3.3.1")
    assert not onednn.PREDICTOR_ONEDNN_INPLACE.applies(Failure("compare", divergences=value, ops=("tanh",)), "3.3.1")
    add_n = ("(InvalidType) Check data type error for op: add_n, input: inputs, inputs.dtype: {}, and expected_dtype: "
             "bfloat16, complex128, complex64, float16, float32, float64, int32, int64, ")
    assert known.LOADED_INTEGER_GRADIENT.applies(Failure("run", "train", ("TypeError",), add_n.format("uint8")),
                                                 "3.3.1")
    assert not known.LOADED_INTEGER_GRADIENT.applies(Failure("run", "train", ("TypeError",), add_n.format("bfloat16")),
                                                     "3.3.1")
    amp = ("(InvalidType) Check data type error for op: atan2, input: y, y.dtype: bfloat16, and expected_dtype: "
           "float16, float32, float64, int32, int64, ")
    assert known.AMP_NO_BF16_KERNEL.applies(Failure("convert", error_types=("TypeError",), message=amp), "3.3.1")
