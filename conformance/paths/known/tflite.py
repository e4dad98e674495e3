"""TensorFlow Lite (LiteRT): its converter, its kernels, its Python interpreter: what they refuse and get wrong.
"""

from conformance.paths.known.factories import Failure, known_bug, refuses_with, writes_wrong

RECORDS = (
    refuses_with(
        "tflite.frozen_variable_update",
        reason=("TFLiteConverter.from_concrete_functions freezes the model's variables into constants, so a variable "
                "that forward updates (assign_add) is refused"),
        errors=('ValueError',),
        message=(r"Input 0 of node AssignAddVariableOp was passed float from AssignAddVariableOp/resource:0 "
                 r"incompatible with expected resource"),
        constructs=('state_counter', 'state_running', 'state_cache'),
        paths=('tf.tflite', 'tf.tflite_select_tf_ops'),
        reference="https://www.tensorflow.org/api_docs/python/tf/lite/TFLiteConverter#from_concrete_functions",
        found="2026-11-29 (tensorflow 2.21.0)",
        details=("TFLiteConverter.from_concrete_functions(functions, trackable_obj) freezes the variables the "
                 "function reads into constants (as tf2onnx does: `tf2onnx.tf2onnx_assign_add`), so a forward that "
                 "updates one (`self.count.assign_add(1.0)`, a module-state counter) leaves an AssignAddVariableOp "
                 "fed a float where it needs the variable ('Input 0 of node AssignAddVariableOp was passed float "
                 "from AssignAddVariableOp/resource:0 incompatible with expected resource'); the same write inside a "
                 "tf.cond is `tf_freeze.freeze_assign_in_cond`. Provenance: the converter's documentation; found by "
                 "conformance 2026-11-29 (tensorflow 2.21.0), the README's campaign (seed 0, cases e8d878f8f2ed, "
                 "2838af60d0c1)."),
        example=Failure('convert', error_types=('ValueError',),
                        message=("Input 0 of node AssignAddVariableOp was passed float from "
                                 "AssignAddVariableOp/resource:0 incompatible with expected resource."),
                        constructs=('module_state', 'state_counter')),
    ),
    refuses_with(
        "tflite.no_builtin",
        reason=("TensorFlow Lite has no builtin operator for some TensorFlow operators (tf.Atan), so a "
                "TFLITE_BUILTINS conversion refuses them"),
        errors=('ConverterError',),
        message="is neither a custom op nor a flex op",
        versions=">=2.0",
        paths=('tf.tflite',),
        reference="https://ai.google.dev/edge/litert/models/ops_select",
        details=("TensorFlow Lite has no builtin operator for some TensorFlow operators (tf.Atan among this suite's "
                 "ops): a conversion restricted to TFLITE_BUILTINS refuses them (SELECT_TF_OPS would keep them as "
                 "Flex operators). Provenance: https://ai.google.dev/edge/litert/models/ops_select."),
        example=Failure('convert', error_types=('ConverterError',), message="is neither a custom op nor a flex op"),
    ),
    refuses_with(
        "tflite.tensor_list_builtins",
        reason=("TensorFlow Lite's builtin operators cannot hold some TensorList operations (a while loop's tensor "
                "list whose element shape is unknown)"),
        errors=('ConverterError',),
        message="Lowering tensor list ops is failed",
        versions=">=2.0",
        paths=('tf.tflite',),
        reference="https://ai.google.dev/edge/litert/models/ops_select",
        details=("TensorFlow Lite's builtin operators cannot hold some TensorList operations (a tensor list of a "
                 "while loop whose element shape is not known, as a tf.TensorArray or a list grown in a loop "
                 "builds): a conversion restricted to TFLITE_BUILTINS refuses them ('Lowering tensor list ops is "
                 "failed. Please consider using Select TF ops'). Provenance: "
                 "https://ai.google.dev/edge/litert/models/ops_select."),
        example=Failure('convert', error_types=('ConverterError',), message="Lowering tensor list ops is failed"),
    ),
    known_bug(
        "tflite.empty_output",
        reason=("LiteRT's get_tensor refuses any tensor of 0 bytes, so a model whose op yields a zero-size output "
                "cannot return it"),
        phases=('run',),
        errors=('ValueError',),
        message=r"Invalid tensor size\.",
        versions=">=2.0",
        package="ai-edge-litert",
        paths=('tf.tflite',),
        issue="https://github.com/tensorflow/tensorflow/issues/57084",
        script="tflite_empty_output_invalid_tensor_size.py",
        found="2026-11-28 (tensorflow 2.21.0, ai-edge-litert 2.3.0, openvino 2026.4.1, tf2onnx 1.17.0)",
        details=("known bug (TensorFlow Lite's Python interpreter): get_tensor, which the signature runner calls "
                 "too, refuses any tensor of 0 bytes ('Invalid tensor size.'), and an op's zero-size output in a "
                 "model of static shapes is one: the model runs, its empty output cannot be read (an output that is "
                 "an input, or one of a dim resized at run time, can); the inputs are fed as documented "
                 "(resize_tensor_input, allocate_tensors, set_tensor). Provenance: "
                 "https://github.com/tensorflow/tensorflow/issues/57084; found by conformance 2026-11-28 "
                 "(tensorflow 2.21.0, ai-edge-litert 2.3.0, openvino 2026.4.1, tf2onnx 1.17.0), the TensorFlow "
                 "deployment campaign (seed 0); cases/standalone/tflite_empty_output_invalid_tensor_size.py."),
        example=Failure('run', error_types=('ValueError',), message="Invalid tensor size."),
    ),
    known_bug(
        "tflite.floor_div_zero",
        reason=("TensorFlow Lite's FLOOR_DIV kernel refuses a zero divisor of any type, floats too, where "
                "TensorFlow gives inf or NaN"),
        phases=('run',),
        errors=('RuntimeError',),
        message=r"Division by 0.*\(FLOOR_DIV\) failed to invoke",
        versions=">=2.0",
        package="ai-edge-litert",
        paths=('tf.tflite',),
        script="tflite_floor_div_float_zero.py",
        found="2026-11-28 (tensorflow 2.21.0, ai-edge-litert 2.3.0, openvino 2026.4.1, tf2onnx 1.17.0)",
        details=("known bug (TensorFlow Lite): the FLOOR_DIV kernel refuses a zero divisor of any type ('Division "
                 "by 0 ... (FLOOR_DIV) failed to invoke'), floats too, where TensorFlow gives inf or NaN (x // x of "
                 "a tensor holding 0; for integers TensorFlow raises too, which passes). Provenance: found by "
                 "conformance 2026-11-28 (tensorflow 2.21.0, ai-edge-litert 2.3.0, openvino 2026.4.1, tf2onnx "
                 "1.17.0), the TensorFlow deployment campaign (seed 0); "
                 "cases/standalone/tflite_floor_div_float_zero.py."),
        example=Failure('run', error_types=('RuntimeError',), message="Division by 0(FLOOR_DIV) failed to invoke"),
    ),
    writes_wrong(
        "tflite.uint8_mean",
        reason="tf.reduce_mean of a uint8 tensor comes out 0 in LiteRT's builtin MEAN where TensorFlow gives the mean",
        phases=('compare',),
        divergences=('value',),
        versions=">=2.21",
        ops=('int_mean',),
        case="tflite-uint8-mean-zero.json",
        found="2026-11-28 (tensorflow 2.21.0, ai-edge-litert 2.3.0, openvino 2026.4.1, tf2onnx 1.17.0)",
        details=("known bug (TensorFlow Lite): tf.reduce_mean of a uint8 tensor comes out 0 (a [1, 1] tensor "
                 "holding 9, mean over dim 1: TensorFlow gives 9), builtin MEAN, in LiteRT's interpreter and "
                 "tf.lite.Interpreter alike. Provenance: found by conformance 2026-11-28 (tensorflow 2.21.0, "
                 "ai-edge-litert 2.3.0, openvino 2026.4.1, tf2onnx 1.17.0), the TensorFlow deployment campaign "
                 "(seed 0); cases/tflite-uint8-mean-zero.json."),
        example=Failure('compare', divergences=(('value', '[0]'),), ops=('int_mean',)),
    ),
    known_bug(
        "tflite.freeze_gather_in_cond",
        reason=("TFLiteConverter.from_concrete_functions freezes a function that is not its signature, which fails "
                "for a gather inside a tf.cond"),
        errors=('ConverterError',),
        message=r"input resource\[\d+\] expected type resource != float",
        versions=">=2.21",
        ops=('embedding',),
        found="2026-11-28 (tensorflow 2.21.0, ai-edge-litert 2.3.0, openvino 2026.4.1, tf2onnx 1.17.0)",
        details=("known bug (TensorFlow): TFLiteConverter.from_concrete_functions converts through a SavedModel "
                 "where the function can be its signature, and else freezes it "
                 "(convert_variables_to_constants_v2_as_graph), as for outputs nested as a tuple holding a dict; "
                 "freezing leaves a tf.gather of a variable in a tf.cond branch (embedding) a ResourceGather fed "
                 "the frozen float value: 'input resource[0] expected type resource != float ... Failed to "
                 "functionalize Control Flow V1 ops' (the frozen function fails to run too). Provenance: found by "
                 "conformance 2026-11-28 (tensorflow 2.21.0, ai-edge-litert 2.3.0, openvino 2026.4.1, tf2onnx "
                 "1.17.0), the TensorFlow deployment campaign (seed 0); case 02fe4fa51e64; the freezing of "
                 "tensorflow/tensorflow#91313."),
        example=Failure('convert',
                        error_types=('ConverterError',),
                        message="input resource[1] expected type resource != float",
                        ops=('embedding',)),
    ),
    known_bug(
        "tflite.xnnpack_empty_matmul",
        reason=("The interpreter's default XNNPack delegate cannot prepare a batch matmul over an empty contraction "
                "dim once the batch is resized"),
        phases=('run',),
        errors=('RuntimeError',),
        message="XNNPack delegate failed to reshape runtime",
        versions=">=2.3",
        package="ai-edge-litert",
        ops=('matmul_empty',),
        paths=('tf.tflite',),
        script="tflite_xnnpack_empty_matmul.py",
        found="2026-11-28 (tensorflow 2.21.0, ai-edge-litert 2.3.0, openvino 2026.4.1, tf2onnx 1.17.0)",
        details=("known bug (LiteRT): the interpreter's default XNNPack delegate cannot prepare a batch matmul over "
                 "an empty contraction dim once the batch is resized ('XNNPack delegate failed to reshape "
                 "runtime'); without the default delegates the same model returns the empty sums' zeros. "
                 "Provenance: found by conformance 2026-11-28 (tensorflow 2.21.0, ai-edge-litert 2.3.0, openvino "
                 "2026.4.1, tf2onnx 1.17.0), the TensorFlow deployment campaign (seed 0), rerun, cases "
                 "293775035b85, 9204c5dd04ca; cases/standalone/tflite_xnnpack_empty_matmul.py."),
        example=Failure('run',
                        error_types=('RuntimeError',),
                        message="XNNPack delegate failed to reshape runtime",
                        ops=('matmul_empty',)),
    ),
    refuses_with(
        "tflite.reverse_axes",
        reason=("TensorFlow Lite's REVERSE_V2 kernel reverses contiguous axes only, so tf.reverse over dims not "
                "next to each other is refused"),
        phases=('run',),
        errors=('RuntimeError',),
        message="Non-contiguous `axes` not supported",
        versions=">=2.0",
        ops=('flip',),
        reference="https://github.com/tensorflow/tensorflow/blob/master/tensorflow/lite/kernels/reverse.cc",
        details=("TensorFlow Lite's REVERSE_V2 kernel reverses contiguous axes only: tf.reverse over dims that are "
                 "not next to each other (a flip of dims 0 and 2) is refused when the model runs ('Non-contiguous "
                 "`axes` not supported'). Provenance: "
                 "https://github.com/tensorflow/tensorflow/blob/master/tensorflow/lite/kernels/reverse.cc."),
        example=Failure('run',
                        error_types=('RuntimeError',),
                        message="Non-contiguous `axes` not supported",
                        ops=('flip',)),
    ),
    known_bug(
        "tflite.unresolved_materialization",
        reason=("The TFLite converter's MLIR legalisation leaves a cast between a static and a dynamic shape live, "
                "and the conversion fails"),
        errors=('ConverterError',),
        message="failed to legalize unresolved materialization",
        versions=">=2.21",
        found="2026-11-28 (tensorflow 2.21.0, ai-edge-litert 2.3.0, openvino 2026.4.1, tf2onnx 1.17.0)",
        details=("known bug (TensorFlow Lite's converter): the MLIR legalisation leaves a cast between a static and "
                 "a dynamic shape of one result live ('failed to legalize unresolved materialization from "
                 "tensor<4x4x1xf32> to tensor<4x4x?xf32>'); not minimised (a program with an LSTM, 3-d pooling and "
                 "layer norm among others). Provenance: found by conformance 2026-11-28 (tensorflow 2.21.0, "
                 "ai-edge-litert 2.3.0, openvino 2026.4.1, tf2onnx 1.17.0), the TensorFlow deployment campaign "
                 "(seed 0), rerun, case a90cbb0beb54."),
        example=Failure('convert',
                        error_types=('ConverterError',),
                        message="failed to legalize unresolved materialization"),
    ),
    known_bug(
        "tflite.keras_variables_uninitialised",
        reason=("TFLiteConverter.from_concrete_functions of a Keras 3 model keeps its weights as resource variables "
                "with no initialiser"),
        errors=('UninitialisedVariables',),
        versions=">=2.21",
        script="tflite_keras3_variables_uninitialised.py",
        found="2026-11-28 (tensorflow 2.21.0, keras 3, ai-edge-litert 2.3.0)",
        details=("known bug (TensorFlow Lite's converter): TFLiteConverter.from_concrete_functions of a Keras 3 "
                 "model's traced call (the model as trackable_obj, or a tf.Module holding its variables) keeps the "
                 "weights as resource variables (VAR_HANDLE, READ_VARIABLE) and writes no initialiser for them, so "
                 "every interpreter reads uninitialised memory (NaN, 1e+14 ...); a tf.Module's tf.Variables are "
                 "frozen into constants. conformance refuses such a flatbuffer before running it "
                 "(UninitialisedVariables). Provenance: found by conformance 2026-11-28 (tensorflow 2.21.0, keras "
                 "3, ai-edge-litert 2.3.0), the TensorFlow hand-written models keras_conv, keras_embedding, "
                 "keras_attention; cases/standalone/tflite_keras3_variables_uninitialised.py."),
        example=Failure('convert', error_types=('UninitialisedVariables',)),
    ),
    refuses_with(
        "tflite.no_kernel",
        reason=("Some TensorFlow operators have neither a TensorFlow Lite builtin nor a Flex kernel "
                "(tf.TruncateMod, tf.Erfc), so even SELECT_TF_OPS refuses them"),
        errors=('ConverterError',),
        message="is neither a custom op nor a flex op",
        versions=">=2.0",
        paths=('tf.tflite_select_tf_ops',),
        reference="https://ai.google.dev/edge/litert/models/ops_select",
        details=("some TensorFlow operators have neither a TensorFlow Lite builtin nor a Flex kernel "
                 "(tf.TruncateMod, tf.Erfc among this suite's ops): even with SELECT_TF_OPS the converter refuses "
                 "them as custom ops. Provenance: https://ai.google.dev/edge/litert/models/ops_select."),
        example=Failure('convert', error_types=('ConverterError',), message="is neither a custom op nor a flex op"),
    ),
    refuses_with(
        "tflite.no_flex_delegate",
        reason=("A model with Flex (SELECT_TF_OPS) operators runs only in an interpreter linked with the Flex "
                "delegate, which this wheel lacks"),
        phases=('run',),
        errors=('RuntimeError',),
        message=r"Select TensorFlow op\(s\).*not supported by this interpreter",
        versions=">=2.21",
        paths=('tf.tflite_select_tf_ops',),
        reference="https://ai.google.dev/edge/litert/models/ops_select#run_inference",
        details=("a model with Flex (SELECT_TF_OPS) operators runs only in an interpreter linked with the Flex "
                 "delegate; tf.lite.Interpreter of the tensorflow-cpu wheel here refuses it ('Select TensorFlow "
                 "op(s) ... not supported by this interpreter'). Provenance: "
                 "https://ai.google.dev/edge/litert/models/ops_select#run_inference."),
        example=Failure('run',
                        error_types=('RuntimeError',),
                        message="Select TensorFlow op(s)not supported by this interpreter"),
    ),
    known_bug(
        "tflite.empty_output_flex",
        reason=("tf.lite.Interpreter's get_tensor refuses any tensor of 0 bytes, so a model whose op yields a "
                "zero-size output cannot return it"),
        phases=('run',),
        errors=('ValueError',),
        message=r"Invalid tensor size\.",
        versions=">=2.0",
        paths=('tf.tflite_select_tf_ops',),
        issue="https://github.com/tensorflow/tensorflow/issues/57084",
        script="tflite_empty_output_invalid_tensor_size.py",
        found="2026-11-28 (tensorflow 2.21.0, ai-edge-litert 2.3.0, openvino 2026.4.1, tf2onnx 1.17.0)",
        details=("known bug (TensorFlow Lite's Python interpreter): get_tensor, which the signature runner calls "
                 "too, refuses any tensor of 0 bytes ('Invalid tensor size.'), and an op's zero-size output in a "
                 "model of static shapes is one: the model runs, its empty output cannot be read (an output that is "
                 "an input, or one of a dim resized at run time, can); the inputs are fed as documented "
                 "(resize_tensor_input, allocate_tensors, set_tensor). Provenance: "
                 "https://github.com/tensorflow/tensorflow/issues/57084; found by conformance 2026-11-28 "
                 "(tensorflow 2.21.0, ai-edge-litert 2.3.0, openvino 2026.4.1, tf2onnx 1.17.0), the TensorFlow "
                 "deployment campaign (seed 0); cases/standalone/tflite_empty_output_invalid_tensor_size.py."),
        example=Failure('run', error_types=('ValueError', 'Exception'), message="Invalid tensor size.", ops=('abs',)),
    ),
    known_bug(
        "tflite.floor_div_zero_flex",
        reason=("TensorFlow Lite's FLOOR_DIV kernel (in tf.lite.Interpreter) refuses a zero divisor of any type, "
                "floats too"),
        phases=('run',),
        errors=('RuntimeError',),
        message=r"Division by 0.*\(FLOOR_DIV\) failed to invoke",
        versions=">=2.0",
        paths=('tf.tflite_select_tf_ops',),
        script="tflite_floor_div_float_zero.py",
        found="2026-11-28 (tensorflow 2.21.0, ai-edge-litert 2.3.0, openvino 2026.4.1, tf2onnx 1.17.0)",
        details=("known bug (TensorFlow Lite): the FLOOR_DIV kernel refuses a zero divisor of any type ('Division "
                 "by 0 ... (FLOOR_DIV) failed to invoke'), floats too, where TensorFlow gives inf or NaN (x // x of "
                 "a tensor holding 0; for integers TensorFlow raises too, which passes). Provenance: found by "
                 "conformance 2026-11-28 (tensorflow 2.21.0, ai-edge-litert 2.3.0, openvino 2026.4.1, tf2onnx "
                 "1.17.0), the TensorFlow deployment campaign (seed 0); "
                 "cases/standalone/tflite_floor_div_float_zero.py."),
        example=Failure('run', error_types=('RuntimeError',), message="Division by 0(FLOOR_DIV) failed to invoke"),
    ),
    known_bug(
        "tflite.operand_does_not_dominate",
        reason=("The TFLite converter writes an invalid IR ('operand #0 does not dominate this use') for a "
                "tf.TensorArray written in a loop with a value computed from the input"),
        errors=('ConverterError',),
        message=r"operand #\d+ does not dominate this use",
        versions=">=2.21",
        constructs=('tensor_array',),
        paths=('tf.tflite',),
        case="tflite-tensor-array-write-does-not-dominate.json",
        script="tflite_tensor_array_write_does_not_dominate.py",
        found="2026-11-29 (tensorflow 2.21.0, ai-edge-litert 2.3.0)",
        details=("known bug (TensorFlow Lite's converter): a tf.TensorArray(size=1) written in a one-iteration "
                 "loop with a value computed from the input (`rows.write(i, x * 2.0)`; reduce_mean, stack, "
                 "expand_dims alike) fails in the converter's own MLIR passes with an invalid IR ('error: operand "
                 "#0 does not dominate this use', 'operand defined here (op in the same block)'), an internal "
                 "verifier error, not a refusal of an op; writing the input itself converts, and tf.function and "
                 "XLA run both. Provenance: found by conformance 2026-11-29 (tensorflow 2.21.0), the tf campaign "
                 "(seed 0, 300 s, case ee10d88cc149), minimised by conformance triage; "
                 "cases/tflite-tensor-array-write-does-not-dominate.json, "
                 "cases/standalone/tflite_tensor_array_write_does_not_dominate.py."),
        example=Failure('convert',
                        error_types=('ConverterError',),
                        message=("<string>:1:1: error: operand #0 does not dominate this use\n<string>:1:1: note: "
                                 "called from"),
                        constructs=('list_value', 'tensor_array')),
    ),
    known_bug(
        "tflite.atan2_broadcast",
        reason=("The TFLite converter writes a broadcasting tf.math.atan2 as tfl.atan2, which takes operands of one "
                "shape only, and refuses its own IR"),
        errors=('ConverterError',),
        message=r"'tfl\.atan2' op requires the same type for all operands and results",
        versions=">=2.21",
        ops=('atan2',),
        paths=('tf.tflite',),
        case="tflite-atan2-broadcast.json",
        script="tflite_atan2_broadcast.py",
        found="2026-11-29 (tensorflow 2.21.0)",
        details=("known bug (TensorFlow Lite's converter): tf.math.atan2 of a [2, 3] and a [3] tensor, which "
                 "TensorFlow broadcasts, is legalised to tfl.atan2 without a broadcast, and the converter's verifier "
                 "refuses it ('tfl.atan2' op requires the same type for all operands and results); with equal "
                 "shapes it converts. Provenance: found by conformance 2026-11-29 (tensorflow 2.21.0), the tf "
                 "campaign seed 0 (case 7c5806907506); cases/tflite-atan2-broadcast.json, "
                 "cases/standalone/tflite_atan2_broadcast.py."),
        example=Failure('convert', error_types=('ConverterError',),
                        message=("<string>:1:1: error: 'tfl.atan2' op requires the same type for all operands and "
                                 "results"),
                        ops=('atan2', 'tanh')),
    ),
)
