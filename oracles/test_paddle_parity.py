"""The PaddlePaddle parity suite: generated programs along every selected Paddle path must agree with
dygraph.

A path may refuse a program with a documented error (``unsupported``: an input no output uses is
refused by ``jit.save`` and everything built on it, ``forward``'s first parameter must be named
``self``, paddle2onnx has no converter for some operators, a saved function keeps no parameters, the
bfloat16 AMP program needs oneDNN's bf16 kernels on the CPU) or diverge where it is documented to
specialise (``expected_divergence``: the ``input_spec`` fixes the non-tensor arguments of AST
``to_static``, the saved model, the predictor and the ONNX graph); anything else that is not a pass
(a silent mismatch, an undocumented conversion or runtime error) fails the test with the record's
message and the case as JSON, ready for ``conformance replay --frameworks paddle``.

A failure that matches a known-bug record of the path is not a new finding: it is counted as a
Hypothesis event naming the bug (``--hypothesis-show-statistics``) and the test goes on with its other
examples. (Raising an xfail inside the property would end the test at the first known bug, of which
current Paddle has several common ones, and make Hypothesis shrink it.) The minimal cases of the
known bugs in ``cases/`` pin their outcomes, so a fix upstream is noticed there.
"""

import pytest
from hypothesis import given

from conformance.plugin import judge
from conformance.program.strategies import CONSTRUCTS, cases
from conformance.run.runner import check

pytestmark = pytest.mark.conformance_frameworks("paddle")


@given(case=cases(constructs=CONSTRUCTS))
def test_path_agrees_with_eager(conformance_path, conformance_device, case):
    judge(check(case, conformance_path, conformance_device), case, known_bugs="event")
