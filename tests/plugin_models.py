"""A user's model for tests/test_plugins.py (check() reads a model's source from its file)."""

import torch


class TanhModel(torch.nn.Module):
    def forward(self, x):
        return torch.tanh(x) * 3 + 1
