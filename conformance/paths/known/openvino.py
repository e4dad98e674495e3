"""OpenVINO (its PyTorch, TensorFlow, Paddle and ONNX readers and its CPU plugin): what it refuses and gets wrong.
"""

from conformance.paths.known.factories import Failure, documented, known_bug, refuses_with, writes_wrong

RECORDS = (
    known_bug(
        "openvino.gather_smaller_index",
        reason=("OpenVINO writes torch.gather (GatherElements) as its own GatherElements, which refuses an index "
                "smaller than the input in another dim"),
        errors=('RuntimeError',),
        message="`data` and `indices` must have equal or intersecting dimensions",
        versions=">=2026.4.1",
        package="openvino",
        ops=('gather',),
        paths=('torch.openvino', 'torch.onnx_dynamo_openvino', 'torch.onnx_torchscript_openvino'),
        case="openvino-gather-index-smaller-than-input.json",
        found="2026-11-28 (torch 2.13.0, openvino 2026.4.1)",
        details=("known bug: OpenVINO's PyTorch and ONNX readers write torch.gather (ONNX GatherElements) as "
                 "OpenVINO's GatherElements, which needs indices of data's shape except on the axis, without "
                 "slicing data: an index smaller than the input in another dim (which torch.gather takes) is "
                 "refused at conversion where the shapes are static ('`data` and `indices` must have equal or "
                 "intersecting dimensions', 'Conversion is failed for: GatherElements'); with dynamic ones it fails "
                 "at inference, silently with one thread (`openvino.single_thread_shape_error`). Provenance: found "
                 "by conformance 2026-11-28 (torch 2.13.0, openvino 2026.4.1), the clean torch campaigns (cases "
                 "bcd95b46a50f, d85d6e8f7cc0, 9bb6c90bc3df, 01a57ac16637, 166d15f15243); "
                 "cases/openvino-gather-index-smaller-than-input.json."),
        example=Failure('convert',
                        error_types=('RuntimeError',),
                        message="`data` and `indices` must have equal or intersecting dimensions",
                        ops=('gather',)),
    ),
    writes_wrong(
        "openvino.single_thread_shape_error",
        reason=("OpenVINO's CPU plugin compiled with INFERENCE_NUM_THREADS=1 swallows a node's shape-inference "
                "error at inference (dynamic shapes)"),
        phases=('compare',),
        divergences=('value', 'shape', 'nonfinite'),
        versions=">=2026.4.1",
        package="openvino",
        ops=('gather', 'scatter'),
        paths=('torch.openvino', 'torch.onnx_dynamo_openvino', 'torch.onnx_torchscript_openvino'),
        case="openvino-gather-index-smaller-than-input.json",
        script="openvino_cpu_single_thread_swallows_shape_error.py",
        found="2026-11-28 (openvino 2026.4.1)",
        details=("known bug: OpenVINO's CPU plugin compiled with INFERENCE_NUM_THREADS=1 swallows a node's "
                 "shape-inference error at inference (dynamic shapes): a GatherElements whose indices are smaller "
                 "than data in a dim other than the axis (torch.gather allows it), or a ScatterElementsUpdate whose "
                 "updates are larger than its indices, makes infer() return uninitialised values and outputs of "
                 "shape [0], for other nodes of the model too; with the default threading the same model raises "
                 "('`data` and `indices` must have equal or intersecting dimensions'). Provenance: found by "
                 "conformance 2026-11-28 (openvino 2026.4.1), the clean torch campaigns (infer mode) (cases "
                 "d85d6e8f7cc0, 8bb1a15559a2, f0316a4c504d, a98bc16310bd, 3cd13b2ccc37); "
                 "cases/standalone/openvino_cpu_single_thread_swallows_shape_error.py, "
                 "cases/openvino-gather-index-smaller-than-input.json (torch.openvino)."),
        example=Failure('compare', divergences=(('value', '[0]'),), ops=('gather',)),
    ),
    writes_wrong(
        "openvino.single_thread_unique_empty",
        reason=("OpenVINO's CPU plugin compiled with INFERENCE_NUM_THREADS=1 swallows Unique's shape error on a "
                "zero-size input: zero-size or uninitialised outputs"),
        phases=('compare',),
        divergences=('shape', 'value'),
        versions=">=2026.4.1",
        package="openvino",
        ops=('unique',),
        facts=('zero_size_input',),
        paths=('torch.openvino', 'torch.onnx_dynamo_openvino', 'torch.onnx_torchscript_openvino', 'tf.openvino'),
        script="torch_openvino_single_thread_unique_empty.py",
        found="2026-11-29 (torch 2.13.0, openvino 2026.4.1)",
        details=("known bug: torch.unique of a zero-size input (an int64 [B, 0]) is a Unique node that cannot infer "
                 "its shape at inference ('Cannot get dims for non static shape', which the CPU plugin raises by "
                 "default); compiled with INFERENCE_NUM_THREADS=1 (as conformance compiles) it swallows the error "
                 "and infer() returns every output of the model with a zero-size shape (tanh(x) of [0, 0] for [2, "
                 "3]; read from either ONNX exporter's file or TensorFlow's SavedModel, [0, 3]), or outputs of the "
                 "right shape holding uninitialised values (x * 2 of a [1, 1, 1] as 6.3e28, from the TorchScript "
                 "exporter's file and TensorFlow's SavedModel: paddle campaign seed 0, case 94d53761e80c, before "
                 "its int64 [0, 4] was made [2, 4]): the Unique "
                 "face of `openvino.single_thread_shape_error`. Provenance: found by conformance 2026-11-29 "
                 "(torch 2.13.0, openvino 2026.4.1), the torch campaign (seed 0, case 401c31e9a1fd, "
                 "reduced by hand; no case file: replaying the case on every framework's paths grew one process past "
                 "20 GB); cases/standalone/torch_openvino_single_thread_unique_empty.py."),
        example=Failure('compare', divergences=(('shape', '[0]'),), ops=('tanh', 'unique'), facts=('zero_size_input',)),
    ),
    known_bug(
        "openvino.single_thread_unique_empty_crash",
        reason=("OpenVINO's CPU plugin compiled with INFERENCE_NUM_THREADS=1, after swallowing Unique's shape error "
                "on a zero-size input, dies on a later inference"),
        phases=('crash',),
        errors=('SIGSEGV', 'SIGABRT'),
        versions=">=2026.4.1",
        package="openvino",
        ops=('unique',),
        paths=('torch.openvino',),
        script="torch_openvino_single_thread_unique_empty.py",
        found="2026-11-29 (torch 2.13.0, openvino 2026.4.1)",
        details=("known bug: the crash face of `openvino.single_thread_unique_empty`: on a larger model (case "
                 "401c31e9a1fd: torch.unique of an int64 [B, 0] input among 34 statements) the single-threaded CPU "
                 "plugin swallows Unique's shape error on the first call (every output zero-size: the mismatch that "
                 "record names, seen alone with one input set) and the process dies of SIGSEGV or SIGABRT in a "
                 "later infer() on the same compiled model (three of three replays with four input sets); on its "
                 "example alone with a non-empty input the program passes. Provenance: found by conformance "
                 "2026-11-29 (torch 2.13.0, openvino 2026.4.1), the torch campaign (seed 0, case 401c31e9a1fd); "
                 "cases/standalone/torch_openvino_single_thread_unique_empty.py (the mismatch face)."),
        example=Failure('crash', error_types=('SIGSEGV',), ops=('unique', 'tanh')),
    ),
    writes_wrong(
        "openvino.empty_concat_dynamic_dim",
        reason=("OpenVINO loses the dynamic leading dim of a Concat of zero-size tensors (a stack of an empty [B, 0] "
                "is [0, 0, 2])"),
        divergences=('shape',),
        versions=">=2026.4.1",
        package="openvino",
        ops=('stack', 'concat', 'concat_empty'),
        paths=('torch.onnx_torchscript_openvino', 'torch.onnx_dynamo_openvino', 'tf.openvino', 'tf.onnx_openvino'),
        case="openvino-empty-concat-dynamic-dim.json",
        script="openvino_empty_concat_dynamic_dim.py",
        found="2026-11-29 (torch 2.13.0, tensorflow 2.21.0, openvino 2026.4.1)",
        details=("known bug (OpenVINO, read from an ONNX file or a SavedModel with a dynamic batch dim): a stack of "
                 "a zero-size x ([B, 0], Unsqueeze, Unsqueeze, Concat) on axis 2 runs with shape (0, 0, 2) where "
                 "the framework and onnxruntime give (B, 0, 2), silently; the same ONNX file with a static batch "
                 "dim, a non-empty x, and OpenVINO's PyTorch reader (torch.openvino) give (B, 0, 2). Provenance: "
                 "found by conformance 2026-11-29 (torch 2.13.0, openvino 2026.4.1), the torch campaign (seed 0, "
                 "300 s, case dac2bc969580 on torch.onnx_torchscript_openvino, reduced by conformance triage to one "
                 "statement; transplanting the case found the same on torch.onnx_dynamo_openvino, tf.openvino and "
                 "tf.onnx_openvino); cases/openvino-empty-concat-dynamic-dim.json, "
                 "cases/standalone/openvino_empty_concat_dynamic_dim.py."),
        example=Failure('compare', divergences=(('shape', '[0]'),), ops=('stack',)),
    ),
    known_bug(
        "openvino.dilated_grouped_conv",
        reason=("OpenVINO's TensorFlow reader reads a grouped convolution with a dilation (SpaceToBatchND, Conv2D, "
                "BatchToSpaceND) as a plain Convolution and refuses it"),
        errors=('RuntimeError',),
        message=r"Data batch channel count \(\d+\) does not match filter input channel count \(\d+\)",
        versions=">=2026.4.1",
        package="openvino",
        ops=('conv2d_grouped', 'conv2d_depthwise'),
        paths=('tf.openvino',),
        case="tf-openvino-dilated-grouped-conv.json",
        script="tf_openvino_dilated_grouped_conv.py",
        found="2026-11-29 (tensorflow 2.21.0, openvino 2026.4.1)",
        details=("known bug (OpenVINO, a SavedModel): tf.nn.convolution with filters of fewer input channels than "
                 "the input's (groups) and dilations=2, which TensorFlow writes as SpaceToBatchND, Conv2D and "
                 "BatchToSpaceND, is read as a plain Convolution: 'Data batch channel count (4) does not match "
                 "filter input channel count (2)'; the same grouped convolution without the dilation converts and "
                 "agrees. Provenance: found by conformance 2026-11-29 (tensorflow 2.21.0, openvino 2026.4.1), the tf "
                 "campaign rerun (seed 0, case 2890188824e1, reduced by hand); "
                 "cases/tf-openvino-dilated-grouped-conv.json, cases/standalone/tf_openvino_dilated_grouped_conv.py."),
        example=Failure('convert',
                        error_types=('RuntimeError',),
                        message=("Check 'data_rank.is_dynamic() || filters_rank.is_dynamic() || data_shape[1]."
                                 "compatible(filters_shape[1])' failed: Data batch channel count (4) does not match "
                                 "filter input channel count (2)."),
                        ops=('conv2d_grouped',)),
    ),
    known_bug(
        "openvino.unused_dict_key",
        reason=("OpenVINO's PyTorch reader names a dict input's flattened inputs after its keys, then cannot find "
                "the input of a key that forward does not read"),
        errors=('RuntimeError',),
        message="Input for tensor name '[^']+' is not found",
        versions=">=2026.0",
        package="openvino",
        paths=('torch.openvino',),
        case="torch-openvino-unused-dict-input-key.json",
        found="2026-11-23 (torch 2.13.0, openvino 2026.4.1)",
        details=("known bug: OpenVINO's PyTorch reader names a dict input's flattened inputs after its keys, then "
                 "cannot find the input of a key that forward does not read ('Input for tensor name ... is not "
                 "found'); an unused plain tensor argument is kept. Provenance: found by conformance 2026-11-23 "
                 "(torch 2.13.0, openvino 2026.4.1); cases/torch-openvino-unused-dict-input-key.json."),
        example=Failure('convert', error_types=('RuntimeError',), message="Input for tensor name 'x' is not found"),
    ),
    known_bug(
        "openvino.unused_list_input",
        reason=("OpenVINO's PyTorch reader leaves out of the traced graph a list input of two or more tensors that "
                "forward does not read"),
        errors=('GeneralFailure', 'OpConversionFailure'),
        message=(r"Type/shape was set to non-existent input|Incompatible shape was requested for input #\d+, "
                 r"opset1::Parameter Parameter_\d+ "),
        versions=">=2026.0",
        package="openvino",
        constructs=('list_input',),
        paths=('torch.openvino',),
        found="2026-11-28 (torch 2.13.0, openvino 2026.4.1)",
        details=("known bug: OpenVINO's PyTorch reader leaves out of the traced graph a list input of two or more "
                 "tensors that forward does not read (`forward(self, x0, x1: List[Tensor])` returning x0; a "
                 "one-element list, or a plain tensor, is kept), then sets the example's shapes by position: past "
                 "the last input ('idx < parameters.size()': 'Type/shape was set to non-existent input'), or on the "
                 "next one where the ranks differ ('PartialShape::merge_into': 'Incompatible shape was requested "
                 "for input #1, opset1::Parameter Parameter_N'); with equal ranks it converts with too few inputs "
                 "(UnmatchedInputs). Provenance: found by conformance 2026-11-28 (torch 2.13.0, openvino 2026.4.1) "
                 "(cases 131fc5819341, 10712e622b42, minimised by conformance triage)."),
        example=Failure('convert',
                        error_types=('GeneralFailure',),
                        message="Type/shape was set to non-existent input",
                        constructs=('list_input',)),
    ),
    known_bug(
        "openvino.unused_input_beside_dict",
        reason=("OpenVINO's PyTorch reader, given a tuple input that holds a dict, drops an input that forward does "
                "not read"),
        errors=('GeneralFailure', 'OpConversionFailure'),
        message=r"\bi(dx)? < parameters\.size\(\)",
        versions=">=2026.0",
        package="openvino",
        paths=('torch.openvino',),
        case="torch-openvino-unused-input-beside-nested-dict.json",
        found="2026-11-23 (torch 2.13.0, openvino 2026.4.1)",
        details=("known bug: OpenVINO's PyTorch reader, given a tuple input that holds a dict, drops from the "
                 "traced graph an input that forward does not read (`y` of `forward(self, x: Tuple[Tensor, "
                 "Dict[str, Tensor]], y: Tuple[Tensor])` returning `x[0] + x[1]['k']`), then fails setting the "
                 "example's shapes by position ('idx < parameters.size()': 'Type/shape was set to non-existent "
                 "input'); without the dict it keeps it. Provenance: found by conformance 2026-11-23 (torch 2.13.0, "
                 "openvino 2026.4.1); cases/torch-openvino-unused-input-beside-nested-dict.json."),
        example=Failure('convert', error_types=('GeneralFailure',), message="i < parameters.size()"),
    ),
    known_bug(
        "openvino.input_dropped",
        reason=("OpenVINO's PyTorch reader leaves out of the model an input that forward did not read on the traced "
                "example, among nested inputs"),
        errors=('UnmatchedInputs',),
        versions=">=2026.0",
        package="openvino",
        paths=('torch.openvino',),
        case="torch-openvino-unused-input-beside-nested-dict.json",
        found="2026-11-23 (torch 2.13.0, openvino 2026.4.1)",
        details=("known bug: OpenVINO's PyTorch reader leaves out of the converted model an input that forward did "
                 "not read on the traced example, among nested inputs (a list element, beside a dict): the model "
                 "has fewer inputs than the module's tensors, unnamed, so a caller cannot tell which to feed "
                 "(conformance's UnmatchedInputs); the same family as the two known bugs above. Provenance: found "
                 "by conformance 2026-11-23 (torch 2.13.0, openvino 2026.4.1); "
                 "cases/torch-openvino-unused-input-beside-nested-dict.json."),
        example=Failure('convert', error_types=('UnmatchedInputs',)),
    ),
    known_bug(
        "openvino.dict_key_clash",
        reason="OpenVINO's PyTorch reader names a dict input's flattened inputs after their keys",
        errors=('GeneralFailure',),
        message="PartialShape::merge_into",
        versions=">=2026.0",
        package="openvino",
        paths=('torch.openvino',),
        case="torch-openvino-same-key-in-two-dict-inputs.json",
        found="2026-11-23 (torch 2.13.0, openvino 2026.4.1)",
        details=("known bug: OpenVINO's PyTorch reader names a dict input's flattened inputs after their keys; two "
                 "dict inputs with the same key (`forward(self, a, b)`, a = {'k': 2-d}, b = {'k': 1-d}) get 'k' and "
                 "'k_1', and the example's shapes are set on the wrong one ('PartialShape::merge_into ... "
                 "Incompatible shape was requested'); with equal ranks it converts and runs right. Provenance: "
                 "found by conformance 2026-11-23 (torch 2.13.0, openvino 2026.4.1); "
                 "cases/torch-openvino-same-key-in-two-dict-inputs.json."),
        example=Failure('convert', error_types=('GeneralFailure',), message="PartialShape::merge_into"),
    ),
    refuses_with(
        "openvino.nested_sequence",
        reason=("OpenVINO's PyTorch reader keeps a list or tuple inside a dict input as a TorchScript tuple, which "
                "it refuses"),
        errors=('OpConversionFailure',),
        message=r"prim::TupleUnpack with a message:\s*Tuples are not supported yet",
        versions=">=2024.0",
        package="openvino",
        paths=('torch.openvino',),
        reference="https://docs.openvino.ai/2026/openvino-workflow/model-preparation/convert-model-pytorch.html",
        details=("OpenVINO's PyTorch reader flattens tensors, tuples and lists, and dicts of tensors, into inputs; "
                 "a list or tuple inside a dict input stays a TorchScript tuple, which it refuses ('Tuples are not "
                 "supported yet'). Provenance: "
                 "https://docs.openvino.ai/2026/openvino-workflow/model-preparation/convert-model-pytorch.html "
                 "(non-tensor data types)."),
        example=Failure('convert',
                        error_types=('OpConversionFailure',),
                        message="prim::TupleUnpack with a message:Tuples are not supported yet"),
    ),
    refuses_with(
        "openvino.dict_of_sequences",
        reason=("OpenVINO's PyTorch reader traces a dict input of lists as a dict of tuples, which torch.jit.trace "
                "refuses when the values differ in type"),
        errors=('RuntimeError',),
        message="Dictionary inputs to traced functions must have consistent type",
        versions=">=2024.0",
        package="openvino",
        paths=('torch.openvino',),
        reference="https://docs.openvino.ai/2026/openvino-workflow/model-preparation/convert-model-pytorch.html",
        details=("OpenVINO's PyTorch reader traces a dict input of lists as a dict of tuples, and torch.jit.trace "
                 "takes a dict only when its values have one type ('Dictionary inputs to traced functions must have "
                 "consistent type': tuples of different lengths); OpenVINO documents dicts of tensors as inputs. "
                 "Provenance: "
                 "https://docs.openvino.ai/2026/openvino-workflow/model-preparation/convert-model-pytorch.html "
                 "(non-tensor data types)."),
        example=Failure('convert',
                        error_types=('RuntimeError',),
                        message="Dictionary inputs to traced functions must have consistent type"),
    ),
    refuses_with(
        "openvino.pytorch_reader_no_conversion_rule",
        reason=("OpenVINO's PyTorch reader has no conversion rule for some aten operators (aten::trunc, "
                "aten::logcumsumexp) and refuses the model"),
        errors=('OpConversionFailure',),
        message="No conversion rule found for operations",
        versions=">=2024.0",
        package="openvino",
        paths=('torch.openvino',),
        reference="https://docs.openvino.ai/2026/documentation/compatibility-and-support/supported-operations.html",
        details=("OpenVINO's PyTorch reader has no conversion rule for some aten operators (aten::trunc, "
                 "aten::logcumsumexp among this suite's ops) and refuses the model ('No conversion rule found for "
                 "operations'). Provenance: "
                 "https://docs.openvino.ai/2026/documentation/compatibility-and-support/supported-operations.html."),
        example=Failure('convert',
                        error_types=('OpConversionFailure',),
                        message="No conversion rule found for operations"),
    ),
    refuses_with(
        "openvino.int_keyed_dict",
        reason="openvino.convert_model takes example_input as tensors, or a dict of them keyed by parameter name",
        errors=('Error',),
        message="Unexpected type of example_input(?s:.*)Got <class 'dict'>",
        versions=">=2024.0",
        package="openvino",
        paths=('torch.openvino',),
        reference="https://docs.openvino.ai/2026/openvino-workflow/model-preparation/convert-model-pytorch.html",
        details=("openvino.convert_model takes example_input as tensors, or a dict of them keyed by parameter name: "
                 "a dict input keyed by ints is refused ('Unexpected type of example_input ... Got <class "
                 "'dict'>'). Provenance: "
                 "https://docs.openvino.ai/2026/openvino-workflow/model-preparation/convert-model-pytorch.html."),
        example=Failure('convert',
                        error_types=('Error',),
                        message="Unexpected type of example_inputGot <class 'dict'>"),
    ),
    writes_wrong(
        "openvino.f64_saturates",
        reason=("OpenVINO's CPU plugin computes float64 in float32 and saturates a value beyond float32's range to "
                "+-3.4e38 where a cast gives +-inf"),
        phases=('compare',),
        divergences=('nonfinite',),
        versions=">=2026.0",
        package="openvino",
        ops=('cast',),
        paths=('torch.openvino', 'torch.onnx_dynamo_openvino', 'torch.onnx_torchscript_openvino', 'tf.openvino',
               'tf.onnx_openvino'),
        issue="https://github.com/openvinotoolkit/openvino/issues/33564",
        script="openvino_cpu_f64_saturates.py",
        found="2026-11-28 (openvino 2026.4.1)",
        details=("known bug: OpenVINO's CPU plugin computes float64 in float32 and narrows it with saturation: a "
                 "float64 value beyond float32's range (4.5e307, -1e300) becomes +-3.4e38 (FLT_MAX) where the "
                 "framework's cast to float32 gives +-inf (openvinotoolkit/openvino#33564: FLT_MAX for a float64 "
                 "division by zero). Provenance: https://github.com/openvinotoolkit/openvino/issues/33564; found by "
                 "conformance 2026-11-28 (openvino 2026.4.1), the deployment campaigns of torch, paddle and tf "
                 "(seed 0) (cases dea35656e6b2, c978b607b5e2); cases/standalone/openvino_cpu_f64_saturates.py."),
        example=Failure('compare', divergences=(('nonfinite', '[0]'),), ops=('cast',)),
    ),
    writes_wrong(
        "openvino.divide_by_reciprocal",
        reason=("OpenVINO's CPU plugin divides float32 as a * (1 / b), which is not correctly rounded (x / x = "
                "0.99999994)"),
        phases=('compare',),
        divergences=('value', 'nonfinite'),
        # No version gate (seen on 2026.4.1, not bisected): the least specific of the division records, so that on
        # a chained path an exporter's record names a division mismatch both select (see details).
        package="openvino",
        ops=('floor_div', 'floor_divide_scalar', 'ceil_div', 'trunc_div'),
        paths=('torch.openvino', 'torch.onnx_dynamo_openvino', 'torch.onnx_torchscript_openvino',
               'paddle.onnx_openvino', 'tf.openvino', 'tf.onnx_openvino'),
        script="openvino_cpu_divide_by_reciprocal.py",
        found="2026-11-28 (openvino 2026.4.1)",
        details=("known bug: OpenVINO's CPU plugin divides float32 as a * (1 / b), which is not correctly rounded "
                 "(0.17173822 / 0.17173822 = 0.99999994, x / 0.3 of an exact multiple of 0.3 one ulp off): a floor "
                 "or truncating division of an exact multiple is one too small (x // x = 0; float64 too, computed "
                 "in float32), and what divides by it next is infinite; integer division is exact. On a chained "
                 "path (an ONNX exporter, then OpenVINO) the exporter's own division records (tf2onnx's integer "
                 "FloorDiv and float TruncateDiv, the TorchScript exporter's truncation, torchlib's and "
                 "paddle2onnx's Floor(Div) of infinities, the dynamo exporter's refined batch range) select the same "
                 "divergences: they name such a mismatch, their bug being in the file itself (onnxruntime shows it "
                 "too) and hit by far more inputs than an exact multiple; this record names the rest (a truncating "
                 "division there, a float floor division whose quotient no exporter record selects). Provenance: "
                 "found by conformance 2026-11-28 (openvino 2026.4.1), the deployment campaigns of torch, paddle "
                 "and tf (seed 0) (cases 265e7306ca1c, 3bc3ac7a4ea5; trunc_div: 491a2b8ea234); "
                 "cases/standalone/openvino_cpu_divide_by_reciprocal.py."),
        example=Failure('compare', divergences=(('nonfinite', '[0]'),), ops=('trunc_div',)),
    ),
    writes_wrong(
        "openvino.bf16_rounding",
        reason=("OpenVINO's CPU plugin rounds float32 to bfloat16 otherwise than round-to-nearest-even in about a "
                "quarter of the values"),
        phases=('compare',),
        divergences=('value',),
        versions=">=2026.0",
        package="openvino",
        ops=('round_to',),
        paths=('torch.openvino', 'torch.onnx_dynamo_openvino', 'torch.onnx_torchscript_openvino',
               'paddle.onnx_openvino', 'tf.openvino', 'tf.onnx_openvino'),
        script="openvino_cpu_bf16_rounding.py",
        found="2026-11-28 (openvino 2026.4.1)",
        details=("known bug: OpenVINO's CPU plugin converts float32 to bfloat16 rounding up (to even) only when the "
                 "kept mantissa is odd and the dropped half is at least 1/2, whatever lies beyond: -0.5739503 "
                 "becomes -0.5703125 where round-to-nearest-even (torch, ONNX) gives -0.57421875, in about a "
                 "quarter of the values; a float16 round trip (Convert to f16 and back) is dropped altogether. "
                 "Provenance: found by conformance 2026-11-28 (openvino 2026.4.1), the deployment campaigns of "
                 "torch, paddle and tf (seed 0) (case 857191e469c9); cases/standalone/openvino_cpu_bf16_rounding.py."),
        example=Failure('compare', divergences=(('value', '[0]'),), ops=('round_to',)),
    ),
    documented(
        "openvino.int64_computed_as_int32",
        reason=("OpenVINO's CPU plugin computes integers in int32: an int64 value beyond int32's range comes back "
                "as its low 32 bits"),
        phases=('compare',),
        divergences=('value',),
        facts=('int64_beyond_int32',),
        package="openvino",
        case="openvino-i64-computed-as-i32.json",
        script="openvino_cpu_i64_as_i32.py",
        reference="https://docs.openvino.ai/2025/openvino-workflow/running-inference/inference-devices-and-modes/cpu-device.html",
        details=("OpenVINO's CPU plugin computes integers in int32 (its documented integer inference precision, "
                 "'Supported Inference Data Types'): an int64 model keeps int64 inputs and outputs, but a value "
                 "beyond int32's range comes back as its low 32 bits sign-extended (2**63 - 1 becomes -1), even "
                 "through an Identity, where onnxruntime gives the input back. Judged where an example input holds "
                 "such a value (the generator's 'huge' int64 edge). Provenance: "
                 "https://docs.openvino.ai/2025/openvino-workflow/running-inference/inference-devices-and-modes/"
                 "cpu-device.html; found by conformance 2026-11-29 (tf 2.21.0, openvino 2026.4.1), the tf campaign "
                 "seed 0 (case 70bb6006de28); cases/openvino-i64-computed-as-i32.json, "
                 "cases/standalone/openvino_cpu_i64_as_i32.py."),
        example=Failure('compare', divergences=(('value', '[0]'),), facts=('int64_beyond_int32',)),
    ),
    documented(
        "openvino.torch_reader_unrolls_rows_loop",
        reason=("OpenVINO's PyTorch reader traces forward on the example: a loop over a tensor's rows is unrolled at "
                "the example's batch"),
        phases=('compare',),
        divergences=('structure', 'shape'),
        constructs=('for_rows',),
        paths=('torch.openvino',),
        reference="https://docs.openvino.ai/2025/openvino-workflow/model-preparation/convert-model-pytorch.html",
        details=("openvino.convert_model of a torch.nn.Module traces forward on its example_input (torch.jit.trace): "
                 "`for r in x: out.append(r)` over a tensor's rows is unrolled at the example's batch, so an input "
                 "of another batch returns the example's number of rows (13 outputs where eager has 11; or, unrolled "
                 "at a batch of 1, one row of shape [0] where eager returns two of [1]), as a "
                 "traced TorchScript module would refuse it (`torchscript.trace_unrolled_loop_count`). Provenance: "
                 "https://docs.openvino.ai/2025/openvino-workflow/model-preparation/convert-model-pytorch.html; seen "
                 "in the torch campaign seed 0 of 2026-11-29 (case 66b6b1c8b908, reduced by conformance triage to "
                 "that loop; batch inputs; the shape face on its kwargs inputs in the rerun of 2026-11-29, reduced "
                 "to `for r in x: l.append(r)`)."),
        example=Failure('compare', divergences=(('structure', ''),), constructs=('for_rows', 'list_value')),
    ),
    documented(
        "openvino.no_state",
        reason=("An OpenVINO model converted from a framework's has no state: buffers and variables become "
                "constants of the conversion"),
        phases=('compare',),
        constructs=('state_counter', 'state_running', 'state_cache'),
        reference=("https://docs.openvino.ai/2025/openvino-workflow/running-inference/inference-request/stateful-models.html"),
        details=("an OpenVINO model converted from a framework's has no state: buffers and variables become "
                 "constants of the conversion (state lives only in ReadValue/Assign pairs, which the conversion "
                 "does not write), so the updates forward makes to them are lost. Provenance: "
                 "https://docs.openvino.ai/2025/openvino-workflow/running-inference/inference-request/stateful-models.html."),
        example=Failure('compare', divergences=(('value', '[0]'),), constructs=('state_counter',)),
    ),
    documented(
        "openvino.no_input_writes",
        reason=("An OpenVINO compiled model cannot write into its inputs: it computes with the written values, the "
                "caller's tensors keep theirs"),
        phases=('compare',),
        where=r"^\['inputs'\]",
        constructs=('input_inplace',),
        reference="https://docs.openvino.ai/2025/openvino-workflow/running-inference/inference-request.html",
        details=("an OpenVINO compiled model cannot write into its inputs: it computes with the written values, the "
                 "caller's tensors keep theirs. Provenance: "
                 "https://docs.openvino.ai/2025/openvino-workflow/running-inference/inference-request.html."),
        example=Failure('compare', divergences=(('value', "['inputs']"),), constructs=('input_inplace',)),
    ),
    known_bug(
        "openvino.stale_views",
        reason=("OpenVINO's PyTorch reader computes a view taken before an in-place write to its base from the "
                "values before the write"),
        phases=('compare',),
        versions=">=2.13",
        constructs=('base_write', 'base_setitem'),
        paths=('torch.openvino', 'torch.onnx_torchscript_openvino'),
        case="torch-openvino-stale-view-after-base-write.json",
        details=("known bug: OpenVINO's PyTorch reader computes a view taken before an in-place write to its base "
                 "from the values before the write. Provenance: "
                 "cases/torch-openvino-stale-view-after-base-write.json."),
        example=Failure('compare', divergences=(('value', '[0]'),), constructs=('base_write',)),
    ),
    known_bug(
        "openvino.empty_matmul_transposed",
        reason=("OpenVINO's CPU plugin cannot compile a MatMul of static shapes with a zero-size operand and a "
                "transposed one"),
        errors=('RuntimeError',),
        message="object is not initialized|Matmul doesn't support a degenerate case",
        versions=">=2026.0",
        package="openvino",
        ops=('matmul_empty',),
        paths=('torch.onnx_dynamo_openvino', 'torch.onnx_torchscript_openvino', 'paddle.onnx_openvino', 'tf.openvino',
               'tf.onnx_openvino'),
        script="openvino_cpu_empty_matmul_transposed.py",
        found="2026-11-28 (openvino 2026.4.1)",
        details=("known bug: OpenVINO's CPU plugin cannot compile a MatMul of static shapes with a zero-size "
                 "operand and a transposed one (`x @ x.transpose(-2, -1)` of x [0, 1, 1, 3] or [3, 0]; the ONNX "
                 "reader folds the Transpose into MatMul's transpose_b): compile_model fails with 'object is not "
                 "initialized' (with an op fused after it: 'Matmul doesn't support a degenerate case when other ops "
                 "are fused'); without the transpose it compiles and gives the empty sum's zeros. Provenance: found "
                 "by conformance 2026-11-28 (openvino 2026.4.1), the deployment campaigns of torch, paddle and tf "
                 "(seed 0) (cases ecbbd52cdbb3, f818df3c6397, db8da63893a3); "
                 "cases/standalone/openvino_cpu_empty_matmul_transposed.py."),
        example=Failure('convert',
                        error_types=('RuntimeError',),
                        message="object is not initialized",
                        ops=('matmul_empty',)),
    ),
    refuses_with(
        "openvino.no_pir",
        reason=("OpenVINO's Paddle reader reads the legacy program format (.pdmodel) only, not the PIR program "
                "paddle.jit.save writes since Paddle 3.0"),
        errors=('Error',),
        message="Cannot recognize input model",
        versions=">=3.0",
        paths=('paddle.openvino',),
        issue="https://github.com/openvinotoolkit/openvino/issues/29325",
        details=("OpenVINO's Paddle reader reads the legacy program format (.pdmodel) only, not the PIR program "
                 "(.json) that paddle.jit.save writes by default since Paddle 3.0 (the legacy IR is deprecated "
                 "there: FLAGS_enable_pir_api=0 before paddle is imported); OpenVINO is open. Provenance: "
                 "https://github.com/openvinotoolkit/openvino/issues/29325."),
        example=Failure('convert', error_types=('Error',), message="Cannot recognize input model"),
    ),
    writes_wrong(
        "openvino.f64_saturates_p2o",
        reason=("OpenVINO's CPU plugin computes float64 in float32 with saturation, also in paddle2onnx's files "
                "(casts and floor division)"),
        phases=('compare',),
        divergences=('nonfinite',),
        # No version gate, like divide_by_reciprocal: the less specific, so that paddle2onnx's record names a
        # nonfinite floor division both select (see details).
        package="openvino",
        ops=('cast', 'floor_div'),
        paths=('paddle.onnx_openvino',),
        issue="https://github.com/openvinotoolkit/openvino/issues/33564",
        script="openvino_cpu_f64_saturates.py",
        found="2026-11-28 (openvino 2026.4.1)",
        details=("known bug: OpenVINO's CPU plugin computes float64 in float32 and narrows it with saturation: a "
                 "float64 value beyond float32's range (4.5e307, -1e300) becomes +-3.4e38 (FLT_MAX) where the "
                 "framework's cast to float32 gives +-inf (openvinotoolkit/openvino#33564: FLT_MAX for a float64 "
                 "division by zero). A nonfinite floor division is also paddle2onnx.floor_divide_infinite's "
                 "divergence (an infinite operand: Floor(Div)), which names it: its bug is in the file itself. "
                 "Provenance: https://github.com/openvinotoolkit/openvino/issues/33564; found by "
                 "conformance 2026-11-28 (openvino 2026.4.1), the deployment campaigns of torch, paddle and tf "
                 "(seed 0) (cases dea35656e6b2, c978b607b5e2); cases/standalone/openvino_cpu_f64_saturates.py."),
        example=Failure('compare', divergences=(('nonfinite', '[0]'),), ops=('cast',)),
    ),
    refuses_with(
        "openvino.tf_reader_no_conversion_rule",
        reason=("OpenVINO's TensorFlow reader has no conversion rule for some TensorFlow operators "
                "(CumulativeLogsumexp) and refuses the model"),
        errors=('OpConversionFailure',),
        message="No conversion rule found for operations",
        versions=">=2024.0",
        package="openvino",
        paths=('tf.openvino',),
        reference="https://docs.openvino.ai/2026/documentation/compatibility-and-support/supported-operations.html",
        details=("OpenVINO's TensorFlow reader has no conversion rule for some TensorFlow operators "
                 "(CumulativeLogsumexp among this suite's ops) and refuses the model ('No conversion rule found for "
                 "operations'). Provenance: "
                 "https://docs.openvino.ai/2026/documentation/compatibility-and-support/supported-operations.html."),
        example=Failure('convert',
                        error_types=('OpConversionFailure',),
                        message="No conversion rule found for operations"),
    ),
    known_bug(
        "openvino.variable_not_found",
        reason=("OpenVINO's TensorFlow reader fails on the SavedModel of some Keras 3 models (Conv2D, pooling, "
                "Dense, MultiHeadAttention)"),
        errors=('OpConversionFailure',),
        message="VarHandleOp(?s:.*)Cannot find requested variable",
        versions=">=2026.4.1",
        package="openvino",
        paths=('tf.openvino',),
        case="tf-openvino-keras-conv-variable-not-found.json",
        found="2026-11-23 (openvino 2026.4.1)",
        details=("known bug: OpenVINO's TensorFlow reader fails on the SavedModel of some Keras 3 models (Conv2D, "
                 "pooling and Dense; MultiHeadAttention) that tf.saved_model.load runs: 'Cannot find requested "
                 "variable' for a VarHandleOp (cause not isolated: a Keras LSTM model and tf.Modules convert). "
                 "Provenance: found by conformance 2026-11-23 (openvino 2026.4.1); "
                 "cases/tf-openvino-keras-conv-variable-not-found.json."),
        example=Failure('convert',
                        error_types=('OpConversionFailure',),
                        message="VarHandleOpCannot find requested variable"),
    ),
    known_bug(
        "openvino.scan_one_element",
        reason=("tf.scan over a dim of static size 1 (the emitters of cummax and cummin scan tf.maximum, tf.minimum "
                "along a dim moved first) is refused"),
        errors=('OpConversionFailure',),
        message=(r"StatelessWhile with a message:\s*Exception from \S*shape_util\.cpp:\d+:\s*Accessing out-of-range "
                 "dimension"),
        versions=">=2026.4.1",
        package="openvino",
        ops=('cummax', 'cummin'),
        paths=('tf.openvino',),
        found="2026-11-28 (tensorflow 2.21.0, ai-edge-litert 2.3.0, openvino 2026.4.1, tf2onnx 1.17.0)",
        details=("known bug (OpenVINO's TensorFlow reader): tf.scan over a dim of static size 1 (the emitters of "
                 "cummax and cummin scan tf.maximum, tf.minimum along a dim moved first) is refused: its "
                 "StatelessWhile fails to convert ('Accessing out-of-range dimension'); a size of 2 or more, or a "
                 "dynamic one, converts. Provenance: found by conformance 2026-11-28 (tensorflow 2.21.0, "
                 "ai-edge-litert 2.3.0, openvino 2026.4.1, tf2onnx 1.17.0), the TensorFlow deployment campaign "
                 "(seed 0); case 14500a5756bd."),
        example=Failure('convert',
                        error_types=('OpConversionFailure',),
                        message=("StatelessWhile with a message:Exception from shape_util.cpp:1:Accessing out-of-"
                                 "range dimension"),
                        ops=('cummax',)),
    ),
    known_bug(
        "openvino.zero_iteration_while_in_cond",
        reason=("A while loop on a tensor in a tf.cond branch that runs zero times gives its loop variable "
                "uninitialised memory"),
        phases=('compare',),
        divergences=('value', 'nonfinite'),
        versions=">=2026.4.1",
        package="openvino",
        constructs=('while_tensor',),
        paths=('tf.openvino',),
        script="tf_openvino_zero_iteration_while_in_cond.py",
        found="2026-11-28 (tensorflow 2.21.0, ai-edge-litert 2.3.0, openvino 2026.4.1, tf2onnx 1.17.0)",
        details=("known bug (OpenVINO, a SavedModel): a while loop on a tensor in a tf.cond branch that runs zero "
                 "times gives its loop variable uninitialised memory (1e+34, 4.6e-41 ...) where TensorFlow keeps "
                 "the value it had before the loop (a body reading a value from outside the loop; seen where the "
                 "batch decides the branch). Provenance: found by conformance 2026-11-28 (tensorflow 2.21.0, "
                 "ai-edge-litert 2.3.0, openvino 2026.4.1, tf2onnx 1.17.0), the TensorFlow deployment campaign "
                 "(seed 0); case 9d9a36e36b2b; cases/standalone/tf_openvino_zero_iteration_while_in_cond.py."),
        example=Failure('compare', divergences=(('value', '[0]'),), constructs=('while_tensor',)),
    ),
    known_bug(
        "openvino.matmul_scalar_reshape_segv",
        reason=("OpenVINO's CPU plugin dies of SIGSEGV compiling a MatMul of [1, n] and [n, 1] followed by a "
                "Reshape to a scalar"),
        phases=('crash',),
        errors=('SIGSEGV',),
        versions=">=2026.4.1",
        package="openvino",
        ops=('dot',),
        paths=('tf.openvino',),
        script="openvino_cpu_matmul_scalar_reshape_segv.py",
        found="2026-11-28 (tensorflow 2.21.0, openvino 2026.4.1)",
        details=("known bug: OpenVINO's CPU plugin dies of SIGSEGV compiling a MatMul of a [1, n] and an [n, 1] "
                 "operand followed by a Reshape to a scalar (target shape []), which is how OpenVINO's TensorFlow "
                 "reader writes tf.tensordot(a, b, 1) of two vectors (the op dot); the MatMul alone, or a Reshape "
                 "to a scalar of a [1, 1] tensor, compiles. Provenance: found by conformance 2026-11-28 (tensorflow "
                 "2.21.0, openvino 2026.4.1), the TensorFlow deployment campaign rerun (seed 0) (cases "
                 "ffb989f6ff0f, d2e6efdc1b24); cases/standalone/openvino_cpu_matmul_scalar_reshape_segv.py."),
        example=Failure('crash', error_types=('SIGSEGV',), ops=('dot',)),
    ),
    known_bug(
        "openvino.empty_gather_sigfpe",
        reason="OpenVINO's CPU plugin dies of SIGFPE compiling a Gather by indices of static shape [0]",
        phases=('crash',),
        errors=('SIGFPE',),
        versions=">=2026.4.1",
        package="openvino",
        ops=('embedding',),
        paths=('tf.openvino',),
        script="openvino_cpu_empty_gather_sigfpe.py",
        found="2026-11-28 (tensorflow 2.21.0, openvino 2026.4.1)",
        details=("known bug: OpenVINO's CPU plugin dies of SIGFPE compiling a Gather by indices of static shape [0] "
                 "(an embedding, tf.gather of a table, of a zero-size tensor), where TensorFlow gives an empty "
                 "tensor; indices of shape [1] compile. Provenance: found by conformance 2026-11-28 (tensorflow "
                 "2.21.0, openvino 2026.4.1), the TensorFlow deployment campaign rerun (seed 0) (case "
                 "334065f0ff78); cases/standalone/openvino_cpu_empty_gather_sigfpe.py."),
        example=Failure('crash', error_types=('SIGFPE',), ops=('embedding',)),
    ),
    refuses_with(
        "openvino.reverse_multiple_axes",
        reason="OpenVINO's TensorFlow reader does not convert ReverseV2 with more than one axis",
        errors=('OpConversionFailure',),
        message="does not support Reverse or ReverseV2 with multiple axes",
        versions=">=2026.4.1",
        package="openvino",
        ops=('flip',),
        paths=('tf.openvino',),
        found="2026-11-28 (tensorflow 2.21.0, ai-edge-litert 2.3.0, openvino 2026.4.1, tf2onnx 1.17.0)",
        details=("OpenVINO's TensorFlow reader does not convert ReverseV2 with more than one axis (tf.reverse of "
                 "axes [1, 0], the op flip): 'OpenVINO TensorFlow Frontend does not support Reverse or ReverseV2 "
                 "with multiple axes for the reversing' (its translator checks axes.size() == 1). Provenance: found "
                 "by conformance 2026-11-28 (tensorflow 2.21.0, ai-edge-litert 2.3.0, openvino 2026.4.1, tf2onnx "
                 "1.17.0), the TensorFlow deployment campaign (seed 0) (rerun), case 091e7f349905; "
                 "src/frontends/tensorflow_common/src/op/reverse.cpp."),
        example=Failure('convert',
                        error_types=('OpConversionFailure',),
                        message="does not support Reverse or ReverseV2 with multiple axes",
                        ops=('flip',)),
    ),
    writes_wrong(
        "openvino.unique_unsorted",
        reason=("OpenVINO's CPU plugin computes Unique with sorted=False wrong (of [4, 2, 1, 3, 0, 2] it gives [4, "
                "0, 0, 0, 0])"),
        phases=('compare',),
        divergences=('value',),
        versions=">=2026.4.1",
        package="openvino",
        ops=('unique',),
        paths=('tf.openvino', 'tf.onnx_openvino'),
        script="openvino_cpu_unique_unsorted.py",
        found="2026-11-28 (tensorflow 2.21.0, openvino 2026.4.1)",
        details=("known bug: OpenVINO's CPU plugin computes Unique with sorted=False wrong: of [4, 2, 1, 3, 0, 2] "
                 "it gives [4, 0, 0, 0, 0] where the distinct values in order of first appearance are [4, 2, 1, 3, "
                 "0] (any element type; sorted=True is right); OpenVINO's TensorFlow reader writes tf.unique so, "
                 "and so does its ONNX reader for tf2onnx's Unique (the op unique's emitter sorts tf.unique's "
                 "values: they are not what differs). Provenance: found by conformance 2026-11-28 (tensorflow "
                 "2.21.0, openvino 2026.4.1), the TensorFlow deployment campaign rerun (seed 0) (case "
                 "2a689569fcbe); cases/standalone/openvino_cpu_unique_unsorted.py."),
        example=Failure('compare', divergences=(('value', '[0]'),), ops=('unique',)),
    ),
    known_bug(
        "openvino.onnx_if_outputs",
        reason=("OpenVINO's ONNX reader refuses an If of tf2onnx's with two outputs in each branch, which "
                "onnx.checker and onnxruntime take"),
        errors=('RuntimeError',),
        message="'then' and 'else' branches have to have the same number of outputs",
        versions=">=2026.4.1",
        package="openvino",
        paths=('tf.onnx_openvino',),
        found="2026-11-28 (tensorflow 2.21.0, ai-edge-litert 2.3.0, openvino 2026.4.1, tf2onnx 1.17.0)",
        details=("known bug (OpenVINO's ONNX reader), not minimised: an If of tf2onnx's with two outputs in each "
                 "branch (onnx.checker and onnxruntime take the file; tf.onnx passes) is refused: \"'then' and "
                 "'else' branches have to have the same number of outputs\" (either output alone is taken). "
                 "Provenance: found by conformance 2026-11-28 (tensorflow 2.21.0, ai-edge-litert 2.3.0, openvino "
                 "2026.4.1, tf2onnx 1.17.0), the TensorFlow deployment campaign (seed 0); case e2afbceac11e."),
        example=Failure('convert',
                        error_types=('RuntimeError',),
                        message="'then' and 'else' branches have to have the same number of outputs"),
    ),
    known_bug(
        "openvino.onnx_empty_gather_rank",
        reason=("OpenVINO's ONNX reader gives a Gather of a shape by indices of shape [0] rank 0, so a reduction "
                "over its axis 0 is refused"),
        errors=('RuntimeError',),
        message=(r"Node\(ReduceProd\): [^>]*>':\s*Number of reduction axes \(\d+\) is larger than the input tensor's "
                 r"rank \(0\)"),
        versions=">=2026.4.1",
        package="openvino",
        ops=('dot',),
        paths=('tf.onnx_openvino',),
        found="2026-11-28 (tensorflow 2.21.0, openvino 2026.4.1)",
        details=("known bug (OpenVINO's ONNX reader): a Gather of a shape by indices of shape [0] (an empty "
                 "initializer) is given rank 0 where ONNX's shape inference gives [0], so a ReduceProd over axis 0 "
                 "of it is refused ('Number of reduction axes (1) is larger than the input tensor's rank (0)', and "
                 "a Concat of it: 'Accessing out-of-range dimension'); tf2onnx writes tf.tensordot(a, b, 1) of two "
                 "vectors of a dynamic dim so (the Gather of the free dims), and onnxruntime runs the file (tf.onnx "
                 "passes); indices of shape [1] are read right. Provenance: found by conformance 2026-11-28 "
                 "(tensorflow 2.21.0, openvino 2026.4.1), the TensorFlow deployment campaign rerun (seed 0) (case "
                 "d2e6efdc1b24, tf.onnx_openvino)."),
        example=Failure('convert',
                        error_types=('RuntimeError',),
                        message=("Node(ReduceProd): >':Number of reduction axes (1) is larger than the input tens"
                                 "or's rank (0)"),
                        ops=('dot',)),
    ),
    known_bug(
        "openvino.tensorarray_dynamic_size_empty",
        reason=("OpenVINO's TensorFlow reader returns an empty stack for a tf.TensorArray(dynamic_size=True) grown in "
                "a while loop: the rows written are lost"),
        phases=('compare',),
        divergences=('value', 'shape', 'nonfinite'),
        versions=">=2026.4.1",
        package="openvino",
        constructs=('tensor_array',),
        paths=('tf.openvino',),
        case="tf-openvino-tensorarray-dynamic-size-empty.json",
        script="tf_openvino_tensorarray_dynamic_size.py",
        found="2026-11-29 (tensorflow 2.21.0, openvino 2026.4.1)",
        details=("known bug (OpenVINO, a SavedModel): a list grown in a loop whose trip count comes from the data "
                 "(`for r in x` over a tensor's rows, `for i in range(n)` with n from a tensor), which TensorFlow "
                 "users write as tf.TensorArray(tf.float32, size=0, dynamic_size=True), is stacked empty (shape "
                 "(0, 4) for four-wide rows) by the compiled model, where TensorFlow stacks the rows: a sum of the "
                 "stack is zeros, a mean NaN, silently; a TensorArray of a size given before the loop converts "
                 "right (the same programs as `xla.tensorarray_dynamic_size_writes_ignored`). Provenance: found by "
                 "conformance 2026-11-29 (tensorflow 2.21.0, openvino 2026.4.1), the generator's rows-loop "
                 "programs (f47e3528bf79); cases/tf-openvino-tensorarray-dynamic-size-empty.json, "
                 "cases/standalone/tf_openvino_tensorarray_dynamic_size.py."),
        example=Failure('compare', divergences=(('value', '[0]'),), constructs=('for_rows', 'list_value',
                                                                                'tensor_array')),
    ),
)
