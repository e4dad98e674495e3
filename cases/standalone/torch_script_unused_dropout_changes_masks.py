"""Our process or PyTorch? torch.jit.script in train() gives other dropout masks than eager, with the same seed,
when the model has a dropout whose result nothing uses (tests/test_training.py's rounding-noise property: a
`v1 = dropout(v1); v5 = square(v1)` in a branch whose results no output reads, then a live dropout).

Needs only torch (2.13.0 here). TorchScript removes the unused dropout as dead code, so it draws fewer random
numbers than eager, and every later dropout in the forward gets another mask. The random stream is not a
documented contract, but a user seeding to compare a scripted model with eager sees other results.

Run: python torch_script_unused_dropout_changes_masks.py   (exit status 1 while the masks differ)
"""

import sys

import torch
import torch.nn.functional as F


class Model(torch.nn.Module):
    def forward(self, x):
        unused = F.dropout(x, p=0.5, training=self.training)  # noqa: F841 - the dead dropout
        return F.dropout(x * 2.0, p=0.25, training=self.training)


if __name__ == "__main__":
    x = torch.ones(4, 4)
    eager, scripted = Model().train(), torch.jit.script(Model()).train()
    torch.manual_seed(0)
    e = eager(x)
    torch.manual_seed(0)
    s = scripted(x)
    print("eager :", e.tolist(), "\nscript:", s.tolist())
    differ = not torch.equal(e, s)
    print("PyTorch: TorchScript drops the unused dropout's draw; the live dropout's mask differs" if differ
          else "same masks")
    sys.exit(1 if differ else 0)
