"""The planted localisation faults of :mod:`tests.planted_localize` on the paddle paths
(``--load tests.planted_localize_paddle``)."""

from tests.planted_localize import register_planted

PLANTED_PATHS = register_planted("paddle")
