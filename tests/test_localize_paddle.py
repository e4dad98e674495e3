"""Module-level localisation of a Paddle model (forward post hooks, layers converted alone with to_static); the
bar on ``paddle.planted_loc_to_static`` is in ``test_localize_bar.py``."""

import pytest

pytest.importorskip("paddle")


def test_a_paddle_models_faulty_layer_is_named():
    import numpy as np

    from conformance.paths.records import PATHS
    from conformance.triage.localize_models import localize_model
    from tests.planted_localize_models_paddle import Net

    x = np.random.default_rng(0).uniform(-1, 1, (4, 6)).astype(np.float32)
    path = PATHS["paddle.planted_module_to_static"]
    for faulty in ("blocks.1.act", "blocks.2.act"):
        result = localize_model(Net(faulty=faulty), [x], {}, path)
        assert (result.status, result.submodule, result.method) == ("found", faulty, "alone"), result.summary()
    assert localize_model(Net(), [x], {}, path).status == "none"
