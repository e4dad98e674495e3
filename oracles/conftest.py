"""The parity suites' Hypothesis sweeps of the costly paths outside the core run with ``-m slow``.

A path outside :data:`~conformance.run.costs.CORE` whose task costs at least :data:`COSTLY` seconds a program
(:data:`~conformance.run.costs.COSTS`: torch.compile and compile_dynamic, SOT, paddle2onnx) draws its examples
with ``-m slow`` (``pytest -m "slow or not slow" oracles/``), as its corpus passes do (``oracles/test_cases.py``):
a few examples of each cost a minute of the default run, on paths whose recorded bugs and refusals the corpus
still replays there. The core paths run every sweep in the default run.
"""

import pytest

#: Seconds a program (the cost table's prior) from which a non-core task's sweep is ``slow``.
COSTLY = 1.5


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects by marker
def pytest_collection_modifyitems(items):
    from conformance.run.costs import CORE, COSTS
    from conformance.run.runner import task_key

    for item in items:
        params = getattr(item, "callspec", None) and item.callspec.params
        path = params.get("conformance_path") if params else None
        if path is None or path.id in CORE:
            continue
        if COSTS.get(task_key(path.id, params.get("mode", "infer")), 0.0) >= COSTLY:
            item.add_marker(pytest.mark.slow)
