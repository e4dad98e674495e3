"""Users' own models with a planted fault in one submodule, for the module-level localisation self-tests, written
once for every framework with modules (``tests.planted_localize_models``: torch,
``tests.planted_localize_models_paddle``: Paddle).

The model (:func:`net_class`): three blocks and a head, ``blocks.0``, ``blocks.1``, ``blocks.2`` (each ``lin``
then ``act``), ``head``. A planted path (:func:`register_planted`) wraps a real conversion and converts a copy of
the model in which every submodule marked ``planted = True`` computes its output times 1.01: a converter that gets
one submodule wrong. Converted alone, such a submodule is still wrong; its siblings are right.
"""

from __future__ import annotations

import copy
from dataclasses import replace

from conformance.paths.records import PATHS, register


def net_class(base, linear, module_list, tanh, seed):
    """The model class of a framework: ``base`` its module class, ``linear``/``module_list`` its layers,
    ``tanh`` its function and ``seed`` what seeds its initialisers."""

    class Act(base):
        """tanh, or tanh times 1.01 in a converted copy of a submodule marked ``planted``."""

        def __init__(self):
            super().__init__()
            self.planted = False
            self.wrong = False

        def forward(self, x):
            y = tanh(x)
            if self.wrong:
                y = y * 1.01
            return y

    class Block(base):
        def __init__(self, n: int):
            super().__init__()
            self.lin = linear(n, n)
            self.act = Act()

        def forward(self, x):
            return self.act(self.lin(x))

    class Net(base):
        def __init__(self, n: int = 6, faulty: str = ""):
            super().__init__()
            seed(0)
            self.blocks = module_list([Block(n) for _ in range(3)])
            self.head = linear(n, 2)
            if faulty:
                submodule(self, faulty).planted = True

        def forward(self, x):
            for block in self.blocks:
                x = block(x)
            return self.head(x)

    return Net


def submodule(model, name: str):
    """The submodule of ``model`` named ``name`` (``blocks.1.act``)."""
    for part in name.split("."):
        model = model[int(part)] if part.isdigit() else getattr(model, part)
    return model


def _every_module(model):
    yield model
    for child in model.children():
        yield from _every_module(child)


def _wrong_copy(model):
    model = copy.deepcopy(model)
    for m in _every_module(model):
        if getattr(m, "planted", False):
            m.wrong = True
    return model


def register_planted(pids: tuple, what: str = "submodules") -> None:
    """Register ``<framework>.planted_module_<path>`` for each of ``pids``: the path, converting the wrong copy."""
    for pid in pids:
        real = PATHS[pid]

        def convert(ctx, real=real):
            return real.convert(replace(ctx, model=_wrong_copy(ctx.model)))

        register(replace(real, name="planted_module_" + real.name, convert=convert, default=False,
                         description=f"{real.description}, with the {what} marked planted 1% off"))
