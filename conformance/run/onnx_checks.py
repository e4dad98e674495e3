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

__all__ = ["RuntimeCannotLoad", "blame_error", "blame_mismatch", "configuration_errors", "is_onnx", "onnx_detail"]


def is_onnx(path: PathRecord) -> bool:
    return getattr(path, "default_onnx_opset", None) is not None


def configuration_errors(paths: list, requested: Optional[int] = None) -> list[str]:
    """One message per opset that the installed onnxruntime cannot load, naming the selected ONNX paths that
    would write it (``requested``: ``--onnx-opset``; None: each exporter's default); empty when it loads them
    all, when no ONNX path is selected, or when onnxruntime is not installed (those paths are ``unsupported``)."""
    onnx_paths = [p for p in paths if is_onnx(p)]
    if not onnx_paths or importlib.util.find_spec("onnxruntime") is None or importlib.util.find_spec("onnx") is None:
        return []
    return refused_opsets({p.id: requested or p.default_onnx_opset() for p in onnx_paths})


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
    noise)``). None where the artifact does not run on onnxruntime."""
    if not isinstance(artifact, OrtModel):
        return None
    file = onnx_file_of(artifact, ctx.workdir)
    if file is None:
        return {"component": None, "reason": "no ONNX file found behind the artifact", "rungs": []}
    return blame_onnx(file, onnx_feed(ctx.tensor_names, args), lambda out: compare(FlatOutputs(out))).to_dict()


def blame_error(ctx: ConvertContext, args: list, eager, reference=None, noise=None, since: float = 0.0,
                error: Optional[BaseException] = None, artifact=None) -> Optional[dict]:
    """``detail.blame`` for an ONNX path that failed on ``args``: converting (``artifact`` None) or running
    (the ``artifact``). The file is the newest written into the path's workdir since ``since``; none: the
    exporter failed before writing one. None where the failure is not onnxruntime's (``error`` raised by
    another runtime, or an artifact that is not an onnxruntime model)."""
    file = onnx_file_of(artifact, ctx.workdir, since)
    if file is None:
        return {"component": "exporter", "reason": "the exporter wrote no ONNX file", "rungs": []}
    if artifact is not None and not isinstance(artifact, OrtModel):
        return None
    if artifact is None and error is not None and not _onnxruntime_failed(error):
        return None
    return blame_onnx(file, onnx_feed(ctx.tensor_names, args), judge_against(eager, reference, noise)).to_dict()


def _onnxruntime_failed(error: BaseException) -> bool:
    """Did loading the written file into onnxruntime fail (and not the exporter, nor another runtime)?"""
    return isinstance(error, UnknownGraphInputs) or any(
        (t.__module__ or "").startswith("onnxruntime") for t in type(error).__mro__)
