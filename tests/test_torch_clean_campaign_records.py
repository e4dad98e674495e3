"""The records that name the clean torch campaigns' findings (issue 20) select them, and only them: each path's first
matching limitation for the failure a campaign recorded (its phase, exception, message, ops, divergences)."""

import pytest

torch = pytest.importorskip("torch")

from conformance.paths import openvino_limitations as ov  # noqa: E402
from conformance.paths.records import PATHS, Failure  # noqa: E402
from conformance.paths.torch import deployment_records as deploy  # noqa: E402
from conformance.paths.torch import limitations as lim  # noqa: E402

VERSION = "2.13.0"
OTS = ("torch.onnx_torchscript", "torch.onnx_torchscript_openvino")
AVG_POOL = ("Load model from /tmp/m.onnx failed:Node (/AveragePool) Op (AveragePool) [ShapeInferenceError] Attribute "
            "strides has incorrect size")
CELU = ("Load model from /tmp/m.onnx failed:This is an invalid model. Type Error: Type 'tensor(float16)' of input "
        "parameter (x2.1) of operator (Celu) in node (/Celu) is invalid.")
GATHER = ("Exception from src/inference/src/cpp/core.cpp:84:\n-- GatherElements-20 with a message:\nShapes [4,5,2] and "
          "[4,1,2] are not consistent, `data` and `indices` must have equal or intersecting dimensions, except for the "
          "dimension at axis index.0")


def first(path_id: str, failure: Failure):
    return PATHS[path_id].limitation_for(failure, VERSION)


def compare(kind: str, *ops: str, constructs=()) -> Failure:
    return Failure("compare", divergences=((kind, "[0]"),), ops=ops, constructs=constructs)


@pytest.mark.parametrize("path_id", OTS)
def test_torchscript_exporter_records(path_id):
    assert first(path_id, Failure("convert", error_types=("Fail",), message=AVG_POOL, ops=("avg_pool3d", "tanh"))) \
        is lim.ONNX_UNBATCHED_AVG_POOL
    assert first(path_id, Failure("convert", error_types=("Fail",), message=AVG_POOL, ops=("tanh",))) is None
    pool1d = AVG_POOL.replace("Attribute strides has incorrect size", "Input tensor must have at least 3 dimensions")
    assert first(path_id, Failure("convert", error_types=("Fail",), message=pool1d, ops=("avg_pool1d",))) \
        is lim.ONNX_UNBATCHED_AVG_POOL
    assert first(path_id, compare("shape", "cast", "sum_all")) is lim.ONNX_EMPTY_SUM_KEEPS_RANK
    assert first(path_id, compare("dtype", "fmod_scalar")) is lim.ONNX_0D_FLOAT64_WITH_SCALAR
    assert first(path_id, compare("dtype", "mul_mixed", "rsqrt")) is lim.ONNX_0D_FLOAT64_WITH_SCALAR
    assert first(path_id, compare("dtype", "tanh")) is None
    assert first(path_id, Failure("convert", error_types=("InvalidGraph",), message=CELU, ops=("celu",))) \
        is lim.ONNX_CELU_FLOAT16
    assert first(path_id, Failure("convert", error_types=("InvalidGraph",), message=CELU.replace("Celu", "Elu"),
                                  ops=("celu",))) is None


def test_onnxruntime_empty_axis_reduction():
    for path_id in ("torch.onnx_torchscript", "torch.onnx_dynamo"):
        assert first(path_id, compare("shape", "prod", "tanh")) is lim.ORT_EMPTY_AXIS_REDUCTION
    assert first("torch.onnx_torchscript", compare("value", "prod")) is None


def test_onnxruntimes_bug_is_not_openvinos():
    """There a scatter's empty outputs are the CPU plugin's (case 3cd13b2ccc37)."""
    pytest.importorskip("openvino")  # the record is of the installed openvino's versions
    assert first("torch.onnx_torchscript_openvino", compare("shape", "sum", "scatter")) \
        is ov.OPENVINO_SINGLE_THREAD_SHAPE_ERROR


def test_dynamo_refined_shapes():
    refused = Failure("run", error_types=("InvalidArgument",), constructs=("if_shape",),
                      message="[ONNXRuntimeError] : 2 : INVALID_ARGUMENT : Got invalid dimensions for input: x0.2")
    assert first("torch.onnx_dynamo", refused) is lim.ONNX_DYNAMO_REFINED_SHAPES
    ov_refused = Failure("run", error_types=("RuntimeError",), constructs=("if_shape",),
                         message="The input tensor size is not equal to the model input type: got [2] expecting [3].")
    assert first("torch.onnx_dynamo_openvino", ov_refused) is deploy.OPENVINO_DYNAMO_REFINED_SHAPES
    # the branch of the example's range, judged before the CPU plugin's division record
    assert first("torch.onnx_dynamo_openvino", compare("value", "floor_div", constructs=("if_shape",))) \
        is lim.ONNX_DYNAMO_REFINED_RANGE
    assert first("torch.onnx_dynamo", compare("value", "floor_div", constructs=("if_kwarg",))) is None


def test_ldexp_decomposition():
    for path_id in ("torch.compile", "torch.compile_dynamic"):
        assert first(path_id, compare("dtype", "ldexp", "gather")) is lim.LDEXP_DECOMPOSITION_DTYPE
        assert first(path_id, compare("dtype", "gather")) is None
    mul = "Type Error: Type parameter (T) of Optype (Mul) bound to different types (tensor(float16) and tensor(float)"
    assert first("torch.onnx_dynamo", Failure("convert", error_types=("Fail",), message=mul, ops=("ldexp",))) \
        is lim.ONNX_DYNAMO_LDEXP_MUL_TYPES


def test_autocast_and_executorch():
    prioritize = Failure("run", error_types=("RuntimeError",),
                         message="Unexpected floating ScalarType in at::autocast::prioritize")
    assert first("torch.autocast_bf16", prioritize) is lim.AUTOCAST_FLOAT16_PROMOTE
    assert first("torch.executorch", compare("nonfinite", "floor_div", "tanh")) is deploy.EXECUTORCH_FLOOR_DIVIDE_ZERO
    assert first("torch.executorch", compare("nonfinite", "tanh")) is None
    missing = Failure("convert", error_types=("RuntimeError",), message="Failed to load method forward, error: 0x:14",
                      ops=("avg_pool3d",))
    assert first("torch.executorch", missing) is deploy.EXECUTORCH_MISSING_KERNEL
    assert first("torch.executorch", Failure("convert", error_types=("RuntimeError",), message=missing.message,
                                             ops=("avg_pool2d",))) is None


@pytest.mark.parametrize("path_id", ("torch.openvino", "torch.onnx_torchscript_openvino", "torch.onnx_dynamo_openvino"))
def test_openvino_gather(path_id):
    pytest.importorskip("openvino")  # the records are of the installed openvino's versions
    assert first(path_id, compare("shape", "gather", "unique")) is ov.OPENVINO_SINGLE_THREAD_SHAPE_ERROR
    assert first(path_id, compare("value", "flip", "gather")) is ov.OPENVINO_SINGLE_THREAD_SHAPE_ERROR
    assert first(path_id, Failure("convert", error_types=("RuntimeError",), message=GATHER, ops=("gather",))) \
        is deploy.OPENVINO_GATHER_SMALLER_INDEX
    assert first(path_id, Failure("convert", error_types=("RuntimeError",), message=GATHER, ops=("flip",))) is None


def test_script_save_none_default():
    failure = Failure("convert", error_types=("RuntimeError",), message="strides() called on an undefined Tensor")
    assert first("torch.script_saved", failure) is deploy.SCRIPT_SAVE_NONE_DEFAULT
    assert first("torch.script", failure) is None


def test_executorch_gru_static_batch():
    refused = Failure("run", error_types=("RuntimeError",),
                      message="batch inputs: method->set_inputs() for method 'forward' failed with error 0x10")
    assert first("torch.executorch", refused) is deploy.EXECUTORCH_GRU_STATIC_BATCH
    assert first("torch.export", refused) is None


def test_inductor_floor_divide():
    for path_id in ("torch.compile", "torch.compile_dynamic", "torch.compile_reduce_overhead"):
        assert first(path_id, compare("nonfinite", "add", "floor_div")) is lim.INDUCTOR_FLOOR_DIVIDE
        assert first(path_id, compare("nonfinite", "add", "div")) is None
        assert first(path_id, compare("value", "floor_div")) is None
    # aot_eager keeps eager's floor division
    assert first("torch.compile_aot_eager", compare("nonfinite", "floor_div")) is None


def test_onnx_dynamo_floor_divide():
    assert first("torch.onnx_dynamo", compare("nonfinite", "add", "floor_div")) is lim.ONNX_DYNAMO_FLOOR_DIVIDE
    assert first("torch.onnx_dynamo", compare("dtype", "floor_div")) is None
    assert first("torch.onnx_torchscript", compare("nonfinite", "floor_div")) is lim.ONNX_FLOOR_DIVIDE_TRUNCATES


def test_onnx_diagonal():
    assert first("torch.onnx_torchscript", compare("dtype", "diagonal")) is lim.ONNX_DIAGONAL_FLOAT32
    assert first("torch.onnx_torchscript", compare("value", "diagonal")) is None
    reduce_sum = ("Load model from /tmp/m.onnx failed:This is an invalid model. Type Error: Type 'tensor(int8)' of "
                  "input parameter (val_14) of operator (ReduceSum) in node (node_ReduceSum_16) is invalid.")
    refused = Failure("convert", error_types=("InvalidGraph",), message=reduce_sum, ops=("diagonal",))
    assert first("torch.onnx_dynamo", refused) is lim.ONNX_DYNAMO_DIAGONAL_INT8
    assert first("torch.onnx_dynamo", Failure("convert", error_types=("InvalidGraph",), message=reduce_sum,
                                              ops=("sum",))) is None
    assert first("torch.onnx_dynamo", Failure("convert", error_types=("InvalidGraph",), ops=("diagonal",),
                                              message=reduce_sum.replace("int8", "int32"))) is None


def test_onnx_dynamo_shape_guard_retry():
    retried = ("TorchExportError: Failed to export the model with torch.export.\n## Exception summary\n\n"
               "<class 'torch._dynamo.exc.UserError'>: Invalid ranges [2:1]")
    assert first("torch.onnx_dynamo", Failure("convert", error_types=("TorchExportError",), message=retried,
                                              constructs=("if_shape",))) is lim.ONNX_SHAPE_GUARD
    assert first("torch.onnx_dynamo", Failure("convert", error_types=("TorchExportError",),
                                              message=retried.replace("[2:1]", "[4:3]"))) is None
