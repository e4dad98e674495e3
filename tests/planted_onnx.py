"""Planted faults in each component of the ONNX ladder, as torch paths (``--load tests.planted_onnx``), for the
self-tests of blame as a run makes it (``tests/test_onnx_wiring.py``).

Each is ``torch.onnx.export(dynamo=False)`` on onnxruntime with one component made wrong:

* ``torch.onnx_planted_exporter``: the exporter's file edited so that its first float output is scaled by 1.01
  (as if the exporter had written a wrong constant): every way of running the file computes the same wrong result;
* ``torch.onnx_planted_optimizer``: onnxruntime's first float output off by 0.5 at its first element, only with
  graph optimisations on (``ORT_ENABLE_ALL``);
* ``torch.onnx_planted_kernel``: the same with graph optimisations off too (the reference evaluator stays right);
* ``torch.onnx_planted_future_opset``: a file the installed onnxruntime cannot load (opset 99), unless an opset is
  asked for (``--onnx-opset``): a configuration error, never a finding. Its exporter's default is opset 99, so a
  run refuses it before the first case.

The runtime faults live in the sessions the blame ladder opens for these paths' files (:func:`session`, put in
place of :func:`conformance.judge.blame.onnx_rungs`' default), so every process that imports this module (campaign
workers with ``--load``) plants them, and only for files under these paths' workdirs.
"""

from __future__ import annotations

import dataclasses
import os

import numpy as np
import onnx

import conformance.judge.blame as blame
import conformance.paths.torch  # noqa: F401 - registers the built-in torch paths first
from conformance.paths.onnx_opset import check_loadable
from conformance.paths.onnx_runtimes import onnxruntime_session, reference_evaluator
from conformance.paths.ort import OrtModel
from conformance.paths.records import PATHS, register
from conformance.paths.torch.conversions import onnx_export, to_numpy

EXPORTER = "onnx_planted_exporter"
OPTIMIZER = "onnx_planted_optimizer"
KERNEL = "onnx_planted_kernel"
FUTURE = "onnx_planted_future_opset"
#: The opset of FUTURE's files: no onnxruntime of this time loads it.
FUTURE_OPSET = 99


class Perturbed:
    """An onnxruntime session whose first float output is off by 0.5 at its first element."""

    def __init__(self, session):
        self.session = session

    def __getattr__(self, name):
        return getattr(self.session, name)

    def run(self, names, feed):
        outs = [np.array(o, copy=True) for o in self.session.run(names, feed)]
        first = next((o for o in outs if o.dtype.kind == "f" and o.size), None)
        if first is not None:
            first.flat[0] += 0.5
        return outs


def faulty(path, optimise: bool) -> bool:
    """Is the onnxruntime session of the file at ``path`` planted wrong (by the path that wrote it)?"""
    where = str(path)
    return KERNEL in where or (OPTIMIZER in where and optimise)


def session(path, optimise: bool, providers=("CPUExecutionProvider",)):
    """:func:`~conformance.paths.onnx_runtimes.onnxruntime_session`, planted wrong for this module's paths."""
    real = onnxruntime_session(path, optimise, providers)
    return Perturbed(real) if faulty(path, optimise) else real


def _planted_rungs(path, session_factory=session, evaluator_factory=reference_evaluator):
    return _real_rungs(path, session_factory, evaluator_factory)


_real_rungs = getattr(blame.onnx_rungs, "real", blame.onnx_rungs)
_planted_rungs.real = _real_rungs
blame.onnx_rungs = _planted_rungs


def _file(ctx) -> str:
    return os.path.join(ctx.workdir, "model_torchscript.onnx")


def exporter_fault(ctx):
    onnx_export(ctx, dynamo=False)
    path = _file(ctx)
    model = onnx.load(path)
    graph = model.graph
    out = next(o for o in graph.output if o.type.tensor_type.elem_type == onnx.TensorProto.FLOAT)
    graph.initializer.append(onnx.helper.make_tensor("planted_scale", onnx.TensorProto.FLOAT, [], [1.01]))
    for node in graph.node:
        node.output[:] = [f"{o}_unplanted" if o == out.name else o for o in node.output]
        node.input[:] = [f"{i}_unplanted" if i == out.name else i for i in node.input]
    graph.node.append(onnx.helper.make_node("Mul", [f"{out.name}_unplanted", "planted_scale"], [out.name]))
    onnx.save(model, path)
    return OrtModel(path, ctx.device, ctx.tensor_names, to_numpy)


def runtime_fault(ctx):
    artifact = onnx_export(ctx, dynamo=False)
    artifact.session = session(_file(ctx), True)  # what the path runs: graph optimisations on
    return artifact


def future_opset(ctx):
    """The TorchScript exporter's file at the opset asked for; none asked: stamped opset 99."""
    if ctx.onnx_opset is not None:
        return onnx_export(ctx, dynamo=False)
    ctx = dataclasses.replace(ctx, onnx_opset=17)
    onnx_export(ctx, dynamo=False)
    path = _file(ctx)
    model = onnx.load(path)
    for imp in model.opset_import:
        if imp.domain in ("", "ai.onnx"):
            imp.version = FUTURE_OPSET
    onnx.save(model, path)
    try:
        return OrtModel(path, ctx.device, ctx.tensor_names, to_numpy)
    except Exception:
        check_loadable(path)  # RuntimeCannotLoad: the configuration error
        raise


def future_default() -> int:
    return FUTURE_OPSET


_BASE = PATHS["torch.onnx_torchscript"]
register(*(dataclasses.replace(_BASE, name=name, convert=convert, limitations=(), components=(), default=False)
           for name, convert in ((EXPORTER, exporter_fault), (OPTIMIZER, runtime_fault), (KERNEL, runtime_fault))),
         dataclasses.replace(_BASE, name=FUTURE, convert=future_opset, limitations=(), components=(), default=False,
                             default_onnx_opset=future_default))
