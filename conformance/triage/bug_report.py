"""A bucket's folder: what a maintainer upstream gets.

:func:`write_bucket` writes ``bucket.json`` (the bucket, its minimal case and findings), ``case.json``
(the minimal case, for ``conformance replay``), ``REPORT.md`` (an upstream bug report), and ``repro.py``
with ``example.npz``/``inputs.npz`` and the files the path's conversion reads beside it
(``PathRecord.files``): a script that needs only the framework; it builds the minimal model, converts it
along the path, compares with eager and prints both and the difference; exit status 1 while the bug is
there (see :mod:`conformance.triage.repro`).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conformance.paths.records import PATHS
from conformance.program.case import save_inputs
from conformance.render.source import render_parts
from conformance.triage.buckets import TriageBucket
from conformance.triage.repro import NoReproducer, repro_source, verify_repro

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
    (folder / "REPORT.md").write_text(report_markdown(bucket))
    (folder / "bucket.json").write_text(json.dumps(bucket.to_dict(), indent=1, sort_keys=True) + "\n")
    return folder
