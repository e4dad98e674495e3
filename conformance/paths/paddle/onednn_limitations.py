"""The known bugs of Paddle Inference's oneDNN kernels on the CPU (its default), as
:class:`~conformance.paths.records.Limitation` selectors: the predictor paths with oneDNN register :data:`ONEDNN` after
the records of every saved program (:mod:`conformance.paths.paddle.limitations`); ``inference_no_onednn`` is right on
each of them."""

from conformance.paths.records import Limitation

ONEDNN_INPLACE_OPS = ("expm1", "silu", "floor", "ceil", "sin", "cos", "reciprocal", "hardtanh", "cumsum", "pow",
                      "pow_scalar", "int_pow", "pow_fraction", "floor_div", "floor_divide_scalar", "ceil_div")
PREDICTOR_ONEDNN_INPLACE = Limitation(
    reason="known bug: in a Paddle Inference predictor with oneDNN (IR optimisation on or off), PIR's inplace pass "
           "makes an operator (expm1, silu, floor, ceil, sin, cos, reciprocal, hardtanh, cumsum, pow, floor_divide...) "
           "write its result into its input although that value is read again: `y = -x; z = paddle.expm1(y); return "
           "z + y` returns 2 * expm1(-x); without oneDNN, or with FLAGS_pir_apply_inplace_pass=0, it is right",
    phase="compare", divergences=("value", "nonfinite"), ops=ONEDNN_INPLACE_OPS, outcome=None, versions=">=3.0",
    reference="found by conformance 2026-11-28 (paddlepaddle 3.3.1), campaign seed 0, case 626c1dbaef9a; "
              "cases/paddle-inference-onednn-inplace-expm1.json; cf. PaddlePaddle/Paddle#30588 (the legacy oneDNN "
              "inplace pass, switched off for wrong results)")
PREDICTOR_ONEDNN_EMPTY_MATMUL = Limitation(
    reason="known bug: a Paddle Inference predictor with oneDNN returns uninitialized memory (garbage, up to 1e26) for "
           "paddle.matmul over a zero-size contraction dim (`matmul(x, x, transpose_y=True)`, x of shape [2, 3, 0]), "
           "where dygraph, and the predictor without oneDNN, give zeros",
    phase="compare", divergences=("value", "nonfinite"), ops=("matmul_empty",), outcome=None, versions=">=3.0",
    reference="found by conformance 2026-11-28 (paddlepaddle 3.3.1), campaign seed 0, cases d463d325ce20, "
              "46872843bce0 (flaky: the garbage is sometimes 0); "
              "cases/standalone/paddle_inference_onednn_empty_matmul.py")

PREDICTOR_ONEDNN_ZERO_SIZE = Limitation(
    reason="known bug: a Paddle Inference predictor with oneDNN fails with a bare 'std::exception': on `-x` for a "
           "zero-size x (shape [4, 0, 0, 5]; without oneDNN it returns the empty result), and in a program of "
           "negations, erf and a while loop on float64 and subnormal inputs (case 6c128ce435b9, not minimised "
           "further)",
    phase="run", errors=("RuntimeError",), message=r"^std::exception\s*$", outcome=None, versions=">=3.0",
    reference="found by conformance 2026-11-28 (paddlepaddle 3.3.1), campaign seed 0, cases a11e3a2dd274, "
              "6c128ce435b9, d0958839fa1e; cases/paddle-inference-onednn-zero-size-std-exception.json")
PREDICTOR_ONEDNN_ARRAY_ATTRIBUTE = Limitation(
    reason="known bug: a Paddle Inference predictor with oneDNN and its IR optimisation off cannot run "
           "F.interpolate(x, size=[...], mode='nearest'): 'ConvertPirAttribute2RuntimeAttribute not support "
           "[pir::ArrayAttribute<pir::DoubleAttribute>]' (the oneDNN instruction cannot pass the scale attribute)",
    phase="run", errors=("NotImplementedError",),
    message=r"ConvertPirAttribute2RuntimeAttribute not support \[pir::ArrayAttribute<pir::DoubleAttribute>\]",
    outcome=None, versions=">=3.0",
    reference="found by conformance 2026-11-28 (paddlepaddle 3.3.1), campaign seed 0, case e8ddbe1a7fe7; "
              "cases/paddle-inference-onednn-interpolate-array-attribute.json")

PREDICTOR_ONEDNN_BATCH_NORM_TRAINING = Limitation(
    reason="known bug: a Paddle Inference predictor with oneDNN runs a batch norm that the saved model keeps in "
           "training mode (is_test=false: a layer saved in train(), its batch norm in a branch after `if x.mean() < t: "
           "return x`) on the running statistics instead of the batch's; without oneDNN the predictor is right",
    phase="compare", divergences=("value", "nonfinite"), constructs=("train_mode",), ops=("batch_norm",),
    outcome=None, versions=">=3.0",
    reference="found by conformance 2026-11-28 (paddlepaddle 3.3.1), campaign seed 0, cases 2dad9d459902, "
              "506ca4c17b23; cases/standalone/paddle_inference_onednn_batch_norm_training.py")

PREDICTOR_ONEDNN_SIGNBIT_DYNAMIC_DIM = Limitation(
    reason="known bug: a Paddle Inference predictor with oneDNN cannot be created for a saved paddle.signbit(x) of an "
           "x with a dynamic dim (InputSpec [None]): create_predictor fails with a bare 'std::exception' (signbit's "
           "copysign of ones of shape [0], built from the static shape); without oneDNN it is created",
    errors=("RuntimeError",), message=r"^std::exception\s*$", ops=("signbit",), outcome=None, versions=">=3.3",
    reference="found by conformance 2026-11-28 (paddlepaddle 3.3.1), deployment campaign seed 0, case 18716bce1a84; "
              "cases/standalone/paddle_inference_onednn_signbit_dynamic_dim.py")

_PAD_ABORT = ("known bug: a Paddle Inference predictor with oneDNN aborts in phi::PadKernel<float, OneDNNContext> "
              "on a constant F.pad of a 1-d tensor (`F.pad(x, [0, 0])` of x [3]: 'free(): invalid pointer', "
              "'malloc(): unaligned tcache chunk detected'); without oneDNN it returns x")
_PAD_REFERENCE = ("found by conformance 2026-11-28 (paddlepaddle 3.3.1), campaign seed 0, case e68cc22291d1, "
                  "deployment campaign seed 0, cases 2177c2dfbdce, e594333713cf, 12aa1e24ab69; "
                  "cases/standalone/paddle_inference_onednn_pad_abort.py")
PREDICTOR_ONEDNN_PAD_ABORT = Limitation(
    reason=_PAD_ABORT, phase="crash", errors=("SIGABRT",), ops=("pad_constant", "pad_negative"), outcome=None,
    versions=">=3.3", reference=_PAD_REFERENCE)
PREDICTOR_ONEDNN_PAD_ABORT_HANGS = Limitation(
    reason=_PAD_ABORT + "; in a worker whose signal handler is Paddle's, the abort hangs instead of ending the "
                        "process", phase="timeout", ops=("pad_constant", "pad_negative"), outcome=None,
    versions=">=3.3", reference=_PAD_REFERENCE)
PREDICTOR_ONEDNN_CONCAT_EMPTY_SEGV = Limitation(
    reason="known bug: a Paddle Inference predictor with oneDNN dies of SIGSEGV in phi::ConcatKernel<float, "
           "OneDNNContext> (ConcatOneDNNHandler) on paddle.concat of zero-size tensors (`if a.shape[0] > 2: c = "
           "paddle.concat([c, c], 0)`, c of shape [0, 5]); without oneDNN it runs",
    phase="crash", errors=("SIGSEGV",), ops=("concat_empty",), outcome=None, versions=">=3.3",
    reference="found by conformance 2026-11-28 (paddlepaddle 3.3.1), deployment campaign seed 0, case 7c25dffcbd39; "
              "cases/standalone/paddle_inference_onednn_concat_empty_segv.py")

PREDICTOR_ONEDNN_BOOL_REORDER = Limitation(
    reason="known bug: a Paddle Inference predictor with oneDNN (IR optimisation on or off) cannot run a comparison "
           "of a value a pd_op.if yields (`if x.sum() < t: x = -x`, then `return x == x`): the bool result goes "
           "through a oneDNN layout transform, 'Ref tensor type (bool) is not supported by oneDNN'",
    phase="run", errors=("ValueError",), message=r"Ref tensor type \(bool\) is not supported by oneDNN",
    outcome=None, versions=">=3.3",
    reference="found by conformance 2026-11-28 (paddlepaddle 3.3.1), clean campaign seed 8, case 0380ef195778; "
              "cases/paddle-inference-onednn-bool-after-if.json")

PREDICTOR_ONEDNN_LOOP_MATMUL = Limitation(
    reason="known bug: a Paddle Inference predictor with oneDNN computes garbage (zeros, 3e-41, -1e24) for a matmul in "
           "a loop over a dynamic dim whose results are appended to a list (a TensorArray: this suite's LSTM and GRU, "
           "`steps.append(paddle.tanh(paddle.matmul(x[t], w, transpose_y=True)))`, then paddle.stack); without "
           "oneDNN, and with an elementwise product instead of the matmul, it is right",
    phase="compare", divergences=("value", "nonfinite"), ops=("lstm", "gru"), outcome=None, versions=">=3.3",
    reference="found by conformance 2026-11-28 (paddlepaddle 3.3.1) transplanting "
              "cases/paddle-to-static-amp-rnn-tensor-array-loop.json; "
              "cases/standalone/paddle_inference_onednn_matmul_in_loop.py")

PREDICTOR_ONEDNN_RESHAPE_ZERO = Limitation(
    reason="known bug: the oneDNN reshape kernel of a Paddle Inference predictor reads the 0 of a target shape [1, 0] "
           "as 'copy the input's dim', where Paddle's own CPU kernel and dygraph take it as a size: paddle.signbit of "
           "a zero-size x of shape [1, 0] reshapes its ones ([0]) to [1, 0] and create_predictor fails ('The index of "
           "0 in `shape` must be less than the input tensor X's dimensions'); without oneDNN it is created",
    errors=("ValueError",), outcome=None, versions=">=3.3",
    message=r"The index of \d+ in `shape` must be less than the input tensor X's dimensions(?s:.*)onednn/reshape",
    reference="found by conformance 2026-11-28 (paddlepaddle 3.3.1), clean campaign seed 1, cases 8d8a36075065, "
              "502e6ec2e6b8; cases/paddle-inference-onednn-signbit-zero-size-reshape.json")

#: Every oneDNN predictor's known bugs, in the order they are tried.
ONEDNN = (PREDICTOR_ONEDNN_INPLACE, PREDICTOR_ONEDNN_EMPTY_MATMUL, PREDICTOR_ONEDNN_ZERO_SIZE,
          PREDICTOR_ONEDNN_ARRAY_ATTRIBUTE, PREDICTOR_ONEDNN_BATCH_NORM_TRAINING, PREDICTOR_ONEDNN_SIGNBIT_DYNAMIC_DIM,
          PREDICTOR_ONEDNN_PAD_ABORT, PREDICTOR_ONEDNN_PAD_ABORT_HANGS,
          PREDICTOR_ONEDNN_CONCAT_EMPTY_SEGV, PREDICTOR_ONEDNN_BOOL_REORDER, PREDICTOR_ONEDNN_LOOP_MATMUL,
          PREDICTOR_ONEDNN_RESHAPE_ZERO)
