"""TorchScript drops an F.batch_norm whose result is unused from its optimised graph: a scripted module in train()
updates its running statistics on its first call (the profiling executor's run) and not on later ones, while eager
updates them at every call. Found by conformance 2026-11-29 (torch 2.13.0), the README's campaign (seed 0, cases
4a0e15765a90 and c8da98edd057: torch.script infer mismatch in ['state']), reduced by conformance triage to that call.

Needs only torch (2.13.0 here). Run: python torch_script_unused_batch_norm_dropped.py   (exit status 1 while the
scripted module's running mean stops following eager's)
"""

import copy
import sys

import torch
import torch.nn.functional as F


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.ones(1))
        self.bias = torch.nn.Parameter(torch.zeros(1))
        self.register_buffer("running_mean", torch.zeros(1))
        self.register_buffer("running_var", torch.ones(1))

    def forward(self, x):
        y = F.batch_norm(x, self.running_mean, self.running_var, self.weight, self.bias, training=self.training,
                         momentum=0.1, eps=1e-05)  # its result is not used: it is called for its update
        return x * 2


torch.manual_seed(0)
eager = Model().train()
scripted = torch.jit.script(copy.deepcopy(eager))
failed = False
for call in range(1, 5):
    x = torch.randn(3, 1, 2, 2)
    with torch.no_grad():
        eager(x)
        scripted(x)
    same = torch.equal(eager.running_mean, scripted.running_mean)
    print(f"call {call}: running_mean eager {eager.running_mean.item():.6f}, scripted "
          f"{scripted.running_mean.item():.6f}{'' if same else '  <- differs'}")
    failed |= not same
print("FAILED: the scripted model stopped updating its running statistics" if failed else "OK")
sys.exit(1 if failed else 0)
