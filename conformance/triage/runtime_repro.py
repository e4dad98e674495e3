"""A runtime-only reproducer for a bucket blamed on onnxruntime (``onnxruntime.optimizer`` or
``onnxruntime.kernel``): what an onnxruntime maintainer needs is the ``.onnx`` file and the runtime, not the
framework that exported it.

:func:`write_runtime_repro` converts the bucket's minimal case along its path again (in this process, as the
runner does: :func:`~conformance.run.runner.convert_context`, in the path's workdir), climbs the ONNX ladder on
the failing input set (:func:`~conformance.judge.blame.blame_onnx`), and where the verdict is still the bucket's, writes
``runtime/`` beside the bucket's ``repro.py``: ``model.onnx``, ``inputs.npz``, ``expected.npz`` (eager's
outputs in the file's order) and ``repro.py`` (:func:`~conformance.judge.blame.write_runtime_reproducer`:
numpy, onnx and onnxruntime only), then runs that ``repro.py`` (exit status 1 while the bug is there).
"""

from __future__ import annotations

import time
from pathlib import Path

from conformance.judge.blame import blame_onnx, onnx_feed, onnx_file_of, write_runtime_reproducer
from conformance.judge.modes import INFER
from conformance.paths.records import PATHS, load_framework
from conformance.run.onnx_checks import arrange, expected_in_file_order, on_onnxruntime
from conformance.run.runner import convert_context, path_workdir, prepare
from conformance.triage.buckets import TriageBucket
from conformance.triage.repro import verify_repro

#: The folder of a bucket that holds its runtime-only reproducer.
RUNTIME_FOLDER = "runtime"


def blamed_on_runtime(bucket: TriageBucket) -> bool:
    """Is the bucket an ``infer`` finding blamed on an onnxruntime component?"""
    sig = bucket.signature
    return sig.mode == "infer" and (sig.blame or "").startswith("onnxruntime.")


def write_runtime_repro(bucket: TriageBucket, folder: Path, verify: bool = True, timeout: float = 300.0,
                        device: str = "cpu") -> dict:
    """Write ``folder/runtime/`` for a bucket blamed on onnxruntime (see the module docstring); returns what
    ``bucket.repro["runtime"]`` records: ``file`` and how its verification went, or ``unavailable`` and why."""
    sig = bucket.signature
    try:
        load_framework(sig.framework)
        path = PATHS[sig.path_id]
        prep = prepare(bucket.case, sig.framework)
        run = prep.runs[bucket.failing_input]
        started = time.time()
        workdir = path_workdir(bucket.case, sig.framework, path)  # where the campaign's conversion wrote it
        ctx = convert_context(bucket.case, prep, path, device, "infer", workdir)
        prep.seed_forward()
        artifact = path.convert(ctx)
        if not on_onnxruntime(artifact):
            return {"unavailable": f"{sig.path_id} does not run its ONNX file on onnxruntime"}
        file = onnx_file_of(artifact, workdir, started)
        if file is None:
            return {"unavailable": "no ONNX file behind the converted model"}
        feed = onnx_feed(ctx.tensor_names, run.args)
        verdict = blame_onnx(file, feed, lambda out: INFER.compare(path, arrange(artifact, out), run.eager,
                                                                    run.reference, run.noise))
        if verdict.component != sig.blame:
            return {"unavailable": f"converted again here, the finding is blamed on {verdict.label}, not "
                                   f"{sig.blame}: {verdict.reason}"}
        write_runtime_reproducer(verdict, file, feed, expected_in_file_order(artifact, run.eager),
                                 Path(folder) / RUNTIME_FOLDER)
    except Exception as e:  # noqa: BLE001 - the bucket's own repro.py still stands
        return {"unavailable": f"{type(e).__name__}: {str(e)[:400]}"}
    done = verify_repro(Path(folder) / RUNTIME_FOLDER, timeout) if verify else {"verified": None}
    return {**done, "file": f"{RUNTIME_FOLDER}/repro.py", "component": sig.blame}
