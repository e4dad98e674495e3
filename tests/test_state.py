"""Module state across calls (issue 17): buffers updated in forward and flags the caller changes between calls.
The model is called input set after input set, eager and converted alike, and judged on its outputs and its state
after each call; what converters do with state by design is a documented divergence, named by its record."""

import numpy as np
import pytest

pytest.importorskip("torch")

from conformance.judge.effects import discard_after_unstable  # noqa: E402
from conformance.judge.oracle import Stability  # noqa: E402
from conformance.paths import known  # noqa: E402
from conformance.paths.records import PATHS, load_framework  # noqa: E402
from conformance.program.case import Case, InputSet  # noqa: E402
from conformance.program.effects import stateful  # noqa: E402
from conformance.program.ir import Get, Input, OpStmt, OutSeq, OutVar, Param, TensorSpec  # noqa: E402
from conformance.program.program import Program  # noqa: E402
from conformance.render.source import render  # noqa: E402
from conformance.run.runner import check, prepare  # noqa: E402

from . import planted_effects  # noqa: E402,F401

load_framework("torch")


def _program(update="inplace"):
    body = (Get("v0", "x0"),
            OpStmt("v1", "state_counter", ("v0",), (("update", update),), ("p0",)),
            OpStmt("v2", "module_flag", ("v0",), (("flag", "switch1"), ("scale", -1.0))),
            OpStmt("v3", "state_cache", ("v0",), (), ("p1",)))
    params = (Param("p0", (1,), 0.0, trainable=False), Param("p1", (1,), 0.0, trainable=False))
    p = Program(5, (Input("x0", TensorSpec((2, 3))),), (), params, body, OutSeq("tuple", (OutVar("v1"),
                                                                                          OutVar("v2"), OutVar("v3"))))
    return Program.from_dict(p.to_dict())


def _case(program, calls=3):
    return Case(program, tuple(InputSet("example" if i == 0 else "values", 1, 1, ()) for i in range(calls)))


def test_state_and_flags_are_rendered_as_users_write_them():
    p = _program("rebind")
    assert stateful(p)
    source = render(p, "torch")
    assert "self.p0 = self.p0 + 1.0" in source and "self.p1.copy_(v0.mean().reshape(1))" in source
    assert "self.switch1 = True" in source and "def before_call(model, index):" in source
    assert "model.switch1 = (index + 1) % 2 == 0" in source
    assert "self.p0.assign_add(tf.ones_like(self.p0))" in render(p, "tf")  # TensorFlow: a variable, never rebound
    assert "paddle.assign(v0.mean().reshape([1]), self.p1)" in render(p, "paddle")


@pytest.mark.parametrize("update", ["inplace", "rebind"])
def test_calls_are_made_in_order_on_one_model(update):
    """The same inputs three times: eager's outputs move with its state, and eager along the runner agrees."""
    case = _case(_program(update))
    prep = prepare(case, "torch")
    counters = [run.eager["outputs"][0] / np.asarray(run.args[0]) for run in prep.runs]
    assert np.allclose([c.mean() for c in counters], [1.1, 1.2, 1.3], atol=1e-5)
    assert [float(run.eager["state"]["p0"][0]) for run in prep.runs] == [1.0, 2.0, 3.0]
    assert check(case, PATHS["torch.eager"]).outcome == "pass"
    assert check(case, PATHS["torch.planted_state_first_call"]).outcome == "mismatch"
    assert check(case, PATHS["torch.planted_flag_cached"]).outcome == "mismatch"


def test_a_flag_frozen_by_a_converter_is_a_documented_divergence():
    case = _case(_program())
    record = check(case, PATHS["torch.script"])
    assert record.outcome == "expected_divergence"
    assert known.record("python_state.attribute_frozen").reason in record.detail.message


def test_later_calls_of_a_stateful_model_are_discarded_after_a_discarded_one():
    class Run:
        def __init__(self, stable):
            self.stability = Stability(stable, "" if stable else "near a threshold")

    runs = [Run(True), Run(False), Run(True)]
    discard_after_unstable(runs)
    assert [r.stability.stable for r in runs] == [True, False, False]
    assert "earlier call" in runs[2].stability.reason


@pytest.mark.parametrize("framework", ["paddle", "tf"])
def test_eager_is_clean_on_state_in_other_frameworks(framework):
    pytest.importorskip({"paddle": "paddle", "tf": "tensorflow"}[framework])
    load_framework(framework)
    assert check(_case(_program()), PATHS[f"{framework}.eager"]).outcome == "pass"


def test_programs_with_effects_are_checked_in_infer_mode_only():
    record = check(_case(_program()), PATHS["torch.eager"], mode="grad")
    assert record.outcome == "unsupported" and "infer mode only" in record.detail.message
