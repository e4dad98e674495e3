"""Hypothesis strategies for generated models, as ``hypothesis.strategies`` is for values.

    >>> from hypothesis import given
    >>> from conformance.strategies import cases
    >>> @given(case=cases(max_statements=4))
    ... def test_my_path(conformance_path, case):
    ...     assert conformance.check_case(case, conformance_path).outcome != "mismatch"

:func:`programs` draws framework-neutral programs that are valid by construction (every op gets arguments
whose shapes fit its rule and whose values lie in its domain), with data-dependent ``if``/``while``, loops over
keyword arguments, nested list/dict inputs and non-tensor keyword arguments; :func:`input_sets` draws the
example a path converts with and fresh input sets that test whether the conversion generalises; :func:`cases`
draws both. Shrinking gives fewer statements, smaller shapes and simpler control flow.

The construct names that ``constructs=`` takes: :data:`CONSTRUCTS` (the default), and the opt-in ones,
:data:`TRAIN_CONSTRUCTS` (layers that differ in ``train()``), :data:`EDGE_CONSTRUCTS` (edge values, dtypes,
empty tensors...) and :data:`EFFECT_CONSTRUCTS` (mutation, module state, Python-level dynamism).
"""

from conformance.program.edges import EDGE_CONSTRUCTS
from conformance.program.effects import EFFECT_CONSTRUCTS
from conformance.program.strategies import CONSTRUCTS, TRAIN_CONSTRUCTS, cases, input_sets, programs

__all__ = ["CONSTRUCTS", "EDGE_CONSTRUCTS", "EFFECT_CONSTRUCTS", "TRAIN_CONSTRUCTS", "cases", "input_sets",
           "programs"]
