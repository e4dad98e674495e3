"""Users' own Paddle models with a planted fault in one layer (:mod:`tests.planted_modules`), for the
module-level localisation self-tests (``--load tests.planted_localize_models_paddle``):
``paddle.planted_module_to_static``."""

from __future__ import annotations

import paddle

import conformance.paths.paddle  # noqa: F401 - registers the real paddle paths first
from tests.planted_modules import net_class, register_planted

Net = net_class(paddle.nn.Layer, paddle.nn.Linear, paddle.nn.LayerList, paddle.tanh, paddle.seed)

register_planted(("paddle.to_static",), "layers")
