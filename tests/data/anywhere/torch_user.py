"""A torch model as a user's file holds it, loaded by file path in the tests (never imported by name): a class at
module level and a factory whose class is made inside it."""

from __future__ import annotations

from typing import Optional

import torch
from torch import Tensor


class Gate(torch.nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.lin = torch.nn.Linear(4, 4)

    def forward(self, x: Tensor, bias: Optional[Tensor] = None, use_act: bool = True):
        h = self.lin(x)
        if bias is not None:
            h = h + bias
        if h.sum() > 0:
            h = h * 2
        else:
            h = h - 1
        if use_act:
            h = torch.relu(h)
        return h


def make_model(scale: float = 0.5):
    """A model whose class exists only inside this call."""

    class Scaled(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.gate = Gate()
            self.scale = scale

        def forward(self, x):
            return self.gate(x) * self.scale

    return Scaled()


def example():
    g = torch.Generator().manual_seed(1)
    return [torch.randn(3, 4, generator=g)], {}
