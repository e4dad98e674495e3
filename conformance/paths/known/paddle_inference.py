"""Paddle Inference predictors (with oneDNN and without): what they refuse and get wrong.
"""

from conformance.paths.known.factories import Failure, known_bug, writes_wrong

#: The Paddle Inference predictors with oneDNN on.
ONEDNN_PREDICTORS = ('paddle.inference', 'paddle.inference_no_ir_optim')

RECORDS = (
    known_bug(
        "paddle_inference.input_as_output",
        reason=("A saved model that returns one of its inputs unchanged cannot be run by a Paddle Inference "
                "predictor ('More than one shadow output named with x')"),
        phases=('run',),
        errors=('RuntimeError',),
        message=r"More than one shadow output named with \S+ found",
        versions=">=3.0",
        found="2026-11-21 (paddle 3.3.1)",
        details=("known bug: a saved model that returns one of its inputs unchanged cannot be run by a Paddle "
                 "Inference predictor ('More than one shadow output named with x'); paddle.jit.load runs it. "
                 "Provenance: found by conformance 2026-11-21 (paddle 3.3.1)."),
        example=Failure('run',
                        error_types=('RuntimeError', 'Exception'),
                        message=("(PreconditionNotMet) More than one shadow output named with x found. (at /paddl"
                                 "e/paddle/fluid/pir/utils/name_analysis.cc:65)\n"),
                        ops=('neg',)),
    ),
    known_bug(
        "paddle_inference.if_zero_size_output_no_memory",
        reason=("A zero-size tensor that a saved program yields from a pd_op.if makes the predictor fail with "
                "'Tensor holds no memory'"),
        phases=('run',),
        errors=('RuntimeError',),
        message="Tensor holds no memory",
        versions=">=3.3",
        constructs=('if_tensor', 'if_shape'),
        facts=('zero_size_input',),
        case="paddle-to-static-if-zero-size-flattened.json",
        found="2026-11-28 (paddle 3.3.1)",
        details=("known bug: a zero-size tensor that an AST to_static program yields from a pd_op.if (`v2 = x1; if "
                 "x.shape[0] < 2: pass; else: v2 = v0 + v0; return v2`, x1 and v0 of shape [0, 0, 1, 1, 0]; on a "
                 "tensor or a dynamic dim) comes back flattened, shape [0] (dygraph and SOT: [0, 0, 1, 1, 0]); the "
                 "autograd face is `pir_ast.zero_size_through_if`; a Paddle Inference predictor (oneDNN or not) "
                 "fails on it instead: 'Tensor holds no memory. Call Tensor::mutable_data firstly'. Provenance: "
                 "found by conformance 2026-11-28 (paddle 3.3.1), clean campaigns seeds 5, 8, 9, cases "
                 "6f0d9e69405d, 6214e4ce5be9, d9fc4df95a69; cases/paddle-to-static-if-zero-size-flattened.json."),
        example=Failure('run',
                        error_types=('RuntimeError',),
                        message="Tensor holds no memory",
                        constructs=('if_tensor',),
                        facts=('zero_size_input',)),
    ),
    known_bug(
        "paddle_inference.alias_loop_no_memory",
        reason=("A predictor's run fails with 'Tensor holds no memory' reading the variable a while loop's carried "
                "variable was assigned from"),
        phases=('run',),
        errors=('RuntimeError',),
        message="Tensor holds no memory",
        versions=">=3.0",
        found="2026-11-21 (paddle 3.3.1)",
        details=("known bug: `a = x + x; acc = a; while i < 3 and acc.min() < t: acc = acc + 1`, then `if acc.max() "
                 "< u: return a`: the converted program returns an empty tensor for `a` (the variable the loop's "
                 "carried variable was assigned from) where dygraph returns `a`; a Paddle Inference predictor fails "
                 "on it. Provenance: found by conformance 2026-11-21 (paddle 3.3.1)."),
        example=Failure('run',
                        error_types=('RuntimeError', 'Exception'),
                        message=("(PreconditionNotMet) Tensor holds no memory. Call Tensor::mutable_data firstly."
                                 "\n  [Hint: holder_ should not be null.] (at /paddle/paddle/phi/core/dense_tenso"
                                 "r_impl.cc:38)\n"),
                        constructs=('early_return', 'grow_loop', 'grow_while', 'if_tensor', 'while_tensor'),
                        ops=('add',)),
    ),
    known_bug(
        "paddle_inference.duplicate_computation_fetch",
        reason=("A saved model returning two equal computations (jit.save merges them into one value) gives a "
                "predictor a fetch name it never fills"),
        phases=('run',),
        errors=('RuntimeError',),
        message=r"The variable named fetch_name_\d+ is not found in the scope of the executor",
        versions=">=3.0",
        script="paddle_inference_duplicate_computation_fetch.py",
        found="2026-11-28 (paddlepaddle 3.3.1)",
        details=("known bug: a saved model returning two equal computations (`a = x * x; b = x * x; return {'out0': "
                 "b, 'out1': a}`: jit.save merges them into one value) gives a predictor two fetch names of which "
                 "it fills one: run() fails, 'The variable named fetch_name_0 is not found in the scope of the "
                 "executor' (with oneDNN or not, IR optimisation on or off); paddle.jit.load runs it. Provenance: "
                 "found by conformance 2026-11-28 (paddlepaddle 3.3.1), deployment campaign seed 0, cases "
                 "fcd669655593, 4648a56f9445, cef9d57faa8b; "
                 "cases/standalone/paddle_inference_duplicate_computation_fetch.py."),
        example=Failure('run',
                        error_types=('RuntimeError',),
                        message="The variable named fetch_name_1 is not found in the scope of the executor"),
    ),
    known_bug(
        "paddle_inference.reorder",
        reason=("A Paddle Inference predictor with oneDNN cannot run an if that negates a value it then unsqueezes "
                "('could not create a primitive descriptor')"),
        phases=('run',),
        errors=('RuntimeError',),
        message="could not create a primitive descriptor for a reorder primitive",
        versions=">=3.0",
        paths=ONEDNN_PREDICTORS,
        case="paddle-inference-branch-unsqueeze-reorder.json",
        found="2026-11-21 (paddle 3.3.1)",
        details=("known bug: a Paddle Inference predictor (CPU, oneDNN) cannot run `y = x + x; if x.min() < 1.5: "
                 "pass; else: y = -y; return y, paddle.unsqueeze(y, 1)`: 'could not create a primitive descriptor "
                 "for a reorder primitive'; paddle.jit.load runs it (so does the predictor without oneDNN). Another "
                 "trigger: `if x.min() < 1.05: y = -z`, then `y // z`. Provenance: found by conformance 2026-11-21 "
                 "(paddle 3.3.1); cases/paddle-inference-branch-unsqueeze-reorder.json, "
                 "cases/paddle-inference-branch-floor-div-reorder.json."),
        example=Failure('run',
                        error_types=('RuntimeError', 'Exception'),
                        message="could not create a primitive descriptor for a reorder primitive",
                        constructs=('if_tensor',),
                        ops=('add', 'neg', 'unsqueeze')),
    ),
    writes_wrong(
        "paddle_inference.onednn_inplace",
        reason=("In a Paddle Inference predictor with oneDNN, PIR's inplace pass makes some operators write in "
                "place over a value still read later"),
        phases=('compare',),
        divergences=('value', 'nonfinite'),
        versions=">=3.0",
        ops=('expm1', 'silu', 'floor', 'ceil', 'sin', 'cos', 'reciprocal', 'hardtanh', 'cumsum', 'pow', 'pow_scalar',
             'int_pow', 'pow_fraction', 'floor_div', 'floor_divide_scalar', 'ceil_div'),
        paths=ONEDNN_PREDICTORS,
        case="paddle-inference-onednn-inplace-expm1.json",
        found="2026-11-28 (paddlepaddle 3.3.1)",
        details=("known bug: in a Paddle Inference predictor with oneDNN (IR optimisation on or off), PIR's inplace "
                 "pass makes an operator (expm1, silu, floor, ceil, sin, cos, reciprocal, hardtanh, cumsum, pow, "
                 "floor_divide...) write its result into its input although that value is read again: `y = -x; z = "
                 "paddle.expm1(y); return z + y` returns 2 * expm1(-x); without oneDNN, or with "
                 "FLAGS_pir_apply_inplace_pass=0, it is right. Provenance: found by conformance 2026-11-28 "
                 "(paddlepaddle 3.3.1), campaign seed 0, case 626c1dbaef9a; "
                 "cases/paddle-inference-onednn-inplace-expm1.json; cf. PaddlePaddle/Paddle#30588 (the legacy "
                 "oneDNN inplace pass, switched off for wrong results)."),
        example=Failure('compare', divergences=(('value', ''),), ops=('add', 'expm1', 'neg')),
    ),
    writes_wrong(
        "paddle_inference.onednn_empty_matmul",
        reason=("A Paddle Inference predictor with oneDNN returns uninitialized memory for paddle.matmul over a "
                "zero-size contraction dim"),
        phases=('compare',),
        divergences=('value', 'nonfinite'),
        versions=">=3.0",
        ops=('matmul_empty',),
        paths=ONEDNN_PREDICTORS,
        script="paddle_inference_onednn_empty_matmul.py",
        found="2026-11-28 (paddlepaddle 3.3.1)",
        details=("known bug: a Paddle Inference predictor with oneDNN returns uninitialized memory (garbage, up to "
                 "1e26) for paddle.matmul over a zero-size contraction dim (`matmul(x, x, transpose_y=True)`, x of "
                 "shape [2, 3, 0]), where dygraph, and the predictor without oneDNN, give zeros. Provenance: found "
                 "by conformance 2026-11-28 (paddlepaddle 3.3.1), campaign seed 0, cases d463d325ce20, 46872843bce0 "
                 "(flaky: the garbage is sometimes 0); cases/standalone/paddle_inference_onednn_empty_matmul.py."),
        example=Failure('compare', divergences=(('value', '[0]'),), ops=('matmul_empty',)),
    ),
    known_bug(
        "paddle_inference.onednn_zero_size",
        reason="A Paddle Inference predictor with oneDNN fails with a bare 'std::exception' on `-x` of a zero-size x",
        phases=('run',),
        errors=('RuntimeError',),
        message=r"^std::exception\s*$",
        versions=">=3.0",
        paths=ONEDNN_PREDICTORS,
        case="paddle-inference-onednn-zero-size-std-exception.json",
        found="2026-11-28 (paddlepaddle 3.3.1)",
        details=("known bug: a Paddle Inference predictor with oneDNN fails with a bare 'std::exception': on `-x` "
                 "for a zero-size x (shape [4, 0, 0, 5]; without oneDNN it returns the empty result), and in a "
                 "program of negations, erf and a while loop on float64 and subnormal inputs (case 6c128ce435b9, "
                 "not minimised further). Provenance: found by conformance 2026-11-28 (paddlepaddle 3.3.1), "
                 "campaign seed 0, cases a11e3a2dd274, 6c128ce435b9, d0958839fa1e; "
                 "cases/paddle-inference-onednn-zero-size-std-exception.json."),
        example=Failure('run', error_types=('RuntimeError',), message="std::exception"),
    ),
    known_bug(
        "paddle_inference.onednn_array_attribute",
        reason=("A Paddle Inference predictor with oneDNN and its IR optimisation off cannot run F.interpolate(x, "
                "size=[...], mode='nearest')"),
        phases=('run',),
        errors=('NotImplementedError',),
        message=r"ConvertPirAttribute2RuntimeAttribute not support \[pir::ArrayAttribute<pir::DoubleAttribute>\]",
        versions=">=3.0",
        paths=ONEDNN_PREDICTORS,
        case="paddle-inference-onednn-interpolate-array-attribute.json",
        found="2026-11-28 (paddlepaddle 3.3.1)",
        details=("known bug: a Paddle Inference predictor with oneDNN and its IR optimisation off cannot run "
                 "F.interpolate(x, size=[...], mode='nearest'): 'ConvertPirAttribute2RuntimeAttribute not support "
                 "[pir::ArrayAttribute<pir::DoubleAttribute>]' (the oneDNN instruction cannot pass the scale "
                 "attribute). Provenance: found by conformance 2026-11-28 (paddlepaddle 3.3.1), campaign seed 0, "
                 "case e8ddbe1a7fe7; cases/paddle-inference-onednn-interpolate-array-attribute.json."),
        example=Failure('run',
                        error_types=('NotImplementedError',),
                        message=("ConvertPirAttribute2RuntimeAttribute not support [pir::ArrayAttribute<pir::Doub"
                                 "leAttribute>]")),
    ),
    known_bug(
        "paddle_inference.onednn_batch_norm_training",
        reason=("A Paddle Inference predictor with oneDNN runs a batch norm the saved model keeps in training mode "
                "on the running statistics, not the batch's"),
        phases=('compare',),
        divergences=('value', 'nonfinite'),
        versions=">=3.0",
        constructs=('train_mode',),
        ops=('batch_norm',),
        paths=ONEDNN_PREDICTORS,
        script="paddle_inference_onednn_batch_norm_training.py",
        found="2026-11-28 (paddlepaddle 3.3.1)",
        details=("known bug: a Paddle Inference predictor with oneDNN runs a batch norm that the saved model keeps "
                 "in training mode (is_test=false: a layer saved in train(), its batch norm in a branch after `if "
                 "x.mean() < t: return x`) on the running statistics instead of the batch's; without oneDNN the "
                 "predictor is right. Provenance: found by conformance 2026-11-28 (paddlepaddle 3.3.1), campaign "
                 "seed 0, cases 2dad9d459902, 506ca4c17b23; "
                 "cases/standalone/paddle_inference_onednn_batch_norm_training.py."),
        example=Failure('compare', divergences=(('value', '[0]'),), constructs=('train_mode',), ops=('batch_norm',)),
    ),
    known_bug(
        "paddle_inference.onednn_signbit_dynamic_dim",
        reason=("A Paddle Inference predictor with oneDNN cannot be created for a saved paddle.signbit(x) of an x "
                "with a dynamic dim (InputSpec [None])"),
        errors=('RuntimeError',),
        message=r"^std::exception\s*$",
        versions=">=3.3",
        ops=('signbit',),
        paths=ONEDNN_PREDICTORS,
        script="paddle_inference_onednn_signbit_dynamic_dim.py",
        found="2026-11-28 (paddlepaddle 3.3.1)",
        details=("known bug: a Paddle Inference predictor with oneDNN cannot be created for a saved "
                 "paddle.signbit(x) of an x with a dynamic dim (InputSpec [None]): create_predictor fails with a "
                 "bare 'std::exception' (signbit's copysign of ones of shape [0], built from the static shape); "
                 "without oneDNN it is created. Provenance: found by conformance 2026-11-28 (paddlepaddle 3.3.1), "
                 "deployment campaign seed 0, case 18716bce1a84; "
                 "cases/standalone/paddle_inference_onednn_signbit_dynamic_dim.py."),
        example=Failure('convert', error_types=('RuntimeError',), message="std::exception", ops=('signbit',)),
    ),
    known_bug(
        "paddle_inference.onednn_pad_abort",
        reason="A Paddle Inference predictor with oneDNN aborts in phi::PadKernel on a constant F.pad of a 1-d tensor",
        phases=('crash',),
        errors=('SIGABRT', 'SIGSEGV'),
        versions=">=3.3",
        ops=('pad_constant', 'pad_negative'),
        paths=ONEDNN_PREDICTORS,
        script="paddle_inference_onednn_pad_abort.py",
        found="2026-11-28 (paddlepaddle 3.3.1)",
        details=("known bug: a Paddle Inference predictor with oneDNN aborts in phi::PadKernel<float, "
                 "OneDNNContext> on a constant F.pad of a 1-d tensor (`F.pad(x, [0, 0])` of x [3]: 'free(): invalid "
                 "pointer', 'malloc(): unaligned tcache chunk detected': the heap it corrupts ends the process "
                 "with SIGABRT or SIGSEGV, as in the README campaign's case a5cc9d5932dc); without oneDNN it returns "
                 "x. Provenance: found by conformance 2026-11-28 (paddlepaddle 3.3.1), campaign seed 0, case "
                 "e68cc22291d1, deployment campaign seed 0, cases 2177c2dfbdce, e594333713cf, 12aa1e24ab69; "
                 "cases/standalone/paddle_inference_onednn_pad_abort.py."),
        example=Failure('crash', error_types=('SIGABRT',), ops=('pad_constant',)),
    ),
    known_bug(
        "paddle_inference.onednn_concat_empty_segv",
        reason="A Paddle Inference predictor with oneDNN dies of SIGSEGV in phi::ConcatKernel<float, OneDNNContext>",
        phases=('crash',),
        errors=('SIGSEGV',),
        versions=">=3.3",
        ops=('concat_empty',),
        paths=ONEDNN_PREDICTORS,
        script="paddle_inference_onednn_concat_empty_segv.py",
        found="2026-11-28 (paddlepaddle 3.3.1)",
        details=("known bug: a Paddle Inference predictor with oneDNN dies of SIGSEGV in phi::ConcatKernel<float, "
                 "OneDNNContext> (ConcatOneDNNHandler) on paddle.concat of zero-size tensors (`if a.shape[0] > 2: c "
                 "= paddle.concat([c, c], 0)`, c of shape [0, 5]); without oneDNN it runs. Provenance: found by "
                 "conformance 2026-11-28 (paddlepaddle 3.3.1), deployment campaign seed 0, case 7c25dffcbd39; "
                 "cases/standalone/paddle_inference_onednn_concat_empty_segv.py."),
        example=Failure('crash', error_types=('SIGSEGV',), ops=('concat_empty',)),
    ),
    known_bug(
        "paddle_inference.onednn_bool_reorder",
        reason=("A Paddle Inference predictor with oneDNN cannot compare a value a pd_op.if yields: oneDNN does not "
                "support the bool result's layout transform"),
        phases=('run',),
        errors=('ValueError',),
        message=r"Ref tensor type \(bool\) is not supported by oneDNN",
        versions=">=3.3",
        paths=ONEDNN_PREDICTORS,
        case="paddle-inference-onednn-bool-after-if.json",
        found="2026-11-28 (paddlepaddle 3.3.1)",
        details=("known bug: a Paddle Inference predictor with oneDNN (IR optimisation on or off) cannot run a "
                 "comparison of a value a pd_op.if yields (`if x.sum() < t: x = -x`, then `return x == x`): the "
                 "bool result goes through a oneDNN layout transform, 'Ref tensor type (bool) is not supported by "
                 "oneDNN'. Provenance: found by conformance 2026-11-28 (paddlepaddle 3.3.1), clean campaign seed 8, "
                 "case 0380ef195778; cases/paddle-inference-onednn-bool-after-if.json."),
        example=Failure('run',
                        error_types=('ValueError',),
                        message="Ref tensor type (bool) is not supported by oneDNN"),
    ),
    writes_wrong(
        "paddle_inference.onednn_loop_matmul",
        reason=("A Paddle Inference predictor with oneDNN computes garbage for a matmul in a loop whose results are "
                "appended to a list (a TensorArray)"),
        phases=('compare',),
        divergences=('value', 'nonfinite'),
        versions=">=3.3",
        ops=('lstm', 'gru'),
        paths=ONEDNN_PREDICTORS,
        case="paddle-to-static-amp-rnn-tensor-array-loop.json",
        script="paddle_inference_onednn_matmul_in_loop.py",
        found="2026-11-28 (paddlepaddle 3.3.1)",
        details=("known bug: a Paddle Inference predictor with oneDNN computes garbage (zeros, 3e-41, -1e24) for a "
                 "matmul in a loop over a dynamic dim whose results are appended to a list (a TensorArray: this "
                 "suite's LSTM and GRU, `steps.append(paddle.tanh(paddle.matmul(x[t], w, transpose_y=True)))`, then "
                 "paddle.stack); without oneDNN, and with an elementwise product instead of the matmul, it is "
                 "right. Provenance: found by conformance 2026-11-28 (paddlepaddle 3.3.1) transplanting "
                 "cases/paddle-to-static-amp-rnn-tensor-array-loop.json; "
                 "cases/standalone/paddle_inference_onednn_matmul_in_loop.py."),
        example=Failure('compare', divergences=(('value', '[0]'),), ops=('lstm',)),
    ),
    known_bug(
        "paddle_inference.onednn_reshape_zero",
        reason=("The oneDNN reshape kernel of a Paddle Inference predictor reads the 0 of a target shape as a size "
                "where Paddle copies the input's dim"),
        errors=('ValueError',),
        message=r"The index of \d+ in `shape` must be less than the input tensor X's dimensions(?s:.*)onednn/reshape",
        versions=">=3.3",
        paths=ONEDNN_PREDICTORS,
        case="paddle-inference-onednn-signbit-zero-size-reshape.json",
        found="2026-11-28 (paddlepaddle 3.3.1)",
        details=("known bug: the oneDNN reshape kernel of a Paddle Inference predictor reads the 0 of a target "
                 "shape [1, 0] as 'copy the input's dim', where Paddle's own CPU kernel and dygraph take it as a "
                 "size: paddle.signbit of a zero-size x of shape [1, 0] reshapes its ones ([0]) to [1, 0] and "
                 "create_predictor fails ('The index of 0 in `shape` must be less than the input tensor X's "
                 "dimensions'); without oneDNN it is created. Provenance: found by conformance 2026-11-28 "
                 "(paddlepaddle 3.3.1), clean campaign seed 1, cases 8d8a36075065, 502e6ec2e6b8; "
                 "cases/paddle-inference-onednn-signbit-zero-size-reshape.json."),
        example=Failure('convert',
                        error_types=('ValueError',),
                        message=("The index of 1 in `shape` must be less than the input tensor X's dimensionsoned"
                                 "nn/reshape")),
    ),
)
