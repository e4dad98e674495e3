"""The IR: exact JSON round trips, and malformed programs fail with a message naming the problem."""

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, find, given, settings

from conformance.program.case import Case
from conformance.program.ir import ProgramError
from conformance.program.ops import OPS
from conformance.program.program import Program
from conformance.program.strategies import CONSTRUCTS, cases, programs
from conformance.program.typecheck import check_program

fast = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))


@fast
@given(programs())
def test_json_round_trip_is_exact(p):
    text = p.to_json()
    again = Program.from_json(text)
    assert again == p and again.to_json() == text and again.id == p.id


@fast
@given(cases())
def test_generated_programs_type_check(case):
    check_program(case.program)
    assert Case.from_dict(json.loads(json.dumps(case.to_dict()))) == case


def test_there_are_at_least_30_op_records_with_torch_emitters():
    assert sum("torch" in rec.frameworks for rec in OPS.values()) >= 30
    assert all(rec.missing.get("torch") for rec in OPS.values() if "torch" not in rec.frameworks)
    families = {rec.family for rec in OPS.values()}
    assert {"elementwise", "activation", "reduction", "linalg", "shape", "comparison", "cast"} <= families


def _program(body, output="v0"):
    return {"format": 1, "seed": 0, "kwargs": [], "params": [],
            "inputs": [{"name": "x", "spec": {"kind": "tensor", "shape": [2, 3], "dtype": "float32",
                                              "low": -1.0, "high": 1.0}}],
            "body": [{"kind": "get", "out": "v0", "source": "x", "path": []}] + body,
            "output": {"kind": "var", "name": output}}


@pytest.mark.parametrize("body, output, message", [
    ([{"kind": "op", "out": "v1", "op": "frobnicate", "args": ["v0"]}], "v0", "unknown op 'frobnicate'"),
    ([{"kind": "op", "out": "v1", "op": "relu", "args": ["v9"]}], "v0", "uses 'v9' before it is assigned"),
    ([{"kind": "py", "out": "v0", "op": "none", "args": []},
      {"kind": "op", "out": "v1", "op": "relu", "args": ["v0"]}], "v1", "needs a tensor; 'v0' holds None"),
    ([{"kind": "break"}], "v0", "break outside a loop"),
    ([{"kind": "op", "out": "v1", "op": "sum", "args": ["v0"], "attrs": {"dim": 5, "keepdim": False}}], "v0",
     "dim 5 out of range"),
    ([{"kind": "if", "cond": {"kind": "tensor", "var": "v0", "reduce": "sum", "cmp": ">", "value": 0.0},
       "then": [{"kind": "op", "out": "v5", "op": "relu", "args": ["v0"]}]}], "v5", "output 'v5' is not assigned"),
    ([{"kind": "teleport"}], "v0", "unknown statement kind"),
])
def test_malformed_programs_are_named(body, output, message):
    with pytest.raises(ProgramError, match=message):
        Program.from_dict(_program(body, output))


def test_bad_json_and_bad_format():
    with pytest.raises(ProgramError, match="not valid JSON"):
        Program.from_json("{nope")
    with pytest.raises(ProgramError, match="format"):
        Program.from_dict({"format": 99})
    with pytest.raises(ProgramError, match="malformed program"):
        Program.from_dict({"format": 1, "seed": 0})


@pytest.mark.slow  # 30 s (a fresh interpreter); the edge shrinking checks are slow too
def test_shrinking_gives_small_programs():
    """A 'failure' that needs a while loop and a dict input shrinks to a handful of statements."""
    full = settings(settings.get_profile("default"), max_examples=2000, database=None, derandomize=True,
                    suppress_health_check=list(HealthCheck))  # the shrink phase, one seed
    p = find(programs(), lambda p: {"while_tensor", "dict_input"} <= p.constructs(), settings=full)
    assert p.size() <= 8, p
    assert all(d in (1, "B") or d <= 2 for leaf in p.input_leaves() for d in leaf.shape)


def derandomised_draws() -> list[str]:
    """The ids of the programs a derandomised test draws (as under the ``ci`` profile)."""
    ids = []

    @settings(max_examples=12, database=None, derandomize=True, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(programs())
    def draw(p):
        ids.append(p.id)

    draw()
    return ids


def test_a_derandomised_test_draws_the_same_in_the_suite_as_alone():
    """The ``ci`` profile's promise, the same cases on every run: Hypothesis mixes the constants of every local
    module imported so far into its draws (this process has imported the test modules and rendered models that
    its xdist worker happened to get); the plugin empties that pool for the run (``seed_alone``), so a bare
    interpreter draws the same programs."""
    import subprocess
    import sys

    code = ("from conformance.program.strategies import seed_alone\n"
            "from tests.test_ir import derandomised_draws\n"
            "with seed_alone():\n"
            "    print(' '.join(derandomised_draws()))\n")
    alone = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           cwd=Path(__file__).resolve().parent.parent).stdout.split()
    assert derandomised_draws() == alone


def test_constructs_are_all_reachable():
    seen = set()

    @settings(max_examples=150, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(programs(constructs=CONSTRUCTS))
    def collect(p):
        seen.update(p.constructs())

    collect()
    wanted = {"if_tensor", "if_kwarg", "if_shape", "while_tensor", "for_const", "for_kwarg", "break", "continue",
              "early_return", "nested_input", "dict_input", "list_input", "kwargs", "dynamic_dim", "inplace"}
    assert wanted <= seen, wanted - seen
    assert set(CONSTRUCTS)  # the public list is there to pass to programs(constructs=...)


def test_importing_conformance_imports_no_framework():
    import subprocess
    import sys

    code = ("import sys, conformance, conformance.program.strategies, conformance.judge.oracle, conformance.paths, "
            "conformance.cli; "
            "bad = [m for m in ('torch', 'paddle', 'tensorflow', 'onnxruntime') if m in sys.modules]; "
            "assert not bad, bad")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True).returncode == 0
