"""The bar of first-divergence localisation on Paddle (``paddle.planted_loc_to_static``): see ``test_localize_bar.py``.
By default one case per kind runs; ``-m slow`` runs the ten."""

import pytest

pytest.importorskip("paddle")

from tests.test_localize_bar import CATEGORIES, check_bar  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def planted():
    import tests.planted_localize_paddle  # noqa: F401 - registers paddle.planted_loc_to_static


@pytest.mark.parametrize("category", CATEGORIES)
def test_planted_faults_are_localised(category):
    check_bar("paddle.planted_loc_to_static", category, 1)


@pytest.mark.slow
@pytest.mark.parametrize("category", CATEGORIES)
def test_the_bar_nine_of_ten_per_kind(category):
    check_bar("paddle.planted_loc_to_static", category, 10)


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
