"""PyTorch conversion paths: eager, TorchScript (script, trace), ``torch.fx.symbolic_trace``,
torch.compile (inductor, aot_eager, ``dynamic=True``, ``mode="reduce-overhead"``), torch.export,
ONNX (dynamo and TorchScript exporters) run on onnxruntime, and mixed precision (``torch.autocast``).

The conversions are in :mod:`~conformance.paths.torch.conversions` (standalone: reproducers copy them),
the adapter in :mod:`~conformance.paths.torch.adapter`; what each path gets wrong or refuses is in the
catalogue (:mod:`conformance.paths.known`), by the components a path lists; this module registers the paths.
The paths that autograd differentiates also run in the ``grad`` and ``train`` modes
(:mod:`conformance.judge.training`)."""

from __future__ import annotations

from functools import partial

import torch

from conformance.paths.ort import cuda_provider_missing
from conformance.paths.records import FRAMEWORKS, PathRecord, register
from conformance.paths.torch import conversions as conv
from conformance.paths.torch.adapter import FRAMEWORK, onnx_default_opset
from conformance.paths.torch.deployment_records import DEPLOYMENT_PATHS

FRAMEWORKS["torch"] = FRAMEWORK

#: The modes of a path that autograd differentiates (see conformance.judge.training).
AUTOGRAD_MODES = frozenset({"infer", "grad", "train"})
TRACE_NOTE = "(traced: control flow and non-tensor arguments are frozen to the example's)"
ONNX_NEEDS = ("onnxruntime", "onnx")

register(
    PathRecord("torch", "eager", "eager nn.Module (the reference, on the chosen device)", conv.eager, conv.call,
               reference=True, modes=AUTOGRAD_MODES, components=("torch_eager",)),
    PathRecord("torch", "script", "torch.jit.script", conv.script, conv.call, modes=AUTOGRAD_MODES,
               components=("torch_eager", "python_state", "torchscript")),
    # train: trace freezes the example's control flow, and training steps may change it: grad only
    PathRecord("torch", "trace", "torch.jit.trace " + TRACE_NOTE, conv.trace, conv.call,
               specializes=frozenset({"kwargs", "control_flow"}), modes=frozenset({"infer", "grad"}),
               components=("torch_eager", "python_state", "torchscript")),
    PathRecord("torch", "fx", "torch.fx.symbolic_trace (non-tensor arguments as concrete_args)", conv.fx, conv.call,
               specializes=frozenset({"kwargs"}),
               components=("torch_eager", "python_state", "torchscript", "fx"), modes=AUTOGRAD_MODES),
    PathRecord("torch", "compile", "torch.compile(backend='inductor')",
               partial(conv.compile_model, backend="inductor"), conv.call, modes=AUTOGRAD_MODES,
               components=("torch_eager", "torch_compile", "inductor")),
    PathRecord("torch", "compile_aot_eager", "torch.compile(backend='aot_eager')",
               partial(conv.compile_model, backend="aot_eager"), conv.call, modes=AUTOGRAD_MODES,
               components=("torch_eager", "torch_compile")),
    PathRecord("torch", "compile_dynamic", "torch.compile(dynamic=True) (inductor, symbolic shapes from the start)",
               partial(conv.compile_model, backend="inductor", dynamic=True), conv.call, modes=AUTOGRAD_MODES,
               components=("torch_eager", "torch_compile", "inductor")),
    PathRecord("torch", "compile_reduce_overhead", "torch.compile(mode='reduce-overhead') (CUDA graphs on CUDA; "
               "on the CPU, with no CUDA graphs to capture, the same code as compile)",
               partial(conv.compile_model, backend="inductor", mode="reduce-overhead"), conv.call,
               modes=AUTOGRAD_MODES, components=("torch_eager", "torch_compile", "inductor"),
               same_code_as=lambda device: None if device == "cuda" else
               f"on {device} there are no CUDA graphs to capture: the same code as torch.compile"),
    PathRecord("torch", "autocast_bf16", "torch.autocast(dtype=torch.bfloat16) around eager, outputs cast to float32; "
               "judged against fp32 eager with the bfloat16 tolerance rule",
               partial(conv.autocast, dtype=torch.bfloat16), conv.call, precision="bfloat16",
               components=("torch_eager",)),
    PathRecord("torch", "autocast_fp16", "torch.autocast('cuda', dtype=torch.float16) around eager, outputs cast to "
               "float32; judged against fp32 eager with the float16 tolerance rule",
               partial(conv.autocast, dtype=torch.float16), conv.call, precision="float16", devices=("cuda",)),
    PathRecord("torch", "export", "torch.export.export(dynamic_shapes=B).module()", conv.export, conv.call,
               components=("torch_eager", "python_state", "torch_export"), specializes=frozenset({"kwargs"}),
               modes=AUTOGRAD_MODES),
    PathRecord("torch", "onnx_dynamo", "torch.onnx.export(dynamo=True) on onnxruntime",
               partial(conv.onnx_export, dynamo=True), conv.run_flat,
               components=("python_state", "torch_export", "dynamo_exporter", "torchscript_exporter", "onnx",
                           "onnxruntime"),
               specializes=frozenset({"kwargs"}), requires=ONNX_NEEDS + ("onnxscript",),
               unavailable_on=cuda_provider_missing,
               default_onnx_opset=onnx_default_opset),
    PathRecord("torch", "onnx_torchscript", "torch.onnx.export(dynamo=False) on onnxruntime; " + TRACE_NOTE,
               partial(conv.onnx_export, dynamo=False), conv.run_flat,
               specializes=frozenset({"kwargs", "control_flow"}),
               components=("torch_eager", "python_state", "torchscript", "torchscript_exporter", "onnx",
                           "onnxruntime"),
               requires=ONNX_NEEDS, unavailable_on=cuda_provider_missing, default_onnx_opset=onnx_default_opset),
)

# the paths people deploy with (conversions in deployment.py)
register(*DEPLOYMENT_PATHS)
