"""The corpus replay (oracles/test_cases.py) asks a fresh interpreter before it calls an outcome changed: a difference
only the long-lived test process shows is a warning, a difference the fresh process shows too fails the test."""

from types import SimpleNamespace

import pytest

pytest.importorskip("torch")

import oracles.test_cases as corpus  # noqa: E402

FILE = corpus.CASES / "torch-compile-expand-then-inplace-div.json"  # recorded: pass on torch.script


def _wrong(*_args):
    return SimpleNamespace(outcome="conversion_error", detail=SimpleNamespace(message="RuntimeError: state"))


def test_an_outcome_only_this_process_shows_is_a_warning(monkeypatch):
    monkeypatch.setattr(corpus, "replay", _wrong)
    case_file = corpus.load_case_file(FILE)
    with pytest.warns(UserWarning, match="conversion_error in this long-lived process .* pass in a fresh one"):
        corpus.test_case_outcome(None, FILE, "torch.script", case_file)


def test_an_outcome_the_fresh_process_shows_too_fails(monkeypatch):
    monkeypatch.setattr(corpus, "replay", _wrong)
    monkeypatch.setattr(corpus, "replay_fresh", _wrong)
    case_file = corpus.load_case_file(FILE)
    with pytest.raises(AssertionError, match="recorded pass, now conversion_error"):
        corpus.test_case_outcome(None, FILE, "torch.script", case_file)
