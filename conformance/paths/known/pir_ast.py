"""``paddle.jit.to_static`` with the AST transcription and the PIR program it builds (and what jit.save, Paddle
Inference and paddle2onnx inherit from it): what it refuses and gets wrong.
"""

from conformance.paths.known.factories import Failure, known_bug, refusal, refuses_with, writes_wrong

#: Every path whose program comes from the AST to_static (all but SOT).
AST_PATHS = ('paddle.to_static', 'paddle.to_static_per_call', 'paddle.to_static_build_strategy', 'paddle.to_static_amp',
             'paddle.to_static_spec_from_tensor', 'paddle.jit_save', 'paddle.jit_save_methods',
             'paddle.jit_save_function', 'paddle.inference', 'paddle.inference_no_onednn', 'paddle.onnx',
             'paddle.inference_no_ir_optim', 'paddle.openvino', 'paddle.onnx_openvino')
#: to_static (AST and SOT) and jit_save.
TO_STATIC_SOT_AND_JIT_SAVE = ('paddle.to_static', 'paddle.to_static_sot', 'paddle.to_static_per_call',
                              'paddle.to_static_build_strategy', 'paddle.jit_save')
#: AST to_static and jit_save.
TO_STATIC_AND_JIT_SAVE = ('paddle.to_static', 'paddle.to_static_per_call', 'paddle.to_static_build_strategy',
                          'paddle.jit_save')

RECORDS = (
    known_bug(
        "pir_ast.if_zero_size_output_shape",
        reason=("A zero-size tensor that an AST to_static program yields from a pd_op.if comes back flattened, "
                "shape [0], and float32 whatever its dtype"),
        phases=('compare',),
        divergences=('shape', 'dtype'),
        versions=">=3.3",
        constructs=('if_tensor', 'if_shape'),
        facts=('zero_size_input',),
        paths=AST_PATHS,
        case="paddle-to-static-if-zero-size-flattened.json",
        found="2026-11-28 (paddle 3.3.1)",
        details=("known bug: a zero-size tensor that an AST to_static program yields from a pd_op.if (`v2 = x1; if "
                 "x.shape[0] < 2: pass; else: v2 = v0 + v0; return v2`, x1 and v0 of shape [0, 0, 1, 1, 0]; on a "
                 "tensor or a dynamic dim) comes back flattened, shape [0] (dygraph and SOT: [0, 0, 1, 1, 0]), and "
                 "float32 whatever its dtype (`if x.sum() > -0.5: return y` of an int8, int32, int64, bool or "
                 "float64 y of shape [0]; y of shape [3] keeps its dtype); the autograd face is "
                 "`pir_ast.zero_size_through_if`. Provenance: found by conformance 2026-11-28 (paddle 3.3.1), clean "
                 "campaigns seeds 5, 8, 9, cases 6f0d9e69405d, 6214e4ce5be9, d9fc4df95a69; the dtype face in the "
                 "README's campaign of 2026-11-29 (case 4a0e15765a90, reduced by conformance triage to that if); "
                 "cases/paddle-to-static-if-zero-size-flattened.json."),
        example=Failure('compare',
                        divergences=(('shape', '[0]'),),
                        constructs=('if_tensor',),
                        facts=('zero_size_input',)),
    ),
    known_bug(
        "pir_ast.if_zero_size_output_no_gradient",
        reason=("A zero-size tensor that an AST to_static program yields from a pd_op.if comes back flattened, and "
                "its loss gets no gradient"),
        phases=('compare',),
        divergences=('missing_gradient',),
        where=r"\['losses'\]",
        modes=frozenset({'train'}),
        versions=">=3.3",
        constructs=('if_tensor', 'if_shape'),
        facts=('zero_size_input',),
        paths=AST_PATHS,
        case="paddle-to-static-if-zero-size-flattened.json",
        found="2026-11-28 (paddle 3.3.1)",
        details=("known bug: a zero-size tensor that an AST to_static program yields from a pd_op.if (`v2 = x1; if "
                 "x.shape[0] < 2: pass; else: v2 = v0 + v0; return v2`, x1 and v0 of shape [0, 0, 1, 1, 0]; on a "
                 "tensor or a dynamic dim) comes back flattened, shape [0] (dygraph and SOT: [0, 0, 1, 1, 0]); the "
                 "autograd face is `pir_ast.zero_size_through_if`. In train mode the loss head leaves out an output "
                 "whose shape differs from eager's; with every output left out the path has no loss where eager has "
                 "one. Provenance: found by conformance 2026-11-28 (paddle 3.3.1), clean campaigns seeds 5, 8, 9, "
                 "cases 6f0d9e69405d, 6214e4ce5be9, d9fc4df95a69; "
                 "cases/paddle-to-static-if-zero-size-flattened.json."),
        example=Failure('compare',
                        mode="train",
                        divergences=(('missing_gradient', "['losses']"),),
                        constructs=('if_tensor',),
                        facts=('zero_size_input',)),
    ),
    refusal(
        "pir_ast.self_name",
        reason=("to_static binds forward's first parameter to the layer only when it is named `self`, so another "
                "name takes the first input"),
        errors=('ValueError', 'TypeError'),
        message=(r"`forward\(\)` requires `\w+` arguments, but not found in input `args`|forward\(\) takes (from \d+ "
                 r"to )?\d+ positional arguments? but \d+ were given"),
        versions=">=2.0",
        details=("to_static takes forward's first parameter for the layer only when it is named `self`: with "
                 "another name the first input is bound to it, reported as a missing input (to_static) or an extra "
                 "argument (jit.save). Provenance: paddle/jit/dy2static/utils.py (parse_arg_and_kwargs drops a "
                 "first argument named self)."),
        example=Failure('convert',
                        error_types=('ValueError', 'Exception'),
                        message=("`forward()` requires `d` arguments, but not found in input `args`: [[Tensor(sha"
                                 "pe=[2, 3], dtype=float32, place=Place(cpu), stop_gradient=True,\n       [[-0.49"
                                 "349385, -0.18560562, -0.31726483],\n        [-0.14510925,  0.07752271,  0.81308"
                                 "359]]), Tensor(shape=[2, 3], dtype=float32, place=Place(cpu), stop_gradient=Tru"
                                 "e,\n       [[-0.34267280,  0.04306029,  0.49560997],\n        [ 0.25873622,  0."
                                 "17231342, -0.42544395]])], {'a': Tensor(shape=[2, 3], dtype=float32, place=Plac"
                                 "e(cpu), stop_gradient=True,\n       [[-0.32023302,  0.87865072, -0.98409581],\n"
                                 "        [-0.45145607,  0.50282991,  0.13725553]]), 'b': Tensor(shape=[3], dtype"
                                 "=float32, place=Place(cpu), stop_gradient=True,\n       [-0.46805018, -0.598838"
                                 "63, -0.01771774])}] and `kwargs`: {'use_act': True, 'n': 1}."),
                        constructs=('dict_input', 'dynamic_dim', 'for_kwarg', 'if_kwarg', 'if_tensor', 'kwargs',
                                    'list_input', 'nested_input', 'renamed_self'),
                        ops=('add', 'linear', 'mul', 'mul_scalar', 'neg', 'relu', 'tanh')),
    ),
    known_bug(
        "pir_ast.loop_break_on_tensor",
        reason=("AST to_static refuses a Python for loop whose break or continue depends on a tensor ('python while "
                "pred change from bool to variable')"),
        errors=('Dygraph2StaticException',),
        message="python while pred change from bool to variable",
        versions=">=2.0",
        paths=('paddle.to_static', 'paddle.to_static_build_strategy', 'paddle.to_static_amp', 'paddle.jit_save',
               'paddle.jit_save_methods', 'paddle.jit_save_function', 'paddle.inference',
               'paddle.inference_no_onednn', 'paddle.onnx', 'paddle.inference_no_ir_optim', 'paddle.openvino',
               'paddle.onnx_openvino'),
        issue="https://github.com/PaddlePaddle/Paddle/pull/68508",
        reference="https://www.paddlepaddle.org.cn/documentation/docs/en/guides/jit/grammar_list_en.html",
        details=("known bug: AST to_static refuses a Python loop (for over range of an int) whose break or continue "
                 "depends on a tensor ('python while pred change from bool to variable'), though its grammar guide "
                 "lists break/continue anywhere in a loop as supported. Provenance: "
                 "https://www.paddlepaddle.org.cn/documentation/docs/en/guides/jit/grammar_list_en.html; "
                 "https://github.com/PaddlePaddle/Paddle/pull/68508."),
        example=Failure('convert',
                        error_types=('Dygraph2StaticException', 'Exception'),
                        message=("In transformed code:\n\n\n    File \"/root/.cache/paddle/to_static_tmp/484/Mode"
                                 "l_forwardt_nifgb3.py\", line 69, in forward\n\t_jst.While(_jst.Ld(while_conditi"
                                 "on_11), _jst.Ld(while_body_11), _jst.Ld(get_args_54), _jst.Ld(set_args_54), ret"
                                 "urn_name_ids=('__break_1', 'i0', 'v0'), push_pop_names=None)\n    File \"/work/"
                                 "main/.venv/lib/python3.11/site-packages/paddle/jit/dy2static/convert_operators."
                                 "py\", line 192, in convert_while_loop\n\t_run_py_while(cond, body, getter, sett"
                                 "er)\n    File \"/work/main/.venv/lib/python3.11/site-packages/paddle/jit/dy2sta"
                                 "tic/convert_operators.py\", line 261, in _run_py_while\n\traise Dygraph2StaticE"
                                 "xception(\n\n    paddle.jit.dy2static.utils.Dygraph2StaticException: python whi"
                                 "le pred change from bool to variable.\n"),
                        constructs=('break', 'for_const', 'if_tensor'),
                        ops=('tanh',)),
    ),
    known_bug(
        "pir_ast.loop_break_on_tensor_per_call",
        reason=("AST to_static refuses a Python for loop whose break or continue depends on a tensor, also when a "
                "call builds a new program"),
        phases=('convert', 'run'),
        errors=('Dygraph2StaticException',),
        message="python while pred change from bool to variable",
        versions=">=2.0",
        paths=('paddle.to_static_per_call', 'paddle.to_static_spec_from_tensor'),
        issue="https://github.com/PaddlePaddle/Paddle/pull/68508",
        reference="https://www.paddlepaddle.org.cn/documentation/docs/en/guides/jit/grammar_list_en.html",
        details=("known bug: AST to_static refuses a Python loop (for over range of an int) whose break or continue "
                 "depends on a tensor ('python while pred change from bool to variable'), though its grammar guide "
                 "lists break/continue anywhere in a loop as supported. Provenance: "
                 "https://www.paddlepaddle.org.cn/documentation/docs/en/guides/jit/grammar_list_en.html; "
                 "https://github.com/PaddlePaddle/Paddle/pull/68508."),
        example=Failure('run',
                        error_types=('Dygraph2StaticException',),
                        message=("paddle.jit.dy2static.utils.Dygraph2StaticException: python while pred change fr"
                                 "om bool to variable.")),
    ),
    known_bug(
        "pir_ast.alias_loop_empty_output",
        reason=("A converted program returns an empty tensor for the variable a while loop's carried variable was "
                "assigned from"),
        phases=('compare',),
        divergences=('shape',),
        versions=">=3.0",
        constructs=('early_return',),
        paths=AST_PATHS,
        found="2026-11-21 (paddle 3.3.1)",
        details=("known bug: `a = x + x; acc = a; while i < 3 and acc.min() < t: acc = acc + 1`, then `if acc.max() "
                 "< u: return a`: the converted program returns an empty tensor for `a` (the variable the loop's "
                 "carried variable was assigned from) where dygraph returns `a`; a Paddle Inference predictor fails "
                 "on it. Provenance: found by conformance 2026-11-21 (paddle 3.3.1)."),
        example=Failure('compare',
                        divergences=(('shape', ''),),
                        constructs=('early_return', 'grow_loop', 'grow_while', 'if_tensor', 'while_tensor'),
                        ops=('add',)),
    ),
    known_bug(
        "pir_ast.alias_loop_read_after",
        reason=("Reading again the variable a while loop's carried variable was assigned from fails the program's "
                "first run ('Tensor holds no memory')"),
        phases=('convert', 'run'),
        errors=('RuntimeError',),
        message="Tensor holds no memory",
        versions=">=3.0",
        paths=('paddle.to_static', 'paddle.to_static_per_call', 'paddle.to_static_build_strategy',
               'paddle.to_static_amp', 'paddle.to_static_spec_from_tensor', 'paddle.jit_save',
               'paddle.jit_save_methods', 'paddle.jit_save_function', 'paddle.onnx', 'paddle.openvino',
               'paddle.onnx_openvino'),
        found="2026-11-21 (paddle 3.3.1)",
        details=("known bug: `a = x + x; acc = a; while i < 3 and acc.max() < 0: acc = concat([acc, x], 3)`, then "
                 "`a` read again (`b = concat([a, a], 1)`): the converted program's first run fails, 'Tensor holds "
                 "no memory' (the variable the loop's carried variable was assigned from is empty after the loop, "
                 "as in the early-return case). Provenance: found by conformance 2026-11-21 (paddle 3.3.1)."),
        example=Failure('convert', error_types=('RuntimeError',), message="Tensor holds no memory"),
    ),
    known_bug(
        "pir_ast.alias_loop_read_after_predictor",
        reason=("Reading again the variable a while loop's carried variable was assigned from fails the saved "
                "program ('Tensor holds no memory')"),
        errors=('RuntimeError',),
        message="Tensor holds no memory",
        versions=">=3.0",
        paths=('paddle.inference', 'paddle.inference_no_onednn', 'paddle.inference_no_ir_optim'),
        found="2026-11-21 (paddle 3.3.1)",
        details=("known bug: `a = x + x; acc = a; while i < 3 and acc.max() < 0: acc = concat([acc, x], 3)`, then "
                 "`a` read again (`b = concat([a, a], 1)`): the converted program's first run fails, 'Tensor holds "
                 "no memory' (the variable the loop's carried variable was assigned from is empty after the loop, "
                 "as in the early-return case). Provenance: found by conformance 2026-11-21 (paddle 3.3.1)."),
        example=Failure('convert', error_types=('RuntimeError',), message="Tensor holds no memory"),
    ),
    refuses_with(
        "pir_ast.inplace_on_view",
        reason=("to_static refuses an in-place operator on a tensor that is a view in dygraph (static graphs have "
                "no views)"),
        errors=('ValueError',),
        message="output variable is a viewed Tensor in dygraph",
        versions=">=3.0",
        paths=('paddle.to_static', 'paddle.to_static_build_strategy', 'paddle.to_static_amp', 'paddle.jit_save',
               'paddle.jit_save_methods', 'paddle.jit_save_function', 'paddle.inference',
               'paddle.inference_no_onednn', 'paddle.onnx', 'paddle.inference_no_ir_optim', 'paddle.openvino',
               'paddle.onnx_openvino'),
        details=("to_static refuses an in-place operator (x.multiply_(y), F.relu_) on a tensor that is a view in "
                 "dygraph (of a strided API such as unsqueeze or a slice): static graphs have no views, so it asks "
                 "for a paddle.assign() copy first. Provenance: paddle/utils/inplace_utils.py (the refusal's own "
                 "message)."),
        example=Failure('convert',
                        error_types=('ValueError',),
                        message="output variable is a viewed Tensor in dygraph"),
    ),
    refuses_with(
        "pir_ast.inplace_on_view_per_call",
        reason=("to_static refuses an in-place operator on a tensor that is a view in dygraph, also when a call "
                "builds a new program"),
        phases=('convert', 'run'),
        errors=('ValueError',),
        message="output variable is a viewed Tensor in dygraph",
        versions=">=3.0",
        paths=('paddle.to_static_per_call', 'paddle.to_static_spec_from_tensor'),
        details=("to_static refuses an in-place operator (x.multiply_(y), F.relu_) on a tensor that is a view in "
                 "dygraph (of a strided API such as unsqueeze or a slice): static graphs have no views, so it asks "
                 "for a paddle.assign() copy first. Provenance: paddle/utils/inplace_utils.py (the refusal's own "
                 "message)."),
        example=Failure('convert',
                        error_types=('ValueError',),
                        message="output variable is a viewed Tensor in dygraph"),
    ),
    known_bug(
        "pir_ast.inplace_pass_writes_input",
        reason="PIR's inplace pass makes an operator in-place on a value that is the program's own input",
        phases=('compare',),
        divergences=('value', 'nonfinite'),
        versions=">=3.0",
        facts=('wrote_inputs',),
        found="2026-11-23 (paddle 3.3.1)",
        details=("known bug: PIR's inplace pass makes an operator in-place on a value that is the program's own "
                 "input (the result of a pd_op.if or while whose branch yields the input itself), so the program "
                 "writes into the caller's input tensor: a later read of that input in the same program is wrong (a "
                 "race with the multi-threaded executor: flaky), and a caller that reuses the tensor (training on "
                 "one batch) computes on other inputs from the second call on; FLAGS_pir_apply_inplace_pass=0 makes "
                 "it right (case paddle-to-static-inplace-pass-writes-input.json; "
                 "standalone/paddle_inplace_pass_*.py). Provenance: found by conformance 2026-11-23 (paddle 3.3.1), "
                 "train and infer modes."),
        example=Failure('compare', divergences=(('value', '[0]'),), facts=('wrote_inputs',)),
    ),
    known_bug(
        "pir_ast.put_along_axis_dynamic_dim",
        reason=("paddle.put_along_axis in a program with a dynamic dim fails its Python-side shape check, comparing "
                "the unknown dim (-1) with the real one"),
        phases=('convert', 'run'),
        errors=('RuntimeError',),
        message=(r"Size does not match at dimension \d+ expected index paddle\.Size\(\[[^\]]*\]\) to be smaller than "
                 r"self paddle\.Size\(\[[^\]]*-1"),
        versions=">=3.0",
        ops=('scatter', 'scatter_add', 'scatter_reduce'),
        steer=('dynamic=True',),
        paths=AST_PATHS,
        found="2026-11-23 (paddle 3.3.1)",
        details=("known bug: paddle.put_along_axis in a program with a dynamic dim (input_spec None; SOT's dynamic "
                 "shapes) fails its Python-side shape check, comparing the unknown dim (-1) as a size ('Size does "
                 "not match at dimension 0 expected index paddle.Size([1, 1, 2]) to be smaller than self "
                 "paddle.Size([-1, 3, 4])'); dygraph and a fixed-shape input_spec run it (case "
                 "paddle-put-along-axis-dynamic-dim.json). Provenance: paddle/tensor/manipulation.py "
                 "(put_along_axis); found by conformance 2026-11-23 (paddle 3.3.1)."),
        example=Failure('convert',
                        error_types=('RuntimeError',),
                        message=("Size does not match at dimension 1 expected index paddle.Size([]) to be smaller"
                                 " than self paddle.Size([-1"),
                        ops=('scatter',)),
    ),
    known_bug(
        "pir_ast.tensor_array_reversed",
        reason="to_static turns a list appended to in a loop over a dynamic dim into a TensorArray, and reversing it",
        errors=('NotImplementedError',),
        message=r"\[::-1\].*Only support paddle::dialect::DenseTensorType or paddle::dialect::AllocatedDenseTensorType",
        versions=">=3.0",
        paths=AST_PATHS,
        found="2026-11-23 (paddle 3.3.1)",
        details=("known bug: to_static turns a list appended to in a loop over a dynamic dim into a TensorArray, "
                 "and reversing it (`steps[::-1]`, an RNN's backward direction) fails to build ('Only support "
                 "paddle::dialect::DenseTensorType or paddle::dialect::AllocatedDenseTensorType'); with the dim "
                 "static, and in SOT, it runs (case paddle-to-static-tensor-array-reversed.json). Provenance: found "
                 "by conformance 2026-11-23 (paddle 3.3.1)."),
        example=Failure('convert',
                        error_types=('NotImplementedError',),
                        message=("[::-1]Only support paddle::dialect::DenseTensorType or paddle::dialect::Allocat"
                                 "edDenseTensorType")),
    ),
    known_bug(
        "pir_ast.dynamic_dim_shape_checks",
        reason="Shape checks that take a dynamic dim (-1 in a program built with input_spec None) for a size",
        errors=('AssertionError', 'ValueError', 'RuntimeError'),
        message=(r"The weight size should be equal to x input channel in prelu\(\)|input_dims\[\d\] % "
                 r"downscale_factor|Expected true == shape_match, but received true:1 != shape_match:0\.\] \(at "
                 r"\S+/infermeta/binary\.cc|received C:-1 != filter_dims\[\d\]"),
        versions=">=3.0",
        paths=AST_PATHS,
        found="2026-11-23 (paddle 3.3.1)",
        details=("known bug: shape checks that take a dynamic dim (-1 in a program built with input_spec None) for "
                 "a size: F.prelu with a per-channel weight on a dynamic channel dim (AssertionError 'The weight "
                 "size should be equal to x input channel'), F.pixel_unshuffle on a dynamic spatial dim "
                 "('input_dims[2] % downscale_factor'), paddle.dot of a dynamic dim with a static one "
                 "('shape_match', infermeta/binary.cc), a convolution over a dynamic channel dim ('C:-1 != "
                 "filter_dims[0]'); dygraph, SOT and static dims run them (cases "
                 "paddle-to-static-prelu-dynamic-channel.json, paddle-to-static-pixel-unshuffle-dynamic-dim.json, "
                 "paddle-to-static-dot-dynamic-dim.json). Provenance: found by conformance 2026-11-23 (paddle "
                 "3.3.1)."),
        example=Failure('convert',
                        error_types=('AssertionError',),
                        message="The weight size should be equal to x input channel in prelu()"),
    ),
    known_bug(
        "pir_ast.take_along_axis_broadcast",
        reason="paddle.take_along_axis with a constant index of batch 1 broadcast over a dynamic batch",
        phases=('convert', 'run'),
        errors=('ValueError',),
        message=(r"of the non-singleton dimension does not match the corresponding value \(1\) in shape for expand_v2 "
                 "op"),
        versions=">=3.0",
        paths=AST_PATHS,
        found="2026-11-23 (paddle 3.3.1)",
        details=("known bug: paddle.take_along_axis with a constant index of batch 1 broadcast over a dynamic "
                 "batch: the program fixes the broadcast when it is built, and a call with another batch fails "
                 "('The value (4) of the non-singleton dimension does not match the corresponding value (1) in "
                 "shape for expand_v2 op'); dygraph broadcasts to every batch (case "
                 "paddle-to-static-take-along-axis-broadcast-dynamic-dim.json). Provenance: found by conformance "
                 "2026-11-23 (paddle 3.3.1)."),
        example=Failure('convert',
                        error_types=('ValueError',),
                        message=("of the non-singleton dimension does not match the corresponding value (1) in sh"
                                 "ape for expand_v2 op")),
    ),
    refuses_with(
        "pir_ast.static_dtype_check",
        reason=("A static program checks each API's input dtypes when it is built, so paddle.tile and paddle.flip "
                "refuse int8 under to_static"),
        errors=('TypeError',),
        message=(r"The data type of '\w+' in \w+ must be \[.*\], but received|Check data type error for op: flip, "
                 r"input: x, x\.dtype: (u?int8|int16)\b"),
        versions=">=3.0",
        paths=AST_PATHS,
        reference="https://www.paddlepaddle.org.cn/documentation/docs/en/api/paddle/tile_en.html",
        found="2026-11-28 (paddle 3.3.1)",
        details=("a static program checks each API's input dtypes when it is built, where dygraph runs what its "
                 "kernels take: paddle.tile and paddle.flip refuse int8 under to_static ('The data type of 'x' in "
                 "tile must be [...], but received int8'; 'Check data type error for op: flip, ... x.dtype: int8'), "
                 "as their docs say. Provenance: "
                 "https://www.paddlepaddle.org.cn/documentation/docs/en/api/paddle/tile_en.html, .../flip_en.html "
                 "(x: float32, float64, int32, int64, bool); flip: found by conformance 2026-11-28 (paddle 3.3.1), "
                 "clean campaign seed 4, case 6a213094e8e8."),
        example=Failure('convert',
                        error_types=('TypeError',),
                        message="The data type of 'a' in a must be [], but received"),
    ),
    known_bug(
        "pir_ast.if_empty_tensor_rank",
        reason=("The result of a pd_op.if over a zero-size tensor loses its rank in an AST to_static program, which "
                "fails when it runs"),
        phases=('convert', 'run'),
        errors=('ValueError',),
        message=(r"Axis should be less than or equal to \d+, but received axis is \d+|The reduce dim index \d+ should "
                 r"be in the range \[ -dimension\(X\), dimension\(X\) \) which dimension = -1\."),
        versions=">=3.3",
        paths=AST_PATHS,
        case="paddle-to-static-if-empty-tensor-axis.json",
        script="paddle_if_empty_tensor_axis.py",
        found="2026-11-28 (paddle 3.3.1)",
        details=("known bug: AST to_static of `d = -c; if a.sum() > 0: pass; else: c = -c; e = d + c` with a "
                 "zero-size `c` fails when the program runs ('Axis should be less than or equal to 5, but received "
                 "axis is 6': the pd_op.if's result loses the rank of the zero-size tensor); dygraph and SOT run "
                 "it. A reduction of it fails alike: `if x.shape[0] == 2: c = -c`, then `paddle.sum(c, axis=-1)` "
                 "('The reduce dim index 0 should be in the range [ -dimension(X), dimension(X) ) which dimension = "
                 "-1'). Provenance: cases/paddle-to-static-if-empty-tensor-axis.json; "
                 "cases/standalone/paddle_if_empty_tensor_axis.py; the reduction: found by conformance 2026-11-28 "
                 "(paddle 3.3.1), clean campaign seed 6, case 55e16ef77b13, "
                 "cases/paddle-to-static-if-empty-tensor-reduce.json."),
        example=Failure('convert',
                        error_types=('ValueError',),
                        message="Axis should be less than or equal to 1, but received axis is 1"),
    ),
    known_bug(
        "pir_ast.signbit_dynamic_dim",
        reason=("paddle.signbit in an AST to_static program with a dynamic dim fails when the program runs "
                "('Broadcast dimension mismatch' in its copysign)"),
        phases=('convert', 'run'),
        errors=('ValueError',),
        # The error quotes signbit's source line, or, where the copysign runs inside a pd_op.if, no Python line:
        # then the dynamic dim read as 0 shows as the first shape.
        message=(r"in signbit\s+neg_zero_x = paddle\.copysign[\s\S]*Broadcast dimension mismatch"
                 r"|Broadcast dimension mismatch\. Operands could not be broadcast together with the shape of X = "
                 r"\[0[,\]]"),
        versions=">=3.3",
        ops=('signbit',),
        steer=('dynamic=True',),
        paths=AST_PATHS,
        case="paddle-to-static-signbit-dynamic-dim.json",
        details=("known bug: paddle.signbit in an AST to_static program with a dynamic dim fails when the program "
                 "runs ('Broadcast dimension mismatch' in its copysign: it builds its ones from the static shape, "
                 "-1 read as 0); SOT too, once a new batch size makes it translate with a dynamic dim. The message "
                 "quotes signbit's line, or, where the copysign runs inside a pd_op.if (in every mode), only the "
                 "broadcast error with the first shape [0]. Provenance: "
                 "cases/paddle-to-static-signbit-dynamic-dim.json."),
        example=Failure('convert',
                        error_types=('ValueError', 'Exception'),
                        message=("In transformed code:\n\n    File \"model.py\", line 39, in forward\n        v5 = "
                                 "paddle.signbit(v1)\n\n    File \"paddle/tensor/math.py\", line 7550, in signbit\n"
                                 "\tneg_zero_x = paddle.copysign(ones, x)\n    File \"paddle/tensor/math.py\", line "
                                 "7350, in copysign\n\treturn _C_ops.copysign(x, y)\n\n    InvalidArgumentError: "
                                 "Broadcast dimension mismatch. Operands could not be broadcast together with the "
                                 "shape of X = [0] and the shape of Y = [6]. Received [0] in X is not equal to [6] in "
                                 "Y at i:0."),
                        ops=('cast', 'signbit', 'tanh'),
                        constructs=('dict_input', 'dynamic_dim', 'list_input', 'nested_input', 'train_mode')),
    ),
    known_bug(
        "pir_ast.inplace_api_keywords",
        reason=("An in-place API called with keyword arguments (`paddle.masked_fill_(x=x, ...)`) does not convert "
                "('tuple index out of range')"),
        phases=('convert', 'run'),
        errors=('IndexError',),
        message="tuple index out of range",
        versions=">=3.3",
        ops=('masked_fill_keywords',),
        paths=AST_PATHS,
        issue="https://github.com/PaddlePaddle/Paddle/issues/79220",
        case="paddle-to-static-inplace-api-keyword-arguments.json",
        details=("known bug: an in-place API called with keyword arguments (`paddle.masked_fill_(x=x, mask=m, "
                 "value=0.0)`) does not convert: the static graph's in-place wrapper reads its tensor from args[0] "
                 "('tuple index out of range'); called positionally it converts. A path that converts again at "
                 "a call (a new input shape: to_static_per_call, to_static_spec_from_tensor) meets it at run time "
                 "(campaign seed 0, case efaf27692cbb). Provenance: "
                 "https://github.com/PaddlePaddle/Paddle/issues/79220; "
                 "cases/paddle-to-static-inplace-api-keyword-arguments.json."),
        example=Failure('convert',
                        error_types=('IndexError',),
                        message="tuple index out of range",
                        ops=('masked_fill_keywords',)),
    ),
    writes_wrong(
        "pir_ast.inplace_statement_dropped",
        reason=("An in-place method called as a statement, its result not assigned (`y.add_(x)`), is dropped by the "
                "static program: y keeps its old value"),
        phases=('compare',),
        divergences=('value',),
        versions=">=3.3",
        ops=('add_statement', 'rotate_accumulate'),
        paths=AST_PATHS,
        issue="https://github.com/PaddlePaddle/Paddle/issues/79145",
        case="paddle-to-static-inplace-statement-dropped.json",
        details=("known bug: an in-place method called as a statement, its result not assigned (`y = x * 1.0; "
                 "y.add_(x)`), is dropped by the static program (PIR): y keeps its old value; `y = y.add_(x)` is "
                 "right. Provenance: https://github.com/PaddlePaddle/Paddle/issues/79145; "
                 "cases/paddle-to-static-inplace-statement-dropped.json."),
        example=Failure('compare', divergences=(('value', '[0]'),), ops=('add_statement',)),
    ),
    writes_wrong(
        "pir_ast.static_no_short_circuit",
        reason=("AST to_static evaluates both operands of `and` when the left one is a tensor, so a side effect on "
                "the right always happens"),
        phases=('compare',),
        divergences=('value',),
        versions=">=2.5",
        ops=('short_circuit_write',),
        paths=AST_PATHS,
        issue="https://github.com/PaddlePaddle/Paddle/issues/50365",
        case="paddle-to-static-and-short-circuit-side-effect.json",
        details=("known bug, closed upstream as a limitation: AST to_static evaluates both operands of `and` when "
                 "the left one is a tensor, so a right operand with a side effect (`if x.mean() > 0 and "
                 "zero_first(y):`, which writes into y) runs where dygraph skips it; SOT short-circuits. "
                 "Provenance: https://github.com/PaddlePaddle/Paddle/issues/50365; "
                 "cases/paddle-to-static-and-short-circuit-side-effect.json."),
        example=Failure('compare', divergences=(('value', '[0]'),), ops=('short_circuit_write',)),
    ),
    known_bug(
        "pir_ast.tile_bool_needs_stop_gradient",
        reason=("paddle.tile of a bool tensor computed from an input that needs a gradient does not convert: static "
                "tile refuses a bool that is not stop_gradient"),
        phases=('convert', 'run'),
        errors=('ValueError',),
        message="When the date type is bool for the input 'x' of tile op",
        versions=">=3.0",
        paths=AST_PATHS,
        issue="https://github.com/PaddlePaddle/Paddle/issues/45039",
        case="paddle-to-static-tile-bool-stop-gradient.json",
        found="2026-11-28 (paddlepaddle 3.3.1)",
        details=("known bug: paddle.tile of a bool tensor computed from an input that needs a gradient (`m = "
                 "paddle.isnan(x); paddle.tile(m, [1, 2])`) does not convert: in a static program the bool result "
                 "is not marked stop_gradient (in dygraph it is), and static tile refuses a bool input that is not "
                 "('When the date type is bool for the input 'x' of tile op, you must set its stop_gradient to be "
                 "True'); dygraph runs it. Provenance: https://github.com/PaddlePaddle/Paddle/issues/45039 (an op's "
                 "output stop_gradient=False under to_static where dygraph gives True); found by conformance "
                 "2026-11-28 (paddlepaddle 3.3.1), campaign seed 0, case 62be9d36c313; "
                 "cases/paddle-to-static-tile-bool-stop-gradient.json."),
        example=Failure('convert',
                        error_types=('ValueError',),
                        message="When the date type is bool for the input 'x' of tile op"),
    ),
    known_bug(
        "pir_ast.signbit_zero_size_dynamic_dim",
        reason="paddle.signbit does not convert where it reshapes its ones (from the static shape) to x.shape",
        errors=('ValueError', 'AssertionError'),
        message=r"in signbit\s+ones = paddle\.to_tensor\(ones, x\.dtype\)\.reshape\(x\.shape\)",
        versions=">=3.3",
        paths=AST_PATHS,
        case="paddle-to-static-signbit-after-while-two-dynamic-dims.json",
        found="2026-11-28 (paddle 3.3.1)",
        details=("known bug: paddle.signbit does not convert where it reshapes its ones (from the static shape) to "
                 "x.shape: a zero-size x with a dynamic dim ([None, 2, 0]: 'can not reshape 0 to -1, 0, ...'), an x "
                 "with two dynamic dims (after a while loop: 'Only one dimension value of 'shape' in reshape can be "
                 "-1'). Provenance: found by conformance 2026-11-28 (paddle 3.3.1), deployment campaign seed 0, "
                 "cases c8102fcbf07f, f45e7b5083dc; clean campaign seed 6, "
                 "cases/paddle-to-static-signbit-after-while-two-dynamic-dims.json."),
        example=Failure('convert',
                        error_types=('ValueError',),
                        message="in signbit ones = paddle.to_tensor(ones, x.dtype).reshape(x.shape)"),
    ),
    writes_wrong(
        "pir_ast.unique_empty_unflattened",
        reason=("paddle.unique(x) of a zero-size x returns x unflattened in dygraph, where the static op returns "
                "the documented flattened result"),
        phases=('compare',),
        divergences=('shape',),
        versions=">=3.0",
        ops=('unique',),
        paths=AST_PATHS,
        script="paddle_unique_empty_unflattened.py",
        found="2026-11-28 (paddlepaddle 3.3.1)",
        details=("known bug (dygraph): paddle.unique(x) of a zero-size x returns x unflattened (shape [0, 1, 3]) "
                 "where the documented result, and the static op (to_static, jit.save, Paddle Inference, "
                 "paddle2onnx), is the flattened 1-d [0]; the eager reference is the wrong one. Provenance: found "
                 "by conformance 2026-11-28 (paddlepaddle 3.3.1), deployment campaign seed 0, cases 948c9317549f, "
                 "304f381e1824, 7caa87311963, dee2b1549d43, 42c148240976; "
                 "cases/standalone/paddle_unique_empty_unflattened.py."),
        example=Failure('compare', divergences=(('shape', '[0]'),), ops=('unique',)),
    ),
    known_bug(
        "pir_ast.static_unique_float32",
        reason=("In a static program (AST to_static, jit.save) paddle.unique of an int64 tensor (an argmax) is "
                "typed float32 (dygraph: int64), so an integer op on it refuses it"),
        errors=('TypeError',),
        message=r"Check data type error for op: \w+, input: \w+, \w+\.dtype: float32",
        versions=">=3.3",
        ops=('unique',),
        paths=AST_PATHS,
        found="2026-11-28 (paddle 3.3.1, paddle2onnx 2.1.0, onnxruntime 1.31.1)",
        details=("known bug: in a static program (AST to_static, jit.save) paddle.unique of an int64 tensor (an "
                 "argmax) is typed float32 (dygraph: int64), so an integer op on it refuses it when the program is "
                 "built ('Check data type error for op: bitwise_or, input: y, y.dtype: float32'). Provenance: found "
                 "by conformance 2026-11-28 (paddle 3.3.1, paddle2onnx 2.1.0, onnxruntime 1.31.1), the PaddlePaddle "
                 "deployment campaign rerun (seed 0), case 5f07e5fadab5."),
        example=Failure('convert',
                        error_types=('TypeError',),
                        message="Check data type error for op: a, input: a, a.dtype: float32",
                        ops=('unique',)),
    ),
    known_bug(
        "pir_ast.static_signbit_shape_zero",
        reason=("paddle.signbit in a static program with a dynamic dim gives a result whose static shape has 0 for "
                "that dim"),
        phases=('compare',),
        divergences=('value', 'shape'),
        versions=">=3.3",
        constructs=('if_shape',),
        ops=('signbit',),
        paths=AST_PATHS,
        found="2026-11-28 (paddle 3.3.1, paddle2onnx 2.1.0, onnxruntime 1.31.1)",
        details=("known bug: paddle.signbit in a static program with a dynamic dim (InputSpec None) gives a result "
                 "whose static shape has 0 for it (x.shape [-1, 4], signbit(x).shape [0, 4]), so `if "
                 "signbit(x).shape[0] < 2:` takes the branch that dygraph does not take (wrong values, no error). "
                 "Provenance: found by conformance 2026-11-28 (paddle 3.3.1, paddle2onnx 2.1.0, onnxruntime "
                 "1.31.1), the PaddlePaddle deployment campaign rerun (seed 0), case 6d1604b959ba."),
        example=Failure('compare', divergences=(('value', '[0]'),), constructs=('if_shape',), ops=('signbit',)),
    ),
    known_bug(
        "pir_ast.static_kernel_output_args",
        reason=("Some ops do not run in a static program on the CPU (to_static's run, jit.load, every Paddle "
                "Inference predictor) for dtypes dygraph runs: PIR's kernel"),
        phases=('convert', 'run'),
        errors=('RuntimeError',),
        message=(r"op \[pd_op\.(flatten|diagonal|unsqueeze)\] kernel output args \(\d+\) defs should equal op "
                 r"outputs"),
        versions=">=3.3",
        ops=('flatten', 'flatten_range', 'diagonal', 'unsqueeze'),
        steer=('dtype=float16', 'diagonal:dtype=int8', 'diagonal:dtype=uint8'),
        paths=AST_PATHS + ('paddle.to_static_sot',),
        case="paddle-to-static-flatten-float16.json",
        script="paddle_static_kernel_output_args.py",
        found="2026-11-28 (paddle 3.3.1)",
        details=("known bug: some ops do not run in a static program on the CPU (to_static's run, jit.load, every "
                 "Paddle Inference predictor) for dtypes dygraph runs: PIR's kernel selection fails, 'op "
                 "[pd_op.flatten] kernel output args (0) defs should equal op outputs (1)': paddle.flatten of "
                 "float16 (a dtype its docs list; complex64 too; also `paddle.flatten(x, 1, 2)`, the IR's "
                 "flatten_range: case d2a59e38587f, 2026-11-29), paddle.diagonal of float16 and bfloat16 (listed) "
                 "and int8, uint8, int16 (not listed), paddle.unsqueeze of float16 (listed; found 2026-11-29, "
                 "campaign seed 0, 300 s, case 43b483539b35). SOT's static subgraphs the same "
                 "(diagonal of float16 in to_static_sot, infer and train: case 03bff4119b80, 2026-11-29). "
                 "Provenance: "
                 "https://www.paddlepaddle.org.cn/documentation/docs/en/api/paddle/flatten_en.html, "
                 ".../diagonal_en.html; found by conformance 2026-11-28 (paddle 3.3.1), clean campaigns seeds 2, 5, "
                 "8, cases e7fafa45ff1c, c26cfcaf4eae, 6c6debde5aaa; cases/paddle-to-static-flatten-float16.json, "
                 "cases/paddle-to-static-diagonal-int8.json, cases/paddle-to-static-unsqueeze-float16.json, "
                 "cases/standalone/paddle_static_kernel_output_args.py."),
        example=Failure('convert',
                        error_types=('RuntimeError',),
                        message="op [pd_op.flatten] kernel output args (1) defs should equal op outputs",
                        ops=('flatten',)),
    ),
    known_bug(
        "pir_ast.eval_program_no_gradient",
        reason=("A layer converted in eval() runs an inference program with no backward, so every gradient is "
                "silently None where dygraph gives one (dy2static's infer program)"),
        phases=('compare',),
        divergences=('missing_gradient',),
        versions=">=3.0",
        facts=('eval_program',),
        paths=TO_STATIC_SOT_AND_JIT_SAVE,
        found="2026-11-21 (paddle 3.3.1)",
        details=("known divergence: a layer converted in eval() runs an inference program with no backward, so "
                 "every gradient is silently None where dygraph gives one (dy2static's infer program). Provenance: "
                 "found by conformance 2026-11-21 (paddle 3.3.1), grad mode; PaddlePaddle/Paddle#58588."),
        example=Failure('compare',
                        mode="grad",
                        divergences=(('missing_gradient', "['input_grads']['xs.0']"),
                                     ('missing_gradient', "['input_grads']['xs.1']"),
                                     ('missing_gradient', "['input_grads']['d.a']"),
                                     ('missing_gradient', "['input_grads']['d.b']"),
                                     ('missing_gradient', "['param_grads']['p0']"),
                                     ('missing_gradient', "['param_grads']['p1']")),
                        constructs=('dict_input', 'dynamic_dim', 'for_kwarg', 'if_kwarg', 'if_tensor', 'kwargs',
                                    'list_input', 'nested_input'),
                        ops=('add', 'linear', 'mul', 'mul_scalar', 'neg', 'relu', 'tanh'),
                        facts=('eval_program',)),
    ),
    known_bug(
        "pir_ast.detached_branch_gradient",
        reason=("AST to_static of `if c: y = y.detach() else: y = -y` marks the if's result stop_gradient whichever "
                "branch runs, so no gradient flows"),
        phases=('compare',),
        divergences=('missing_gradient', 'value'),
        modes=frozenset({'grad', 'train'}),
        versions=">=3.0",
        facts=('detached_branch',),
        paths=TO_STATIC_SOT_AND_JIT_SAVE,
        script="paddle_detached_branch_stops_gradient.py",
        found="2026-11-23 (paddle 3.3.1)",
        details=("known bug: AST to_static of `if c: y = y.detach() else: y = -y` (c a tensor) marks the pd_op.if's "
                 "result stop_gradient whichever branch runs, so no gradient reaches the inputs and parameters "
                 "before it also when the branch that does not detach ran (dygraph and SOT give them; a layer in "
                 "train()). Provenance: found by conformance 2026-11-23 (paddle 3.3.1), train campaign seed 0, case "
                 "1fc39ee0233c; cases/standalone/paddle_detached_branch_stops_gradient.py (the corpus replays "
                 "inference only)."),
        example=Failure('compare', mode="grad", divergences=(('missing_gradient', '[0]'),), facts=('detached_branch',)),
    ),
    known_bug(
        "pir_ast.unused_input_zero_gradient",
        reason=("Through a converted program, an input that does not reach the loss gets a zero gradient where "
                "dygraph gives None"),
        phases=('compare',),
        divergences=('extra_gradient',),
        versions=">=3.0",
        paths=TO_STATIC_SOT_AND_JIT_SAVE,
        found="2026-11-21 (paddle 3.3.1)",
        details=("known divergence: through a converted program, an input that does not reach the loss, or a "
                 "parameter used only in a branch that did not run, gets a zero gradient where dygraph gives None. "
                 "Provenance: found by conformance 2026-11-21 (paddle 3.3.1), grad mode."),
        example=Failure('compare', divergences=(('extra_gradient', '[0]'),)),
    ),
    known_bug(
        "pir_ast.while_backward",
        reason=("The backward pass through a while loop on a tensor condition fails ('The variable middle_0 should "
                "exist')"),
        phases=('run',),
        errors=('ValueError',),
        message=r"The variable middle_\d+ should exist",
        modes=frozenset({'grad', 'train'}),
        versions=">=3.0",
        paths=TO_STATIC_SOT_AND_JIT_SAVE,
        found="2026-11-21 (paddle 3.3.1)",
        details=("known bug: the backward pass through a while loop on a tensor condition fails ('The variable "
                 "middle_0 should exist'): `while i < 3 and y.sum() < 3.0: y = F.sigmoid(y)`, then paddle.grad. "
                 "Provenance: found by conformance 2026-11-21 (paddle 3.3.1), grad mode."),
        example=Failure('run', mode="grad", error_types=('ValueError',), message="The variable middle_1 should exist"),
    ),
    known_bug(
        "pir_ast.cse_unregistered_op",
        reason=("With autograd on, PIR's common-subexpression pass fails on a comparison op ('pd_op.less_than is "
                "not registered in the table')"),
        phases=('run',),
        errors=('RuntimeError',),
        message=r"pd_op\.\w+ is not registered in the table",
        modes=frozenset({'grad', 'train'}),
        versions=">=3.0",
        paths=TO_STATIC_SOT_AND_JIT_SAVE,
        found="2026-11-21 (paddle 3.3.1)",
        details=("known bug: with autograd on, PIR's common-subexpression pass fails on a comparison op of the "
                 "program ('pd_op.less_than is not registered in the table'); seen in programs with a break inside "
                 "a while loop (not minimised). Provenance: found by conformance 2026-11-21 (paddle 3.3.1), grad "
                 "and train modes."),
        example=Failure('run',
                        mode="grad",
                        error_types=('RuntimeError',),
                        message="pd_op.a is not registered in the table"),
    ),
    known_bug(
        "pir_ast.eval_program_no_training",
        reason=("A layer converted in eval() runs an inference program with no backward, so an optimizer step never "
                "changes the parameters"),
        phases=('compare',),
        divergences=('value',),
        where=r"^\['(sgd|adam)'\]",
        modes=frozenset({'train'}),
        versions=">=3.0",
        facts=('eval_program',),
        paths=TO_STATIC_SOT_AND_JIT_SAVE,
        found="2026-11-21 (paddle 3.3.1)",
        details=("known divergence: a layer converted in eval() runs an inference program with no backward, so an "
                 "optimizer step never changes the parameters (every gradient silently None) where dygraph trains "
                 "them: the losses after the first step and the final parameters differ (the train-mode face of the "
                 "grad mode's missing gradients, PaddlePaddle/Paddle#58588). Provenance: found by conformance "
                 "2026-11-21 (paddle 3.3.1), grad and train modes; PaddlePaddle/Paddle#58588."),
        example=Failure('compare',
                        mode="train",
                        divergences=(('value', "['sgd']['losses']"), ('value', "['sgd']['params']['p0']"),
                                     ('value', "['sgd']['params']['p1']"), ('value', "['adam']['losses']"),
                                     ('value', "['adam']['params']['p0']"), ('value', "['adam']['params']['p1']")),
                        constructs=('dynamic_dim',),
                        ops=('linear',),
                        facts=('eval_program',)),
    ),
    known_bug(
        "pir_ast.early_return_before_while",
        reason=("An early return before a while loop on a tensor condition makes an AST to_static program fail in "
                "its forward with autograd on"),
        phases=('run',),
        errors=('RuntimeError',),
        message=r"DenseTensor shouldn't be null.*pd_op\.if",
        modes=frozenset({'grad', 'train'}),
        versions=">=3.0",
        paths=TO_STATIC_AND_JIT_SAVE,
        found="2026-11-21 (paddle 3.3.1)",
        details=("known bug: `if x.mean() < -0.5: return x`, then `while i < 1 and x.max() > 0.5: i += 1`, `return "
                 "x`: an AST to_static program run with autograd (train(), an input that needs a gradient) fails in "
                 "its forward ('DenseTensor shouldn't be null', in pd_op.if); SOT and dygraph run it. Provenance: "
                 "found by conformance 2026-11-21 (paddle 3.3.1), grad mode."),
        example=Failure('run',
                        mode="grad",
                        error_types=('RuntimeError', 'Exception'),
                        message=("In user code:\n\n\n    PermissionDeniedError: DenseTensor shouldn't be null (at"
                                 " /paddle/paddle/fluid/framework/new_executor/pir_adaptor/pir_adaptor_util.cc:33"
                                 "9)\n      [operator < pd_op.if > error]  [operator < run_program > error]"),
                        constructs=('early_return', 'if_tensor', 'while_tensor')),
    ),
    known_bug(
        "pir_ast.zero_size_through_if",
        reason=("A zero-size tensor that an AST to_static program returns through a pd_op.if makes its run fail "
                "('Tensor holds no memory')"),
        phases=('run',),
        errors=('ValueError', 'RuntimeError'),
        message=(r"The input tensor (output_grad_\d+|Fake_var) of RunProgram\(Grad\)Op should be initialized|Tensor "
                 r"not initialized yet when DenseTensor::place\(\) is called"),
        modes=frozenset({'grad', 'train'}),
        versions=">=3.0",
        constructs=('if_tensor', 'if_shape'),
        paths=TO_STATIC_AND_JIT_SAVE,
        script="paddle_zero_size_output_through_if.py",
        found="2026-11-28 (paddlepaddle 3.3.1)",
        details=("known bug: a zero-size tensor that an AST to_static program returns through a pd_op.if (on a "
                 "tensor, `if y.sum() < t: return [e, z]` with e of shape [0, 5, 3], or on a dynamic dim) comes "
                 "back uninitialized (no memory; dygraph returns an empty tensor): with autograd an op on it fails "
                 "('Tensor not initialized yet when DenseTensor::place() is called'), and so does the backward into "
                 "the program ('The input tensor output_grad_0 (or Fake_var) of RunProgram(Grad)Op should be "
                 "initialized'); a loaded layer (jit.load) too. Provenance: found by conformance 2026-11-28 "
                 "(paddlepaddle 3.3.1), campaign seed 0, case 8aed360b1c84; "
                 "cases/standalone/paddle_zero_size_output_through_if.py (the corpus replays inference only)."),
        example=Failure('run',
                        mode="grad",
                        error_types=('ValueError',),
                        message="The input tensor output_grad_1 of RunProgram(Grad)Op should be initialized",
                        constructs=('if_tensor',)),
    ),
    known_bug(
        "pir_ast.early_return_rebound_no_gradient",
        reason=("A variable rebound after an early return (taken or not) gets a zero gradient through the AST "
                "to_static program"),
        phases=('compare',),
        divergences=('value',),
        modes=frozenset({'grad', 'train'}),
        versions=">=3.0",
        constructs=('early_return',),
        paths=TO_STATIC_AND_JIT_SAVE,
        script="paddle_early_return_rebound_no_gradient.py",
        found="2026-11-28 (paddlepaddle 3.3.1)",
        details=("known bug: `if x.mean() < t: return x` (not taken), then `x = -x; return x`: through the AST "
                 "to_static program (a layer in train()) the gradient with respect to x is 0 where dygraph gives -1 "
                 "per element, so input and parameter gradients, and the training steps after them, differ; `return "
                 "-x` without rebinding x is right, and so is SOT. The early return may be taken, and the "
                 "rebinding need not run: after `if c: return v1, v2`, a loop `for i in range(1): break; v2 = "
                 "sigmoid(v2)` zeroes v2's gradient too, while v1 (not rebound) keeps its own (case ec2334d8d6dc, "
                 "jit_save, whose mismatch also has unused_input_zero_gradient's zero gradient of an input used only "
                 "in the condition: this record names it, the lost gradient being the larger error). Provenance: "
                 "found by conformance 2026-11-28 (paddlepaddle 3.3.1), campaign seed 0, case 2dad9d459902; "
                 "cases/standalone/paddle_early_return_rebound_no_gradient.py (the corpus replays inference only)."),
        example=Failure('compare',
                        mode="grad",
                        divergences=(('value', "['input_grads']['x']"),),
                        constructs=('early_return', 'if_tensor', 'train_mode'),
                        ops=('neg',)),
    ),
    known_bug(
        "pir_ast.while_detached_backward",
        reason=("The backward through two while loops on tensor conditions, one reading a detached value, fails in "
                "an AST to_static or loaded program"),
        phases=('run',),
        errors=('TypeError',),
        message=r"call_vjp\(\): incompatible function arguments",
        modes=frozenset({'grad', 'train'}),
        versions=">=3.0",
        paths=TO_STATIC_AND_JIT_SAVE,
        script="paddle_while_backward_build_errors.py",
        found="2026-11-28 (paddlepaddle 3.3.1)",
        details=("known bug: the backward of an AST to_static program (or a loaded one) through two while loops on "
                 "tensor conditions, one reading a detached value (`v2 = v2.detach()`; `while ...: v5 = -v2; v1 = "
                 "-v1`; `while ...: v13 = v1 + v2; v0 = -v0`), fails to build: ir_backward passes a None gradient "
                 "to call_vjp() ('incompatible function arguments'). Provenance: found by conformance 2026-11-28 "
                 "(paddlepaddle 3.3.1), campaign seed 0, case bba6a6965ef5; "
                 "cases/standalone/paddle_while_backward_build_errors.py (the corpus replays inference only)."),
        example=Failure('run',
                        mode="grad",
                        error_types=('TypeError',),
                        message="call_vjp(): incompatible function arguments"),
    ),
    known_bug(
        "pir_ast.while_if_backward_no_block",
        reason=("The backward of an AST to_static program through an if inside a while loop fails to build: "
                "ir_backward asks for a block it has not made"),
        phases=('run',),
        errors=('AttributeError',),
        message=r"value_in_block[\s\S]*'NoneType' object has no attribute 'get_parent_block'",
        modes=frozenset({'grad', 'train'}),
        versions=">=3.0",
        paths=TO_STATIC_AND_JIT_SAVE,
        script="paddle_while_backward_build_errors.py",
        found="2026-11-28 (paddlepaddle 3.3.1)",
        details=("known bug: the backward of an AST to_static program through `while i < 1 and x.max() < -0.5: if "
                 "x.min() < 0.5: z = -x` then `x = -y` fails to build: ir_backward asks the block of a value that "
                 "no operator defines ('NoneType' object has no attribute 'get_parent_block', in value_in_block). "
                 "Provenance: found by conformance 2026-11-28 (paddlepaddle 3.3.1), campaign seed 0, case "
                 "9e5c37096acc; cases/standalone/paddle_while_backward_build_errors.py."),
        example=Failure('run',
                        mode="grad",
                        error_types=('AttributeError',),
                        message="value_in_block'NoneType' object has no attribute 'get_parent_block'"),
    ),
    known_bug(
        "pir_ast.to_static_input_write",
        reason=("An in-place write into an input tensor in forward is lost by to_static's program: the caller's "
                "tensor is not written"),
        phases=('compare',),
        versions=">=3.0",
        constructs=('input_inplace',),
        paths=('paddle.to_static', 'paddle.to_static_per_call', 'paddle.to_static_build_strategy',
               'paddle.to_static_amp', 'paddle.to_static_spec_from_tensor', 'paddle.jit_save',
               'paddle.jit_save_methods', 'paddle.jit_save_function', 'paddle.inference',
               'paddle.inference_no_onednn', 'paddle.onnx', 'paddle.inference_no_ir_optim'),
        found="2026-11-23 (torch 2.13.0, paddlepaddle 3.3.1, tensorflow 2.21.0)",
        details=("known bug: an in-place write into an input tensor in forward (x.scale_(2), x[:, :1] = ...) is "
                 "lost by to_static's program: the caller's tensor is not written and the outputs computed after "
                 "the write use the values from before it (see also "
                 "cases/paddle-to-static-inplace-pass-writes-input.json). Provenance: found by conformance "
                 "2026-11-23 (torch 2.13.0, paddlepaddle 3.3.1, tensorflow 2.21.0)."),
        example=Failure('compare', divergences=(('value', '[0]'),), constructs=('input_inplace',)),
    ),
    known_bug(
        "pir_ast.to_static_stale_views",
        reason=("to_static's program computes a view taken before an assignment into its base (b[:1] = ...) from "
                "the values before the assignment"),
        phases=('compare',),
        versions=">=3.0",
        constructs=('base_setitem',),
        paths=('paddle.to_static', 'paddle.to_static_sot', 'paddle.to_static_per_call',
               'paddle.to_static_build_strategy', 'paddle.to_static_amp', 'paddle.to_static_spec_from_tensor',
               'paddle.jit_save', 'paddle.jit_save_methods', 'paddle.jit_save_function', 'paddle.inference',
               'paddle.inference_no_onednn', 'paddle.onnx', 'paddle.inference_no_ir_optim'),
        issue="https://github.com/PaddlePaddle/Paddle/issues/79146",
        details=("known bug: to_static's program computes a view taken before an assignment into its base (b[:1] = "
                 "...) from the values before the assignment. Provenance: "
                 "https://github.com/PaddlePaddle/Paddle/issues/79146."),
        example=Failure('compare', divergences=(('value', '[0]'),), constructs=('base_setitem',)),
    ),
    known_bug(
        "pir_ast.is_none_after_python_if",
        reason=("After `y = None; if n > 1.5: y = tanh(x)` (n a Python int from the data), AST to_static returns a "
                "0-d value for `x if y is None else y`"),
        phases=('compare',),
        divergences=('shape',),
        versions=">=3.3",
        constructs=('none_value',),
        paths=('paddle.to_static', 'paddle.to_static_per_call', 'paddle.to_static_build_strategy',
               'paddle.to_static_spec_from_tensor'),
        case="paddle-to-static-is-none-after-tensor-if.json",
        script="paddle_to_static_is_none_after_tensor_if.py",
        found="2026-11-29 (paddlepaddle 3.3.1)",
        details=("known bug: `n = int(x.abs().sum() * 2.0) % 3; y = None; if n > 1.5: y = tanh(x); out = x if y is "
                 "None else y`: the AST transcription makes the if a pd_op.if (n is a tensor in the static graph) "
                 "and y an UndefinedVar where the branch does not assign it; the converted model returns a 0-d "
                 "value (the standalone script: the UndefinedVar object itself) where eager returns x or tanh(x), "
                 "on every call. jit.save of such a program refuses it (its output no longer depends on the "
                 "input); SOT runs it right. Provenance: found by conformance 2026-11-29 (paddlepaddle 3.3.1), "
                 "campaign seed 0, case 52cdb20fed02; cases/paddle-to-static-is-none-after-tensor-if.json, "
                 "cases/standalone/paddle_to_static_is_none_after_tensor_if.py."),
        example=Failure('compare', divergences=(('shape', 'output'),), constructs=('none_value', 'type_differs_if')),
    ),
    known_bug(
        "pir_ast.is_none_after_python_if_used",
        reason=("The UndefinedVar AST to_static makes of `x if y is None else y` (`is_none_after_python_if`) "
                "fails the op it is given"),
        errors=('AttributeError',),
        message=r"'UndefinedVar' object has no attribute",
        versions=">=3.3",
        constructs=('none_value',),
        paths=AST_PATHS,
        script="paddle_to_static_is_none_after_tensor_if.py",
        found="2026-11-29 (paddlepaddle 3.3.1)",
        details=("known bug: where `y = None` is assigned a tensor only in a branch that AST to_static makes a "
                 "pd_op.if, `v = x if y is None else y` is an UndefinedVar (`pir_ast.is_none_after_python_if`); "
                 "given to an op that reads its shape (F.batch_norm: `len(x.shape)`), the conversion fails with "
                 "\"AttributeError: 'UndefinedVar' object has no attribute 'shape'\". Provenance: found by "
                 "conformance 2026-11-29 (paddlepaddle 3.3.1), the paddle campaign seed 0 (case 52d2ab2e3d91, grad "
                 "mode); cases/standalone/paddle_to_static_is_none_after_tensor_if.py (the UndefinedVar itself)."),
        example=Failure('convert', mode="grad", error_types=('AttributeError', 'Exception'),
                        message="In transformed code: AttributeError: 'UndefinedVar' object has no attribute 'shape'",
                        constructs=('if_tensor', 'none_value')),
    ),
    known_bug(
        "pir_ast.is_none_after_python_if_training",
        reason=("The train-mode face of `pir_ast.is_none_after_python_if`: the 0-d value AST to_static returns for `x "
                "if y is None else y` leaves that output out of the loss"),
        phases=('compare',),
        divergences=('value',),
        where=r"\['losses'\]",
        modes=frozenset({'train'}),
        versions=">=3.3",
        constructs=('none_value',),
        paths=('paddle.to_static', 'paddle.to_static_per_call', 'paddle.to_static_build_strategy'),
        case="paddle-to-static-is-none-after-tensor-if.json",
        script="paddle_to_static_is_none_after_tensor_if.py",
        found="2026-11-29 (paddlepaddle 3.3.1)",
        details=("known bug: `pir_ast.is_none_after_python_if` in train mode, where only the losses, parameters and "
                 "buffers are compared: the converted layer returns a 0-d value for the output `x if y is None else "
                 "y` (y = None, assigned in an if on a Python number from the data that AST to_static makes a "
                 "pd_op.if), the loss head leaves a leaf of another shape out, and the training losses differ from "
                 "the first step (the same case's infer and grad modes show the 0-d output itself). Provenance: "
                 "found by conformance 2026-11-29 (paddlepaddle 3.3.1), campaign seed 0, 300 s, case 3b20c0e921cb "
                 "(train mode on to_static and to_static_per_call; infer and grad named by the shape record)."),
        example=Failure('compare', mode="train", divergences=(('value', "['sgd']['losses']"),
                                                             ('value', "['adam']['losses']")),
                        constructs=('none_value', 'type_differs_if')),
    ),
    known_bug(
        "pir_ast.python_float_loop_carry_float64",
        reason=("An AST to_static while loop carries a Python float that becomes a float32 tensor in the loop as a "
                "float64 tensor"),
        phases=('compare',),
        divergences=('dtype',),
        versions=">=3.3",
        constructs=('type_change_while',),
        paths=('paddle.to_static', 'paddle.to_static_per_call', 'paddle.to_static_build_strategy',
               'paddle.to_static_spec_from_tensor', 'paddle.jit_save', 'paddle.jit_save_methods',
               'paddle.jit_save_function', 'paddle.inference', 'paddle.inference_no_onednn',
               'paddle.inference_no_ir_optim'),
        case="paddle-to-static-float-accumulator-float64.json",
        script="paddle_to_static_float_accumulator_float64.py",
        found="2026-11-29 (paddlepaddle 3.3.1)",
        details=("known bug: `acc = 0.0; while y.mean() < -0.25: acc = acc + y.mean(); y = sigmoid(y)`: in eager "
                 "`0.0 + y.mean()` is a float32 0-d tensor; the AST transcription makes the loop variable acc a "
                 "tensor from its Python float start, as float64, and the loop's result stays float64 (a silent "
                 "dtype change; the values agree). jit.save and Paddle Inference inherit it; SOT runs it right. "
                 "Provenance: found by conformance 2026-11-29 (paddlepaddle 3.3.1), campaign seed 0, case "
                 "90bd43f8e2d9; cases/paddle-to-static-float-accumulator-float64.json, "
                 "cases/standalone/paddle_to_static_float_accumulator_float64.py."),
        example=Failure('compare', divergences=(('dtype', 'output'),), constructs=('type_change_while',)),
    ),
    refuses_with(
        "pir_ast.loop_dict_new_key",
        reason=("A dict that gains a key inside a loop AST to_static makes a while_loop changes the loop variables' "
                "structure, which while_loop refuses"),
        errors=('ValueError',),
        message=r"body in while_loop should return the same arity \(length and structure\) as loop_vars",
        constructs=('dict_value',),
        paths=AST_PATHS,
        reference="https://www.paddlepaddle.org.cn/documentation/docs/en/api/paddle/static/nn/while_loop_en.html",
        found="2026-11-29 (paddlepaddle 3.3.1)",
        details=("`d = {'z': t}; for i in range(n): d['k' + str(9 - i)] = x` with n a Python int from the data (or "
                 "under a while on a tensor): AST to_static makes the loop a while_loop whose loop variables must "
                 "keep their structure, and the dict gains a key per iteration ('The two structures don't have the "
                 "same number of elements'); eager Python runs it. (The key it shows, 'kValue(define_op_name=pd_op."
                 "scale ...)', is the repr of the loop index tensor: str() of the converted index.) Provenance: "
                 "found by conformance 2026-11-29 (paddlepaddle 3.3.1), to_static campaign seed 0, 150 s, cases "
                 "533fb668bd08, fa66cf8c95a5, 13ee1ad5a589, 8ac4a9d31f69, cf1640dd1fdc; paddle.static.nn.while_loop's "
                 "documentation."),
        example=Failure('convert', error_types=('ValueError',),
                        message="In transformed code: ValueError: body in while_loop should return the same arity "
                                "(length and structure) as loop_vars: The two structures don't have the same number "
                                "of elements.",
                        constructs=('dict_value', 'for_data')),
    ),
    known_bug(
        "pir_ast.tensor_array_extend",
        reason=("A list that AST to_static turns into a tensor array (appended to in a converted loop) has no "
                "extend(), and `l += m` on it is a tensor add"),
        phases=('convert',),
        errors=('AttributeError', 'TypeError'),
        message=(r"'paddle.base.libpaddle.pir.Value' object has no attribute 'extend'|"
                 r"full\(\): argument \(position 2\) must be double, but got list"),
        constructs=('list_value',),
        paths=AST_PATHS,
        found="2026-11-29 (paddlepaddle 3.3.1)",
        details=("known bug: a Python list appended to in a loop AST to_static converts (a for over range(n) of a "
                 "Python int from the data, a while on a tensor) becomes a tensor array (a pir.Value), and a later "
                 "`l.extend(m)` raises AttributeError: 'paddle.base.libpaddle.pir.Value' object has no attribute "
                 "'extend' (append, pop, len and iteration are converted), and `l += m` is taken for a tensor add "
                 "(TypeError: full(): argument (position 2) must be double, but got list, from fill_constant); eager "
                 "Python runs both, SOT not checked. Provenance: found by conformance 2026-11-29 (paddlepaddle "
                 "3.3.1), to_static campaign seed 0, 150 s, cases 63781decb4f1, b53f00e8b762, e2752fc16b3f "
                 "(extend), 026a77a6b8c9, 78235af6c085, fb3f738c7da7 (+=)."),
        example=Failure('convert', error_types=('AttributeError',),
                        message="In transformed code: AttributeError: 'paddle.base.libpaddle.pir.Value' object has "
                                "no attribute 'extend'",
                        constructs=('list_grown_data_loop', 'list_value')),
    ),
    refuses_with(
        "pir_ast.branch_dtype_differs",
        reason=("A pd_op.if needs each output to have one dtype in both branches: a variable cast to another dtype "
                "in one branch of an if on a tensor is refused"),
        errors=('RuntimeError',),
        message=r"The dtype in output\[\d+\] of true_block&false_block must be equal",
        paths=AST_PATHS,
        reference="https://www.paddlepaddle.org.cn/documentation/docs/en/api/paddle/static/nn/cond_en.html",
        found="2026-11-29 (paddlepaddle 3.3.1)",
        details=("AST to_static makes an if on a tensor a pd_op.if (paddle.static.nn.cond), whose branches must "
                 "return outputs of the same dtype: `if x.max() < 0.39: v = paddle.cast(v, 'float64')` is refused "
                 "('(PreconditionNotMet) The dtype in output[0] of true_block&false_block must be equal ... f32 != "
                 "f64'); eager Python runs it. Seen on the generated programs whose variable changes dtype in one "
                 "branch (the Python-value scenes). Provenance: found by conformance 2026-11-29 (paddlepaddle "
                 "3.3.1), to_static campaign seed 0, 150 s, cases c4993b48e609, 8aa64a1d9820, d68ce86d81a8; "
                 "paddle.static.nn.cond's documentation."),
        example=Failure('convert', error_types=('RuntimeError',),
                        message="In transformed code: RuntimeError: (PreconditionNotMet) The dtype in output[0] of "
                                "true_block&false_block must be equal. [Hint: Expected l_type.dtype() == "
                                "r_type.dtype(), but received l_type.dtype():f32 != r_type.dtype():f64.]",
                        constructs=('if_tensor',)),
    ),
    refuses_with(
        "pir_ast.loop_dtype_changes",
        reason=("A while loop on a tensor must keep each loop variable's dtype: a variable cast to float64 in the "
                "body of a converted loop fails at run time"),
        phases=('convert', 'run'),
        errors=('ValueError',),
        message=(r"The type of data we are trying to retrieve \(float32\) does not match the type of data "
                 r"\(float64\) currently contained in the container"),
        constructs=('while_tensor',),
        paths=AST_PATHS,
        reference="https://www.paddlepaddle.org.cn/documentation/docs/zh/guides/jit/limitations_cn.html",
        found="2026-11-29 (paddlepaddle 3.3.1)",
        details=("AST to_static makes a while on a tensor a while_loop, whose body must return loop variables of "
                 "the types it was given (paddle.static.nn.while_loop: 'of the same arity (length and structure) "
                 "and types as loop_vars'); `while v.mean() > 0: v = paddle.cast(v, 'float64'); v = sigmoid(v)` "
                 "keeps v float32 in the program and the loop writes float64 into it, so the first kernel reading "
                 "v after the loop fails: 'InvalidArgumentError: The type of data we are trying to retrieve "
                 "(float32) does not match the type of data (float64) currently contained in the container', the "
                 "error the dy2static limitations guide gives for a variable whose type differs across converted "
                 "control flow (to_static's first call; jit.load and the predictor when they run it). Eager Python "
                 "runs it. Provenance: https://www.paddlepaddle.org.cn/documentation/docs/zh/guides/jit/"
                 "limitations_cn.html (1.1: a variable keeps one type across converted control flow), "
                 "paddle.static.nn.while_loop's "
                 "documentation; found by conformance 2026-11-29 (paddlepaddle 3.3.1), campaign seed 0, 300 s, "
                 "cases 642240b219d9, a87e76cf8395, 9b798881f814, 8b82d4b94614, dc76623c606e, a84f042a543a."),
        example=Failure('convert', error_types=('ValueError',),
                        message="In transformed code: InvalidArgumentError: The type of data we are trying to "
                                "retrieve (float32) does not match the type of data (float64) currently contained in "
                                "the container. [operator < run_program > error]",
                        constructs=('while_tensor',), ops=('cast', 'sigmoid')),
    ),
    known_bug(
        "pir_ast.zero_dim_bool_mask_index",
        reason=("Indexing a 0-d tensor with a 0-d bool mask (`x[x > 0]`, `y[m] = x[m]`) does not convert: the static "
                "index parser raises IndexError"),
        errors=('IndexError',),
        message="list assignment index out of range",
        versions=">=3.3",
        ops=('mask_assign',),
        paths=AST_PATHS,
        case="paddle-to-static-zero-dim-bool-mask.json",
        script="paddle_to_static_zero_dim_bool_mask.py",
        found="2026-11-29 (paddlepaddle 3.3.1)",
        details=("known bug: `m = x > 0; y = x.clone(); y[m] = x[m]` (or `x[x > 0]`) with x a 0-d tensor does not "
                 "convert: the static getitem's parse_index writes the bool mask's dims into a list sized by x's "
                 "rank ('advanced_index[estimated_dim] = (estimated_dim, slice_item)': IndexError: list assignment "
                 "index out of range); dygraph returns a 1-d tensor of the selected elements (numpy's rule). A "
                 "mask of rank 1 or more converts. Provenance: found by conformance 2026-11-29 (paddlepaddle "
                 "3.3.1), campaign seed 0, 300 s, case f50baa3c03b0; cases/paddle-to-static-zero-dim-bool-mask.json, "
                 "cases/standalone/paddle_to_static_zero_dim_bool_mask.py."),
        example=Failure('convert', error_types=('IndexError',),
                        message="In transformed code: advanced_index[estimated_dim] = (estimated_dim, slice_item) "
                                "IndexError: list assignment index out of range",
                        constructs=('mask_assign',), ops=('mask_assign',)),
    ),
    known_bug(
        "pir_ast.atan2_dynamic_broadcast",
        reason=("paddle.atan2 of operands that broadcast, one with a dynamic dim, fails in a static program "
                "(an expand to -1)"),
        phases=('convert', 'run'),
        errors=('ValueError', 'InvalidArgumentError'),
        message=r"The expanded size \(-1\) for non-existing dimensions must be positive for expand_v2 op",
        versions=">=3.3",
        ops=('atan2',),
        steer=('dynamic=True',),
        paths=AST_PATHS,
        case="paddle-to-static-atan2-dynamic-broadcast.json",
        script="paddle_to_static_atan2_dynamic_broadcast.py",
        found="2026-11-29 (paddle 3.3.1)",
        details=("known bug: paddle.atan2 broadcasts its operands with paddle.broadcast_to of their static shapes; "
                 "in a static program a dynamic dim is -1 there, and the expand fails at the first call ('The "
                 "expanded size (-1) for non-existing dimensions must be positive for expand_v2 op'): atan2 of a "
                 "[B, 3] (InputSpec [None, 3]) and a [3]. Dygraph runs it, and to_static with static shapes. "
                 "Provenance: found by conformance 2026-11-29 (paddle 3.3.1), the paddle campaign seed 0 (case "
                 "accd51e55218); cases/paddle-to-static-atan2-dynamic-broadcast.json, "
                 "cases/standalone/paddle_to_static_atan2_dynamic_broadcast.py."),
        example=Failure('convert', error_types=('ValueError', 'Exception'),
                        message=("In transformed code: InvalidArgumentError: The expanded size (-1) for non-existing "
                                 "dimensions must be positive for expand_v2 op."),
                        ops=('atan2', 'tanh')),
    ),
    known_bug(
        "pir_ast.unique_int64_result_float32",
        reason=("paddle.unique of an int64 tensor yields a value the static program types float32, so a second "
                "unique on it fails at run time"),
        phases=('convert', 'run'),
        errors=('ValueError',),
        message=(r"The type of data we are trying to retrieve \(float32\) does not match the type of data "
                 r"\(int64\) currently contained in the container"),
        versions=">=3.3",
        ops=('unique',),
        paths=AST_PATHS,
        case="paddle-to-static-unique-of-unique-int64.json",
        script="paddle_to_static_unique_of_unique_int64.py",
        found="2026-11-29 (paddlepaddle 3.3.1)",
        details=("known bug: `a = paddle.unique(x); b = paddle.unique(a)` with x int64 fails in a static program "
                 "(to_static's first call; jit.load): the second unique's kernel reads its input as float32 "
                 "('InvalidArgumentError: The type of data we are trying to retrieve (float32) does not match the "
                 "type of data (int64) currently contained in the container'); dygraph returns the int64 result, "
                 "and float32 inputs convert. Provenance: found by conformance 2026-11-29 (paddlepaddle 3.3.1), "
                 "campaign seed 1, 600 s, case 1eeafe8063f1; cases/paddle-to-static-unique-of-unique-int64.json, "
                 "cases/standalone/paddle_to_static_unique_of_unique_int64.py."),
        example=Failure('convert', error_types=('ValueError',),
                        message="In transformed code: InvalidArgumentError: The type of data we are trying to "
                                "retrieve (float32) does not match the type of data (int64) currently contained in "
                                "the container.",
                        ops=('cast', 'unique')),
    ),
    known_bug(
        "pir_ast.inplace_pass_overwrites_output",
        reason=("With a backward, PIR's inplace pass makes an op write in place into a value the program also "
                "returns (std's mean subtraction, an unused clip)"),
        phases=('compare',),
        divergences=('value',),
        modes=frozenset({'grad', 'train'}),
        versions=">=3.3",
        ops=('std', 'var', 'clamp'),
        script="paddle_to_static_std_overwrites_output.py",
        found="2026-11-29 (paddlepaddle 3.3.1)",
        details=("known bug: `y = -x; s = paddle.std(y, axis=2); return y, s` (also `x * 2.0`, and paddle.var) with "
                 "x needing a gradient: the converted program returns y - mean(y) for y (std's decomposition "
                 "subtracts the mean in place into y, whose own backward does not need it, although y is an "
                 "output); dygraph returns -x; without a gradient, after tanh (whose backward keeps its output), "
                 "or with FLAGS_pir_apply_inplace_pass=0 it is right. AST to_static, SOT and jit.load'ed layers in "
                 "grad and train modes (silent: the outputs and the losses change). The same pass makes "
                 "`v17 = paddle.clip(v5, -0.5, 2.0)`, whose result is never used, clip v5 in place, and v5 is an "
                 "output (case f6e46da2486d of the seed-0 campaign of 2026-11-29: to_static and to_static_per_call "
                 "grad, to_static_per_call train; right with the pass off). Provenance: found by "
                 "conformance 2026-11-29 (paddlepaddle 3.3.1), campaign seed 0, 300 s, case 2e145f3beba9 (jit_save "
                 "train; reduced by conformance triage to 8 statements); "
                 "cases/standalone/paddle_to_static_std_overwrites_output.py (an IR case replays in infer mode "
                 "only, where the program has no backward)."),
        example=Failure('compare', mode="grad", divergences=(('value', "['outputs'][0]['out0']"),),
                        ops=('neg', 'std')),
    ),
    known_bug(
        "pir_ast.tensor_array_output",
        reason=("A list that AST to_static turns into a tensor array (changed in a converted loop) cannot be "
                "returned: run_program leaves that output undefined"),
        phases=('convert', 'run'),
        errors=('ValueError', 'NotImplementedError'),
        message=(r"^(?![\s\S]*\[::-1\])[\s\S]*(dst_tensor `output_\d+` shall be defined|Only support "
                 r"paddle::dialect::DenseTensorType or paddle::dialect::AllocatedDenseTensorType|we can only get "
                 r"shape for dense_tensor or selected_rows)"),
        versions=">=3.3",
        constructs=('list_value',),
        paths=AST_PATHS,
        case="paddle-to-static-tensor-array-output.json",
        script="paddle_to_static_tensor_array_output.py",
        found="2026-11-29 (paddlepaddle 3.3.1)",
        details=("known bug: `l = [x]; for i in range(n): l.append(...)` (or `l.pop()`) with n a Python int from "
                 "the data makes l a tensor array in the converted loop, and returning it (alone or in a dict) "
                 "fails at the first run: '(InvalidArgument) dst_tensor `output_1` shall be defined' "
                 "(run_program_impl.cc); a layer in train() with an input that needs a gradient fails to build "
                 "the backward instead ('(Unimplemented) Only support paddle::dialect::DenseTensorType or "
                 "paddle::dialect::AllocatedDenseTensorType'); jit.load'ed layers the same; a Paddle Inference "
                 "predictor on the saved program fails to build ('(InvalidArgument) Currently, we can only get "
                 "shape for dense_tensor or selected_rows': case 7569951c7e74, 2026-11-29). Stacked into a tensor "
                 "before returning it runs; dygraph and SOT return the list. Provenance: found by conformance "
                 "2026-11-29 (paddlepaddle 3.3.1), campaign seed 1, 600 s, cases 26c4c0f6b943, c2d01cebb94d, "
                 "37b1c61d1605; cases/paddle-to-static-tensor-array-output.json, "
                 "cases/standalone/paddle_to_static_tensor_array_output.py."),
        example=Failure('convert', error_types=('ValueError',),
                        message="In transformed code: ValueError: (InvalidArgument) dst_tensor `output_1` shall be "
                                "defined. [operator < run_program > error]",
                        constructs=('for_data', 'list_grown_data_loop', 'list_value')),
    ),
    known_bug(
        "pir_ast.tensor_array_created_in_loop",
        reason=("A tensor array created inside a loop that AST to_static converts (create_array, or a list grown "
                "in a loop there) fails to build its program"),
        phases=('convert', 'run'),
        errors=('ValueError',),
        message=r"Type validation failed for the 0th output[\s\S]*isa<paddle::dialect::DenseTensorType>",
        versions=">=3.3",
        constructs=('tensor_array', 'list_grown_data_loop'),
        paths=AST_PATHS,
        case="paddle-to-static-array-created-in-loop.json",
        script="paddle_to_static_array_created_in_loop.py",
        found="2026-11-29 (paddlepaddle 3.3.1)",
        details=("known bug: `while v.mean() < 0.5: a = paddle.tensor.create_array(paddle.float32); a = "
                 "array_write(tanh(x[0]), 0, a); v = v + stack(a).sum(0) + 1.0` runs in dygraph; AST to_static fails "
                 "to build the program: '(InvalidArgument) Type validation failed for the 0th output ... "
                 "isa<paddle::dialect::DenseTensorType>()' (pd_op2.cc); the same in `for _ in range(n)` with n a "
                 "Python int from the data, in `for _ in x` over an input with a dynamic dim, and with a list created"
                 " in the while and appended to in a `for r in x` over an input with a dynamic dim (a tensor array "
                 "there); jit.save'd layers and functions and the predictors build the same program. The array "
                 "created before the loop, and a plain list in it, run; SOT runs it. Provenance: found by conformance"
                 " 2026-11-29 (paddlepaddle 3.3.1), campaign seed 0, 300 s, cases 39f9c1158419, 687e7118bd9b, "
                 "78db147c0d17; cases/paddle-to-static-array-created-in-loop.json, "
                 "cases/standalone/paddle_to_static_array_created_in_loop.py."),
        example=Failure('run', error_types=('ValueError',),
                        message=("example inputs: ValueError: (InvalidArgument) Type validation failed for the 0th "
                                 "output.\n  [Hint: Expected (*this)->result(0).type().isa<paddle::dialect::"
                                 "DenseTensorType>() == true, but received (*this)->result(0).type().isa<paddle::"
                                 "dialect::DenseTensorType>():0 != true:1.]"),
                        constructs=('for_rows', 'list_grown_data_loop', 'while_tensor')),
    ),
    known_bug(
        "pir_ast.buffer_assigned_in_tensor_if",
        reason=("AST to_static cannot convert a registered buffer reassigned inside an if on a tensor: "
                "'assignment to parameter ... should be of type Parameter or None'"),
        errors=('TypeError',),
        message=r"assignment to parameter '\w+' should be of type Parameter or None, but got 'Value'",
        versions=">=3.3",
        paths=AST_PATHS,
        case="paddle-to-static-buffer-assigned-in-tensor-if.json",
        script="paddle_to_static_buffer_assigned_in_tensor_if.py",
        found="2026-11-29 (paddlepaddle 3.3.1)",
        details=("known bug: `if x.max() > -1.5: self.b = self.b + 1.0` with b a buffer (register_buffer) runs in "
                 "dygraph; AST to_static (jit.save, the predictors) fails to convert it: 'TypeError: assignment to "
                 "parameter 'b' should be of type Parameter or None, but got 'Value'' (Layer.__setattr__ in the "
                 "converted branch; b is a buffer). The same assignment outside the if converts. Provenance: found "
                 "by conformance 2026-11-29 (paddlepaddle 3.3.1), campaign seed 0, 300 s, case 5f866811d138 "
                 "(jit_save, inference, infer mode); cases/paddle-to-static-buffer-assigned-in-tensor-if.json, "
                 "cases/standalone/paddle_to_static_buffer_assigned_in_tensor_if.py."),
        example=Failure('convert', error_types=('TypeError',),
                        message=("TypeError: In transformed code: if v10.max() > -1.5: self.p4 = self.p4 + 1.0 "
                                 "TypeError: assignment to parameter 'p4' should be of type Parameter or None, but "
                                 "got 'Value'"),
                        constructs=('if_tensor', 'module_state', 'state_counter')),
    ),
    known_bug(
        "pir_ast.tensor_array_loop_backward",
        reason=("The backward of a converted while loop that appends to a list (a tensor array) fails to build or "
                "run"),
        phases=('convert', 'run'),
        errors=('RuntimeError', 'NotImplementedError'),
        message=(r"result and operand type is not equal[\s\S]*tensor_array|Only support DenseTensorType, "
                 r"SelectedRows, SparseCooTensorType, SparseCsrTensorType and VectorType"),
        modes=frozenset({'grad', 'train'}),
        versions=">=3.3",
        constructs=('list_value',),
        paths=AST_PATHS,
        script="paddle_to_static_tensor_array_loop_backward.py",
        found="2026-11-29 (paddlepaddle 3.3.1)",
        details=("known bug: `l = [tanh(x)]; while z.mean() < 0: l.append(tanh(x)); z = sigmoid(z)`, then "
                 "`paddle.stack(l)`, with inputs that need a gradient: the backward of the converted loop fails, "
                 "'(Unimplemented) Only support DenseTensorType, SelectedRows, SparseCooTensorType, "
                 "SparseCsrTensorType and VectorType' where the stacked list reaches the outputs, "
                 "'(PreconditionNotMet) The (2) result and operand type is not equal ... pd_op.tensor_array<f32> != "
                 "pd_op.tensor_array<f32>' where it does not (jit.load'ed layers too; an array written and read "
                 "outside a while: `pir_ast.tensor_array_backward_no_kernel`); dygraph computes the "
                 "gradient, and in infer mode (no backward) it converts. Provenance: found by conformance "
                 "2026-11-29 (paddlepaddle 3.3.1), campaign seed 1, 600 s, case 2186ddd19249; "
                 "cases/standalone/paddle_to_static_tensor_array_loop_backward.py (an IR case replays in infer mode "
                 "only)."),
        example=Failure('run', mode="grad", error_types=('RuntimeError',),
                        message="(PreconditionNotMet) The (3) result and operand type is not equal. [Hint: Expected "
                                "input_type == output_type, but received input_type:pd_op.tensor_array<f32> != "
                                "output_type:pd_op.tensor_array<f32>.]",
                        constructs=('list_value', 'while_tensor')),
    ),
    known_bug(
        "pir_ast.is_none_after_python_if_saved",
        reason=("After `y = None; if n > 1.5: y = tanh(x)`, AST to_static returns an UndefinedVar for `x if y is None "
                "else y`, which a saved program leaves out"),
        phases=('compare',),
        divergences=('structure', 'missing_gradient'),
        versions=">=3.3",
        facts=('undefined_outputs',),
        paths=('paddle.jit_save', 'paddle.jit_save_methods', 'paddle.jit_save_function', 'paddle.inference',
               'paddle.inference_no_onednn', 'paddle.inference_no_ir_optim', 'paddle.onnx', 'paddle.openvino',
               'paddle.onnx_openvino'),
        case="paddle-to-static-is-none-after-tensor-if.json",
        script="paddle_to_static_is_none_after_tensor_if.py",
        found="2026-11-29 (paddlepaddle 3.3.1)",
        details=("known bug: the saved paths' face of `pir_ast.is_none_after_python_if`: where the converted "
                 "program's output is the UndefinedVar (the branch that would assign it is not taken), jit.save "
                 "keeps only the program's values, so the loaded layer, the predictor and the ONNX file return one "
                 "output fewer than forward (where another output still uses every input; otherwise jit.save "
                 "refuses the unused input: `paddle_jit_save.unused_input`). Provenance: found by conformance "
                 "2026-11-29 (paddlepaddle 3.3.1), campaign seed 0, case 52cdb20fed02 (reports/issue-30)."),
        example=Failure('compare', divergences=(('structure', ''),), constructs=('none_value', 'type_differs_if'),
                        facts=('undefined_outputs',)),
    ),
    refuses_with(
        "pir_ast.branch_rank_differs",
        reason=("A pd_op.if needs each output to have one rank in both branches: a variable of another rank in one "
                "branch of an if on a tensor is refused"),
        errors=('EnforceNotMet',),
        message=r"Does not support rank inconsistency: rank1=\d+, rank2=\d+",
        constructs=('if_tensor',),
        paths=AST_PATHS,
        reference="https://www.paddlepaddle.org.cn/documentation/docs/zh/guides/jit/limitations_cn.html",
        found="2026-11-29 (paddlepaddle 3.3.1)",
        details=("AST to_static makes an if on a tensor a pd_op.if, which selects each variable the branches "
                 "assign from one output, and the dy2static limitations guide (1.2) requires a tensor to keep its "
                 "shape in both branches; a variable that is 0-d in one branch and 1-d in the other (`v = v - p` "
                 "with p of shape [1] in one branch only) is refused when the if is built ('Does not support rank "
                 "inconsistency: rank1=0, rank2=1'); eager Python runs it. Provenance: "
                 "https://www.paddlepaddle.org.cn/documentation/docs/zh/guides/jit/limitations_cn.html (1.2); "
                 "found by conformance 2026-11-29 (paddlepaddle 3.3.1), campaign seed 0 rerun, 300 s, cases "
                 "8bf0d492808e, f4e8310cee11."),
        example=Failure('convert', error_types=('EnforceNotMet', 'Exception'),
                        message="In transformed code: () Does not support rank inconsistency: rank1=0, rank2=1 "
                                "[Hint: Expected dim1.size() == dim2.size() == true]",
                        constructs=('if_tensor',)),
    ),
    known_bug(
        "pir_ast.list_repeat_dynamic_dim",
        reason=("`[t] * n` with n from a dynamic dim (`x.shape[0]`) does not convert: the count is a tensor in the "
                "static program and the repetition becomes a tensor multiply"),
        errors=('TypeError',),
        message=(r"\[[\w.]+\] \* [\w.]+\s+~+ <--- HERE[\s\S]*full\(\): argument \(position 2\) must be double, "
                 r"but got list"),
        versions=">=3.3",
        constructs=('list_repeat',),
        paths=AST_PATHS,
        case="paddle-to-static-list-repeat-dynamic-dim.json",
        script="paddle_to_static_list_repeat_dynamic_dim.py",
        found="2026-11-29 (paddlepaddle 3.3.1)",
        details=("known bug: `n = x.shape[0] * 1 + 0; steps = [t] * n` with dim 0 of x dynamic (InputSpec None): "
                 "under AST to_static x.shape[0] is a pir.Value, so `[t] * n` calls the Value's __rmul__, which "
                 "fills a constant with the list ('TypeError: (InvalidType) full(): argument (position 2) must be "
                 "double, but got list'); with the dim static, and in dygraph, it builds the list. Provenance: found "
                 "by conformance 2026-11-29 (paddlepaddle 3.3.1), campaign seed 0 (final rerun), case 5d304f386e91 "
                 "(reduced 30 -> 4 statements); cases/paddle-to-static-list-repeat-dynamic-dim.json, "
                 "cases/standalone/paddle_to_static_list_repeat_dynamic_dim.py."),
        example=Failure('convert', error_types=('TypeError',),
                        message="In transformed code: v9 = [v0] * v11\n        ~~~~~~~~~~~~~~~~ <--- HERE\n "
                                "TypeError: (InvalidType) full(): argument (position 2) must be double, but got list",
                        constructs=('dynamic_dim', 'list_repeat')),
    ),
    known_bug(
        "pir_ast.tensor_array_backward_no_kernel",
        reason=("The backward of a static program through a tensor array (array_write, array_read) fails to build on "
                "the CPU: no kernel for pd_op.create_array_like"),
        phases=('convert', 'run'),
        errors=('RuntimeError',),
        message=r"op \[pd_op\.create_array_like\] kernel output args \(\d+\) defs should equal op outputs",
        modes=frozenset({'grad', 'train'}),
        versions=">=3.3",
        paths=AST_PATHS,
        script="paddle_tensor_array_backward_no_kernel.py",
        found="2026-11-29 (paddlepaddle 3.3.1)",
        details=("known bug: `a = paddle.tensor.create_array(paddle.float32); a = array_write(tanh(x), i, a); y = "
                 "array_read(a, i)` with x needing a gradient: AST to_static (and a jit.save'd layer loaded in "
                 "train()) fails building the backward, '(PreconditionNotMet) op [pd_op.create_array_like] kernel "
                 "output args (0) defs should equal op outputs (1)' (PIR's kernel selection finds no CPU kernel for "
                 "the grad's create_array_like); dygraph computes the gradient, and in infer mode (no backward) the "
                 "program runs. The generator's Paddle tensor arrays meet it in grad and train modes, and so did a "
                 "loaded layer whose GRU (a loop over a dynamic time dim appending its steps) AST to_static turns "
                 "into a tensor array. Provenance: found by conformance 2026-11-29 (paddlepaddle 3.3.1), campaign "
                 "seed 0, 300 s, cases 6d56320c78b1, d2b6a82c3d27, 6a3a6c531aba (tensor arrays; to_static, "
                 "to_static_per_call) and 4937a78aef71 (the GRU; jit_save); "
                 "cases/standalone/paddle_tensor_array_backward_no_kernel.py (an IR case replays in infer mode "
                 "only)."),
        example=Failure('run', mode="grad", error_types=('RuntimeError',),
                        message="(PreconditionNotMet) op [pd_op.create_array_like] kernel output args (0) defs should "
                                "equal op outputs (1)",
                        constructs=('tensor_array',)),
    ),
    known_bug(
        "pir_ast.array_length_shape",
        reason=("paddle.tensor.array_length is a Python int in dygraph and a shape-[1] int64 tensor in static mode "
                "(its docs: a 0-D tensor)"),
        phases=('compare',),
        divergences=('structure',),
        versions=">=3.3",
        constructs=('tensor_array_len',),
        script="paddle_to_static_array_length_shape.py",
        found="2026-11-29 (paddlepaddle 3.3.1)",
        details=("known bug: `rows = paddle.tensor.create_array(paddle.float32)`, written in a loop, then "
                 "`n = paddle.tensor.array_length(rows)` returned: eager returns the Python int 3, AST to_static "
                 "(and jit.save, Paddle Inference, which run its program) an int64 tensor of shape [1]; the "
                 "documentation of array_length says 'Tensor: 0-D Tensor with shape []', which neither returns. "
                 "The oracle reports 'ndarray where eager returns a Python int'. Provenance: found by conformance "
                 "2026-11-29 (paddlepaddle 3.3.1) on the generator's Paddle tensor arrays; "
                 "cases/standalone/paddle_to_static_array_length_shape.py."),
        example=Failure('compare', divergences=(('structure', '[3]'),), constructs=('tensor_array_len',)),
    ),
)
