"""The PyTorch :class:`~conformance.paths.records.Framework` adapter: tensors in and out, devices, versions,
and the :class:`~conformance.paths.records.Autograd` primitives of the ``grad`` and ``train`` modes
(:mod:`conformance.judge.training` holds the loops around them).

``prepare``, ``call`` and ``to_numpy`` are the standalone functions of
:mod:`conformance.paths.torch.conversions`, so a reproducer runs the model as the campaign did."""

from __future__ import annotations

import numpy as np
import torch

from conformance.paths.records import Autograd, Framework, loss_terms, module_versions
from conformance.paths.torch.conversions import call, prepare, requiring_grad, to_numpy
from conformance.program.trees import flatten, map_tree


def setup() -> None:
    torch.set_num_threads(1)
    if torch.cuda.is_available():  # parity with the CPU fp64 reference, not TF32 speed
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False


def to_tensor(array: np.ndarray, device: str, fp64: bool):
    # a copy: a path that writes into its inputs must not change the saved inputs (nor eager outputs that
    # alias them)
    tensor = torch.from_numpy(np.array(array, copy=True))
    if fp64 and tensor.is_floating_point():
        tensor = tensor.double()
    return tensor.to(device)


def devices() -> list[str]:
    return ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])


def version() -> str:
    return torch.__version__


def versions() -> dict:
    return {"torch": torch.__version__, **module_versions("onnxruntime", "onnx", "onnxscript")}


def onnx_default_opset() -> int:
    """The opset torch's ONNX exporters write when none is asked for."""
    from torch.onnx import _constants

    return _constants.ONNX_DEFAULT_OPSET


# ------------------------------------------------------------------ autograd (grad and train modes)


def set_training(model, training: bool) -> None:
    model.train(training)


def backward(forward, args, kwargs, weights, params):
    """See :class:`~conformance.paths.records.Autograd`: ``torch.autograd.grad`` of the loss head, None for a
    tensor the loss does not reach."""
    args = map_tree(requiring_grad, args)
    wrt = [leaf for leaf in flatten(args) if isinstance(leaf, torch.Tensor) and leaf.requires_grad]
    with torch.enable_grad():
        outputs = forward(*args, **kwargs)
        terms = [(out * torch.as_tensor(w, dtype=out.dtype, device=out.device)).sum()
                 for out, w in loss_terms(outputs, weights)
                 if isinstance(out, torch.Tensor) and out.is_floating_point()]
        loss = sum(terms[1:], terms[0]) if terms else None
        targets = wrt + list(params)
        if loss is not None and loss.requires_grad and targets:
            grads = list(torch.autograd.grad(loss, targets, allow_unused=True))
        else:
            grads = [None] * len(targets)
    return outputs, None if loss is None else loss.detach(), grads[:len(wrt)], grads[len(wrt):]


def optimizer(kind: str, params: list, lr: float):
    """An SGD or Adam step over ``params``; ``step(grads)`` sets each parameter's gradient (None: skipped)."""
    torch_optimizer = {"sgd": torch.optim.SGD, "adam": torch.optim.Adam}[kind](params, lr=lr) if params else None

    def step(grads):
        for param, grad in zip(params, grads):
            param.grad = grad
        if torch_optimizer is not None:
            torch_optimizer.step()
    return step


def assign(tensor, array) -> None:
    with torch.no_grad():
        tensor.copy_(torch.from_numpy(np.asarray(array)).to(tensor.dtype))


AUTOGRAD = Autograd(set_training, backward, optimizer, assign, torch.manual_seed)

FRAMEWORK = Framework("torch", version, to_tensor, to_numpy, prepare, call, devices, setup, versions,
                      autograd=AUTOGRAD)
