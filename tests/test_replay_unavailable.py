"""A path that specialises on kwargs differs on a kwargs input set: without a replay of eager on the example's
kwargs, a user's model (no probes) is a mismatch unless the conversion warned, and a model with state (its eager
calls ran once, in order) is not judged: whether the divergence is the documented specialisation or a bug, only the
replay could tell."""

from types import SimpleNamespace

import pytest

from conformance.judge.modes import ReplayUnavailable
from conformance.run import runner


class _NoReplay:
    def __init__(self, stateful: bool):
        self.stateful = stateful

    def reference(self, prep, run, kwargs, force):
        raise ReplayUnavailable("no replay here", stateful=self.stateful)


@pytest.mark.parametrize("stateful, warned, outcome", [
    (True, [], "discarded"),
    (False, [], "mismatch"),
])
def test_a_model_with_state_is_not_judged_where_eager_cannot_replay_the_example_kwargs(stateful, warned, outcome):
    path = SimpleNamespace(specializes=("kwargs",), id="paddle.to_static")
    example = SimpleNamespace(kwargs={"flag0": True}, stability=SimpleNamespace(decisions=()))
    run = SimpleNamespace(kwargs={"flag0": False})
    found, message, frozen = runner._judge_specialised(None, _NoReplay(stateful), path, run, example, None,
                                                       {"kwargs"}, warned)
    assert (found, frozen) == (outcome, None), message
    assert "paddle.to_static specialises on" in message
    assert ("eager cannot replay it" in message) == stateful
