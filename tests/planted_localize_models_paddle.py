"""The planted submodule fault of :mod:`tests.planted_localize_models` on a Paddle model
(``--load tests.planted_localize_models_paddle``): ``paddle.planted_module_to_static`` converts a copy of the
model in which every layer marked ``planted = True`` computes its output times 1.01."""

from __future__ import annotations

import copy
from dataclasses import replace

import paddle

import conformance.paths.paddle  # noqa: F401 - registers the real paddle paths first
from conformance.paths.records import PATHS, register


class Act(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.planted = False
        self.wrong = False

    def forward(self, x):
        y = paddle.tanh(x)
        if self.wrong:
            y = y * 1.01
        return y


class Block(paddle.nn.Layer):
    def __init__(self, n: int):
        super().__init__()
        self.lin = paddle.nn.Linear(n, n)
        self.act = Act()

    def forward(self, x):
        return self.act(self.lin(x))


class Net(paddle.nn.Layer):
    """Three blocks and a head: ``blocks.0``, ``blocks.1``, ``blocks.2`` (each ``lin`` then ``act``), ``head``."""

    def __init__(self, n: int = 6, faulty: str = ""):
        super().__init__()
        paddle.seed(0)
        self.blocks = paddle.nn.LayerList([Block(n) for _ in range(3)])
        self.head = paddle.nn.Linear(n, 2)
        if faulty:
            layer = self
            for part in faulty.split("."):
                layer = getattr(layer, part) if not part.isdigit() else layer[int(part)]
            layer.planted = True

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return self.head(x)


def _wrong_copy(model):
    model = copy.deepcopy(model)
    for layer in model.sublayers(include_self=True):
        if getattr(layer, "planted", False):
            layer.wrong = True
    return model


def _planted(real):
    def convert(ctx):
        return real.convert(replace(ctx, model=_wrong_copy(ctx.model)))
    return convert


_real = PATHS["paddle.to_static"]
register(replace(_real, name="planted_module_to_static", convert=_planted(_real), default=False,
                 description=f"{_real.description}, with the layers marked planted 1% off"))
