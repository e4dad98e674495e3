"""Python-level dynamism and the other effect constructs (issue 17): how often the generator draws each, that what
it draws is valid (type-checked, JSON round trip) and renders for every framework that has the construct, and that
each framework's eager run and its graph paths agree on the constructs they accept."""

import collections

import pytest
from hypothesis import HealthCheck, Phase, given, settings

from conformance.program.effects import EFFECT_CONSTRUCTS, EFFECT_OPS
from conformance.program.program import Program
from conformance.program.strategies import CONSTRUCTS, programs
from conformance.render.source import render

#: The frameworks every effect construct renders for (TensorFlow has no mutation: see test_mutation).
FRAMEWORKS = ("torch", "paddle")


def _draw(n: int) -> list[Program]:
    drawn = []

    @settings(max_examples=n, database=None, deadline=None, derandomize=True, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(programs(constructs=CONSTRUCTS + EFFECT_CONSTRUCTS, frameworks=FRAMEWORKS))
    def draw(p):
        drawn.append(p)

    draw()
    return drawn


def _shares(drawn) -> dict:
    counts = collections.Counter(c for p in drawn for c in p.constructs())
    return {c: counts[c] / len(drawn) for c in EFFECT_OPS + EFFECT_CONSTRUCTS}


def _valid(drawn) -> None:
    for p in drawn:
        assert Program.from_json(p.to_json()) == p  # type-checked on load
        for fw in FRAMEWORKS:
            compile(render(p, fw), f"{p.id}.py", "exec")
            compile(render(p, fw, probed=True), f"{p.id}-probed.py", "exec")


@pytest.mark.slow
def test_each_effect_construct_is_in_two_percent_of_2000_programs():
    drawn = _draw(2000)
    assert len(drawn) == 2000
    shares = _shares(drawn)
    assert min(shares.values()) >= 0.02, sorted(shares.items(), key=lambda kv: kv[1])[:5]
    _valid(drawn[::10])


def test_each_effect_construct_is_drawn_and_valid():
    """The CI version: 500 programs, each effect construct in at least 1% of them, all valid. (Fewer are not a
    fair sample: a derandomised draw's first few hundred programs favour the records early in each family.)"""
    drawn = _draw(500)
    shares = _shares(drawn)
    assert min(shares.values()) >= 0.01, sorted(shares.items(), key=lambda kv: kv[1])[:5]
    _valid(drawn)


def test_effects_are_opt_in():
    """Without the effect constructs (they are in the default: ``DEFAULT_CONSTRUCTS``), no effect statement is
    drawn."""
    @settings(max_examples=200, database=None, deadline=None, derandomize=True, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(programs(constructs=CONSTRUCTS))
    def draw(p):
        assert not p.constructs() & set(EFFECT_OPS + EFFECT_CONSTRUCTS)

    draw()
