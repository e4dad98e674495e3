"""Users' own torch models with a planted fault in one submodule (:mod:`tests.planted_modules`), for the
module-level localisation self-tests (``--load tests.planted_localize_models``): ``torch.planted_module_script``,
``torch.planted_module_onnx_torchscript``, ``torch.planted_module_trace``."""

from __future__ import annotations

import torch

import conformance.paths.torch  # noqa: F401 - registers the real torch paths first
from tests.planted_modules import net_class, register_planted

Net = net_class(torch.nn.Module, torch.nn.Linear, torch.nn.ModuleList, torch.tanh, torch.manual_seed)

register_planted(("torch.script", "torch.onnx_torchscript", "torch.trace"))
