"""First-divergence localisation and reduction of programs with Python values: numbers, lists and dicts are compared
at a cut (or left out with the reason), and a planted fault after (or inside) them is named as the first divergent
statement."""

import json

import pytest
from hypothesis import HealthCheck, given, settings

from conformance.program.case import Case, InputSet
from conformance.program.flow import cuts
from conformance.program.ir import For, Get, Input, OpStmt, OutSeq, OutVar, ProgramError, PyStmt, TensorSpec
from conformance.program.program import Program
from conformance.program.strategies import CONSTRUCTS, PYTHON_VALUE_CONSTRUCTS, cases
from conformance.program.truncate import truncate

torch = pytest.importorskip("torch")


def py(out, op, *args, **attrs):
    return PyStmt(out, op, tuple(args), tuple(sorted(attrs.items())))


def _planted(body, target, output, seed=3) -> Case:
    """A case whose torch.planted_loc_script conversion perturbs the op statement ``target`` (named as
    ``tests.planted_localize`` reads a fault: its fields as JSON gives them back)."""
    stmt = json.loads(json.dumps([target.out, target.op, list(target.args), [list(a) for a in target.attrs]]))
    fault = {"kind": "perturb", "stmt": stmt, "nth": 0}
    p = Program(seed, (Input("x0", TensorSpec((3, 4))),), (), (), body, output, meta=(("planted", json.dumps(fault)),))
    return Case(Program.from_dict(p.to_dict()), (InputSet("example", 3, seed),))


#: straight-line: a .item() fed back into the tensor, an int from the data as a for's trip count, then the fault.
SIN = OpStmt("v", "sin", ("v",))
AFTER = (Get("v", "x0"), OpStmt("v", "tanh", ("v",)), py("n", "item", "v", reduce="mean"),
         py("v", "scale_by", "n", "v"), py("c", "int_of", "v", mod=3, scale=2.0),
         For("i0", "c", (OpStmt("v", "cos", ("v",)),)), SIN,
         OpStmt("v", "add_scalar", ("v",), (("c", 0.5),)))
#: inside a loop: a number from .item() and a tensor made from it (replayed before the loop to give the capture its
#: type), a list grown in the loop (left out inside it, with the reason), then stacked.
COS = OpStmt("v", "cos", ("u",))
INSIDE = (Get("v", "x0"), OpStmt("v", "tanh", ("v",)), py("l", "list_new", of="tensor"),
          For("i0", 3, (py("m", "item", "v", reduce="mean"), py("u", "scale_by", "m", "v"), COS,
                        OpStmt("v", "add", ("v", "u")), py("l", "append", "l", "v"))),
          py("s", "stack_reduce", "l", reduce="mean"))


@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True, database=None)
@given(cases(max_statements=6, max_depth=2, constructs=CONSTRUCTS + PYTHON_VALUE_CONSTRUCTS))
def test_every_cut_of_a_program_with_python_values_truncates_or_says_why_not(case):
    """A cut is truncated into a program that type-checks, or refused with a ProgramError (which localisation
    reports as a truncation that fails otherwise); never another exception of conformance's."""
    for cut in cuts(case.program):
        try:
            trunc = truncate(case.program, cut)
        except ProgramError:
            continue
        assert Program.from_json(trunc.program.to_json()) == trunc.program
        assert all(why for _, why in trunc.skipped)


def test_python_values_are_returned_at_the_top_level_and_numbers_captured_inside_a_block():
    case = _planted(INSIDE, COS, OutSeq("tuple", (OutVar("v"), OutVar("s"))))
    top = truncate(case.program, next(c for c in cuts(case.program) if not c.block and c.index == 3))
    assert {o.var for o in top.outputs if o.role == "value"} == {"v", "l"} and not top.skipped
    inside = next(c for c in cuts(case.program) if c.block == (3, "body") and c.index == 3)
    trunc = truncate(case.program, inside)
    assert {o.var for o in trunc.outputs if o.role == "value"} == {"v", "u", "m"}
    assert [v for v, _ in trunc.skipped] == ["l"] and "list" in trunc.skipped[0][1]
    ops = [s.op for s in trunc.program.body if isinstance(s, PyStmt)]
    assert ops[:2] == ["list_new", "item"]  # .item() replayed before the loop: the capture of u has its type
    loop = trunc.program.body[-1].body
    assert any(isinstance(s, PyStmt) and s.op == "scale_by" and s.args[0] == "m" and s.out.endswith("now_m")
               for s in loop)  # the Python float m captured as a float32 of shape [1]


@pytest.mark.parametrize("body,target,output,location", [
    (AFTER, SIN, OutSeq("tuple", (OutVar("v"), OutVar("n"))), [6]),
    (INSIDE, COS, OutSeq("tuple", (OutVar("v"), OutVar("s"))), [3, "body", 2]),
])
def test_a_planted_fault_after_python_values_is_localised_to_its_statement(body, target, output, location):
    import tests.planted_localize  # noqa: F401 - registers torch.planted_loc_script
    from conformance.triage.localize import localize
    from conformance.triage.localize_workers import InProcess

    runner = InProcess()
    case = _planted(body, target, output)
    record = runner(case, "torch.planted_loc_script")
    assert record.outcome == "mismatch"
    loc = localize(case, record, runner)
    assert (loc.status, loc.kind, loc.location, loc.op) == ("found", "value", location, target.op), loc.markdown()
    assert loc.max_abs_err > 0 and loc.line
    if location[1:]:  # the list is live inside the loop: not compared there, and the answer says why
        assert any(n.startswith("l is not compared at the cut") for n in loc.notes), loc.notes


def test_a_python_value_that_diverges_is_named_where_it_first_differs():
    """A loop-carried Python int turned into a float by the path: the first cut where the int is returned as it
    is (after the loop) fails, the cuts before agree."""
    import tests.planted_python_values  # noqa: F401 - registers torch.planted_int_to_float
    from conformance.triage.localize import localize
    from conformance.triage.localize_workers import InProcess

    from .test_python_values_planted import COUNT

    body = (Get("v0", "x0"),) + COUNT + (OpStmt("v2", "tanh", ("v0",)),)
    p = Program.from_dict(Program(7, (Input("x0", TensorSpec((2, 3))),), (), (), body,
                                  OutSeq("tuple", (OutVar("v2"), OutVar("v1")))).to_dict())
    case = Case(p, (InputSet("example", 1, 1),))
    runner = InProcess()
    record = runner(case, "torch.planted_int_to_float")
    assert record.outcome == "mismatch"
    loc = localize(case, record, runner)
    assert (loc.status, loc.location, loc.value) == ("found", [2], "v1"), loc.markdown()
    assert "While" in type(p.body[2]).__name__


def test_the_reducer_shrinks_a_case_with_python_values_and_keeps_only_what_type_checks():
    import tests.planted_localize  # noqa: F401
    from conformance.program.typecheck import check_program
    from conformance.triage.localize_workers import InProcess
    from conformance.triage.reduce import reduce_case

    runner = InProcess()
    case = _planted(AFTER, SIN, OutSeq("tuple", (OutVar("v"), OutVar("n"))))
    original = runner(case, "torch.planted_loc_script")

    def run(candidate):
        check_program(candidate.program)
        return runner(candidate, "torch.planted_loc_script")

    red = reduce_case(case, lambda r: r.outcome == "mismatch", run, record=original, max_seconds=90)
    assert red.kept > 0 and red.size < red.size_before
    assert any(isinstance(s, OpStmt) and s.op == "sin" for s in red.case.program.walk())
    assert run(red.case).outcome == "mismatch"
