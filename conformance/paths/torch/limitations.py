"""The documented refusals and known bugs of the PyTorch paths, as data (see
:class:`~conformance.paths.records.Limitation`).

Each selects on the phase, the mode where it matters, the exception type torch (or onnxruntime, or
conformance's ONNX runner) raises, or the oracle's divergence kind and leaf for a mismatch; a ``message``
regex on the framework's own text only narrows a type that torch raises for many reasons. The ONNX
dynamo exporter wraps the error of torch.export in a ``TorchExportError`` whose message's summary names the
original error's class and text.
"""

from __future__ import annotations

from dataclasses import replace

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
    reason=EXPORT_SHAPE_GUARD.reason + "; where the suggested fix caps B at 1 (a branch on B < 2), the exporter's "
           "retry with it (_capture_strategies) fails instead, as export's dynamic dims start at 2 ('Invalid ranges "
           "[2:1]')", errors=("TorchExportError",), message=r"Constraints violated \(B\)|Invalid ranges \[2:[01]\]",
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
SCRIPT_NAN_GRADIENT = Limitation(
    reason="known bug: from the second call, TorchScript's optimised backward multiplies by a mask where eager's "
           "selects (hardtanh's symbolic derivative), so an infinite derivative after a clipped value (asin at +-1) "
           "gives NaN where eager gives 0",
    phase="compare", modes=frozenset({"grad", "train"}), divergences=("nonfinite",), where=r"_grads'\]",
    outcome=None, versions=">=2.13",
    reference="found by conformance 2026-11-27 (torch 2.13.0); cases/standalone/torch_script_clamp_asin_nan_grad.py")
SCRIPT_ROTATION_ALIAS = Limitation(
    reason="known bug: `a, b, c = c, a, b`, then an in-place write into `a` (a.add_(x)), in a loop: TorchScript "
           "computes it with the wrong aliasing (three accumulators that each end at x, a + 2b + 3c: eager 6x, "
           "scripted 9x)",
    phase="compare", divergences=("value",), ops=("rotate_accumulate",), outcome=None, versions=">=1.11",
    reference="https://github.com/pytorch/pytorch/issues/75794; cases/torch-script-tuple-rotation-inplace.json")
SCRIPT_INT_POWER_FLOAT = Limitation(
    reason="known bug: TorchScript types `int ** int` as a float (Python: an int), so `x * (n ** 2)` of an int64 "
           "tensor is float32 in the scripted model",
    phase="compare", divergences=("dtype",), ops=("shape_power",), outcome=None, versions=">=1.7",
    reference="https://github.com/pytorch/pytorch/issues/51154; cases/torch-script-int-arithmetic-rough-edges.json")
SCRIPT_CONTINUE_IN_WITH = Limitation(
    reason="known bug (closed upstream as won't fix: TorchScript is deprecated): a `continue` inside two nested "
           "`with torch.no_grad():` blocks in a loop fails to script with an INTERNAL ASSERT "
           "(`outputs_[i]->uses().empty()`); it was once a silently wrong sum",
    errors=("RuntimeError",), message=r"outputs_\[i\]->uses\(\)\.empty\(\) INTERNAL ASSERT FAILED",
    ops=("continue_in_with",), outcome=None, versions=">=2.0",
    reference="https://github.com/pytorch/pytorch/issues/79751; cases/torch-script-continue-nested-with.json")
SCRIPT_UNUSED_DROPOUT = Limitation(
    reason="TorchScript removes a dropout whose result nothing uses as dead code, so in train() it draws fewer random "
           "numbers than eager and the later dropouts get other masks under the same seed (the random stream is not "
           "a documented contract)",
    phase="compare", modes=frozenset({"grad", "train"}), constructs=("unused_dropout",), divergences=("value",),
    outcome="expected_divergence", versions=">=2.13",
    reference="found by conformance 2026-11-27 (torch 2.13.0); "
              "cases/standalone/torch_script_unused_dropout_changes_masks.py")
AOT_ZERO_GRADIENTS = Limitation(
    reason="known bug: AOTAutograd gives a zero gradient where eager gives None, to an input or parameter whose "
           "only use is an output of a compiled graph that the loss does not use (e.g. `a = x * 2` before a graph "
           "break, `a.detach()` after it)",
    phase="compare", divergences=("extra_gradient",), outcome=None, versions=">=2.0",
    reference="https://github.com/pytorch/pytorch/issues/131794")

COMPILE_SCATTER_SRC_GRADIENT = Limitation(
    reason="known bug: scatter's derivative gives src an index-shaped gradient (grad.gather(dim, index)) where src is "
           "larger than index, which autograd rejects ('ScatterBackward0 returned an invalid gradient at index 1 - "
           "got [2, 1, 3] but expected shape compatible with [2, 4, 4]'); eager meets it only where the loss uses "
           "the scatter, but AOTAutograd traces the backward of every output of a compiled graph (a scatter result "
           "that only decides a branch after a graph break, too), so compiling for grad or train fails",
    errors=("BackendCompilerFailed",), message=r"Scatter\w*Backward0 returned an invalid gradient",
    modes=frozenset({"grad", "train"}), outcome=None, versions=">=2.0",
    reference="https://github.com/pytorch/pytorch/issues/27614 (also #94336; fix proposed in PR #188843)")

FOUND_TRANSPLANT = "found by conformance 2026-11-28 (torch 2.13.0) transplanting"
FLOOR_DIVIDE_OPS = ("floor_div", "floor_divide_scalar", "ceil_div")
INDUCTOR_FLOOR_DIVIDE = Limitation(
    reason="known bug: inductor lowers a floating floor division (a // b, torch.floor_divide, torch.div(rounding_mode="
           "'floor')) as floor(a / b) where eager computes Python's fmod-based quotient: an infinite dividend gives "
           "+-inf where eager gives NaN (selected here; a quotient just below an integer also rounds up, 1.0 // 0.1: "
           "10, eager 9, a value divergence left unnamed); aot_eager agrees with eager",
    phase="compare", divergences=("nonfinite",), ops=FLOOR_DIVIDE_OPS, outcome=None, versions=">=2.0",
    reference="https://github.com/pytorch/pytorch/issues/188048 (its fix, PR #188049, is not in torch 2.13.0's "
              "lowering; on the CPU too), https://github.com/pytorch/pytorch/issues/197895; "
              f"{FOUND_TRANSPLANT} cases/paddle-onnx-floor-divide-infinite.json")
ONNX_DYNAMO_FLOOR_DIVIDE = replace(
    INDUCTOR_FLOOR_DIVIDE, versions=">=2.5",
    reason="known bug: onnxscript's torchlib writes a floating aten.floor_divide as Floor(Div(a, b)): an infinite "
           "dividend gives +-inf where torch gives NaN (a quotient just below an integer also rounds up, unnamed); "
           "inductor's INDUCTOR_FLOOR_DIVIDE",
    reference="https://github.com/microsoft/onnxscript/issues/989; "
              f"{FOUND_TRANSPLANT} cases/paddle-onnx-floor-divide-infinite.json")

LDEXP_DECOMPOSITION_DTYPE = Limitation(
    reason="known bug: aten.ldexp's decomposition (torch/_decomp: `self * torch.pow(two, other)`, `two` float32 for "
           "an integer self) changes the dtype of torch.ldexp of an integer tensor by a float16 one: inductor returns "
           "float32 where eager returns float16",
    phase="compare", divergences=("dtype",), ops=("ldexp",), outcome=None, versions=">=2.13",
    reference="found by conformance 2026-11-28 (torch 2.13.0), the clean torch campaigns (issue 20; case "
              "d4a84b8aba7b); cases/standalone/torch_ldexp_integer_float16_dtype.py")
ONNX_DYNAMO_LDEXP_MUL_TYPES = Limitation(
    reason="known bug: the dynamo exporter writes torch.ldexp of an integer tensor by a float16 one as a Mul of "
           "float16 and float32, which onnxruntime refuses ('Type parameter (T) of Optype (Mul) bound to different "
           "types'); the same decomposition as LDEXP_DECOMPOSITION_DTYPE",
    errors=("Fail",), message=r"Type parameter \(T\) of Optype \(Mul\) bound to different types", ops=("ldexp",),
    outcome=None, versions=">=2.13", reference=LDEXP_DECOMPOSITION_DTYPE.reference)

ONNX_DYNAMO_NO_FUNCTION = Limitation(
    reason="the dynamo ONNX exporter has no ONNX function (translation or decomposition) for some aten operators "
           "and says so ('No ONNX function found for aten.cummax': implement it and register it, its message says)",
    errors=("ConversionError",), message=r"No ONNX function found for", versions=">=2.5",
    reference="https://pytorch.org/docs/stable/onnx_dynamo.html")

# ------------------------------------------------------------------ CUDA

CUDNN_RNN_EVAL_BACKWARD = Limitation(
    reason="cuDNN differentiates a recurrent layer only in training mode: on CUDA, the backward of an LSTM or GRU of a "
           "model in eval() is refused ('cudnn RNN backward can only be called in training mode'), in eager too",
    phase="run", modes=frozenset({"grad", "train"}), errors=("RuntimeError",),
    message=r"cudnn RNN backward can only be called in training mode", ops=("lstm", "gru"),
    reference="https://github.com/pytorch/pytorch/issues/5878 (seen on an H200, torch 2.11.0+cu130, 2026-11-28)")
#: What every path that differentiates on CUDA meets, eager included.
CUDA = (CUDNN_RNN_EVAL_BACKWARD,)

EXPORT = (EXPORT_DATA_DEPENDENT, EXPORT_SHAPE_GUARD, EXPORT_KWARG_GUARD) + CUDA
COMPILE = (AOT_ZERO_GRADIENTS, COMPILE_SCATTER_SRC_GRADIENT, LDEXP_DECOMPOSITION_DTYPE) + CUDA
#: torch.compile with inductor (not aot_eager): its lowerings' bugs too.
INDUCTOR = COMPILE + (INDUCTOR_FLOOR_DIVIDE,)
ONNX_UNSUPPORTED_OPERATOR = Limitation(
    reason="the TorchScript ONNX exporter has no symbolic for some aten operators, or some of their arguments, at its "
           "opset, and says so (aten::asinh, aten::expm1, aten::logaddexp, aten::trunc among this suite's ops; "
           "adaptive pooling to an output size that does not divide the input's, scatter_reduce with "
           "include_self=False or 'mean', sort with an out parameter, bitwise or/and/xor of integers: 'Unsupported: "
           "ONNX export of operator ...', 'ONNX does not support ...', 'ONNX export does NOT support exporting "
           "bitwise OR for non-boolean input values')",
    errors=("UnsupportedOperatorError", "SymbolicValueError", "OnnxExporterError"),
    message=r"is not supported|Unsupported: ONNX export of operator|ONNX does not support|ONNX export does NOT support",
    versions=">=2.0",
    reference="https://pytorch.org/docs/stable/onnx_torchscript_supported_aten_ops.html")

# ------------------------------------------------------------------ what hand-written user models met (issue 20)

SCRIPT_LANGUAGE = "https://pytorch.org/docs/stable/jit_language_reference.html"
SCRIPT_UNSUPPORTED_SYNTAX = Limitation(
    reason="TorchScript compiles a subset of Python: no nested function definitions or lambdas (a torch.cond "
           "branch written as a closure or a lambda), no *args in forward",
    errors=("UnsupportedNodeError", "NotSupportedError"),
    message=r"function definitions aren't supported|Lambda aren't supported|"
            r"can't take variable number of arguments", reference=SCRIPT_LANGUAGE)
SCRIPT_STATIC_TYPES = Limitation(
    reason="TorchScript is statically typed: a module attribute keeps the type of its first value (a tuple "
           "assigned a list is refused), and a ModuleDict is indexed by string literals only",
    errors=("RuntimeError",),
    message=r"Wrong type for attribute assignment|ModuleDict indexing is only supported with string literals",
    reference=SCRIPT_LANGUAGE)
SCRIPT_UNBOUND_OPS = Limitation(
    reason="some torch functions are not bound in TorchScript, or take another schema there: torch._check_is_size "
           "is no TorchScript builtin, and norm's dim needs p given (`x.norm(dim=-1)` matches no schema)",
    errors=("RuntimeError",),
    message=r"Unknown builtin op: aten::_check_is_size|aten::norm(?s:.*)Keyword argument dim unknown",
    reference="https://pytorch.org/docs/stable/jit_unsupported.html")

TRACE_REFERENCE = "https://pytorch.org/docs/stable/generated/torch.jit.trace.html"
TRACE_TENSORS_ONLY = Limitation(
    reason="torch.jit.trace takes and returns tensors and (nested) tuples, lists and dicts of tensors only: a None "
           "among the inputs is refused, and so is an output dict whose values are not of one type (a tensor and a "
           "list of tensors)",
    errors=("RuntimeError",),
    message=r"cannot be traced. Only Tensors and \(possibly nested\) Lists, Dicts, and Tuples of Tensors can be "
            r"traced|Tracer cannot infer type of", reference=TRACE_REFERENCE)
TRACE_COND = Limitation(
    reason="torch.cond runs through torch.compile, which torch.jit.trace refuses to trace ('Detected that you are "
           "using FX to torch.jit.trace a dynamo-optimized function'): torch.cond is for torch.compile and "
           "torch.export",
    errors=("RuntimeError",), message=r"Detected that you are using FX to torch.jit.trace a dynamo-optimized function",
    reference="https://pytorch.org/docs/stable/generated/torch.cond.html")
TRACE_CHECK_FAST_PATH = Limitation(
    reason="torch.jit.trace's sanity check traces again under torch.no_grad, and nn.MultiheadAttention takes its "
           "fast path (_native_multi_head_attention) only where autograd is off: the two graphs differ, so trace "
           "refuses the model (check_trace=False accepts it)",
    errors=("TracingCheckError",),
    message=r"Graphs differed across invocations(?s:.*)_native_multi_head_attention",
    reference="https://pytorch.org/docs/stable/generated/torch.nn.MultiheadAttention.html (the fast path's "
              "conditions); https://github.com/pytorch/pytorch/issues/106302")
CHECK_NEEDS_BOOL = Limitation(
    reason="torch._check and torch._check_is_size take a Python bool (export's data-dependent guards): under "
           "torch.jit.trace or FX the value of `.item()` is a tensor or a Proxy, which they refuse",
    errors=("TypeError",), message=r"cond must be a bool, but got",
    reference="https://github.com/pytorch/pytorch/blob/main/torch/__init__.py (torch._check: a bool or SymBool)")

FX_LIMITS = "https://pytorch.org/docs/stable/fx.html#limitations-of-symbolic-tracing"
FX_PROXY_PYTHON = Limitation(
    reason="symbolic tracing records tensor operations on Proxies: Python that needs a concrete value (iterating a "
           "Proxy, as tuple unpacking and *args do; int() of one; item assignment) is refused",
    errors=("TraceError", "TypeError"),
    message=r"Proxy object cannot be iterated|argument must be a string, a bytes-like object or a real number, not "
            r"'Proxy'|'Proxy' object does not support item assignment", reference=FX_LIMITS)
FX_COND = Limitation(
    reason="torch.cond under symbolic tracing gets a Proxy predicate and refuses it: torch.cond is for "
           "torch.compile and torch.export",
    errors=("RuntimeError",), message=r"Expected pred to be bool or tensor, but got Proxy",
    reference="https://pytorch.org/docs/stable/generated/torch.cond.html")

TRACE_HIDDEN_BRANCH = Limitation(
    reason="torch.jit.trace records the branch its example takes ('Converting a tensor to a Python boolean might "
           "cause the trace to be incorrect'); these ops branch on their data inside one statement (a helper's if, "
           "a short-circuit test), where the runner cannot replay the example's decision as it does for an if",
    phase="compare", divergences=("value",), ops=("helper_branch", "short_circuit", "short_circuit_write"),
    outcome="expected_divergence", reference="https://pytorch.org/docs/stable/generated/torch.jit.trace.html")

SCRIPT = (SCRIPT_DROPS_BATCH_NORM, SCRIPT_NAN_GRADIENT, SCRIPT_UNUSED_DROPOUT, SCRIPT_ROTATION_ALIAS,
          SCRIPT_INT_POWER_FLOAT, SCRIPT_CONTINUE_IN_WITH, SCRIPT_UNSUPPORTED_SYNTAX, SCRIPT_STATIC_TYPES,
          SCRIPT_UNBOUND_OPS) + CUDA
TRACE = (TRACE_TENSORS_ONLY, TRACE_COND, TRACE_CHECK_FAST_PATH, CHECK_NEEDS_BOOL, TRACE_HIDDEN_BRANCH) + CUDA
FX = (FX_CONTROL_FLOW, FX_PROXY_PYTHON, FX_COND, CHECK_NEEDS_BOOL) + CUDA
ONNX_INT_KEYED_DICT = Limitation(
    reason="known bug: the TorchScript ONNX exporter hands forward a dict input keyed by ints with its keys made 0-d "
           "tensors (tensor(0), tensor(1)), so `feats[0]` raises KeyError (torch.jit.trace, torch.export and the "
           "dynamo exporter keep the int keys)",
    errors=("KeyError",), message=r"^-?\d+$", outcome=None, versions=">=2.13",
    reference="found by conformance 2026-11-23 (torch 2.13.0); cases/torch-onnx-torchscript-int-keyed-dict.json")
ORT_NO_KERNEL = Limitation(
    reason="onnxruntime's CPU provider has no kernel for some ONNX ops in some dtypes (Acos, Asin, Softplus... in "
           "float32 only) and refuses to load a model that needs one ('Could not find an implementation for "
           "Acos(7)'; a float64 softplus through either exporter)",
    errors=("NotImplemented",), message=r"Could not find an implementation for \w+\(\d+\) node", versions=">=2.0",
    reference="https://github.com/microsoft/onnxruntime/blob/main/docs/OperatorKernels.md")

ONNX_TRAIN_MODE_EXPORTED_EVAL = Limitation(
    reason="torch.onnx.export(dynamo=False) exports in inference mode by default (training=TrainingMode.EVAL, as "
           "documented): a model in train() with batch norm or dropout is exported with batch norm on its running "
           "statistics and dropout off, so it computes another function than the eager model in train() "
           "(TrainingMode.PRESERVE keeps the mode)",
    phase="compare", constructs=("train_mode",), ops=("batch_norm", "dropout"), divergences=("value", "nonfinite"),
    outcome="expected_divergence", versions=">=2.0",
    reference="https://pytorch.org/docs/stable/onnx_torchscript.html#torch.onnx.export (training)")
ONNX_UNBATCHED_ADAPTIVE_POOL = Limitation(
    reason="known bug: the TorchScript exporter writes adaptive pooling to output size 1 as GlobalAveragePool / "
           "GlobalMaxPool, which take dims 0 and 1 for N and C: an unbatched input (C, H, W to adaptive_avg_pool2d, "
           "C, D, H, W to adaptive_avg_pool3d) is pooled over one dim fewer, and the output has the wrong shape "
           "([1, 2, 1, 1] where eager gives [1, 1, 1, 1]); onnxscript fixed the same for the dynamo exporter's "
           "avg_pool (microsoft/onnxscript#2646)",
    phase="compare", divergences=("shape",),
    ops=("adaptive_avg_pool2d", "adaptive_avg_pool3d", "adaptive_max_pool2d"), outcome=None,
    versions=">=2.13", reference="found by conformance 2026-11-27 (torch 2.13.0); "
                                 "cases/torch-onnx-torchscript-unbatched-adaptive-pool-shape.json")
ONNX_FLOOR_DIVIDE_TRUNCATES = Limitation(
    reason="known bug: the TorchScript exporter writes a // b as Div, then a Cast to int64 and back: it truncates "
           "toward zero where torch floors (negative quotients), and a NaN or infinite quotient becomes -9.2e18",
    phase="compare", divergences=("value", "nonfinite"), ops=("floor_div", "floor_divide_scalar", "ceil_div"),
    outcome=None, versions=">=2.0", reference="https://github.com/pytorch/pytorch/issues/78442; "
                                              "cases/torch-onnx-torchscript-floor-divide-nan.json")
FOUND_DEPLOY = "found by conformance 2026-11-28 (torch 2.13.0, openvino 2026.4.1)"
ONNX_SCATTER_SRC_LARGER = Limitation(
    reason="known bug: both ONNX exporters write torch.scatter(x, dim, index, src) as ScatterElements(x, index, src) "
           "without slicing src to index's shape: torch takes a src larger than index (it reads src only where index "
           "has elements), ONNX ScatterElements needs updates of indices' shape, so onnxruntime refuses to run it "
           "('Indices vs updates dimensions differs'; onnx/onnx#4672)",
    phase="run", errors=("InvalidArgument",), message=r"Indices vs updates dimensions differs", ops=("scatter",),
    outcome=None, versions=">=2.13",
    reference=f"https://github.com/onnx/onnx/issues/4672; {FOUND_DEPLOY}, the torch deployment campaign's rerun "
              "(issue 18, cases 324162c57334, b6444de759a9)")
ONNX_RESHAPE_ZERO_DIM = Limitation(
    reason="known bug: the TorchScript exporter writes x.reshape(shape) of a static shape holding a 0 (an empty "
           "tensor) as an ONNX Reshape without allowzero=1, where a 0 means 'copy the input's dim': onnxruntime "
           "refuses to run it ('The input tensor cannot be reshaped to the requested shape': [3, 1, 1, 0, 3] to "
           "[3] where torch asked for [0]); the dynamo exporter's file runs",
    phase="run", errors=("Fail",), message=r"The input tensor cannot be reshaped to the requested shape",
    ops=("reshape_empty",), outcome=None, versions=">=2.13",
    reference=f"{FOUND_DEPLOY}, the torch deployment campaign's rerun (issue 18, cases dc891e94d3f9, c56f0e4bf17a)")
ONNX_RESHAPE_EMPTY_SIGFPE = Limitation(
    reason="known bug: the TorchScript exporter dies of SIGFPE (an integer division by zero) in the ONNX shape "
           "inference of the Reshape it writes for x.reshape(0, 2) of an empty x of shape [0, 2] (or [0, 2, 3, 3]; "
           "_jit_pass_onnx_node_shape_type_inference, called from the reshape symbolic); [3, 0] to (0, 2) exports "
           "(pytorch#144144, #110056: the same signal in the same pass)",
    phase="crash", errors=("SIGFPE",), ops=("reshape_empty",), outcome=None, versions=">=2.13",
    reference=f"https://github.com/pytorch/pytorch/issues/144144; {FOUND_DEPLOY}, the torch deployment campaign's "
              "rerun (issue 18, cases 436c75c01580, 9e9cd37c79a6); "
              "cases/standalone/torch_onnx_torchscript_reshape_empty_sigfpe.py")
ONNX_ROLL_PAST_SIZE = Limitation(
    reason="known bug: the TorchScript exporter writes torch.roll(x, shift, dim) as two Slices at -shift, which "
           "does not wrap a shift larger than the dim (torch.roll(x, 7, 0) of 5 elements is a roll by 2 in torch; "
           "the exported model returns x unrolled)",
    phase="compare", divergences=("value",), ops=("roll",), outcome=None, versions=">=2.13",
    reference=f"{FOUND_DEPLOY}, the torch deployment campaign's rerun (issue 18, cases 0dec4fb471c3, 4058b5cfa331)")
FOUND_CLEAN = "found by conformance 2026-11-28 (torch 2.13.0), the clean torch campaigns (issue 20, infer mode)"
ONNX_UNBATCHED_AVG_POOL = Limitation(
    reason="known bug: the TorchScript exporter writes avg_pool1d / 2d / 3d of an unbatched input (C, L; C, H, W; C, "
           "D, H, W) as an AveragePool with the kernel and strides of 1 (2, 3) spatial dims over an input that ONNX "
           "reads as N, C and one spatial dim fewer, and onnxruntime refuses the model ('Attribute strides has "
           "incorrect size'; for 1d 'Input tensor must have at least 3 dimensions'); the same family as "
           "ONNX_UNBATCHED_ADAPTIVE_POOL",
    errors=("Fail",), message=r"Op \(AveragePool\) \[ShapeInferenceError\] (?:Attribute strides has incorrect size|"
                              r"Input tensor must have at least 3 dimensions)",
    ops=("avg_pool1d", "avg_pool2d", "avg_pool3d"), outcome=None, versions=">=2.13",
    reference=f"{FOUND_CLEAN} (cases cc8a435f9ca7, f509b270c657); "
              "cases/torch-onnx-torchscript-unbatched-avg-pool3d.json")
ONNX_EMPTY_SUM_KEEPS_RANK = Limitation(
    reason="known bug: the TorchScript exporter writes torch.sum(x) / torch.mean(x) of an x with a zero-size dim as a "
           "ReduceSum (ReduceMean) with keepdims=1 (_handle_reduce_dim_none, pytorch#58141, to dodge onnxruntime's "
           "refusal of an empty reduction with keepdims=0): the 0-d result comes back as [1, 1, 1, 1] (as many 1s "
           "as x has dims), on onnxruntime and OpenVINO alike",
    phase="compare", divergences=("shape",), ops=("sum_all", "mean_all"), outcome=None, versions=">=2.0",
    reference=f"https://github.com/pytorch/pytorch/pull/58141; {FOUND_CLEAN} (cases aa9f31ea9831, 2c0f3a4e607c, "
              "18539b040a63, fef7549d9330); cases/torch-onnx-torchscript-empty-sum-keeps-rank.json")
ORT_EMPTY_AXIS_REDUCTION = Limitation(
    reason="known bug (onnxruntime): a ReduceSum / ReduceProd over an axis of size 0 keeps that axis at 0 (its "
           "output of x [3, 0] over axis 1 is [3, 0] with keepdims=1 or 0) where ONNX, numpy and torch give the "
           "identity of size 1 ([3, 1], [3]); the onnx reference implementation and OpenVINO give [3, 1]",
    phase="compare", divergences=("shape",), ops=("prod", "sum"), outcome=None, versions=">=2.0",
    reference=f"https://github.com/microsoft/onnxruntime/issues/7563; {FOUND_CLEAN} (case 10238897525d; "
              "torch.onnx_dynamo's file too, found transplanting it); "
              "cases/onnxruntime-reduce-over-empty-axis-keeps-zero.json")
ONNX_0D_FLOAT64_WITH_SCALAR = Limitation(
    reason="known bug: the TorchScript exporter's implicit scalar type promotion takes a 0-d float64 tensor with a "
           "Python number (torch.fmod(x, 1.5), torch.remainder(x, 1.5), x * 1.5, x + 1.5) or with a 0-d integer "
           "tensor (x * n) for scalars and casts it to the default float32: the exported output is float32 where "
           "torch keeps float64",
    phase="compare", divergences=("dtype",),
    ops=("fmod_scalar", "remainder_scalar", "mul_scalar", "add_scalar", "mul_mixed"), outcome=None,
    versions=">=2.13", reference=f"{FOUND_CLEAN} (cases 56c6b14efc18, 2bb178fc937b); "
                                 "cases/torch-onnx-torchscript-0d-float64-plus-scalar-float32.json")
ONNX_CELU_FLOAT16 = Limitation(
    reason="known bug: the TorchScript exporter writes F.celu of a float16 tensor as an ONNX Celu, which is defined "
           "for float32 only, and onnxruntime refuses the model ('Type 'tensor(float16)' of input parameter ... of "
           "operator (Celu) ... is invalid'); it casts for no op's input types",
    errors=("InvalidGraph",), message=r"Type 'tensor\(float16\)' of input parameter \([^)]*\) of operator \(Celu\)",
    ops=("celu",), outcome=None, versions=">=2.13",
    reference=f"https://onnx.ai/onnx/operators/onnx__Celu.html (T: tensor(float)); {FOUND_CLEAN} (case "
              "18ef108a195c); cases/torch-onnx-torchscript-celu-float16.json")
ONNX_INT8_POW = Limitation(
    reason="known bug: both ONNX exporters write x ** 2 of an int8 tensor as an ONNX Pow on int8, a type Pow does not "
           "take (int32, int64 and floats), with no cast around it, and onnxruntime refuses the model ('Type "
           "'tensor(int8)' of input parameter ... of operator (Pow) ... is invalid'); tf2onnx does the same",
    errors=("InvalidGraph",), message=r"Type 'tensor\(u?int(8|16)\)' of input parameter \([^)]*\) of operator \(Pow\)",
    ops=("int_pow",), outcome=None, versions=">=2.13",
    reference="https://onnx.ai/onnx/operators/onnx__Pow.html (T: int32, int64, floats); found by conformance "
              "2026-11-28 (torch 2.13.0) transplanting cases/tf-onnx-int8-pow.json")
ONNX_DIAGONAL_FLOAT32 = Limitation(
    reason="known bug: the TorchScript exporter writes torch.diagonal as a Mul by a float32 EyeLike mask, then a "
           "ReduceSum (symbolic_opset13.diagonal): the diagonal of any tensor but a float32 one comes back float32 "
           "(int8, int32, int64, float16 checked)",
    phase="compare", divergences=("dtype",), ops=("diagonal",), outcome=None, versions=">=2.0",
    reference=f"{FOUND_TRANSPLANT} cases/paddle-to-static-diagonal-int8.json")
ONNX_DYNAMO_DIAGONAL_INT8 = Limitation(
    reason="known bug: onnxscript's torchlib writes torch.diagonal as a Mul by an EyeLike mask, then a ReduceSum in "
           "the input's dtype, which ReduceSum does not take for int8 or int16 (int32, int64 and floats), and "
           "onnxruntime refuses the model ('Type 'tensor(int8)' of input parameter ... of operator (ReduceSum) ... is "
           "invalid'); int32 and int64 run",
    errors=("InvalidGraph",), message=r"Type 'tensor\(u?int(8|16)\)' of input parameter \([^)]*\) of operator "
                                      r"\(ReduceSum\)", ops=("diagonal",), outcome=None, versions=">=2.5",
    reference="https://onnx.ai/onnx/operators/onnx__ReduceSum.html (T: no int8, int16); "
              f"{FOUND_TRANSPLANT} cases/paddle-to-static-diagonal-int8.json")
ONNX_DYNAMO_REFINED_SHAPES = Limitation(
    reason="known bug: where torch.export refuses the dynamic batch dim (a shape branch specialises it), the dynamo "
           "exporter silently retries with torch.export's suggested fixes (_capture_strategies: "
           "refine_dynamic_shapes_from_suggested_fixes): the dim becomes static (B = 3), and onnxruntime refuses "
           "inputs of another batch ('Got invalid dimensions for input'), or gets a range (B >= 4) that the ONNX "
           "model never checks, so inputs outside it take the example's branch; torch.export refuses both",
    phase="run", errors=("InvalidArgument",), message=r"Got invalid dimensions for input", constructs=("if_shape",),
    outcome=None, versions=">=2.5",
    reference=f"https://github.com/pytorch/pytorch/pull/134976; {FOUND_CLEAN} (case cd397b23695d)")
ONNX_DYNAMO_REFINED_RANGE = replace(
    ONNX_DYNAMO_REFINED_SHAPES, phase="compare", errors=(), message="", divergences=("value", "shape", "nonfinite"),
    reference=f"https://github.com/pytorch/pytorch/pull/134976; {FOUND_CLEAN} (case a99c77658fab)")
AUTOCAST_FLOAT16_PROMOTE = Limitation(
    reason="known bug: under CPU bfloat16 autocast, an op of autocast's promote list (torch.cat, torch.stack) given a "
           "float16 tensor raises 'Unexpected floating ScalarType in at::autocast::prioritize' (prioritize knows "
           "float32 and the autocast dtype only); outside autocast it returns float16",
    phase="run", errors=("RuntimeError",), message=r"Unexpected floating ScalarType in at::autocast::prioritize",
    outcome=None, versions=">=2.0",
    reference=f"https://github.com/pytorch/pytorch/issues/100932 (fix proposed in PR #191125); {FOUND_CLEAN} (case "
              "2fe0fe9778c3); cases/standalone/torch_cpu_autocast_float16_cat.py")
ONNX_TORCHSCRIPT = (ONNX_FLOAT_KWARG_INPUT, ONNX_UNSUPPORTED_OPERATOR, ONNX_INT_KEYED_DICT, ORT_NO_KERNEL,
                    ONNX_TRAIN_MODE_EXPORTED_EVAL, ONNX_UNBATCHED_ADAPTIVE_POOL, ONNX_FLOOR_DIVIDE_TRUNCATES,
                    ONNX_SCATTER_SRC_LARGER, ONNX_RESHAPE_ZERO_DIM, ONNX_RESHAPE_EMPTY_SIGFPE,
                    ONNX_ROLL_PAST_SIZE, ONNX_UNBATCHED_AVG_POOL, ONNX_EMPTY_SUM_KEEPS_RANK,
                    ONNX_0D_FLOAT64_WITH_SCALAR, ONNX_CELU_FLOAT16, ONNX_INT8_POW, ONNX_DIAGONAL_FLOAT32) + TRACE
#: onnxruntime's own bugs: on the ONNX paths that run on it, not on the OpenVINO ones that read the same file.
ONNXRUNTIME = (ORT_EMPTY_AXIS_REDUCTION,)
ONNX_DYNAMO = (ONNX_DATA_DEPENDENT, ONNX_SHAPE_GUARD, ONNX_IDENTITY_OUTPUT, ONNX_TUPLE_SHAPES, ONNX_DYNAMO_NO_FUNCTION,
               ORT_NO_KERNEL, ONNX_SCATTER_SRC_LARGER, ONNX_DYNAMO_REFINED_SHAPES, ONNX_DYNAMO_REFINED_RANGE,
               ONNX_DYNAMO_LDEXP_MUL_TYPES, ONNX_INT8_POW, ONNX_DYNAMO_FLOOR_DIVIDE, ONNX_DYNAMO_DIAGONAL_INT8)
OPENVINO_INT_KEYED_DICT = Limitation(
    reason="openvino.convert_model takes example_input as tensors, or a dict of them keyed by parameter name: a dict "
           "input keyed by ints is refused ('Unexpected type of example_input ... Got <class 'dict'>')",
    errors=("Error",), message=r"Unexpected type of example_input(?s:.*)Got <class 'dict'>", versions=">=2024.0",
    package="openvino",
    reference="https://docs.openvino.ai/2026/openvino-workflow/model-preparation/convert-model-pytorch.html")
#: openvino.convert_model traces the module with torch.jit.trace and re-raises what trace refuses as a RuntimeError
#: that quotes it ("Couldn't get TorchScript module by tracing. Exception: ..."); and what it refuses as an example.
#: Trace's documented divergences (no exception) stay as they are.
OPENVINO_TRACE = tuple(replace(lim, errors=("RuntimeError",),
                               message=rf"Couldn't get TorchScript module by tracing(?s:.*)(?:{lim.message})")
                       if lim.errors else lim for lim in TRACE) + (OPENVINO_INT_KEYED_DICT,)
