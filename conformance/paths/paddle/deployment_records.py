"""The PaddlePaddle deployment paths as records (:data:`DEPLOYMENT_PATHS`), with their documented refusals and known
bugs as data. The conversions are in :mod:`conformance.paths.paddle.deployment` (standalone: reproducers copy them).

Each path needs its optional runtime (``requires``): a missing one makes every case ``unsupported``, naming it.
"""

from __future__ import annotations

from dataclasses import replace

from conformance.paths.openvino_limitations import (
    FLOAT64_AS,
    OPENVINO_CPU,
    OPENVINO_EMPTY_MATMUL_TRANSPOSED,
    OPENVINO_F64_SATURATES,
)
from conformance.paths.paddle import deployment as deploy
from conformance.paths.paddle import limitations as known
from conformance.paths.paddle.adapter import onnx_default_opset
from conformance.paths.paddle.conversions import run
from conformance.paths.paddle.zero_size_limitations import P2O_OPENVINO_ZERO_SIZE
from conformance.paths.records import Limitation, PathRecord

SAVE_NOTE = "(non-tensor arguments are fixed to the example's, as given in the input_spec)"
KWARGS = frozenset({"kwargs"})

OPENVINO_NO_PIR = Limitation(
    reason="OpenVINO's Paddle reader reads the legacy program format (.pdmodel) only, not the PIR program (.json) "
           "that paddle.jit.save writes by default since Paddle 3.0 (the legacy IR is deprecated there: "
           "FLAGS_enable_pir_api=0 before paddle is imported); OpenVINO issue 29325 is open",
    errors=("Error",), message=r"Cannot recognize input model", versions=">=3.0",
    reference="https://github.com/openvinotoolkit/openvino/issues/29325")

#: OpenVINO's float64 saturation, as paddle2onnx's files meet it: also a float64 `x // 0` (case c978b607b5e2)
OPENVINO_F64_SATURATES_P2O = replace(OPENVINO_F64_SATURATES, ops=("cast", "floor_div"))

#: The OpenVINO paths run only when named (default=False): paddle.openvino refuses every Paddle 3 model (above);
#: paddle.onnx_openvino's seed-0 campaign left OpenVINO's refusal of a take_along_axis GatherElements and
#: paddle2onnx's bfloat16 Cast unminimised (issue 18).
DEPLOYMENT_PATHS = (
    PathRecord("paddle", "inference_no_ir_optim", "Paddle Inference predictor on the jit.save'd model with "
               "config.switch_ir_optim(False) (no inference passes; the CPU, oneDNN on, as the default predictor) "
               + SAVE_NOTE, deploy.inference_no_ir_optim, run, specializes=KWARGS,
               limitations=known.PREDICTOR_ONEDNN),
    PathRecord("paddle", "openvino", "openvino.convert_model of the jit.save'd inference model, compiled for the CPU "
               "in float32 " + SAVE_NOTE, deploy.openvino_model, run, specializes=KWARGS,
               limitations=known.SAVED + (OPENVINO_NO_PIR,), requires=("openvino",),
               float64_as=FLOAT64_AS, devices=("cpu",), default=False),
    PathRecord("paddle", "onnx_openvino", "paddle.onnx.export (jit.save, then paddle2onnx in a process of its own), "
               "the file read by OpenVINO's ONNX reader, compiled for the CPU in float32 " + SAVE_NOTE,
               deploy.onnx_openvino, run, specializes=KWARGS,
               limitations=known.ONNX + (OPENVINO_EMPTY_MATMUL_TRANSPOSED, OPENVINO_F64_SATURATES_P2O)
               + P2O_OPENVINO_ZERO_SIZE + OPENVINO_CPU,
               requires=("paddle2onnx", "onnx", "onnxruntime", "onnx_graphsurgeon", "polygraphy", "openvino"),
               float64_as=FLOAT64_AS, devices=("cpu",), default_onnx_opset=onnx_default_opset,
               default=False),
)
