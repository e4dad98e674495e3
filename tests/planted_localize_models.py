"""Users' own models with a planted fault in one submodule, for the module-level localisation self-tests
(``--load tests.planted_localize_models``).

A planted path wraps a real torch conversion (``script``, ``onnx_torchscript``) and converts a copy of the
model in which every submodule marked ``planted = True`` computes its output times 1.01: a converter that
gets one submodule wrong. Converted alone, such a submodule is still wrong; its siblings are right.
"""

from __future__ import annotations

import copy
from dataclasses import replace

import torch

import conformance.paths.torch  # noqa: F401 - registers the real torch paths first
from conformance.paths.records import PATHS, register


class Act(torch.nn.Module):
    """tanh, or tanh times 1.01 in a converted copy of a submodule marked ``planted``."""

    def __init__(self):
        super().__init__()
        self.planted = False
        self.wrong = False

    def forward(self, x):
        y = torch.tanh(x)
        if self.wrong:
            y = y * 1.01
        return y


class Block(torch.nn.Module):
    def __init__(self, n: int):
        super().__init__()
        self.lin = torch.nn.Linear(n, n)
        self.act = Act()

    def forward(self, x):
        return self.act(self.lin(x))


class Net(torch.nn.Module):
    """Three blocks and a head: ``blocks.0``, ``blocks.1``, ``blocks.2`` (each ``lin`` then ``act``), ``head``."""

    def __init__(self, n: int = 6, faulty: str = ""):
        super().__init__()
        torch.manual_seed(0)
        self.blocks = torch.nn.ModuleList([Block(n) for _ in range(3)])
        self.head = torch.nn.Linear(n, 2)
        if faulty:
            self.get_submodule(faulty).planted = True

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return self.head(x)


def _wrong_copy(model):
    model = copy.deepcopy(model)
    for m in model.modules():
        if getattr(m, "planted", False):
            m.wrong = True
    return model


def _planted(real):
    def convert(ctx):
        return real.convert(replace(ctx, model=_wrong_copy(ctx.model)))
    return convert


for _pid in ("torch.script", "torch.onnx_torchscript", "torch.trace"):
    _real = PATHS[_pid]
    register(replace(_real, name="planted_module_" + _real.name, convert=_planted(_real), default=False,
                     description=f"{_real.description}, with the submodules marked planted 1% off"))
