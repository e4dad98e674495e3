"""The documented behaviours and known bugs of the conversion paths on programs that mutate, keep state and change
type (:mod:`conformance.program.effects`), as :class:`~conformance.paths.records.Limitation` records.

They select on the constructs of the case's program: a divergence that only programs with such a construct have
by design (a Python attribute frozen into a trace, a stateless ONNX graph) is an ``expected_divergence``, and a
construct a converter refuses is ``unsupported``. Each framework's path module adds them to its paths
(:func:`with_effect_limitations`) after registering them, behind the paths' own records.
"""

from __future__ import annotations

import dataclasses

from conformance.paths.records import PATHS, Limitation, register

FOUND = "found by conformance 2026-11-23 (torch 2.13.0, paddlepaddle 3.3.1, tensorflow 2.21.0)"
STATE = ("state_counter", "state_running", "state_cache")

ATTRIBUTE_FROZEN = Limitation(
    reason="a plain Python attribute forward reads (a flag the caller changes between calls) is a constant of the "
           "converted program, read when it was converted: the caller's later changes on the model are not seen "
           "(torch.compile guards on it and recompiles; to_static's SOT guards too)",
    phase="compare", constructs=("module_flag",), outcome="expected_divergence",
    reference="https://pytorch.org/docs/stable/jit.html#attributes; "
              "https://www.tensorflow.org/guide/function#depending_on_python_global_and_free_variables")
ONNX_NO_INPUT_WRITES = Limitation(
    reason="an ONNX graph cannot write into its inputs: the exported model computes with the written values, the "
           "caller's tensors keep theirs",
    phase="compare", constructs=("input_inplace",), where=r"^\['inputs'\]", outcome="expected_divergence",
    reference="https://onnx.ai/onnx/repo-docs/IR.html#graphs")
ONNX_NO_STATE = Limitation(
    reason="an ONNX graph has no state: a buffer or variable is a constant of the export, and the updates forward "
           "makes to it are lost, so the later calls see the state of the export",
    phase="compare", constructs=STATE, outcome="expected_divergence",
    reference="https://onnx.ai/onnx/repo-docs/IR.html#graphs")
OPENVINO_NO_INPUT_WRITES = Limitation(
    reason="an OpenVINO compiled model cannot write into its inputs: it computes with the written values, the "
           "caller's tensors keep theirs",
    phase="compare", constructs=("input_inplace",), where=r"^\['inputs'\]", outcome="expected_divergence",
    reference="https://docs.openvino.ai/2025/openvino-workflow/running-inference/inference-request.html")
OPENVINO_NO_STATE = Limitation(
    reason="an OpenVINO model converted from a framework's has no state: buffers and variables become constants of "
           "the conversion (state lives only in ReadValue/Assign pairs, which the conversion does not write), so the "
           "updates forward makes to them are lost",
    phase="compare", constructs=STATE, outcome="expected_divergence",
    reference="https://docs.openvino.ai/2025/openvino-workflow/running-inference/inference-request/stateful-models.html")
TRACE_KEEPS_TRACING_STATE = Limitation(
    reason="tracing runs forward on the example (and again to check the trace): the saved program holds the "
           "state those calls left, not the model's before converting",
    phase="compare", constructs=STATE, outcome="expected_divergence",
    reference="https://pytorch.org/docs/stable/generated/torch.jit.trace.html")
TRACE_ITEM = Limitation(
    reason="tracing records .item() and int(t) as constants of the example (its TracerWarning says so)",
    phase="compare", constructs=("item_arith", "int_cast"), outcome="expected_divergence",
    reference="https://pytorch.org/docs/stable/generated/torch.jit.trace.html")
SCRIPT_NO_CLOSURES = Limitation(
    reason="TorchScript does not compile a function defined inside forward (a closure)",
    errors=("UnsupportedNodeError",), message=r"function definitions aren't supported",
    reference="https://pytorch.org/docs/stable/jit_unsupported.html")
FX_NO_SETITEM = Limitation(
    reason="symbolic tracing cannot trace assignment into a traced tensor (x[...] = v)",
    errors=("TypeError",), message=r"'Proxy' object does not support item assignment",
    reference="https://pytorch.org/docs/stable/fx.html#limitations-of-symbolic-tracing")
FX_NO_PYTHON_VALUE = Limitation(
    reason="symbolic tracing has no Python value for a traced tensor: int(t) and a for over its rows fail",
    errors=("TypeError", "TraceError"), message=r"not 'Proxy'|Proxy object cannot be iterated",
    reference="https://pytorch.org/docs/stable/fx.html#limitations-of-symbolic-tracing")
ONNX_TORCHSCRIPT_VIEW_WRITES = Limitation(
    reason="known bug: the TorchScript ONNX exporter loses an in-place write through a view (narrow, select, a "
           "slice, transpose...) or computes the view before a write to its base: the exported graph returns the "
           "values from before the write",
    phase="compare", constructs=("view_write", "base_write", "base_setitem"), outcome=None, versions=">=2.13",
    reference="https://github.com/pytorch/pytorch/issues/80271; cases/torch-onnx-slice-variable-write.json")
FX_BUFFER_UPDATE_DROPPED = Limitation(
    reason="known bug: symbolic tracing runs an in-place update of a buffer (self.b.add_(1)) once, while tracing, "
           "and bakes the buffer into the graph as a constant: the traced module never updates it",
    phase="compare", constructs=("state_counter", "state_running"), outcome=None, versions=">=2.13", reference=FOUND)
TF2ONNX_ASSIGN_ADD = Limitation(
    reason="tf2onnx freezes variables into constants: a variable's assign_add in the function is refused",
    errors=("ValueError",), message=r"AssignAddVariableOp", package="tf2onnx", versions=">=1.0",
    reference="https://github.com/onnx/tensorflow-onnx#tf2onnx---convert-tensorflow-keras-tensorflowjs-and-tflite"
              "-models-to-onnx")

TO_STATIC_INPUT_WRITE = Limitation(
    reason="known bug: an in-place write into an input tensor in forward (x.scale_(2), x[:, :1] = ...) is lost by "
           "to_static's program: the caller's tensor is not written and the outputs computed after the write use "
           "the values from before it (see also cases/paddle-to-static-inplace-pass-writes-input.json)",
    phase="compare", constructs=("input_inplace",), outcome=None, versions=">=3.0", reference=FOUND)
TO_STATIC_STALE_VIEWS = Limitation(
    reason="known bug: to_static's program computes a view taken before an assignment into its base (b[:1] = ...) "
           "from the values before the assignment",
    phase="compare", constructs=("base_setitem",), outcome=None, versions=">=3.0",
    reference="https://github.com/PaddlePaddle/Paddle/issues/79146")
OPENVINO_STALE_VIEWS = Limitation(
    reason="known bug: OpenVINO's PyTorch reader computes a view taken before an in-place write to its base from the "
           "values before the write",
    phase="compare", constructs=("base_write", "base_setitem"), outcome=None, versions=">=2.13",
    reference="cases/torch-openvino-stale-view-after-base-write.json")
SAVED_PROGRAM_STATE = Limitation(
    reason="known issue: a saved Paddle program (jit.save, the Inference predictor, paddle2onnx) does not update the "
           "buffers forward assigns: every call computes with the state that was saved",
    phase="compare", constructs=STATE, outcome=None, versions=">=3.0", reference=FOUND)

SOT_INPLACE_ON_VIEW = Limitation(
    reason="to_static's SOT falls back to the AST translation, which refuses an in-place operator on a tensor that "
           "is a view in dygraph (static graphs have no views): the refusal comes wrapped in SOT's InnerError",
    errors=("InnerError",), message=r"output variable is a viewed Tensor in dygraph", versions=">=3.0",
    reference="paddle/utils/inplace_utils.py (the refusal's own message)")

#: Per path id, the records of this module it has.
BY_PATH = {
    "torch.script": (ATTRIBUTE_FROZEN, SCRIPT_NO_CLOSURES),
    "torch.script_saved": (ATTRIBUTE_FROZEN, SCRIPT_NO_CLOSURES),
    "torch.trace": (ATTRIBUTE_FROZEN, TRACE_ITEM),
    "torch.trace_saved": (ATTRIBUTE_FROZEN, TRACE_ITEM, TRACE_KEEPS_TRACING_STATE),
    "torch.fx": (ATTRIBUTE_FROZEN, FX_NO_SETITEM, FX_NO_PYTHON_VALUE, FX_BUFFER_UPDATE_DROPPED),
    "torch.export": (ATTRIBUTE_FROZEN,),
    "torch.export_saved": (ATTRIBUTE_FROZEN,),
    "torch.executorch": (ATTRIBUTE_FROZEN,),
    "torch.onnx_dynamo": (ATTRIBUTE_FROZEN, ONNX_NO_INPUT_WRITES, ONNX_NO_STATE),
    "torch.onnx_torchscript": (ATTRIBUTE_FROZEN, ONNX_NO_INPUT_WRITES, ONNX_NO_STATE, TRACE_ITEM,
                               ONNX_TORCHSCRIPT_VIEW_WRITES),
    **{f"paddle.{name}": (ATTRIBUTE_FROZEN, TO_STATIC_INPUT_WRITE, TO_STATIC_STALE_VIEWS)
       for name in ("to_static", "to_static_per_call", "to_static_build_strategy", "to_static_amp",
                    "to_static_spec_from_tensor")},
    **{f"paddle.{name}": (ATTRIBUTE_FROZEN, TO_STATIC_INPUT_WRITE, SAVED_PROGRAM_STATE, TO_STATIC_STALE_VIEWS)
       for name in ("jit_save", "jit_save_methods", "jit_save_function", "inference", "inference_no_onednn",
                    "inference_no_ir_optim", "onnx")},
    "paddle.to_static_sot": (SOT_INPLACE_ON_VIEW, TO_STATIC_STALE_VIEWS),
    **{pid: (ATTRIBUTE_FROZEN,) for pid in ("torch.aoti", "tf.tflite", "tf.tflite_select_tf_ops")},
    **{pid: (ATTRIBUTE_FROZEN, OPENVINO_NO_STATE, OPENVINO_NO_INPUT_WRITES)
       + ((OPENVINO_STALE_VIEWS,) if pid in ("torch.openvino", "torch.onnx_torchscript_openvino") else ())
       for pid in ("torch.openvino", "torch.onnx_dynamo_openvino", "torch.onnx_torchscript_openvino", "paddle.openvino",
                   "paddle.onnx_openvino", "tf.openvino", "tf.onnx_openvino")},
    "tf.function": (ATTRIBUTE_FROZEN,),
    "tf.xla": (ATTRIBUTE_FROZEN,),
    "tf.function_per_call": (ATTRIBUTE_FROZEN,),
    "tf.xla_per_call": (ATTRIBUTE_FROZEN,),
    "tf.function_reduce_retracing": (ATTRIBUTE_FROZEN,),
    "tf.saved_model": (ATTRIBUTE_FROZEN,),
    "tf.onnx": (ATTRIBUTE_FROZEN, ONNX_NO_STATE, TF2ONNX_ASSIGN_ADD),
}


def with_effect_limitations(framework: str) -> None:
    """Add this module's records to the registered paths of ``framework``, behind their own."""
    register(*(dataclasses.replace(rec, limitations=tuple(rec.limitations) + BY_PATH[pid])
               for pid, rec in list(PATHS.items()) if rec.framework == framework and pid in BY_PATH))
