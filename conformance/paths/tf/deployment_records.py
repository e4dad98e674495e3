"""The TensorFlow deployment paths as records (:data:`DEPLOYMENT_PATHS`), with their documented refusals and known
bugs as data. The conversions are in :mod:`conformance.paths.tf.deployment` (standalone: reproducers copy them).

Each path needs its optional runtime (``requires``): a missing one makes every case ``unsupported``, naming it.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from conformance.paths.openvino_limitations import (
    FLOAT64_AS,
    OPENVINO_BF16_ROUNDING,
    OPENVINO_DIVIDE_BY_RECIPROCAL,
    OPENVINO_EMPTY_GATHER_SIGFPE,
    OPENVINO_EMPTY_MATMUL_TRANSPOSED,
    OPENVINO_F64_SATURATES,
    OPENVINO_MATMUL_SCALAR_RESHAPE_SEGV,
    OPENVINO_ONNX_EMPTY_GATHER_RANK,
    OPENVINO_UNIQUE_UNSORTED,
)
from conformance.paths.records import Limitation, PathRecord
from conformance.paths.tf import conversions as conv
from conformance.paths.tf import deployment as deploy
from conformance.paths.tf import limitations as lim
from conformance.paths.tf.adapter import onnx_default_opset

OPENVINO_LOOP_COUNTER_RANK = Limitation(
    reason="known bug (tf2onnx), as OpenVINO meets it: the Loop body's iteration-count input gets no shape when a "
           "tf.cond branch in a while body computes something unused from a tensor defined outside the loop; "
           "onnxruntime refuses to run it (tf.onnx), OpenVINO's CPU plugin refuses to compile it (dynamic rank)",
    errors=("RuntimeError",), message=r"doesn't support Parameter operation with dynamic rank\. Operation name: "
                                      r"\S*loop_counter", outcome=None, versions=">=1.17", package="tf2onnx",
    reference=lim.ONNX_LOOP_COUNTER_SHAPE.reference)
OPENVINO_NO_CONVERSION_RULE = Limitation(
    reason="OpenVINO's TensorFlow reader has no conversion rule for some TensorFlow operators (CumulativeLogsumexp "
           "among this suite's ops) and refuses the model ('No conversion rule found for operations')",
    errors=("OpConversionFailure",), message=r"No conversion rule found for operations", versions=">=2024.0",
    package="openvino",
    reference="https://docs.openvino.ai/2026/documentation/compatibility-and-support/supported-operations.html")
FIXED_NOTE = "(non-tensor arguments fixed at conversion)"
KWARGS = frozenset({"kwargs"})

TFLITE_NO_BUILTIN = Limitation(
    reason="TensorFlow Lite has no builtin operator for some TensorFlow operators (tf.Atan among this suite's ops): a "
           "conversion restricted to TFLITE_BUILTINS refuses them (SELECT_TF_OPS would keep them as Flex operators)",
    errors=("ConverterError",), message=r"is neither a custom op nor a flex op", versions=">=2.0",
    reference="https://ai.google.dev/edge/litert/models/ops_select")
TFLITE_NO_KERNEL = Limitation(
    reason="some TensorFlow operators have neither a TensorFlow Lite builtin nor a Flex kernel (tf.TruncateMod, "
           "tf.Erfc among this suite's ops): even with SELECT_TF_OPS the converter refuses them as custom ops",
    errors=("ConverterError",), message=r"is neither a custom op nor a flex op", versions=">=2.0",
    reference="https://ai.google.dev/edge/litert/models/ops_select")
TFLITE_NO_FLEX_DELEGATE = Limitation(
    reason="a model with Flex (SELECT_TF_OPS) operators runs only in an interpreter linked with the Flex delegate; "
           "tf.lite.Interpreter of the tensorflow-cpu wheel here refuses it ('Select TensorFlow op(s) ... not "
           "supported by this interpreter')",
    phase="run", errors=("RuntimeError",), message=r"Select TensorFlow op\(s\).*not supported by this interpreter",
    versions=">=2.21", reference="https://ai.google.dev/edge/litert/models/ops_select#run_inference")

FOUND_DEPLOY = "found by conformance 2026-11-28 (tensorflow 2.21.0, ai-edge-litert 2.3.0, openvino 2026.4.1, " \
               "tf2onnx 1.17.0), the TensorFlow deployment campaign (issue 18, seed 0)"
TFLITE_EMPTY_OUTPUT = Limitation(
    reason="known bug (TensorFlow Lite's Python interpreter): get_tensor, which the signature runner calls too, "
           "refuses any tensor of 0 bytes ('Invalid tensor size.'), and an op's zero-size output in a model of static "
           "shapes is one: the model runs, its empty output cannot be read (an output that is an input, or one of a "
           "dim resized at run time, can); the inputs are fed as documented (resize_tensor_input, allocate_tensors, "
           "set_tensor)",
    phase="run", errors=("ValueError",), message=r"Invalid tensor size\.", outcome=None, versions=">=2.0",
    package="ai-edge-litert",
    reference=f"https://github.com/tensorflow/tensorflow/issues/57084; {FOUND_DEPLOY}; "
              "cases/standalone/tflite_empty_output_invalid_tensor_size.py")
#: The same in tf.lite.Interpreter, TensorFlow's own copy of the interpreter (the Flex one).
TFLITE_EMPTY_OUTPUT_TF = replace(TFLITE_EMPTY_OUTPUT, package="")
TFLITE_FLOOR_DIV_ZERO = Limitation(
    reason="known bug (TensorFlow Lite): the FLOOR_DIV kernel refuses a zero divisor of any type ('Division by 0 ... "
           "(FLOOR_DIV) failed to invoke'), floats too, where TensorFlow gives inf or NaN (x // x of a tensor "
           "holding 0; for integers TensorFlow raises too, which passes)",
    phase="run", errors=("RuntimeError",), message=r"Division by 0.*\(FLOOR_DIV\) failed to invoke",
    outcome=None, versions=">=2.0", package="ai-edge-litert",
    reference=f"{FOUND_DEPLOY}; cases/standalone/tflite_floor_div_float_zero.py")
TFLITE_FLOOR_DIV_ZERO_TF = replace(TFLITE_FLOOR_DIV_ZERO, package="")
TFLITE_UINT8_MEAN = Limitation(
    reason="known bug (TensorFlow Lite): tf.reduce_mean of a uint8 tensor comes out 0 (a [1, 1] tensor holding 9, "
           "mean over dim 1: TensorFlow gives 9), builtin MEAN, in LiteRT's interpreter and tf.lite.Interpreter alike",
    phase="compare", divergences=("value",), ops=("int_mean",), outcome=None, versions=">=2.21",
    reference=f"{FOUND_DEPLOY}; cases/tflite-uint8-mean-zero.json")
TFLITE_XNNPACK_EMPTY_MATMUL = Limitation(
    reason="known bug (LiteRT): the interpreter's default XNNPack delegate cannot prepare a batch matmul over an empty "
           "contraction dim once the batch is resized ('XNNPack delegate failed to reshape runtime'); without the "
           "default delegates the same model returns the empty sums' zeros",
    phase="run", errors=("RuntimeError",), message=r"XNNPack delegate failed to reshape runtime",
    ops=("matmul_empty",), outcome=None, versions=">=2.3", package="ai-edge-litert",
    reference=f"{FOUND_DEPLOY}, rerun, cases 293775035b85, 9204c5dd04ca; "
              "cases/standalone/tflite_xnnpack_empty_matmul.py")
TFLITE_REVERSE_AXES = Limitation(
    reason="TensorFlow Lite's REVERSE_V2 kernel reverses contiguous axes only: tf.reverse over dims that are not "
           "next to each other (a flip of dims 0 and 2) is refused when the model runs ('Non-contiguous `axes` not "
           "supported')",
    phase="run", errors=("RuntimeError",), message=r"Non-contiguous `axes` not supported", ops=("flip",),
    versions=">=2.0", reference="https://github.com/tensorflow/tensorflow/blob/master/tensorflow/lite/kernels/reverse.cc")
TFLITE_UNRESOLVED_MATERIALIZATION = Limitation(
    reason="known bug (TensorFlow Lite's converter): the MLIR legalisation leaves a cast between a static and a "
           "dynamic shape of one result live ('failed to legalize unresolved materialization from tensor<4x4x1xf32> "
           "to tensor<4x4x?xf32>'); not minimised (a program with an LSTM, 3-d pooling and layer norm among others)",
    errors=("ConverterError",), message=r"failed to legalize unresolved materialization", outcome=None,
    versions=">=2.21", reference=f"{FOUND_DEPLOY}, rerun, case a90cbb0beb54")
TFLITE_KERAS_VARIABLES_UNINITIALISED = Limitation(
    reason="known bug (TensorFlow Lite's converter): TFLiteConverter.from_concrete_functions of a Keras 3 model's "
           "traced call (the model as trackable_obj, or a tf.Module holding its variables) keeps the weights as "
           "resource variables (VAR_HANDLE, READ_VARIABLE) and writes no initialiser for them, so every interpreter "
           "reads uninitialised memory (NaN, 1e+14 ...); a tf.Module's tf.Variables are frozen into constants. "
           "conformance refuses such a flatbuffer before running it (UninitialisedVariables)",
    errors=("UninitialisedVariables",), outcome=None, versions=">=2.21",
    reference="found by conformance 2026-11-28 (tensorflow 2.21.0, keras 3, ai-edge-litert 2.3.0), the TensorFlow "
              "hand-written models keras_conv, keras_embedding, keras_attention (issue 20); "
              "cases/standalone/tflite_keras3_variables_uninitialised.py")
TFLITE_TENSOR_LIST_BUILTINS = Limitation(
    reason="TensorFlow Lite's builtin operators cannot hold some TensorList operations (a tensor list of a while "
           "loop whose element shape is not known, as a tf.TensorArray or a list grown in a loop builds): a "
           "conversion restricted to TFLITE_BUILTINS refuses them ('Lowering tensor list ops is failed. Please "
           "consider using Select TF ops')",
    errors=("ConverterError",), message=r"Lowering tensor list ops is failed", versions=">=2.0",
    reference="https://ai.google.dev/edge/litert/models/ops_select")
OPENVINO_ONNX_LOOP_OUTER_VALUES = Limitation(
    reason="known bug (OpenVINO's ONNX reader): a Loop whose body reads values of an enclosing graph (tf2onnx's "
           "while loops, tf.scan's, also inside an If branch) is refused: the reader counts those values among the "
           "body's inputs ('The provided loop body graph canonical inputs size (7), does not match the sum of loop "
           "carried dependencies and two mandatory inputs (6)', where the body declares the 6 the spec asks for); "
           "onnxruntime runs the same file",
    errors=("RuntimeError",), message=r"loop body graph canonical inputs size \(\d+\), does not match",
    outcome=None, versions=">=2026.0", package="openvino",
    reference=f"{FOUND_DEPLOY}; 12 findings, e.g. cases 9d9a36e36b2b, e32e7d29e1d5")
OPENVINO_INT_MEAN = Limitation(
    reason="known bug (tf2onnx), as OpenVINO meets it: tf.reduce_mean of int8 or uint8 is written as an ONNX "
           "ReduceMean on that type, which ReduceMean does not take: OpenVINO's ONNX reader "
           "refuses it ('Unsupported input type')",
    errors=("RuntimeError",), message=r"Node\(ReduceMean\)", ops=("int_mean",), outcome=None, versions=">=1.17",
    package="tf2onnx", reference=lim.ONNX_INT_MEAN.reference)
OPENVINO_RESHAPE_ZERO_DIM = Limitation(
    reason="known bug (tf2onnx), as OpenVINO meets it: tf.reshape to a shape with a 0 is written as an ONNX Reshape "
           "without allowzero=1, where a 0 means 'copy the input's dim': OpenVINO copies it (a [3, 0] tensor "
           "reshaped to [0, 2] comes out [3, 2]) where onnxruntime refuses the model",
    phase="compare", divergences=("shape",), ops=("reshape_empty",), outcome=None, versions=">=1.17",
    package="tf2onnx", reference=lim.ONNX_RESHAPE_ZERO_DIM.reference)

TFLITE_FREEZE_GATHER_IN_COND = Limitation(
    reason="known bug (TensorFlow): TFLiteConverter.from_concrete_functions converts through a SavedModel where the "
           "function can be its signature, and else freezes it (convert_variables_to_constants_v2_as_graph), as for "
           "outputs nested as a tuple holding a dict; freezing leaves a tf.gather of a variable in a tf.cond branch "
           "(embedding) a ResourceGather fed the frozen float value: 'input resource[0] expected type resource != "
           "float ... Failed to functionalize Control Flow V1 ops' (the frozen function fails to run too)",
    errors=("ConverterError",), message=r"input resource\[\d+\] expected type resource != float", ops=("embedding",),
    outcome=None, versions=">=2.21",
    reference=f"{FOUND_DEPLOY}; case 02fe4fa51e64; the freezing of tensorflow/tensorflow#91313")
OPENVINO_SCAN_ONE_ELEMENT = Limitation(
    reason="known bug (OpenVINO's TensorFlow reader): tf.scan over a dim of static size 1 (the emitters of cummax and "
           "cummin scan tf.maximum, tf.minimum along a dim moved first) is refused: its StatelessWhile fails to "
           "convert ('Accessing out-of-range dimension'); a size of 2 or more, or a dynamic one, converts",
    errors=("OpConversionFailure",), message=r"StatelessWhile with a message:\s*Exception from \S*shape_util\.cpp:\d+:"
                                             r"\s*Accessing out-of-range dimension",
    ops=("cummax", "cummin"), outcome=None, versions=">=2026.4.1", package="openvino",
    reference=f"{FOUND_DEPLOY}; case 14500a5756bd")
OPENVINO_ZERO_ITERATION_WHILE_IN_COND = Limitation(
    reason="known bug (OpenVINO, a SavedModel): a while loop on a tensor in a tf.cond branch that runs zero times "
           "gives its loop variable uninitialised memory (1e+34, 4.6e-41 ...) where TensorFlow keeps the value it "
           "had before the loop (a body reading a value from outside the loop; seen where the batch decides the "
           "branch)",
    phase="compare", divergences=("value", "nonfinite"), constructs=("while_tensor",), outcome=None,
    versions=">=2026.4.1", package="openvino",
    reference=f"{FOUND_DEPLOY}; case 9d9a36e36b2b; cases/standalone/tf_openvino_zero_iteration_while_in_cond.py")
OPENVINO_ONNX_SCAN_TENSOR_LIST = Limitation(
    reason="known bug (tf2onnx), as OpenVINO meets it: the while loop of tf.scan (cummax, cummin) fails to convert and "
           "tf2onnx keeps its TensorList ops (ONNX_SCAN_UNTYPED); OpenVINO's ONNX reader has no rule for them "
           "('No conversion rule found for operations: TensorListReserve-15, TensorListSetItem-15') and fails on the "
           "Loop around them (an Add of i64 and i32, 'Accessing out-of-range dimension')",
    errors=("RuntimeError",), message=r"No conversion rule found for operations: [^\n]*TensorList",
    ops=("cummax", "cummin"), outcome=None, versions=">=1.17", package="tf2onnx",
    reference=f"{lim.ONNX_SCAN_UNTYPED.reference}; {FOUND_DEPLOY}, cases 00fe36870f9a, 14500a5756bd")
#: TensorFlow operators tf2onnx has no handler for, met by this suite's ops: it leaves them in the ONNX file under
#: their TensorFlow names (none is an ONNX operator: ONNX's are BitwiseNot, Erf, TopK ...).
_TF_OPS_LEFT_IN_ONNX = (r"(?:TruncateMod|Erfc|InTopKV2|CumulativeLogsumexp|Expm1|BroadcastArgs|Invert|TensorScatterAdd"
                        r"|Log1p)")
OPENVINO_ONNX_UNCONVERTED_OP = replace(
    lim.ONNX_UNCONVERTED_OP,
    reason="tf2onnx has no handler for some TensorFlow operators at the opset (TruncateMod of tf.math.truncatemod, "
           "Erfc of gelu, InTopKV2, CumulativeLogsumexp, Expm1, BroadcastArgs of tf.broadcast_to's shapes, Invert "
           "of bitwise_not, TensorScatterAdd of index_add below opset 16, where ScatterND has no reduction, Log1p of "
           "logaddexp in some programs) and "
           "leaves them in the graph as they are (ONNX_UNCONVERTED_OP); OpenVINO's ONNX reader then refuses the model "
           "('No conversion rule found for operations: TruncateMod-15'), and an op fed by one of them may fail too, "
           "its input of no known type ('Conversion is failed for: Selu-15 ... Element not supported' after "
           "CumulativeLogsumexp; a Conv of no known rank after TensorScatterAdd)",
    errors=("RuntimeError",),
    message=r"No conversion rule found for operations: [^\n]*\b" + _TF_OPS_LEFT_IN_ONNX + r"-\d+",
    reference=f"{lim.ONNX_UNCONVERTED_OP.reference}; {FOUND_DEPLOY} (rerun), 35 findings, e.g. cases 737df224e6f1, "
              "1b9ae9ba9863, fe9c301cd8c6; clean campaigns (issue 20), cases 10b16be50c7a, 501ddf19da70 "
              "(TensorScatterAdd), b33d5f6156e5 (Log1p)")
OPENVINO_ONNX_REVERSE_EMPTY_BATCH = Limitation(
    reason="known bug (tf2onnx), as OpenVINO meets it, not minimised: tf.reverse (the op flip) is written as a "
           "Transpose and a ReverseSequence whose sequence_lens tf2onnx Expands to shape [1] where the batch axis has "
           "size 0 (ONNX asks for [batch_size]); onnxruntime runs the file (tf.onnx passes), OpenVINO's shape "
           "inference refuses it ('Sequence lengths input size (1) is not equal to batch axis dimension of data "
           "input (0)')",
    errors=("RuntimeError",),
    message=r"Sequence lengths input size \(1\) is not equal to batch axis dimension of data input \(0\)",
    ops=("flip",), outcome=None, versions=">=1.17", package="tf2onnx",
    reference="found by conformance 2026-11-28 (tf2onnx 1.17.0, openvino 2026.4.1), clean campaign seed 9 "
              "(issue 20), case 7c60bbca476c")
OPENVINO_ONNX_IF_OUTPUTS = Limitation(
    reason="known bug (OpenVINO's ONNX reader), not minimised: an If of tf2onnx's with two outputs in each branch "
           "(onnx.checker and onnxruntime take the file; tf.onnx passes) is refused: \"'then' and 'else' branches "
           "have to have the same number of outputs\" (either output alone is taken)",
    errors=("RuntimeError",), message=r"'then' and 'else' branches have to have the same number of outputs",
    outcome=None, versions=">=2026.4.1", package="openvino",
    reference=f"{FOUND_DEPLOY}; case e2afbceac11e")
OPENVINO_REVERSE_MULTIPLE_AXES = Limitation(
    reason="OpenVINO's TensorFlow reader does not convert ReverseV2 with more than one axis (tf.reverse of axes "
           "[1, 0], the op flip): 'OpenVINO TensorFlow Frontend does not support Reverse or ReverseV2 with multiple "
           "axes for the reversing' (its translator checks axes.size() == 1)",
    errors=("OpConversionFailure",), message=r"does not support Reverse or ReverseV2 with multiple axes",
    ops=("flip",), versions=">=2026.4.1", package="openvino",
    reference=f"{FOUND_DEPLOY} (rerun), case 091e7f349905; src/frontends/tensorflow_common/src/op/reverse.cpp")
OPENVINO_ONNX_COND_CONV_CHANNELS = replace(
    lim.ONNX_COND_CONV_CHANNELS,
    reason="known bug (tf2onnx), as OpenVINO meets it: a convolution inside a tf.cond branch is written with its "
           "input in the wrong layout (ONNX_COND_CONV_CHANNELS; tf.onnx fails on the same case, onnxruntime's 'Input "
           "channels C is not equal to kernel channels * group'); OpenVINO's ONNX reader refuses the branch's Conv "
           "('Data batch channel count (2) does not match filter input channel count (1)')",
    phase="convert", errors=("RuntimeError",),
    message=r"Node\(Conv\): [^>]*cond[^>]*>'.*Data batch channel count \(\d+\) does not match filter input channel "
            r"count \(\d+\)",
    reference=f"{lim.ONNX_COND_CONV_CHANNELS.reference}; {FOUND_DEPLOY} (rerun), case 441f91f220b6")

#: tf.openvino is default since its seed-0 campaign's findings were named (issue 18); tf.tflite and tf.onnx_openvino
#: since theirs were (the same issue: 'Invalid tensor size' is the interpreter's get_tensor refusing an empty output,
#: TFLITE_EMPTY_OUTPUT; OpenVINO's ONNX reader refusing tf2onnx's Loops, OPENVINO_ONNX_LOOP_OUTER_VALUES).
#: tf.tflite_select_tf_ops runs only when named (default=False): tf.lite.Interpreter of the tensorflow-cpu wheel has no
#: Flex delegate, so every model that keeps a TensorFlow operator is refused, and the rest converts to the builtin
#: model tf.tflite already judges, in an interpreter TensorFlow deprecates; its campaign cost tf.tflite's again.
DEPLOYMENT_PATHS = (
    PathRecord("tf", "tflite", "tf.lite.TFLiteConverter.from_concrete_functions (float32, builtin operators only) run "
               "by LiteRT's interpreter (ai_edge_litert) " + FIXED_NOTE, deploy.tflite, conv.run,
               limitations=lim.TRACED + (TFLITE_NO_BUILTIN, TFLITE_TENSOR_LIST_BUILTINS, lim.FREEZE_DUPLICATE_FUNCTION,
                                          TFLITE_EMPTY_OUTPUT, TFLITE_FLOOR_DIV_ZERO, TFLITE_UINT8_MEAN,
                                          TFLITE_FREEZE_GATHER_IN_COND, TFLITE_XNNPACK_EMPTY_MATMUL,
                                          TFLITE_REVERSE_AXES, TFLITE_UNRESOLVED_MATERIALIZATION,
                                          TFLITE_KERAS_VARIABLES_UNINITIALISED),
               specializes=KWARGS,
               requires=("ai_edge_litert",), devices=("cpu",)),
    PathRecord("tf", "tflite_select_tf_ops", "tf.lite.TFLiteConverter.from_concrete_functions with SELECT_TF_OPS "
               "(TensorFlow operators kept where TensorFlow Lite has no builtin) run by tf.lite.Interpreter (Flex "
               "delegate) " + FIXED_NOTE, partial(deploy.tflite, select_tf_ops=True), conv.run,
               limitations=lim.TRACED + (TFLITE_NO_KERNEL, TFLITE_NO_FLEX_DELEGATE, lim.FREEZE_DUPLICATE_FUNCTION,
                                          TFLITE_EMPTY_OUTPUT_TF, TFLITE_FLOOR_DIV_ZERO_TF, TFLITE_UINT8_MEAN,
                                          TFLITE_FREEZE_GATHER_IN_COND, TFLITE_REVERSE_AXES,
                                          TFLITE_UNRESOLVED_MATERIALIZATION, TFLITE_KERAS_VARIABLES_UNINITIALISED),
               specializes=KWARGS,
               devices=("cpu",),
               default=False),
    PathRecord("tf", "openvino", "a SavedModel with a flat serving signature, read by openvino.convert_model, compiled "
               "for the CPU in float32 " + FIXED_NOTE, deploy.openvino_model, conv.run,
               limitations=lim.TRACED + (OPENVINO_NO_CONVERSION_RULE, lim.OPENVINO_VARIABLE_NOT_FOUND,
                                          OPENVINO_EMPTY_MATMUL_TRANSPOSED, OPENVINO_DIVIDE_BY_RECIPROCAL,
                                          OPENVINO_SCAN_ONE_ELEMENT, OPENVINO_ZERO_ITERATION_WHILE_IN_COND,
                                          OPENVINO_F64_SATURATES, OPENVINO_MATMUL_SCALAR_RESHAPE_SEGV,
                                          OPENVINO_EMPTY_GATHER_SIGFPE, OPENVINO_REVERSE_MULTIPLE_AXES,
                                          OPENVINO_UNIQUE_UNSORTED, OPENVINO_BF16_ROUNDING),
               specializes=KWARGS, requires=("openvino",), float64_as=FLOAT64_AS, devices=("cpu",)),
    PathRecord("tf", "onnx_openvino", "tf2onnx.convert.from_function, the file read by OpenVINO's ONNX reader, "
               "compiled for the CPU in float32 " + FIXED_NOTE, deploy.onnx_openvino, conv.run,
               limitations=lim.ONNX + (OPENVINO_ONNX_UNCONVERTED_OP, OPENVINO_LOOP_COUNTER_RANK,
                                       OPENVINO_ONNX_LOOP_OUTER_VALUES,
                                       OPENVINO_EMPTY_MATMUL_TRANSPOSED, OPENVINO_INT_MEAN, OPENVINO_RESHAPE_ZERO_DIM,
                                       OPENVINO_DIVIDE_BY_RECIPROCAL, OPENVINO_ONNX_SCAN_TENSOR_LIST,
                                       OPENVINO_ONNX_IF_OUTPUTS, OPENVINO_F64_SATURATES,
                                       OPENVINO_ONNX_REVERSE_EMPTY_BATCH, OPENVINO_ONNX_COND_CONV_CHANNELS,
                                       OPENVINO_ONNX_EMPTY_GATHER_RANK, OPENVINO_UNIQUE_UNSORTED,
                                       OPENVINO_BF16_ROUNDING),
               specializes=KWARGS, requires=("tf2onnx", "onnx", "openvino"),
               float64_as=FLOAT64_AS, devices=("cpu",), default_onnx_opset=onnx_default_opset),
)
