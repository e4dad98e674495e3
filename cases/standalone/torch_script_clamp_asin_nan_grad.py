"""Our process or PyTorch? torch.jit.script gives a NaN gradient where eager gives 0, from its second call on
(tests/test_training.py's rounding-noise property, a program ending in `asin(hardtanh(x, -1, 1))`, grad mode).

Needs only torch (2.13.0 here). From the second call the profiling executor runs the optimised graph, whose
symbolic derivative of hardtanh multiplies the incoming gradient by the in-range mask: where x is clipped to
+-1, asin's derivative there is inf and inf * 0 = NaN. Eager's hardtanh_backward selects (where), so the clipped
elements get 0. The first call (the profiling run) agrees with eager.

Run: python torch_script_clamp_asin_nan_grad.py   (exit status 1 while the bug is present)
"""

import sys

import torch
import torch.nn.functional as F


class Model(torch.nn.Module):
    def forward(self, x):
        return torch.asin(F.hardtanh(x, -1.0, 1.0))


def grads(model, calls=3):
    out = []
    for _ in range(calls):
        x = torch.tensor([0.5, 1.5, -2.0], requires_grad=True)
        model(x).sum().backward()
        out.append(x.grad)
    return out


if __name__ == "__main__":
    eager, scripted = grads(Model()), grads(torch.jit.script(Model()))
    for call, (e, s) in enumerate(zip(eager, scripted), 1):
        print(f"call {call}: eager grad {e.tolist()}  script grad {s.tolist()}")
    bad = any(torch.isnan(s).any() and not torch.isnan(e).any() for e, s in zip(eager, scripted))
    print("PyTorch: TorchScript's optimised backward gives NaN where eager gives 0" if bad else "agree: fixed")
    sys.exit(1 if bad else 0)
