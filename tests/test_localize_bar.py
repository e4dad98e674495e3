"""The bar of first-divergence localisation on torch paths: planted faults at a known statement (a perturbed op,
a wrong branch decision, a loop one iteration short; in straight-line code and inside loop bodies) are localised
to that statement, with the right kind of divergence, in at least 9 of 10 cases per kind, at most 20
conversions each. One ONNX path (``onnx_torchscript``), two compile paths (``compile_aot_eager`` and, ``-m
slow``, ``compile``: inductor) and TorchScript; TensorFlow and Paddle in ``test_localize_tf.py`` and
``test_localize_paddle.py``. By default two cases per kind run; ``-m slow`` runs the ten.
"""

import pytest

pytest.importorskip("torch")
pytest.importorskip("onnxruntime")

CATEGORIES = ["perturb_straight", "perturb_loop", "branch_straight", "branch_loop", "short_straight", "short_loop"]


def check_bar(pid: str, category: str, n: int) -> None:
    from tests.planted_localize import localise_planted

    results = localise_planted(pid, category, n)
    hits = sum(hit for hit, _ in results)
    misses = "\n".join(loc.markdown() for hit, loc in results if not hit)
    assert hits >= n - n // 10, f"{hits} of {n} localised along {pid}:\n{misses}"
    assert all(loc.conversions <= 20 for _, loc in results)


@pytest.mark.parametrize("category", CATEGORIES)
@pytest.mark.parametrize("pid", ["torch.planted_loc_onnx_torchscript", "torch.planted_loc_compile_aot_eager"])
def test_planted_faults_are_localised(pid, category):
    check_bar(pid, category, 2)


@pytest.mark.slow
@pytest.mark.parametrize("category", CATEGORIES)
@pytest.mark.parametrize("pid", ["torch.planted_loc_onnx_torchscript", "torch.planted_loc_compile_aot_eager",
                                 "torch.planted_loc_script", "torch.planted_loc_compile"])
def test_the_bar_nine_of_ten_per_kind(pid, category):
    check_bar(pid, category, 10)


def check_drawn(pid: str, seed: int, n: int) -> None:
    """Faults planted at random statements of drawn programs (tests.planted_localize.drawn_planted): 9 of 10."""
    from conformance.triage.localize import localize
    from conformance.triage.localize_workers import InProcess
    from tests.planted_localize import drawn_planted

    runner = InProcess()
    cases = drawn_planted(seed, n, runner, pid)
    assert len(cases) == n
    results = [(p, localize(p.case, runner(p.case, pid), runner)) for p in cases]
    misses = [f"{p.category} at {p.location}: {loc.markdown()}" for p, loc in results
              if (loc.status, tuple(loc.location or ()), loc.kind) != ("found", p.location, p.kind)]
    assert len(misses) <= n // 10, "\n".join(misses)


def test_faults_planted_in_drawn_programs_are_localised():
    check_drawn("torch.planted_loc_script", 0, 10)


@pytest.mark.slow
@pytest.mark.parametrize("pid", ["torch.planted_loc_onnx_torchscript", "torch.planted_loc_compile_aot_eager",
                                 "torch.planted_loc_script"])
def test_faults_planted_in_drawn_programs_nine_of_ten(pid):
    check_drawn(pid, 1, 30)
