"""``paddle.jit.save`` and ``paddle.jit.load``: what a saved program refuses and gets wrong (the predictor and the
exporters read the same files).
"""

from conformance.paths.known.factories import Failure, documented, known_bug, refusal, refuses_with

RECORDS = (
    refuses_with(
        "paddle_jit_save.unused_input",
        reason="A saved program keeps only what its outputs need, so jit.save refuses an input that no output uses",
        errors=('ValueError',),
        message="is not involved in the target_vars calculation",
        versions=">=2.0",
        details=("a saved program keeps only what its outputs need: jit.save refuses an input that no output uses "
                 "(and does not say which). Provenance: paddle/static/pir_io.py (normalize_program); PaddlePaddle "
                 "docs: paddle.jit.save."),
        example=Failure('convert',
                        error_types=('ValueError', 'Exception'),
                        message=("The feed_var create by: 'pd_op.data' is not involved in the target_vars calcula"
                                 "tionPlease remove it from feed_vars ."),
                        constructs=('dict_input', 'dynamic_dim', 'kwargs', 'list_input', 'nested_input',
                                    'unused_input'),
                        ops=('mul_scalar',)),
    ),
    known_bug(
        "paddle_jit_save.duplicate_outputs",
        reason="A model that returns one tensor twice (`return [y, y]`) is saved by jit.save with that output once",
        phases=('compare',),
        divergences=('structure', 'missing_gradient'),
        versions=">=3.0",
        facts=('duplicate_outputs',),
        found="2026-11-23 (paddle 3.3.1)",
        details=("known bug: a model that returns one tensor twice (`return [y, y]`) is saved by jit.save with that "
                 "output once: the loaded layer, a predictor and the ONNX graph return one output fewer than "
                 "forward (case paddle-jit-save-duplicate-output-dropped.json); fine-tuned (grad, train modes) the "
                 "outputs do not reach eager's loss head either (no loss, no input gradient). Provenance: found by "
                 "conformance 2026-11-23 (paddle 3.3.1); train mode: campaign seed 1, 600 s, case bc254243a300."),
        example=Failure('compare',
                        divergences=(('structure', ''),),
                        constructs=('dynamic_dim',),
                        ops=('neg',),
                        facts=('duplicate_outputs',)),
    ),
    known_bug(
        "paddle_jit_save.output_is_input",
        reason=("jit.save of a model whose output is an input plus a constant writes a program that returns the "
                "input unchanged"),
        phases=('compare',),
        divergences=('value',),
        versions=">=3.0",
        facts=('output_is_input',),
        found="2026-11-21 (paddle 3.3.1)",
        details=("known bug: jit.save of a model whose output is an input plus a constant (`x + 1.0`, `x - 0.5`) "
                 "writes a program that returns the input unchanged (the loaded program's shadow_output is the "
                 "pd_op.data value): the addition is lost, a silent wrong result; to_static before saving is right "
                 "(case paddle-jit-save-input-plus-constant-lost.json). Provenance: found by conformance 2026-11-21 "
                 "(paddle 3.3.1)."),
        example=Failure('compare',
                        divergences=(('value', ''),),
                        constructs=('dynamic_dim',),
                        ops=('add_scalar',),
                        facts=('output_is_input',)),
    ),
    refuses_with(
        "paddle_jit_save.loaded_tensors_only",
        reason=("A layer loaded with paddle.jit.load takes the saved program's tensor inputs only, so a None passed "
                "positionally is refused"),
        phases=('run',),
        errors=('TypeError',),
        message=(r"The type of input in \w*TranslatedLayer must be numpy array or Variable\(Tensor\), but received "
                 "<class 'NoneType'>"),
        reference="https://www.paddlepaddle.org.cn/documentation/docs/en/api/paddle/jit/load_en.html",
        details=("a layer loaded with paddle.jit.load takes the saved program's tensor inputs only: a None passed "
                 "positionally (an optional input left out when saving) is refused at the call ('must be numpy "
                 "array or Variable(Tensor)'). Provenance: "
                 "https://www.paddlepaddle.org.cn/documentation/docs/en/api/paddle/jit/load_en.html."),
        example=Failure('run',
                        error_types=('TypeError',),
                        message=("The type of input in TranslatedLayer must be numpy array or Variable(Tensor), b"
                                 "ut received <class 'NoneType'>")),
    ),
    known_bug(
        "paddle_jit_save.rnn_to_device",
        reason=("Layer.to(device=...) of a model holding an nn.GRU (or another RNN) raises: it copies the RNN's "
                "never-allocated dropout state"),
        errors=('RuntimeError',),
        message="Tensor's dimension is out of bound(?s:.*)memory's size is 0",
        versions=">=3.3",
        found="2026-11-23 (paddle 3.3.1)",
        details=("known bug: Layer.to(device=...) of a model holding an nn.GRU (or another RNN) raises: it copies "
                 "the RNN's never-allocated dropout-state buffer ('Tensor's dimension is out of bound ... memory's "
                 "size is 0'); jit_save_methods moves the fresh instance it builds, so it fails on such models. "
                 "Provenance: found by conformance 2026-11-23 (paddle 3.3.1); standalone: `paddle.nn.GRU(4, "
                 "6).to(device=paddle.CPUPlace())` raises (no case file: the replay of a hand-written case moves "
                 "the eager model too)."),
        example=Failure('convert',
                        error_types=('RuntimeError',),
                        message="Tensor's dimension is out of boundmemory's size is 0"),
    ),
    known_bug(
        "paddle_jit_save.saved_for_inference",
        reason=("jit.save of a layer in train() writes its batch norm and dropout for inference (is_test=true), so "
                "the saved model computes another function"),
        phases=('compare',),
        divergences=('value', 'nonfinite'),
        modes=frozenset({'infer'}),
        versions=">=3.0",
        facts=('saved_for_inference',),
        case="paddle-jit-save-train-batch-norm-for-inference.json",
        found="2026-11-28 (paddlepaddle 3.3.1)",
        details=("known bug: jit.save of a layer in train() writes its batch norm and dropout for inference "
                 "(is_test=true: batch norm on the running statistics, dropout off), so the loaded layer, a "
                 "predictor and the ONNX graph compute another function than the layer in train() (the inference "
                 "face of the loaded layer's LoadedForInference refusal). Provenance: "
                 "paddle/jit/pir_translated_layer.py; found by conformance 2026-11-28 (paddlepaddle 3.3.1), "
                 "campaign seed 0, cases 09ed1a2c7ee1, 12cf167135c9; "
                 "cases/paddle-jit-save-train-batch-norm-for-inference.json."),
        example=Failure('compare', divergences=(('value', '[0]'),), facts=('saved_for_inference',)),
    ),
    known_bug(
        "paddle_jit_save.expand_bool_input_spec",
        reason=("jit.save builds the program with stop_gradient False also for a bool input, which static "
                "paddle.expand (or tile) then refuses"),
        errors=('ValueError',),
        message="When the data type of input 'x' for expand is bool, you must set its stop_gradient",
        versions=">=3.0",
        case="paddle-jit-save-expand-bool-input-spec.json",
        script="paddle_expand_bool_input_spec.py",
        found="2026-11-28 (paddle 3.3.1)",
        details=("known bug: jit.save builds the program with the InputSpec's stop_gradient (False by default) also "
                 "for a bool input, and static paddle.expand (or tile) then refuses it ('When the data type of "
                 "input 'x' for expand is bool, you must set its stop_gradient ...'); to_static called on tensors "
                 "runs it, as does InputSpec(..., stop_gradient=True). Provenance: found by conformance 2026-11-28 "
                 "(paddle 3.3.1), deployment campaign seed 0, cases aca1b4271a2c, c91e97fae24a; 2026-11-29, campaign "
                 "seed 0, 300 s, case f2343ae19b76; cases/paddle-jit-save-expand-bool-input-spec.json, "
                 "cases/standalone/paddle_expand_bool_input_spec.py; cf. `pir_ast.tile_bool_needs_stop_gradient`."),
        example=Failure('convert',
                        error_types=('ValueError',),
                        message="When the data type of input 'x' for expand is bool, you must set its stop_gradient"),
    ),
    known_bug(
        "paddle_jit_save.loaded_while_backward",
        reason=("The backward of a loaded layer (jit.load, train()) through a while loop on a tensor condition "
                "fails to build"),
        phases=('run',),
        errors=('TypeError',),
        message=r"cf_yield\(\): incompatible function arguments",
        modes=frozenset({'grad', 'train'}),
        versions=">=3.0",
        paths=('paddle.jit_save',),
        found="2026-11-21 (paddle 3.3.1)",
        details=("known bug: the backward of a loaded layer (jit.load, train()) through a while loop on a tensor "
                 "condition fails to build: ir_backward passes a None gradient to cf_yield(), e.g. `while i < 1 and "
                 "y.sum() > -1.5: i += 1; z = y + x; y = -y` (to_static fails on the same loop with 'The variable "
                 "middle_0 should exist'). Provenance: found by conformance 2026-11-21 (paddle 3.3.1), grad mode."),
        example=Failure('run',
                        mode="grad",
                        error_types=('TypeError', 'Exception'),
                        message=("cf_yield(): incompatible function arguments. The following argument types are s"
                                 "upported:\n    1. (arg0: list) -> None\n\nInvoked with: [Value(define_op_name=c"
                                 "f.has_elements, index=0, dtype=tensor<1xb>, stop_gradient=True), None, Value(de"
                                 "fine_op_name=pd_op.full_like, index=0, dtype=tensor<2x3xf32>, stop_gradient=Tru"
                                 "e), Value(define_op_name=pd_op.add_n, index=0, dtype=tensor<2x3xf32>, stop_grad"
                                 "ient=False)]"),
                        constructs=('while_tensor',),
                        ops=('add', 'neg')),
    ),
    known_bug(
        "paddle_jit_save.loaded_trains_as_inference",
        reason="A layer loaded with paddle.jit.load and put in train() runs the saved inference program",
        errors=('LoadedForInference',),
        versions=">=3.0",
        paths=('paddle.jit_save',),
        found="2026-11-21 (paddle 3.3.1)",
        details=("known bug: a layer loaded with paddle.jit.load and put in train() runs the saved inference "
                 "program: batch norm on its running statistics (is_test=true) and dropout off, though the model "
                 "was saved in train() and the TranslatedLayer docs say it trains like a Layer; the legacy "
                 "TranslatedLayer switched is_test off for training (_change_is_test_status), paddle 3's PIR one "
                 "does not. The path refuses rather than compare. Provenance: paddle/jit/pir_translated_layer.py; "
                 "found by conformance 2026-11-21 (paddle 3.3.1), grad and train modes."),
        example=Failure('convert',
                        mode="train",
                        error_types=('LoadedForInference', 'RuntimeError', 'Exception'),
                        message=("the layer loaded in train() runs pd_op.batch_norm_, pd_op.dropout with is_test="
                                 "true: jit.save wrote them for inference although the model was saved in train()"),
                        constructs=('train_layer', 'train_mode'),
                        ops=('batch_norm', 'dropout', 'linear'),
                        facts=('saved_for_inference',)),
    ),
    refusal(
        "paddle_jit_save.unused_statistics",
        reason=("A saved program keeps only what its outputs need, so a batch norm no output uses is dropped with "
                "its running-statistics update"),
        errors=('UnsavedBufferUpdates',),
        versions=">=2.0",
        paths=('paddle.jit_save',),
        details=("a saved program keeps only what its outputs need: a batch norm whose output no output uses is "
                 "dropped, and with it the update of its running statistics, which a loaded layer in train() then "
                 "never makes. Provenance: paddle/static/pir_io.py (normalize_program); PaddlePaddle docs: "
                 "paddle.jit.save."),
        example=Failure('convert', error_types=('UnsavedBufferUpdates',)),
    ),
    known_bug(
        "paddle_jit_save.loaded_integer_gradient",
        reason=("The backward of a loaded layer in train() accumulates gradients for an integer or bool tensor used "
                "twice, and fails"),
        phases=('run',),
        errors=('TypeError',),
        message=r"Check data type error for op: add_n, input: inputs, inputs\.dtype: (bool|u?int8|int16)\b",
        modes=frozenset({'grad', 'train'}),
        versions=">=3.0",
        paths=('paddle.jit_save',),
        script="paddle_loaded_integer_gradient.py",
        found="2026-11-28 (paddlepaddle 3.3.1)",
        details=("known bug: the backward of a loaded layer (jit.load, train()) accumulates gradients for an "
                 "integer or bool tensor used twice (`y = paddle.stack([k, k], 0)` of an int8 input), and fails to "
                 "build: 'Check data type error for op: add_n, input: inputs, inputs.dtype: uint8'; dygraph and "
                 "to_static train it (no gradient flows through integers). Provenance: found by conformance "
                 "2026-11-28 (paddlepaddle 3.3.1), campaign seed 0, case e68d7a534b50; "
                 "cases/standalone/paddle_loaded_integer_gradient.py (the corpus replays inference only)."),
        example=Failure('run',
                        mode="grad",
                        error_types=('TypeError',),
                        message="Check data type error for op: add_n, input: inputs, inputs.dtype: bool"),
    ),
    known_bug(
        "paddle_jit_save.loaded_einsum_gradient",
        reason=("The backward of a loaded layer in train() fails on any paddle.einsum ('VectorType grad be fulled with "
                "zeros')"),
        phases=('run',),
        errors=('ValueError',),
        message="where VectorType grad be fulled with zeros should not occur",
        ops=('einsum',),
        modes=frozenset({'grad', 'train'}),
        versions=">=3.3",
        paths=('paddle.jit_save',),
        script="paddle_loaded_einsum_gradient.py",
        found="2026-11-29 (paddlepaddle 3.3.1)",
        details=("known bug: the backward of a layer loaded by jit.load, in train(), fails to run on any "
                 "paddle.einsum (`paddle.einsum('ij,ij->j', x, y)`, two float32 [2, 3] inputs): 'This kind of "
                 "scene, where VectorType grad be fulled with zeros should not occur.' (einsum's operands are a "
                 "vector of tensors); dygraph and to_static differentiate the same layer. Provenance: found by "
                 "conformance 2026-11-29 (paddlepaddle 3.3.1), the README's campaign (seed 0, case d3592c4345a7, "
                 "reduced by conformance triage to one einsum); cases/standalone/paddle_loaded_einsum_gradient.py "
                 "(the corpus replays inference only)."),
        example=Failure('run',
                        mode="grad",
                        error_types=('ValueError',),
                        message="This kind of scene, where VectorType grad be fulled with zeros should not occur.",
                        ops=('einsum',)),
    ),
    known_bug(
        "paddle_jit_save.saved_program_state",
        reason=("A saved Paddle program (jit.save, the Inference predictor, paddle2onnx) does not update the "
                "buffers forward assigns"),
        phases=('compare',),
        versions=">=3.0",
        constructs=('state_counter', 'state_running', 'state_cache'),
        paths=('paddle.jit_save', 'paddle.jit_save_methods', 'paddle.jit_save_function', 'paddle.inference',
               'paddle.inference_no_onednn', 'paddle.onnx', 'paddle.inference_no_ir_optim'),
        found="2026-11-23 (torch 2.13.0, paddlepaddle 3.3.1, tensorflow 2.21.0)",
        details=("known issue: a saved Paddle program (jit.save, the Inference predictor, paddle2onnx) does not "
                 "update the buffers forward assigns: every call computes with the state that was saved. "
                 "Provenance: found by conformance 2026-11-23 (torch 2.13.0, paddlepaddle 3.3.1, tensorflow 2.21.0)."),
        example=Failure('compare', divergences=(('value', '[0]'),), constructs=('state_counter',)),
    ),
    refuses_with(
        "paddle_jit_save.function_parameters",
        reason=("jit.save of a function saves its program, not the parameters it reads (documented: save the Layer "
                "instead)"),
        errors=('UnboundLocalError',),
        message="'state_var_dict'",
        versions=">=3.0",
        paths=('paddle.jit_save_function',),
        reference="https://www.paddlepaddle.org.cn/documentation/docs/en/api/paddle/jit/save_en.html",
        found="2026-11-21 (paddle 3.3.1)",
        details=("jit.save of a function saves its program, not the parameters it reads (documented: save the Layer "
                 "instead); with parameters, paddle 3 (PIR) fails with an UnboundLocalError on `state_var_dict` "
                 "instead. Provenance: "
                 "https://www.paddlepaddle.org.cn/documentation/docs/en/api/paddle/jit/save_en.html (Note); "
                 "paddle/jit/api.py save(); found by conformance 2026-11-21 (paddle 3.3.1)."),
        example=Failure('convert',
                        error_types=('UnboundLocalError', 'NameError', 'Exception'),
                        message="cannot access local variable 'state_var_dict' where it is not associated with a value",
                        constructs=('dict_input', 'dynamic_dim', 'for_kwarg', 'if_kwarg', 'if_tensor', 'kwargs',
                                    'list_input', 'nested_input'),
                        ops=('add', 'linear', 'mul', 'mul_scalar', 'neg', 'relu', 'tanh')),
    ),
    documented(
        "paddle_jit_save.python_outputs",
        reason=("A saved program returns tensors only: a Python number forward returns (`x.shape[1] * 2 + 1`) is left "
                "out, so the loaded model returns fewer outputs"),
        divergences=('structure', 'missing_gradient', 'value'),
        where=r"^$|^\['outputs'\]$|^\['(input_grads|param_grads|sgd|adam)'\]",
        versions=">=3.0",
        facts=('python_outputs',),
        reference="https://www.paddlepaddle.org.cn/documentation/docs/en/api/paddle/jit/save_en.html",
        found="2026-11-29 (paddlepaddle 3.3.1)",
        details=("documented behaviour: jit.save keeps 'all return variables of original Layer's forward method' as "
                 "the saved model's outputs, and a Python number that forward computes from static shapes "
                 "(`n = x.shape[1] * 2 + 1; return n, y`) is no variable of the program but a constant of the "
                 "trace (concrete_program.outputs holds the int): jit.save's _get_output_vars keeps only the "
                 "pir.Values, and the loaded layer, the predictor and the ONNX file return the tensors alone (3 "
                 "outputs where forward returns 4; fine-tuned, they do not reach eager's loss head: no loss, no "
                 "input gradient, or, where the top-level counts happen to agree, a loss of some of them only, so "
                 "the gradients and the training losses differ from eager's: not judged, the outputs themselves "
                 "still are). to_static itself returns the number. A number from the data "
                 "(`.item()`) is a value of the program and is saved. Provenance: "
                 "https://www.paddlepaddle.org.cn/documentation/docs/en/api/paddle/jit/save_en.html (configs "
                 "output_spec); paddle/jit/api.py _get_output_vars; found by conformance 2026-11-29 (paddlepaddle "
                 "3.3.1), campaign seed 0, 300 s, case 14cf54a9a561; the partial loss: case 646f375a9e9f."),
        example=Failure('compare', divergences=(('structure', ''),), facts=('python_outputs',)),
    ),
    known_bug(
        "paddle_jit_save.bool_input_gradient",
        reason=("jit.save builds the program with stop_gradient False also for a bool or integer input, so a loaded "
                "layer in train() builds a gradient op it has no kernel for"),
        phases=('run',),
        errors=('TypeError', 'RuntimeError'),
        message=(r"Check data type error for op: \w+_grad, input: x, x\.dtype: bool\b|op \[pd_op\.strided_slice_grad\] "
                 r"kernel output args \(0\) defs should equal op outputs"),
        modes=frozenset({'grad', 'train'}),
        versions=">=3.3",
        script="paddle_jit_save_bool_input_roll_grad.py",
        found="2026-11-29 (paddlepaddle 3.3.1)",
        details=("known bug: `forward(m, x): return paddle.roll(m, 1, 0), tanh(x)` with m a bool input: jit.save "
                 "builds the program with the InputSpec's stop_gradient (False by default) also for the bool, and "
                 "the loaded layer in train() builds roll_grad for it ('TypeError: (InvalidType) Check data type "
                 "error for op: roll_grad, input: x, x.dtype: bool'); InputSpec(..., stop_gradient=True) trains, "
                 "as does dygraph. An integer input the same: `m[:, :, 1::3]` of a uint8 input builds "
                 "strided_slice_grad of uint8, which has no CPU kernel ('(PreconditionNotMet) op "
                 "[pd_op.strided_slice_grad] kernel output args (0) defs should equal op outputs (1)'). The same "
                 "root as `paddle_jit_save.expand_bool_input_spec`. Provenance: found by conformance 2026-11-29 "
                 "(paddlepaddle 3.3.1), campaign seed 0 (final rerun), cases 2bb93dc45d86, 330dedeb5b08; the "
                 "uint8 face: campaign seed 0, 300 s, cases a846d718b71c, 02fecd90a6d3, d84d878db4bc, 373c6e0ca53e; "
                 "cases/standalone/paddle_jit_save_bool_input_roll_grad.py, "
                 "cases/standalone/paddle_jit_save_int_input_strided_slice_grad.py (grad and train modes only: no "
                 "IR case)."),
        example=Failure('run', mode="train", error_types=('TypeError',),
                        message="(InvalidType) Check data type error for op: roll_grad, input: x, x.dtype: bool, and "
                                "expected_dtype: complex128, complex64, float32, float64, int32, int64",
                        ops=('lt', 'roll', 'tanh')),
    ),
)
