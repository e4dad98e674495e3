"""Every op record renders and runs eagerly in each framework it claims, and the frameworks agree.

For each record, a few programs that use the op (drawn from the op, the record's own ``enabler``, and a few
*enabler* ops that make the bool, int64 and higher-rank arguments some ops need) are rendered for every
framework with an emitter, run eagerly (fp32, the fp64 reference, and fp32 on nudged inputs: what the runner's
``prepare`` does) and compared: each framework's fp32 outputs must pass the oracle against torch's (or the
first framework's) fp32 with its fp64 reference and rounding noise, and the fp64 references must agree to fp64
tolerance (the cross-framework check of ``tests/test_cross_framework.py``, op by op). A framework the record
says differs by design (``OpRecord.differs``) is run but not compared. Frameworks that are not installed are
left out.

``-m slow`` draws more programs per op. For a quick look at some ops while writing records::

    python tests/test_ops_eager.py pow atan2 max_pool2d
"""

from __future__ import annotations

import importlib.util
import itertools
import sys

import numpy as np
import pytest

from conformance.judge.oracle import diagnose
from conformance.program.ir import spec_leaves
from conformance.program.ops import OPS
from conformance.program.trees import flatten

INSTALLED = [fw for fw, module in (("torch", "torch"), ("paddle", "paddle"), ("tf", "tensorflow"))
             if importlib.util.find_spec(module)]
#: Ops that make the arguments other ops need: bool masks, int64 indices, one more dim, values in (0, 1).
ENABLERS = ("gt", "to_int", "unsqueeze", "abs", "sigmoid")
#: Programs per op: always, and with ``-m slow``.
QUICK, THOROUGH = 1, 6


def cases_using(name: str, count: int, seed: int = 0, dtypes: tuple = ()):
    """``count`` deterministic cases whose program uses op ``name``, drawn from it and :data:`ENABLERS` (and the edge
    construct the op needs, ``OpRecord.construct``); with ``dtypes``, drawn with the ``dtypes`` construct too, and
    only programs with an input of one of them."""
    from conformance.program.edges import EDGE_CONSTRUCTS
    from conformance.run.stream import generate_cases

    own = (OPS[name].enabler.op,) if OPS[name].enabler else ()  # the statement that makes its rare argument
    ops = (name,) + tuple(e for e in ENABLERS + own if e != name) + (("cast",) if dtypes else ())
    edge = OPS[name].construct if OPS[name].construct in EDGE_CONSTRUCTS else ""
    constructs = ("dynamic_dim", "kwargs") + tuple(sorted({edge, "dtypes" if dtypes else ""} - {""}))
    stream = generate_cases(seed, chunk_size=6, ops=ops, constructs=constructs, max_statements=4)
    found = (case for case in itertools.islice(stream, 1000 if dtypes else 400) if name in case.program.ops()
             and (not dtypes or {leaf.dtype for i in case.program.inputs for _, leaf in spec_leaves(i.spec)}
                  & set(dtypes)))
    return list(itertools.islice(found, count))


def check_op(name: str, count: int, dtypes: tuple = ()) -> int:
    """Run ``count`` programs using op ``name`` in each framework it claims; assert they agree. Returns how many
    programs were judged (all of whose guards were stable in every framework)."""
    from conformance.run.runner import prepare

    rec = OPS[name]
    frameworks = [fw for fw in INSTALLED if fw in rec.frameworks]
    if not frameworks:
        pytest.skip(f"{name}: no installed framework has an emitter ({', '.join(rec.frameworks)})")
    cases = cases_using(name, count, dtypes=dtypes)
    assert cases, f"no program using {name} was drawn: its domain may be too narrow for the enablers"
    judged = 0
    for case in cases:
        preps = {fw: prepare(case, fw) for fw in frameworks}
        for fw, prep in preps.items():
            for run in prep.runs:
                for leaf in flatten(run.eager):
                    assert np.all(np.isfinite(leaf)), f"{name} in {fw}: non-finite eager output\n{case.program}"
        compared = [fw for fw in frameworks if fw not in rec.differs]
        if len(compared) < 2:
            continue
        base, others = preps[compared[0]], compared[1:]
        if all(all(r.stability.stable for r in preps[fw].runs) for fw in compared):
            judged += 1
        for fw in others:
            for ref, other in zip(base.runs, preps[fw].runs):
                if not (ref.stability.stable and other.stability.stable):
                    continue  # within rounding of a threshold: not judged (the branch-flip guard)
                where = f"{name}: {fw} vs {compared[0]}, {ref.role} inputs, program {case.program.id}"
                if not {fw, compared[0]} & set(rec.fp32_in_fp64):  # else: fp64 references agree to fp32 only
                    fp64 = diagnose(other.reference, ref.reference, ref.reference)
                    assert fp64.ok, f"{where}, fp64 reference:\n{fp64.summary()}\n{case.program.to_json()}"
                fp32 = diagnose(other.eager, ref.eager, ref.reference, noise=ref.noise)
                assert fp32.ok, f"{where}, fp32 eager:\n{fp32.summary()}\n{case.program.to_json()}"
    return judged


@pytest.mark.parametrize("name", list(OPS))
def test_op_runs_and_frameworks_agree(name):
    check_op(name, QUICK)


#: Ops that take dtypes besides float32 and the model's bool and int64 (issue 15): run on programs with inputs of
#: those dtypes (each framework leaves out the ops its kernels refuse for them: ``OpRecord.refuses``).
OTHER_DTYPES = ("float16", "float64", "int8", "uint8", "int32")
WIDE_OPS = [n for n, rec in OPS.items() if rec.construct or set(rec.arg_dtypes) & {"float", "int", "number"}]


@pytest.mark.parametrize("name", WIDE_OPS)
def test_op_runs_on_other_dtypes_and_frameworks_agree(name):
    check_op(name, QUICK, dtypes=OTHER_DTYPES)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(OPS))
def test_op_runs_and_frameworks_agree_thoroughly(name):
    check_op(name, THOROUGH)


def test_every_framework_has_an_emitter_or_a_reason():
    for rec in OPS.values():
        for fw in ("torch", "paddle", "tf"):
            assert fw in rec.emit or rec.missing.get(fw, "").strip(), (rec.name, fw)


if __name__ == "__main__":
    for op_name in sys.argv[1:] or list(OPS):
        try:
            print(op_name, "ok, judged", check_op(op_name, QUICK, dtypes=OTHER_DTYPES if op_name in WIDE_OPS else ()),
                  flush=True)
        except BaseException as e:  # noqa: BLE001 - a report per op, then the next one
            print(op_name, "FAILED", type(e).__name__, str(e)[:3000], flush=True)


def test_a_gather_index_may_reach_past_its_own_length_along_dim():
    """``gather``'s index is shorter than x along ``dim`` (one row) and points at x's last row there: TensorFlow's
    ``take_along_axis`` is given x cropped to the index's block in the other dims only (cropped along ``dim`` too,
    its eager refused the index as out of range: a program every other framework runs)."""
    from conformance.program.case import Case, InputSet
    from conformance.program.ir import Get, Input, OpStmt, OutVar, TensorSpec
    from conformance.program.program import Program
    from conformance.run.runner import prepare

    frameworks = [fw for fw in INSTALLED if fw in OPS["gather"].frameworks]
    if len(frameworks) < 2 or "tf" not in frameworks:
        pytest.skip("needs TensorFlow and another framework")
    program = Program(seed=3, inputs=(Input("x", TensorSpec((2, 3))),), kwargs=(), params=(),
                      body=(Get("v0", "x", ()), OpStmt("v1", "gather", ("v0",), (("dim", 1), ("index", ((2,), (0,)))))),
                      output=OutVar("v1"))
    case = Case(program, (InputSet("example", 2, 1, ()),))
    runs = {fw: prepare(case, fw).runs[0].eager for fw in frameworks}
    for fw in frameworks[1:]:
        assert np.array_equal(flatten(runs[fw])[0], flatten(runs[frameworks[0]])[0]), (fw, runs)
