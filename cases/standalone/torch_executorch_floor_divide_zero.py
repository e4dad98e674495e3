"""Our process or ExecuTorch? torch.executorch mismatch "finite where eager is NaN/Inf ... (candidate inf, eager nan)"
(clean torch campaign of 2026-11-28, seed 5, infer mode, case ce033c4c39ff: `v5 // v5` of a v5 holding 0).
Minimised by hand.

Needs only torch (2.13.0 here) and executorch. torch.export of `a // b`, lowered with to_edge / to_executorch (the
portable kernels) and run by executorch.runtime: 0.0 // 0.0 gives inf where torch gives NaN (and numpy, and
Python's float floor division raises); the other IEEE cases (inf // inf, 1 // 0, inf // 2) agree.

Run: python torch_executorch_floor_divide_zero.py   (exit status 1 while the bug is present)
"""

import math
import sys
import warnings

import torch


class FloorDivide(torch.nn.Module):
    def forward(self, a, b):
        return a // b


if __name__ == "__main__":
    warnings.simplefilter("ignore")
    from executorch.exir import to_edge
    from executorch.runtime import Runtime

    inf = float("inf")
    a = torch.tensor([0.0, inf, 1.0, inf, -1.0])
    b = torch.tensor([0.0, inf, 0.0, 2.0, 0.0])
    program = Runtime.get().load_program(to_edge(torch.export.export(FloorDivide(), (a, b))).to_executorch().buffer)
    got = program.load_method("forward").execute([a, b])[0].tolist()
    want = FloorDivide()(a, b).tolist()
    wrong = [(x, y, g, w) for x, y, g, w in zip(a.tolist(), b.tolist(), got, want)
             if not (g == w or (math.isnan(g) and math.isnan(w)))]
    for x, y, g, w in zip(a.tolist(), b.tolist(), got, want):
        print(f"{x} // {y}: executorch {g}, eager {w}")
    print("verdict:", f"ExecuTorch's portable floor_divide differs from torch: {wrong}" if wrong else "not reproduced")
    sys.exit(1 if wrong else 0)
