"""Nothing the generator draws raises, nor applies an op to edge values its record does not take or to a rank past its
kernel's or ``MAX_RANK``: the campaign stream
of each framework with every construct family on; and the value bounds of the records on empty tensors (an index
into a dim of size 0 once had the inverted interval ``(0, -1)``, which later bounds took for values:
``ZeroDivisionError`` in a floor division's bound, ``math domain error`` in a logarithm's)."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from conformance.program.edges import MAX_RANK
from conformance.program.ir import OpStmt, ProgramError, TensorType
from conformance.program.ops import OPS
from conformance.program.ops.record import FRAMEWORKS, dtype_fits
from conformance.program.strategies import DEFAULT_CONSTRUCTS, TRAIN_CONSTRUCTS, programs


def _faults(framework: str, n: int, seed: int = 0) -> list[str]:
    """What is wrong among the first ``n`` cases of the campaign stream of ``seed`` for ``framework`` alone, every
    construct on: the draws that raised (a campaign records each as a harness_error; here each is a failure), and
    the op statements that apply an op whose record does not take edge values to one (the op's result is not
    defined there, and its pairwise coverage would count pairs the steering cannot draw), and those that apply one
    to an argument of a rank above ``MAX_RANK``, or above what the framework's kernel takes (``max_rank``: Paddle's
    ``logsumexp`` refuses rank 5 in eager, and each such case was discarded)."""
    from conformance.program.coverage import statement_features
    from conformance.run.draws import DrawError
    from conformance.run.stream import generate_cases

    stream = generate_cases(seed, frameworks=(framework,), constructs=DEFAULT_CONSTRUCTS + TRAIN_CONSTRUCTS)
    faults = []
    for case in itertools.islice(stream, n):
        if isinstance(case, DrawError):
            faults.append(case.traceback)
            continue
        faults += [f"case {case.id}: {op} on edge values" for op, feats in statement_features(case.program)
                   if feats["edge"] == "True" and op in OPS and not OPS[op].edge_ok]
        faults += [f"case {case.id}: {op} on an argument of rank {max(t.rank for t in ts)}"
                   for op, ts in _arguments(case.program)
                   if max((t.rank for t in ts), default=0) > min(MAX_RANK, OPS[op].max_rank.get(framework, MAX_RANK))]
    return faults


def _arguments(program):
    """``(op, argument types)`` of each op statement of ``program``."""
    from conformance.program.typecheck import op_arg_types

    types = op_arg_types(program)
    return [(s.op, types[id(s)]) for s in program.walk() if isinstance(s, OpStmt) and id(s) in types]


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_a_hundred_and_fifty_programs_per_framework_draw_without_exception_or_edge_values_out_of_place(framework):
    faults = _faults(framework, 150)
    assert not faults, faults[0]


@pytest.mark.slow
@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_twenty_thousand_programs_per_framework_draw_without_exception_or_edge_values_out_of_place(framework):
    faults = [f for seed in range(4) for f in _faults(framework, 5000, seed)]
    assert not faults, f"{len(faults)} faults; the first:\n{faults[0]}"


#: every dtype an op record takes, for the empty arguments below
_DTYPES = ("float32", "float64", "float16", "int64", "int32", "int8", "uint8", "bool")


@settings(max_examples=300, database=None, deadline=None, derandomize=True, phases=[Phase.generate],
          suppress_health_check=list(HealthCheck))
@given(st.data())
def test_value_bounds_on_empty_tensors_are_ordered(data):
    """Every unary record that takes a tensor with a dim of size 0 bounds its result by an ordered interval."""
    names = sorted(n for n, rec in OPS.items() if rec.arity == 1 and rec.empty_ok)
    rec = OPS[data.draw(st.sampled_from(names))]
    dtype = data.draw(st.sampled_from([d for d in _DTYPES if dtype_fits(d, rec.arg_dtypes[0])]))
    shape = data.draw(st.sampled_from([(0,), (0, 3), (2, 0), (3, 0, 2)]))
    t = TensorType(shape, dtype)
    iv = (-1.0, 1.0) if dtype.startswith("float") else (0.0, 1.0) if dtype in ("bool", "uint8") else (-3.0, 3.0)
    try:  # what the generator checks before it draws attributes (OpDrawing.iter_candidates)
        if not rec.domain([iv], [t]):
            return
        rec.check([t], {})
    except ProgramError:
        return  # the record does not take this argument: the generator never applies it here
    except (KeyError, TypeError):
        pass  # the shape rule needs the attributes
    attrs = rec.attrs(data.draw, [t]) if rec.attrs else {}
    try:
        rec.check([t], attrs)
    except ProgramError:
        return
    lo, hi = rec.bound([iv], attrs, [t])
    assert lo <= hi and not (math.isnan(lo) or math.isnan(hi)), (rec.name, shape, attrs, (lo, hi))


def test_the_index_bounds_of_an_empty_dim_hold_zero_alone():
    empty = TensorType((0,), "int64")
    assert OPS["argsort_int"].bound([(0.0, 9.0)], {"dim": 0, "descending": False}, [empty]) == (0.0, 0.0)
    assert OPS["nonzero"].bound([(0.0, 1.0)], {}, [TensorType((0, 2), "bool")]) == (0.0, 1.0)
    assert OPS["nonzero"].bound([(0.0, 1.0)], {}, [TensorType((0,), "bool")]) == (0.0, 0.0)


@settings(max_examples=200, database=None, deadline=None, derandomize=True, phases=[Phase.generate],
          suppress_health_check=list(HealthCheck))
@given(programs(frameworks=("paddle",), ops=("unsqueeze", "logsumexp", "neg"), max_statements=8))
def test_an_op_is_not_applied_past_the_rank_its_kernel_takes(program):
    """Paddle's ``logsumexp`` is never drawn on a rank past 4 (``max_rank``; without it, 21 of these 200 programs
    did), and no op on a rank past ``MAX_RANK``."""
    for op, ts in _arguments(program):
        assert max(t.rank for t in ts) <= min(MAX_RANK, OPS[op].max_rank.get("paddle", MAX_RANK)), (op, ts)


def test_a_case_with_an_op_past_the_rank_a_frameworks_kernel_takes_is_not_run_on_that_framework():
    """A case drawn elsewhere (a corpus case, another framework's campaign) with Paddle's ``logsumexp`` of rank 5:
    Paddle skips it, saying why (``unrenderable``), instead of a discarded record for its eager refusal."""
    from conformance.program.case import Case
    from conformance.run.neighbours import unrenderable

    def case(rank: int) -> Case:
        return Case.from_dict({"program": {
            "format": 1, "seed": 0, "kwargs": [], "params": [], "output": {"kind": "var", "name": "v1"},
            "inputs": [{"name": "x0", "spec": {"kind": "tensor", "shape": [2] * rank, "dtype": "float32",
                                               "low": -1.0, "high": 1.0}}],
            "body": [{"kind": "get", "out": "v0", "source": "x0", "path": []},
                     {"kind": "op", "out": "v1", "op": "logsumexp", "args": ["v0"],
                      "attrs": {"dim": 0, "keepdim": False}, "params": []}]},
            "inputs": [{"role": "example", "batch": 1, "seed": 0, "kwargs": {}}]})

    assert unrenderable(case(5), "paddle") == "paddle's logsumexp takes a rank of 4 at most"
    assert unrenderable(case(4), "paddle") is None and unrenderable(case(5), "torch") is None
