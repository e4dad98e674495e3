"""Our process or PyTorch? torch.script_saved conversion error "RuntimeError: strides() called on an undefined Tensor"
on the hand-written model keyword_tensor (tests/user_models/torch_models.py: `forward(self, x, mask=None)`, called
with a mask; the torch user-model table of 2026-11-28, issue 20), where torch.script passes.

Needs only torch (2.13.0 here). TorchScript types an unannotated parameter as Tensor (documented; pytorch#41277,
#40867), so `mask=None` becomes a Tensor parameter whose default is an undefined tensor. torch.jit.script accepts
the module, and the scripted module runs when given a mask; torch.jit.save of it fails, as the default cannot be
serialised ('strides() called on an undefined Tensor'). Annotated `mask: Optional[torch.Tensor] = None`, it saves.

Run: python torch_script_save_none_default.py   (exit status 1 while the bug is present)
"""

import io
import sys
from typing import Optional

import torch


class Unannotated(torch.nn.Module):
    def forward(self, x, mask=None):
        if mask is not None:
            x = x * mask
        return x.sum(-1)


class Annotated(torch.nn.Module):
    def forward(self, x, mask: Optional[torch.Tensor] = None):
        if mask is not None:
            x = x * mask
        return x.sum(-1)


if __name__ == "__main__":
    x, mask = torch.ones(2, 3), torch.ones(2, 3)
    failed = False
    for model in (Unannotated(), Annotated()):
        scripted = torch.jit.script(model)
        print(f"{type(model).__name__}: scripted, runs with a mask: {list(scripted(x, mask=mask).shape)}")
        try:
            torch.jit.save(scripted, io.BytesIO())
            print(f"{type(model).__name__}: torch.jit.save works")
        except RuntimeError as e:
            failed |= isinstance(model, Unannotated)
            print(f"{type(model).__name__}: torch.jit.save fails: {e}")
    print("verdict:", "PyTorch: torch.jit.save refuses the scripted module that torch.jit.script accepted" if failed
          else "not reproduced")
    sys.exit(1 if failed else 0)
