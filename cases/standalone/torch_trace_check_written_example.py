"""torch.jit.trace's sanity check retraces on the example that the first trace has already written into.

The model doubles its input in place (``x.mul_(2.0)``), then branches on the doubled values. ``torch.jit.trace(model,
(x,))`` runs forward on ``x`` itself, so ``x`` is doubled; ``check_trace=True`` (the default) then traces again on a
copy of the doubled ``x``, whose values take the other branch, and reports "Tracing failed sanity checks! ERROR:
Graphs differed across invocations!" for a model that traces fine (``check_trace=False``, or
``check_inputs=[(x.clone(),)]`` given before tracing, is accepted). The checker should copy the example before the first
trace (https://github.com/pytorch/pytorch/issues/113945, closed with those workarounds). Case
``torch-trace-check-written-example.json``. Needs numpy and torch; exits 1 while trace refuses the model.
"""

import sys

import numpy as np
import torch


class Model(torch.nn.Module):
    def forward(self, x: torch.Tensor):
        x.mul_(2.0)
        y = torch.sigmoid(x)
        if x.mean() > 1.2:
            y = torch.tanh(x)
        return y


def example():
    return torch.from_numpy(np.full((2, 3), 0.45, np.float32))


print("torch", torch.__version__, "eager:", Model()(example()).sum().item())
print("trace, check_trace=False:", torch.jit.trace(Model(), (example(),), check_trace=False)(example()).sum().item())
try:
    print("trace:", torch.jit.trace(Model(), (example(),))(example()).sum().item())
except torch.jit.TracingCheckError as e:  # the spurious sanity-check failure is the finding
    print("trace refuses:", " ".join(str(e).split())[:200])
    sys.exit(1)
sys.exit(0)
