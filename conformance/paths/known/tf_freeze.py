"""TensorFlow's freezing of variables into constants (``convert_variables_to_constants_v2``, run by tf2onnx and the
TFLite converter): what it gets wrong.
"""

from conformance.paths.known.factories import Failure, known_bug

RECORDS = (
    known_bug(
        "tf_freeze.freeze_duplicate_function",
        reason=("Freezing variables registers a rewritten while-loop condition under a fixed name, so a second such "
                "model in the process fails"),
        errors=('InvalidArgumentError',),
        message=(r"Attempting to add a duplicate function with name: while_cond_function(_\d+)? where the previous "
                 "and current definitions differ"),
        versions=">=2.21",
        found="2026-11-21 (tensorflow 2.21.0)",
        details=("known bug: freezing variables (convert_variables_to_constants_v2, lower_control_flow=False, as "
                 "tf2onnx does) registers a rewritten while-loop condition under a fixed name, so a second model "
                 "with such a loop in the same process fails with 'duplicate function'. Provenance: found by "
                 "conformance 2026-11-21 (tensorflow 2.21.0)."),
        example=Failure('convert',
                        error_types=('InvalidArgumentError',),
                        message=("Attempting to add a duplicate function with name: while_cond_function where the"
                                 " previous and current definitions differ")),
    ),
    known_bug(
        "tf_freeze.freeze_assign_in_cond",
        reason=("Freezing variables (convert_variables_to_constants_v2, as tf2onnx and TFLite do) fails where a "
                "variable is written inside a tf.cond branch"),
        errors=('InvalidArgumentError', 'ConverterError', 'ValueError'),
        message=(r"input resource\[\d+\] expected type resource != float|Input 0 of node AssignVariableOp was passed "
                 r"float from ReadVariableOp/resource:0 incompatible with expected resource"),
        versions=">=2.21",
        paths=('tf.onnx', 'tf.onnx_openvino', 'tf.tflite'),
        issue="https://github.com/tensorflow/tensorflow/issues/91313",
        case="tf-onnx-assign-in-cond-frozen.json",
        details=("known bug: freezing variables (convert_variables_to_constants_v2, as tf2onnx does) fails where a "
                 "variable is written inside a tf.cond branch (batch_norm's running statistics in train(), a state "
                 "update under a tensor `if`): the branch's AssignVariableOp gets the frozen float value where it "
                 "needs the variable ('input resource[0] expected type resource != float'; TFLite's converter, which "
                 "freezes a function that is not its signature, says so too, or 'Input 0 of node AssignVariableOp "
                 "was passed float ... incompatible with expected resource'). Provenance: "
                 "https://github.com/tensorflow/tensorflow/issues/91313; cases/tf-onnx-assign-in-cond-frozen.json."),
        example=Failure('convert',
                        error_types=('InvalidArgumentError',),
                        message="input resource[1] expected type resource != float"),
    ),
)
