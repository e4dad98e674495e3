"""First-divergence localisation: truncated programs, eager's path, the bisection and its report, the fallbacks.

The bar (planted faults localised to their statement in >= 9 of 10 cases per kind, on an ONNX, a compile and a
TF or Paddle path) is ``-m slow`` in ``tests/test_localize_bar.py``; here a few cases of each kind run on
``torch.script``, and on the other torch paths one each. ``benchmarks/bench_localize.py`` prints the figures.
"""

import tempfile

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from conformance.program.case import Case, InputSet
from conformance.program.flow import Cut, cuts, describe, follow, locations
from conformance.program.ir import For, Get, If, Input, OpStmt, OutVar, TensorCond, TensorSpec, While
from conformance.program.ops import OPS
from conformance.program.program import Program
from conformance.program.strategies import CONSTRUCTS, cases
from conformance.program.truncate import truncate
from conformance.render.lines import statement_lines
from conformance.triage.localize import Localisation, verdict

torch = pytest.importorskip("torch")

#: ops whose result size the data decides are left to their own test (their symbols tie a type to a variable)
_OPS = [name for name, rec in OPS.items() if not getattr(rec, "data_dependent", False)]


def _known() -> Program:
    body = (Get("v", "x0"), OpStmt("v", "tanh", ("v",)),
            If(TensorCond("v", "sum", ">", -100.0), (OpStmt("t", "sin", ("v",)), OpStmt("v", "add", ("v", "t"))),
               (OpStmt("v", "cos", ("v",)),)),
            While(TensorCond("v", "sum", ">", -100.0), 3, "c0", (OpStmt("v", "sigmoid", ("v",)),)),
            For("i0", 2, (OpStmt("v", "mul_scalar", ("v",), (("c", 1.5),)),)),
            OpStmt("w", "neg", ("v",)))
    return Program(0, (Input("x0", TensorSpec(("B", 4))),), (), (), body, OutVar("w"))


# ------------------------------------------------------------------ truncated programs (no framework)


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(cases(max_statements=8, max_depth=3, ops=_OPS, constructs=CONSTRUCTS))
def test_every_cut_of_a_drawn_program_truncates_to_a_program_that_type_checks(case):
    for cut in cuts(case.program):
        for options in ({}, {"taps": False, "keep_inputs": False}, {"markers": False}):
            trunc = truncate(case.program, cut, **options)
            assert Program.from_json(trunc.program.to_json()) == trunc.program  # type-checked on load
            assert len(trunc.outputs) == sum(1 for _ in trunc.program.output.items)


def test_a_value_of_another_dtype_is_tapped_as_float32():
    """float64, float16 and small-integer values at a cut become float32 outputs (a cast; int64 and bool:
    to_float), so a program with the edge dtypes truncates too (it refused: 'cast to float32 takes int64 or
    bool', on a seed-0 torch campaign's findings)."""
    for dtype in ("float64", "float16", "int32", "int8", "uint8", "int64", "bool"):
        op = "logical_not" if dtype == "bool" else "abs" if dtype.startswith("float") else "int_abs"
        body = (Get("a", "x0"), OpStmt("b", op, ("a",)))
        p = Program(0, (Input("x0", TensorSpec((2,), dtype)),), (), (), body, OutVar("b"))
        trunc = truncate(p, Cut((), 2))
        assert Program.from_json(trunc.program.to_json()) == trunc.program, dtype
        taps = [s for s in trunc.program.body if isinstance(s, OpStmt) and s.op in ("cast", "to_float")]
        assert taps and all(s.op == ("to_float" if dtype in ("int64", "bool") else "cast") for s in taps), dtype


def test_a_cut_inside_a_block_adds_no_control_flow_and_captures_at_the_first_arrival():
    p = _known()
    kinds = lambda prog: [type(s).__name__ for s in prog.walk() if type(s) in (If, While, For)]  # noqa: E731
    inside = truncate(p, Cut((2, "then"), 1))  # after t = sin(v), in the then-branch
    assert kinds(inside.program) == ["If"]  # the if itself, no new one: the statements after it are cut
    assert [o.role for o in inside.outputs] == ["value", "value", "branch", "reached"]
    assert [o.var for o in inside.outputs if o.role == "value"] == ["v", "t"]
    ops = [s.op for s in inside.program.walk() if isinstance(s, OpStmt)]
    assert "where" in ops and "lt" in ops  # captured where(first, value, captured)
    top = truncate(p, Cut((), 4))  # after the while: the if's and the while's counts are outputs
    assert kinds(top.program) == ["If", "While"]
    assert [o.role for o in top.outputs] == ["value", "branch", "iterations", "reached"]
    assert [o.at for o in top.outputs if o.role in ("branch", "iterations")] == [(2,), (3,)]


def test_an_input_returned_unchanged_goes_through_neg_and_unused_inputs_stay_used():
    body = (Get("a", "x0"), Get("b", "x1"), OpStmt("c", "add", ("a", "b")))
    p = Program(0, (Input("x0", TensorSpec((2,))), Input("x1", TensorSpec((2,)))), (), (), body, OutVar("c"))
    trunc = truncate(p, Cut((), 1))  # only x0 read so far; x1 is read later by the original
    assert [(o.role, o.var) for o in trunc.outputs if o.role == "input"] == [("input", "a"), ("input", "x1")]
    assert trunc.program.unused_inputs() == []
    assert not any(isinstance(o, str) and o in ("a", "b") for o in trunc.program.output.items)


def test_the_counts_are_built_from_an_input_that_cannot_be_empty():
    from conformance.program.ir import SeqSpec

    seq = SeqSpec("tuple", (TensorSpec((0, 3, 1)), TensorSpec((1, 1))))
    body = (Get("a", "x0", (0,)), Get("b", "x0", (1,)), OpStmt("c", "tanh", ("b",)))
    p = Program(0, (Input("x0", seq),), (), (), body, OutVar("c"))
    for cut in cuts(p):  # detach, which the counts go through, refuses an empty tensor: x0[1] is read instead
        trunc = truncate(p, cut)
        assert Program.from_json(trunc.program.to_json()) == trunc.program


def test_statement_lines_point_at_each_statement_in_every_framework():
    p = _known()
    for framework in ("torch", "paddle", "tf"):
        lines = statement_lines(p, framework)
        assert set(lines) == {loc for loc, _ in locations(p.body)}
        assert lines[(2,)][1].startswith("if ") and lines[(3,)][1].startswith("while c0 < 3 and ")
        assert lines[(4, "body", 0)][1] == "v = v * 1.5"


# ------------------------------------------------------------------ eager's path


def test_follow_gives_the_cuts_eager_reaches_in_the_order_it_first_reaches_them():
    from conformance.triage.localize_workers import eager_decisions

    p = _known()
    case = Case(p, (InputSet("example", 3, 0),))
    (decisions,) = eager_decisions(case, "torch")
    reached = follow(p, decisions, {})
    assert reached[0] == Cut((), 0) and reached[-1] == Cut((), len(p.body))
    assert Cut((2, "then"), 0) in reached and Cut((2, "orelse"), 0) not in reached  # tanh(x).sum() > -100
    assert reached.index(Cut((3, "body"), 1)) < reached.index(Cut((), 4))
    from conformance.triage.localize_workers import InProcess

    for cut in reached:  # eager reaches each of them in its truncated program too
        record = InProcess()(Case(truncate(p, cut).program, case.inputs), "torch.eager")
        assert record["outcome"] == "pass", describe(p, cut)


# ------------------------------------------------------------------ the bisection (torch.script, in process)


@pytest.fixture(scope="module")
def planted():
    import tests.planted_localize as planted_localize

    return planted_localize


@pytest.mark.parametrize("category", ["perturb_straight", "perturb_loop", "branch_straight", "branch_loop",
                                      "short_straight", "short_loop"])
def test_planted_faults_are_localised_to_their_statement(planted, category):
    from conformance.triage.localize import localize
    from conformance.triage.localize_workers import InProcess

    runner = InProcess()
    for p in planted.planted_cases(category, 3):
        record = runner(p.case, "torch.planted_loc_script")
        assert record["outcome"] == "mismatch"
        loc = localize(p.case, record, runner)
        assert (loc.status, tuple(loc.location), loc.kind) == ("found", p.location, p.kind), loc.markdown()
        assert loc.conversions <= 20 and loc.line and loc.source
        if p.kind == "value":
            assert loc.op and loc.value == "v" and loc.max_abs_err > 0
        else:
            assert loc.eager and loc.path_value and loc.eager != loc.path_value


def test_a_conversion_error_is_localised_to_the_first_statement_that_brings_it(planted):
    from conformance.triage.localize import localize
    from conformance.triage.localize_workers import InProcess

    body = (Get("v", "x0"), OpStmt("v", "tanh", ("v",)), OpStmt("v", "cos", ("v",)), OpStmt("v", "sigmoid", ("v",)),
            OpStmt("v", "sigmoid", ("v",)))
    case = Case(Program(0, (Input("x0", TensorSpec((2, 3))),), (), (), body, OutVar("v")), (InputSet("example", 1, 0),))
    runner = InProcess()
    record = runner(case, "torch.planted_loc_refuse_sigmoid")
    assert record["outcome"] == "conversion_error"
    loc = localize(case, record, runner)
    assert (loc.status, loc.kind, loc.location, loc.op) == ("found", "error", [3], "sigmoid")


def test_where_truncation_changes_the_bug_it_says_so_and_the_onnx_outputs_name_the_statement(planted):
    from conformance.triage.localize import localize
    from conformance.triage.localize_workers import InProcess

    case = planted.whole_model_case()
    runner = InProcess()
    record = runner(case, "torch.planted_loc_whole_model")
    assert record["outcome"] == "mismatch"
    loc = localize(case, record, runner)
    assert loc.status == "changed" and "changes the bug" in loc.message
    assert loc.fallback["location"] == [3] and loc.fallback["statement"] == "v = sin(v)"
    assert loc.fallback["line"] and "torch.sin" in loc.fallback["source"]
    assert "Intermediate outputs: no tensor of the ONNX file" in loc.markdown()
    assert "changes the bug; intermediate outputs: no tensor of the ONNX file" in loc.summary()  # the dashboard's


def test_the_localisation_round_trips_through_json_and_reads_as_markdown(planted):
    from conformance.triage.localize import localize
    from conformance.triage.localize_workers import InProcess

    p = planted.planted_case("branch_loop", 0)
    runner = InProcess()
    loc = localize(p.case, runner(p.case, "torch.planted_loc_script"), runner)
    again = Localisation.from_dict(loc.to_dict())
    assert again == loc
    assert again.summary().startswith("branch at line ")
    text = again.markdown()
    assert text.startswith("## First divergence") and f"{again.line}: " in text and "then-branch" in text


def test_a_localisation_travels_in_records_and_bucket_json(planted):
    from conformance.triage.first_divergence import attach, localize_record, markdown, summary_line
    from conformance.triage.localize_workers import InProcess

    p = planted.planted_case("perturb_straight", 2)
    record = InProcess()(p.case, "torch.planted_loc_script")
    loc = localize_record(record)
    assert loc.status == "found" and summary_line(record) == "not localised"
    attach(record, loc)
    assert record.to_json()["detail"]["localisation"]["location"] == list(p.location)
    assert summary_line(record) == summary_line({"localisation": loc.to_dict()}) == loc.summary()
    assert markdown({"record": record.to_json()}).startswith("## First divergence")


def test_what_is_not_a_finding_or_has_no_program_is_unavailable():
    from conformance.triage.localize import localize
    from conformance.triage.localize_workers import InProcess

    case = Case(_known(), (InputSet("example", 3, 0),))
    passing = InProcess()(case, "torch.script")
    assert localize(case, passing, InProcess()).status == "unavailable"
    empty = Case(Program(0, (Input("x0", TensorSpec((2,))),), (), (), (), OutVar("x0")), case.inputs)
    fake = {"framework": "torch", "path": "script", "outcome": "mismatch", "detail": {"message": ""}}
    assert localize(empty, fake, InProcess()).status == "unavailable"


def test_verdicts_compare_a_candidate_with_the_finding():
    finding = {"outcome": "conversion_error", "detail": {"message": "TypeError: shape [2, 3] is invalid at 0x7f01"}}
    error = lambda text: {"outcome": "conversion_error", "detail": {"message": text}}  # noqa: E731
    assert verdict(finding, error("TypeError: shape [4, 1] is invalid at 0x9a22"), 0)[0] == "same"  # as triage keys it
    assert verdict(finding, error("TypeError: cannot convert"), 0)[0] == "other"
    assert verdict(finding, {"outcome": "pass", "detail": {"message": ""}}, 0)[0] == "agree"
    mismatch = {"outcome": "mismatch", "detail": {"message": ""}}
    entry = lambda outcome: {"outcome": outcome, "detail": {"message": "", "inputs": [  # noqa: E731
        {"index": 0, "outcome": outcome, "message": ""}]}}
    assert [verdict(mismatch, entry(o), 0)[0] for o in ("mismatch", "pass", "runtime_error")] == \
        ["same", "agree", "other"]


# ------------------------------------------------------------------ in the worker


def test_the_worker_runs_candidates_and_tells_eager_decisions(planted, tmp_path):
    from conformance.triage.localize import localize
    from conformance.triage.localize_workers import LocalizeEvaluator

    p = planted.planted_case("short_loop", 1)
    with LocalizeEvaluator(("tests.planted_localize",), timeout=300, log=str(tmp_path / "worker.log")) as worker:
        record = worker(p.case, "torch.planted_loc_onnx_torchscript")
        loc = localize(p.case, record, worker)
    assert (loc.status, tuple(loc.location), loc.kind) == ("found", p.location, "iterations")


# ------------------------------------------------------------------ users' own models


@pytest.mark.parametrize("pid", ["torch.planted_module_script", "torch.planted_module_onnx_torchscript"])
def test_a_models_faulty_submodule_is_named(pid, tmp_path, monkeypatch):
    from conformance.paths.records import PATHS
    from conformance.triage.localize_models import localize_model
    from tests.planted_localize_models import Net

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # where the conversions' scratch folders go
    x = np.random.default_rng(0).uniform(-1, 1, (4, 6)).astype(np.float32)
    for faulty in ("blocks.0.act", "blocks.2.act"):
        result = localize_model(Net(faulty=faulty), [x], {}, PATHS[pid])
        assert (result.status, result.submodule) == ("found", faulty), result.summary()
        assert result.conversions <= 20
    healthy = localize_model(Net(), [x], {}, PATHS[pid])
    assert healthy.status == "none"
    assert list(tmp_path.iterdir()) == [], "localisation left its converted files behind"
