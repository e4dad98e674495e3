"""ExecuTorch (``to_edge``, the emitter, the portable kernels, the runtime): what it refuses and gets wrong.
"""

from conformance.paths.known.factories import Failure, known_bug, missing_kernel, refuses_with, writes_wrong

RECORDS = (
    refuses_with(
        "executorch.not_core_aten",
        reason=("ExecuTorch's to_edge accepts only Core ATen operators (aten.signbit is not one) and refuses the "
                "program, naming the operator"),
        errors=('SpecViolationError',),
        message="is not in Core ATen opset",
        reference="https://pytorch.org/docs/stable/torch.compiler_ir.html#core-aten-ir",
        details=("ExecuTorch's to_edge accepts only Core ATen operators (aten.signbit is not one): it refuses the "
                 "program, naming the operator and the exception list that would let it through. Provenance: "
                 "https://pytorch.org/docs/stable/torch.compiler_ir.html#core-aten-ir."),
        example=Failure('convert', error_types=('SpecViolationError',), message="is not in Core ATen opset"),
    ),
    refuses_with(
        "executorch.str_input",
        reason=("ExecuTorch's runtime takes tensors, ints, floats and bools as a method's inputs (an EValue holds "
                "no string)"),
        phases=('run',),
        errors=('RuntimeError',),
        message="Unsupported python type <class 'str'>",
        reference="https://pytorch.org/executorch/stable/runtime-overview.html",
        details=("ExecuTorch's runtime takes tensors, ints, floats and bools as a method's inputs (an EValue holds "
                 "no string): a str argument, which torch.export keeps among the program's inputs, is refused when "
                 "called ('Unsupported python type <class 'str'>'). Provenance: "
                 "https://pytorch.org/executorch/stable/runtime-overview.html."),
        example=Failure('run', error_types=('RuntimeError',), message="Unsupported python type <class 'str'>"),
    ),
    refuses_with(
        "executorch.zero_stride",
        reason=("ExecuTorch's emitter refuses a tensor with a stride of 0 (an empty tensor, or a dim expanded "
                "without a copy)"),
        errors=('RuntimeError',),
        message="0 in strides is not supported for ExecuTorch",
        reference="https://github.com/pytorch/executorch/blob/main/exir/tensor.py",
        details=("ExecuTorch's emitter refuses a tensor with a stride of 0 (an empty tensor, or a dim expanded "
                 "without a copy): 'exir' raises '0 in strides is not supported for ExecuTorch' by design. "
                 "Provenance: https://github.com/pytorch/executorch/blob/main/exir/tensor.py."),
        example=Failure('convert',
                        error_types=('RuntimeError',),
                        message="0 in strides is not supported for ExecuTorch"),
    ),
    writes_wrong(
        "executorch.floor_divide_zero",
        reason="ExecuTorch's portable floor_divide gives 0.0 // 0.0 = inf where torch gives NaN",
        phases=('compare',),
        divergences=('nonfinite',),
        versions=">=2.13",
        ops=('floor_div',),
        script="torch_executorch_floor_divide_zero.py",
        found="2026-11-28 (torch 2.13.0, openvino 2026.4.1)",
        details=("known bug: ExecuTorch's portable floor_divide gives 0.0 // 0.0 = inf where torch gives NaN. "
                 "Provenance: found by conformance 2026-11-28 (torch 2.13.0, openvino 2026.4.1), the clean torch "
                 "campaigns (case ce033c4c39ff); cases/standalone/torch_executorch_floor_divide_zero.py."),
        example=Failure('compare', divergences=(('nonfinite', '[0]'),), ops=('floor_div', 'tanh')),
    ),
    missing_kernel(
        "executorch.missing_kernel",
        reason=("ExecuTorch's portable kernel library has no kernel for some Core ATen operators "
                "(aten::avg_pool3d.out, max_pool3d_with_indices.out): the method does not load"),
        errors=('RuntimeError',),
        message="Failed to load method forward, error: 0x:14",
        ops=('avg_pool3d', 'max_pool3d'),
        case="torch-onnx-torchscript-unbatched-avg-pool3d.json",
        found="2026-11-28",
        details=("ExecuTorch's portable kernel library has no kernel for some Core ATen operators "
                 "(aten::avg_pool3d.out, aten::max_pool3d_with_indices.out): to_executorch accepts the program, "
                 "and the runtime refuses to load the method (error 0x14, OperatorMissing; its log says "
                 "'Missing operator: aten::avg_pool3d.out'). "
                 "Provenance: https://github.com/pytorch/executorch/blob/main/kernels/portable/functions.yaml (the "
                 "portable kernels); runtime/core/error.h (OperatorMissing = 0x14); met transplanting "
                 "cases/torch-onnx-torchscript-unbatched-avg-pool3d.json (2026-11-28) and "
                 "cases/torch-onnx-torchscript-unbatched-max-pool3d.json."),
        example=Failure('convert',
                        error_types=('RuntimeError',),
                        message="Failed to load method forward, error: 0x:14",
                        ops=('avg_pool3d',)),
    ),
    known_bug(
        "executorch.gru_static_batch",
        reason=("executorch.exir.to_edge of a program with an nn.GRU silently makes its dynamic batch the example's "
                "size, so another batch fails"),
        phases=('run',),
        errors=('RuntimeError',),
        message=(r"method->set_inputs\(\) for method 'forward' failed with error 0x10|method->execute\(\) failed with "
                 "error 0x12"),
        versions=">=2.13",
        script="torch_executorch_gru_static_batch.py",
        found="2026-11-28 (torch 2.13.0)",
        details=("known bug: executorch.exir.to_edge of a program with an nn.GRU turns its dynamic batch "
                 "(torch.export's symbol) into the example's size, silently, so the ExecuTorch program is planned "
                 "for the example: a larger batch is refused when set as input (error 0x10: 'Attempted to resize a "
                 "bounded tensor'), a smaller one fails in execute (error 0x12); nn.LSTM and nn.RNN keep the batch. "
                 "Provenance: found by conformance 2026-11-28 (torch 2.13.0), the torch user-model table (model "
                 "recurrent); cases/standalone/torch_executorch_gru_static_batch.py."),
        example=Failure('run',
                        error_types=('RuntimeError',),
                        message="batch inputs: method->set_inputs() for method 'forward' failed with error 0x10"),
    ),
)
