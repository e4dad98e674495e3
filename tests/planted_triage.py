"""Deliberately wrong torch paths for the triage self-tests
(``conformance fuzz --load tests.planted_triage --paths planted_faults,planted_while``).

A conversion here rewrites the model's own source (:func:`tests.planted_triage_faults.rewrite_source`,
standalone, so a generated ``repro.py`` copies it and shows the same faults with nothing but torch and
numpy). ``planted_faults`` has three distinct faults, ``planted_while`` the first alone:

* every ``while`` loop stops after two iterations (wrong only where a loop runs more than twice);
* ``torch.sigmoid`` comes out 1% too large;
* a model with a ``dict`` input is refused with an error that names the input and an address.
"""

from functools import partial

import conformance.paths.torch  # noqa: F401 - registers the real torch paths first
from conformance.paths.records import PathRecord, register
from conformance.paths.torch.conversions import call
from tests.planted_triage_faults import rewrite_source


def _planted(name: str, faults: tuple, description: str) -> PathRecord:
    return PathRecord("torch", name, description, partial(rewrite_source, faults=faults), call, default=False)


register(_planted("planted_faults", ("while", "sigmoid", "dict"),
                  "caps while loops at 2 iterations, sigmoid 1% off, refuses dict inputs"),
         _planted("planted_while", ("while",), "caps while loops at 2 iterations"))
