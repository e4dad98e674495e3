"""The TF1 graph path (``tf.compat.v1.Session``): what it cannot express and gets wrong.
"""

from conformance.paths.known.factories import Failure, known_bug, refusal, refuses_with

RECORDS = (
    refusal(
        "tf1_graph.no_graph_builder",
        reason=("tf.session runs the model's TF1 graph, which the model's module builds in build_graph(model, "
                "*inputs, **kwargs)"),
        errors=('NoGraphBuilder',),
        details=("tf.session runs the model's TF1 graph, which the model's module builds in build_graph(model, "
                 "*inputs, **kwargs): generated models have one, a model of your own needs one written beside it."),
        example=Failure('convert', error_types=('NoGraphBuilder',)),
    ),
    refusal(
        "tf1_graph.graph_return_in_loop",
        reason="The TF1 graph conformance writes does not express a return inside a loop that runs as a tf.while_loop",
        errors=('GraphNotExpressed',),
        details=("the TF1 graph conformance writes does not express a return inside a loop that runs as a "
                 "tf.while_loop (a while on a tensor, or a for with a break, continue or return under a tensor "
                 "condition); AutoGraph does, with flags and an undefined return value."),
        example=Failure('convert',
                        error_types=('GraphNotExpressed', 'NotImplementedError', 'RuntimeError', 'Exception'),
                        message=("build_graph: a return inside a loop that runs as a tf.while_loop (a while on a "
                                 "tensor, or a for with a break, continue or return under a tensor condition) is "
                                 "not expressed in this TF1 graph"),
                        constructs=('dynamic_dim', 'early_return', 'if_tensor', 'while_tensor'),
                        ops=('tanh',)),
    ),
    known_bug(
        "tf1_graph.tf1_cond_x_plus_x",
        reason=("In a TF1 graph, grappler's arithmetic optimizer breaks a tf.cond branch that adds a tensor from "
                "outside the branch to itself"),
        phases=('run',),
        errors=('InvalidArgumentError',),
        message=r"Retval\[\d+\] does not have value",
        versions=">=2.21",
        found="2026-11-21 (tensorflow 2.21.0)",
        details=("known bug: in a TF1 graph (TF1 control flow, Switch/Merge), grappler's arithmetic optimizer, on "
                 "by default in a session, breaks a tf.cond branch that adds a tensor from outside the branch to "
                 "itself (`lambda: x + x`, also tf.add_n([x, x])): where that branch is taken the cond's output is "
                 "dead and the session fails with 'Retval[0] does not have value' (control flow v2, or "
                 "rewrite_options.arithmetic_optimization OFF, avoids it). Provenance: found by conformance "
                 "2026-11-21 (tensorflow 2.21.0)."),
        example=Failure('run',
                        error_types=('InvalidArgumentError', 'OpError', 'Exception'),
                        message="Graph execution error:\n\nRetval[0] does not have value",
                        constructs=('dynamic_dim', 'if_tensor'),
                        ops=('add',)),
    ),
    refuses_with(
        "tf1_graph.while_loop_dtype_changes",
        reason=("tf.compat.v1.while_loop needs its body to return the loop variables' dtypes: one cast to another "
                "dtype fails when the graph runs"),
        phases=('convert', 'run'),
        errors=('InvalidArgumentError',),
        message=r"Input \d+ of node \S*while\S*/Merge\S* was passed \w+ from \S*NextIteration\S* incompatible with "
                r"expected \w+",
        reference="https://www.tensorflow.org/api_docs/python/tf/compat/v1/while_loop",
        found="2026-11-29 (tensorflow 2.21.0)",
        details=("tf.compat.v1.while_loop's body must return 'the same arity (length and structure) and types as "
                 "loop_vars': a loop variable the body casts to another dtype (a float32 made float64) builds, and "
                 "the TF1 graph's Merge node refuses it when the session runs ('Input 1 of node while/Merge_1 was "
                 "passed double from while/NextIteration_1:0 incompatible with expected float'); eager Python runs "
                 "it, AutoGraph refuses it while tracing (autograph.loop_dtype_changes). Provenance: "
                 "https://www.tensorflow.org/api_docs/python/tf/compat/v1/while_loop."),
        example=Failure('convert', error_types=('InvalidArgumentError',),
                        message="Graph execution error:\n\nInput 1 of node while_1/Merge_1 was passed double from "
                                "while_1/NextIteration_1:0 incompatible with expected float."),
    ),
)
