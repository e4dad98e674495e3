"""The TensorFlow parity suite: generated programs along every selected TensorFlow path must agree
with eager.

A path may refuse a program with a documented error (``unsupported``: a tensor-dependent ``break`` in
a Python ``for``, XLA on a while loop whose variable changes shape) or diverge where it is
documented to specialise (``expected_divergence``: tf2onnx fixes the kwargs at export, the TF1 graph of
``tf.session`` when it is built); anything else
that is not a pass (a silent mismatch, an undocumented conversion or runtime error) fails the test with
the record's message and the case as JSON, ready for ``conformance replay --frameworks tf``. A failure
that matches a known-bug record of the path is an xfail naming the bug.

Every kwargs value a case uses must give the eager answer on ``tf.function``, XLA and the SavedModel
(one trace, or concrete function, per value); the retrace counts are in the record's
``detail.counters``.
"""

import pytest
from hypothesis import given

from conformance.plugin import judge
from conformance.program.ops import TRIAGED_OPS
from conformance.program.strategies import CONSTRUCTS, cases
from conformance.run.runner import check

pytestmark = pytest.mark.conformance_frameworks("tf")


@given(case=cases(ops=TRIAGED_OPS, constructs=CONSTRUCTS))
def test_path_agrees_with_eager(conformance_path, conformance_device, case):
    judge(check(case, conformance_path, conformance_device), case)
