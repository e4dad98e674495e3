"""Programs that mutate and alias (issue 17): views written through, slice and mask assignment, in-place writes to
inputs, rendered as users write them and judged on the inputs after each call as well as the outputs; planted
faults in these effects are caught by a campaign, and eager itself is judged clean on the same streams."""

import json
import time

import pytest

pytest.importorskip("torch")

from conformance.paths.records import PATHS, load_framework  # noqa: E402
from conformance.program.case import Case, InputSet  # noqa: E402
from conformance.program.effects import EFFECT_CONSTRUCTS, mutates_inputs  # noqa: E402
from conformance.program.ir import Get, Input, OpStmt, OutVar, TensorSpec  # noqa: E402
from conformance.program.ops import OPS  # noqa: E402
from conformance.program.program import Program  # noqa: E402
from conformance.program.strategies import CONSTRUCTS  # noqa: E402
from conformance.render.source import render  # noqa: E402
from conformance.run.campaign import Campaign, CampaignOptions  # noqa: E402
from conformance.run.runner import check  # noqa: E402

from . import planted_effects  # noqa: E402,F401

load_framework("torch")


def _program(*body, output="v1", shape=(2, 3)):
    inputs = (Input("x0", TensorSpec(shape)),)
    return Program.from_dict(Program(7, inputs, (), (), (Get("v0", "x0"),) + tuple(body), OutVar(output)).to_dict())


def _case(program):
    return Case(program, (InputSet("example", 1, 1, ()), InputSet("values", 1, 2, ())))


def test_an_input_written_in_place_is_judged_after_the_call():
    p = _program(OpStmt("v0", "input_inplace", ("v0",), (("dim", 1), ("kind", "setitem"), ("scale", -1.0))),
                 OpStmt("v1", "tanh", ("v0",)))
    assert mutates_inputs(p)
    source = render(p, "torch")
    assert "        v0[:, :1] = v0[:, :1] * -1.0\n" in source  # as a user writes it, into the caller's tensor
    assert check(_case(p), PATHS["torch.eager"]).outcome == "pass"
    dropped = check(_case(p), PATHS["torch.planted_drops_input_write"])
    assert dropped.outcome == "mismatch"
    assert "['inputs'][0]" in dropped.detail.message and "['outputs']" not in dropped.detail.message


def test_an_input_rewritten_by_an_in_place_unary_op_after_a_read():
    """y = tanh(x); x.tanh_(): y keeps the values read before the write, the caller sees the write."""
    p = _program(OpStmt("v1", "tanh", ("v0",)),
                 OpStmt("v0", "input_inplace", ("v0",), (("dim", 0), ("kind", "tanh"), ("scale", 2.0))),
                 OpStmt("v2", "add", ("v1", "v0")), output="v2")
    assert mutates_inputs(p)
    assert "        v1 = torch.tanh(v0)\n        v0.tanh_()\n" in render(p, "torch")
    assert "v0.tanh_()" in render(p, "paddle")
    assert check(_case(p), PATHS["torch.eager"]).outcome == "pass"
    dropped = check(_case(p), PATHS["torch.planted_drops_input_write"])
    assert dropped.outcome == "mismatch" and "['inputs'][0]" in dropped.detail.message


@pytest.mark.parametrize("view", ["narrow", "select", "transpose", "unsqueeze", "flatten", "reshape"])
def test_a_view_read_after_a_write_to_its_base(view):
    p = _program(OpStmt("v1", "base_write", ("v0",), (("dim", 1), ("scale", -1.0), ("view", view))))
    source = render(p, "torch")
    assert "v1_b.mul_(-1.0)" in source and "v1 = v1_v" in source
    assert check(_case(p), PATHS["torch.eager"]).outcome == "pass"
    assert check(_case(p), PATHS["torch.script"]).outcome == "pass"
    assert check(_case(p), PATHS["torch.planted_stale_view"]).outcome == "mismatch"


@pytest.mark.parametrize("view", ["narrow", "select", "transpose", "reshape"])
def test_a_view_read_after_an_assignment_into_its_base(view):
    p = _program(OpStmt("v1", "base_setitem", ("v0",), (("dim", 1), ("scale", -1.0), ("view", view))))
    assert "v1_b[:1] = v1_b[:1] * -1.0" in render(p, "torch") and "v1 = v1_v" in render(p, "paddle")
    assert check(_case(p), PATHS["torch.eager"]).outcome == "pass"
    assert check(_case(p), PATHS["torch.script"]).outcome == "pass"
    assert check(_case(p), PATHS["torch.planted_stale_view"]).outcome == "mismatch"


def test_tensorflow_has_no_mutation_and_says_so():
    for name, rec in OPS.items():
        if rec.family == "mutation":
            assert "tf" not in rec.emit and "immutable" in rec.missing["tf"], name
    p = _program(OpStmt("v1", "view_write", ("v0",), (("dim", 0), ("scale", 2.0), ("view", "narrow"))))
    with pytest.raises(Exception, match="no tf emitter"):
        render(p, "tf")


def _campaign(tmp_path, path, constructs, max_cases):
    opts = CampaignOptions(seed=0, budget=120, max_cases=max_cases, paths=[PATHS[path]], workers=1, out=tmp_path,
                           modules=["tests.planted_effects"],
                           generator={"constructs": CONSTRUCTS + constructs, "frameworks": ("torch",)})
    started = time.monotonic()
    Campaign(opts).run()
    records = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    return records, time.monotonic() - started


@pytest.mark.parametrize("path,construct", [("planted_drops_input_write", "mutation"),
                                            ("planted_stale_view", "mutation"),
                                            ("planted_state_first_call", "module_state"),
                                            ("planted_flag_cached", "module_state")])
def test_planted_effect_faults_are_caught_by_a_campaign_within_two_minutes(tmp_path, path, construct):
    # 120 cases: the steered stream opens programs with focus statements, so an effect meets its fault later
    # (planted_flag_cached: at case 83 of seed 0; the plain stream at 34)
    records, took = _campaign(tmp_path, f"torch.{path}", (construct,), 120)
    assert took < 120
    assert any(r["outcome"] == "mismatch" for r in records), [r["detail"]["message"] for r in records]


def test_eager_is_clean_on_the_effect_streams(tmp_path):
    """The same streams along eager itself: every effect judged, no rounding noise flagged."""
    records, _ = _campaign(tmp_path, "torch.eager", EFFECT_CONSTRUCTS, 40)
    outcomes = {r["outcome"] for r in records}
    assert outcomes <= {"pass", "discarded"}, [r["detail"]["message"] for r in records if r["outcome"] != "pass"]
    assert sum(r["outcome"] == "pass" for r in records) >= 30
