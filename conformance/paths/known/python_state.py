"""Every converted program: a plain Python attribute forward reads is a constant of the conversion.
"""

from conformance.paths.known.factories import Failure, documented

RECORDS = (
    documented(
        "python_state.attribute_frozen",
        reason=("A plain Python attribute forward reads (a flag the caller changes between calls) is a constant of "
                "the converted program, read when it was converted"),
        phases=('compare',),
        constructs=('module_flag',),
        reference="https://pytorch.org/docs/stable/jit.html#attributes",
        details=("a plain Python attribute forward reads (a flag the caller changes between calls) is a constant of "
                 "the converted program, read when it was converted: the caller's later changes on the model are "
                 "not seen (torch.compile guards on it and recompiles; to_static's SOT guards too). Provenance: "
                 "https://pytorch.org/docs/stable/jit.html#attributes; "
                 "https://www.tensorflow.org/guide/function#depending_on_python_global_and_free_variables."),
        example=Failure('compare', divergences=(('value', '[0]'),), constructs=('module_flag',)),
    ),
)
