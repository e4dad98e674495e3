"""``torch.export`` (and everything built on an exported program: the dynamo ONNX exporter, AOTInductor, ExecuTorch):
what it refuses and gets wrong.
"""

from conformance.paths.known.factories import Failure, known_bug, refusal, refuses_with

RECORDS = (
    refusal(
        "torch_export.data_dependent",
        reason="torch.export cannot capture Python control flow on tensor values: it needs torch.cond",
        errors=('GuardOnDataDependentSymNode',),
        versions=">=2.1",
        paths=('torch.export', 'torch.export_saved', 'torch.aoti', 'torch.executorch'),
        reference="https://pytorch.org/docs/stable/export.html#data-dependent-control-flow",
        details=("torch.export cannot capture Python control flow on tensor values; it needs torch.cond. "
                 "Provenance: https://pytorch.org/docs/stable/export.html#data-dependent-control-flow."),
        example=Failure('convert',
                        error_types=('GuardOnDataDependentSymNode', 'RuntimeError', 'Exception'),
                        message=("Could not guard on data-dependent expression Eq(u0, 1) (unhinted: Eq(u0, 1)).  "
                                 "(Size-like symbols: none)\n\nconsider using data-dependent friendly APIs such a"
                                 "s guard_or_false, guard_or_true and statically_known_true.\nCaused by: (_export"
                                 "/non_strict_utils.py:1205 in __torch_function__)\nFor more information, run wit"
                                 "h TORCH_LOGS=\"dynamic\"\nFor extended logs when we create symbols, also add TO"
                                 "RCHDYNAMO_EXTENDED_DEBUG_CREATE_SYMBOL=\"u0\"\nIf you suspect the guard was tri"
                                 "ggered from C++, add TORCHDYNAMO_EXTENDED_DEBUG_CPP=1\nFor more debugging help,"
                                 " see https://docs.google.com/document/d/1HSuTTVvYH1pTew89Rtpeu84Ht3nQEFTYhAX3Yp"
                                 "a_xJs/edit?usp=sharing\n\nFor C++ stack trace, run with TORCHDYNAMO_EXTENDED_DE"
                                 "BUG_CPP=1\n\nThe following call raised this error:\n  File \"/tmp/conformance-0"
                                 "/torch/d377cff335c8/model.py\", line 31, in forward\n    if v0.sum() > 0.0:\n\n"
                                 "\nThe error above occurred when calling torch.export.export. If you would like "
                                 "to view some more information about this error, and get a list of all other err"
                                 "ors that may occur in your export call, you can replace your `export()` call wi"
                                 "th `draft_export()`."),
                        constructs=('if_tensor',),
                        ops=('neg', 'relu')),
    ),
    refuses_with(
        "torch_export.shape_guard",
        reason="A shape-dependent branch specialises the dynamic dim, so torch.export refuses the dynamic Dim",
        errors=('UserError',),
        message=r"Constraints violated \(B\)",
        versions=">=2.1",
        paths=('torch.export', 'torch.export_saved', 'torch.aoti', 'torch.executorch'),
        reference="https://pytorch.org/docs/stable/export.html#constraints-dynamic-shapes",
        details=("a shape-dependent branch specialises the dynamic dim: export refuses a dynamic Dim. Provenance: "
                 "https://pytorch.org/docs/stable/export.html#constraints-dynamic-shapes."),
        example=Failure('convert',
                        error_types=('UserError', 'TorchDynamoException', 'RuntimeError', 'Exception'),
                        message=("Constraints violated (B)! For more information, run with TORCH_LOGS=\"+dynamic"
                                 "\".\n  - Not all values of B = L['x0'].size()[0] in the specified range B <= 96"
                                 " satisfy the generated guard 3 <= L['x0'].size()[0] and L['x0'].size()[0] <= 96"
                                 "\nSuggested fixes:\n  B = Dim('B', min=3, max=96)\n\nThe error above occurred w"
                                 "hen calling torch.export.export. If you would like to view some more informatio"
                                 "n about this error, and get a list of all other errors that may occur in your e"
                                 "xport call, you can replace your `export()` call with `draft_export()`.")),
    ),
    refuses_with(
        "torch_export.kwarg_guard",
        reason="An exported program specialises non-tensor arguments and refuses other values at run time",
        phases=('run',),
        errors=('AssertionError',),
        message=r"Guard failed: [A-Za-z_]\w* == (True|False|-?[0-9.]+|'[^']*')",
        paths=('torch.export', 'torch.export_saved'),
        reference="https://pytorch.org/docs/stable/export.html",
        details=("an exported program specialises non-tensor arguments and refuses other values at run time. "
                 "Provenance: https://pytorch.org/docs/stable/export.html."),
        example=Failure('run', error_types=('AssertionError', 'Exception'), message="Guard failed: flag == True"),
    ),
    refuses_with(
        "torch_export.onnx_data_dependent",
        reason=("torch.export, under the dynamo ONNX exporter, cannot capture Python control flow on tensor values: "
                "it needs torch.cond"),
        errors=('TorchExportError',),
        message="GuardOnDataDependentSymNode",
        versions=">=2.1",
        paths=('torch.onnx_dynamo', 'torch.onnx_dynamo_openvino'),
        reference="https://pytorch.org/docs/stable/export.html#data-dependent-control-flow",
        details=("torch.export cannot capture Python control flow on tensor values; it needs torch.cond. "
                 "Provenance: https://pytorch.org/docs/stable/export.html#data-dependent-control-flow."),
        example=Failure('convert',
                        error_types=('TorchExportError', 'OnnxExporterError', 'RuntimeError', 'Exception'),
                        message=("Failed to export the model with torch.export. \u001b[96mThis is step 1/3\u001b["
                                 "0m of exporting the model to ONNX. Next steps:\n- Modify the model code for `to"
                                 "rch.export.export` to succeed. Refer to https://pytorch.org/docs/stable/generat"
                                 "ed/exportdb/index.html for more information.\n- Debug `torch.export.export` and"
                                 " submit a PR to PyTorch.\n- Create an issue in the PyTorch GitHub repository ag"
                                 "ainst the \u001b[96m*torch.export*\u001b[0m component and attach the full error"
                                 " stack as well as reproduction scripts.\n\n## Exception summary\n\n<class 'torc"
                                 "h.fx.experimental.symbolic_shapes.GuardOnDataDependentSymNode'>: Could not guar"
                                 "d on data-dependent expression Eq(u0, 1) (unhinted: Eq(u0, 1)).  (Size-like sym"
                                 "bols: none)\n\nconsider using data-dependent friendly APIs such as guard_or_fal"
                                 "se, guard_or_true and statically_known_true.\nCaused by: (_export/non_strict_ut"
                                 "ils.py:1205 in __torch_function__)\nFor more information, run with TORCH_LOGS="
                                 "\"dynamic\"\nFor extended logs when we create symbols, also add TORCHDYNAMO_EXT"
                                 "ENDED_DEBUG_CREATE_SYMBOL=\"u0\"\nIf you suspect the guard was triggered from C"
                                 "++, add TORCHDYNAMO_EXTENDED_DEBUG_CPP=1\nFor more debugging help, see https://"
                                 "docs.google.com/document/d/1HSuTTVvYH1pTew89Rtpeu84Ht3nQEFTYhAX3Ypa_xJs/edit?us"
                                 "p=sharing\n\nFor C++ stack trace, run with TORCHDYNAMO_EXTENDED_DEBUG_CPP=1\n\n"
                                 "The following call raised this error:\n  File \"/tmp/head31/tests/test_paths_to"
                                 "rch.py\", line 156, in forward\n    return x0.relu() if x0.sum() > 0 else -x0\n"
                                 "\n\nThe error above occurred when calling torch.export.export. If you would lik"
                                 "e to view some more information about this error, and get a list of all other e"
                                 "rrors that may occur in your export call, you can replace your `export()` call "
                                 "with `draft_export()`.\n\n(Refer to the full stack trace above for more informa"
                                 "tion.)")),
    ),
    refuses_with(
        "torch_export.onnx_shape_guard",
        reason=("A shape-dependent branch specialises the dynamic dim, so torch.export (under the dynamo ONNX "
                "exporter) refuses the dynamic Dim"),
        errors=('TorchExportError',),
        message=r"Constraints violated \(B\)|Invalid ranges \[2:[01]\]",
        versions=">=2.1",
        paths=('torch.onnx_dynamo', 'torch.onnx_dynamo_openvino'),
        reference="https://pytorch.org/docs/stable/export.html#constraints-dynamic-shapes",
        details=("a shape-dependent branch specialises the dynamic dim: export refuses a dynamic Dim; where the "
                 "suggested fix caps B at 1 (a branch on B < 2), the exporter's retry with it (_capture_strategies) "
                 "fails instead, as export's dynamic dims start at 2 ('Invalid ranges [2:1]'). Provenance: "
                 "https://pytorch.org/docs/stable/export.html#constraints-dynamic-shapes."),
        example=Failure('convert',
                        error_types=('TorchExportError',),
                        message=("TorchExportError: Failed to export the model with torch.export.\n## Exception s"
                                 "ummary\n\n<class 'torch._dynamo.exc.UserError'>: Invalid ranges [2:1]"),
                        constructs=('if_shape',)),
    ),
    known_bug(
        "torch_export.save_nested_no_grad",
        reason=("torch.export captures two nested `with torch.no_grad():` blocks as nested "
                "wrap_with_set_grad_enabled nodes, and the saved program does not load back"),
        errors=('SpecViolationError',),
        message="wrap_with_set_grad_enabled is missing val field",
        versions=">=2.13",
        paths=('torch.export_saved',),
        case="torch-script-continue-nested-with.json",
        found="2026-11-28 (torch 2.13.0)",
        details=("known bug: torch.export captures two nested `with torch.no_grad():` blocks as nested "
                 "wrap_with_set_grad_enabled nodes, and the saved program does not load back: 'Node.meta "
                 "wrap_with_set_grad_enabled is missing val field' (SpecViolationError); one block saves and loads. "
                 "Provenance: found by conformance 2026-11-28 (torch 2.13.0) transplanting pytorch#79751; "
                 "cases/torch-script-continue-nested-with.json."),
        example=Failure('convert',
                        error_types=('SpecViolationError',),
                        message="wrap_with_set_grad_enabled is missing val field"),
    ),
)
