"""The command line as a user meets it: a short campaign, replay, summary, and clear errors."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")

REQUIRED = {"case_id", "seed", "framework", "path", "device", "outcome", "max_abs_err", "max_rel_err", "detail",
            "versions", "case"}


def conformance(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "conformance", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=600)


@pytest.fixture(scope="module")
def campaign(tmp_path_factory):
    out = tmp_path_factory.mktemp("campaign")
    proc = conformance("fuzz", "--budget", "60", "--max-cases", "4", "--seed", "5", "--workers", "1",
                       "--frameworks", "torch", "--paths", "script,trace", "--out", str(out))
    assert proc.returncode == 0, proc.stderr + proc.stdout
    return out, proc


def test_fuzz_writes_records_manifest_and_summary(campaign):
    out, proc = campaign
    records = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    # eager is always included as the reference; each path runs in every mode it has (trace has no train mode)
    runs = sorted((r["path"], r["mode"]) for r in records)
    assert runs == sorted(4 * [(p, m) for p in ("eager", "script", "trace") for m in ("infer", "grad", "train")
                               if (p, m) != ("trace", "train")])
    assert all(REQUIRED <= r.keys() for r in records)
    assert all(r["versions"]["torch"] for r in records)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["seed"] == 5 and manifest["cases"] == 4 and "torch" in manifest["versions"]
    assert "passed/cases per path and mode" in proc.stdout
    assert any(line.split()[1:2] == ["torch.script"] for line in proc.stdout.splitlines())  # a row of the table
    summary = (out / "summary.md").read_text()
    assert "| torch.script | infer | cpu | 4 |" in summary and "| torch.script | train | cpu | 4 |" in summary
    assert "0 harness error(s)" in proc.stdout and manifest["tasks"]["torch.script@infer"]["cases"] == 4


def test_replay_reruns_a_saved_case(campaign):
    out, _ = campaign
    first = json.loads((out / "results.jsonl").read_text().splitlines()[0])
    proc = conformance("replay", str(out / "results.jsonl"), "--case-id", first["case_id"], "--paths", "script",
                       "--frameworks", "torch")
    assert first["case_id"] in proc.stdout and "torch.script" in proc.stdout
    case_file = out / "case.json"
    case_file.write_text(json.dumps(first["case"]))
    proc = conformance("replay", str(case_file), "--paths", "eager", "--frameworks", "torch")
    assert proc.returncode == 0 and "pass" in proc.stdout


def test_summary_of_results(campaign):
    out, _ = campaign
    proc = conformance("summary", str(out / "results.jsonl"))
    assert proc.returncode == 0 and "torch.trace" in proc.stdout


def test_unknown_path_and_framework_are_named():
    proc = conformance("fuzz", "--paths", "teleport", "--max-cases", "1", "--frameworks", "torch")
    assert proc.returncode != 0 and "unknown path 'teleport'" in proc.stderr and "torch.script" in proc.stderr
    proc = conformance("fuzz", "--frameworks", "mxnet", "--max-cases", "1")
    assert proc.returncode != 0 and "unknown framework 'mxnet'" in proc.stderr


def test_malformed_case_file_is_named(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"program": {"format": 1, "seed": 0}, "inputs": []}')
    proc = conformance("replay", str(bad))
    assert proc.returncode != 0 and "bad.json" in proc.stderr and "malformed program" in proc.stderr
    bad.write_text("{oops")
    proc = conformance("replay", str(bad))
    assert proc.returncode != 0 and "not valid JSON" in proc.stderr
    for command in ("replay", "summary"):
        proc = conformance(command, str(tmp_path / "missing.jsonl"))
        assert proc.returncode != 0 and "cannot read" in proc.stderr and "Traceback" not in proc.stderr


def test_tables_are_generated_from_records():
    proc = conformance("ops")
    assert proc.returncode == 0 and "conv2d" in proc.stdout and "op records" in proc.stdout
    proc = conformance("paths")
    assert proc.returncode == 0 and "torch.onnx_dynamo" in proc.stdout and "torch.cond" in proc.stdout


def test_cuda_skips_cleanly_without_a_gpu(tmp_path):
    import torch

    if torch.cuda.is_available():
        pytest.skip("this machine has a GPU")
    proc = conformance("fuzz", "--device", "cuda", "--max-cases", "1", "--out", str(tmp_path), "--frameworks", "torch")
    assert proc.returncode == 0 and "no CUDA device" in proc.stdout
    proc = subprocess.run([sys.executable, "-m", "pytest", "oracles/test_torch_parity.py", "-q", "-p",
                           "no:cacheprovider", "--conformance-device", "cuda", "--conformance-paths", "script"],
                          capture_output=True, text=True, timeout=300, cwd=Path(__file__).resolve().parent.parent)
    assert proc.returncode == 0 and "2 skipped" in proc.stdout, proc.stdout[-2000:]


def test_a_path_this_machine_cannot_run_on_a_device_says_why():
    pytest.importorskip("onnxruntime")
    import onnxruntime

    import conformance.paths.torch  # noqa: F401 - registers the torch paths
    from conformance.paths.records import PATHS, unavailable_reason

    assert unavailable_reason(PATHS["torch.autocast_fp16"], "cpu") == "it runs on cuda only"
    assert unavailable_reason(PATHS["torch.onnx_torchscript"], "cpu") is None
    why = unavailable_reason(PATHS["torch.onnx_torchscript"], "cuda")
    if "CUDAExecutionProvider" in onnxruntime.get_available_providers():
        assert why is None
    else:  # a finding on every case before (conversion_error), a skip with the reason now
        assert "no CUDAExecutionProvider" in why


def test_pytest_shards_split_the_suite_once():
    root = Path(__file__).resolve().parent.parent
    counts = []
    for shard in ("0/3", "1/3", "2/3", "0/1"):
        proc = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                               "--conformance-shard", shard, "tests/test_oracle.py"],
                              capture_output=True, text=True, cwd=root, timeout=120)
        counts.append(sum(1 for line in proc.stdout.splitlines() if "::" in line))
    assert sum(counts[:3]) == counts[3] > 0 and all(counts[:3])


def test_load_imports_a_module_of_the_folder_the_command_runs_in(tmp_path, monkeypatch):
    """``--load tests.planted_pairs`` from a checkout: the ``conformance`` script's own folder is on the path, not the
    one it runs in (as ``python -m`` would have it), so ``--load`` adds that folder; a module that is nowhere still
    exits naming it."""
    import os

    from conformance.cli.common import load_modules

    (tmp_path / "planted_here.py").write_text("LOADED = True\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", os.getcwd())])
    monkeypatch.delitem(sys.modules, "planted_here", raising=False)
    load_modules(["planted_here"])
    assert sys.modules["planted_here"].LOADED
    with pytest.raises(SystemExit, match="--load no_such_module: ModuleNotFoundError"):
        load_modules(["no_such_module"])
