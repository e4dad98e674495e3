"""Soundness of the oracle against inductor: 200 random clean cases, zero mismatches.

Inductor fuses kernels and reorders reductions; none of that may be reported. Slow (about four
minutes on two cores): run with ``pytest -m slow oracles/test_inductor_soundness.py``.
"""

import itertools

import pytest

pytest.importorskip("torch")

from conformance.paths.records import select_paths  # noqa: E402
from conformance.run.runner import check  # noqa: E402
from conformance.run.stream import generate_cases  # noqa: E402


@pytest.mark.slow
def test_inductor_has_no_mismatch_on_200_cases():
    path = select_paths(["torch"], ["compile"])[-1]
    records = [check(case, path) for case in itertools.islice(generate_cases(7), 200)]
    mismatches = [(r["case_id"], r["detail"]["message"]) for r in records if r["outcome"] == "mismatch"]
    assert not mismatches
    assert sum(r["outcome"] == "pass" for r in records) >= 180
