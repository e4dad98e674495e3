"""The TensorFlow deployment paths as records (:data:`DEPLOYMENT_PATHS`), with their documented refusals and known
bugs as data. The conversions are in :mod:`conformance.paths.tf.deployment` (standalone: reproducers copy them).

Each path needs its optional runtime (``requires``): a missing one makes every case ``unsupported``, naming it.
"""

from __future__ import annotations

from functools import partial

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

#: tf.openvino is default since its seed-0 campaign's findings were named (issue 18); the TFLite paths and
#: tf.onnx_openvino run only when named (default=False) while a finding of theirs is unminimised: TFLite's 'Invalid
#: tensor size' (seen only with an empty input), OpenVINO's ONNX reader refusing some tf2onnx Loops.
DEPLOYMENT_PATHS = (
    PathRecord("tf", "tflite", "tf.lite.TFLiteConverter.from_concrete_functions (float32, builtin operators only) run "
               "by LiteRT's interpreter (ai_edge_litert) " + FIXED_NOTE, deploy.tflite, conv.run,
               limitations=lim.TRACED + (TFLITE_NO_BUILTIN, lim.FREEZE_DUPLICATE_FUNCTION), specializes=KWARGS,
               requires=("ai_edge_litert",),
               devices=("cpu",),
               default=False),
    PathRecord("tf", "tflite_select_tf_ops", "tf.lite.TFLiteConverter.from_concrete_functions with SELECT_TF_OPS "
               "(TensorFlow operators kept where TensorFlow Lite has no builtin) run by tf.lite.Interpreter (Flex "
               "delegate) " + FIXED_NOTE, partial(deploy.tflite, select_tf_ops=True), conv.run,
               limitations=lim.TRACED + (TFLITE_NO_KERNEL, TFLITE_NO_FLEX_DELEGATE, lim.FREEZE_DUPLICATE_FUNCTION),
               specializes=KWARGS,
               devices=("cpu",),
               default=False),
    PathRecord("tf", "openvino", "a SavedModel with a flat serving signature, read by openvino.convert_model, compiled "
               "for the CPU in float32 " + FIXED_NOTE, deploy.openvino_model, conv.run,
               limitations=lim.TRACED + (OPENVINO_NO_CONVERSION_RULE, lim.OPENVINO_VARIABLE_NOT_FOUND),
               specializes=KWARGS, requires=("openvino",), devices=("cpu",)),
    PathRecord("tf", "onnx_openvino", "tf2onnx.convert.from_function, the file read by OpenVINO's ONNX reader, "
               "compiled for the CPU in float32 " + FIXED_NOTE, deploy.onnx_openvino, conv.run,
               limitations=lim.ONNX + (OPENVINO_LOOP_COUNTER_RANK,), specializes=KWARGS,
               requires=("tf2onnx", "onnx", "onnxruntime", "openvino"),
               devices=("cpu",), default_onnx_opset=onnx_default_opset,
               default=False),
)
