"""TorchScript: ``torch.jit.script`` and ``torch.jit.trace`` (and the tracer the TorchScript ONNX exporter and
OpenVINO's PyTorch reader run): what they refuse and get wrong.
"""

from conformance.paths.known.factories import Failure, documented, known_bug, refusal, refuses_with, writes_wrong

#: torch.jit.script, in memory and saved.
SCRIPT_PATHS = ('torch.script', 'torch.script_saved')
#: The paths that run torch.jit.trace.
TRACE_PATHS = ('torch.trace', 'torch.onnx_torchscript', 'torch.trace_saved', 'torch.onnx_torchscript_openvino')

RECORDS = (
    known_bug(
        "torchscript.script_drops_batch_norm",
        reason=("An unused batch_norm result in train() is dead code to TorchScript's optimised graph (after the "
                "profiling call), so the running statistics stop updating"),
        phases=('compare',),
        where=r"\['buffers'\]",
        versions=">=2.13",
        paths=SCRIPT_PATHS,
        case="torch-script-unused-batch-norm-stops-updating-running-stats.json",
        details=("known bug: an unused batch_norm result in train() is dead code to TorchScript's optimised graph "
                 "(after the profiling call), so the running statistics stop updating. Provenance: "
                 "cases/torch-script-unused-batch-norm-stops-updating-running-stats.json."),
        example=Failure('compare', divergences=(('value', "['buffers']"),)),
    ),
    known_bug(
        "torchscript.script_nan_gradient",
        reason=("From the second call, TorchScript's optimised backward multiplies by a mask where eager selects, "
                "so an infinite derivative gives NaN"),
        phases=('compare',),
        divergences=('nonfinite',),
        where=r"_grads'\]",
        modes=frozenset({'grad', 'train'}),
        versions=">=2.13",
        paths=SCRIPT_PATHS,
        script="torch_script_clamp_asin_nan_grad.py",
        found="2026-11-27 (torch 2.13.0)",
        details=("known bug: from the second call, TorchScript's optimised backward multiplies by a mask where "
                 "eager's selects (hardtanh's symbolic derivative), so an infinite derivative after a clipped value "
                 "(asin at +-1) gives NaN where eager gives 0. Provenance: found by conformance 2026-11-27 (torch "
                 "2.13.0); cases/standalone/torch_script_clamp_asin_nan_grad.py."),
        example=Failure('compare', mode="grad", divergences=(('nonfinite', "_grads']"),)),
    ),
    documented(
        "torchscript.script_unused_dropout",
        reason=("TorchScript removes a dropout whose result nothing uses as dead code, so later dropouts draw other "
                "masks under the same seed"),
        phases=('compare',),
        divergences=('value',),
        modes=frozenset({'grad', 'train'}),
        versions=">=2.13",
        constructs=('unused_dropout',),
        paths=SCRIPT_PATHS,
        script="torch_script_unused_dropout_changes_masks.py",
        found="2026-11-27 (torch 2.13.0)",
        details=("TorchScript removes a dropout whose result nothing uses as dead code, so in train() it draws "
                 "fewer random numbers than eager and the later dropouts get other masks under the same seed (the "
                 "random stream is not a documented contract). Provenance: found by conformance 2026-11-27 (torch "
                 "2.13.0); cases/standalone/torch_script_unused_dropout_changes_masks.py."),
        example=Failure('compare', mode="grad", divergences=(('value', '[0]'),), constructs=('unused_dropout',)),
    ),
    writes_wrong(
        "torchscript.script_rotation_alias",
        reason=("TorchScript gets the aliasing wrong for rotated accumulators (`a, b, c = c, a, b`) written in "
                "place in a loop"),
        phases=('compare',),
        divergences=('value',),
        versions=">=1.11",
        ops=('rotate_accumulate',),
        paths=SCRIPT_PATHS,
        issue="https://github.com/pytorch/pytorch/issues/75794",
        case="torch-script-tuple-rotation-inplace.json",
        details=("known bug: `a, b, c = c, a, b`, then an in-place write into `a` (a.add_(x)), in a loop: "
                 "TorchScript computes it with the wrong aliasing (three accumulators that each end at x, a + 2b + "
                 "3c: eager 6x, scripted 9x). Provenance: https://github.com/pytorch/pytorch/issues/75794; "
                 "cases/torch-script-tuple-rotation-inplace.json."),
        example=Failure('compare', divergences=(('value', '[0]'),), ops=('rotate_accumulate',)),
    ),
    writes_wrong(
        "torchscript.script_int_power_float",
        reason=("TorchScript types `int ** int` as a float (Python: an int), so `x * (n ** 2)` of an int64 tensor "
                "is float32 in the scripted"),
        phases=('compare',),
        divergences=('dtype',),
        versions=">=1.7",
        ops=('shape_power',),
        paths=SCRIPT_PATHS,
        issue="https://github.com/pytorch/pytorch/issues/51154",
        case="torch-script-int-arithmetic-rough-edges.json",
        details=("known bug: TorchScript types `int ** int` as a float (Python: an int), so `x * (n ** 2)` of an "
                 "int64 tensor is float32 in the scripted model. Provenance: "
                 "https://github.com/pytorch/pytorch/issues/51154; "
                 "cases/torch-script-int-arithmetic-rough-edges.json."),
        example=Failure('compare', divergences=(('dtype', '[0]'),), ops=('shape_power',)),
    ),
    known_bug(
        "torchscript.script_continue_in_with",
        reason=("A `continue` inside two nested `with torch.no_grad():` blocks in a loop fails to script with an "
                "INTERNAL ASSERT (`outputs_[i]->uses().empty()`)"),
        errors=('RuntimeError',),
        message=r"outputs_\[i\]->uses\(\)\.empty\(\) INTERNAL ASSERT FAILED",
        versions=">=2.0",
        ops=('continue_in_with',),
        paths=SCRIPT_PATHS,
        issue="https://github.com/pytorch/pytorch/issues/79751",
        case="torch-script-continue-nested-with.json",
        details=("known bug (closed upstream as won't fix: TorchScript is deprecated): a `continue` inside two "
                 "nested `with torch.no_grad():` blocks in a loop fails to script with an INTERNAL ASSERT "
                 "(`outputs_[i]->uses().empty()`); it was once a silently wrong sum. Provenance: "
                 "https://github.com/pytorch/pytorch/issues/79751; cases/torch-script-continue-nested-with.json."),
        example=Failure('convert',
                        error_types=('RuntimeError',),
                        message="outputs_[i]->uses().empty() INTERNAL ASSERT FAILED",
                        ops=('continue_in_with',)),
    ),
    refusal(
        "torchscript.script_unsupported_syntax",
        reason="TorchScript compiles a subset of Python: no nested function definitions, lambdas or variadic arguments",
        errors=('UnsupportedNodeError', 'NotSupportedError'),
        message="function definitions aren't supported|Lambda aren't supported|can't take variable number of arguments",
        paths=SCRIPT_PATHS,
        reference="https://pytorch.org/docs/stable/jit_language_reference.html",
        details=("TorchScript compiles a subset of Python: no nested function definitions or lambdas (a torch.cond "
                 "branch written as a closure or a lambda), no *args in forward. Provenance: "
                 "https://pytorch.org/docs/stable/jit_language_reference.html. It also covers what a record of its "
                 "own said (every failure it selected is this record's): TorchScript does not compile a function "
                 "defined inside forward (a closure)."),
        example=Failure('convert',
                        error_types=('UnsupportedNodeError',),
                        message="function definitions aren't supported"),
    ),
    refuses_with(
        "torchscript.script_static_types",
        reason=("TorchScript is statically typed: a module attribute keeps the type of its first value, and a "
                "ModuleDict is indexed by string literals only"),
        errors=('RuntimeError',),
        message="Wrong type for attribute assignment|ModuleDict indexing is only supported with string literals",
        paths=SCRIPT_PATHS,
        reference="https://pytorch.org/docs/stable/jit_language_reference.html",
        details=("TorchScript is statically typed: a module attribute keeps the type of its first value (a tuple "
                 "assigned a list is refused), and a ModuleDict is indexed by string literals only. Provenance: "
                 "https://pytorch.org/docs/stable/jit_language_reference.html."),
        example=Failure('convert', error_types=('RuntimeError',), message="Wrong type for attribute assignment"),
    ),
    refuses_with(
        "torchscript.script_unbound_ops",
        reason="Some torch functions are not bound in TorchScript, or take another schema there",
        errors=('RuntimeError',),
        message="Unknown builtin op: aten::_check_is_size|aten::norm(?s:.*)Keyword argument dim unknown",
        paths=SCRIPT_PATHS,
        reference="https://pytorch.org/docs/stable/jit_unsupported.html",
        details=("some torch functions are not bound in TorchScript, or take another schema there: "
                 "torch._check_is_size is no TorchScript builtin, and norm's dim needs p given (`x.norm(dim=-1)` "
                 "matches no schema). Provenance: https://pytorch.org/docs/stable/jit_unsupported.html."),
        example=Failure('convert', error_types=('RuntimeError',), message="Unknown builtin op: aten::_check_is_size"),
    ),
    refuses_with(
        "torchscript.trace_tensors_only",
        reason="torch.jit.trace takes and returns only tensors and (nested) tuples, lists and dicts of tensors",
        errors=('RuntimeError',),
        message=(r"cannot be traced. Only Tensors and \(possibly nested\) Lists, Dicts, and Tuples of Tensors can be "
                 "traced|Tracer cannot infer type of"),
        paths=TRACE_PATHS,
        reference="https://pytorch.org/docs/stable/generated/torch.jit.trace.html",
        details=("torch.jit.trace takes and returns tensors and (nested) tuples, lists and dicts of tensors only: a "
                 "None among the inputs is refused, and so is an output dict whose values are not of one type (a "
                 "tensor and a list of tensors). Provenance: "
                 "https://pytorch.org/docs/stable/generated/torch.jit.trace.html."),
        example=Failure('convert',
                        error_types=('RuntimeError',),
                        message=("cannot be traced  Only Tensors and (possibly nested) Lists, Dicts, and Tuples o"
                                 "f Tensors can be traced")),
    ),
    refuses_with(
        "torchscript.trace_cond",
        reason="torch.cond runs through torch.compile, which torch.jit.trace refuses to trace",
        errors=('RuntimeError',),
        message="Detected that you are using FX to torch.jit.trace a dynamo-optimized function",
        paths=TRACE_PATHS,
        reference="https://pytorch.org/docs/stable/generated/torch.cond.html",
        details=("torch.cond runs through torch.compile, which torch.jit.trace refuses to trace ('Detected that you "
                 "are using FX to torch.jit.trace a dynamo-optimized function'): torch.cond is for torch.compile "
                 "and torch.export. Provenance: https://pytorch.org/docs/stable/generated/torch.cond.html."),
        example=Failure('convert',
                        error_types=('RuntimeError',),
                        message="Detected that you are using FX to torch jit trace a dynamo-optimized function"),
    ),
    refuses_with(
        "torchscript.trace_check_fast_path",
        reason=("torch.jit.trace's sanity check retraces under no_grad, where nn.MultiheadAttention takes another "
                "(fast) path, and reports the graphs differ"),
        errors=('TracingCheckError',),
        message="Graphs differed across invocations(?s:.*)_native_multi_head_attention",
        paths=TRACE_PATHS,
        issue="https://github.com/pytorch/pytorch/issues/106302",
        reference="https://pytorch.org/docs/stable/generated/torch.nn.MultiheadAttention.html",
        details=("torch.jit.trace's sanity check traces again under torch.no_grad, and nn.MultiheadAttention takes "
                 "its fast path (_native_multi_head_attention) only where autograd is off: the two graphs differ, "
                 "so trace refuses the model (check_trace=False accepts it). Provenance: "
                 "https://pytorch.org/docs/stable/generated/torch.nn.MultiheadAttention.html (the fast path's "
                 "conditions); https://github.com/pytorch/pytorch/issues/106302."),
        example=Failure('convert',
                        error_types=('TracingCheckError',),
                        message="Graphs differed across invocations_native_multi_head_attention"),
    ),
    refuses_with(
        "torchscript.check_needs_bool",
        reason=("torch._check and torch._check_is_size take a Python bool, but under torch.jit.trace or FX the "
                "value of `.item()` is a tensor or a Proxy"),
        errors=('TypeError',),
        message="cond must be a bool, but got",
        paths=('torch.trace', 'torch.fx', 'torch.onnx_torchscript', 'torch.trace_saved',
               'torch.onnx_torchscript_openvino'),
        reference="https://github.com/pytorch/pytorch/blob/main/torch/__init__.py",
        details=("torch._check and torch._check_is_size take a Python bool (export's data-dependent guards): under "
                 "torch.jit.trace or FX the value of `.item()` is a tensor or a Proxy, which they refuse. "
                 "Provenance: https://github.com/pytorch/pytorch/blob/main/torch/__init__.py (torch._check: a bool "
                 "or SymBool)."),
        example=Failure('convert', error_types=('TypeError',), message="cond must be a bool, but got"),
    ),
    documented(
        "torchscript.trace_hidden_branch",
        reason="torch.jit.trace records the branch its example takes and runs it whatever the input",
        phases=('compare',),
        divergences=('value',),
        ops=('helper_branch', 'short_circuit', 'short_circuit_write'),
        paths=('torch.trace', 'torch.onnx_torchscript', 'torch.trace_saved', 'torch.openvino',
               'torch.onnx_torchscript_openvino'),
        reference="https://pytorch.org/docs/stable/generated/torch.jit.trace.html",
        details=("torch.jit.trace records the branch its example takes ('Converting a tensor to a Python boolean "
                 "might cause the trace to be incorrect'); these ops branch on their data inside one statement (a "
                 "helper's if, a short-circuit test), where the runner cannot replay the example's decision as it "
                 "does for an if. Provenance: https://pytorch.org/docs/stable/generated/torch.jit.trace.html."),
        example=Failure('compare', divergences=(('value', '[0]'),), ops=('helper_branch',)),
    ),
    documented(
        "torchscript.trace_item",
        reason="Tracing records .item() and int(t) as constants of the example (its TracerWarning says so)",
        phases=('compare',),
        constructs=('item_arith', 'int_cast'),
        paths=('torch.trace', 'torch.onnx_torchscript', 'torch.trace_saved'),
        reference="https://pytorch.org/docs/stable/generated/torch.jit.trace.html",
        details=("tracing records .item() and int(t) as constants of the example (its TracerWarning says so). "
                 "Provenance: https://pytorch.org/docs/stable/generated/torch.jit.trace.html."),
        example=Failure('compare', divergences=(('value', '[0]'),), constructs=('item_arith',)),
    ),
    known_bug(
        "torchscript.script_save_none_default",
        reason=("TorchScript types an unannotated parameter as Tensor (documented), so `mask=None` is a Tensor "
                "parameter whose default is an undefined tensor"),
        errors=('RuntimeError',),
        message=r"strides\(\) called on an undefined Tensor",
        versions=">=2.0",
        paths=('torch.script_saved',),
        issue="https://github.com/pytorch/pytorch/issues/41277",
        script="torch_script_save_none_default.py",
        found="2026-11-28 (torch 2.13.0)",
        details=("known bug: TorchScript types an unannotated parameter as Tensor (documented), so `mask=None` is a "
                 "Tensor parameter whose default is an undefined tensor; torch.jit.script accepts the module and it "
                 "runs given a mask, but torch.jit.save cannot serialise that default ('strides() called on an "
                 "undefined Tensor'); annotated Optional[Tensor] it saves. Provenance: "
                 "https://github.com/pytorch/pytorch/issues/41277 (the Tensor default type); found by conformance "
                 "2026-11-28 (torch 2.13.0), the torch user-model table (model keyword_tensor); "
                 "cases/standalone/torch_script_save_none_default.py."),
        example=Failure('convert', error_types=('RuntimeError',), message="strides() called on an undefined Tensor"),
    ),
    known_bug(
        "torchscript.script_unused_batch_norm_dropped",
        reason=("TorchScript's optimised graph drops an F.batch_norm whose result is unused: in train() its running "
                "statistics stop updating from the second call on"),
        phases=('compare',),
        divergences=('value',),
        where=r"\['state'\]",
        ops=('batch_norm',),
        constructs=('train_mode',),
        paths=('torch.script', 'torch.script_saved'),
        script="torch_script_unused_batch_norm_dropped.py",
        found="2026-11-29 (torch 2.13.0)",
        details=("known bug: `F.batch_norm(x, running_mean, running_var, w, b, training=self.training)` called for "
                 "its update alone (its result unused) in a module in train(): the scripted module updates the "
                 "running statistics on its first call (the profiling executor's run) and not on later ones, whose "
                 "optimised graph has eliminated the call as dead code, while eager updates them at every call. "
                 "Provenance: found by conformance 2026-11-29 (torch 2.13.0), the README's campaign (seed 0, cases "
                 "4a0e15765a90 and c8da98edd057, reduced by conformance triage to that statement); "
                 "cases/standalone/torch_script_unused_batch_norm_dropped.py."),
        example=Failure('compare', divergences=(('value', "['state']['p3']"),), ops=('batch_norm',),
                        constructs=('train_mode',)),
    ),
    known_bug(
        "torchscript.trace_drops_attribute_writes",
        reason=("torch.jit.trace keeps an in-place buffer update but drops a rebinding (`self.p = self.p + 1`): the "
                "buffer keeps the value tracing left"),
        phases=('compare',),
        divergences=('value',),
        constructs=('state_counter',),
        paths=('torch.trace',),
        versions=">=2.5",
        issue="https://github.com/pytorch/pytorch/issues/140539",
        case="torch-trace-buffer-rebinding-dropped.json",
        found="2026-11-29 (torch 2.13.0)",
        details=("known bug: torch.jit.trace records the tensor operations forward runs on the example; an in-place "
                 "`self.acc += x` is one, a rebinding `self.p0 = self.p0 + 1.0` is a Python attribute write it drops, "
                 "so the traced module reads p0 as tracing (and its check) left it on every later call, where eager "
                 "counts on (pytorch/pytorch#140539, open since 2.5.1). Provenance: "
                 "https://github.com/pytorch/pytorch/issues/140539; cases/torch-trace-buffer-rebinding-dropped.json; "
                 "seen again in the torch campaign seed 0 of 2026-11-29 (cases 6b282c85fff7, 6347275b5f32, "
                 "7e180c5a48de, reduced by conformance triage to that statement)."),
        example=Failure('compare', divergences=(('value', '[0]'),), constructs=('state_counter',)),
    ),
    documented(
        "torchscript.trace_keeps_tracing_state",
        reason=("Tracing runs forward on the example (and again to check the trace), so the saved program holds the "
                "state those calls left"),
        phases=('compare',),
        constructs=('state_counter', 'state_running', 'state_cache'),
        paths=('torch.trace_saved',),
        reference="https://pytorch.org/docs/stable/generated/torch.jit.trace.html",
        details=("tracing runs forward on the example (and again to check the trace): the saved program holds the "
                 "state those calls left, not the model's before converting. Provenance: "
                 "https://pytorch.org/docs/stable/generated/torch.jit.trace.html."),
        example=Failure('compare', divergences=(('value', '[0]'),), constructs=('state_counter',)),
    ),
    refuses_with(
        "torchscript.trace_tensors_only_openvino",
        reason=("torch.jit.trace (which OpenVINO's PyTorch reader runs) takes and returns only tensors and (nested) "
                "tuples, lists and dicts of tensors"),
        errors=('RuntimeError',),
        message=(r"Couldn't get TorchScript module by tracing(?s:.*)(?:cannot be traced. Only Tensors and \(possibly "
                 r"nested\) Lists, Dicts, and Tuples of Tensors can be traced|Tracer cannot infer type of)"),
        paths=('torch.openvino',),
        reference="https://pytorch.org/docs/stable/generated/torch.jit.trace.html",
        details=("torch.jit.trace takes and returns tensors and (nested) tuples, lists and dicts of tensors only: a "
                 "None among the inputs is refused, and so is an output dict whose values are not of one type (a "
                 "tensor and a list of tensors). Provenance: "
                 "https://pytorch.org/docs/stable/generated/torch.jit.trace.html."),
        example=Failure('convert',
                        error_types=('RuntimeError',),
                        message=("Couldn't get TorchScript module by tracingcannot be traced  Only Tensors and (p"
                                 "ossibly nested) Lists, Dicts, and Tuples of Tensors can be traced")),
    ),
    refuses_with(
        "torchscript.trace_cond_openvino",
        reason=("torch.cond runs through torch.compile, which the torch.jit.trace of OpenVINO's PyTorch reader "
                "refuses to trace"),
        errors=('RuntimeError',),
        message=("Couldn't get TorchScript module by tracing(?s:.*)(?:Detected that you are using FX to "
                 "torch.jit.trace a dynamo-optimized function)"),
        paths=('torch.openvino',),
        reference="https://pytorch.org/docs/stable/generated/torch.cond.html",
        details=("torch.cond runs through torch.compile, which torch.jit.trace refuses to trace ('Detected that you "
                 "are using FX to torch.jit.trace a dynamo-optimized function'): torch.cond is for torch.compile "
                 "and torch.export. Provenance: https://pytorch.org/docs/stable/generated/torch.cond.html."),
        example=Failure('convert',
                        error_types=('RuntimeError',),
                        message=("Couldn't get TorchScript module by tracingDetected that you are using FX to tor"
                                 "ch jit trace a dynamo-optimized function")),
    ),
    refuses_with(
        "torchscript.trace_check_fast_path_openvino",
        reason=("torch.jit.trace's sanity check (run by OpenVINO's reader) retraces under no_grad, where "
                "nn.MultiheadAttention takes its fast path"),
        errors=('RuntimeError',),
        message=("Couldn't get TorchScript module by tracing(?s:.*)(?:Graphs differed across "
                 "invocations(?s:.*)_native_multi_head_attention)"),
        paths=('torch.openvino',),
        issue="https://github.com/pytorch/pytorch/issues/106302",
        reference="https://pytorch.org/docs/stable/generated/torch.nn.MultiheadAttention.html",
        details=("torch.jit.trace's sanity check traces again under torch.no_grad, and nn.MultiheadAttention takes "
                 "its fast path (_native_multi_head_attention) only where autograd is off: the two graphs differ, "
                 "so trace refuses the model (check_trace=False accepts it). Provenance: "
                 "https://pytorch.org/docs/stable/generated/torch.nn.MultiheadAttention.html (the fast path's "
                 "conditions); https://github.com/pytorch/pytorch/issues/106302."),
        example=Failure('convert',
                        error_types=('RuntimeError',),
                        message=("Couldn't get TorchScript module by tracingGraphs differed across invocations_na"
                                 "tive_multi_head_attention")),
    ),
    refuses_with(
        "torchscript.check_needs_bool_openvino",
        reason=("torch._check takes a Python bool, but under the torch.jit.trace OpenVINO's reader runs the value "
                "of `.item()` is a tensor"),
        errors=('RuntimeError',),
        message="Couldn't get TorchScript module by tracing(?s:.*)(?:cond must be a bool, but got)",
        paths=('torch.openvino',),
        reference="https://github.com/pytorch/pytorch/blob/main/torch/__init__.py",
        details=("torch._check and torch._check_is_size take a Python bool (export's data-dependent guards): under "
                 "torch.jit.trace or FX the value of `.item()` is a tensor or a Proxy, which they refuse. "
                 "Provenance: https://github.com/pytorch/pytorch/blob/main/torch/__init__.py (torch._check: a bool "
                 "or SymBool)."),
        example=Failure('convert',
                        error_types=('RuntimeError',),
                        message="Couldn't get TorchScript module by tracingcond must be a bool, but got"),
    ),
    known_bug(
        "torchscript.script_item_is_number",
        reason=("TorchScript types Tensor.item() as `number`, so a list literal of it is a List[number] that a "
                "List[float] cannot be extended with"),
        phases=('convert',),
        errors=('RuntimeError',),
        message=r"instead found type 'List\[number\]'",
        paths=SCRIPT_PATHS,
        case="torch-script-list-iadd-item.json",
        script="torch_script_list_iadd_item.py",
        reference="https://pytorch.org/docs/stable/jit_language_reference.html",
        found="2026-11-29 (torch 2.13.0)",
        details=("known bug: TorchScript types Tensor.item() as `number` (a Scalar): `a: List[float] = []; "
                 "a.append(x.mean().item()); b = [x.mean().item()]; a += b` (or `a.extend(b)`) finds no schema for "
                 "a List[float] and a List[number] ('Arguments for call are not valid'), where eager Python runs it; "
                 "`b: List[float] = [float(x.mean())]` compiles. Provenance: found by conformance 2026-11-29 (torch "
                 "2.13.0), campaign seed 0, case dd34bc7c4c48; cases/torch-script-list-iadd-item.json, "
                 "cases/standalone/torch_script_list_iadd_item.py; "
                 "https://pytorch.org/docs/stable/jit_language_reference.html."),
        example=Failure('convert', error_types=('RuntimeError',),
                        message="aten::add_.t(t[](a!) self, t[] b) -> t[]: Expected a value of type 'List[t]' for "
                                "argument 'b' but instead found type 'List[number]'."),
    ),
    refuses_with(
        "torchscript.trace_python_outputs",
        reason=("torch.jit.trace returns only tensors and nests of them: a Python number in the outputs is refused "
                "(by the ONNX exporter's trace too)"),
        errors=('RuntimeError',),
        message=(r"Only tensors, lists, tuples of tensors, or dictionary of tensors can be output from traced "
                 r"functions|of traced region did not have observable data dependence with trace inputs|of traced "
                 r"region cannot be understood by the tracer"),
        constructs=('py_output',),
        paths=TRACE_PATHS,
        reference="https://pytorch.org/docs/stable/generated/torch.jit.trace.html",
        found="2026-11-29 (torch 2.13.0)",
        details=("torch.jit.trace records tensor operations and returns tensors and (nested) tuples, lists and "
                 "dicts of tensors: a model returning a Python int, float or bool (`len(l)`, `x.mean().item()`) "
                 "is refused ('Only tensors, lists, tuples of tensors, or dictionary of tensors can be output from "
                 "traced functions'); the TorchScript ONNX exporter's trace refuses it as an output 'of traced "
                 "region [that] did not have observable data dependence with trace inputs'. Seen on the generated "
                 "programs with Python values in the outputs (construct py_output). Provenance: "
                 "https://pytorch.org/docs/stable/generated/torch.jit.trace.html."),
        example=Failure('convert', error_types=('RuntimeError',),
                        message="Only tensors, lists, tuples of tensors, or dictionary of tensors can be output from "
                                "traced functions",
                        constructs=('py_output',)),
    ),
    refuses_with(
        "torchscript.script_optional_needs_annotation",
        reason=("TorchScript gives a variable one static type: one first assigned None and later a tensor needs an "
                "Optional annotation"),
        errors=('RuntimeError',),
        message="previously had type NoneType but is now being assigned to a value of type",
        paths=SCRIPT_PATHS,
        reference="https://pytorch.org/docs/stable/jit_language_reference.html",
        found="2026-11-29 (torch 2.13.0)",
        details=("TorchScript is statically typed: each variable has a single static type, and `y = None` types "
                 "`y` as NoneType, so a later `y = torch.tanh(x)` is refused ('Variable 'v2' previously had type "
                 "NoneType but is now being assigned to a value of type Tensor') where eager Python runs it; "
                 "`y: Optional[torch.Tensor] = None` scripts. Seen on the generated programs that assign None and "
                 "then a tensor in one branch. Provenance: "
                 "https://pytorch.org/docs/stable/jit_language_reference.html (Types; Optional type refinement)."),
        example=Failure('convert', error_types=('RuntimeError',),
                        message="Variable 'v2' previously had type NoneType but is now being assigned to a value of "
                                "type Tensor"),
    ),
    known_bug(
        "torchscript.script_return_before_with",
        reason=("An early return under an `if`, then a `with torch.no_grad():` block, fails to script with an "
                "INTERNAL ASSERT (`outputs_[i]->uses().empty()`)"),
        errors=('RuntimeError',),
        message=r"outputs_\[i\]->uses\(\)\.empty\(\) INTERNAL ASSERT FAILED",
        versions=">=2.13",
        constructs=('early_return',),
        ops=('no_grad',),
        paths=SCRIPT_PATHS,
        issue="https://github.com/pytorch/pytorch/issues/79751",
        case="torch-script-return-before-with.json",
        script="torch_script_return_before_with.py",
        found="2026-11-29 (torch 2.13.0)",
        details=("known bug: `if x.amin() < -2.0: return x` then `with torch.no_grad(): y = x * 2.0 - 1.0; return "
                 "y` fails in torch.jit.script with 'outputs_[i]->uses().empty() INTERNAL ASSERT FAILED' (ir.cpp), "
                 "where eager Python runs it; without the early return, or without the with block, it compiles. The "
                 "same assertion as a continue inside nested with blocks (pytorch/pytorch#79751, closed: "
                 "TorchScript is deprecated). Provenance: found by conformance 2026-11-29 (torch 2.13.0), "
                 "campaign seed 0, case cc632adde94a."),
        example=Failure('convert', error_types=('RuntimeError',),
                        message="outputs_[i]->uses().empty() INTERNAL ASSERT FAILED at \"/__w/pytorch/pytorch/torch/"
                                "csrc/jit/ir/ir.cpp\":1289, please report a bug to PyTorch.",
                        constructs=('early_return', 'if_tensor'), ops=('no_grad',)),
    ),
    known_bug(
        "torchscript.trace_check_written_example",
        reason=("torch.jit.trace's sanity check retraces on the example the first trace wrote into, so a model that "
                "writes its input and branches on it fails the check"),
        errors=('TracingCheckError',),
        message="Graphs differed across invocations",
        versions=">=2.13",
        constructs=('input_inplace',),
        paths=('torch.trace', 'torch.trace_saved'),
        issue="https://github.com/pytorch/pytorch/issues/113945",
        case="torch-trace-check-written-example.json",
        script="torch_trace_check_written_example.py",
        found="2026-11-29 (torch 2.13.0)",
        details=("known bug: torch.jit.trace runs forward on the example itself, so a model that writes into its "
                 "input (`x.mul_(2.0)`) leaves the example written; check_trace (on by default) then traces again on "
                 "a copy of the written example, whose values take another branch or give another `.item()`, and "
                 "refuses the model ('Tracing failed sanity checks! ERROR: Graphs differed across invocations!'); "
                 "check_trace=False, or check_inputs copied before tracing, accepts it. Provenance: "
                 "https://github.com/pytorch/pytorch/issues/113945 (closed with those workarounds); found by "
                 "conformance 2026-11-29 (torch 2.13.0), campaign seed 0 (7 cases, e.g. 0b31d113c6af)."),
        example=Failure('convert', error_types=('TracingCheckError',),
                        message="Tracing failed sanity checks!\nERROR: Graphs differed across invocations!",
                        constructs=('if_tensor', 'input_inplace')),
    ),
    known_bug(
        "torchscript.trace_check_written_example_openvino",
        reason=("The trace OpenVINO's PyTorch reader runs checks itself on the example the first trace wrote into, "
                "so a model that writes its input can fail"),
        errors=('RuntimeError',),
        message="Couldn't get TorchScript module by tracing(?s:.*)Graphs differed across invocations",
        versions=">=2.13",
        constructs=('input_inplace',),
        paths=('torch.openvino',),
        issue="https://github.com/pytorch/pytorch/issues/113945",
        case="torch-trace-check-written-example.json",
        script="torch_trace_check_written_example.py",
        found="2026-11-29 (torch 2.13.0)",
        details=("known bug (torch.jit.trace, which OpenVINO's PyTorch reader runs with its sanity check): the "
                 "check traces again on the example the first trace wrote into, so a model that writes into its "
                 "input and branches on it is refused ('Couldn't get TorchScript module by tracing ... Graphs "
                 "differed across invocations'); see torchscript.trace_check_written_example. Provenance: "
                 "https://github.com/pytorch/pytorch/issues/113945; cases/torch-trace-check-written-example.json."),
        example=Failure('convert', error_types=('RuntimeError',),
                        message="Couldn't get TorchScript module by tracing.\nException:\nTracing failed sanity "
                                "checks!\nERROR: Graphs differed across invocations!",
                        constructs=('if_tensor', 'input_inplace')),
    ),
    refuses_with(
        "torchscript.trace_unrolled_loop_count",
        reason=("torch.jit.trace unrolls a loop whose trip count comes from the data at the example's count: an "
                "input with another count fails"),
        phases=('run',),
        errors=('RuntimeError',),
        message=r"Expected \d+ elements in a list but found \d+",
        paths=('torch.trace', 'torch.trace_saved'),
        reference="https://pytorch.org/docs/stable/generated/torch.jit.trace.html",
        found="2026-11-29 (torch 2.13.0)",
        details=("torch.jit.trace records the operations the example runs: a loop over a tensor's rows (or over "
                 "range(n) with n from the data) that fills a list is unrolled at the example's trip count, and an "
                 "input of another batch fails unpacking it ('Expected 4 elements in a list but found 5'); the "
                 "documentation warns that control flow depending on the data is not recorded. Provenance: "
                 "https://pytorch.org/docs/stable/generated/torch.jit.trace.html; torch campaign seed 0, case "
                 "11d764e8f26c (batch inputs)."),
        example=Failure('run', error_types=('RuntimeError',),
                        message="The following operation failed in the TorchScript interpreter.\nTraceback of "
                                "TorchScript (most recent call last):\nRuntimeError: Expected 4 elements in a list "
                                "but found 5"),
    ),
    refuses_with(
        "torchscript.script_float_carry_requires_grad",
        reason=("TorchScript keeps `acc = 0.0` a float, so `acc = acc + x.mean()` takes the tensor as a number, "
                "which a tensor requiring grad cannot be"),
        phases=('run',),
        errors=('RuntimeError',),
        message="Cannot input a tensor that requires grad as a scalar argument",
        modes=frozenset({'grad', 'train'}),
        paths=SCRIPT_PATHS,
        reference="https://pytorch.org/docs/stable/jit_language_reference.html",
        found="2026-11-29 (torch 2.13.0)",
        details=("TorchScript is statically typed: `acc = 0.0` makes acc a float for the whole function, so in a "
                 "loop `acc = acc + x.mean()` converts the 0-d tensor to a number (eager Python makes acc a "
                 "tensor); with autograd on, that conversion refuses a tensor that requires grad ('Cannot input a "
                 "tensor that requires grad as a scalar argument'); in inference it runs. Seen on the generated "
                 "float accumulators in grad mode (torch seed 2, TorchScript paths: 5dd68fa620a9, c4fd5f1dbc81). "
                 "Provenance: https://pytorch.org/docs/stable/jit_language_reference.html (Types)."),
        example=Failure('run', mode="grad", error_types=('RuntimeError',),
                        message="The following operation failed in the TorchScript interpreter.\nRuntimeError: "
                                "Cannot input a tensor that requires grad as a scalar argument"),
    ),
    documented(
        "torchscript.trace_no_grad_not_recorded",
        reason=("torch.jit.trace records tensor operations, not grad mode: what forward computes under torch.no_grad() "
                "gets gradients in the trace"),
        phases=('compare',),
        divergences=('extra_gradient',),
        modes=frozenset({'grad', 'train'}),
        ops=('no_grad', 'continue_in_with'),
        paths=('torch.trace',),
        issue="https://github.com/pytorch/pytorch/issues/62043",
        script="torch_trace_drops_no_grad.py",
        reference="https://pytorch.org/docs/stable/generated/torch.jit.trace.html",
        found="2026-11-29 (torch 2.13.0)",
        details=("torch.jit.trace records the tensor operations the example runs; torch.no_grad() is a thread-local "
                 "mode, not an operation, so the traced graph computes `with torch.no_grad(): y = x * 2.0 - 1.0` "
                 "with autograd on and the input gets a gradient where eager has none (the same holds for "
                 "torch.fx, pytorch/pytorch#62043: 'torch.fx doesn't trace torch.no_grad'); the no_grad blocks "
                 "around a loop's `continue` alike. Seen on torch seed 2, TorchScript paths (cases 77851b28301e, "
                 "179e8bec8afc, grad mode), and seed 0 of 2026-11-29 (bd88bdb96ccd, 2a6fa9a0fa20); "
                 "cases/standalone/torch_trace_drops_no_grad.py. Provenance: "
                 "https://pytorch.org/docs/stable/generated/torch.jit.trace.html."),
        example=Failure('compare', mode="grad", divergences=(('extra_gradient', "['input_grads']['x5']"),),
                        ops=('no_grad',)),
    ),
)
