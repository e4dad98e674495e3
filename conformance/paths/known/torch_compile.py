"""``torch.compile``'s front end (dynamo, AOTAutograd, the decompositions): what every backend meets.
"""

from conformance.paths.known.factories import Failure, known_bug, writes_wrong

RECORDS = (
    known_bug(
        "torch_compile.aot_zero_gradients",
        reason=("AOTAutograd gives a zero gradient where eager gives None, to an input whose only use is a compiled "
                "output the loss does not use"),
        phases=('compare',),
        divergences=('extra_gradient',),
        versions=">=2.0",
        issue="https://github.com/pytorch/pytorch/issues/131794",
        details=("known bug: AOTAutograd gives a zero gradient where eager gives None, to an input or parameter "
                 "whose only use is an output of a compiled graph that the loss does not use (e.g. `a = x * 2` "
                 "before a graph break, `a.detach()` after it). Provenance: "
                 "https://github.com/pytorch/pytorch/issues/131794."),
        example=Failure('compare', divergences=(('extra_gradient', '[0]'),)),
    ),
    known_bug(
        "torch_compile.compile_scatter_src_gradient",
        reason=("Scatter's derivative gives a src larger than index an index-shaped gradient, which autograd "
                "rejects (AOTAutograd always differentiates it)"),
        errors=('BackendCompilerFailed',),
        message=r"Scatter\w*Backward0 returned an invalid gradient",
        modes=frozenset({'grad', 'train'}),
        versions=">=2.0",
        issue="https://github.com/pytorch/pytorch/issues/27614",
        details=("known bug: scatter's derivative gives src an index-shaped gradient (grad.gather(dim, index)) "
                 "where src is larger than index, which autograd rejects ('ScatterBackward0 returned an invalid "
                 "gradient at index 1 - got [2, 1, 3] but expected shape compatible with [2, 4, 4]'); eager meets "
                 "it only where the loss uses the scatter, but AOTAutograd traces the backward of every output of a "
                 "compiled graph (a scatter result that only decides a branch after a graph break, too), so "
                 "compiling for grad or train fails. Provenance: https://github.com/pytorch/pytorch/issues/27614 "
                 "(also #94336; fix proposed in PR #188843)."),
        example=Failure('convert',
                        mode="grad",
                        error_types=('BackendCompilerFailed',),
                        message="ScatterBackward0 returned an invalid gradient"),
    ),
    writes_wrong(
        "torch_compile.ldexp_decomposition_dtype",
        reason=("aten.ldexp's decomposition changes the dtype of torch.ldexp of an integer tensor by a float16 one "
                "(float32 where eager gives float16)"),
        phases=('compare',),
        divergences=('dtype',),
        versions=">=2.13",
        ops=('ldexp',),
        script="torch_ldexp_integer_float16_dtype.py",
        found="2026-11-28 (torch 2.13.0)",
        details=("known bug: aten.ldexp's decomposition (torch/_decomp: `self * torch.pow(two, other)`, `two` "
                 "float32 for an integer self) changes the dtype of torch.ldexp of an integer tensor by a float16 "
                 "one: inductor returns float32 where eager returns float16. Provenance: found by conformance "
                 "2026-11-28 (torch 2.13.0), the clean torch campaigns (; case d4a84b8aba7b); "
                 "cases/standalone/torch_ldexp_integer_float16_dtype.py."),
        example=Failure('compare', divergences=(('dtype', '[0]'),), ops=('ldexp', 'gather')),
    ),
)
