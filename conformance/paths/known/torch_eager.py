"""PyTorch eager itself (cuDNN, CPU autocast): what every torch path meets because eager does it.
"""

from conformance.paths.known.factories import Failure, known_bug, missing_kernel, refuses_with

RECORDS = (
    refuses_with(
        "torch_eager.cudnn_rnn_eval_backward",
        reason=("cuDNN differentiates a recurrent layer only in training mode, so the backward of an LSTM or GRU in "
                "eval() is refused on CUDA"),
        phases=('run',),
        errors=('RuntimeError',),
        message="cudnn RNN backward can only be called in training mode",
        modes=frozenset({'grad', 'train'}),
        ops=('lstm', 'gru'),
        paths=('torch.eager', 'torch.script', 'torch.trace', 'torch.fx', 'torch.compile', 'torch.compile_aot_eager',
               'torch.compile_dynamic', 'torch.compile_reduce_overhead', 'torch.export', 'torch.onnx_torchscript',
               'torch.script_saved', 'torch.trace_saved', 'torch.onnx_torchscript_openvino'),
        issue="https://github.com/pytorch/pytorch/issues/5878",
        found="2026-11-28",
        details=("cuDNN differentiates a recurrent layer only in training mode: on CUDA, the backward of an LSTM or "
                 "GRU of a model in eval() is refused ('cudnn RNN backward can only be called in training mode'), "
                 "in eager too. Provenance: https://github.com/pytorch/pytorch/issues/5878 (seen on an H200, torch "
                 "2.11.0+cu130, 2026-11-28)."),
        example=Failure('run',
                        mode="grad",
                        error_types=('RuntimeError', 'Exception'),
                        message="cudnn RNN backward can only be called in training mode",
                        ops=('gru', 'sin')),
    ),
    known_bug(
        "torch_eager.autocast_float16_promote",
        reason=("Under CPU bfloat16 autocast, torch.cat or torch.stack of a float16 tensor raises 'Unexpected "
                "floating ScalarType in at::autocast::prioritize'"),
        phases=('run',),
        errors=('RuntimeError',),
        message="Unexpected floating ScalarType in at::autocast::prioritize",
        versions=">=2.0",
        paths=('torch.autocast_bf16',),
        issue="https://github.com/pytorch/pytorch/issues/100932",
        script="torch_cpu_autocast_float16_cat.py",
        found="2026-11-28 (torch 2.13.0)",
        details=("known bug: under CPU bfloat16 autocast, an op of autocast's promote list (torch.cat, torch.stack) "
                 "given a float16 tensor raises 'Unexpected floating ScalarType in at::autocast::prioritize' "
                 "(prioritize knows float32 and the autocast dtype only); outside autocast it returns float16. "
                 "Provenance: https://github.com/pytorch/pytorch/issues/100932 (fix proposed in PR #191125); found "
                 "by conformance 2026-11-28 (torch 2.13.0), the clean torch campaigns (infer mode) (case "
                 "2fe0fe9778c3); cases/standalone/torch_cpu_autocast_float16_cat.py."),
        example=Failure('run',
                        error_types=('RuntimeError',),
                        message="Unexpected floating ScalarType in at::autocast::prioritize"),
    ),
    missing_kernel(
        "torch_eager.autocast_bfloat16_lstm_without_avx512",
        reason=("Under CPU bfloat16 autocast an LSTM runs oneDNN's bfloat16 RNN primitive, which a CPU without AVX-512 "
                "lacks: eager raises instead of falling back to float32"),
        phases=('run',),
        errors=('RuntimeError',),
        message="could not create a primitive descriptor for the LSTM forward propagation primitive",
        ops=('lstm',),
        paths=('torch.autocast_bf16',),
        found="2026-11-29 (torch 2.13.0, an AMD EPYC with AVX2 and no AVX-512)",
        details=("On a CPU where torch.ops.mkldnn._is_mkldnn_bf16_supported() is False (no AVX-512), torch.nn.LSTM "
                 "under torch.autocast('cpu', dtype=torch.bfloat16) raises 'could not create a primitive descriptor "
                 "for the LSTM forward propagation primitive'; GRU and RNN run. The same LSTM passes on a CPU with "
                 "AVX-512 (the corpus case paddle-to-static-amp-rnn-tensor-array-loop records both)."),
        example=Failure('run',
                        error_types=('RuntimeError', 'Exception'),
                        message=("could not create a primitive descriptor for the LSTM forward propagation primitive. "
                                 "Run workload with environment variable ONEDNN_VERBOSE=all to get additional "
                                 "diagnostic information."),
                        ops=('lstm', 'tanh')),
    ),
    refuses_with(
        "torch_eager.cudnn_rnn_eval_backward_openvino",
        reason=("cuDNN differentiates a recurrent layer only in training mode, so the backward of an LSTM or GRU in "
                "eval() is refused on CUDA"),
        phases=('run',),
        errors=('RuntimeError',),
        message=("Couldn't get TorchScript module by tracing(?s:.*)(?:cudnn RNN backward can only be called in "
                 "training mode)"),
        modes=frozenset({'grad', 'train'}),
        ops=('lstm', 'gru'),
        paths=('torch.openvino',),
        issue="https://github.com/pytorch/pytorch/issues/5878",
        found="2026-11-28",
        details=("cuDNN differentiates a recurrent layer only in training mode: on CUDA, the backward of an LSTM or "
                 "GRU of a model in eval() is refused ('cudnn RNN backward can only be called in training mode'), "
                 "in eager too. Provenance: https://github.com/pytorch/pytorch/issues/5878 (seen on an H200, torch "
                 "2.11.0+cu130, 2026-11-28)."),
        example=Failure('run',
                        mode="grad",
                        error_types=('RuntimeError',),
                        message=("Couldn't get TorchScript module by tracingcudnn RNN backward can only be called"
                                 " in training mode"),
                        ops=('lstm',)),
    ),
    refuses_with(
        "torch_eager.floor_divide_no_derivative",
        reason="PyTorch's autograd has no derivative of torch.floor_divide (//), so eager cannot differentiate it",
        phases=('eager',),
        errors=('RuntimeError',),
        message="derivative for aten::floor_divide is not implemented",
        modes=frozenset({'grad', 'train'}),
        reference="https://github.com/pytorch/pytorch/blob/main/tools/autograd/derivatives.yaml",
        details=("PyTorch's autograd has no derivative of aten::floor_divide (torch.floor_divide, `x // y` of float "
                 "tensors): eager's backward raises 'derivative for aten::floor_divide is not implemented', so no "
                 "path is judged on the program in grad and train mode. Provenance: "
                 "https://github.com/pytorch/pytorch/blob/main/tools/autograd/derivatives.yaml (no entry for "
                 "floor_divide); seen in the torch campaign seed 0 of 2026-11-29 (27 records)."),
        example=Failure('eager', mode="grad", error_types=('RuntimeError', 'Exception'),
                        message="derivative for aten::floor_divide is not implemented", ops=('floor_div',)),
    ),
    refuses_with(
        "torch_eager.scatter_src_larger_backward",
        reason=("PyTorch differentiates scatter, scatter_add and scatter_reduce only where src has index's shape: a "
                "larger src fails their backward"),
        phases=('eager',),
        errors=('RuntimeError',),
        message=r"Function Scatter(Add|Reduce)?Backward0 returned an invalid gradient",
        modes=frozenset({'grad', 'train'}),
        reference="https://pytorch.org/docs/stable/generated/torch.Tensor.scatter_add_.html",
        details=("torch.scatter, scatter_add and scatter_reduce take a src larger than index (they read src only "
                 "where index has elements), but their backward is documented for src.shape == index.shape only: "
                 "with a larger src eager's backward raises 'Function ScatterAddBackward0 (ScatterBackward0, "
                 "ScatterReduceBackward0) returned an invalid gradient at index 1', so no path "
                 "is judged on the program in grad and train mode. Provenance: "
                 "https://pytorch.org/docs/stable/generated/torch.Tensor.scatter_add_.html ('The backward pass is "
                 "implemented only for src.shape == index.shape'); seen in the torch campaigns seed 0 of 2026-11-29 "
                 "(29 and 38 records)."),
        example=Failure('eager', mode="grad", error_types=('RuntimeError', 'Exception'),
                        message=("Function ScatterAddBackward0 returned an invalid gradient at index 1 - got [1, 3, "
                                 "4, 3] but expected shape compatible with [3, 3, 4, 5]"),
                        ops=('scatter_add',)),
    ),
)
