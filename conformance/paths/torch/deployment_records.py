"""The PyTorch deployment paths as records (:data:`DEPLOYMENT_PATHS`), with their documented refusals and known
bugs as data. The conversions are in :mod:`conformance.paths.torch.deployment` (standalone: reproducers copy them).

Each path needs its optional runtime (``requires``): a missing one makes every case ``unsupported``, naming it
(``pip install 'conformance[deploy]'`` installs them). AOTInductor compiles C++ for every case (about 30 s of one
core here), so it runs only where named (``--paths aoti``): a default campaign would spend its budget on it.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from conformance.paths.openvino_limitations import (
    FLOAT64_AS,
    OPENVINO_CPU,
    OPENVINO_EMPTY_MATMUL_TRANSPOSED,
    OPENVINO_F64_SATURATES,
    OPENVINO_SINGLE_THREAD_SHAPE_ERROR,
)
from conformance.paths.records import Limitation, PathRecord
from conformance.paths.torch import conversions as conv
from conformance.paths.torch import deployment as deploy
from conformance.paths.torch import limitations as lim
from conformance.paths.torch.adapter import onnx_default_opset

TRACE_NOTE = "(traced: control flow and non-tensor arguments are frozen to the example's)"
EXPORT_NOTE = "(exported: non-tensor arguments are fixed to the example's)"
#: What torch.export refuses, every path through it refuses too.
EXPORTED = (lim.EXPORT_DATA_DEPENDENT, lim.EXPORT_SHAPE_GUARD)

FOUND = "found by conformance 2026-11-23 (torch 2.13.0, openvino 2026.4.1)"
FOUND_DEPLOY = "found by conformance 2026-11-28 (torch 2.13.0, openvino 2026.4.1)"

# ------------------------------------------------------------------ limitations

EXECUTORCH_NOT_CORE_ATEN = Limitation(
    reason="ExecuTorch's to_edge accepts only Core ATen operators (aten.signbit is not one): it refuses the program, "
           "naming the operator and the exception list that would let it through",
    errors=("SpecViolationError",), message=r"is not in Core ATen opset",
    reference="https://pytorch.org/docs/stable/torch.compiler_ir.html#core-aten-ir")

EXECUTORCH_ZERO_STRIDE = Limitation(
    reason="ExecuTorch's emitter refuses a tensor with a stride of 0 (an empty tensor, or a dim expanded without a "
           "copy): 'exir' raises '0 in strides is not supported for ExecuTorch' by design",
    errors=("RuntimeError",), message=r"0 in strides is not supported for ExecuTorch",
    reference="https://github.com/pytorch/executorch/blob/main/exir/tensor.py")

OPENVINO_UNUSED_DICT_KEY = Limitation(
    reason="known bug: OpenVINO's PyTorch reader names a dict input's flattened inputs after its keys, then cannot "
           "find the input of a key that forward does not read ('Input for tensor name ... is not found'); an unused "
           "plain tensor argument is kept",
    errors=("RuntimeError",), message=r"Input for tensor name '[^']+' is not found", outcome=None,
    versions=">=2026.0", package="openvino", reference=f"{FOUND}; cases/torch-openvino-unused-dict-input-key.json")

EXPORT_SAVE_NESTED_NO_GRAD = Limitation(
    reason="known bug: torch.export captures two nested `with torch.no_grad():` blocks as nested "
           "wrap_with_set_grad_enabled nodes, and the saved program does not load back: 'Node.meta "
           "wrap_with_set_grad_enabled is missing val field' (SpecViolationError); one block saves and loads",
    errors=("SpecViolationError",), message=r"wrap_with_set_grad_enabled is missing val field", outcome=None,
    versions=">=2.13", reference="found by conformance 2026-11-28 (torch 2.13.0) transplanting pytorch#79751; "
                                 "cases/torch-script-continue-nested-with.json")
SCRIPT_AFTER_FAILED_SCRIPT = Limitation(
    reason="known bug: torch.jit.script of a class whose scripting failed earlier in the process fails with 'Can't "
           "redefine method: forward' (the failed attempt left the class half-defined in TorchScript's compilation "
           "unit): the first failure, on torch.script, is the finding",
    errors=("RuntimeError",), message=r"Can't redefine method: forward on class", outcome=None, versions=">=2.0",
    reference="found by conformance 2026-11-28 (torch 2.13.0); cases/torch-script-continue-nested-with.json")
SCRIPT_SAVE_NONE_DEFAULT = Limitation(
    reason="known bug: TorchScript types an unannotated parameter as Tensor (documented), so `mask=None` is a Tensor "
           "parameter whose default is an undefined tensor; torch.jit.script accepts the module and it runs given a "
           "mask, but torch.jit.save cannot serialise that default ('strides() called on an undefined Tensor'); "
           "annotated Optional[Tensor] it saves",
    errors=("RuntimeError",), message=r"strides\(\) called on an undefined Tensor", outcome=None, versions=">=2.0",
    reference="https://github.com/pytorch/pytorch/issues/41277 (the Tensor default type); found by conformance "
              "2026-11-28 (torch 2.13.0), the torch user-model table (issue 20, model keyword_tensor); "
              "cases/standalone/torch_script_save_none_default.py")
OPENVINO_UNUSED_INPUT_BESIDE_DICT = Limitation(
    reason="known bug: OpenVINO's PyTorch reader, given a tuple input that holds a dict, drops from the traced graph "
           "an input that forward does not read (`y` of `forward(self, x: Tuple[Tensor, Dict[str, Tensor]], y: "
           "Tuple[Tensor])` returning `x[0] + x[1]['k']`), then fails setting the example's shapes by position "
           "('idx < parameters.size()': 'Type/shape was set to non-existent input'); without the dict it keeps it",
    errors=("GeneralFailure", "OpConversionFailure"), message=r"\bi(dx)? < parameters\.size\(\)", outcome=None,
    versions=">=2026.0", package="openvino",
    reference=f"{FOUND}; cases/torch-openvino-unused-input-beside-nested-dict.json")
OPENVINO_INPUT_DROPPED = Limitation(
    reason="known bug: OpenVINO's PyTorch reader leaves out of the converted model an input that forward did not read "
           "on the traced example, among nested inputs (a list element, beside a dict): the model has fewer inputs "
           "than the module's tensors, unnamed, so a caller cannot tell which to feed (conformance's UnmatchedInputs); "
           "the same family as the two known bugs above",
    errors=("UnmatchedInputs",), outcome=None, versions=">=2026.0", package="openvino",
    reference=f"{FOUND}; cases/torch-openvino-unused-input-beside-nested-dict.json")
OPENVINO_UNUSED_LIST_INPUT = Limitation(
    reason="known bug: OpenVINO's PyTorch reader leaves out of the traced graph a list input of two or more tensors "
           "that forward does not read (`forward(self, x0, x1: List[Tensor])` returning x0; a one-element list, or a "
           "plain tensor, is kept), then sets the example's shapes by position: past the last input ('idx < "
           "parameters.size()': 'Type/shape was set to non-existent input'), or on the next one where the ranks differ "
           "('PartialShape::merge_into': 'Incompatible shape was requested for input #1, opset1::Parameter "
           "Parameter_N'); with equal ranks it converts with too few inputs (UnmatchedInputs)",
    errors=("GeneralFailure", "OpConversionFailure"), constructs=("list_input",),
    message=r"Type/shape was set to non-existent input|Incompatible shape was requested for input #\d+, "
            r"opset1::Parameter Parameter_\d+ ",
    outcome=None, versions=">=2026.0", package="openvino",
    reference=f"{FOUND_DEPLOY} (cases 131fc5819341, 10712e622b42, minimised by conformance triage)")
OPENVINO_NO_CONVERSION_RULE = Limitation(
    reason="OpenVINO's PyTorch reader has no conversion rule for some aten operators (aten::trunc, aten::logcumsumexp "
           "among this suite's ops) and refuses the model ('No conversion rule found for operations')",
    errors=("OpConversionFailure",), message=r"No conversion rule found for operations", versions=">=2024.0",
    package="openvino",
    reference="https://docs.openvino.ai/2026/documentation/compatibility-and-support/supported-operations.html")
OPENVINO_DICT_KEY_CLASH = Limitation(
    reason="known bug: OpenVINO's PyTorch reader names a dict input's flattened inputs after their keys; two dict "
           "inputs with the same key (`forward(self, a, b)`, a = {'k': 2-d}, b = {'k': 1-d}) get 'k' and 'k_1', and "
           "the example's shapes are set on the wrong one ('PartialShape::merge_into ... Incompatible shape was "
           "requested'); with equal ranks it converts and runs right",
    errors=("GeneralFailure",), message=r"PartialShape::merge_into", outcome=None, versions=">=2026.0",
    package="openvino", reference=f"{FOUND}; cases/torch-openvino-same-key-in-two-dict-inputs.json")
OPENVINO_NESTED_SEQUENCE = Limitation(
    reason="OpenVINO's PyTorch reader flattens tensors, tuples and lists, and dicts of tensors, into inputs; a list or "
           "tuple inside a dict input stays a TorchScript tuple, which it refuses ('Tuples are not supported yet')",
    errors=("OpConversionFailure",), message=r"prim::TupleUnpack with a message:\s*Tuples are not supported yet",
    versions=">=2024.0", package="openvino",
    reference="https://docs.openvino.ai/2026/openvino-workflow/model-preparation/convert-model-pytorch.html "
              "(non-tensor data types)")
OPENVINO_DICT_OF_SEQUENCES = Limitation(
    reason="OpenVINO's PyTorch reader traces a dict input of lists as a dict of tuples, and torch.jit.trace takes a "
           "dict only when its values have one type ('Dictionary inputs to traced functions must have consistent "
           "type': tuples of different lengths); OpenVINO documents dicts of tensors as inputs",
    errors=("RuntimeError",), message=r"Dictionary inputs to traced functions must have consistent type",
    versions=">=2024.0", package="openvino", reference=OPENVINO_NESTED_SEQUENCE.reference)
EXECUTORCH_STR_INPUT = Limitation(
    reason="ExecuTorch's runtime takes tensors, ints, floats and bools as a method's inputs (an EValue holds no "
           "string): a str argument, which torch.export keeps among the program's inputs, is refused when called "
           "('Unsupported python type <class 'str'>')",
    phase="run", errors=("RuntimeError",), message=r"Unsupported python type <class 'str'>",
    reference="https://pytorch.org/executorch/stable/runtime-overview.html")
OPENVINO_SCATTER_SRC_LARGER = Limitation(
    reason="known bug (both ONNX exporters), as OpenVINO meets it: torch.scatter with a src larger than index is "
           "written as ScatterElements with updates of src's shape, which OpenVINO's ONNX reader refuses ('Indices "
           "and updates input shapes are required to be equal'); onnxruntime refuses it at run time",
    errors=("RuntimeError",), message=r"Indices and updates input shapes are required to be equal",
    ops=("scatter",), outcome=None, versions=">=2.13", reference=lim.ONNX_SCATTER_SRC_LARGER.reference)
OPENVINO_RESHAPE_ZERO_DIM = Limitation(
    reason="known bug (the TorchScript exporter), as OpenVINO meets it: a reshape of an empty tensor to a shape "
           "holding a 0 is written as an ONNX Reshape without allowzero=1, and OpenVINO copies the input's dim for "
           "the 0 ([3, 1, 1, 0, 3] reshaped to [0] comes out [3]) where onnxruntime refuses the model",
    phase="compare", divergences=("shape",), ops=("reshape_empty",), outcome=None, versions=">=2.13",
    reference=lim.ONNX_RESHAPE_ZERO_DIM.reference)
FOUND_CLEAN = "found by conformance 2026-11-28 (torch 2.13.0, openvino 2026.4.1), the clean torch campaigns (issue 20)"
OPENVINO_GATHER_SMALLER_INDEX = Limitation(
    reason="known bug: OpenVINO's PyTorch and ONNX readers write torch.gather (ONNX GatherElements) as OpenVINO's "
           "GatherElements, which needs indices of data's shape except on the axis, without slicing data: an index "
           "smaller than the input in another dim (which torch.gather takes) is refused at conversion where the "
           "shapes are static ('`data` and `indices` must have equal or intersecting dimensions', 'Conversion is "
           "failed for: GatherElements'); with dynamic ones it fails at inference, silently with one thread "
           "(OPENVINO_SINGLE_THREAD_SHAPE_ERROR)",
    errors=("RuntimeError",), message=r"`data` and `indices` must have equal or intersecting dimensions",
    ops=("gather",), outcome=None, versions=">=2026.4.1", package="openvino",
    reference=f"{FOUND_CLEAN} (cases bcd95b46a50f, d85d6e8f7cc0, 9bb6c90bc3df, 01a57ac16637, 166d15f15243); "
              "cases/openvino-gather-index-smaller-than-input.json")
EXECUTORCH_FLOOR_DIVIDE_ZERO = Limitation(
    reason="known bug: ExecuTorch's portable floor_divide gives 0.0 // 0.0 = inf where torch gives NaN",
    phase="compare", divergences=("nonfinite",), ops=("floor_div",), outcome=None, versions=">=2.13",
    reference=f"{FOUND_CLEAN} (case ce033c4c39ff); cases/standalone/torch_executorch_floor_divide_zero.py")
EXECUTORCH_MISSING_KERNEL = Limitation(
    reason="ExecuTorch's portable kernel library has no kernel for some Core ATen operators (aten::avg_pool3d.out): "
           "to_executorch accepts the program, and the runtime refuses to load the method (error 0x14, "
           "OperatorMissing; its log says 'Missing operator: aten::avg_pool3d.out')",
    errors=("RuntimeError",), message=r"Failed to load method forward, error: 0x:14", ops=("avg_pool3d",),
    reference="https://github.com/pytorch/executorch/blob/main/kernels/portable/functions.yaml (the portable "
              "kernels); runtime/core/error.h (OperatorMissing = 0x14); met transplanting "
              "cases/torch-onnx-torchscript-unbatched-avg-pool3d.json (2026-11-28)")
EXECUTORCH_GRU_STATIC_BATCH = Limitation(
    reason="known bug: executorch.exir.to_edge of a program with an nn.GRU turns its dynamic batch (torch.export's "
           "symbol) into the example's size, silently, so the ExecuTorch program is planned for the example: a larger "
           "batch is refused when set as input (error 0x10: 'Attempted to resize a bounded tensor'), a smaller one "
           "fails in execute (error 0x12); nn.LSTM and nn.RNN keep the batch",
    phase="run", errors=("RuntimeError",),
    message=r"method->set_inputs\(\) for method 'forward' failed with error 0x10|method->execute\(\) failed with "
            r"error 0x12",
    outcome=None, versions=">=2.13",
    reference="found by conformance 2026-11-28 (torch 2.13.0), the torch user-model table (issue 20, model "
              "recurrent); cases/standalone/torch_executorch_gru_static_batch.py")
OPENVINO_DYNAMO_REFINED_SHAPES = replace(
    lim.ONNX_DYNAMO_REFINED_SHAPES, errors=("RuntimeError",),
    message=r"The input tensor size is not equal to the model input type")
#: The OpenVINO paths' records of the clean campaigns (issue 20): first, as uninitialised outputs may look like any
#: other bug's (a huge value taken for OPENVINO_F64_SATURATES's FLT_MAX).
OPENVINO_CLEAN = (OPENVINO_GATHER_SMALLER_INDEX, OPENVINO_SINGLE_THREAD_SHAPE_ERROR)
#: The ONNX exporters' limitations, and the CPU plugin's with the ONNX reader's static shapes.
ONNX_DYNAMO_OPENVINO = (OPENVINO_CLEAN + (OPENVINO_F64_SATURATES,) + lim.ONNX_DYNAMO
                        + (OPENVINO_EMPTY_MATMUL_TRANSPOSED,) + OPENVINO_CPU
                        + (OPENVINO_SCATTER_SRC_LARGER, OPENVINO_DYNAMO_REFINED_SHAPES))
ONNX_TORCHSCRIPT_OPENVINO = (OPENVINO_CLEAN + (OPENVINO_F64_SATURATES,) + lim.ONNX_TORCHSCRIPT
                             + (OPENVINO_EMPTY_MATMUL_TRANSPOSED,) + OPENVINO_CPU
                             + (OPENVINO_SCATTER_SRC_LARGER, OPENVINO_RESHAPE_ZERO_DIM))
OPENVINO_NEEDS = ("openvino",)
ONNX_OPENVINO_NEEDS = ("onnxruntime", "onnx", "openvino")

#: The OpenVINO paths are default since the seed-0 deployment campaign's findings were named (issue 18).
DEPLOYMENT_PATHS = (
    PathRecord("torch", "export_saved", "torch.export.save of the exported program (dynamic batch), torch.export.load, "
               "run as ExportedProgram.module() " + EXPORT_NOTE, deploy.export_saved, conv.call,
               limitations=EXPORTED + (lim.EXPORT_KWARG_GUARD, EXPORT_SAVE_NESTED_NO_GRAD),
               specializes=frozenset({"kwargs"})),
    PathRecord("torch", "script_saved", "torch.jit.save of torch.jit.script(model), then torch.jit.load",
               deploy.script_saved, conv.call,
               limitations=lim.SCRIPT + (SCRIPT_AFTER_FAILED_SCRIPT, SCRIPT_SAVE_NONE_DEFAULT)),
    PathRecord("torch", "trace_saved", "torch.jit.save of torch.jit.trace(model), then torch.jit.load " + TRACE_NOTE,
               deploy.trace_saved, conv.call, specializes=frozenset({"kwargs", "control_flow"}), limitations=lim.TRACE),
    PathRecord("torch", "aoti", "AOTInductor: torch._inductor.aoti_compile_and_package of the exported program, "
               "aoti_load_package, run " + EXPORT_NOTE + "; about 30 s a case on this CPU, so only where named",
               deploy.aoti, conv.call, limitations=EXPORTED, specializes=frozenset({"kwargs"}), default=False),
    PathRecord("torch", "executorch", "ExecuTorch: torch.export, to_edge, to_executorch (portable kernels), run by "
               "executorch.runtime " + EXPORT_NOTE, deploy.executorch_program, conv.call,
               limitations=EXPORTED + (EXECUTORCH_NOT_CORE_ATEN, EXECUTORCH_STR_INPUT, EXECUTORCH_ZERO_STRIDE,
                                       EXECUTORCH_FLOOR_DIVIDE_ZERO, EXECUTORCH_MISSING_KERNEL,
                                       EXECUTORCH_GRU_STATIC_BATCH),
               specializes=frozenset({"kwargs"}),
               requires=("executorch",), devices=("cpu",)),
    PathRecord("torch", "openvino", "openvino.convert_model(model, example_input=...) (OpenVINO traces the module), "
               "compiled for the CPU in float32 " + TRACE_NOTE, deploy.openvino_model, conv.run_flat,
               specializes=frozenset({"kwargs", "control_flow"}),
               limitations=OPENVINO_CLEAN + (OPENVINO_UNUSED_DICT_KEY, OPENVINO_UNUSED_LIST_INPUT,
                                             OPENVINO_UNUSED_INPUT_BESIDE_DICT, OPENVINO_INPUT_DROPPED,
                                             OPENVINO_DICT_KEY_CLASH, OPENVINO_NESTED_SEQUENCE,
                                             OPENVINO_DICT_OF_SEQUENCES, OPENVINO_NO_CONVERSION_RULE)
               + lim.OPENVINO_TRACE
               + (OPENVINO_F64_SATURATES,) + OPENVINO_CPU,
               requires=OPENVINO_NEEDS, float64_as=FLOAT64_AS, devices=("cpu",)),
    PathRecord("torch", "onnx_dynamo_openvino", "torch.onnx.export(dynamo=True), the file read by OpenVINO's ONNX "
               "reader, compiled for the CPU in float32 " + EXPORT_NOTE, partial(deploy.onnx_openvino, dynamo=True),
               conv.run_flat, limitations=ONNX_DYNAMO_OPENVINO, specializes=frozenset({"kwargs"}),
               requires=ONNX_OPENVINO_NEEDS + ("onnxscript",), float64_as=FLOAT64_AS, devices=("cpu",),
               default_onnx_opset=onnx_default_opset),
    PathRecord("torch", "onnx_torchscript_openvino", "torch.onnx.export(dynamo=False), the file read by OpenVINO's "
               "ONNX reader, compiled for the CPU in float32 " + TRACE_NOTE,
               partial(deploy.onnx_openvino, dynamo=False), conv.run_flat,
               specializes=frozenset({"kwargs", "control_flow"}),
               limitations=ONNX_TORCHSCRIPT_OPENVINO, requires=ONNX_OPENVINO_NEEDS,
               float64_as=FLOAT64_AS, devices=("cpu",), default_onnx_opset=onnx_default_opset),
)
