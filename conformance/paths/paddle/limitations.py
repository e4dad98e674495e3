"""PaddlePaddle's documented refusals and known bugs, as :class:`~conformance.paths.records.Limitation` selectors:
by phase, mode, the exception's type (Paddle's C++ errors reach Python as ``ValueError`` for an invalid
argument, ``RuntimeError`` for a failed precondition; conformance's own refusals have types of their own, in
:mod:`~conformance.paths.paddle.conversions` and :mod:`~conformance.paths.paddle.saved`) or the oracle's
divergence kind, then, where needed, the framework's own message.

The groups at the end are what each path registers (:mod:`conformance.paths.paddle`); the first limitation
of a path that applies names a failure, so their order matters.
"""

from dataclasses import replace

from conformance.paths.paddle.conversions import NoBfloat16Kernels
from conformance.paths.paddle.onednn_limitations import ONEDNN
from conformance.paths.paddle.predictor_limitations import PREDICTOR_ANY
from conformance.paths.paddle.saved import LoadedForInference, Paddle2OnnxFailed, UnsavedBufferUpdates
from conformance.paths.paddle.seen import Seen
from conformance.paths.paddle.static_and_onnx_limitations import ONNX_CONVERTER, STATIC_INFERENCE
from conformance.paths.paddle.zero_size_limitations import (
    IF_EMPTY_TENSOR_RANK,
    P2O_ZERO_SIZE,
    PREDICTOR_IF_ZERO_SIZE,
    STATIC_IF_ZERO_SIZE,
    STATIC_ZERO_SIZE,
)
from conformance.paths.records import Limitation

#: The modes in which autograd runs through a converted program.
AUTOGRAD = frozenset({"grad", "train"})

UNUSED_INPUT = Limitation(
    reason="a saved program keeps only what its outputs need: jit.save refuses an input that no output uses "
           "(and does not say which)",
    errors=("ValueError",), message=r"is not involved in the target_vars calculation", versions=">=2.0",
    reference="paddle/static/pir_io.py (normalize_program); PaddlePaddle docs: paddle.jit.save")
SELF_NAME = Limitation(
    reason="to_static takes forward's first parameter for the layer only when it is named `self`: with another "
           "name the first input is bound to it, reported as a missing input (to_static) or an extra argument "
           "(jit.save)",
    errors=("ValueError", "TypeError"),
    message=r"`forward\(\)` requires `\w+` arguments, but not found in input `args`"
            r"|forward\(\) takes (from \d+ to )?\d+ positional arguments? but \d+ were given", versions=">=2.0",
    reference="paddle/jit/dy2static/utils.py (parse_arg_and_kwargs drops a first argument named self)")
LOOP_BREAK_ON_TENSOR = Limitation(
    reason="known bug: AST to_static refuses a Python loop (for over range of an int) whose break or continue "
           "depends on a tensor ('python while pred change from bool to variable'), though its grammar guide "
           "lists break/continue anywhere in a loop as supported",
    errors=("Dygraph2StaticException",), message=r"python while pred change from bool to variable",
    outcome=None, versions=">=2.0",
    reference="https://www.paddlepaddle.org.cn/documentation/docs/en/guides/jit/grammar_list_en.html; "
              "https://github.com/PaddlePaddle/Paddle/pull/68508")
_ALIAS_LOOP_EARLY_RETURN = (
    "known bug: `a = x + x; acc = a; while i < 3 and acc.min() < t: acc = acc + 1`, then `if acc.max() < u: "
    "return a`: the converted program returns an empty tensor for `a` (the variable the loop's carried "
    "variable was assigned from) where dygraph returns `a`; a Paddle Inference predictor fails on it")
ALIAS_LOOP_EMPTY_OUTPUT = Limitation(
    reason=_ALIAS_LOOP_EARLY_RETURN, phase="compare", divergences=("shape",), constructs=("early_return",),
    outcome=None, versions=">=3.0", reference="found by conformance 2026-11-21 (paddle 3.3.1)")
ALIAS_LOOP_NO_MEMORY = Limitation(
    reason=_ALIAS_LOOP_EARLY_RETURN, phase="run", errors=("RuntimeError",), message=r"Tensor holds no memory",
    outcome=None, versions=">=3.0", reference="found by conformance 2026-11-21 (paddle 3.3.1)")
ALIAS_LOOP_READ_AFTER = Limitation(
    reason="known bug: `a = x + x; acc = a; while i < 3 and acc.max() < 0: acc = concat([acc, x], 3)`, then `a` "
           "read again (`b = concat([a, a], 1)`): the converted program's first run fails, 'Tensor holds no memory' "
           "(the variable the loop's carried variable was assigned from is empty after the loop, as in the "
           "early-return case)",
    errors=("RuntimeError",), message=r"Tensor holds no memory", outcome=None, versions=">=3.0",
    reference="found by conformance 2026-11-21 (paddle 3.3.1)")
PREDICTOR_REORDER = Limitation(
    reason="known bug: a Paddle Inference predictor (CPU, oneDNN) cannot run `y = x + x; if x.min() < 1.5: pass; "
           "else: y = -y; return y, paddle.unsqueeze(y, 1)`: 'could not create a primitive descriptor for a reorder "
           "primitive'; paddle.jit.load runs it (so does the predictor without oneDNN). Another trigger: `if x.min() < "
           "1.05: y = -z`, then `y // z`",
    phase="run", errors=("RuntimeError",), message=r"could not create a primitive descriptor for a reorder primitive",
    outcome=None, versions=">=3.0", reference="found by conformance 2026-11-21 (paddle 3.3.1); "
    "cases/paddle-inference-branch-unsqueeze-reorder.json, cases/paddle-inference-branch-floor-div-reorder.json")
P2O_UNSUPPORTED_OP = Limitation(
    reason="paddle2onnx has no converter for some Paddle operators (pd_op.amax, pd_op.amin among this suite's ops): "
           "it aborts the process without naming them",
    errors=(Paddle2OnnxFailed.__name__,), message=r"Due to the unsupported operators, the conversion is aborted",
    versions=">=2.0", package="paddle2onnx",
    reference="https://github.com/PaddlePaddle/Paddle2ONNX/blob/develop/docs/zh/op_list.md")
P2O_FULL_MEAN = Limitation(
    reason="known bug: paddle2onnx cannot convert a mean over all elements (x.mean(), pd_op.mean without an axis): "
           "it aborts the process with 'Can not get input axis(dim) value'",
    errors=(Paddle2OnnxFailed.__name__,), message=r"Can not get input 'axis\(dim\)' value", outcome=None,
    versions=">=2.1", package="paddle2onnx", reference="found by conformance 2026-11-21 (paddle2onnx 2.1.0)")
P2O_SOFTPLUS = Limitation(
    reason="known bug: paddle2onnx refuses every softplus, also F.softplus(x) with the defaults it names as "
           "supported ('Only support softplus with beta == 1.0 and threshold == 20.0'), and aborts the process",
    errors=(Paddle2OnnxFailed.__name__,), message=r"Only support softplus with beta == 1\.0 and threshold == 20\.0",
    outcome=None, versions=">=2.1", package="paddle2onnx",
    reference="found by conformance 2026-11-21 (paddle2onnx 2.1.0)")
P2O_INTERPOLATE_SCALE = Limitation(
    reason="known bug: paddle2onnx cannot read the scale of F.interpolate(x, scale_factor=...) (bilinear, trilinear) "
           "and aborts the process: '(Unimplemented) the 0th elementwise MUST be ir::FloatAttribute'; the same resize "
           "with size=[...] converts",
    errors=(Paddle2OnnxFailed.__name__,), message=r"the 0th elementwise MUST be ir::FloatAttribute", outcome=None,
    versions=">=2.1", package="paddle2onnx",
    reference="found by conformance 2026-11-23 (paddle2onnx 2.1.0); cases/paddle-onnx-interpolate-scale-factor.json")
P2O_WHILE_COND_RANK = Limitation(
    reason="known bug: for `while i < n and x.max() < t:` paddle2onnx writes a Loop whose condition output is "
           "declared rank 0 but computed rank 1; onnxruntime refuses to load the model",
    errors=("Fail",),
    message=r"Op \(Loop\) \[TypeInferenceError\].*Mismatch between number of inferred and declared dimensions",
    outcome=None, versions=">=2.1", package="paddle2onnx",
    reference="found by conformance 2026-11-21 (paddle2onnx 2.1.0, onnxruntime 1.31)")
PREDICTOR_INPUT_AS_OUTPUT = Limitation(
    reason="known bug: a saved model that returns one of its inputs unchanged cannot be run by a Paddle Inference "
           "predictor ('More than one shadow output named with x'); paddle.jit.load runs it",
    phase="run", errors=("RuntimeError",), message=r"More than one shadow output named with \S+ found",
    outcome=None, versions=">=3.0", reference="found by conformance 2026-11-21 (paddle 3.3.1)")
STATIC_DTYPE_CHECK = Limitation(
    reason="a static program checks each API's input dtypes when it is built, where dygraph runs what its kernels "
           "take: paddle.tile and paddle.flip refuse int8 under to_static ('The data type of 'x' in tile must be "
           "[...], but received int8'; 'Check data type error for op: flip, ... x.dtype: int8'), as their docs say",
    message=r"The data type of '\w+' in \w+ must be \[.*\], but received"
            r"|Check data type error for op: flip, input: x, x\.dtype: (u?int8|int16)\b", errors=("TypeError",),
    versions=">=3.0", reference="https://www.paddlepaddle.org.cn/documentation/docs/en/api/paddle/tile_en.html, "
                                ".../flip_en.html (x: float32, float64, int32, int64, bool); flip: found by "
                                "conformance 2026-11-28 (paddle 3.3.1), clean campaign seed 4, case 6a213094e8e8")
INPLACE_ON_VIEW = Limitation(
    reason="to_static refuses an in-place operator (x.multiply_(y), F.relu_) on a tensor that is a view in dygraph "
           "(of a strided API such as unsqueeze or a slice): static graphs have no views, so it asks for a "
           "paddle.assign() copy first",
    errors=("ValueError",), message=r"output variable is a viewed Tensor in dygraph", versions=">=3.0",
    reference="paddle/utils/inplace_utils.py (the refusal's own message)")

# What the grad and train modes found (paddle 3.3.1): known bugs, named on the records; outcomes unchanged.
EVAL_NO_GRADIENTS = Seen(
    reason="known divergence: a layer converted in eval() runs an inference program with no backward, so every "
           "gradient is silently None where dygraph gives one (dy2static's infer program)",
    phase="compare", divergences=("missing_gradient",), fact="eval_program", outcome=None, versions=">=3.0",
    reference="found by conformance 2026-11-21 (paddle 3.3.1), grad mode; PaddlePaddle/Paddle#58588")
UNUSED_INPUT_ZERO_GRADIENT = Limitation(
    reason="known divergence: through a converted program, an input that does not reach the loss, or a parameter "
           "used only in a branch that did not run, gets a zero gradient where dygraph gives None",
    phase="compare", divergences=("extra_gradient",), outcome=None, versions=">=3.0",
    reference="found by conformance 2026-11-21 (paddle 3.3.1), grad mode")
WHILE_BACKWARD = Limitation(
    reason="known bug: the backward pass through a while loop on a tensor condition fails ('The variable middle_0 "
           "should exist'): `while i < 3 and y.sum() < 3.0: y = F.sigmoid(y)`, then paddle.grad",
    phase="run", modes=AUTOGRAD, errors=("ValueError",), message=r"The variable middle_\d+ should exist",
    outcome=None, versions=">=3.0", reference="found by conformance 2026-11-21 (paddle 3.3.1), grad mode")
CSE_UNREGISTERED_OP = Limitation(
    reason="known bug: with autograd on, PIR's common-subexpression pass fails on a comparison op of the program "
           "('pd_op.less_than is not registered in the table'); seen in programs with a break inside a while "
           "loop (not minimised)",
    phase="run", modes=AUTOGRAD, errors=("RuntimeError",), message=r"pd_op\.\w+ is not registered in the table",
    outcome=None, versions=">=3.0", reference="found by conformance 2026-11-21 (paddle 3.3.1), grad and train modes")
EARLY_RETURN_BEFORE_WHILE = Limitation(
    reason="known bug: `if x.mean() < -0.5: return x`, then `while i < 1 and x.max() > 0.5: i += 1`, `return x`: an "
           "AST to_static program run with autograd (train(), an input that needs a gradient) fails in its forward "
           "('DenseTensor shouldn't be null', in pd_op.if); SOT and dygraph run it",
    phase="run", modes=AUTOGRAD, errors=("RuntimeError",), message=r"DenseTensor shouldn't be null.*pd_op\.if",
    outcome=None, versions=">=3.0", reference="found by conformance 2026-11-21 (paddle 3.3.1), grad mode")
LOADED_WHILE_BACKWARD = Limitation(
    reason="known bug: the backward of a loaded layer (jit.load, train()) through a while loop on a tensor "
           "condition fails to build: ir_backward passes a None gradient to cf_yield(), e.g. `while i < 1 and "
           "y.sum() > -1.5: i += 1; z = y + x; y = -y` (to_static fails on the same loop with 'The variable "
           "middle_0 should exist')",
    phase="run", modes=AUTOGRAD, errors=("TypeError",), message=r"cf_yield\(\): incompatible function arguments",
    outcome=None, versions=">=3.0", reference="found by conformance 2026-11-21 (paddle 3.3.1), grad mode")

# What issue 20's clean campaigns found (paddle 3.3.1).
PUT_ALONG_AXIS_DYNAMIC_DIM = Limitation(
    reason="known bug: paddle.put_along_axis in a program with a dynamic dim (input_spec None; SOT's dynamic shapes) "
           "fails its Python-side shape check, comparing the unknown dim (-1) as a size ('Size does not match at "
           "dimension 0 expected index paddle.Size([1, 1, 2]) to be smaller than self paddle.Size([-1, 3, 4])'); "
           "dygraph and a fixed-shape input_spec run it (case paddle-put-along-axis-dynamic-dim.json)",
    errors=("RuntimeError",), outcome=None, versions=">=3.0",
    message=r"Size does not match at dimension \d+ expected index paddle\.Size\(\[[^\]]*\]\) to be smaller than "
            r"self paddle\.Size\(\[[^\]]*-1",
    reference="paddle/tensor/manipulation.py (put_along_axis); found by conformance 2026-11-23 (paddle 3.3.1)")
DYNAMIC_DIM_SHAPE_CHECKS = Limitation(
    reason="known bug: shape checks that take a dynamic dim (-1 in a program built with input_spec None) for a size: "
           "F.prelu with a per-channel weight on a dynamic channel dim (AssertionError 'The weight size should be "
           "equal to x input channel'), F.pixel_unshuffle on a dynamic spatial dim ('input_dims[2] % "
           "downscale_factor'), paddle.dot of a dynamic dim with a static one ('shape_match', infermeta/binary.cc), "
           "a convolution over a dynamic channel dim ('C:-1 != filter_dims[0]'); "
           "dygraph, SOT and static dims run them (cases paddle-to-static-prelu-dynamic-channel.json, "
           "paddle-to-static-pixel-unshuffle-dynamic-dim.json, paddle-to-static-dot-dynamic-dim.json)",
    errors=("AssertionError", "ValueError", "RuntimeError"), outcome=None, versions=">=3.0",
    message=r"The weight size should be equal to x input channel in prelu\(\)|input_dims\[\d\] % downscale_factor"
            r"|Expected true == shape_match, but received true:1 != shape_match:0\.\] \(at \S+/infermeta/binary\.cc"
            r"|received C:-1 != filter_dims\[\d\]",
    reference="found by conformance 2026-11-23 (paddle 3.3.1)")
TAKE_ALONG_AXIS_BROADCAST = Limitation(
    reason="known bug: paddle.take_along_axis with a constant index of batch 1 broadcast over a dynamic batch: the "
           "program fixes the broadcast when it is built, and a call with another batch fails ('The value (4) of the "
           "non-singleton dimension does not match the corresponding value (1) in shape for expand_v2 op'); dygraph "
           "broadcasts to every batch (case paddle-to-static-take-along-axis-broadcast-dynamic-dim.json)",
    errors=("ValueError",), outcome=None, versions=">=3.0",
    message=r"of the non-singleton dimension does not match the corresponding value \(1\) in shape for expand_v2 op",
    reference="found by conformance 2026-11-23 (paddle 3.3.1)")
TENSOR_ARRAY_REVERSED = Limitation(
    reason="known bug: to_static turns a list appended to in a loop over a dynamic dim into a TensorArray, and "
           "reversing it (`steps[::-1]`, an RNN's backward direction) fails to build ('Only support "
           "paddle::dialect::DenseTensorType or paddle::dialect::AllocatedDenseTensorType'); with the dim static, and "
           "in SOT, it runs (case paddle-to-static-tensor-array-reversed.json)",
    errors=("NotImplementedError",), outcome=None, versions=">=3.0",
    message=r"\[::-1\].*Only support paddle::dialect::DenseTensorType or paddle::dialect::AllocatedDenseTensorType",
    reference="found by conformance 2026-11-23 (paddle 3.3.1)")
AMP_NO_BF16_KERNEL = Limitation(
    reason="known bug: paddle.amp.auto_cast(O1, bfloat16) in a to_static program feeds bfloat16 to operators that "
           "have no bfloat16 kernel on the CPU (max_pool2d_with_index of adaptive max pooling, einsum, median, "
           "atan2...), "
           "instead of keeping them in float32: the program fails to build ('Check data type error for op: einsum, "
           "input: x, x.dtype: bfloat16, and expected_dtype: ... float32, float64')",
    errors=("TypeError",), outcome=None, versions=">=3.0",
    message=r"Check data type error for op: \w+, input: (\w+), \1\.dtype: bfloat16",
    reference="found by conformance 2026-11-23 (paddle 3.3.1), seed-1 to_static_amp campaign")

# ... and known bugs that need a fact of the conversion to be told apart.
INPLACE_WRITES_INPUT = Seen(
    reason="known bug: PIR's inplace pass makes an operator in-place on a value that is the program's own input (the "
           "result of a pd_op.if or while whose branch yields the input itself), so the program writes into the "
           "caller's input tensor: a later read of that input in the same program is wrong (a race with the "
           "multi-threaded executor: flaky), and a caller that reuses the tensor (training on one batch) computes on "
           "other inputs from the second call on; FLAGS_pir_apply_inplace_pass=0 makes it right (case "
           "paddle-to-static-inplace-pass-writes-input.json; standalone/paddle_inplace_pass_*.py)",
    phase="compare", divergences=("value", "nonfinite"), fact="wrote_inputs", outcome=None, versions=">=3.0",
    reference="found by conformance 2026-11-23 (paddle 3.3.1), train and infer modes")
EVAL_NO_BACKWARD_TRAINING = Seen(
    reason="known divergence: a layer converted in eval() runs an inference program with no backward, so an optimizer "
           "step never changes the parameters (every gradient silently None) where dygraph trains them: the losses "
           "after the first step and the final parameters differ (the train-mode face of the grad mode's missing "
           "gradients, PaddlePaddle/Paddle#58588)",
    phase="compare", modes=frozenset({"train"}), divergences=("value",), where=r"^\['(sgd|adam)'\]",
    fact="eval_program", outcome=None, versions=">=3.0",
    reference="found by conformance 2026-11-21 (paddle 3.3.1), grad and train modes; PaddlePaddle/Paddle#58588")
DETACHED_BRANCH_STOPS_GRADIENT = Seen(
    reason="known bug: AST to_static of `if c: y = y.detach() else: y = -y` (c a tensor) marks the pd_op.if's result "
           "stop_gradient whichever branch runs, so no gradient reaches the inputs and parameters before it also when "
           "the branch that does not detach ran (dygraph and SOT give them; a layer in train())",
    phase="compare", divergences=("missing_gradient", "value"), fact="detached_branch", outcome=None,
    modes=frozenset({"grad", "train"}), versions=">=3.0",
    reference="found by conformance 2026-11-23 (paddle 3.3.1), train campaign seed 0, case 1fc39ee0233c; "
              "cases/standalone/paddle_detached_branch_stops_gradient.py (the corpus replays inference only)")
SAVED_OUTPUT_IS_INPUT = Seen(
    reason="known bug: jit.save of a model whose output is an input plus a constant (`x + 1.0`, `x - 0.5`) writes a "
           "program that returns the input unchanged (the loaded program's shadow_output is the pd_op.data value): "
           "the addition is lost, a silent wrong result; to_static before saving is right (case "
           "paddle-jit-save-input-plus-constant-lost.json)",
    phase="compare", divergences=("value",), fact="output_is_input", outcome=None, versions=">=3.0",
    reference="found by conformance 2026-11-21 (paddle 3.3.1)")
SAVED_DUPLICATE_OUTPUT = Seen(
    reason="known bug: a model that returns one tensor twice (`return [y, y]`) is saved by jit.save with that output "
           "once: the loaded layer, a predictor and the ONNX graph return one output fewer than forward (case "
           "paddle-jit-save-duplicate-output-dropped.json)",
    phase="compare", divergences=("structure",), fact="duplicate_outputs", outcome=None, versions=">=3.0",
    reference="found by conformance 2026-11-23 (paddle 3.3.1)")

AMP_NO_CPU_BF16 = Limitation(
    reason="Paddle computes bfloat16 on the CPU only with oneDNN's bf16 kernels, which need AVX512 "
           "(paddle.base.core.supports_bfloat16()); on a CPU without them every bf16 operator of the program aborts "
           "the process (onednn_op raises dnnl::error, then std::terminate), so the path refuses before running it",
    errors=(NoBfloat16Kernels.__name__,), versions=">=3.0",
    reference="found by conformance 2026-11-21 (paddle 3.3.1); paddle/amp/auto_cast.py: amp on the CPU is off")
FUNCTION_PARAMETERS = Limitation(
    reason="jit.save of a function saves its program, not the parameters it reads (documented: save the Layer "
           "instead); with parameters, paddle 3 (PIR) fails with an UnboundLocalError on `state_var_dict` instead",
    errors=("UnboundLocalError",), message=r"'state_var_dict'", versions=">=3.0",
    reference="https://www.paddlepaddle.org.cn/documentation/docs/en/api/paddle/jit/save_en.html (Note); "
              "paddle/jit/api.py save(); found by conformance 2026-11-21 (paddle 3.3.1)")
UNUSED_STATISTICS = Limitation(
    reason="a saved program keeps only what its outputs need: a batch norm whose output no output uses is dropped, "
           "and with it the update of its running statistics, which a loaded layer in train() then never makes",
    errors=(UnsavedBufferUpdates.__name__,), versions=">=2.0",
    reference="paddle/static/pir_io.py (normalize_program); PaddlePaddle docs: paddle.jit.save")
LOADED_TRAINS_AS_INFERENCE = Limitation(
    reason="known bug: a layer loaded with paddle.jit.load and put in train() runs the saved inference program: "
           "batch norm on its running statistics (is_test=true) and dropout off, though the model was saved in "
           "train() and the TranslatedLayer docs say it trains like a Layer; the legacy TranslatedLayer switched "
           "is_test off for training (_change_is_test_status), paddle 3's PIR one does not. The path refuses rather "
           "than compare",
    errors=(LoadedForInference.__name__,), outcome=None, versions=">=3.0",
    reference="paddle/jit/pir_translated_layer.py; found by conformance 2026-11-21 (paddle 3.3.1), grad and train "
              "modes")

# What issue 15's edge-value campaigns found (paddle 3.3.1).
SIGNBIT_DYNAMIC_DIM = Limitation(
    reason="known bug: paddle.signbit in an AST to_static program with a dynamic dim fails when the program runs "
           "('Broadcast dimension mismatch' in its copysign: it builds its ones from the static shape, -1 read as 0); "
           "SOT too, once a new batch size makes it translate with a dynamic dim",
    errors=("ValueError",), message=r"in signbit\s+neg_zero_x = paddle\.copysign[\s\S]*Broadcast dimension mismatch",
    outcome=None, versions=">=3.3", reference="cases/paddle-to-static-signbit-dynamic-dim.json")

INPLACE_API_KEYWORDS = Limitation(
    reason="known bug: an in-place API called with keyword arguments (`paddle.masked_fill_(x=x, mask=m, value=0.0)`) "
           "does not convert: the static graph's in-place wrapper reads its tensor from args[0] ('tuple index out "
           "of range'); called positionally it converts",
    errors=("IndexError",), message=r"tuple index out of range", ops=("masked_fill_keywords",), outcome=None,
    versions=">=3.3", reference="https://github.com/PaddlePaddle/Paddle/issues/79220; "
                                "cases/paddle-to-static-inplace-api-keyword-arguments.json")

INPLACE_STATEMENT_DROPPED = Limitation(
    reason="known bug: an in-place method called as a statement, its result not assigned (`y = x * 1.0; "
           "y.add_(x)`), is dropped by the static program (PIR): y keeps its old value; `y = y.add_(x)` is right",
    phase="compare", divergences=("value",), ops=("add_statement", "rotate_accumulate"), outcome=None,
    versions=">=3.3", reference="https://github.com/PaddlePaddle/Paddle/issues/79145; "
                                "cases/paddle-to-static-inplace-statement-dropped.json")
STATIC_NO_SHORT_CIRCUIT = Limitation(
    reason="known bug, closed upstream as a limitation: AST to_static evaluates both operands of `and` when the left "
           "one is a tensor, so a right operand with a side effect (`if x.mean() > 0 and zero_first(y):`, which "
           "writes into y) runs where dygraph skips it; SOT short-circuits",
    phase="compare", divergences=("value",), ops=("short_circuit_write",), outcome=None, versions=">=2.5",
    reference="https://github.com/PaddlePaddle/Paddle/issues/50365; "
              "cases/paddle-to-static-and-short-circuit-side-effect.json")
SOT_ROTATION_INPLACE = Limitation(
    reason="known bug: three accumulators rotated (`a, b, c = c, a, b`), then `a.add_(x)`, in a loop: SOT's "
           "translation returns the accumulators' first values (zeros: eager 6x, SOT 0), although it keeps a plain "
           "`a.add_(x)` in a loop",
    phase="compare", divergences=("value",), ops=("rotate_accumulate",), outcome=None, versions=">=3.3",
    reference="found by conformance 2026-11-28 (paddle 3.3.1) transplanting pytorch#75794; "
              "cases/torch-script-tuple-rotation-inplace.json")

SIGNBIT_ZERO_SIZE_DYNAMIC_DIM = Limitation(
    reason="known bug: paddle.signbit does not convert where it reshapes its ones (from the static shape) to x.shape: "
           "a zero-size x with a dynamic dim ([None, 2, 0]: 'can not reshape 0 to -1, 0, ...'), an x with two dynamic "
           "dims (after a while loop: 'Only one dimension value of 'shape' in reshape can be -1')",
    errors=("ValueError", "AssertionError"), outcome=None, versions=">=3.3",
    message=r"in signbit\s+ones = paddle\.to_tensor\(ones, x\.dtype\)\.reshape\(x\.shape\)",
    reference="found by conformance 2026-11-28 (paddle 3.3.1), deployment campaign seed 0, cases c8102fcbf07f, "
              "f45e7b5083dc; clean campaign seed 6, cases/paddle-to-static-signbit-after-while-two-dynamic-dims.json")
EXPAND_BOOL_INPUT_SPEC = Limitation(
    reason="known bug: jit.save builds the program with the InputSpec's stop_gradient (False by default) also for a "
           "bool input, and static paddle.expand (or tile) then refuses it ('When the data type of input 'x' for "
           "expand is bool, you must set its stop_gradient ...'); to_static called on tensors runs it, as does "
           "InputSpec(..., stop_gradient=True)",
    errors=("ValueError",), message=r"When the data type of input 'x' for expand is bool, you must set its "
                                    r"stop_gradient", outcome=None, versions=">=3.0",
    reference="found by conformance 2026-11-28 (paddle 3.3.1), deployment campaign seed 0, cases aca1b4271a2c, "
              "c91e97fae24a; cf. TILE_BOOL_NEEDS_STOP_GRADIENT")
P2O_BFLOAT16_CAST = Limitation(
    reason="known bug: paddle2onnx writes `paddle.cast(paddle.cast(x, bfloat16), float32)` as ONNX Casts through "
           "bfloat16 at an opset whose Cast does not take it: onnxruntime refuses to load the model",
    errors=("InvalidGraph",), message=r"Type 'tensor\(bfloat16\)' of input parameter \(\S+\) of operator \(Cast\)",
    outcome=None, versions=">=2.1", package="paddle2onnx",
    reference="found by conformance 2026-11-28 (paddle2onnx 2.1.0), deployment campaign seed 0, case 3e2de5757a46")
P2O_ZERO_DIM_AS_ONE = Limitation(
    reason="known bug: paddle2onnx gives a 0-d result shape [1] (the graph declares []) where its converter "
           "broadcasts with a [1] constant or reshapes to [1]: pd_op.scale (`-x`, `x * c`; its factor is a [1] "
           "full) and a reduction to 0-d (paddle.sum, mean, prod, max over every axis: ReduceX, then Reshape [1]); "
           "elementwise ops (relu, tanh, ==) keep []",
    phase="compare", divergences=("shape",), ops=("neg", "mul_scalar", "sum", "mean", "prod",
                                                  "int_prod"), outcome=None, versions=">=2.1", package="paddle2onnx",
    reference="found by conformance 2026-11-28 (paddle2onnx 2.1.0), deployment campaign seed 0, cases e4f9f79e2da3 "
              "(int prod), f048c8ec7aba (`(-leaky_relu(x)) == ...` of a 0-d x)")

#: ... the same, where the error's message quotes no Python line (a program run with autograd, the failing copysign
#: inside a pd_op.if): the dynamic dim read as 0 shows in the first shape.
SIGNBIT_DYNAMIC_DIM_UNQUOTED = replace(
    SIGNBIT_DYNAMIC_DIM, ops=("signbit",),
    message=r"Broadcast dimension mismatch\. Operands could not be broadcast together with the shape of X = \[0[,\]]")

# What the seed-0 campaign of 2026-11-28 found (paddle 3.3.1).
TILE_BOOL_NEEDS_STOP_GRADIENT = Limitation(
    reason="known bug: paddle.tile of a bool tensor computed from an input that needs a gradient (`m = "
           "paddle.isnan(x); paddle.tile(m, [1, 2])`) does not convert: in a static program the bool result is not "
           "marked stop_gradient (in dygraph it is), and static tile refuses a bool input that is not ('When the date "
           "type is bool for the input 'x' of tile op, you must set its stop_gradient to be True'); dygraph runs it",
    errors=("ValueError",), message=r"When the date type is bool for the input 'x' of tile op", outcome=None,
    versions=">=3.0", reference="https://github.com/PaddlePaddle/Paddle/issues/45039 (an op's output "
                                "stop_gradient=False under to_static where dygraph gives True); found by conformance "
                                "2026-11-28 (paddlepaddle 3.3.1), campaign seed 0, case 62be9d36c313; "
                                "cases/paddle-to-static-tile-bool-stop-gradient.json")
LOADED_INTEGER_GRADIENT = Limitation(
    reason="known bug: the backward of a loaded layer (jit.load, train()) accumulates gradients for an integer or "
           "bool tensor used twice (`y = paddle.stack([k, k], 0)` of an int8 input), and fails to build: 'Check data "
           "type error for op: add_n, input: inputs, inputs.dtype: uint8'; dygraph and to_static train it (no "
           "gradient flows through integers)",
    phase="run", modes=AUTOGRAD, errors=("TypeError",),
    message=r"Check data type error for op: add_n, input: inputs, inputs\.dtype: (bool|u?int8|int16)\b",
    outcome=None, versions=">=3.0",
    reference="found by conformance 2026-11-28 (paddlepaddle 3.3.1), campaign seed 0, case e68d7a534b50; "
              "cases/standalone/paddle_loaded_integer_gradient.py (the corpus replays inference only)")

ZERO_SIZE_THROUGH_IF = Limitation(
    reason="known bug: a zero-size tensor that an AST to_static program returns through a pd_op.if (on a tensor, "
           "`if y.sum() < t: return [e, z]` with e of shape [0, 5, 3], or on a dynamic dim) comes back uninitialized "
           "(no memory; dygraph returns an empty tensor): with autograd an op on it fails ('Tensor not initialized "
           "yet when DenseTensor::place() is called'), and so does the backward into the program ('The input tensor "
           "output_grad_0 (or Fake_var) of RunProgram(Grad)Op should be initialized'); a loaded layer (jit.load) too",
    phase="run", modes=AUTOGRAD, errors=("ValueError", "RuntimeError"), constructs=("if_tensor", "if_shape"),
    message=r"The input tensor (output_grad_\d+|Fake_var) of RunProgram\(Grad\)Op should be initialized"
            r"|Tensor not initialized yet when DenseTensor::place\(\) is called",
    outcome=None, versions=">=3.0",
    reference="found by conformance 2026-11-28 (paddlepaddle 3.3.1), campaign seed 0, case 8aed360b1c84; "
              "cases/standalone/paddle_zero_size_output_through_if.py (the corpus replays inference only)")
EARLY_RETURN_REBOUND_NO_GRADIENT = Limitation(
    reason="known bug: `if x.mean() < t: return x` (not taken), then `x = -x; return x`: through the AST to_static "
           "program (a layer in train()) the gradient with respect to x is 0 where dygraph gives -1 per element, so "
           "input and parameter gradients, and the training steps after them, differ; `return -x` without rebinding "
           "x is right, and so is SOT",
    phase="compare", modes=AUTOGRAD, divergences=("value",), constructs=("early_return",), outcome=None,
    versions=">=3.0",
    reference="found by conformance 2026-11-28 (paddlepaddle 3.3.1), campaign seed 0, case 2dad9d459902; "
              "cases/standalone/paddle_early_return_rebound_no_gradient.py (the corpus replays inference only)")
SAVED_TRAIN_AS_INFERENCE = Seen(
    reason="known bug: jit.save of a layer in train() writes its batch norm and dropout for inference (is_test=true: "
           "batch norm on the running statistics, dropout off), so the loaded layer, a predictor and the ONNX graph "
           "compute another function than the layer in train() (the inference face of the loaded layer's "
           "LoadedForInference refusal)",
    phase="compare", modes=frozenset({"infer"}), divergences=("value", "nonfinite"), fact="saved_for_inference",
    outcome=None, versions=">=3.0",
    reference="paddle/jit/pir_translated_layer.py; found by conformance 2026-11-28 (paddlepaddle 3.3.1), campaign "
              "seed 0, cases 09ed1a2c7ee1, 12cf167135c9; cases/paddle-jit-save-train-batch-norm-for-inference.json")
P2O_REPEAT_INTERLEAVE_TILE = Limitation(
    reason="known bug: paddle2onnx writes paddle.repeat_interleave(x, 2, axis) as an ONNX Tile whose repeats have "
           "another length than x's rank: onnxruntime refuses to run it (''repeat' input tensor must have the same "
           "length as the 'input' tensor')",
    phase="run", ops=("repeat_interleave",),
    message=r"running Tile node\..*'repeat' input tensor must have the same length as the 'input' tensor",
    outcome=None, versions=">=2.1", package="paddle2onnx",
    reference="found by conformance 2026-11-28 (paddle2onnx 2.1.0, onnxruntime 1.31), campaign seed 0, case "
              "d6936e4c589c; cases/paddle-onnx-repeat-interleave-tile.json")
WHILE_DETACHED_BACKWARD = Limitation(
    reason="known bug: the backward of an AST to_static program (or a loaded one) through two while loops on tensor "
           "conditions, one reading a detached value (`v2 = v2.detach()`; `while ...: v5 = -v2; v1 = -v1`; `while "
           "...: v13 = v1 + v2; v0 = -v0`), fails to build: ir_backward passes a None gradient to call_vjp() "
           "('incompatible function arguments')",
    phase="run", modes=AUTOGRAD, errors=("TypeError",), message=r"call_vjp\(\): incompatible function arguments",
    outcome=None, versions=">=3.0",
    reference="found by conformance 2026-11-28 (paddlepaddle 3.3.1), campaign seed 0, case bba6a6965ef5; "
              "cases/standalone/paddle_while_backward_build_errors.py (the corpus replays inference only)")
WHILE_IF_BACKWARD_NO_BLOCK = Limitation(
    reason="known bug: the backward of an AST to_static program through `while i < 1 and x.max() < -0.5: if x.min() "
           "< 0.5: z = -x` then `x = -y` fails to build: ir_backward asks the block of a value that no operator "
           "defines ('NoneType' object has no attribute 'get_parent_block', in value_in_block)",
    phase="run", modes=AUTOGRAD, errors=("AttributeError",),
    message=r"value_in_block[\s\S]*'NoneType' object has no attribute 'get_parent_block'", outcome=None,
    versions=">=3.0", reference="found by conformance 2026-11-28 (paddlepaddle 3.3.1), campaign seed 0, case "
                                "9e5c37096acc; cases/standalone/paddle_while_backward_build_errors.py")

AMP_EMPTY_MATMUL_OUTPUT = Limitation(
    reason="known bug: a to_static program under paddle.amp.auto_cast(O1, bfloat16) that returns paddle.matmul over a "
           "zero-size contraction dim (x of shape [2, 1, 0], `matmul(x, x, transpose_y=True)`) leaves its output "
           "undefined: the first run fails ('dst_tensor `` shall be defined', run_program) or segfaults in "
           "CreateTensorFromValue; dygraph gives zeros",
    errors=("ValueError",), message=r"dst_tensor `[^`]*` shall be defined", ops=("matmul_empty",), outcome=None,
    versions=">=3.0", reference="found by conformance 2026-11-28 (paddlepaddle 3.3.1), campaign seed 0, case "
                                "19e6a7a5db30; cases/standalone/paddle_amp_empty_matmul_segv.py")

AMP_TENSOR_ARRAY_LOOP_CAST = Limitation(
    reason="known bug: under paddle.amp.auto_cast(O1, bfloat16) a to_static while loop over a dynamic dim that appends "
           "to a list (an RNN's steps: a TensorArray) does not convert: while_loop casts every loop variable for AMP "
           "(cast_value_in_amp), the TensorArray too, and the cast refuses it ('Only support "
           "paddle::dialect::DenseTensorType ...'); without auto_cast it converts",
    errors=("NotImplementedError",), ops=("lstm", "gru"), outcome=None, versions=">=3.3",
    message=r"in cast_value_in_amp[\s\S]*Only support paddle::dialect::DenseTensorType",
    reference="found by conformance 2026-11-28 (paddle 3.3.1), clean campaign seed 1, case 2f81b2559dd0; "
              "cases/paddle-to-static-amp-rnn-tensor-array-loop.json")

# ------------------------------------------------------------------ what each path registers

#: Every path through AST to_static (a refusal of the program may come with a later input set's shapes or values, or,
#: for a saved program, when it first runs).
STATIC = STATIC_IF_ZERO_SIZE + (
          SELF_NAME, LOOP_BREAK_ON_TENSOR, ALIAS_LOOP_EMPTY_OUTPUT, ALIAS_LOOP_READ_AFTER, INPLACE_ON_VIEW,
          INPLACE_WRITES_INPUT, PUT_ALONG_AXIS_DYNAMIC_DIM, replace(PUT_ALONG_AXIS_DYNAMIC_DIM, phase="run"),
          replace(ALIAS_LOOP_READ_AFTER, phase="run"), TENSOR_ARRAY_REVERSED, DYNAMIC_DIM_SHAPE_CHECKS,
          TAKE_ALONG_AXIS_BROADCAST, replace(TAKE_ALONG_AXIS_BROADCAST, phase="run"), STATIC_DTYPE_CHECK,
          IF_EMPTY_TENSOR_RANK, replace(IF_EMPTY_TENSOR_RANK, phase="run"), SIGNBIT_DYNAMIC_DIM,
          replace(SIGNBIT_DYNAMIC_DIM, phase="run"), INPLACE_API_KEYWORDS, INPLACE_STATEMENT_DROPPED,
          STATIC_NO_SHORT_CIRCUIT, TILE_BOOL_NEEDS_STOP_GRADIENT, replace(TILE_BOOL_NEEDS_STOP_GRADIENT, phase="run"),
          SIGNBIT_DYNAMIC_DIM_UNQUOTED, replace(SIGNBIT_DYNAMIC_DIM_UNQUOTED, phase="run"),
          SIGNBIT_ZERO_SIZE_DYNAMIC_DIM) + STATIC_ZERO_SIZE + STATIC_INFERENCE
#: SOT (bytecode translation; a new shape is translated again while running).
SOT = (SELF_NAME, INPLACE_WRITES_INPUT,  # SOT wraps the framework's error in its InnerError, quoting it
       replace(PUT_ALONG_AXIS_DYNAMIC_DIM, phase="run", errors=("RuntimeError", "InnerError")),
       replace(INPLACE_API_KEYWORDS, errors=("InnerError",)), SOT_ROTATION_INPLACE,
       replace(SIGNBIT_DYNAMIC_DIM, phase="run"))
#: to_static under paddle.amp.auto_cast (bfloat16).
STATIC_AMP = STATIC + (AMP_NO_CPU_BF16, AMP_NO_BF16_KERNEL, AMP_EMPTY_MATMUL_OUTPUT, AMP_TENSOR_ARRAY_LOOP_CAST,
                       replace(AMP_EMPTY_MATMUL_OUTPUT, phase="run"))
#: What autograd through a to_static program meets.
STATIC_TRAINING = (EVAL_NO_GRADIENTS, DETACHED_BRANCH_STOPS_GRADIENT, UNUSED_INPUT_ZERO_GRADIENT, WHILE_BACKWARD,
                   CSE_UNREGISTERED_OP, EVAL_NO_BACKWARD_TRAINING)
#: ... through an AST one (SOT builds its programs otherwise).
AST_TRAINING = STATIC_TRAINING + (EARLY_RETURN_BEFORE_WHILE, ZERO_SIZE_THROUGH_IF, EARLY_RETURN_REBOUND_NO_GRADIENT,
                                  WHILE_DETACHED_BACKWARD, WHILE_IF_BACKWARD_NO_BLOCK)
#: to_static with the input_spec from the example tensors: a call with a new shape converts again, so a refusal can
#: come while running.
SPEC_FROM_TENSOR = STATIC + (replace(INPLACE_ON_VIEW, phase="run"), replace(LOOP_BREAK_ON_TENSOR, phase="run"))
LOADED_TENSORS_ONLY = Limitation(
    reason="a layer loaded with paddle.jit.load takes the saved program's tensor inputs only: a None passed "
           "positionally (an optional input left out when saving) is refused at the call ('must be numpy array or "
           "Variable(Tensor)')",
    phase="run", errors=("TypeError",), message=r"The type of input in \w*TranslatedLayer must be numpy array or "
                                                r"Variable\(Tensor\), but received <class 'NoneType'>",
    reference="https://www.paddlepaddle.org.cn/documentation/docs/en/api/paddle/jit/load_en.html")
RNN_TO_DEVICE = Limitation(
    reason="known bug: Layer.to(device=...) of a model holding an nn.GRU (or another RNN) raises: it copies the RNN's "
           "never-allocated dropout-state buffer ('Tensor's dimension is out of bound ... memory's size is 0'); "
           "jit_save_methods moves the fresh instance it builds, so it fails on such models",
    errors=("RuntimeError",), message=r"Tensor's dimension is out of bound(?s:.*)memory's size is 0", outcome=None,
    versions=">=3.3", reference="found by conformance 2026-11-23 (paddle 3.3.1); standalone: "
                                 "`paddle.nn.GRU(4, 6).to(device=paddle.CPUPlace())` raises (no case file: the "
                                 "replay of a hand-written case moves the eager model too)")
#: Every path through jit.save.
SAVED = STATIC + (UNUSED_INPUT, SAVED_DUPLICATE_OUTPUT, SAVED_OUTPUT_IS_INPUT, LOADED_TENSORS_ONLY, RNN_TO_DEVICE,
                  SAVED_TRAIN_AS_INFERENCE, EXPAND_BOOL_INPUT_SPEC)
#: The loaded layer, also fine-tuned.
LOADED = SAVED + AST_TRAINING + (LOADED_WHILE_BACKWARD, LOADED_TRAINS_AS_INFERENCE, UNUSED_STATISTICS,
                                  LOADED_INTEGER_GRADIENT)
#: A Paddle Inference predictor.
PREDICTOR = ((PREDICTOR_INPUT_AS_OUTPUT,) + PREDICTOR_IF_ZERO_SIZE + (ALIAS_LOOP_NO_MEMORY,) + PREDICTOR_ANY
             + SAVED)  # its own first: name best
#: ... with oneDNN (Paddle Inference's default on the CPU).
PREDICTOR_ONEDNN = PREDICTOR + (PREDICTOR_REORDER,) + ONEDNN
#: paddle2onnx on onnxruntime.
ONNX = SAVED + (P2O_UNSUPPORTED_OP, P2O_FULL_MEAN, P2O_SOFTPLUS, P2O_INTERPOLATE_SCALE, P2O_WHILE_COND_RANK,
                P2O_REPEAT_INTERLEAVE_TILE, P2O_BFLOAT16_CAST, P2O_ZERO_DIM_AS_ONE) + P2O_ZERO_SIZE + ONNX_CONVERTER
