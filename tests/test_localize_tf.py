"""The bar of first-divergence localisation on TensorFlow (``tf.planted_loc_function``): see ``test_localize_bar.py``.
By default one case per kind runs; ``-m slow`` runs the ten."""

import pytest

pytest.importorskip("conformance.paths.tf", reason="tensorflow is not installed")  # it loads what comes first

from tests.test_localize_bar import CATEGORIES, check_bar  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def planted():
    import tests.planted_localize_tf  # noqa: F401 - registers tf.planted_loc_function


@pytest.mark.parametrize("category", CATEGORIES)
def test_planted_faults_are_localised(category):
    check_bar("tf.planted_loc_function", category, 1)


@pytest.mark.slow
@pytest.mark.parametrize("category", CATEGORIES)
def test_the_bar_nine_of_ten_per_kind(category):
    check_bar("tf.planted_loc_function", category, 10)
