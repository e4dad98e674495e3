"""The TensorFlow deployment paths as records (:data:`DEPLOYMENT_PATHS`); what they refuse and get wrong is in the
catalogue (:mod:`conformance.paths.known`). The conversions are in :mod:`conformance.paths.tf.deployment`
(standalone: reproducers copy them).

Each path needs its optional runtime (``requires``): a missing one makes every case ``unsupported``, naming it.
"""

from __future__ import annotations

from functools import partial

from conformance.paths.openvino import FLOAT64_AS
from conformance.paths.records import PathRecord
from conformance.paths.tf import conversions as conv
from conformance.paths.tf import deployment as deploy
from conformance.paths.tf.adapter import onnx_default_opset

FIXED_NOTE = "(non-tensor arguments fixed at conversion)"
KWARGS = frozenset({"kwargs"})

#: tf.tflite_select_tf_ops runs only when named (default=False): tf.lite.Interpreter of the tensorflow-cpu wheel has no
#: Flex delegate, so every model that keeps a TensorFlow operator is refused, and the rest converts to the builtin
#: model tf.tflite already judges, in an interpreter TensorFlow deprecates; its campaign cost tf.tflite's again.
DEPLOYMENT_PATHS = (
    PathRecord("tf", "tflite", "tf.lite.TFLiteConverter.from_concrete_functions (float32, builtin operators only) run "
               "by LiteRT's interpreter (ai_edge_litert) " + FIXED_NOTE, deploy.tflite, conv.run,
               components=("tf_eager", "python_state", "autograph", "tf_freeze", "tflite"),
               specializes=KWARGS,
               requires=("ai_edge_litert",), devices=("cpu",)),
    PathRecord("tf", "tflite_select_tf_ops", "tf.lite.TFLiteConverter.from_concrete_functions with SELECT_TF_OPS "
               "(TensorFlow operators kept where TensorFlow Lite has no builtin) run by tf.lite.Interpreter (Flex "
               "delegate) " + FIXED_NOTE, partial(deploy.tflite, select_tf_ops=True), conv.run,
               components=("tf_eager", "python_state", "autograph", "tf_freeze", "tflite"),
               specializes=KWARGS,
               devices=("cpu",),
               default=False),
    PathRecord("tf", "openvino", "a SavedModel with a flat serving signature, read by openvino.convert_model, compiled "
               "for the CPU in float32 " + FIXED_NOTE, deploy.openvino_model, conv.run,
               components=("tf_eager", "python_state", "autograph", "openvino"),
               specializes=KWARGS, requires=("openvino",), float64_as=FLOAT64_AS, devices=("cpu",)),
    PathRecord("tf", "onnx_openvino", "tf2onnx.convert.from_function, the file read by OpenVINO's ONNX reader, "
               "compiled for the CPU in float32 " + FIXED_NOTE, deploy.onnx_openvino, conv.run,
               components=("tf_eager", "python_state", "autograph", "tf_freeze", "tf2onnx", "openvino"),
               specializes=KWARGS, requires=("tf2onnx", "onnx", "openvino"),
               float64_as=FLOAT64_AS, devices=("cpu",), default_onnx_opset=onnx_default_opset),
)
