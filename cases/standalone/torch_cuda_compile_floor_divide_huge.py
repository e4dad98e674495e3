"""Our process or PyTorch? torch.compile (inductor) on CUDA gives x // x == 0 where eager gives 1, for float32
values of magnitude 2**126 (8.5e37).

Found by `conformance fuzz --device cuda --frameworks torch --seed 0` on an NVIDIA H200 (torch 2.11.0+cu130,
2026-11-28; issue 15's "huge" edge values), case c25e784506 of its triage, minimised to one statement: `v3 = v2 // v2`
with v2 = [8.5e37, -8.5e37, 0.79, -8.5e37, 1.44]. Eager's floor_divide divides exactly (1 for x / x); the
compiled kernel gives 0 at +-2**126, as CUDA's fast division does (`__fdividef` returns 0 for a divisor of
magnitude in (2**126, 2**128)); the CPU inductor kernel agrees with eager. This script was written from the
campaign's case after the session's GPU time was spent: run on the CPU it agrees (checked), on CUDA not yet run.

Run: python torch_cuda_compile_floor_divide_huge.py [cpu|cuda]   (default cuda; exit status 1 while the bug is
present, 2 without a GPU)
"""

import sys

import torch


def floor_div(x):
    return x // x


if __name__ == "__main__":
    device = sys.argv[1] if len(sys.argv) > 1 else "cuda"
    if device == "cuda" and not torch.cuda.is_available():
        print("needs a CUDA device")
        sys.exit(2)
    x = torch.tensor([8.5070587e37, -8.5070587e37, 0.79000241, -8.5070587e37, 1.4443452], device=device)
    eager, compiled = floor_div(x), torch.compile(floor_div)(x)
    print(f"{device}: eager {eager.tolist()}  compiled {compiled.tolist()}")
    bad = not torch.equal(eager, compiled)
    print("PyTorch: inductor's floor division differs from eager" if bad else "agree: fixed (or not this device)")
    sys.exit(1 if bad else 0)
