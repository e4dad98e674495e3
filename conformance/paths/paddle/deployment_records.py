"""The PaddlePaddle deployment paths as records (:data:`DEPLOYMENT_PATHS`); what they refuse and get wrong is in the
catalogue (:mod:`conformance.paths.known`). The conversions are in :mod:`conformance.paths.paddle.deployment`
(standalone: reproducers copy them).

Each path needs its optional runtime (``requires``): a missing one makes every case ``unsupported``, naming it.
"""

from __future__ import annotations

from conformance.paths.openvino import FLOAT64_AS
from conformance.paths.paddle import deployment as deploy
from conformance.paths.paddle.adapter import onnx_default_opset
from conformance.paths.paddle.conversions import run
from conformance.paths.records import PathRecord

SAVE_NOTE = "(non-tensor arguments are fixed to the example's, as given in the input_spec)"
KWARGS = frozenset({"kwargs"})

#: The OpenVINO paths run only when named (default=False): paddle.openvino refuses every Paddle 3 model
#: (``openvino.openvino_no_pir``); paddle.onnx_openvino leaves OpenVINO's refusal of a take_along_axis GatherElements
#: and paddle2onnx's bfloat16 Cast unminimised.
DEPLOYMENT_PATHS = (
    PathRecord("paddle", "inference_no_ir_optim", "Paddle Inference predictor on the jit.save'd model with "
               "config.switch_ir_optim(False) (no inference passes; the CPU, oneDNN on, as the default predictor) "
               + SAVE_NOTE, deploy.inference_no_ir_optim, run, specializes=KWARGS,
               components=("paddle_eager", "python_state", "pir_ast", "paddle_jit_save", "paddle_inference")),
    PathRecord("paddle", "openvino", "openvino.convert_model of the jit.save'd inference model, compiled for the CPU "
               "in float32 " + SAVE_NOTE, deploy.openvino_model, run, specializes=KWARGS,
               components=("paddle_eager", "python_state", "pir_ast", "paddle_jit_save", "openvino"),
               requires=("openvino",),
               float64_as=FLOAT64_AS, devices=("cpu",), default=False),
    PathRecord("paddle", "onnx_openvino", "paddle.onnx.export (jit.save, then paddle2onnx in a process of its own), "
               "the file read by OpenVINO's ONNX reader, compiled for the CPU in float32 " + SAVE_NOTE,
               deploy.onnx_openvino, run, specializes=KWARGS,
               components=("paddle_eager", "python_state", "pir_ast", "paddle_jit_save", "paddle2onnx",
                           "onnxruntime", "openvino"),
               requires=("paddle2onnx", "onnx", "onnxruntime", "onnx_graphsurgeon", "polygraphy", "openvino"),
               float64_as=FLOAT64_AS, devices=("cpu",), default_onnx_opset=onnx_default_opset,
               default=False),
)
