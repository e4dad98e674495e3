"""TorchScript: an early ``return`` under an ``if``, then a ``with torch.no_grad():`` block that assigns a variable.

Eager Python returns ``x * 2 - 1`` (the ``if`` is not taken). ``torch.jit.script`` fails while compiling with
"outputs_[i]->uses().empty() INTERNAL ASSERT FAILED" (ir.cpp): the exit transform that rewrites the early return
breaks on the ``with`` block after it (the same assertion as a ``continue`` inside nested ``with`` blocks,
https://github.com/pytorch/pytorch/issues/79751). Without the ``with`` block, or without the early return, it compiles.
Case ``torch-script-return-before-with.json``. Needs numpy and torch; exits 1 while script fails.
"""

import sys

import numpy as np
import torch


class Model(torch.nn.Module):
    def forward(self, x: torch.Tensor):
        if x.amin() < -2.0:
            return x
        with torch.no_grad():
            y = x * 2.0 - 1.0
        return y


x = torch.from_numpy(np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3))
print("torch", torch.__version__, "eager:", Model()(x).sum().item())
try:
    print("script:", torch.jit.script(Model())(x).sum().item())
except RuntimeError as e:  # the internal assertion is the finding
    print("script fails:", " ".join(str(e).split())[:300])
    sys.exit(1)
sys.exit(0)
