"""The PaddlePaddle adapter: tensors in and out, the per-case setup, devices and versions, and autograd for the
``grad`` and ``train`` modes. ``prepare``, ``call`` and ``to_numpy`` are the standalone functions of
:mod:`conformance.paths.paddle.conversions`, which reproducers copy.
"""

from __future__ import annotations

import numpy as np
import paddle

from conformance.paths.paddle import conversions
from conformance.paths.paddle.conversions import call, inputs_written, place, prepare, to_numpy
from conformance.paths.records import Autograd, Framework, loss_terms, module_versions
from conformance.program.trees import map_tree


def setup() -> None:
    """Once per case: CPU for the reference, dygraph mode, and Paddle's executor cache emptied.

    Paddle keeps the executor of every static program it ran (with its thread pool: five threads
    per to_static conversion here) in a global cache, even after the converted layer is freed. A
    worker converting hundreds of models would run out of threads and address space (cases hang or
    segfault); :func:`paddle.base.core.clear_executor_cache` frees them, and no converted model of
    an earlier case is alive when the next case starts.
    """
    paddle.set_device("cpu")  # converted models are placed explicitly; the reference runs on the CPU
    paddle.disable_static()
    paddle.base.core.clear_executor_cache()


def to_tensor(a: np.ndarray, device: str, fp64: bool):
    a = np.array(a, copy=True)  # a copy: a path that writes into its inputs must not change the saved ones
    if fp64 and a.dtype.kind == "f":
        a = a.astype(np.float64)
    return paddle.to_tensor(a, place=place(device))


def devices() -> list[str]:
    gpu = paddle.device.is_compiled_with_cuda() and paddle.device.cuda.device_count() > 0
    return ["cpu"] + (["cuda"] if gpu else [])


def version() -> str:
    return paddle.__version__


def build_strategy_ignored(device: str):
    """Why ``to_static_build_strategy`` runs the code of ``to_static`` here, or None: paddle's PIR runner (on by
    default in paddle 3, on every device) keeps a ``BuildStrategy`` but applies none of its options."""
    if paddle.framework.use_pir_api():
        return "paddle's PIR runner applies no BuildStrategy option: the same code as paddle.to_static"
    return None


def onnx_default_opset() -> int:
    """The opset the ONNX paths ask paddle2onnx for when none is asked for (``--onnx-opset``): the default of
    :func:`~conformance.paths.paddle.saved.paddle2onnx_export`."""
    import inspect

    from conformance.paths.paddle.saved import paddle2onnx_export

    return inspect.signature(paddle2onnx_export).parameters["opset"].default


def versions() -> dict:
    return {"paddle": paddle.__version__, **module_versions("paddle2onnx", "onnxruntime", "onnx")}


# ------------------------------------------------------------------ autograd (grad and train modes)


def set_training(model, training: bool) -> None:
    model.train() if training else model.eval()


def backward(forward, args, kwargs, weights, params):
    """See :class:`~conformance.paths.records.Autograd`: ``paddle.grad`` of the loss head, None for a tensor the
    loss does not reach."""
    wrt = []

    def leaf(a):
        made = conversions.gradient_leaf(a)
        if made is not a:
            wrt.append(made)
        return made

    before = conversions._float_leaves(args)  # detach() shares memory: a program that writes its inputs shows there
    args = map_tree(leaf, args)
    outputs = forward(*args, **kwargs)
    inputs_written(forward, [t for t, _ in before], before)
    # each term in float64: outputs of mixed float dtypes add up (and the CPU has no float16 multiply)
    terms = [(o.astype("float64") * paddle.to_tensor(w, dtype="float64", place=o.place)).sum()
             for o, w in loss_terms(outputs, weights) if isinstance(o, paddle.Tensor) and o.is_floating_point()]
    loss = sum(terms[1:], terms[0]) if terms else None
    targets = wrt + list(params)
    if loss is not None and not loss.stop_gradient and targets:
        grads = list(paddle.grad([loss], targets, allow_unused=True))
    else:
        grads = [None] * len(targets)
    return outputs, None if loss is None else loss.detach(), grads[:len(wrt)], grads[len(wrt):]


def optimizer(kind: str, params: list, lr: float):
    """``step(grads)`` of Paddle's ``kind`` optimizer over ``params`` (a None gradient: the parameter is skipped)."""
    make = {"sgd": paddle.optimizer.SGD, "adam": paddle.optimizer.Adam}[kind]
    opt = make(learning_rate=lr, parameters=params) if params else None

    def step(grads):
        for p, g in zip(params, grads):
            p.clear_gradient(False)  # no gradient: the optimizer skips the parameter
            if g is not None:
                p._set_grad_ivar(g)
        if opt is not None:
            opt.step()
    return step


def assign(t, a) -> None:
    t.set_value(np.asarray(a).astype("float64" if t.dtype == paddle.float64 else "float32"))


AUTOGRAD = Autograd(set_training, backward, optimizer, assign, paddle.seed)
#: Conformance's runs watch for a program writing into its inputs (a known Paddle bug: see limitations.py).
conversions.WATCH_INPUTS = True

FRAMEWORK = Framework("paddle", version, to_tensor, to_numpy, prepare, call, devices, setup, versions,
                      autograd=AUTOGRAD)
