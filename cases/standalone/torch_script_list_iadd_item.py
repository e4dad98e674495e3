"""TorchScript: ``a += b`` where ``a`` is a ``List[float]`` and ``b = [x.mean().item()]``.

Eager Python extends ``a`` in place. ``torch.jit.script`` types ``Tensor.item()`` as ``number`` (a Scalar), so the
unannotated list literal ``b`` is a ``List[number]``, and the augmented assignment finds no ``aten::add_`` for a
``List[float]`` and a ``List[number]``: "Arguments for call are not valid" (``a.extend(b)`` fails alike;
``b: List[float] = [float(x.mean())]`` compiles). A refusal where eager runs. Case ``torch-script-list-iadd-item.json``.
Needs numpy and torch; exits 1 while script refuses.
"""

import sys
from typing import List

import numpy as np
import torch


class Model(torch.nn.Module):
    def forward(self, x: torch.Tensor):
        a: List[float] = []
        a.append(x.mean().item())
        b = [x.mean().item()]
        a += b
        return x * len(a)


x = torch.from_numpy(np.ones((2, 3), np.float32))
print("torch", torch.__version__, "eager:", Model()(x).sum().item())
try:
    print("script:", torch.jit.script(Model())(x).sum().item())
except RuntimeError as e:  # the refusal is the finding
    print("script refuses:", " ".join(str(e).split())[:300])
    sys.exit(1)
sys.exit(0)
