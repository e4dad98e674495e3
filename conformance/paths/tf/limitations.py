"""The documented refusals and known bugs of the TensorFlow paths, as data (see
:class:`~conformance.paths.records.Limitation`).

Each selects on the phase, the mode where it matters, the exception type TensorFlow (or tf2onnx, or
onnxruntime, or the tf.session conversion of :mod:`~conformance.paths.tf.conversions`) raises, or the oracle's
divergence kind for a mismatch; a ``message`` regex on the framework's own text only narrows a type that is
raised for many reasons (AutoGraph re-raises the error of a traced function with its own type, the message
prefixed with ``in user code:``; TensorFlow's runtime errors are ``InvalidArgumentError``; onnxruntime names its
error kinds ``InvalidGraph``, ``Fail``).
"""

from __future__ import annotations

from dataclasses import replace

from conformance.paths.records import Limitation

FOUND = "found by conformance 2026-11-21 (tensorflow 2.21.0)"
FOUND_TF2ONNX = "found by conformance 2026-11-21 (tf2onnx 1.17.0, tensorflow 2.21.0)"
#: The modes that differentiate: a refusal or a bug of a gradient shows in these only.
AUTOGRAD = frozenset({"grad", "train"})

# ------------------------------------------------------------------ tracing (tf.function, XLA, SavedModel, tf2onnx)

SHAPE_NONE = Limitation(
    reason="a Python comparison of x.shape[i] for the dim that is None in the input_signature: the static shape is "
           "unknown while tracing, so it raises (TensorFlow documents tf.shape(x) for dynamic dims, which generated "
           "models use; a model of your own may not)",
    errors=("TypeError",), message=r"not supported between instances of '(NoneType' and 'int|int' and 'NoneType)'",
    reference="https://www.tensorflow.org/api_docs/python/tf/shape")
PYTHON_LOOP_BREAK = Limitation(
    reason="AutoGraph keeps a loop over a Python range a Python loop, and refuses a break or return in it that "
           "depends on a tensor",
    errors=("NotImplementedError",),
    message=r"break and return statements which depend on a TF condition are not supported in Python for loops",
    reference="https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/autograph/g3doc/reference/"
              "limitations.md#consistency-of-control-flow-types")
LOOP_SHAPE_INVARIANT = Limitation(
    reason="a tensor that changes shape from one iteration of a while loop on a tensor condition to the next (a "
           "concat that grows it) needs shape invariants (tf.autograph.experimental.set_loop_options, which "
           "generated models declare; a model of your own may not); AutoGraph refuses it without",
    errors=("ValueError",), message=r"has shape \(.*\) before the loop, but shape \(.*\) after one iteration",
    reference="https://www.tensorflow.org/api_docs/python/tf/autograph/experimental/set_loop_options")

NUMPY_TRIL_UNKNOWN_DIMS = Limitation(
    reason="tf.experimental.numpy.tril and triu (the emitters of tril and triu) refuse a tensor whose last two dims "
           "are unknown while tracing ('Currently, the last two dimensions of the input array need to be known'): a "
           "dynamic batch dim there, or a retrace with relaxed shapes (reduce_retracing), or a TF1 placeholder",
    errors=("ValueError",), message=r"the last two dimensions of the input array need to be known",
    reference="https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/ops/numpy_ops/np_array_ops.py "
              "(tril, triu)")

SIGNATURE_TENSORS_ONLY = Limitation(
    reason="an input_signature holds tf.TensorSpec objects only: a None passed positionally (an optional input left "
           "out) is refused in it (bind it before tracing, e.g. with a wrapper, as TensorFlow's guide does for "
           "non-tensor arguments)",
    errors=("TypeError",), message=r"input_signature must be a possibly nested sequence of TensorSpec objects",
    reference="https://www.tensorflow.org/api_docs/python/tf/function (input_signature)")

#: What every traced path refuses while it traces.
TRACED = (SHAPE_NONE, PYTHON_LOOP_BREAK, LOOP_SHAPE_INVARIANT, NUMPY_TRIL_UNKNOWN_DIMS, SIGNATURE_TENSORS_ONLY)
#: tf.function and XLA trace again when a call brings a new kwargs value: the same refusals at run time.
RETRACED = TRACED + tuple(replace(lim, phase="run") for lim in TRACED)

# ------------------------------------------------------------------ what the grad and train modes found

GRAPH_ZERO_GRADIENT = Limitation(
    reason="known divergence: in a graph (traced, or built as TF1), a variable or input used only in a branch or "
           "loop body that did not run (or not at all) gets a zero gradient where eager gives None (the graph holds "
           "the untaken branch)",
    phase="compare", divergences=("extra_gradient",), outcome=None, versions=">=2.0",
    reference=f"{FOUND}, grad mode")

GRAPH_COND_NO_GRADIENT = Limitation(
    reason="TensorFlow registers no gradient for TruncateMod (tf.math.truncatemod, the emitter of fmod): eager "
           "refuses to differentiate through it where it runs ('gradient registry has no entry for: TruncateMod'), "
           "and the gradient of a graph's cond is built for both branches, so a graph (traced, or TF1's) refuses it in "
           "a branch eager did not take ('No gradient defined for operation ... (op type: TruncateMod)')",
    phase="run", modes=AUTOGRAD, errors=("LookupError",),
    message=r"No gradient defined for operation.*\(op type: TruncateMod\)", ops=("fmod",),
    reference="https://www.tensorflow.org/api_docs/python/tf/custom_gradient; found by conformance 2026-11-28 "
              "(tensorflow 2.21.0), clean campaigns (issue 20), cases bc282f3aa187 (train), 3bd4a5f68d8f (tf.session, "
              "grad)")

# ------------------------------------------------------------------ XLA

XLA_LOOP_SHAPES = Limitation(
    reason="XLA compiles a while loop only when its loop variables keep their shapes: a tensor grown across "
           "iterations (a shape invariant in tf.function) is refused",
    errors=("InvalidArgumentError",), message=r"Input and output shapes of loop body do not match",
    reference="https://www.tensorflow.org/xla/known_issues")
XLA_WHILE_GRADIENT = Limitation(
    reason="XLA differentiates a while loop only with maximum_iterations set; AutoGraph's `while` on a tensor "
           "condition has none (TensorFlow's documented requirement, named in the error)",
    phase="run", modes=AUTOGRAD, errors=("InvalidArgumentError",),
    message=r"XLA compilation requires a fixed tensor list size", versions=">=2.0",
    reference="https://www.tensorflow.org/api_docs/python/tf/while_loop")
XLA_COND_LOG_SOFTMAX_GRADIENT = Limitation(
    reason="known bug: XLA fails to differentiate `if tf.reduce_sum(x) > 0: return x` followed by "
           "`return tf.nn.log_softmax(x, axis=0)` ('0 is duplicated in the input'; axis=-1 works)",
    phase="run", modes=AUTOGRAD, errors=("InvalidArgumentError",), message=r"\d+ is duplicated in the input",
    outcome=None, versions=">=2.0", reference=f"{FOUND}, grad mode")
XLA_COND_GRADIENT_GRAPH = Limitation(
    reason="known bug: differentiating a tf.cond with an early return under jit_compile trips an internal "
           "assertion of cond_v2's gradient (`assert t.graph == cond_graph` in _resolve_grad_inputs), a bare "
           "AssertionError",
    phase="run", modes=AUTOGRAD, errors=("AssertionError",), message=r"\A\Z", outcome=None, versions=">=2.0",
    reference=f"{FOUND}, grad mode")

XLA_COND_SHAPE_GRADIENT = Limitation(
    reason="known bug: differentiating (a tape around the call) a jit_compile function with a dynamic batch and an "
           "`if` on a tensor (its value or its size) fails where the branch not taken holds a tensor op (tanh, "
           "batch_norm, a pooling...): XLA compiles that branch's gradient for a zero-size tensor ('Incompatible "
           "shapes: [0] vs. [5]', '[0,1] vs. [2,1]'); with static shapes, or without jit_compile, it is right",
    phase="run", modes=AUTOGRAD, errors=("InvalidArgumentError",),
    message=r"Incompatible shapes: \[0(,\d+)*\] vs\. \[\d+(,\d+)*\]", constructs=("dynamic_dim",), outcome=None,
    versions=">=2.21",
    reference="found by conformance 2026-11-28 (tensorflow 2.21.0); cases/standalone/tf_xla_cond_shape_gradient.py")

XLA_TENSOR_LIST_BOUNDARY = Limitation(
    reason="XLA cannot pass a TensorList (a TensorArray) between compiled and TensorFlow code ('TensorArray TF/XLA "
           "interconversion is not supported'): differentiating a jit_compile function whose forward keeps one for "
           "the backward (a while loop on a tensor, a scan) is refused",
    phase="run", modes=AUTOGRAD, errors=("UnimplementedError",),
    message=r"Support for TensorList crossing the XLA/TF boundary is not implemented", versions=">=2.0",
    reference="https://www.tensorflow.org/xla/known_issues")

XLA_NO_KERNEL = Limitation(
    reason="XLA has no kernel for some TensorFlow ops on the device (ResizeBicubic on XLA_CPU_JIT): jit_compile "
           "refuses a function that uses one",
    errors=("InvalidArgumentError",),
    message=r"Detected unsupported operations when trying to compile graph .* on XLA_\w+_JIT",
    reference="https://www.tensorflow.org/xla/known_issues")

XLA_RESOURCE_RETVAL = Limitation(
    reason="known bug, not minimised: a training step through a jit_compile function traced per call (no "
           "input_signature) fails with 'Resource _Retval node's input does not ...' (seen on tf.xla_per_call in "
           "train mode, CI's derandomised training property)",
    phase="run", modes=AUTOGRAD, errors=("UnimplementedError",), message=r"Resource _Retval node's input",
    outcome=None, versions=">=2.21", reference="found by conformance 2026-11-23 (tensorflow 2.21.0)")

XLA = RETRACED + (XLA_LOOP_SHAPES, replace(XLA_LOOP_SHAPES, phase="run"), XLA_NO_KERNEL,
                  replace(XLA_NO_KERNEL, phase="run"), GRAPH_ZERO_GRADIENT, XLA_WHILE_GRADIENT,
                  XLA_COND_LOG_SOFTMAX_GRADIENT, XLA_COND_GRADIENT_GRAPH, XLA_COND_SHAPE_GRADIENT,
                  XLA_TENSOR_LIST_BOUNDARY, XLA_RESOURCE_RETVAL, GRAPH_COND_NO_GRADIENT)
FUNCTION = RETRACED + (GRAPH_ZERO_GRADIENT, GRAPH_COND_NO_GRADIENT)
SAVED_MODEL = TRACED

# ------------------------------------------------------------------ tf2onnx on onnxruntime

FREEZE_DUPLICATE_FUNCTION = Limitation(
    reason="known bug: freezing variables (convert_variables_to_constants_v2, lower_control_flow=False, as tf2onnx "
           "does) registers a rewritten while-loop condition under a fixed name, so a second model with such a loop "
           "in the same process fails with 'duplicate function'",
    errors=("InvalidArgumentError",),
    message=r"Attempting to add a duplicate function with name: while_cond_function(_\d+)? where the previous and "
            r"current definitions differ",
    outcome=None, versions=">=2.21", reference=FOUND)
ONNX_COND_REPEATED_OUTPUT = Limitation(
    reason="known bug (tf2onnx): a tf.cond branch that returns the same tensor twice, e.g. an early `return y, y` "
           "under a tensor condition, fails with 'Cannot find node with output cond:0'",
    errors=("ValueError",), message=r"make_sure failure: Cannot find node with output '[^']*cond[^']*:\d+'",
    outcome=None, versions=">=1.17", package="tf2onnx", reference=FOUND_TF2ONNX)
ONNX_ERFC = Limitation(
    reason="tf2onnx has no conversion for TensorFlow's Erfc (tf.nn.gelu(approximate=False) computes it): it logs "
           "'Tensorflow op [Erfc] is not supported', keeps the op, and onnxruntime refuses the model",
    errors=("InvalidGraph",), message=r"No Op registered for Erfc", versions=">=1.17", package="tf2onnx",
    reference="https://github.com/onnx/tensorflow-onnx/blob/main/support_status.md")
ONNX_LOOP_COUNTER_SHAPE = Limitation(
    reason="known bug (tf2onnx): when a branch of a tf.cond in a while body computes something unused from a "
           "tensor defined outside the loop (an `else` branch, or the code after a `continue`), the Loop body's "
           "iteration-count input gets no shape and onnxruntime refuses to run it",
    phase="run", errors=("Fail",), message=r"Loop subgraph input 0 has unknown shape", outcome=None,
    versions=">=1.17", package="tf2onnx", reference=FOUND_TF2ONNX)

ONNX_UNCONVERTED_OP = Limitation(
    reason="tf2onnx has no handler for some TensorFlow operators at the opset (TruncateMod; BitwiseAnd on int8 before "
           "opset 18) and leaves them in the graph as they are (it logs them as unsupported); onnxruntime then refuses "
           "the model ('No Op registered for ... with domain_version of N')",
    errors=("InvalidGraph",), message=r"No Op registered for \w+ with domain_version of \d+", versions=">=1.17",
    package="tf2onnx", reference="https://github.com/onnx/tensorflow-onnx/blob/main/support_status.md")
OPENVINO_VARIABLE_NOT_FOUND = Limitation(
    reason="known bug: OpenVINO's TensorFlow reader fails on the SavedModel of some Keras 3 models (Conv2D, pooling "
           "and Dense; MultiHeadAttention) that tf.saved_model.load runs: 'Cannot find requested variable' for a "
           "VarHandleOp (cause not isolated: a Keras LSTM model and tf.Modules convert)",
    errors=("OpConversionFailure",), message=r"VarHandleOp(?s:.*)Cannot find requested variable", outcome=None,
    versions=">=2026.4.1", package="openvino",
    reference="found by conformance 2026-11-23 (openvino 2026.4.1); "
              "cases/tf-openvino-keras-conv-variable-not-found.json")
ONNX_DICT_OUTPUT_LIST = Limitation(
    reason="known bug: tf2onnx's from_function takes every value of a dict output for a tensor (`v.name` in "
           "tensor_names_from_structed), so a dict output holding a list fails before conversion",
    errors=("AttributeError",), message=r"'list' object has no attribute 'name'", outcome=None, versions=">=1.17",
    package="tf2onnx",
    reference="found by conformance 2026-11-23 (tf2onnx 1.17.0); cases/tf-onnx-dict-output-holding-a-list.json")
ONNX_COND_CONV_CHANNELS = Limitation(
    reason="known bug (tf2onnx, not minimised yet): a convolution inside a tf.cond branch is written with its input "
           "in the wrong layout, so onnxruntime refuses to run the If node ('Input channels C is not equal to kernel "
           "channels * group'); seen in CI's derandomised tf.onnx parity draws",
    phase="run", errors=("Fail",), message=r"Input channels C is not equal to kernel channels \* group",
    outcome=None, versions=">=1.17", package="tf2onnx",
    reference="found by conformance 2026-11-27 (tf2onnx 1.17.0, onnxruntime 1.31.1)")
FOUND_CAMPAIGN = "found by conformance 2026-11-28 (tensorflow 2.21.0, tf2onnx 1.17.0, onnxruntime 1.31.1)"
ONNX_SCAN_UNTYPED = Limitation(
    reason="known bug (tf2onnx): the while loop tf.scan builds (the emitters of cummax and cummin scan tf.maximum, "
           "tf.minimum) fails to convert ('While loop couldn't find scan output index for nodes', logged, not "
           "raised): tf2onnx keeps its TensorList ops and writes a tensor of undefined type, so onnxruntime refuses "
           "to load the model ('Invalid tensor data type 0')",
    errors=("InvalidArgument",), ops=("cummax", "cummin"), message=r"Invalid tensor data type 0", outcome=None,
    versions=">=1.17", package="tf2onnx",
    reference=f"{FOUND_CAMPAIGN}; cases/tf-onnx-scan-maximum-invalid-model.json")
ONNX_RESHAPE_ZERO_DIM = Limitation(
    reason="known bug (tf2onnx): tf.reshape to a shape with a 0 (an empty tensor) is written as an ONNX Reshape "
           "without allowzero=1, where a 0 means 'copy the input's dim': past the input's rank onnxruntime refuses "
           "the model ('Invalid position of 0'), else the copied dim gives another shape and a later broadcast_to "
           "(Expand) is refused ('Incompatible dimensions')",
    errors=("Fail",), ops=("reshape_empty",),
    message=r"Op \(Reshape\) \[ShapeInferenceError\] Invalid position of 0|"
            r"Op \(Expand\) \[ShapeInferenceError\] Incompatible dimensions",
    outcome=None, versions=">=1.17", package="tf2onnx",
    reference="https://github.com/onnx/tensorflow-onnx/issues/2178; cases/standalone/tf_onnx_reshape_zero_dim.py")
ONNX_INT_MEAN = Limitation(
    reason="known bug (tf2onnx): tf.reduce_mean of int8 is written as an ONNX ReduceMean on int8, a type ReduceMean "
           "does not take (no cast around it), so onnxruntime refuses the model ('Type tensor(int8) of input "
           "parameter ... of operator (ReduceMean) ... is invalid')",
    errors=("InvalidGraph",), ops=("int_mean",),
    message=r"Type 'tensor\(u?int(8|16)\)' of input parameter \(\S+\) of operator \(ReduceMean\)",
    outcome=None, versions=">=1.17", package="tf2onnx",
    reference=f"{FOUND_CAMPAIGN}; cases/tf-onnx-int8-reduce-mean.json")
ONNX_INT8_POW = Limitation(
    reason="known bug (tf2onnx): x ** 2 of an int8 tensor (tf.math.pow) is written as an ONNX Pow on int8, a type "
           "Pow does not take (int32, int64 and floats; no cast around it), so onnxruntime refuses the model ('Type "
           "tensor(int8) of input parameter ... of operator (Pow) ... is invalid')",
    errors=("InvalidGraph",), ops=("int_pow",),
    message=r"Type 'tensor\(u?int(8|16)\)' of input parameter \(\S+\) of operator \(Pow\)",
    outcome=None, versions=">=1.17", package="tf2onnx",
    reference=f"{FOUND_CAMPAIGN}, clean campaign seed 9 (issue 20), case 304d417f06f3; cases/tf-onnx-int8-pow.json")
ONNX_INT_FLOOR_DIV = Limitation(
    reason="known bug (tf2onnx): integer FloorDiv and FloorMod (`//`, tf.math.floormod) are written as ONNX Div, "
           "which truncates toward zero: with operands of opposite signs the quotient is one too high and the "
           "remainder has the wrong sign (floats are floored and right)",
    phase="compare", divergences=("value",), ops=("floor_div", "ceil_div", "remainder"), outcome=None,
    versions=">=1.17", package="tf2onnx",
    reference="https://github.com/onnx/tensorflow-onnx/issues/2174; cases/tf2onnx-ceildiv-int32.json, "
              "cases/tf-onnx-floormod-negative-int.json")
ONNX_SORT_NAN = Limitation(
    reason="known divergence: tf.sort (written by tf2onnx as TopK) of a tensor holding NaN: TensorFlow's top_k "
           "places NaN by its position (tensorflow/tensorflow#117287), ONNX leaves TopK's NaN order undefined "
           "(onnx/onnx#4716) and onnxruntime places it elsewhere, so the sorted values differ where a NaN is",
    phase="compare", divergences=("nonfinite",), ops=("sort",), outcome=None, versions=">=1.17", package="tf2onnx",
    reference="https://github.com/tensorflow/tensorflow/issues/117287; https://github.com/onnx/onnx/issues/4716; "
              "cases/standalone/tf_onnx_sort_nan.py")
ONNX_FLOAT_TRUNCATE_DIV = Limitation(
    reason="known bug (tf2onnx): tf.truncatediv of floats is written as a plain ONNX Div, without rounding the "
           "quotient toward zero (integers truncate in Div and are right): 0.5 / 2 gives 0.25 where TensorFlow "
           "gives 0",
    phase="compare", divergences=("value",), ops=("trunc_div",), outcome=None, versions=">=1.17", package="tf2onnx",
    reference=f"{FOUND_CAMPAIGN}; cases/tf-onnx-float-truncatediv.json")
FREEZE_ASSIGN_IN_COND = Limitation(
    reason="known bug: freezing variables (convert_variables_to_constants_v2, as tf2onnx does) fails where a "
           "variable is written inside a tf.cond branch (batch_norm's running statistics in train(), a state "
           "update under a tensor `if`): the branch's AssignVariableOp gets the frozen float value where it needs "
           "the variable ('input resource[0] expected type resource != float')",
    errors=("InvalidArgumentError",), message=r"input resource\[\d+\] expected type resource != float",
    outcome=None, versions=">=2.21",
    reference="https://github.com/tensorflow/tensorflow/issues/91313; cases/tf-onnx-assign-in-cond-frozen.json")
ONNX = TRACED + (ONNX_DICT_OUTPUT_LIST, ONNX_ERFC, FREEZE_DUPLICATE_FUNCTION, ONNX_COND_REPEATED_OUTPUT,
                 ONNX_LOOP_COUNTER_SHAPE, ONNX_UNCONVERTED_OP, ONNX_COND_CONV_CHANNELS, ONNX_SCAN_UNTYPED,
                 ONNX_RESHAPE_ZERO_DIM, ONNX_INT_MEAN, ONNX_INT8_POW, ONNX_FLOAT_TRUNCATE_DIV, ONNX_INT_FLOOR_DIV,
                 ONNX_SORT_NAN, FREEZE_ASSIGN_IN_COND)

# ------------------------------------------------------------------ the TF1 graph in a session

NO_GRAPH_BUILDER = Limitation(
    reason="tf.session runs the model's TF1 graph, which the model's module builds in build_graph(model, *inputs, "
           "**kwargs): generated models have one, a model of your own needs one written beside it",
    errors=("NoGraphBuilder",))
GRAPH_RETURN_IN_LOOP = Limitation(
    reason="the TF1 graph conformance writes does not express a return inside a loop that runs as a tf.while_loop "
           "(a while on a tensor, or a for with a break, continue or return under a tensor condition); AutoGraph "
           "does, with flags and an undefined return value",
    errors=("GraphNotExpressed",))
TF1_COND_X_PLUS_X = Limitation(
    reason="known bug: in a TF1 graph (TF1 control flow, Switch/Merge), grappler's arithmetic optimizer, on by "
           "default in a session, breaks a tf.cond branch that adds a tensor from outside the branch to itself "
           "(`lambda: x + x`, also tf.add_n([x, x])): where that branch is taken the cond's output is dead and the "
           "session fails with 'Retval[0] does not have value' (control flow v2, or "
           "rewrite_options.arithmetic_optimization OFF, avoids it)",
    phase="run", errors=("InvalidArgumentError",), message=r"Retval\[\d+\] does not have value", outcome=None,
    versions=">=2.21", reference=FOUND)

SESSION = (NO_GRAPH_BUILDER, GRAPH_RETURN_IN_LOOP, TF1_COND_X_PLUS_X, GRAPH_ZERO_GRADIENT, GRAPH_COND_NO_GRADIENT,
           NUMPY_TRIL_UNKNOWN_DIMS)
