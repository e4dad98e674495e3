"""Which ONNX opsets and IR versions the installed onnxruntime loads: the ONNX opset is a dimension.

Deployed runtimes lag the exporters: torch 2.13 writes opset 20 by default, which onnxruntime 1.15 refuses
("Opset 20 is under development"). ``--onnx-opset N`` (:attr:`~conformance.paths.ConvertContext.onnx_opset`)
asks every ONNX exporter for opset ``N``; before a campaign, :func:`configuration_errors` says once, for the
selected ONNX paths, that the runtime cannot load what they would write, instead of one finding per case.

The runtime is asked, not a table: :func:`refusal` builds a one-node model stamped with the opset and IR
version in question and lets onnxruntime load it, so it is right for any release. Its node is ``Not``, an
operator unchanged since opset 1, so every release has its kernel (onnxruntime 1.15 loads opset 19 but has
no kernel for ``Identity``-19). Some
exporters stamp a newer IR version than their opset needs (torch's dynamo exporter writes IR 10 at opset 17,
which onnxruntime 1.15 refuses): :func:`lower_ir_version` restamps a file with the lowest IR version its
opsets need, which the ONNX conversions do when an opset was asked for.

Standalone (see :mod:`conformance.paths.standalone`): the standard library, onnx and onnxruntime only.
"""

from __future__ import annotations

import functools
import os
import re
from typing import Optional

#: The environment variable that carries ``--onnx-opset`` to every process of a run (campaign workers,
#: the reducer, pytest-xdist workers): :class:`~conformance.paths.ConvertContext` reads its default from it.
OPSET_ENV = "CONFORMANCE_ONNX_OPSET"


class RuntimeCannotLoad(RuntimeError):
    """The installed onnxruntime cannot load a model's opset or IR version: a configuration error (choose
    another ``--onnx-opset`` or another onnxruntime release), never a finding about the model."""


def requested_opset(value=None) -> Optional[int]:
    """The opset asked for: ``value`` (an int or a numeric string), else :data:`OPSET_ENV`, else None (each
    exporter's own default)."""
    value = os.environ.get(OPSET_ENV, "") if value is None else value
    if value in ("", None):
        return None
    opset = int(value)
    if opset < 7:
        raise ValueError(f"ONNX opset {opset}: onnxruntime loads opset 7 and newer")
    return opset


def runtime_version() -> str:
    import onnxruntime

    return onnxruntime.__version__


def model_versions(model) -> tuple[int, dict]:
    """``(ir_version, {domain: opset})`` of an ONNX model (a ``ModelProto`` or a path); the default domain
    is ``""``."""
    import onnx

    if not isinstance(model, onnx.ModelProto):
        model = onnx.load(str(model), load_external_data=False)
    return model.ir_version, {(imp.domain if imp.domain != "ai.onnx" else ""): imp.version
                              for imp in model.opset_import}


def lowest_ir_version(opset: int) -> int:
    """The lowest IR version a model of default-domain ``opset`` may carry (the newest IR version the
    installed onnx knows, for an opset newer than it knows)."""
    import onnx
    from onnx import helper

    try:
        return helper.find_min_ir_version_for([helper.make_opsetid("", opset)], ignore_unknown=False)
    except (ValueError, TypeError):
        return onnx.IR_VERSION


@functools.lru_cache(maxsize=None)
def refusal(opset: int, ir_version: Optional[int] = None) -> str:
    """Why the installed onnxruntime refuses a model of default-domain ``opset`` and ``ir_version`` (None:
    the lowest that opset needs), in the runtime's own words; ``""`` when it loads one."""
    import onnxruntime
    from onnx import TensorProto, helper

    ir_version = ir_version or lowest_ir_version(opset)
    value = helper.make_tensor_value_info
    graph = helper.make_graph([helper.make_node("Not", ["x"], ["y"])], "opset_probe",
                              [value("x", TensorProto.BOOL, [1])], [value("y", TensorProto.BOOL, [1])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=ir_version)
    options = onnxruntime.SessionOptions()
    options.log_severity_level = 3  # a newer runtime warns about an opset still under development: not a refusal
    try:
        onnxruntime.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
    except Exception as e:  # noqa: BLE001 - onnxruntime's own exception types differ between releases
        return runtime_words(str(e))
    return ""


def runtime_words(message: str) -> str:
    """An onnxruntime error without the C++ source location and signature it starts with."""
    return " ".join(re.sub(r"/onnxruntime_src/\S+:\d+ [^(]*\([^)]*\) ", "", message).split())


def gist(message: str) -> str:
    """The sentence of an onnxruntime refusal that says why (the whole message, cut, if none does)."""
    found = re.search(r"(Opset \d+ is under development[^.]*|Unsupported model IR version[^.;]*|"
                      r"Current official support[^.]*)", message)
    return found.group(1).strip() if found else message[:300]


def newest_opset(ir_version: Optional[int] = None) -> int:
    """The newest default-domain opset the installed onnxruntime loads (at ``ir_version``, or at the lowest
    IR version each opset needs); 0 if it loads none from 7 on."""
    import onnx

    for opset in range(onnx.defs.onnx_opset_version() + 10, 6, -1):
        if not refusal(opset, ir_version):
            return opset
    return 0


def file_refusal(path) -> str:
    """Why the installed onnxruntime cannot load the file's opset or IR version (``""`` if it can): a probe
    stamped like the file, so a refusal here is the runtime's release, never the model's content."""
    ir_version, opsets = model_versions(path)
    return refusal(opsets.get("", 1), ir_version)


def check_loadable(path) -> None:
    """Raise :class:`RuntimeCannotLoad` when the installed onnxruntime cannot load the file's opset or IR
    version (an ONNX conversion calls this when loading the file fails, to tell a configuration error from a
    finding)."""
    why = file_refusal(path)
    if why:
        ir_version, opsets = model_versions(path)
        raise RuntimeCannotLoad(f"onnxruntime {runtime_version()} cannot load ONNX opset {opsets.get('', '?')} "
                                f"(IR version {ir_version}): {why}")


def lower_ir_version(path) -> int:
    """Restamp the ONNX file at ``path`` with the lowest IR version its opsets need, if it carries a newer one
    (an exporter that stamps its own newest IR version whatever the opset asked for); the IR version now."""
    import onnx
    from onnx import helper

    model = onnx.load(str(path), load_external_data=False)
    try:
        lowest = helper.find_min_ir_version_for(list(model.opset_import), ignore_unknown=True)
    except (ValueError, TypeError):
        return model.ir_version
    if model.ir_version > lowest:
        model.ir_version = lowest
        onnx.save(model, str(path))
    return model.ir_version


def configuration_errors(opsets: dict) -> list[str]:
    """For ``{path id: the opset it will write}`` (``--onnx-opset``, or each exporter's default), one message
    per opset that the installed onnxruntime refuses, naming the paths and the newest opset it loads; empty
    when it loads them all. A run says these once, as a configuration error, and judges no case on them."""
    by_opset: dict = {}
    for path_id, opset in opsets.items():
        by_opset.setdefault(opset, []).append(path_id)
    errors = []
    for opset, path_ids in sorted(by_opset.items()):
        why = refusal(opset)
        if why:
            newest = newest_opset()
            errors.append(f"onnxruntime {runtime_version()} cannot load ONNX opset {opset}, which "
                          f"{', '.join(sorted(path_ids))} would write ({gist(why)}). The newest opset it loads is "
                          f"{newest}: pass --onnx-opset {newest} (or lower), or install a newer onnxruntime.")
    return errors
