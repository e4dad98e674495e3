"""Our process or PyTorch? torch.autocast_bf16 runtime error "Unexpected floating ScalarType in
at::autocast::prioritize" (clean torch campaign of 2026-11-28, seed 3, infer mode, case 2fe0fe9778c3: a torch.stack
of float16 tensors). Minimised by hand.

Needs only torch (2.13.0 here). Under torch.autocast("cpu", dtype=torch.bfloat16), torch.cat and torch.stack (ops
of autocast's promote list) of float16 tensors raise: at::autocast::prioritize knows float32 and the autocast dtype
only (pytorch#100932, open; fix proposed in PR #191125). Outside autocast they return float16.

Run: python torch_cpu_autocast_float16_cat.py   (exit status 1 while the bug is present)
"""

import sys

import torch

if __name__ == "__main__":
    x = torch.ones(3, 2, dtype=torch.float16)
    failed = 0
    for name, fn in (("torch.cat", lambda: torch.cat([x, x], 1)), ("torch.stack", lambda: torch.stack([x, x], 1))):
        print(f"{name} of float16 outside autocast: {fn().dtype}")
        try:
            with torch.autocast("cpu", dtype=torch.bfloat16):
                print(f"{name} of float16 under CPU bfloat16 autocast: {fn().dtype}")
        except RuntimeError as e:
            failed += 1
            print(f"{name} of float16 under CPU bfloat16 autocast: RuntimeError: {e}")
    print("verdict:", "PyTorch: CPU autocast's promote policy refuses float16" if failed else "not reproduced")
    sys.exit(1 if failed else 0)
