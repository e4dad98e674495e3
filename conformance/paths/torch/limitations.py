"""The documented refusals and known bugs of the PyTorch paths, as data (see
:class:`~conformance.paths.records.Limitation`).

Each selects on the phase, the mode where it matters, the exception type torch (or onnxruntime, or
conformance's ONNX runner) raises, or the oracle's divergence kind and leaf for a mismatch; a ``message``
regex on the framework's own text only narrows a type that torch raises for many reasons. The ONNX
dynamo exporter wraps the error of torch.export in a ``TorchExportError`` whose message's summary names the
original error's class and text.
"""

from __future__ import annotations

from conformance.paths.records import Limitation

FOUND = "found by conformance 2026-11-21 (torch 2.13.0)"

# ------------------------------------------------------------------ torch.export and the dynamo ONNX exporter

EXPORT_DATA_DEPENDENT = Limitation(
    reason="torch.export cannot capture Python control flow on tensor values; it needs torch.cond",
    errors=("GuardOnDataDependentSymNode",), versions=">=2.1",
    reference="https://pytorch.org/docs/stable/export.html#data-dependent-control-flow")
ONNX_DATA_DEPENDENT = Limitation(
    reason=EXPORT_DATA_DEPENDENT.reason, errors=("TorchExportError",), message=r"GuardOnDataDependentSymNode",
    versions=">=2.1", reference=EXPORT_DATA_DEPENDENT.reference)
EXPORT_SHAPE_GUARD = Limitation(
    reason="a shape-dependent branch specialises the dynamic dim: export refuses a dynamic Dim",
    errors=("UserError",), message=r"Constraints violated \(B\)", versions=">=2.1",
    reference="https://pytorch.org/docs/stable/export.html#constraints-dynamic-shapes")
ONNX_SHAPE_GUARD = Limitation(
    reason=EXPORT_SHAPE_GUARD.reason, errors=("TorchExportError",), message=r"Constraints violated \(B\)",
    versions=">=2.1", reference=EXPORT_SHAPE_GUARD.reference)
EXPORT_KWARG_GUARD = Limitation(
    reason="an exported program specialises non-tensor arguments and refuses other values at run time",
    phase="run", errors=("AssertionError",), message=r"Guard failed: [A-Za-z_]\w* == (True|False|-?[0-9.]+|'[^']*')",
    reference="https://pytorch.org/docs/stable/export.html")
ONNX_IDENTITY_OUTPUT = Limitation(
    reason="known bug: with input_names, an input returned unchanged as an output is defined twice and "
           "onnxruntime rejects the model",
    errors=("Fail",), message=r"Duplicate definition of name", outcome=None, versions=">=2.9", reference=FOUND)
ONNX_TUPLE_SHAPES = Limitation(
    reason="known bug: a tuple input with tuple dynamic_shapes is rejected as a structure mismatch "
           "(torch.export itself accepts it)",
    errors=("TorchExportError",), message=r"is a <class 'tuple'>, but `dynamic_shapes\[.*\]` is a <class 'list'>",
    outcome=None, versions=">=2.9", reference=FOUND)
ONNX_DICT_FALLBACK = Limitation(
    reason="known bug: with kwargs empty, a dict that is the last positional input is taken for the keyword "
           "arguments (the TorchScript exporter's convention), so binding the inputs fails; torch.export accepts "
           "the same call",
    errors=("TorchExportError",), message=r"<class 'TypeError'>: missing a required argument: ", outcome=None,
    versions=">=2.9", reference=FOUND)

# ------------------------------------------------------------------ the TorchScript ONNX exporter

ONNX_FLOAT_KWARG_INPUT = Limitation(
    reason="known bug: the TorchScript exporter exports a float keyword argument used in tensor arithmetic "
           "(`x * alpha`) as an unnamed graph input ('onnx::Cast_N') instead of hard-coding it as it documents "
           "for non-tensor arguments, so the model cannot run on the model's own inputs",
    errors=("UnknownGraphInputs",), outcome=None, versions=">=2.13",
    reference=f"{FOUND}; cases/torch-onnx-torchscript-float-kwarg-exported-as-input.json")

# ------------------------------------------------------------------ FX, TorchScript, torch.compile

FX_CONTROL_FLOW = Limitation(
    reason="symbolic tracing cannot follow Python control flow on tensor values or shapes (FX's documented "
           "limitation: dynamic control flow)",
    errors=("TraceError",), message=r"symbolically traced variables cannot be used as inputs to control flow",
    reference="https://pytorch.org/docs/stable/fx.html#dynamic-control-flow")
SCRIPT_DROPS_BATCH_NORM = Limitation(
    reason="known bug: an unused batch_norm result in train() is dead code to TorchScript's optimised graph "
           "(after the profiling call), so the running statistics stop updating",
    phase="compare", where=r"\['buffers'\]", outcome=None, versions=">=2.13",
    reference="cases/torch-script-unused-batch-norm-stops-updating-running-stats.json")
AOT_ZERO_GRADIENTS = Limitation(
    reason="known bug: AOTAutograd gives a zero gradient where eager gives None, to an input or parameter whose "
           "only use is an output of a compiled graph that the loss does not use (e.g. `a = x * 2` before a graph "
           "break, `a.detach()` after it)",
    phase="compare", divergences=("extra_gradient",), outcome=None, versions=">=2.0",
    reference="https://github.com/pytorch/pytorch/issues/131794")

EXPORT = (EXPORT_DATA_DEPENDENT, EXPORT_SHAPE_GUARD, EXPORT_KWARG_GUARD)
ONNX_DYNAMO = (ONNX_DATA_DEPENDENT, ONNX_SHAPE_GUARD, ONNX_IDENTITY_OUTPUT, ONNX_TUPLE_SHAPES, ONNX_DICT_FALLBACK)
ONNX_UNSUPPORTED_OPERATOR = Limitation(
    reason="the TorchScript ONNX exporter has no symbolic for some aten operators, or some of their arguments, at its "
           "opset, and says so (aten::asinh, aten::expm1, aten::logaddexp, aten::trunc among this suite's ops; "
           "adaptive pooling to an output size that does not divide the input's, scatter_reduce with "
           "include_self=False or 'mean', sort with an out parameter: 'Unsupported: ONNX export of operator ...', "
           "'ONNX does not support ...')",
    errors=("UnsupportedOperatorError", "SymbolicValueError", "OnnxExporterError"),
    message=r"is not supported|Unsupported: ONNX export of operator|ONNX does not support", versions=">=2.0",
    reference="https://pytorch.org/docs/stable/onnx_torchscript_supported_aten_ops.html")
