"""The shapes a catalogue record takes, as factories: each returns a :class:`~conformance.paths.records.Limitation`
with its outcome set, so a component module reads as a list of what is wrong.

* :func:`refusal`: a documented refusal (``unsupported``); :func:`refuses_with` one told by its exception and
  message; :func:`missing_kernel` a runtime or converter with no kernel (translation, conversion rule) for an op;
* :func:`documented`: a mismatch that is the path's documented behaviour (``expected_divergence``);
* :func:`known_bug`: a bug (the outcome stays an error or a mismatch and the record names it);
  :func:`writes_wrong` a converter that writes some ops wrong (a mismatch on programs with those ops).
"""

from __future__ import annotations

from conformance.paths.limitation import Failure, Limitation

__all__ = ["Failure", "documented", "known_bug", "missing_kernel", "refusal", "refuses_with", "writes_wrong"]


def refusal(name: str, reason: str, **selectors) -> Limitation:
    """A documented refusal: a failure it selects is ``unsupported``."""
    return Limitation(reason, name=name, outcome="unsupported", **selectors)


def refuses_with(name: str, reason: str, errors: tuple, message: str, **selectors) -> Limitation:
    """A documented refusal told by the exception the framework raises and its message (a regular expression)."""
    return refusal(name, reason, errors=errors, message=message, **selectors)


def missing_kernel(name: str, reason: str, errors: tuple, **selectors) -> Limitation:
    """A runtime or converter that has no kernel (translation, conversion rule) for some ops: a documented gap,
    told by the exception (and usually the message naming the op)."""
    return refusal(name, reason, errors=errors, **selectors)


def documented(name: str, reason: str, **selectors) -> Limitation:
    """A mismatch that is the path's documented behaviour: ``expected_divergence``."""
    return Limitation(reason, name=name, outcome="expected_divergence", phases=selectors.pop("phases", ("compare",)),
                      **selectors)


def known_bug(name: str, reason: str, **selectors) -> Limitation:
    """A bug: the outcome stays an error or a mismatch, and the record names it (``detail.known_issue``)."""
    return Limitation(reason, name=name, outcome=None, **selectors)


def writes_wrong(name: str, reason: str, ops: tuple, **selectors) -> Limitation:
    """A converter that writes ``ops`` wrong: a mismatch (``phases=("compare",)``) on a program that uses one."""
    return known_bug(name, reason, ops=ops, phases=selectors.pop("phases", ("compare",)), **selectors)
