"""The records added for the Paddle findings of issue 20's clean campaigns select their bug and nothing next to it
(conformance/paths/paddle/static_and_onnx_limitations.py, zero_size_limitations.py, onednn_limitations.py,
limitations.py), and the ONNX fact the onnxruntime record reads is computed from the file."""

import pytest

pytest.importorskip("paddle")

from conformance.paths.paddle import limitations as known  # noqa: E402
from conformance.paths.paddle import onednn_limitations as onednn  # noqa: E402
from conformance.paths.paddle import static_and_onnx_limitations as static_onnx  # noqa: E402
from conformance.paths.paddle import zero_size_limitations as zero_size  # noqa: E402
from conformance.paths.paddle.conversions import FACTS  # noqa: E402
from conformance.paths.paddle.seen import seen_by  # noqa: E402
from conformance.paths.records import PATHS, Failure  # noqa: E402

V = "3.3.1"


def test_static_kernel_selection_failure_is_named_for_flatten_and_diagonal_only():
    message = ("(PreconditionNotMet) op [pd_op.{}] kernel output args (0) defs should equal op outputs (1)\n  [Hint: "
               "Expected op_item->num_results() == output_defs.size()]")
    rec = static_onnx.STATIC_KERNEL_OUTPUT_ARGS
    assert rec.applies(Failure("convert", error_types=("RuntimeError",), message=message.format("flatten"),
                               ops=("flatten",)), V)
    assert rec.applies(Failure("convert", error_types=("RuntimeError",), message=message.format("diagonal"),
                               ops=("diagonal",)), V)
    assert not rec.applies(Failure("convert", error_types=("RuntimeError",), message=message.format("tril"),
                                   ops=("tril", "flatten")), V)
    assert rec in known.STATIC and rec in PATHS["paddle.inference_no_ir_optim"].limitations


def test_static_flip_refusing_int8_is_a_documented_refusal_and_float16_is_not_named():
    message = ("(InvalidType) Check data type error for op: flip, input: x, x.dtype: {}, and expected_dtype: bool, "
               "complex128, complex64, float32, float64, int32, int64, ")
    assert known.STATIC_DTYPE_CHECK.outcome == "unsupported"
    assert known.STATIC_DTYPE_CHECK.applies(Failure("convert", error_types=("TypeError",),
                                                    message=message.format("int8")), V)
    assert not known.STATIC_DTYPE_CHECK.applies(Failure("convert", error_types=("TypeError",),
                                                        message=message.format("float16")), V)


def test_signbit_in_an_if_with_a_rank_1_dynamic_dim_is_named():
    message = ("Broadcast dimension mismatch. Operands could not be broadcast together with the shape of X = [{}] and "
               "the shape of Y = [5].")
    rec = known.SIGNBIT_DYNAMIC_DIM_UNQUOTED
    for shape in ("0", "0, 3"):
        assert rec.applies(Failure("convert", error_types=("ValueError",), message=message.format(shape),
                                   ops=("signbit",)), V)
    assert not rec.applies(Failure("convert", error_types=("ValueError",), message=message.format("2"),
                                   ops=("signbit",)), V)


def test_zero_size_if_result_losing_its_rank_is_named_in_a_reduction():
    message = ("The reduce dim index 0 should be in the range [ -dimension(X), dimension(X) ) which dimension = {}. "
               "But received dim index = -1.")
    rec = zero_size.IF_EMPTY_TENSOR_RANK
    assert rec.applies(Failure("convert", error_types=("ValueError",), message=message.format(-1)), V)
    assert not rec.applies(Failure("convert", error_types=("ValueError",), message=message.format(2)), V)


def test_onnx_records_select_their_op_or_message():
    nonfinite = (("nonfinite", "[0]"),)
    rec = static_onnx.P2O_FLOOR_DIVIDE_INFINITE
    assert rec.applies(Failure("compare", divergences=nonfinite, ops=("floor_div", "tanh")), V)
    assert not rec.applies(Failure("compare", divergences=nonfinite, ops=("tanh",)), V)
    abort = ("paddle2onnx.export was killed by SIGABRT: [ERROR][Paddle2ONNX] In arrange(), end must be greater than "
             "start")
    assert static_onnx.P2O_REDUCE_0D_ARRANGE.applies(Failure("convert", error_types=("Paddle2OnnxFailed",),
                                                             message=abort), V)
    topk = "Type Error: Type 'tensor({})' of input parameter (x1.0) of operator (TopK) in node (TopK.0) is invalid."
    assert static_onnx.P2O_INTEGER_TOPK_OPSET9.applies(Failure("convert", error_types=("InvalidGraph",),
                                                               message=topk.format("int64")), V)
    assert not static_onnx.P2O_INTEGER_TOPK_OPSET9.applies(Failure("convert", error_types=("InvalidGraph",),
                                                                   message=topk.format("float")), V)
    shape = ("Non-zero status code returned while running If node. Name:'If.1' ... has shape {5,0,2,1} but the "
             "computed output shape for this run is {%s}. When calling Run()")
    rec = zero_size.ORT_EMPTY_REDUCTION_IN_IF
    assert rec.applies(Failure("run", error_types=("InvalidArgument",), message=shape % "5,0,2,2", ops=("sum",)), V)
    assert not rec.applies(Failure("run", error_types=("InvalidArgument",), message=shape % "5,1,2,2",
                                   ops=("sum",)), V)
    bool_reorder = "(InvalidArgument) Ref tensor type (bool) is not supported by oneDNN."
    assert onednn.PREDICTOR_ONEDNN_BOOL_REORDER.applies(Failure("run", error_types=("ValueError",),
                                                                message=bool_reorder), V)
    assert onednn.PREDICTOR_ONEDNN_BOOL_REORDER in PATHS["paddle.inference"].limitations
    assert onednn.PREDICTOR_ONEDNN_BOOL_REORDER not in PATHS["paddle.inference_no_onednn"].limitations


def _if_model(repeat: bool):
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper

    def value(name):
        return helper.make_tensor_value_info(name, TensorProto.FLOAT, [2])

    then = helper.make_graph([helper.make_node("Identity", ["x"], ["a"]), helper.make_node("Identity", ["x"], ["b"])],
                             "then", [], [value("a"), value("b")])
    neg = [helper.make_node("Neg", ["x"], ["n"])] + ([] if repeat else [helper.make_node("Identity", ["n"], ["m"])])
    other = helper.make_graph(neg, "else", [], [value("n"), value("n" if repeat else "m")])
    node = helper.make_node("If", ["c"], ["y", "z"], then_branch=then, else_branch=other)
    graph = helper.make_graph([node], "g", [value("x"), helper.make_tensor_value_info("c", TensorProto.BOOL, [])],
                              [value("y"), value("z")])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 11)]), onnx


@pytest.mark.parametrize("repeat", [True, False])
def test_the_repeated_branch_output_fact_is_read_from_the_onnx_file(tmp_path, repeat):
    from conformance.paths.paddle.saved import branch_repeats_output

    model, onnx = _if_model(repeat)
    onnx.save(model, tmp_path / "m.onnx")
    assert branch_repeats_output(str(tmp_path / "m.onnx")) is repeat


def test_the_onnxruntime_if_record_applies_only_where_the_file_repeats_a_branch_output():
    rec = seen_by("onnx_test_fact", (static_onnx.ORT_IF_BRANCH_REPEATED_OUTPUT,))[0]
    failure = Failure("compare", divergences=(("value", "[0]"),))
    try:
        FACTS["onnx_test_fact"] = {"branch_repeats_output": True}
        assert rec.applies(failure, V)
        FACTS["onnx_test_fact"] = {"branch_repeats_output": False}
        assert not rec.applies(failure, V)
    finally:
        FACTS.pop("onnx_test_fact", None)
    assert static_onnx.ORT_IF_BRANCH_REPEATED_OUTPUT.reason in {
        lim.reason for lim in PATHS["paddle.onnx"].limitations}
    assert static_onnx.ORT_IF_BRANCH_REPEATED_OUTPUT.reason not in {
        lim.reason for lim in PATHS["paddle.onnx_openvino"].limitations}


def test_an_eager_crash_of_an_integer_division_overflow_is_named_on_every_paddle_path():
    from conformance.paths.paddle.eager_limitations import INTEGER_DIVIDE_OVERFLOW_SIGFPE as rec

    tail = ("C++ Traceback (most recent call last):\n0   floor_divide_ad_func(paddle::Tensor const&, paddle::Tensor "
            "const&, paddle::optional<paddle::Tensor*>)\n2   void phi::FloorDivideRawKernel<long, phi::CPUContext>(...)"
            "\nFatalError: `Erroneous arithmetic operation` is detected by the operating system.")
    assert rec.applies(Failure("crash", error_types=("SIGFPE",), message=tail, ops=("floor_div", "cast")), V)
    assert not rec.applies(Failure("crash", error_types=("SIGSEGV",), message=tail, ops=("floor_div",)), V)
    assert not rec.applies(Failure("crash", error_types=("SIGFPE",), message="phi::PadKernel<float>",
                                   ops=("floor_div",)), V)
    paddle_paths = [p for p in PATHS.values() if p.framework == "paddle" and not p.name.startswith("planted")]
    assert paddle_paths and all(rec in p.limitations for p in paddle_paths)


def test_a_zero_size_input_is_noted_and_selects_the_flattened_if_result(tmp_path):
    import paddle

    from conformance.paths.paddle.conversions import note
    from conformance.paths.paddle.zero_size_limitations import (
        STATIC_IF_ZERO_SIZE_FLATTENED,
        STATIC_IF_ZERO_SIZE_FLATTENED_LOSS,
    )

    class Ctx:
        workdir = tmp_path / "zero_size_fact"
        args = [{"k": [paddle.zeros([0, 3]), paddle.ones([2])]}]

    shape = Failure("compare", divergences=(("shape", "[0]"),), constructs=("if_shape",))
    losses = Failure("compare", "train", divergences=(("missing_gradient", "['sgd']['losses']"),),
                     constructs=("if_tensor",))
    flattened, loss = seen_by("zero_size_fact", (STATIC_IF_ZERO_SIZE_FLATTENED, STATIC_IF_ZERO_SIZE_FLATTENED_LOSS))
    current = FACTS.get("_current")
    try:
        note(Ctx(), eval_program=False)
        assert FACTS["zero_size_fact"] == {"zero_size_input": True, "eval_program": False}
        assert flattened.applies(shape, V) and loss.applies(losses, V)
        assert not flattened.applies(Failure("compare", divergences=(("shape", "[0]"),),
                                             constructs=("while_tensor",)), V)
        Ctx.args = [paddle.ones([2, 3])]
        note(Ctx())
        assert FACTS["zero_size_fact"] == {"zero_size_input": False}
        assert not flattened.applies(shape, V) and not loss.applies(losses, V)
    finally:
        FACTS.pop("zero_size_fact", None)
        FACTS.pop("_current", None) if current is None else FACTS.update(_current=current)


def test_a_tensor_break_refused_when_a_new_shape_converts_again_is_named_while_running():
    message = "paddle.jit.dy2static.utils.Dygraph2StaticException: python while pred change from bool to variable."
    failure = Failure("run", error_types=("Dygraph2StaticException",), message=message)
    for path in ("paddle.to_static_per_call", "paddle.to_static_spec_from_tensor"):
        assert PATHS[path].limitation_for(failure, V) is not None
    assert PATHS["paddle.to_static"].limitation_for(failure, V) is None


def test_the_records_found_transplanting_and_in_the_top_ups_select_their_message():
    reshape = ("InvalidArgumentError: The index of 0 in `shape` must be less than the input tensor X's dimensions. But "
               "received shape = [1, 0] ... (at /paddle/paddle/phi/kernels/onednn/reshape_kernel.cc:44)")
    assert onednn.PREDICTOR_ONEDNN_RESHAPE_ZERO.applies(Failure("convert", error_types=("ValueError",),
                                                                message=reshape), V)
    assert not onednn.PREDICTOR_ONEDNN_RESHAPE_ZERO.applies(
        Failure("convert", error_types=("ValueError",), message=reshape.replace("onednn/", "cpu/")), V)
    amp = ("File \".../control_flow.py\", line 836, in cast_value_in_amp\n\tcast_out_var = paddle.cast(\n\n"
           "NotImplementedError: (Unimplemented) Only support paddle::dialect::DenseTensorType or "
           "paddle::dialect::AllocatedDenseTensorType")
    assert known.AMP_TENSOR_ARRAY_LOOP_CAST in PATHS["paddle.to_static_amp"].limitations
    assert known.AMP_TENSOR_ARRAY_LOOP_CAST.applies(Failure("convert", error_types=("NotImplementedError",),
                                                            message=amp, ops=("lstm",)), V)
    assert not known.AMP_TENSOR_ARRAY_LOOP_CAST.applies(
        Failure("convert", error_types=("NotImplementedError",), message=amp.split("\n\n")[1], ops=("lstm",)), V)
    array = ("Invalid model. Node input 'p2o.sub_block.pd_op.array_write_.0.0' is not a graph input, initializer, or "
             "output of a previous node.")
    assert static_onnx.P2O_TENSOR_ARRAY_LOOP.applies(Failure("convert", error_types=("InvalidArgument",),
                                                             message=array, ops=("gru",)), V)
    value = (("value", "output"),)
    assert onednn.PREDICTOR_ONEDNN_LOOP_MATMUL.applies(Failure("compare", divergences=value, ops=("lstm",)), V)
    assert not onednn.PREDICTOR_ONEDNN_LOOP_MATMUL.applies(Failure("compare", divergences=value, ops=("matmul",)), V)
