"""torch.jit.trace does not record a `with torch.no_grad():` block: the traced module differentiates through what
eager computed without a gradient. Found by conformance 2026-11-29 (torch 2.13.0), the torch campaign seed 0 (cases
bd88bdb96ccd, 2a6fa9a0fa20: torch.trace grad mismatch "a gradient where eager has none").

Needs only torch (2.13.0 here). `y = x * 2` inside no_grad, returned: eager's y has no grad_fn, so x gets no
gradient through it; the traced module's y does, and x's gradient is 2.

Run: python torch_trace_drops_no_grad.py   (exit status 1 while the traced module differentiates the block)
"""

import sys

import torch


class Model(torch.nn.Module):
    def forward(self, x):
        with torch.no_grad():
            y = x * 2.0
        return y + 0.0 * x


def main() -> bool:
    print("torch", torch.__version__)
    x = torch.ones(3, requires_grad=True)
    traced = torch.jit.trace(Model(), (torch.ones(3),))
    eager_grad = torch.autograd.grad(Model()(x).sum(), x)[0]
    traced_grad = torch.autograd.grad(traced(x).sum(), x)[0]
    print(f"eager gradient of x: {eager_grad.tolist()}\ntraced gradient of x: {traced_grad.tolist()}")
    wrong = not torch.equal(eager_grad, traced_grad)
    print("verdict:", "torch.jit.trace drops the no_grad block" if wrong else "not reproduced")
    return wrong


if __name__ == "__main__":
    sys.exit(1 if main() else 0)
