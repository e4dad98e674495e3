"""The PaddlePaddle conversions people deploy with, beside Paddle Inference's default predictor: the predictor with
its IR optimisation passes off, OpenVINO reading the saved inference model, and paddle2onnx's file read by OpenVINO's
ONNX reader.

Every conversion here starts from the model saved by ``paddle.jit.save`` with the hand-written ``input_spec``
(:func:`conformance.paths.paddle.saved.save`), so it runs with the example's non-tensor arguments; each takes the
tensors flattened and returns a flat list.

Standalone (see :mod:`conformance.paths.standalone`): reproducers copy this code.
"""

from __future__ import annotations

import os

import paddle

from conformance.paths.openvino import F32, OpenVinoModel, onnx_on_openvino
from conformance.paths.paddle.conversions import note, to_numpy, watched
from conformance.paths.paddle.saved import (
    Predictor,
    in_insertion_order,
    program_order,
    save_static,
    saved_facts,
    to_onnx,
)
from conformance.program.trees import FlatOutputs


def inference_no_ir_optim(ctx):
    """A Paddle Inference predictor on the saved model with ``config.switch_ir_optim(False)``: the program runs as
    saved, without the inference passes (fusions, constant folding, layout changes) the default predictor applies;
    otherwise configured as the default (the CPU, oneDNN on)."""
    prefix, static = save_static(ctx)
    note(ctx, **saved_facts(static, prefix=prefix))
    order = program_order(static)
    config = paddle.inference.Config(prefix + ".json", prefix + ".pdiparams")
    if ctx.device == "cuda":
        config.enable_use_gpu(256, 0)
    else:
        config.disable_gpu()
        config.set_cpu_math_library_num_threads(1)
        config.enable_onednn()
    config.switch_ir_optim(False)
    config.disable_glog_info()
    return watched(ctx, Predictor(paddle.inference.create_predictor(config), ctx.tensor_names, order))


def openvino_model(ctx):
    """``openvino.convert_model`` of the saved inference model (the model file ``paddle.jit.save`` wrote: PIR's
    ``.json`` under paddle 3, the ``.pdmodel`` program under the legacy IR), compiled for the CPU in float32."""
    import openvino as ov

    prefix, static = save_static(ctx)
    note(ctx, **saved_facts(static, prefix=prefix))
    model_file = prefix + ".pdmodel" if os.path.exists(prefix + ".pdmodel") else prefix + ".json"
    return watched(ctx, OpenVinoModel(ov.convert_model(model_file), ctx.tensor_names, to_numpy, F32))


class InInsertionOrder:
    """A runtime of a saved model whose flat outputs (in Paddle's order: dict values by sorted key) come back in
    forward's insertion order (``order``: :func:`~conformance.paths.paddle.saved.output_order`)."""

    def __init__(self, runtime, order):
        self.runtime = runtime
        self.order = order

    def __call__(self, *args, **kwargs):
        return FlatOutputs(in_insertion_order(self.runtime(*args, **kwargs), self.order))


def onnx_openvino(ctx):
    """The ONNX file of ``paddle.onnx.export`` (as the ONNX path writes it: jit.save, then paddle2onnx) read by
    OpenVINO's ONNX reader."""
    onnx = to_onnx(ctx)
    return watched(ctx, InInsertionOrder(onnx_on_openvino(onnx, ctx.tensor_names, to_numpy), onnx.order))
