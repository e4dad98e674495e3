"""Planted op faults are caught as ``mismatch``: pooling that ignores ``ceil_mode``, resizing that treats
``align_corners=True`` as ``False``, a sum scatter whose duplicates overwrite each other, an unstable sort
where stability was asked for (``tests/planted_ops.py``). Each runs one program that uses the op in the way the
fault breaks, and one where the fault changes nothing (it must pass: the planted path is eager otherwise).
"""

from __future__ import annotations

import importlib.util

import pytest

if not importlib.util.find_spec("torch"):
    pytest.skip("needs torch", allow_module_level=True)

from conformance.program.case import Case, InputSet  # noqa: E402
from conformance.program.program import Program  # noqa: E402
from conformance.run.runner import check  # noqa: E402

from . import planted_ops  # noqa: E402


def _case(shapes, body, output, low=-1.0) -> Case:
    inputs = [{"name": f"x{i}", "spec": {"kind": "tensor", "shape": list(s), "dtype": "float32", "low": low,
                                         "high": 1.0}} for i, s in enumerate(shapes)]
    gets = [{"kind": "get", "out": f"v{i}", "source": f"x{i}", "path": []} for i in range(len(shapes))]
    program = Program.from_dict({"format": 1, "seed": 7, "kwargs": [], "params": [], "inputs": inputs,
                                 "body": gets + body, "output": {"kind": "var", "name": output}})
    return Case(program, (InputSet("example", 1, 3), InputSet("values", 1, 4)))


def _op(out, op, args, **attrs):
    return {"kind": "op", "out": out, "op": op, "args": list(args), "attrs": attrs}


def _pool(ceil_mode):
    return _case([(1, 2, 5, 5)], [_op("p", "max_pool2d", ["v0"], kernel=2, stride=2, padding=0, ceil_mode=ceil_mode)],
                 "p")


def _resize(align_corners):
    return _case([(1, 1, 3, 3)], [_op("r", "interpolate_bilinear", ["v0"], scale=0.0, sizes=[5, 5],
                                      align_corners=align_corners)], "r")


def _scatter(index):
    return _case([(3, 4), (3, 4)], [_op("s", "scatter_add", ["v0", "v1"], dim=0, index=index, reduce="add")], "s")


def _argsort(ties: bool):
    first = [_op("t", "relu", ["v0"])] if ties else [_op("t", "add_scalar", ["v0"], c=0.5)]
    return _case([(2, 6)], first + [_op("a", "argsort", ["t"], dim=-1, descending=False)], "a")


CASES = {
    "pool_ceil": (_pool(True), _pool(False)),
    "resize_corners": (_resize(True), _resize(False)),
    "scatter_order": (_scatter([[0, 0, 1, 2], [0, 1, 1, 2]]), _scatter([[0, 1, 2, 0], [1, 2, 0, 1]])),
    "unstable_sort": (_argsort(ties=True), _argsort(ties=False)),
}


@pytest.mark.parametrize("fault", list(CASES))
def test_a_planted_op_fault_is_a_mismatch(fault):
    broken, unaffected = CASES[fault]
    path = planted_ops.PLANTED[fault]
    record = check(broken, path)
    assert record.outcome == "mismatch", (fault, record.outcome, record.to_json().get("detail"))
    assert check(unaffected, path).outcome == "pass", fault


#: a campaign focused on each fault's op family (with the ops that make bool and int64 arguments, and ties)
FOCUS = {"pool_ceil": ("max_pool1d", "max_pool2d", "max_pool3d", "avg_pool1d", "avg_pool2d", "avg_pool3d"),
         "resize_corners": ("interpolate_linear", "interpolate_bilinear", "interpolate_bicubic",
                            "interpolate_trilinear"),
         "scatter_order": ("scatter_add", "scatter_reduce", "scatter"),
         "unstable_sort": ("argsort", "argsort_int", "sort")}


@pytest.mark.parametrize("fault", list(FOCUS))
def test_a_short_campaign_on_the_op_family_finds_the_fault(fault):
    """The campaign stream of seed 0 restricted to the fault's op family finds it within 2 minutes (here: a few
    seconds, within 400 cases)."""
    import itertools
    import time

    from conformance.run.stream import generate_cases

    from .test_ops_eager import ENABLERS

    start = time.perf_counter()
    from conformance.program.strategies import CONSTRUCTS

    # the plain stream this family's faults were planted for: pinned, so the default's growth does not move it
    stream = generate_cases(0, ops=FOCUS[fault] + ENABLERS + ("relu", "floor"), constructs=CONSTRUCTS, steer=False)
    for n, case in enumerate(itertools.islice(stream, 400)):
        if check(case, planted_ops.PLANTED[fault]).outcome == "mismatch":
            break
        assert time.perf_counter() - start < 120, f"{fault}: no mismatch in 2 minutes ({n} cases)"
    else:
        pytest.fail(f"{fault}: no mismatch in 400 cases")
