"""XLA (``tf.function(jit_compile=True)``): what it refuses and gets wrong.
"""

from conformance.paths.known.factories import Failure, known_bug, missing_kernel, refuses_with

RECORDS = (
    refuses_with(
        "xla.loop_shapes",
        reason="XLA compiles a while loop only when its loop variables keep their shapes",
        phases=('convert', 'run'),
        errors=('InvalidArgumentError',),
        message="Input and output shapes of loop body do not match",
        reference="https://www.tensorflow.org/xla/known_issues",
        details=("XLA compiles a while loop only when its loop variables keep their shapes: a tensor grown across "
                 "iterations (a shape invariant in tf.function) is refused. Provenance: "
                 "https://www.tensorflow.org/xla/known_issues."),
        example=Failure('convert',
                        error_types=('InvalidArgumentError', 'OpError', 'Exception'),
                        message=("Input and output shapes of loop body do not match: (s32[], s32[], f32[3,2], s32"
                                 "[], f32[3,2]) vs. (s32[], s32[], f32[3,4], s32[], f32[3,2])\n\nStack trace for "
                                 "op definition: \nFile \"<frozen runpy>\", line 198, in _run_module_as_main\nFil"
                                 "e \"<frozen runpy>\", line 88, in _run_code\nFile \"/work/main/.venv/lib/python"
                                 "3.11/site-packages/pytest/__main__.py\", line 9, in <module>\nFile \"/work/main"
                                 "/.venv/lib/python3.11/site-packages/_pytest/config/__init__.py\", line 286, in "
                                 "_console_main\nFile \"/work/main/.venv/lib/python3.11/site-packages/_pytest/con"
                                 "fig/__init__.py\", line 262, in _main\nFile \"/work/main/.venv/lib/python3.11/s"
                                 "ite-packages/pluggy/_caller.py\", line 197, in __call__\nFile \"/work/main/.ven"
                                 "v/lib/python3.11/site-packages/pluggy/_manager.py\", line 183, in _hookexec\nFi"
                                 "le \"/work/main/.venv/lib/python3.11/site-packages/pluggy/_execution.py\", line"
                                 " 147, in _multicall\nFile \"/work/main/.venv/lib/python3.11/site-packages/_pyte"
                                 "st/main.py\", line 380, in pytest_cmdline_main\nFile \"/work/main/.venv/lib/pyt"
                                 "hon3.11/site-packages/_pytest/main.py\", line 333, in wrap_session\nFile \"/wor"
                                 "k/main/.venv/lib/python3.11/site-packages/_pytest/main.py\", line 387, in _main"
                                 "\nFile \"/work/main/.venv/lib/python3.11/site-packages/pluggy/_caller.py\", lin"
                                 "e 197, in __call__\nFile \"/work/main/.venv/lib/python3.11/site-packages/pluggy"
                                 "/_manager.py\", line 183, in _hookexec\nFile \"/work/main/.venv/lib/python3.11/"
                                 "site-packages/pluggy/_execution.py\", line 147, in _multicall\nFile \"/work/mai"
                                 "n/.venv/lib/python3.11/site-packages/_pytest/main.py\", line 411, in pytest_run"
                                 "testloop\nFile \"/work/main/.venv/lib/python3.11/site-packages/pluggy/_caller.p"
                                 "y\", line 197, in __call__\nFile \"/work/main/.venv/lib/python3.11/site-package"
                                 "s/pluggy/_manager.py\", line 183, in _hookexec\nFile \"/work/main/.venv/lib/pyt"
                                 "hon3.11/site-packages/pluggy/_execution.py\", line 147, in _multicall\nFile \"/"
                                 "work/main/.venv/lib/python3.11/site-packages/pytest_rerunfailures.py\", line 59"
                                 "3, in pytest_runtest_protocol\nFile \"/work/main/.venv/lib/python3.11/site-pack"
                                 "ages/_pytest/runner.py\", line 139, in runtestprotocol\nFile \"/work/main/.venv"
                                 "/lib/python3.11/site-packages/_pytest/runner.py\", line 249, in call_and_report"
                                 "\nFile \"/work/main/.venv/lib/python3.11/site-packages/_pytest/runner.py\", lin"
                                 "e 361, in from_call\nFile \"/work/main/.venv/lib/python3.11/site-packages/_pyte"
                                 "st/runner.py\", line 250, in <lambda>\nFile \"/work/main/.venv/lib/python3.11/s"
                                 "ite-packages/pluggy/_caller.py\", line 197, in __call__\nFile \"/work/main/.ven"
                                 "v/lib/python3.11/site-packages/pluggy/_manager.py\", line 183, in _hookexec\nFi"
                                 "le \"/work/main/.venv/lib/python3.11/site-packages/pluggy/_execution.py\", line"
                                 " 147, in _multicall\nFile \"/work/main/.venv/lib/python3.11/site-packages/_pyte"
                                 "st/runner.py\", line 184, in pytest_runtest_call\nFile \"/work/main/.venv/lib/p"
                                 "ython3.11/site-packages/_pytest/python.py\", line 1798, in runtest\nFile \"/wor"
                                 "k/main/.venv/lib/python3.11/site-packages/pluggy/_caller.py\", line 197, in __c"
                                 "all__\nFile \"/work/main/.venv/lib/python3.11/site-packages/pluggy/_manager.py"
                                 "\", line 183, in _hookexec\nFile \"/work/main/.venv/lib/python3.11/site-package"
                                 "s/pluggy/_execution.py\", line 147, in _multicall\nFile \"/work/main/.venv/lib/"
                                 "python3.11/site-packages/_pytest/python.py\", line 187, in pytest_pyfunc_call\n"
                                 "File \"/tmp/head31/tests/test_paths_tf.py\", line 216, in test_a_loop_variable_"
                                 "that_grows_converts_except_under_xla\nFile \"/tmp/head31/conformance/run/runner"
                                 ".py\", line 473, in check\nFile \"/tmp/head31/conformance/run/runner.py\", line"
                                 " 454, in run_case\nFile \"/tmp/head31/conformance/run/runner.py\", line 200, in"
                                 " run_path\nFile \"/tmp/head31/conformance/paths/tf/conversions.py\", line 149, "
                                 "in trace\nFile \"/tmp/head31/conformance/paths/tf/conversions.py\", line 136, i"
                                 "n __call__\nFile \"/tmp/conformance-0/tf/7be2738f1fdc/model.py\", line 33, in _"
                                 "_call__\n\n\t [[{{node while}}]]\n\ttf2xla conversion failed while converting _"
                                 "_inference_function_5333[_XlaMustCompile=true,config_proto=1336577835357858124,"
                                 "executor_type=11160318154034397263]. Run with TF_DUMP_GRAPH_PREFIX=/path/to/dum"
                                 "p/dir and --vmodule=xla_compiler=2 to obtain a dump of the compiled functions. "
                                 "[Op:__inference_function_5333]"),
                        constructs=('dynamic_dim', 'grow_loop', 'grow_while', 'while_tensor')),
    ),
    missing_kernel(
        "xla.no_kernel",
        reason="XLA has no kernel for some TensorFlow ops on the device (ResizeBicubic on XLA_CPU_JIT)",
        phases=('convert', 'run'),
        errors=('InvalidArgumentError',),
        message=r"Detected unsupported operations when trying to compile graph .* on XLA_\w+_JIT",
        reference="https://www.tensorflow.org/xla/known_issues",
        details=("XLA has no kernel for some TensorFlow ops on the device (ResizeBicubic on XLA_CPU_JIT): "
                 "jit_compile refuses a function that uses one. Provenance: "
                 "https://www.tensorflow.org/xla/known_issues."),
        example=Failure('convert',
                        error_types=('InvalidArgumentError',),
                        message="Detected unsupported operations when trying to compile graph  on XLA_a_JIT"),
    ),
    refuses_with(
        "xla.while_gradient",
        reason=("XLA differentiates a while loop only with maximum_iterations set, which AutoGraph's while on a "
                "tensor condition lacks"),
        phases=('run',),
        errors=('InvalidArgumentError',),
        message="XLA compilation requires a fixed tensor list size",
        modes=frozenset({'grad', 'train'}),
        versions=">=2.0",
        reference="https://www.tensorflow.org/api_docs/python/tf/while_loop",
        details=("XLA differentiates a while loop only with maximum_iterations set; AutoGraph's `while` on a tensor "
                 "condition has none (TensorFlow's documented requirement, named in the error). Provenance: "
                 "https://www.tensorflow.org/api_docs/python/tf/while_loop."),
        example=Failure('run',
                        mode="grad",
                        error_types=('InvalidArgumentError',),
                        message="XLA compilation requires a fixed tensor list size"),
    ),
    known_bug(
        "xla.cond_log_softmax_gradient",
        reason=("XLA fails to differentiate an early return in a tf.cond followed by tf.nn.log_softmax ('0 is "
                "duplicated in the input')"),
        phases=('run',),
        errors=('InvalidArgumentError',),
        message=r"\d+ is duplicated in the input",
        modes=frozenset({'grad', 'train'}),
        versions=">=2.0",
        found="2026-11-21 (tensorflow 2.21.0)",
        details=("known bug: XLA fails to differentiate `if tf.reduce_sum(x) > 0: return x` followed by `return "
                 "tf.nn.log_softmax(x, axis=0)` ('0 is duplicated in the input'; axis=-1 works). Provenance: found "
                 "by conformance 2026-11-21 (tensorflow 2.21.0), grad mode."),
        example=Failure('run',
                        mode="grad",
                        error_types=('InvalidArgumentError',),
                        message="1 is duplicated in the input"),
    ),
    known_bug(
        "xla.cond_gradient_graph",
        reason=("Differentiating a tf.cond with an early return under jit_compile trips an internal assertion of "
                "cond_v2's gradient"),
        phases=('run',),
        errors=('AssertionError',),
        message=r"\A\Z",
        modes=frozenset({'grad', 'train'}),
        versions=">=2.0",
        found="2026-11-21 (tensorflow 2.21.0)",
        details=("known bug: differentiating a tf.cond with an early return under jit_compile trips an internal "
                 "assertion of cond_v2's gradient (`assert t.graph == cond_graph` in _resolve_grad_inputs), a bare "
                 "AssertionError. Provenance: found by conformance 2026-11-21 (tensorflow 2.21.0), grad mode."),
        example=Failure('run', mode="grad", error_types=('AssertionError',), message=""),
    ),
    known_bug(
        "xla.cond_shape_gradient",
        reason="Differentiating a jit_compile function with a dynamic batch and an `if` on a tensor fails under XLA",
        phases=('run',),
        errors=('InvalidArgumentError',),
        message=r"Incompatible shapes: \[0(,\d+)*\] vs\. \[\d+(,\d+)*\]",
        modes=frozenset({'grad', 'train'}),
        versions=">=2.21",
        constructs=('dynamic_dim',),
        script="tf_xla_cond_shape_gradient.py",
        found="2026-11-28 (tensorflow 2.21.0)",
        details=("known bug: differentiating (a tape around the call) a jit_compile function with a dynamic batch "
                 "and an `if` on a tensor (its value or its size) fails where the branch not taken holds a tensor "
                 "op (tanh, batch_norm, a pooling...): XLA compiles that branch's gradient for a zero-size tensor "
                 "('Incompatible shapes: [0] vs. [5]', '[0,1] vs. [2,1]'); with static shapes, or without "
                 "jit_compile, it is right. Provenance: found by conformance 2026-11-28 (tensorflow 2.21.0); "
                 "cases/standalone/tf_xla_cond_shape_gradient.py."),
        example=Failure('run',
                        mode="grad",
                        error_types=('InvalidArgumentError',),
                        message="Incompatible shapes: [0] vs. [1]",
                        constructs=('dynamic_dim',)),
    ),
    refuses_with(
        "xla.tensor_list_boundary",
        reason=("XLA cannot pass a TensorList (a TensorArray) between compiled and TensorFlow code ('TensorArray "
                "TF/XLA interconversion is not supported')"),
        phases=('run',),
        errors=('UnimplementedError',),
        message="Support for TensorList crossing the XLA/TF boundary is not implemented",
        modes=frozenset({'grad', 'train'}),
        versions=">=2.0",
        reference="https://www.tensorflow.org/xla/known_issues",
        details=("XLA cannot pass a TensorList (a TensorArray) between compiled and TensorFlow code ('TensorArray "
                 "TF/XLA interconversion is not supported'): differentiating a jit_compile function whose forward "
                 "keeps one for the backward (a while loop on a tensor, a scan) is refused. Provenance: "
                 "https://www.tensorflow.org/xla/known_issues."),
        example=Failure('run',
                        mode="grad",
                        error_types=('UnimplementedError',),
                        message="Support for TensorList crossing the XLA/TF boundary is not implemented"),
    ),
    known_bug(
        "xla.resource_retval",
        reason=("A training step through a jit_compile function traced per call fails with 'Resource _Retval node's "
                "input does not ...' (not minimised)"),
        phases=('run',),
        errors=('UnimplementedError',),
        message="Resource _Retval node's input",
        modes=frozenset({'grad', 'train'}),
        versions=">=2.21",
        found="2026-11-23 (tensorflow 2.21.0)",
        details=("known bug, not minimised: a training step through a jit_compile function traced per call (no "
                 "input_signature) fails with 'Resource _Retval node's input does not ...' (seen on tf.xla_per_call "
                 "in train mode, CI's derandomised training property). Provenance: found by conformance 2026-11-23 "
                 "(tensorflow 2.21.0)."),
        example=Failure('run',
                        mode="grad",
                        error_types=('UnimplementedError',),
                        message="Resource _Retval node's input"),
    ),
    known_bug(
        "xla.tensorarray_dynamic_size_writes_ignored",
        reason=("XLA ignores every write to a tf.TensorArray(dynamic_size=True) grown in a loop whose trip count "
                "comes from the data: its stack is NaN"),
        phases=('compare',),
        divergences=('nonfinite', 'value', 'shape'),
        versions=">=2.21",
        constructs=('list_value',),
        paths=('tf.xla', 'tf.xla_per_call'),
        case="tf-xla-mismatch-8ab51ca3a7.json",
        script="tf_xla_tensorarray_dynamic_size.py",
        found="2026-11-29 (tensorflow 2.21.0)",
        details=("known bug: a list appended to in a loop whose trip count comes from the data (`for i in "
                 "range(n)` with n from a tensor, or `for r in x` over a tensor's rows), which TensorFlow users "
                 "write as tf.TensorArray(tf.float32, size=0, dynamic_size=True), is stacked by eager and "
                 "tf.function; under jit_compile=True every write is ignored (a 'TensorListSetItem: ignoring set "
                 "item' log line only), the size is 0 and the stack's mean NaN: a silent wrong result. Provenance: "
                 "found by conformance 2026-11-29 (tensorflow 2.21.0), xla campaign seed 1 (cases 0c0f5df32284, "
                 "9451e5af4f62, f722fd73618f); cases/tf-xla-mismatch-8ab51ca3a7.json, "
                 "cases/standalone/tf_xla_tensorarray_dynamic_size.py."),
        example=Failure('compare', divergences=(('nonfinite', '[0]'),), constructs=('for_rows', 'list_value')),
    ),
    refuses_with(
        "xla.compile_time_constant",
        reason=("XLA needs an op's shape arguments (a range's limit, a loop's trip count) to be compile-time "
                "constants: one computed from the data is refused"),
        phases=('convert', 'run'),
        errors=('InvalidArgumentError',),
        message=r"Input \d+ to node `[^`]*` with op \w+ must be a compile-time constant",
        reference="https://www.tensorflow.org/xla/known_issues",
        found="2026-11-29 (tensorflow 2.21.0)",
        details=("XLA compilation requires that operator arguments that represent shapes or dimensions be known at "
                 "compile time: `for i in range(n)` with n from a tensor (AutoGraph writes tf.range, 'Input 1 to "
                 "node `range` with op Range must be a compile-time constant'; `while/range` inside a loop) is "
                 "refused under jit_compile, where tf.function runs it. Provenance: XLA's known issues ('\"Must-be-"
                 "constant\" inputs ...'), https://www.tensorflow.org/xla/known_issues; seen in the tf campaign "
                 "seed 0 (cases 2817addb1a8b, 68dd1eabb493)."),
        example=Failure('convert',
                        error_types=('InvalidArgumentError',),
                        message=("Input 1 to node `while/range` with op Range must be a compile-time constant.\n\n"
                                 "XLA compilation requires that operator arguments that represent shapes or "
                                 "dimensions be evaluated to concrete values at compile time.")),
    ),
    refuses_with(
        "xla.branch_shape_differs",
        reason=("XLA compiles a tf.cond only when its branches return tensors of one shape: branches returning "
                "different ranks are refused"),
        phases=('convert', 'run'),
        errors=('InvalidArgumentError',),
        message=r"left_branch_shape\.dimensions_size\(\) != right_branch_shape\.dimensions_size\(\)",
        reference="https://openxla.org/xla/operation_semantics#conditional",
        found="2026-11-29 (tensorflow 2.21.0)",
        details=("XLA's Conditional gives both branch computations one result type S: an `if` on a tensor whose "
                 "branches return (or leave a variable with) different ranks, which tf.function accepts as an unknown "
                 "shape, is refused under jit_compile ('left_branch_shape.dimensions_size() != right_branch_shape."
                 "dimensions_size() (0 vs 1)'). Provenance: XLA operation semantics, Conditional, "
                 "https://openxla.org/xla/operation_semantics#conditional; seen in the tf campaign seed 0 (case "
                 "0450c4ee8f64)."),
        example=Failure('convert',
                        error_types=('InvalidArgumentError',),
                        message=("left_branch_shape.dimensions_size() != right_branch_shape.dimensions_size() (0 vs "
                                 "1)\n\t [[{{node cond}}]]")),
    ),
)
