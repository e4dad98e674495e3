"""tf2onnx: what it refuses and writes wrong (also where OpenVINO reads its files).
"""

from conformance.paths.known.factories import Failure, known_bug, refuses_with, writes_wrong

RECORDS = (
    known_bug(
        "tf2onnx.dict_output_list",
        reason=("tf2onnx's from_function takes every value of a dict output for a tensor, so a dict output holding "
                "a list fails before conversion"),
        errors=('AttributeError',),
        message="'list' object has no attribute 'name'",
        versions=">=1.17",
        package="tf2onnx",
        case="tf-onnx-dict-output-holding-a-list.json",
        found="2026-11-23 (tf2onnx 1.17.0)",
        details=("known bug: tf2onnx's from_function takes every value of a dict output for a tensor (`v.name` in "
                 "tensor_names_from_structed), so a dict output holding a list fails before conversion. Provenance: "
                 "found by conformance 2026-11-23 (tf2onnx 1.17.0); cases/tf-onnx-dict-output-holding-a-list.json."),
        example=Failure('convert', error_types=('AttributeError',), message="'list' object has no attribute 'name'"),
    ),
    refuses_with(
        "tf2onnx.erfc",
        reason=("tf2onnx has no conversion for TensorFlow's Erfc (tf.nn.gelu(approximate=False) computes it) and "
                "leaves it in the graph"),
        errors=('InvalidGraph',),
        message="No Op registered for Erfc",
        versions=">=1.17",
        package="tf2onnx",
        reference="https://github.com/onnx/tensorflow-onnx/blob/main/support_status.md",
        details=("tf2onnx has no conversion for TensorFlow's Erfc (tf.nn.gelu(approximate=False) computes it): it "
                 "logs 'Tensorflow op [Erfc] is not supported', keeps the op, and onnxruntime refuses the model. "
                 "Provenance: https://github.com/onnx/tensorflow-onnx/blob/main/support_status.md."),
        example=Failure('convert', error_types=('InvalidGraph',), message="No Op registered for Erfc"),
    ),
    known_bug(
        "tf2onnx.cond_repeated_output",
        reason=("A tf.cond branch that returns the same tensor twice fails to convert ('Cannot find node with "
                "output cond:0')"),
        errors=('ValueError',),
        message=r"make_sure failure: Cannot find node with output '[^']*cond[^']*:\d+'",
        versions=">=1.17",
        package="tf2onnx",
        found="2026-11-21 (tf2onnx 1.17.0, tensorflow 2.21.0)",
        details=("known bug (tf2onnx): a tf.cond branch that returns the same tensor twice, e.g. an early `return "
                 "y, y` under a tensor condition, fails with 'Cannot find node with output cond:0'. Provenance: "
                 "found by conformance 2026-11-21 (tf2onnx 1.17.0, tensorflow 2.21.0)."),
        example=Failure('convert',
                        error_types=('ValueError',),
                        message="make_sure failure: Cannot find node with output 'cond:1'"),
    ),
    known_bug(
        "tf2onnx.loop_counter_shape",
        reason=("When a branch of a tf.cond in a while body computes something unused from a tensor defined outside "
                "the loop"),
        phases=('run',),
        errors=('Fail',),
        message="Loop subgraph input 0 has unknown shape",
        versions=">=1.17",
        package="tf2onnx",
        found="2026-11-21 (tf2onnx 1.17.0, tensorflow 2.21.0)",
        details=("known bug (tf2onnx): when a branch of a tf.cond in a while body computes something unused from a "
                 "tensor defined outside the loop (an `else` branch, or the code after a `continue`), the Loop "
                 "body's iteration-count input gets no shape and onnxruntime refuses to run it. Provenance: found "
                 "by conformance 2026-11-21 (tf2onnx 1.17.0, tensorflow 2.21.0)."),
        example=Failure('run', error_types=('Fail',), message="Loop subgraph input 0 has unknown shape"),
    ),
    refuses_with(
        "tf2onnx.unconverted_op",
        reason=("tf2onnx has no handler for some TensorFlow operators at the opset (TruncateMod, or BitwiseAnd on "
                "int8 before opset 18) and leaves them in the graph"),
        errors=('InvalidGraph',),
        message=r"No Op registered for \w+ with domain_version of \d+",
        versions=">=1.17",
        package="tf2onnx",
        reference="https://github.com/onnx/tensorflow-onnx/blob/main/support_status.md",
        details=("tf2onnx has no handler for some TensorFlow operators at the opset (TruncateMod; BitwiseAnd on "
                 "int8 before opset 18) and leaves them in the graph as they are (it logs them as unsupported); "
                 "onnxruntime then refuses the model ('No Op registered for ... with domain_version of N'). "
                 "Provenance: https://github.com/onnx/tensorflow-onnx/blob/main/support_status.md."),
        example=Failure('convert',
                        error_types=('InvalidGraph',),
                        message="No Op registered for a with domain_version of 1"),
    ),
    known_bug(
        "tf2onnx.cond_conv_channels",
        reason=("A convolution inside a tf.cond branch is written with its input in the wrong layout, so "
                "onnxruntime refuses to run the If node"),
        phases=('run',),
        errors=('Fail',),
        message=r"Input channels C is not equal to kernel channels \* group",
        versions=">=1.17",
        package="tf2onnx",
        found="2026-11-27 (tf2onnx 1.17.0, onnxruntime 1.31.1)",
        details=("known bug (tf2onnx, not minimised yet): a convolution inside a tf.cond branch is written with its "
                 "input in the wrong layout, so onnxruntime refuses to run the If node ('Input channels C is not "
                 "equal to kernel channels * group'); seen in CI's derandomised tf.onnx parity draws. Provenance: "
                 "found by conformance 2026-11-27 (tf2onnx 1.17.0, onnxruntime 1.31.1)."),
        example=Failure('run',
                        error_types=('Fail',),
                        message="Input channels C is not equal to kernel channels * group"),
    ),
    known_bug(
        "tf2onnx.scan_untyped",
        reason=("tf2onnx fails to convert the while loop tf.scan builds (cummax, cummin): 'While loop couldn't find "
                "scan output index'"),
        errors=('InvalidArgument',),
        message="Invalid tensor data type 0",
        versions=">=1.17",
        package="tf2onnx",
        ops=('cummax', 'cummin'),
        case="tf-onnx-scan-maximum-invalid-model.json",
        found="2026-11-28 (tensorflow 2.21.0, tf2onnx 1.17.0, onnxruntime 1.31.1)",
        details=("known bug (tf2onnx): the while loop tf.scan builds (the emitters of cummax and cummin scan "
                 "tf.maximum, tf.minimum) fails to convert ('While loop couldn't find scan output index for nodes', "
                 "logged, not raised): tf2onnx keeps its TensorList ops and writes a tensor of undefined type, so "
                 "onnxruntime refuses to load the model ('Invalid tensor data type 0'). Provenance: found by "
                 "conformance 2026-11-28 (tensorflow 2.21.0, tf2onnx 1.17.0, onnxruntime 1.31.1); "
                 "cases/tf-onnx-scan-maximum-invalid-model.json."),
        example=Failure('convert',
                        error_types=('InvalidArgument',),
                        message="Invalid tensor data type 0",
                        ops=('cummax',)),
    ),
    known_bug(
        "tf2onnx.reshape_zero_dim",
        reason=("tf2onnx writes tf.reshape to a shape with a 0 without allowzero=1, so the 0 copies the input's dim "
                "or is refused past its rank"),
        errors=('Fail',),
        message=(r"Op \(Reshape\) \[ShapeInferenceError\] Invalid position of 0|Op \(Expand\) \[ShapeInferenceError\] "
                 "Incompatible dimensions"),
        versions=">=1.17",
        package="tf2onnx",
        ops=('reshape_empty',),
        issue="https://github.com/onnx/tensorflow-onnx/issues/2178",
        script="tf_onnx_reshape_zero_dim.py",
        details=("known bug (tf2onnx): tf.reshape to a shape with a 0 (an empty tensor) is written as an ONNX "
                 "Reshape without allowzero=1, where a 0 means 'copy the input's dim': past the input's rank "
                 "onnxruntime refuses the model ('Invalid position of 0'), else the copied dim gives another shape "
                 "and a later broadcast_to (Expand) is refused ('Incompatible dimensions'). Provenance: "
                 "https://github.com/onnx/tensorflow-onnx/issues/2178; cases/standalone/tf_onnx_reshape_zero_dim.py."),
        example=Failure('convert',
                        error_types=('Fail',),
                        message="Op (Reshape) [ShapeInferenceError] Invalid position of 0",
                        ops=('reshape_empty',)),
    ),
    known_bug(
        "tf2onnx.int_mean",
        reason="tf.reduce_mean of int8 is written as an ONNX ReduceMean on int8, a type ReduceMean does not take",
        errors=('InvalidGraph',),
        message=r"Type 'tensor\(u?int(8|16)\)' of input parameter \(\S+\) of operator \(ReduceMean\)",
        versions=">=1.17",
        package="tf2onnx",
        ops=('int_mean',),
        case="tf-onnx-int8-reduce-mean.json",
        found="2026-11-28 (tensorflow 2.21.0, tf2onnx 1.17.0, onnxruntime 1.31.1)",
        details=("known bug (tf2onnx): tf.reduce_mean of int8 is written as an ONNX ReduceMean on int8, a type "
                 "ReduceMean does not take (no cast around it), so onnxruntime refuses the model ('Type "
                 "tensor(int8) of input parameter ... of operator (ReduceMean) ... is invalid'). Provenance: found "
                 "by conformance 2026-11-28 (tensorflow 2.21.0, tf2onnx 1.17.0, onnxruntime 1.31.1); "
                 "cases/tf-onnx-int8-reduce-mean.json."),
        example=Failure('convert',
                        error_types=('InvalidGraph',),
                        message="Type 'tensor(int8)' of input parameter (a) of operator (ReduceMean)",
                        ops=('int_mean',)),
    ),
    known_bug(
        "tf2onnx.int8_pow",
        reason=("tf2onnx writes x ** 2 of an int8 tensor as an ONNX Pow on int8, a type Pow does not take, so "
                "onnxruntime refuses the model"),
        errors=('InvalidGraph',),
        message=r"Type 'tensor\(u?int(8|16)\)' of input parameter \(\S+\) of operator \(Pow\)",
        versions=">=1.17",
        package="tf2onnx",
        ops=('int_pow',),
        case="tf-onnx-int8-pow.json",
        found="2026-11-28 (tensorflow 2.21.0, tf2onnx 1.17.0, onnxruntime 1.31.1)",
        details=("known bug (tf2onnx): x ** 2 of an int8 tensor (tf.math.pow) is written as an ONNX Pow on int8, a "
                 "type Pow does not take (int32, int64 and floats; no cast around it), so onnxruntime refuses the "
                 "model ('Type tensor(int8) of input parameter ... of operator (Pow) ... is invalid'). Provenance: "
                 "found by conformance 2026-11-28 (tensorflow 2.21.0, tf2onnx 1.17.0, onnxruntime 1.31.1), clean "
                 "campaign seed 9, case 304d417f06f3; cases/tf-onnx-int8-pow.json."),
        example=Failure('convert',
                        error_types=('InvalidGraph',),
                        message="Type 'tensor(int8)' of input parameter (a) of operator (Pow)",
                        ops=('int_pow',)),
    ),
    writes_wrong(
        "tf2onnx.float_truncate_div",
        reason=("tf.truncatediv of floats is written as a plain ONNX Div, without rounding the quotient toward zero "
                "(integers truncate in Div and are right)"),
        phases=('compare',),
        divergences=('value',),
        versions=">=1.17",
        package="tf2onnx",
        ops=('trunc_div',),
        case="tf-onnx-float-truncatediv.json",
        found="2026-11-28 (tensorflow 2.21.0, tf2onnx 1.17.0, onnxruntime 1.31.1)",
        details=("known bug (tf2onnx): tf.truncatediv of floats is written as a plain ONNX Div, without rounding "
                 "the quotient toward zero (integers truncate in Div and are right): 0.5 / 2 gives 0.25 where "
                 "TensorFlow gives 0. Provenance: found by conformance 2026-11-28 (tensorflow 2.21.0, tf2onnx "
                 "1.17.0, onnxruntime 1.31.1); cases/tf-onnx-float-truncatediv.json."),
        example=Failure('compare', divergences=(('value', '[0]'),), ops=('trunc_div',)),
    ),
    writes_wrong(
        "tf2onnx.int_floor_div",
        reason=("Integer FloorDiv and FloorMod (`//`, tf.math.floormod) are written as ONNX Div, which truncates "
                "toward zero"),
        phases=('compare',),
        divergences=('value',),
        versions=">=1.17",
        package="tf2onnx",
        ops=('floor_div', 'ceil_div', 'remainder'),
        issue="https://github.com/onnx/tensorflow-onnx/issues/2174",
        case="tf2onnx-ceildiv-int32.json",
        details=("known bug (tf2onnx): integer FloorDiv and FloorMod (`//`, tf.math.floormod) are written as ONNX "
                 "Div, which truncates toward zero: with operands of opposite signs the quotient is one too high "
                 "and the remainder has the wrong sign (floats are floored and right). Provenance: "
                 "https://github.com/onnx/tensorflow-onnx/issues/2174; cases/tf2onnx-ceildiv-int32.json, "
                 "cases/tf-onnx-floormod-negative-int.json."),
        example=Failure('compare', divergences=(('value', '[0]'),), ops=('floor_div',)),
    ),
    writes_wrong(
        "tf2onnx.sort_nan",
        reason=("tf.sort of a tensor holding NaN, written by tf2onnx as TopK, places the NaN elsewhere than "
                "TensorFlow (ONNX leaves it undefined)"),
        phases=('compare',),
        divergences=('nonfinite',),
        versions=">=1.17",
        package="tf2onnx",
        ops=('sort',),
        issue="https://github.com/tensorflow/tensorflow/issues/117287",
        script="tf_onnx_sort_nan.py",
        details=("known divergence: tf.sort (written by tf2onnx as TopK) of a tensor holding NaN: TensorFlow's "
                 "top_k places NaN by its position (tensorflow/tensorflow#117287), ONNX leaves TopK's NaN order "
                 "undefined (onnx/onnx#4716) and onnxruntime places it elsewhere, so the sorted values differ where "
                 "a NaN is. Provenance: https://github.com/tensorflow/tensorflow/issues/117287; "
                 "https://github.com/onnx/onnx/issues/4716; cases/standalone/tf_onnx_sort_nan.py."),
        example=Failure('compare', divergences=(('nonfinite', '[0]'),), ops=('sort',)),
    ),
    refuses_with(
        "tf2onnx.tf2onnx_assign_add",
        reason="tf2onnx freezes variables into constants, so a variable's assign_add in the function is refused",
        errors=('ValueError',),
        message="AssignAddVariableOp",
        versions=">=1.0",
        package="tf2onnx",
        paths=('tf.onnx', 'tf.onnx_openvino'),
        reference=("https://github.com/onnx/tensorflow-onnx#tf2onnx---convert-tensorflow-keras-tensorflowjs-and-tflite-models-to-onnx"),
        details=("tf2onnx freezes variables into constants: a variable's assign_add in the function is refused "
                 "(before OpenVINO reads the file on tf.onnx_openvino). "
                 "Provenance: "
                 "https://github.com/onnx/tensorflow-onnx#tf2onnx---convert-tensorflow-keras-tensorflowjs-and-tflite-models-to-onnx."),
        example=Failure('convert', error_types=('ValueError',), message="AssignAddVariableOp"),
    ),
    refuses_with(
        "tf2onnx.openvino_onnx_unconverted_op",
        reason=("tf2onnx leaves some TensorFlow operators unconverted at the opset, which OpenVINO's ONNX reader "
                "then refuses"),
        errors=('RuntimeError',),
        message=("No conversion rule found for operations: "
                 r"[^\n]*\b(?:TruncateMod|Erfc|InTopKV2|CumulativeLogsumexp|Expm1|BroadcastArgs|Invert|TensorScatterAdd|Log1p|"
                 r"Cumprod)-\d+"),
        versions=">=1.17",
        package="tf2onnx",
        paths=('tf.onnx_openvino',),
        reference="https://github.com/onnx/tensorflow-onnx/blob/main/support_status.md",
        found="2026-11-28 (tensorflow 2.21.0, ai-edge-litert 2.3.0, openvino 2026.4.1, tf2onnx 1.17.0)",
        details=("tf2onnx has no handler for some TensorFlow operators at the opset (TruncateMod of "
                 "tf.math.truncatemod, Erfc of gelu, InTopKV2, CumulativeLogsumexp, Expm1, BroadcastArgs of "
                 "tf.broadcast_to's shapes, Invert of bitwise_not, TensorScatterAdd of index_add below opset 16, "
                 "where ScatterND has no reduction, Log1p of logaddexp in some programs, Cumprod of tf.math.cumprod "
                 "at opset 15: README campaign of 2026-11-29, case 65d1822cfd83) and leaves them in the "
                 "graph as they are (`tf2onnx.unconverted_op`); OpenVINO's ONNX reader then refuses the model ('No "
                 "conversion rule found for operations: TruncateMod-15'), and an op fed by one of them may fail "
                 "too, its input of no known type ('Conversion is failed for: Selu-15 ... Element not supported' "
                 "after CumulativeLogsumexp; a Conv of no known rank after TensorScatterAdd). Provenance: "
                 "https://github.com/onnx/tensorflow-onnx/blob/main/support_status.md; found by conformance "
                 "2026-11-28 (tensorflow 2.21.0, ai-edge-litert 2.3.0, openvino 2026.4.1, tf2onnx 1.17.0), the "
                 "TensorFlow deployment campaign (seed 0) (rerun), 35 findings, e.g. cases 737df224e6f1, "
                 "1b9ae9ba9863, fe9c301cd8c6; clean campaigns, cases 10b16be50c7a, 501ddf19da70 (TensorScatterAdd), "
                 "b33d5f6156e5 (Log1p)."),
        example=Failure('convert',
                        error_types=('RuntimeError',),
                        message="No conversion rule found for operations: TruncateMod-1"),
    ),
    known_bug(
        "tf2onnx.openvino_loop_counter_rank",
        reason=("tf2onnx leaves a Loop's iteration-count input without a shape, which OpenVINO's CPU plugin refuses "
                "to compile (dynamic rank)"),
        errors=('RuntimeError',),
        message=r"doesn't support Parameter operation with dynamic rank\. Operation name: \S*loop_counter",
        versions=">=1.17",
        package="tf2onnx",
        paths=('tf.onnx_openvino',),
        found="2026-11-21 (tf2onnx 1.17.0, tensorflow 2.21.0)",
        details=("known bug (tf2onnx), as OpenVINO meets it: the Loop body's iteration-count input gets no shape "
                 "when a tf.cond branch in a while body computes something unused from a tensor defined outside the "
                 "loop; onnxruntime refuses to run it (tf.onnx), OpenVINO's CPU plugin refuses to compile it "
                 "(dynamic rank). Provenance: found by conformance 2026-11-21 (tf2onnx 1.17.0, tensorflow 2.21.0)."),
        example=Failure('convert',
                        error_types=('RuntimeError',),
                        message="doesn't support Parameter operation with dynamic rank. Operation name: loop_counter"),
    ),
    known_bug(
        "tf2onnx.openvino_onnx_loop_outer_values",
        reason=("A Loop whose body reads values of an enclosing graph (tf2onnx's while loops, tf.scan's, also "
                "inside an If branch) is refused"),
        errors=('RuntimeError',),
        message=r"loop body graph canonical inputs size \(\d+\), does not match",
        versions=">=2026.0",
        package="openvino",
        paths=('tf.onnx_openvino',),
        found="2026-11-28 (tensorflow 2.21.0, ai-edge-litert 2.3.0, openvino 2026.4.1, tf2onnx 1.17.0)",
        details=("known bug (OpenVINO's ONNX reader): a Loop whose body reads values of an enclosing graph "
                 "(tf2onnx's while loops, tf.scan's, also inside an If branch) is refused: the reader counts those "
                 "values among the body's inputs ('The provided loop body graph canonical inputs size (7), does not "
                 "match the sum of loop carried dependencies and two mandatory inputs (6)', where the body declares "
                 "the 6 the spec asks for); onnxruntime runs the same file. Provenance: found by conformance "
                 "2026-11-28 (tensorflow 2.21.0, ai-edge-litert 2.3.0, openvino 2026.4.1, tf2onnx 1.17.0), the "
                 "TensorFlow deployment campaign (seed 0); 12 findings, e.g. cases 9d9a36e36b2b, e32e7d29e1d5."),
        example=Failure('convert',
                        error_types=('RuntimeError',),
                        message="loop body graph canonical inputs size (1), does not match"),
    ),
    known_bug(
        "tf2onnx.openvino_int_mean",
        reason=("tf.reduce_mean of int8 or uint8 is written as an ONNX ReduceMean on that type, which ReduceMean "
                "does not take"),
        errors=('RuntimeError',),
        message=r"Node\(ReduceMean\)",
        versions=">=1.17",
        package="tf2onnx",
        ops=('int_mean',),
        paths=('tf.onnx_openvino',),
        case="tf-onnx-int8-reduce-mean.json",
        found="2026-11-28 (tensorflow 2.21.0, tf2onnx 1.17.0, onnxruntime 1.31.1)",
        details=("known bug (tf2onnx), as OpenVINO meets it: tf.reduce_mean of int8 or uint8 is written as an ONNX "
                 "ReduceMean on that type, which ReduceMean does not take: OpenVINO's ONNX reader refuses it "
                 "('Unsupported input type'). Provenance: found by conformance 2026-11-28 (tensorflow 2.21.0, "
                 "tf2onnx 1.17.0, onnxruntime 1.31.1); cases/tf-onnx-int8-reduce-mean.json."),
        example=Failure('convert', error_types=('RuntimeError',), message="Node(ReduceMean)", ops=('int_mean',)),
    ),
    writes_wrong(
        "tf2onnx.openvino_reshape_zero_dim",
        reason=("tf2onnx writes tf.reshape to a shape with a 0 without allowzero=1, so OpenVINO copies the input's "
                "dim for the 0"),
        phases=('compare',),
        divergences=('shape',),
        versions=">=1.17",
        package="tf2onnx",
        ops=('reshape_empty',),
        paths=('tf.onnx_openvino',),
        issue="https://github.com/onnx/tensorflow-onnx/issues/2178",
        script="tf_onnx_reshape_zero_dim.py",
        details=("known bug (tf2onnx), as OpenVINO meets it: tf.reshape to a shape with a 0 is written as an ONNX "
                 "Reshape without allowzero=1, where a 0 means 'copy the input's dim': OpenVINO copies it (a [3, 0] "
                 "tensor reshaped to [0, 2] comes out [3, 2]) where onnxruntime refuses the model. Provenance: "
                 "https://github.com/onnx/tensorflow-onnx/issues/2178; cases/standalone/tf_onnx_reshape_zero_dim.py."),
        example=Failure('compare', divergences=(('shape', '[0]'),), ops=('reshape_empty',)),
    ),
    known_bug(
        "tf2onnx.openvino_onnx_scan_tensor_list",
        reason=("The while loop of tf.scan (cummax, cummin) fails to convert and tf2onnx keeps its TensorList ops "
                "(`tf2onnx.scan_untyped`)"),
        errors=('RuntimeError',),
        message=r"No conversion rule found for operations: [^\n]*TensorList",
        versions=">=1.17",
        package="tf2onnx",
        ops=('cummax', 'cummin'),
        paths=('tf.onnx_openvino',),
        case="tf-onnx-scan-maximum-invalid-model.json",
        found="2026-11-28 (tensorflow 2.21.0, tf2onnx 1.17.0, onnxruntime 1.31.1)",
        details=("known bug (tf2onnx), as OpenVINO meets it: the while loop of tf.scan (cummax, cummin) fails to "
                 "convert and tf2onnx keeps its TensorList ops (`tf2onnx.scan_untyped`); OpenVINO's ONNX reader has "
                 "no rule for them ('No conversion rule found for operations: TensorListReserve-15, "
                 "TensorListSetItem-15') and fails on the Loop around them (an Add of i64 and i32, 'Accessing "
                 "out-of-range dimension'). Provenance: found by conformance 2026-11-28 (tensorflow 2.21.0, tf2onnx "
                 "1.17.0, onnxruntime 1.31.1); cases/tf-onnx-scan-maximum-invalid-model.json; found by conformance "
                 "2026-11-28 (tensorflow 2.21.0, ai-edge-litert 2.3.0, openvino 2026.4.1, tf2onnx 1.17.0), the "
                 "TensorFlow deployment campaign (seed 0), cases 00fe36870f9a, 14500a5756bd."),
        example=Failure('convert',
                        error_types=('RuntimeError',),
                        message="No conversion rule found for operations: TensorList",
                        ops=('cummax',)),
    ),
    known_bug(
        "tf2onnx.openvino_onnx_reverse_empty_batch",
        reason=("tf2onnx writes tf.reverse with a ReverseSequence whose sequence_lens has shape [1] for an empty "
                "batch, which OpenVINO refuses"),
        errors=('RuntimeError',),
        message=r"Sequence lengths input size \(1\) is not equal to batch axis dimension of data input \(0\)",
        versions=">=1.17",
        package="tf2onnx",
        ops=('flip',),
        paths=('tf.onnx_openvino',),
        found="2026-11-28 (tf2onnx 1.17.0, openvino 2026.4.1)",
        details=("known bug (tf2onnx), as OpenVINO meets it, not minimised: tf.reverse (the op flip) is written as "
                 "a Transpose and a ReverseSequence whose sequence_lens tf2onnx Expands to shape [1] where the "
                 "batch axis has size 0 (ONNX asks for [batch_size]); onnxruntime runs the file (tf.onnx passes), "
                 "OpenVINO's shape inference refuses it ('Sequence lengths input size (1) is not equal to batch "
                 "axis dimension of data input (0)'). Provenance: found by conformance 2026-11-28 (tf2onnx 1.17.0, "
                 "openvino 2026.4.1), clean campaign seed 9, case 7c60bbca476c."),
        example=Failure('convert',
                        error_types=('RuntimeError',),
                        message=("Sequence lengths input size (1) is not equal to batch axis dimension of data in"
                                 "put (0)"),
                        ops=('flip',)),
    ),
    known_bug(
        "tf2onnx.openvino_onnx_cond_conv_channels",
        reason=("tf2onnx writes a convolution inside a tf.cond branch with its input in the wrong layout, which "
                "OpenVINO's ONNX reader refuses"),
        errors=('RuntimeError',),
        message=(r"Node\(Conv\): [^>]*cond[^>]*>'.*Data batch channel count \(\d+\) does not match filter input "
                 r"channel count \(\d+\)"),
        versions=">=1.17",
        package="tf2onnx",
        paths=('tf.onnx_openvino',),
        found="2026-11-27 (tf2onnx 1.17.0, onnxruntime 1.31.1)",
        details=("known bug (tf2onnx), as OpenVINO meets it: a convolution inside a tf.cond branch is written with "
                 "its input in the wrong layout (`tf2onnx.cond_conv_channels`; tf.onnx fails on the same case, "
                 "onnxruntime's 'Input channels C is not equal to kernel channels * group'); OpenVINO's ONNX reader "
                 "refuses the branch's Conv ('Data batch channel count (2) does not match filter input channel "
                 "count (1)'). Provenance: found by conformance 2026-11-27 (tf2onnx 1.17.0, onnxruntime 1.31.1); "
                 "found by conformance 2026-11-28 (tensorflow 2.21.0, ai-edge-litert 2.3.0, openvino 2026.4.1, "
                 "tf2onnx 1.17.0), the TensorFlow deployment campaign (seed 0) (rerun), case 441f91f220b6."),
        example=Failure('convert',
                        error_types=('RuntimeError',),
                        message=("Node(Conv): cond>'Data batch channel count (1) does not match filter input chan"
                                 "nel count (1)")),
    ),
)
