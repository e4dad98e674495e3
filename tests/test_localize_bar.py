"""The bar of first-divergence localisation: planted faults at a known statement (a perturbed op, a wrong branch
decision, a loop one iteration short; in straight-line code and inside loop bodies) are localised to that
statement, with the right kind of divergence, in at least 9 of 10 cases per kind, at most 20 conversions each.
One ONNX path (``onnx_torchscript``), two compile paths (``compile_aot_eager`` and, ``-m slow``, ``compile``:
inductor), TorchScript, ``paddle.to_static`` and ``tf.function``, each where its framework is installed. By
default one or two cases per kind run; ``-m slow`` runs the ten.
"""

import importlib

import pytest

CATEGORIES = ["perturb_straight", "perturb_loop", "branch_straight", "branch_loop", "short_straight", "short_loop"]
#: what each framework's planted paths need installed (conformance.paths.tf: it loads what comes first)
NEEDS = {"torch": ("torch", "onnxruntime"), "paddle": ("torch", "paddle"), "tf": ("torch", "conformance.paths.tf")}
#: the paths of the default run, with the cases per kind each
QUICK = [("torch.planted_loc_onnx_torchscript", 2), ("torch.planted_loc_compile_aot_eager", 2),
         ("paddle.planted_loc_to_static", 1), ("tf.planted_loc_function", 1)]
BAR = ["torch.planted_loc_onnx_torchscript", "torch.planted_loc_compile_aot_eager", "torch.planted_loc_script",
       "torch.planted_loc_compile", "paddle.planted_loc_to_static", "tf.planted_loc_function"]


def planted_path(pid: str) -> str:
    """Register the planted path ``pid`` (skip where its framework is not installed)."""
    framework = pid.split(".")[0]
    for module in NEEDS[framework]:
        pytest.importorskip(module)
    from tests.planted_localize import planted_module

    importlib.import_module(planted_module(pid))
    return pid


def check_bar(pid: str, category: str, n: int) -> None:
    from tests.planted_localize import localise_planted

    results = localise_planted(planted_path(pid), category, n)
    hits = sum(hit for hit, _ in results)
    misses = "\n".join(loc.markdown() for hit, loc in results if not hit)
    assert hits >= n - n // 10, f"{hits} of {n} localised along {pid}:\n{misses}"
    assert all(loc.conversions <= 20 for _, loc in results)


@pytest.mark.parametrize("category", CATEGORIES)
@pytest.mark.parametrize("pid, n", QUICK)
def test_planted_faults_are_localised(pid, n, category):
    check_bar(pid, category, n)


@pytest.mark.slow
@pytest.mark.parametrize("category", CATEGORIES)
@pytest.mark.parametrize("pid", BAR)
def test_the_bar_nine_of_ten_per_kind(pid, category):
    check_bar(pid, category, 10)


def check_drawn(pid: str, seed: int, n: int) -> None:
    """Faults planted at random statements of drawn programs (tests.planted_localize.drawn_planted): 9 of 10."""
    from conformance.triage.localize import localize
    from conformance.triage.localize_workers import InProcess
    from tests.planted_localize import drawn_planted

    runner = InProcess()
    cases = drawn_planted(seed, n, runner, planted_path(pid))
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
