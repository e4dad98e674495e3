"""A bucket's folder: what a maintainer upstream gets.

:func:`write_bucket` writes ``bucket.json`` (the bucket, its minimal case and findings, and where that case first
goes wrong: :mod:`conformance.triage.first_divergence`), ``case.json`` (the minimal case, for ``conformance
replay``), ``REPORT.md`` (an upstream bug report, with that first divergence), and ``repro.py`` with
``example.npz``/``inputs.npz`` and the files the path's conversion reads beside it (``PathRecord.files``): a
script that needs only the framework; it builds the minimal model, converts it along the path, compares with
eager and prints both and the difference; exit status 1 while the bug is there (see
:mod:`conformance.triage.repro`). A bucket of an ONNX path names the component its finding is blamed on (the
exporter, onnxruntime's kernels or its graph optimiser); one blamed on onnxruntime also gets ``runtime/``, a
reproducer that needs only the ``.onnx`` file and onnxruntime (:mod:`conformance.triage.runtime_repro`).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conformance.paths.records import PATHS
from conformance.program.case import save_inputs
from conformance.render.source import render_parts
from conformance.triage.buckets import TriageBucket
from conformance.triage.first_divergence import markdown
from conformance.triage.repro import NoReproducer, repro_source, verify_repro
from conformance.triage.runtime_repro import blamed_on_runtime, write_runtime_repro

FRAMEWORK_NAMES = {"torch": "PyTorch", "paddle": "PaddlePaddle", "tf": "TensorFlow"}
#: What each role of an input set changes from the example, in a bug report's words.
ROLE_WORDS = {"values": "other values", "batch": "another size of the dynamic dim",
              "kwargs": "other keyword-argument values", "example": "the example"}


def report_markdown(bucket: TriageBucket) -> str:
    """``REPORT.md``: the bucket as an upstream bug report."""
    sig = bucket.signature
    path = PATHS.get(sig.path_id)
    record = bucket.record
    fw_name = FRAMEWORK_NAMES.get(sig.framework, sig.framework)
    what = path.description if path else sig.path_id
    role = bucket.case.inputs[bucket.failing_input].role
    first = bucket.first_seen
    versions = ", ".join(f"{k} {v}" for k, v in record.versions.items() if k != "conformance") or "unknown"
    lines = [f"# {what}: {sig.outcome} — {sig.key}", "",
             f"**Versions**: {versions}",
             f"**Path**: `{sig.path_id}` — {what}",
             f"**Seen**: {len(bucket.findings)} finding(s) in {len(bucket.case_ids)} case(s), first in campaign "
             f"seed {first['seed']}, case {first['case_id']} (index {first['index']})",
             ""]
    if record.detail.known_issue:
        lines += [f"**Known issue**: {record.detail.known_issue}", ""]
    lines += _blame_lines(bucket)
    lines += ["## To reproduce", ""]
    if bucket.repro.get("file"):
        beside = "example.npz" + (" and inputs.npz" if bucket.failing_input else "")
        lines += ["```sh", f"python repro.py   # beside {beside}", "```", "", f"`repro.py` needs {fw_name}, numpy"
                  + (f" and {', '.join(path.requires)}" if path and path.requires else "")
                  + "; it builds the model below, converts it on `example.npz`, and compares the converted model "
                    "with eager."]
    else:
        why = bucket.repro.get("unavailable") or f"`{sig.path_id}` has none"
        lines += [f"No standalone reproducer: {why}. Replay the case with `conformance replay case.json --paths "
                  f"{sig.path}" + ("" if sig.mode == "infer" else f" --mode {sig.mode}") + "`."]
    lines += _runtime_repro_lines(bucket)
    model_class = render_parts(bucket.case.program, sig.framework).model_class
    lines += ["", "The model (weights are drawn with numpy from a fixed seed):", "", "```python",
              model_class.rstrip(), "```", "",
              "## Expected", "",
              f"The converted model returns what eager {fw_name} returns (within `torch.testing.assert_close`'s "
              f"float32 tolerances), on the inputs it was converted with"
              + (f" and on the `{role}` input set (`inputs.npz`: {ROLE_WORDS.get(role, role)})."
                 if bucket.failing_input else "."),
              "", "## Actual", "", "```", record.detail.message.strip()[:3000], "```"]
    if bucket.repro.get("output_tail"):
        lines += ["", "`repro.py` printed (the end):", "", "```", bucket.repro["output_tail"].strip()[-2000:], "```"]
    lines += ["", markdown({"localisation": bucket.localisation}).rstrip()]
    reduction = bucket.reduction
    lines += ["", "## Notes", ""]
    if reduction:
        lines.append(f"- Minimised by conformance from {reduction['size_before']} to {reduction['size']} statements "
                     f"in {reduction['seconds']} s ({reduction['tried']} candidates run)"
                     + ("." if reduction["complete"] else "; the time ran out before it was minimal."))
    else:
        lines.append("- Not minimised" + (" (it did not fail the same way when replayed)." if bucket.reproduced is False
                                          else " (triage ran out of time)."))
    lines.append(f"- Signature: `{json.dumps(sig.to_dict())}`")
    return "\n".join(lines) + "\n"


def _blame_lines(bucket: TriageBucket) -> list[str]:
    """The component an ONNX path's finding is blamed on, and why (none for other paths)."""
    sig = bucket.signature
    if not sig.blame:
        return []
    blame = bucket.record.detail.blame or {}
    entry = next((e for e in bucket.record.detail.inputs or [] if e.index == bucket.failing_input and e.blame), None)
    blame = (entry.blame if entry else None) or blame
    from conformance.judge.blame import COMPONENTS

    what = COMPONENTS.get(sig.blame, "no single component: the ONNX ladder cannot tell them apart")
    lines = [f"**Blamed component**: `{sig.blame}` — {what}.", ""]
    if blame.get("reason"):
        lines += [f"Why: {blame['reason']}", ""]
    rungs = blame.get("rungs") or []
    if rungs:
        lines += ["| the same ONNX file run on | component added | what it did |", "|---|---|---|"]
        lines += [f"| {r.get('name')} | {r.get('component')} | {r.get('status')}"
                  + (f": {str(r.get('detail'))[:200]}" if r.get("detail") else "") + " |" for r in rungs]
        lines.append("")
    return lines


def _runtime_repro_lines(bucket: TriageBucket) -> list[str]:
    runtime = bucket.repro.get("runtime")
    if not runtime:
        return []
    if runtime.get("file"):
        verified = {True: "it fails as the finding does", False: "it passed when triage ran it",
                    None: "not run"}[runtime.get("verified")]
        return ["", f"A reproducer for onnxruntime alone, `{runtime['file']}` ({verified}): it needs numpy, onnx and "
                    f"onnxruntime only, runs `model.onnx` on `inputs.npz` with graph optimisations on and off and on "
                    f"the ONNX reference evaluator, and compares each with eager's outputs (`expected.npz`).", "",
                "```sh", "cd runtime && python repro.py", "```"]
    return ["", f"No reproducer for onnxruntime alone: {runtime.get('unavailable')}."]


def write_bucket(bucket: TriageBucket, folder: Path, verify: bool = True, timeout: float = 300.0) -> Path:
    """Write a bucket's folder (see the module docstring); ``verify`` runs its ``repro.py``."""
    folder.mkdir(parents=True, exist_ok=True)
    case = bucket.case
    (folder / "case.json").write_text(json.dumps({"case": case.to_dict()}, indent=1) + "\n")
    save_inputs(folder / "example.npz", case.program, case.inputs[0])
    if bucket.failing_input:
        save_inputs(folder / "inputs.npz", case.program, case.inputs[bucket.failing_input])
    try:
        source = repro_source(bucket)
    except NoReproducer as e:
        bucket.repro = {"unavailable": str(e)}
    else:
        (folder / "repro.py").write_text(source)
        path = PATHS.get(bucket.signature.path_id)
        for file in path.files if path else ():  # what the conversion reads beside its own module
            shutil.copyfile(file, folder / Path(file).name)
        bucket.repro = verify_repro(folder, timeout) if verify else {"file": "repro.py", "verified": None}
    if blamed_on_runtime(bucket):  # onnxruntime's bug: a reproducer with the .onnx file and the runtime alone
        bucket.repro["runtime"] = write_runtime_repro(bucket, folder, verify, timeout)
    (folder / "REPORT.md").write_text(report_markdown(bucket))
    (folder / "bucket.json").write_text(json.dumps(bucket.to_dict(), indent=1, sort_keys=True) + "\n")
    return folder
