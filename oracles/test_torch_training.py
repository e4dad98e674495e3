"""The training parity suite: along every selected path that autograd differentiates, generated
programs (with dropout, batch norm, detach, and train() or eval() chosen before conversion) must give
eager's gradients (``grad`` mode) and eager's losses, parameters and batch-norm statistics after SGD and
Adam steps (``train`` mode); see :mod:`conformance.judge.training`.

Accepted outcomes are those of the inference suite (``oracles/test_torch_parity.py``); a mismatch
that matches a known-bug record of the path is an xfail naming the bug. A path without the mode is
skipped. Each example converts and trains, so this suite draws a third of the active Hypothesis
profile's examples (2 under ``ci``, 66 under ``nightly``).
"""

import pytest
from hypothesis import given, settings

from conformance.plugin import judge
from conformance.program.strategies import CONSTRUCTS, TRAIN_CONSTRUCTS, cases
from conformance.run.runner import check


@pytest.mark.parametrize("mode", ["grad", "train"])
@settings(max_examples=max(2, settings.default.max_examples // 3))
@given(case=cases(constructs=CONSTRUCTS + TRAIN_CONSTRUCTS))
def test_path_trains_like_eager(conformance_path, conformance_device, mode, case):
    if mode not in conformance_path.modes:
        pytest.skip(f"{conformance_path.id} has no {mode} mode")
    judge(check(case, conformance_path, conformance_device, mode=mode), case)  # the guard covers every training step


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["grad", "train"])
def test_inductor_trains_like_eager_on_30_cases(mode):
    """Soundness of the gradient and training-step oracles against inductor (fused kernels, reordered
    reductions in the backward too): 30 campaign cases, no mismatch. About ten minutes per mode on two cores."""
    import itertools

    pytest.importorskip("torch")
    from conformance.paths.records import select_paths
    from conformance.run.stream import generate_cases

    path = select_paths(["torch"], ["compile"])[-1]
    cases_ = itertools.islice(generate_cases(7, constructs=CONSTRUCTS + TRAIN_CONSTRUCTS), 30)
    records = [check(case, path, mode=mode) for case in cases_]
    mismatches = [(r["case_id"], r["detail"]["message"]) for r in records if r["outcome"] == "mismatch"]
    assert not mismatches
    assert sum(r["outcome"] == "pass" for r in records) >= 24
