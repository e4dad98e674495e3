"""The planted localisation faults of :mod:`tests.planted_localize` on the tf paths
(``--load tests.planted_localize_tf``)."""

from tests.planted_localize import register_planted

PLANTED_PATHS = register_planted("tf")
