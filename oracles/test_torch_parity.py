"""The PyTorch parity suite: generated programs along every selected path must agree with eager.

A path may refuse a program with a documented error (``unsupported``) or diverge where it is
documented to specialise (``expected_divergence``: trace freezes control flow and kwargs); anything
else that is not a pass (a silent mismatch, an undocumented conversion or runtime error) fails the
test with the record's message and the case as JSON, ready for ``conformance replay``. A failure that
matches a known-bug record of the path is an xfail naming the bug.
"""

import pytest
from hypothesis import given

from conformance.plugin import judge
from conformance.program.ops import TRIAGED_OPS
from conformance.program.strategies import CONSTRUCTS, cases
from conformance.run.runner import check

pytestmark = pytest.mark.conformance_frameworks("torch")


@given(case=cases(ops=TRIAGED_OPS, constructs=CONSTRUCTS))
def test_path_agrees_with_eager(conformance_path, conformance_device, case):
    judge(check(case, conformance_path, conformance_device), case)
