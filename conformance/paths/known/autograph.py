"""``tf.function`` and AutoGraph (and everything that traces it: XLA, SavedModel, tf2onnx, TFLite, OpenVINO): what they
refuse and get wrong.
"""

from conformance.paths.known.factories import Failure, documented, known_bug, refuses_with

#: The paths that call the traced tf.function in this process.
TRACING_PATHS = ('tf.function', 'tf.xla', 'tf.function_per_call', 'tf.xla_per_call', 'tf.function_reduce_retracing')
#: The paths that trace the model to save or convert it.
EXPORT_PATHS = ('tf.saved_model', 'tf.onnx', 'tf.tflite', 'tf.tflite_select_tf_ops', 'tf.openvino', 'tf.onnx_openvino')

RECORDS = (
    refuses_with(
        "autograph.shape_none",
        reason=("A Python comparison of x.shape[i] for a dim that is None in the input_signature raises while "
                "tracing (the static shape is unknown)"),
        phases=('convert', 'run'),
        errors=('TypeError',),
        message="not supported between instances of '(NoneType' and 'int|int' and 'NoneType)'",
        paths=TRACING_PATHS,
        reference="https://www.tensorflow.org/api_docs/python/tf/shape",
        details=("a Python comparison of x.shape[i] for the dim that is None in the input_signature: the static "
                 "shape is unknown while tracing, so it raises (TensorFlow documents tf.shape(x) for dynamic dims, "
                 "which generated models use; a model of your own may not). Provenance: "
                 "https://www.tensorflow.org/api_docs/python/tf/shape."),
        example=Failure('convert',
                        error_types=('TypeError',),
                        message="not supported between instances of 'NoneType' and 'int'"),
    ),
    refuses_with(
        "autograph.shape_none_at_export",
        reason=("A Python comparison of x.shape[i] for a dim that is None in the input_signature raises while "
                "tracing for export"),
        errors=('TypeError',),
        message="not supported between instances of '(NoneType' and 'int|int' and 'NoneType)'",
        paths=EXPORT_PATHS,
        reference="https://www.tensorflow.org/api_docs/python/tf/shape",
        details=("a Python comparison of x.shape[i] for the dim that is None in the input_signature: the static "
                 "shape is unknown while tracing, so it raises (TensorFlow documents tf.shape(x) for dynamic dims, "
                 "which generated models use; a model of your own may not). Provenance: "
                 "https://www.tensorflow.org/api_docs/python/tf/shape."),
        example=Failure('convert',
                        error_types=('TypeError',),
                        message="not supported between instances of 'NoneType' and 'int'"),
    ),
    refuses_with(
        "autograph.python_loop_break",
        reason=("AutoGraph keeps a loop over a Python range a Python loop, and refuses a break or return in it that "
                "depends on a tensor"),
        phases=('convert', 'run'),
        errors=('NotImplementedError',),
        message="break and return statements which depend on a TF condition are not supported in Python for loops",
        paths=TRACING_PATHS,
        reference=("https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/autograph/g3doc/reference/limitations.md#consistency-of-control-flow-types"),
        details=("AutoGraph keeps a loop over a Python range a Python loop, and refuses a break or return in it "
                 "that depends on a tensor. Provenance: "
                 "https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/autograph/g3doc/reference/limitations.md#consistency-of-control-flow-types."),
        example=Failure('run',
                        error_types=('NotImplementedError', 'RuntimeError', 'Exception'),
                        message=("in user code:\n\n    File \"/tmp/conformance-0/tf/f0808f734605/model.py\", line"
                                 " 31, in __call__  *\n        for i0 in range(2):\n\n    NotImplementedError: br"
                                 "eak and return statements which depend on a TF condition are not supported in P"
                                 "ython for loops. Did you intend to make it a TF loop?\n    See https://github.c"
                                 "om/tensorflow/tensorflow/blob/master/tensorflow/python/autograph/g3doc/referenc"
                                 "e/limitations.md#consistency-of-control-flow-types for more info.\n"),
                        constructs=('break', 'dynamic_dim', 'for_const', 'if_kwarg', 'if_tensor', 'kwargs'),
                        ops=('neg',)),
    ),
    refuses_with(
        "autograph.python_loop_break_at_export",
        reason=("AutoGraph keeps a loop over a Python range a Python loop, and refuses a tensor-dependent break or "
                "return in it at export"),
        errors=('NotImplementedError',),
        message="break and return statements which depend on a TF condition are not supported in Python for loops",
        paths=EXPORT_PATHS,
        reference=("https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/autograph/g3doc/reference/limitations.md#consistency-of-control-flow-types"),
        details=("AutoGraph keeps a loop over a Python range a Python loop, and refuses a break or return in it "
                 "that depends on a tensor. Provenance: "
                 "https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/autograph/g3doc/reference/limitations.md#consistency-of-control-flow-types."),
        example=Failure('convert',
                        error_types=('NotImplementedError',),
                        message=("break and return statements which depend on a TF condition are not supported in"
                                 " Python for loops")),
    ),
    refuses_with(
        "autograph.loop_shape_invariant",
        reason=("A tensor that changes shape from one iteration of a while loop on a tensor condition to the next "
                "is refused without shape_invariants"),
        phases=('convert', 'run'),
        errors=('ValueError',),
        message=r"has shape \(.*\) before the loop, but shape \(.*\) after one iteration",
        paths=TRACING_PATHS,
        reference="https://www.tensorflow.org/api_docs/python/tf/autograph/experimental/set_loop_options",
        details=("a tensor that changes shape from one iteration of a while loop on a tensor condition to the next "
                 "(a concat that grows it) needs shape invariants (tf.autograph.experimental.set_loop_options, "
                 "which generated models declare; a model of your own may not); AutoGraph refuses it without. "
                 "Provenance: https://www.tensorflow.org/api_docs/python/tf/autograph/experimental/set_loop_options."),
        example=Failure('convert',
                        error_types=('ValueError',),
                        message="has shape () before the loop, but shape () after one iteration"),
    ),
    refuses_with(
        "autograph.loop_shape_invariant_at_export",
        reason=("A tensor that changes shape across iterations of a while loop on a tensor condition is refused at "
                "export without shape_invariants"),
        errors=('ValueError',),
        message=r"has shape \(.*\) before the loop, but shape \(.*\) after one iteration",
        paths=EXPORT_PATHS,
        reference="https://www.tensorflow.org/api_docs/python/tf/autograph/experimental/set_loop_options",
        details=("a tensor that changes shape from one iteration of a while loop on a tensor condition to the next "
                 "(a concat that grows it) needs shape invariants (tf.autograph.experimental.set_loop_options, "
                 "which generated models declare; a model of your own may not); AutoGraph refuses it without. "
                 "Provenance: https://www.tensorflow.org/api_docs/python/tf/autograph/experimental/set_loop_options."),
        example=Failure('convert',
                        error_types=('ValueError',),
                        message="has shape () before the loop, but shape () after one iteration"),
    ),
    refuses_with(
        "autograph.numpy_tril_unknown_dims",
        reason="tf.experimental.numpy.tril and triu refuse a tensor whose last two dims are unknown while tracing",
        phases=('convert', 'run'),
        errors=('ValueError',),
        message="the last two dimensions of the input array need to be known",
        paths=TRACING_PATHS,
        reference=("https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/ops/numpy_ops/np_array_ops.py"),
        details=("tf.experimental.numpy.tril and triu (the emitters of tril and triu) refuse a tensor whose last "
                 "two dims are unknown while tracing ('Currently, the last two dimensions of the input array need "
                 "to be known'): a dynamic batch dim there, or a retrace with relaxed shapes (reduce_retracing), or "
                 "a TF1 placeholder. Provenance: "
                 "https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/ops/numpy_ops/np_array_ops.py "
                 "(tril, triu)."),
        example=Failure('convert',
                        error_types=('ValueError',),
                        message="the last two dimensions of the input array need to be known"),
    ),
    refuses_with(
        "autograph.numpy_tril_unknown_dims_at_export",
        reason=("tf.experimental.numpy.tril and triu refuse a tensor whose last two dims are unknown while tracing "
                "for export"),
        errors=('ValueError',),
        message="the last two dimensions of the input array need to be known",
        paths=('tf.saved_model', 'tf.onnx', 'tf.session', 'tf.tflite', 'tf.tflite_select_tf_ops', 'tf.openvino',
               'tf.onnx_openvino'),
        reference=("https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/ops/numpy_ops/np_array_ops.py"),
        details=("tf.experimental.numpy.tril and triu (the emitters of tril and triu) refuse a tensor whose last "
                 "two dims are unknown while tracing ('Currently, the last two dimensions of the input array need "
                 "to be known'): a dynamic batch dim there, or a retrace with relaxed shapes (reduce_retracing), or "
                 "a TF1 placeholder. Provenance: "
                 "https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/ops/numpy_ops/np_array_ops.py "
                 "(tril, triu)."),
        example=Failure('convert',
                        error_types=('ValueError',),
                        message="the last two dimensions of the input array need to be known"),
    ),
    refuses_with(
        "autograph.signature_tensors_only",
        reason=("An input_signature holds tf.TensorSpec objects only, so a None passed positionally (an optional "
                "input) is refused"),
        phases=('convert', 'run'),
        errors=('TypeError',),
        message="input_signature must be a possibly nested sequence of TensorSpec objects",
        paths=TRACING_PATHS,
        reference="https://www.tensorflow.org/api_docs/python/tf/function",
        details=("an input_signature holds tf.TensorSpec objects only: a None passed positionally (an optional "
                 "input left out) is refused in it (bind it before tracing, e.g. with a wrapper, as TensorFlow's "
                 "guide does for non-tensor arguments). Provenance: "
                 "https://www.tensorflow.org/api_docs/python/tf/function (input_signature)."),
        example=Failure('convert',
                        error_types=('TypeError',),
                        message="input_signature must be a possibly nested sequence of TensorSpec objects"),
    ),
    refuses_with(
        "autograph.signature_tensors_only_at_export",
        reason=("An input_signature holds tf.TensorSpec objects only, so exporting a function with a None "
                "positional input is refused"),
        errors=('TypeError',),
        message="input_signature must be a possibly nested sequence of TensorSpec objects",
        paths=EXPORT_PATHS,
        reference="https://www.tensorflow.org/api_docs/python/tf/function",
        details=("an input_signature holds tf.TensorSpec objects only: a None passed positionally (an optional "
                 "input left out) is refused in it (bind it before tracing, e.g. with a wrapper, as TensorFlow's "
                 "guide does for non-tensor arguments). Provenance: "
                 "https://www.tensorflow.org/api_docs/python/tf/function (input_signature)."),
        example=Failure('convert',
                        error_types=('TypeError',),
                        message="input_signature must be a possibly nested sequence of TensorSpec objects"),
    ),
    known_bug(
        "autograph.graph_zero_gradient",
        reason=("In a graph (traced, or built as TF1), a variable or input used only in a branch or loop body that "
                "did not run"),
        phases=('compare',),
        divergences=('extra_gradient',),
        versions=">=2.0",
        paths=('tf.function', 'tf.xla', 'tf.function_per_call', 'tf.xla_per_call', 'tf.function_reduce_retracing',
               'tf.session'),
        found="2026-11-21 (tensorflow 2.21.0)",
        details=("known divergence: in a graph (traced, or built as TF1), a variable or input used only in a branch "
                 "or loop body that did not run (or not at all) gets a zero gradient where eager gives None (the "
                 "graph holds the untaken branch). Provenance: found by conformance 2026-11-21 (tensorflow 2.21.0), "
                 "grad mode."),
        example=Failure('compare', divergences=(('extra_gradient', '[0]'),)),
    ),
    refuses_with(
        "autograph.graph_cond_no_gradient",
        reason="TensorFlow registers no gradient for TruncateMod (tf.math.truncatemod, the emitter of fmod)",
        phases=('run',),
        errors=('LookupError',),
        message=r"No gradient defined for operation.*\(op type: TruncateMod\)",
        modes=frozenset({'grad', 'train'}),
        ops=('fmod',),
        paths=('tf.function', 'tf.xla', 'tf.function_per_call', 'tf.xla_per_call', 'tf.function_reduce_retracing',
               'tf.session'),
        reference="https://www.tensorflow.org/api_docs/python/tf/custom_gradient",
        found="2026-11-28 (tensorflow 2.21.0)",
        details=("TensorFlow registers no gradient for TruncateMod (tf.math.truncatemod, the emitter of fmod): "
                 "eager refuses to differentiate through it where it runs ('gradient registry has no entry for: "
                 "TruncateMod'), and the gradient of a graph's cond is built for both branches, so a graph (traced, "
                 "or TF1's) refuses it in a branch eager did not take ('No gradient defined for operation ... (op "
                 "type: TruncateMod)'). Provenance: https://www.tensorflow.org/api_docs/python/tf/custom_gradient; "
                 "found by conformance 2026-11-28 (tensorflow 2.21.0), clean campaigns, cases bc282f3aa187 (train), "
                 "3bd4a5f68d8f (tf.session, grad)."),
        example=Failure('run',
                        mode="grad",
                        error_types=('LookupError',),
                        message="No gradient defined for operation(op type: TruncateMod)",
                        ops=('fmod',)),
    ),
    refuses_with(
        "autograph.branch_dtype_differs",
        reason=("AutoGraph needs a variable to keep one dtype across the branches of a tf.cond: one cast to another "
                "dtype in one branch is refused"),
        errors=('TypeError',),
        message=r"has dtype \w+ in the main branch, but dtype \w+ in the else branch",
        paths=TRACING_PATHS + EXPORT_PATHS,
        reference="https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/autograph/g3doc/reference/control_flow.md",
        found="2026-11-29 (tensorflow 2.21.0)",
        details=("AutoGraph converts an `if` on a tensor to tf.cond, whose branches must give each variable one "
                 "dtype (and structure): `if tf.reduce_sum(v) > 0: v = tf.cast(v, tf.float64)` is refused while "
                 "tracing ('v' has dtype float64 in the main branch, but dtype float32 in the else branch); eager "
                 "Python runs it. Seen on the generated programs whose variable changes dtype in one branch "
                 "(the Python-value scenes). Provenance: AutoGraph's control-flow reference, "
                 "https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/autograph/g3doc/reference/"
                 "control_flow.md."),
        example=Failure('convert', error_types=('TypeError',),
                        message="in user code: TypeError: 'v0' has dtype float64 in the main branch, but dtype float32 "
                                "in the else branch"),
    ),
    refuses_with(
        "autograph.loop_dtype_changes",
        reason=("AutoGraph needs a variable of a while loop on a tensor to keep one dtype across iterations: one "
                "cast to another dtype in the body is refused"),
        errors=('TypeError',),
        message=r"has dtype \w+ before the loop, but dtype \w+ after one iteration",
        paths=TRACING_PATHS + EXPORT_PATHS,
        reference="https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/autograph/g3doc/reference/control_flow.md",
        found="2026-11-29 (tensorflow 2.21.0)",
        details=("AutoGraph converts a `while` on a tensor to tf.while_loop, whose loop variables must be 'of "
                 "consistent dtype at the beginning and the end of the loop': `while tf.reduce_mean(v) < 0.25: v = "
                 "tf.cast(f(v), tf.float64)` on a float32 v is refused while tracing ('v' has dtype float32 before "
                 "the loop, but dtype float64 after one iteration); eager Python runs it. Seen on the generated "
                 "programs whose variable changes dtype in a tensor-conditioned loop. Provenance: AutoGraph's "
                 "control-flow reference (while statements), "
                 "https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/"
                 "autograph/g3doc/reference/control_flow.md."),
        example=Failure('convert', error_types=('TypeError',),
                        message="in user code: TypeError: 'v6' has dtype float32 before the loop, but dtype float64 "
                                "after one iteration"),
    ),
    refuses_with(
        "autograph.undefined_or_none",
        reason=("TensorFlow control flow has no None or undefined values: a variable None or unset on one path of "
                "a tf.cond or tf.while_loop is refused"),
        phases=('convert', 'run'),
        errors=('ValueError', 'InvalidArgumentError'),
        message=(r"is None at the end of the (?:main|else) branch|is None at the end of the iteration|is not allowed "
                 r"to be None before the loop|must be defined before the loop|must also be initialized in the "
                 r"(?:main|else) branch|loop must iterate at least once to initialize"),
        paths=TRACING_PATHS + EXPORT_PATHS,
        reference="https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/autograph/g3doc/reference/limitations.md#undefined-and-none-values-in-tensorflow",
        found="2026-11-29 (tensorflow 2.21.0)",
        details=("'TensorFlow does not support undefined or None values': a variable used after an `if` or a "
                 "`while` on a tensor must be defined, and not None, on every path (`y = None; if "
                 "tf.reduce_max(x) < 0.5: y = tf.tanh(x)` then a use of y is refused: 'y' is None at the end of "
                 "the else branch; a key first set inside the loop: 'd['a']' must be defined before the loop, or, "
                 "where AutoGraph cannot tell while tracing, a graph assertion when the call runs: 'loop must "
                 "iterate at least once to initialize d['a']'); "
                 "eager Python runs both. Provenance: AutoGraph's limitations, "
                 "https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/"
                 "autograph/g3doc/reference/limitations.md#undefined-and-none-values-in-tensorflow."),
        example=Failure('convert', error_types=('ValueError',),
                        message="in user code: ValueError: 'v9' is None at the end of the else branch."),
    ),
    refuses_with(
        "autograph.collection_grown_in_loop",
        reason=("A Python list or dict changed inside a TensorFlow loop holds tensors of the loop's graph: read "
                "after it, AutoGraph refuses them as an illegal capture"),
        errors=('InaccessibleTensorError',),
        message="is out of scope and cannot be used here",
        constructs=('dict_value', 'list_value'),
        paths=TRACING_PATHS + EXPORT_PATHS,
        reference="https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/autograph/g3doc/reference/limitations.md#python-collections-in-tensorflow-control-flow",
        found="2026-11-29 (tensorflow 2.21.0)",
        details=("'Modifying Python collections in TensorFlow control flow is not allowed': a dict given new keys "
                 "(or a list appended to) in a loop whose trip count is a tensor (`for i in range(n)` with n from "
                 "the data becomes a tf.while_loop) keeps tensors of the loop body, and reading them after the loop "
                 "raises InaccessibleTensorError ('is out of scope and cannot be used here'), where eager Python "
                 "runs it; AutoGraph's answer is tf.TensorArray, which generated models use for lists but a dict "
                 "with keys made in the loop has no counterpart. Provenance: AutoGraph's limitations, "
                 "https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/"
                 "autograph/g3doc/reference/limitations.md#python-collections-in-tensorflow-control-flow."),
        example=Failure('convert', error_types=('InaccessibleTensorError',),
                        message="in user code: InaccessibleTensorError: <tf.Tensor 'while/Tanh:0' shape=(None, 5) "
                                "dtype=float32> is out of scope and cannot be used here.",
                        constructs=('dict_value',)),
    ),
    refuses_with(
        "autograph.collection_changes_structure_in_loop",
        reason=("A Python list that grows in a loop on a tensor changes the loop's structure, which AutoGraph "
                "refuses: growing collections need tf.TensorArray"),
        errors=('TypeError',),
        message="does not have the same nested structure after one iteration",
        constructs=('dict_value', 'list_value'),
        paths=TRACING_PATHS + EXPORT_PATHS,
        reference="https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/autograph/g3doc/reference/limitations.md#python-collections-in-tensorflow-control-flow",
        found="2026-11-29 (tensorflow 2.21.0)",
        details=("'Python collections are okay to use when they represent a fixed structure (that is, lists don't "
                 "change length, dicts don't add or remove keys)': a Python list appended to (or extended with "
                 "`+=`) in a `while` on a tensor or a `for` over range(n) with n from the data is refused while "
                 "tracing ('l' does not have the same nested structure after one iteration), where eager Python "
                 "runs it. Generated models write a list that is only appended to and stacked as a tf.TensorArray; "
                 "one also extended, or only measured with len(), stays a Python list. Provenance: AutoGraph's "
                 "limitations, https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/"
                 "autograph/g3doc/reference/limitations.md#python-collections-in-tensorflow-control-flow."),
        example=Failure('convert', error_types=('TypeError',),
                        message="in user code: TypeError: 'v2' does not have the same nested structure after one "
                                "iteration.",
                        constructs=('list_value', 'while_tensor')),
    ),
    documented(
        "autograph.list_method_traced_once",
        reason=("A Python list changed by a method (pop) inside an if or loop on a tensor changes once, when "
                "AutoGraph traces the body, whatever the data decides"),
        phases=('compare',),
        divergences=('structure',),
        constructs=('list_value',),
        paths=TRACING_PATHS + EXPORT_PATHS,
        reference="https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/autograph/g3doc/reference/limitations.md#indirect-modifications-and-hidden-side-effects-in-tensorflow-control-flow",
        found="2026-11-29 (tensorflow 2.21.0)",
        details=("AutoGraph wires only the variables a statement assigns through tf.cond and tf.while_loop; a "
                 "list changed by a method call ('Modifications of Python objects are not detected in methods', "
                 "'Only TensorFlow objects should be used for side effects') is changed by the Python call while "
                 "the body is traced, once: `l = [x]; for i in range(n): y = l.pop()` with n from a tensor returns "
                 "an empty list where eager, on n = 0, returns [x], silently. Appending in the same place is "
                 "refused instead (`autograph.collection_changes_structure_in_loop`). Provenance: AutoGraph's "
                 "limitations, https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/autograph/"
                 "g3doc/reference/limitations.md#indirect-modifications-and-hidden-side-effects-in-tensorflow-"
                 "control-flow; cases/paddle-to-static-tensor-array-output.json (its tf paths)."),
        example=Failure('compare', divergences=(('structure', "['out1']"),), constructs=('for_data', 'list_value')),
    ),
)
