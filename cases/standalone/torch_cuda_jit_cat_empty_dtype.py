"""Our process or PyTorch? On CUDA, torch.jit.script (from its second call) and torch.jit.trace return an int32
tensor where eager returns float32, for `torch.cat([floor(x), floor(x)], dim=1)` of a zero-size float32 input.

Found by `conformance fuzz --device cuda --frameworks torch --seed 0` on an NVIDIA H200 (torch 2.11.0+cu130,
2026-11-28; issue 15's empty tensors), campaign cases 071090d02a33, 38ad866f0cd0, 77c5e2b19493 and 22dfa9d9bbc0
(an int64 result as int32 there), on script, trace, script_saved and trace_saved alike; minimised to the
model below with x of shape [0, 1, 2, 0, 0]. The same model on the CPU agrees with eager. This script was written
from the campaign's case after the session's GPU time was spent: run on the CPU it agrees (checked), on CUDA not
yet run.

Run: python torch_cuda_jit_cat_empty_dtype.py [cpu|cuda]   (default cuda; exit status 1 while the bug is present,
2 without a GPU)
"""

import sys

import torch


class Model(torch.nn.Module):
    def forward(self, x):
        v = torch.floor(x)
        return torch.cat([v, v], dim=1)


if __name__ == "__main__":
    device = sys.argv[1] if len(sys.argv) > 1 else "cuda"
    if device == "cuda" and not torch.cuda.is_available():
        print("needs a CUDA device")
        sys.exit(2)
    x = torch.zeros(0, 1, 2, 0, 0, device=device)
    eager = Model()(x)
    bad = False
    for name, converted in (("script", torch.jit.script(Model())), ("trace", torch.jit.trace(Model(), (x,)))):
        for call in (1, 2, 3):  # the profiling executor optimises from the second call
            out = converted(x)
            print(f"{device} {name} call {call}: {out.dtype}{list(out.shape)}, eager {eager.dtype}{list(eager.shape)}")
            bad |= out.dtype != eager.dtype or out.shape != eager.shape
    print("PyTorch: a converted model changes the dtype of an empty cat" if bad else "agree: fixed (or not this device)")
    sys.exit(1 if bad else 0)
