"""The PyTorch deployment paths as records (:data:`DEPLOYMENT_PATHS`); what they refuse and get wrong is in the
catalogue (:mod:`conformance.paths.known`). The conversions are in :mod:`conformance.paths.torch.deployment`
(standalone: reproducers copy them).

Each path needs its optional runtime (``requires``): a missing one makes every case ``unsupported``, naming it
(``pip install 'conformance[deploy]'`` installs them). AOTInductor compiles C++ for every case (about 30 s of one
core here), so it runs only where named (``--paths aoti``): a default campaign would spend its budget on it.
"""

from __future__ import annotations

from functools import partial

from conformance.paths.openvino import FLOAT64_AS
from conformance.paths.records import PathRecord
from conformance.paths.torch import conversions as conv
from conformance.paths.torch import deployment as deploy
from conformance.paths.torch.adapter import onnx_default_opset

TRACE_NOTE = "(traced: control flow and non-tensor arguments are frozen to the example's)"
EXPORT_NOTE = "(exported: non-tensor arguments are fixed to the example's)"

OPENVINO_NEEDS = ("openvino",)
ONNX_OPENVINO_NEEDS = ("onnxruntime", "onnx", "openvino")


DEPLOYMENT_PATHS = (
    PathRecord("torch", "export_saved", "torch.export.save of the exported program (dynamic batch), torch.export.load, "
               "run as ExportedProgram.module() " + EXPORT_NOTE, deploy.export_saved, conv.call,
               components=("python_state", "torch_export"),
               specializes=frozenset({"kwargs"})),
    PathRecord("torch", "script_saved", "torch.jit.save of torch.jit.script(model), then torch.jit.load",
               deploy.script_saved, conv.call,
               components=("torch_eager", "python_state", "torchscript")),
    PathRecord("torch", "trace_saved", "torch.jit.save of torch.jit.trace(model), then torch.jit.load " + TRACE_NOTE,
               deploy.trace_saved, conv.call, specializes=frozenset({"kwargs", "control_flow"}),
               components=("torch_eager", "python_state", "torchscript")),
    PathRecord("torch", "aoti", "AOTInductor: torch._inductor.aoti_compile_and_package of the exported program, "
               "aoti_load_package, run " + EXPORT_NOTE + "; about 30 s a case on this CPU, so only where named",
               deploy.aoti, conv.call,
               components=("python_state", "torch_export"), specializes=frozenset({"kwargs"}), default=False),
    PathRecord("torch", "executorch", "ExecuTorch: torch.export, to_edge, to_executorch (portable kernels), run by "
               "executorch.runtime " + EXPORT_NOTE, deploy.executorch_program, conv.call,
               components=("python_state", "torch_export", "executorch"),
               specializes=frozenset({"kwargs"}),
               requires=("executorch",), devices=("cpu",)),
    PathRecord("torch", "openvino", "openvino.convert_model(model, example_input=...) (OpenVINO traces the module), "
               "compiled for the CPU in float32 " + TRACE_NOTE, deploy.openvino_model, conv.run_flat,
               specializes=frozenset({"kwargs", "control_flow"}),
               components=("torch_eager", "python_state", "torchscript", "openvino"),
               requires=OPENVINO_NEEDS, float64_as=FLOAT64_AS, devices=("cpu",)),
    PathRecord("torch", "onnx_dynamo_openvino", "torch.onnx.export(dynamo=True), the file read by OpenVINO's ONNX "
               "reader, compiled for the CPU in float32 " + EXPORT_NOTE, partial(deploy.onnx_openvino, dynamo=True),
               conv.run_flat,
               components=("python_state", "torch_export", "dynamo_exporter", "torchscript_exporter",
                           "onnxruntime", "openvino"), specializes=frozenset({"kwargs"}),
               requires=ONNX_OPENVINO_NEEDS + ("onnxscript",), float64_as=FLOAT64_AS, devices=("cpu",),
               default_onnx_opset=onnx_default_opset),
    PathRecord("torch", "onnx_torchscript_openvino", "torch.onnx.export(dynamo=False), the file read by OpenVINO's "
               "ONNX reader, compiled for the CPU in float32 " + TRACE_NOTE,
               partial(deploy.onnx_openvino, dynamo=False), conv.run_flat,
               specializes=frozenset({"kwargs", "control_flow"}),
               components=("torch_eager", "python_state", "torchscript", "torchscript_exporter", "onnxruntime",
                           "openvino"), requires=ONNX_OPENVINO_NEEDS,
               float64_as=FLOAT64_AS, devices=("cpu",), default_onnx_opset=onnx_default_opset),
)
