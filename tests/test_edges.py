"""The generator outside the safe box (issue 15): dtypes, edge values and edge shapes are drawn, valid by
construction, shrink back into the box, and the oracle catches planted faults at those edges
(``tests/planted_edges.py``) while it passes eager on them.

``test_every_edge_is_used`` draws 400 programs in CI; ``-m slow`` draws the 2,000 of the issue's bar and runs the
shrinking checks.
"""

from __future__ import annotations

import collections
import importlib.util
import itertools
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, find, given, settings

from conformance.program.case import materialize
from conformance.program.dtypes import DRAWN_DTYPES, EDGE_KINDS, numpy_dtype
from conformance.program.edges import EDGE_CONSTRUCTS, OP_KINDS, usage
from conformance.program.ir import spec_leaves
from conformance.program.program import Program
from conformance.program.strategies import CONSTRUCTS, cases, programs
from conformance.program.typecheck import check_program

ALL = CONSTRUCTS + EDGE_CONSTRUCTS
KINDS = [f"dtype:{d}" for d in DRAWN_DTYPES + ("bfloat16",)] + [f"edge:{k}" for k in EDGE_KINDS] + \
        ["empty", "rank0", "rank5", "noncontiguous"] + list(OP_KINDS)


def _draw(n: int) -> list[Program]:
    drawn: list[Program] = []

    @settings(max_examples=n, derandomize=True, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(programs(constructs=ALL))
    def draw(p):
        drawn.append(p)

    draw()
    return drawn


def _usage_table(n: int) -> dict[str, float]:
    progs = _draw(n)
    counts = collections.Counter(k for p in progs for k in usage(p))
    shares = {k: counts[k] / len(progs) for k in KINDS}
    print(f"\n{len(progs)} programs drawn with {', '.join(EDGE_CONSTRUCTS)}: programs using each")
    for k in KINDS:
        print(f"  {k:<16} {counts[k]:>5}  {shares[k]:6.1%}")
    return shares


def _check_usage(n: int, floor: float):
    shares = _usage_table(n)
    rare = {k: f"{v:.1%}" for k, v in shares.items() if v <= floor}
    assert not rare, f"used by {floor:.0%} of programs or fewer: {rare}"


def test_every_edge_is_used():
    """CI's smaller draw (about 25 s): each edge in more than 1% of 800 programs."""
    _check_usage(800, 0.01)


@pytest.mark.slow
def test_every_edge_is_used_in_2000_programs():
    """The issue's bar (about 80 s here): each edge in more than 2% of 2,000 programs."""
    _check_usage(2000, 0.02)


@settings(max_examples=60, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(cases(constructs=ALL))
def test_edge_programs_type_check_round_trip_and_materialise(case):
    p = case.program
    check_program(p)
    assert Program.from_dict(p.to_dict()) == p
    for inputs in case.inputs:
        args, _ = materialize(p, inputs)
        leaves = [leaf for i in p.inputs for _, leaf in spec_leaves(i.spec)]
        arrays = []

        def collect(x):
            if isinstance(x, (list, tuple)):
                for i in x:
                    collect(i)
            elif isinstance(x, dict):
                for i in x.values():
                    collect(i)
            else:
                arrays.append(x)

        collect(args)
        for leaf, a in zip(leaves, arrays):
            assert a.dtype == numpy_dtype(leaf.dtype), (leaf, a.dtype)
            assert a.shape == leaf.type.concrete(inputs.batch)
            if leaf.edge == "nan" and a.size and a.dtype.kind == "f":
                assert np.isnan(a).any()
            if leaf.edge == "inf" and a.size and a.dtype.kind == "f":
                assert np.isinf(a).any()


def _leaves(p: Program):
    return [leaf for i in p.inputs for _, leaf in spec_leaves(i.spec)]


@pytest.mark.slow
@pytest.mark.parametrize("want", ["dtype:int8", "edge:nan", "empty"])
def test_shrinking_keeps_only_the_edge_it_needs(want):
    """A minimal program with one edge keeps no other edge value or edge shape, and small ranks. (Other dtypes may
    stay: Hypothesis shrinks each choice towards float32, but not two at once, e.g. an input's dtype and the cast
    that reads it. About a minute per edge.)"""
    smallest = find(programs(constructs=ALL), lambda p: want in usage(p),
                    settings=settings(max_examples=2000, database=None, suppress_health_check=list(HealthCheck)))
    others = {k for k in usage(smallest) - {want} if not k.startswith("dtype:")}
    assert not others, (others, smallest)
    assert all(len(leaf.shape) <= 2 for leaf in _leaves(smallest)), smallest


@pytest.mark.slow
@pytest.mark.parametrize("want, dtypes", [
    pytest.param("mixed_dtypes", 2, marks=pytest.mark.xfail(strict=True, reason=(
        "not yet: the minimal program keeps a third input dtype (uint8) beside the float16 + float32 its op needs: "
        "Hypothesis does not shrink a leaf's dtype and the ops drawn on it at once"))),
    ("int_reduction", 1), ("empty_axis", 1)])
def test_shrinking_keeps_no_dtype_it_does_not_need(want, dtypes):
    """A minimal program with a mixed-dtype op keeps its two dtypes, one with an integer reduction only the integer
    dtype it reduces, one over an empty axis only float32 (seed fixed: about a minute in all)."""
    smallest = find(programs(constructs=ALL), lambda p: want in usage(p),
                    settings=settings(max_examples=2000, database=None, derandomize=True,
                                      suppress_health_check=list(HealthCheck)))
    kept = {k for k in usage(smallest) if k.startswith("dtype:")}
    assert len(kept) == dtypes, (kept, smallest)


# ---------------------------------------------------------------- planted faults at the edges

needs_torch = pytest.mark.skipif(not importlib.util.find_spec("torch"), reason="needs torch")

#: each fault's focus: the ops of a campaign stream that reach its edge (with the default constructs and the edges)
FOCUS = {"nan_to_zero": ("sqrt", "log", "div", "neg", "relu"),
         "trunc_division": ("floor_div", "ceil_div", "int_add", "int_mul"),
         "empty_flat": ("sum", "neg", "relu", "flip"),
         "fp16_chop": ("cast", "round_to", "floor_div", "neg"),
         "fp16_promotion": ("add_mixed", "mul_mixed", "neg"),
         "empty_matmul_ones": ("matmul_empty", "neg", "sum")}

SAFE_OPS = ("neg", "relu", "tanh", "sum", "add", "floor")


@needs_torch
@pytest.mark.parametrize("fault", list(FOCUS))
def test_a_campaign_finds_each_planted_edge_fault_within_2_minutes(fault):
    from conformance.run.runner import check
    from conformance.run.stream import generate_cases

    from . import planted_edges

    start = time.perf_counter()
    outcomes = collections.Counter()
    for n, case in enumerate(itertools.islice(generate_cases(0, constructs=ALL, ops=FOCUS[fault],
                                                                                 frameworks=("torch",)), 1000)):
        outcome = check(case, planted_edges.PLANTED[fault]).outcome
        outcomes[outcome] += 1
        if outcome == "mismatch":
            print(f"{fault}: mismatch at case {n} after {time.perf_counter() - start:.1f} s ({dict(outcomes)})")
            break
        assert time.perf_counter() - start < 120, f"{fault}: no mismatch in 2 minutes ({dict(outcomes)})"
    else:
        pytest.fail(f"{fault}: no mismatch in 1000 cases ({dict(outcomes)})")
    # inside the box (float32, no edge values, no empty tensors) the planted path is eager: it passes
    clean = collections.Counter(check(c, planted_edges.PLANTED[fault]).outcome
                                for c in itertools.islice(generate_cases(0, ops=SAFE_OPS, constructs=CONSTRUCTS), 10))
    assert clean["mismatch"] == 0 and clean["pass"] >= 5, f"{fault} off the edges: {dict(clean)}"


@needs_torch
def test_eager_rerun_on_edge_programs_is_never_a_mismatch():
    """The clean run: eager run again (the planted path without its fault) on edge programs passes or is
    discarded, never a mismatch: NaN where eager has NaN, -0.0, subnormals and wrapped integers agree."""
    from conformance.paths.records import PathRecord
    from conformance.run.runner import check

    from . import planted_edges  # noqa: F401 - torch paths registered

    clean = PathRecord("torch", "edges_clean", "eager again", lambda ctx: ctx.model,
                       lambda m, a, k: m(*a, **k), default=False)
    from conformance.run.stream import generate_cases

    outcomes = collections.Counter(check(c, clean).outcome
                                   for c in itertools.islice(generate_cases(1, constructs=ALL), 40))
    assert outcomes["mismatch"] == 0 and outcomes["pass"] >= 20, dict(outcomes)
