"""What a run adds for ONNX paths (those with :attr:`~conformance.paths.PathRecord.default_onnx_opset`):

- before the first case, :func:`configuration_errors`: the installed onnxruntime must load the opset each
  selected ONNX path will write (``--onnx-opset``, or its exporter's default); a refusal is said once, as a
  configuration error, instead of one ``conversion_error`` per case;
- in every record of an ONNX path, :func:`onnx_detail` (``detail.onnx``): the opset asked for, and the opset
  and IR version of the file written;
- for a mismatch or an error of an ONNX path, :func:`blame_mismatch` / :func:`blame_error`
  (``detail.blame``, :mod:`conformance.judge.blame`): which component is to blame. The ONNX ladder ends in
  onnxruntime, so only a path that runs its file there is blamed along it (an ONNX file read by OpenVINO gets
  no verdict here: its ladder comes with the deployment paths).
"""

from __future__ import annotations

import importlib.util
from typing import Callable, Optional

from conformance.judge.blame import blame_onnx, judge_against, onnx_feed, onnx_file_of
from conformance.judge.oracle import Report
from conformance.paths.onnx_opset import RuntimeCannotLoad, model_versions
from conformance.paths.onnx_opset import configuration_errors as refused_opsets
from conformance.paths.ort import OrtModel, UnknownGraphInputs
from conformance.paths.records import ConvertContext, FlatOutputs, PathRecord
from conformance.program.trees import flatten

__all__ = ["RuntimeCannotLoad", "arrange", "blame_error", "blame_mismatch", "configuration_errors",
           "expected_in_file_order", "is_onnx", "on_onnxruntime", "onnx_detail", "refused_paths"]


def is_onnx(path: PathRecord) -> bool:
    return getattr(path, "default_onnx_opset", None) is not None


def on_onnxruntime(artifact) -> bool:
    """Does the artifact run its ONNX file on onnxruntime: an :class:`~conformance.paths.ort.OrtModel`, or an
    object that holds one as ``session`` (tf2onnx's nest)? An ONNX file read by OpenVINO does not."""
    return isinstance(artifact, OrtModel) or isinstance(getattr(artifact, "session", None), OrtModel)


def arrange(artifact, flat: list):
    """The flat outputs of the artifact's ONNX file (in the file's order) as the artifact returns them, for the
    mode's ``compare``: reordered by the artifact's ``order`` (Paddle's saved programs write a dict's values by
    sorted key), or packed by its ``repack`` (tf2onnx's nest); else as they are."""
    repack = getattr(artifact, "repack", None)
    if callable(repack):
        return repack(list(flat))
    order = getattr(artifact, "order", None)
    if order is not None and len(order) == len(flat):
        ordered = [None] * len(order)
        for value, index in zip(flat, order):
            ordered[index] = value
        return FlatOutputs(ordered)
    return FlatOutputs(list(flat))


def expected_in_file_order(artifact, eager) -> list:
    """Eager's outputs (a nest) as a flat list in the order of the artifact's ONNX file (see :func:`arrange`),
    for a runtime reproducer that compares the file's outputs one by one."""
    leaves = flatten(eager)
    slots = flatten(arrange(artifact, list(range(len(leaves)))))  # for each of eager's leaves, its file index
    out: list = [None] * len(leaves)
    for leaf, index in zip(leaves, slots):
        out[int(index)] = leaf
    return out


def configuration_errors(paths: list, requested: Optional[int] = None) -> list[str]:
    """One message per opset that the installed onnxruntime cannot load, naming the selected ONNX paths that
    would write it (``requested``: ``--onnx-opset``; None: each exporter's default); empty when it loads them
    all, when no ONNX path is selected, or when onnxruntime is not installed (those paths are ``unsupported``)."""
    onnx_paths = [p for p in paths if is_onnx(p)]
    if not onnx_paths or importlib.util.find_spec("onnxruntime") is None or importlib.util.find_spec("onnx") is None:
        return []
    return refused_opsets({p.id: requested or p.default_onnx_opset() for p in onnx_paths})


def refused_paths(paths: list, requested: Optional[int] = None) -> dict[str, str]:
    """``{path id: the configuration error naming it}`` for the ONNX paths among ``paths`` whose opset the
    installed onnxruntime cannot load (see :func:`configuration_errors`); empty when it loads them all."""
    by_opset: dict = {}
    for p in paths:
        if is_onnx(p):
            by_opset.setdefault(requested or p.default_onnx_opset(), []).append(p)
    out = {}
    for group in by_opset.values():
        for message in configuration_errors(group, requested):
            out.update((p.id, message) for p in group)
    return out


def onnx_detail(ctx: ConvertContext, artifact=None, since: float = 0.0) -> dict:
    """``detail.onnx`` of an ONNX path's record: ``requested_opset`` (None: the exporter's default), and,
    where the file was written, its ``opset`` (default domain), ``ir_version`` and other ``domains``."""
    detail: dict = {"requested_opset": ctx.onnx_opset}
    file = onnx_file_of(artifact, ctx.workdir, since)
    if file is not None:
        try:
            ir_version, opsets = model_versions(file)
        except Exception as e:  # noqa: BLE001 - a file onnx cannot read: say so, the record has the error
            detail["unreadable"] = f"{type(e).__name__}: {str(e)[:200]}"
            return detail
        detail.update(opset=opsets.get(""), ir_version=ir_version,
                      domains={domain: v for domain, v in sorted(opsets.items()) if domain})
    return detail


def blame_mismatch(ctx: ConvertContext, artifact, args: list,
                   compare: Callable[[FlatOutputs], Report]) -> Optional[dict]:
    """``detail.blame`` for an ONNX path that computed something else than eager on ``args`` (numpy inputs):
    ``compare(flat outputs) -> Report`` is how the mode judges them (``m.compare(path, out, eager, reference,
    noise)``); each rung's flat outputs reach it as the artifact returns them (:func:`arrange`). None where the
    artifact does not run on onnxruntime."""
    if not on_onnxruntime(artifact):
        return None
    file = onnx_file_of(artifact, ctx.workdir) or onnx_file_of(getattr(artifact, "session", None))
    if file is None:
        return {"component": None, "reason": "no ONNX file found behind the artifact", "rungs": []}
    return blame_onnx(file, onnx_feed(ctx.tensor_names, args), lambda out: compare(arrange(artifact, out))).to_dict()


def blame_error(ctx: ConvertContext, args: list, eager, reference=None, noise=None, since: float = 0.0,
                error: Optional[BaseException] = None, artifact=None,
                compare: Optional[Callable[[object], Report]] = None) -> Optional[dict]:
    """``detail.blame`` for an ONNX path that failed on ``args``: converting (``artifact`` None) or running
    (the ``artifact``). The file is the newest written into the path's workdir since ``since``; none: the
    exporter failed before writing one. None where the failure is not onnxruntime's (``error`` raised by
    another runtime, or an artifact that does not run on onnxruntime). ``compare``: how the mode judges what
    the artifact returns (as :func:`blame_mismatch`'s); else the flat outputs are judged against ``eager``."""
    if artifact is not None and not on_onnxruntime(artifact):
        return None
    file = onnx_file_of(artifact, ctx.workdir, since)
    if file is None:
        return {"component": "exporter", "reason": "the exporter wrote no ONNX file", "rungs": []}
    if artifact is None and error is not None and not _onnxruntime_failed(error):
        return None
    judge = ((lambda out: compare(arrange(artifact, out))) if compare is not None and artifact is not None
             else judge_against(eager, reference, noise))
    return blame_onnx(file, onnx_feed(ctx.tensor_names, args), judge).to_dict()


def _onnxruntime_failed(error: BaseException) -> bool:
    """Did loading the written file into onnxruntime fail (and not the exporter, nor another runtime)?"""
    return isinstance(error, UnknownGraphInputs) or any(
        (t.__module__ or "").startswith("onnxruntime") for t in type(error).__mro__)
