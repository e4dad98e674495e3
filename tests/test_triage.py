"""Triage: failure signatures, the reducer, buckets, standalone reproducers, and the corpus format."""

import ast
import inspect
import json
import os
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from conformance.program.case import Case, InputSet
from conformance.program.ir import (
    DictSpec,
    For,
    Get,
    If,
    Input,
    Kwarg,
    KwargCond,
    OpStmt,
    OutDict,
    OutSeq,
    OutVar,
    Param,
    SeqSpec,
    TensorCond,
    TensorSpec,
    While,
)
from conformance.program.program import Program
from conformance.program.trees import flatten
from conformance.program.typecheck import check_program
from conformance.run.records import InputResult, ResultDetail, ResultRecord
from conformance.triage.buckets import Sighting, TriageBucket
from conformance.triage.corpus import CaseFileError, load_case_file, parse_case
from conformance.triage.signatures import Signature, failure_key, normalise, signature

ROOT = Path(__file__).resolve().parent.parent


def T(*shape):
    return TensorSpec(tuple(shape))


def _record(outcome, message="", program=None, mode="infer", **detail):
    rec = {"framework": "torch", "path": "script", "mode": mode, "outcome": outcome,
           "detail": {"message": message, **detail}}
    if program is not None:
        rec["case"] = Case(program, (InputSet("example", 1, 0),)).to_dict()
    return ResultRecord.from_json(rec)


def _program(names=("x0", "v0")):
    return Program(0, (Input(names[0], T(2)),), (), (), (Get(names[1], names[0]),), OutVar(names[1]))


# ------------------------------------------------------------------ signatures (no framework needed)


def test_normalise_blanks_what_varies_between_occurrences():
    a = ("TypeError: cannot convert Model at 0x7fc8bbe42310: input 'x2' is a dict "
         "(/tmp/conformance-0/torch/1a2b3c4d5e6f/model.py, line 44)")
    b = ("TypeError: cannot convert Model at 0x7f00aa: input 'x0' is a dict "
         "(/home/u/cache/9f8e7d6c5b4a/model.py, line 7)")
    assert normalise(a, {"x2"}) == normalise(b, {"x0"})
    assert normalise(a, {"x2"}).startswith("TypeError: cannot convert Model at <addr>: input '<name>' is a dict")
    assert normalise("ValueError: shapes [2, 3] and [4] do not broadcast") != normalise(a, {"x2"})
    # a converter that names the caller's source: a file on one run, source compiled from a string on another
    assert normalise("<string>:1:1: error: operand #0 does not dominate this use") == \
        normalise("/tmp/conformance-0/tf/ab12/model.py:7:3: error: operand #0 does not dominate this use")
    assert normalise("float32 of 3 in aten.add.Tensor") == "float32 of <n> in aten.add.Tensor"  # names keep digits


def test_export_errors_are_keyed_by_the_error_they_wrap():
    def wrapped(inner):
        return ("TorchExportError: Failed to export the model with torch.export. This is step 1/3 ...\n"
                f"- Debug `torch.export.export`\n\n## Exception summary\n\n{inner}\n\n(Refer to the full stack trace)")

    one = failure_key(_record("conversion_error", wrapped("<class 'TypeError'>: missing a required argument: 'x2'"),
                              _program(("x2", "v0"))))
    two = failure_key(_record("conversion_error", wrapped("<class 'TypeError'>: missing a required argument: 'x7'"),
                              _program(("x7", "v3"))))
    other = failure_key(_record("conversion_error", wrapped("<class 'UserError'>: Detected mismatch"), _program()))
    assert one == two == "TorchExportError: <class 'TypeError'>: missing a required argument: '<name>'"
    assert other != one
    runtime = failure_key(_record("runtime_error", "batch inputs: RuntimeError: shape '[6, 2]' is invalid"))
    assert runtime == "RuntimeError: shape '[<n>, <n>]' is invalid"  # which input set showed it is not the key


def test_paddle_to_static_errors_are_keyed_by_the_error_in_the_converted_code():
    def transformed(inner):
        return ("Dygraph2StaticException: In transformed code:\n\n    File \"/tmp/conformance-0/paddle/16967ae12fab/"
                "model.py\", line 39, in forward\n\tif v5.sum() < 0.5:\n\n    " + inner + "\n")

    refusal = failure_key(_record("conversion_error", transformed(
        "paddle.jit.dy2static.utils.Dygraph2StaticException: python while pred change from bool to variable.")))
    other = failure_key(_record("conversion_error", transformed(
        "TypeError: create_forward.<locals>.forward() takes from 4 to 6 positional arguments but 7 were given")))
    kernel = failure_key(_record("runtime_error", transformed(
        "PreconditionNotMetError: Tensor holds no memory. Call Tensor::mutable_data firstly.\n      [Hint: holder_ "
        "should not be null.]\n      [operator < pd_kernel.phi_kernel > error]  [operator < run_program > error]")))
    assert kernel == "PreconditionNotMetError: Tensor holds no memory. Call Tensor::mutable_data firstly."
    assert refusal == ("paddle.jit.dy2static.utils.Dygraph2StaticException: python while pred change from bool to "
                       "variable.")
    assert other.startswith("TypeError: create_forward") and other != refusal


def test_a_mismatch_is_keyed_by_the_kind_of_divergence():
    def mismatch(kind, role="example", **extra):
        entry = {"role": role, "outcome": "mismatch", "report": {"kind": kind}, **extra}
        return _record("mismatch", f"{role} inputs: ...", inputs=[{"role": "example", "outcome": "pass"}, entry])

    assert failure_key(mismatch("value")) == failure_key(mismatch("value", role="batch")) == "value differs from eager"
    assert failure_key(mismatch("shape")) != failure_key(mismatch("value"))
    assert failure_key(mismatch("value", flaky=True)) == "value differs from eager (flaky)"
    frozen = mismatch("value", frozen_report={"kind": "nonfinite"})
    assert failure_key(frozen) == "nonfinite differs from eager, also from eager replayed on the example's path"


def test_a_crash_is_keyed_by_its_signal():
    assert failure_key(_record("crash", "the worker process died (signal SIGSEGV)")) == "SIGSEGV"
    assert failure_key(_record("timeout", "ran past 3 s")) == "timeout"
    assert signature(_record("crash", "the process died (signal SIGSEGV)")) == \
        signature(_record("crash", "the worker process died while running torch.x (signal SIGSEGV)"))


def test_the_runner_mode_is_part_of_the_signature():
    inputs = [{"outcome": "mismatch", "report": {"kind": "value"}}]
    infer = signature(_record("mismatch", "", inputs=inputs))
    grad = signature(_record("mismatch", "", mode="grad", inputs=inputs))
    assert infer != grad and grad.mode == "grad" and "(grad)" in grad.title() and "mode" not in infer.to_dict()
    assert type(grad).from_dict(grad.to_dict()) == grad


# ------------------------------------------------------------------ the reducer (torch, planted paths)


@pytest.fixture(scope="module")
def planted():
    pytest.importorskip("torch")
    import tests.planted_triage  # noqa: F401 - registers the planted paths
    from conformance.paths.records import PATHS
    from conformance.run.runner import check

    return lambda case, path_id, mode="infer": check(case, PATHS[path_id], mode=mode)


def _while_case(seed=3, extra=True):
    """14 statements around a while loop that runs 3 to 8 times (kwargs, a nested input, a weight)."""
    body = (Get("v0", "x0"), Get("v1", "x1", (0,)), Get("v2", "x1", (1,)),
            OpStmt("v3", "add", ("v0", "v2")),
            OpStmt("v4", "linear", ("v3",), (("out_features", 3),), ("w0", "b0")),
            If(KwargCond("k0", "truth"), (OpStmt("v3", "tanh", ("v3",)),), (OpStmt("v3", "neg", ("v3",)),)),
            For("i0", "n", (OpStmt("v3", "add", ("v3", "v1")),)),
            OpStmt("v5", "abs", ("v3",)),
            While(TensorCond("v5", "sum", "<", 30.0), 8, "c0", (OpStmt("v5", "add_scalar", ("v5",), (("c", 1.0),)),)),
            OpStmt("v6", "relu", ("v4",)))
    program = Program(seed, (Input("x0", T("B", 4)), Input("x1", SeqSpec("tuple", (T(4), T("B", 4))))),
                      (Kwarg("k0", "bool", True, (True, False)), Kwarg("n", "int", 2, (1, 3))),
                      (Param("w0", (3, 4)), Param("b0", (3,))), body,
                      OutSeq("tuple", (OutVar("v5"), OutVar("v6"), OutVar("v3"))))
    check_program(program)
    return Case(program, (InputSet("example", 2, 0), InputSet("values", 2, 1), InputSet("batch", 3, 2)))


def test_reducer_shrinks_a_planted_while_divergence_to_a_few_statements(planted):
    from conformance.triage.reduce import reduce_case

    case = _while_case()
    original = planted(case, "torch.planted_while")
    assert original.outcome == "mismatch"
    ran = []

    def run(candidate):
        check_program(candidate.program)  # every candidate the reducer runs type-checks
        ran.append(candidate)
        return planted(candidate, "torch.planted_while")

    red = reduce_case(case, lambda r: r.outcome == "mismatch", run, record=original, max_seconds=120)
    assert red.complete and red.tried == len(ran) > red.kept > 0
    assert red.size_before == 14 and red.size <= 3
    assert "while_tensor" in red.case.program.constructs()
    assert red.record.outcome == "mismatch" and len(red.case.inputs) == 1
    assert len(red.case.program.input_leaves()) == 1 and not red.case.program.kwargs and not red.case.program.params
    assert planted(red.case, "torch.planted_while").outcome == "mismatch"


def test_reducer_keeps_the_case_when_nothing_smaller_fails_the_same_way(planted):
    from conformance.triage.reduce import reduce_case

    case = _while_case()
    red = reduce_case(case, lambda r: r.outcome == "conversion_error", lambda c: planted(c, "torch.planted_while"),
                      max_seconds=120)
    assert red.case == case and red.kept == 0 and red.tried > 0 and red.complete
    timed_out = reduce_case(case, lambda r: True, lambda c: planted(c, "torch.planted_while"), max_seconds=0)
    assert timed_out.case == case and timed_out.tried == 0 and not timed_out.complete


def fault_cases():
    """Two cases per fault of ``planted_faults``: the while cap, sigmoid, a dict input (other names)."""
    cases = [_while_case(seed=3), _while_case(seed=5)]
    for seed, name in ((1, "x0"), (2, "y")):
        body = (Get("a", name), OpStmt("b", "mul_scalar", ("a",), (("c", 2.0),)), OpStmt("c", "sigmoid", ("b",)))
        cases.append(Case(Program(seed, (Input(name, T(3, 2)),), (), (), body, OutVar("c")),
                          (InputSet("example", 1, 0),)))
    for seed, (name, key) in ((1, ("x0", "k0")), (2, ("feats", "mask"))):
        body = (Get("a", name, (key,)), OpStmt("b", "relu", ("a",)))
        cases.append(Case(Program(seed, (Input(name, DictSpec(((key, T(2)),))),), (), (), body, OutVar("b")),
                          (InputSet("example", 1, 0),)))
    return cases


def test_triage_makes_one_bucket_per_fault(planted):
    from conformance.triage.buckets import triage

    records = []
    for i, case in enumerate(fault_cases()):
        rec = planted(case, "torch.planted_faults")
        rec.seed, rec.index = 0, i
        records.append(rec)
    assert [r.outcome for r in records] == ["mismatch"] * 4 + ["conversion_error"] * 2
    lines = []
    buckets = triage(records + [replace(records[0], outcome="pass")], planted, max_seconds=300, progress=lines.append)
    assert len(buckets) == 3, [b.signature for b in buckets]
    by_feature = {("while" if "while_tensor" in b.signature.constructs else
                   "sigmoid" if "sigmoid" in b.signature.ops else "dict"): b for b in buckets}
    assert set(by_feature) == {"while", "sigmoid", "dict"}
    assert all(len(b.findings) == 2 and b.minimised for b in buckets)
    assert by_feature["while"].first_seen == {"case_id": records[0].case_id, "seed": 0, "index": 0}
    assert by_feature["dict"].signature.outcome == "conversion_error"
    assert by_feature["dict"].signature.key == "TypeError: cannot convert Model at <addr>: input '<name>' is a dict"
    assert by_feature["while"].case.program.size() <= 3 and any("->" in line for line in lines)


# ------------------------------------------------------------------ reproducers


def _env_without_conformance(tmp_path) -> Path:
    """A virtual environment that has torch and numpy (their site-packages folder on its path) but
    neither this project nor its editable install."""
    import numpy
    import torch

    env = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True)
    python = env / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import site; print(site.getsitepackages()[0])"], capture_output=True,
                          text=True, check=True).stdout.strip()
    dirs = {str(Path(m.__file__).resolve().parent.parent) for m in (torch, numpy)}
    (Path(site) / "frameworks.pth").write_text("\n".join(sorted(dirs)) + "\n")
    return python


def _run(python, folder):
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "TMPDIR")}
    return subprocess.run([str(python), "-I", "repro.py"], cwd=folder, env=env, capture_output=True, text=True,
                          timeout=300)


@pytest.fixture(scope="module")
def while_bucket(planted):
    from conformance.triage.reduce import reduce_case

    case = _while_case()
    first = planted(case, "torch.planted_while")
    red = reduce_case(case, lambda r: r.outcome == "mismatch", lambda c: planted(c, "torch.planted_while"),
                      record=first, max_seconds=120)
    first.seed, first.index = 0, 0
    return TriageBucket(signature(first).with_program(red.case.program), [Sighting.of(first)], red.case, red.record,
                        red.to_dict())


def test_repro_shows_the_divergence_with_only_torch_and_numpy(while_bucket, tmp_path):
    from conformance.triage.bug_report import write_bucket

    folder = write_bucket(while_bucket, tmp_path / "bucket", verify=False)
    assert {"bucket.json", "case.json", "repro.py", "example.npz", "REPORT.md"} <= {p.name for p in folder.iterdir()}
    tree = ast.parse((folder / "repro.py").read_text())
    imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}
    imported |= {node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert imported <= set(sys.stdlib_module_names) | {"numpy", "torch"}, imported
    python = _env_without_conformance(tmp_path)
    probe = subprocess.run([str(python), "-I", "-c", "import torch, numpy\ntry:\n    import conformance\n"
                            "except ImportError:\n    print('no conformance')"], capture_output=True, text=True)
    assert probe.stdout.strip() == "no conformance", probe.stderr
    shutil.copytree(folder, tmp_path / "elsewhere")  # nothing but the folder is needed
    proc = _run(python, tmp_path / "elsewhere")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "eager:" in proc.stdout and "converted:" in proc.stdout and "difference: output 0:" in proc.stdout
    assert "FAILED: torch.planted_while differs from eager" in proc.stdout
    report = (folder / "REPORT.md").read_text()
    assert "## Expected" in report and "## Actual" in report and "while" in report and "torch 2." in report


def test_repro_agrees_where_the_path_agrees(while_bucket, tmp_path):
    from conformance.triage.bug_report import write_bucket

    sig = while_bucket.signature
    script = TriageBucket(Signature("torch", "script", sig.outcome, sig.key, sig.ops, sig.constructs),
                          while_bucket.findings, while_bucket.case, while_bucket.record)
    folder = write_bucket(script, tmp_path / "script", verify=True)
    assert script.repro["verified"] is False and script.repro["exit_code"] == 0, script.repro["output_tail"]
    assert "OK: torch.script agrees with eager" in script.repro["output_tail"]
    assert json.loads((folder / "bucket.json").read_text())["repro"]["exit_code"] == 0


def test_the_repro_of_a_cuda_finding_runs_on_cuda(while_bucket, tmp_path):
    """A finding of a ``--device cuda`` campaign reproduces on CUDA: its repro.py places the model and the inputs
    there (it ran them on the CPU, where a CUDA-only bug agrees with eager)."""
    import importlib.util

    import torch

    from conformance.triage.bug_report import write_bucket

    cuda = TriageBucket(while_bucket.signature, while_bucket.findings, while_bucket.case,
                        replace(while_bucket.record, device="cuda"))
    folder = write_bucket(cuda, tmp_path / "cuda", verify=False)
    source = (folder / "repro.py").read_text()
    assert "DEVICE = 'cuda'" in source and "It runs on cuda, as the campaign did." in source
    spec = importlib.util.spec_from_file_location("cuda_repro", folder / "repro.py")
    repro = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(repro)  # defines, runs nothing (__name__ is not __main__)
    args, _ = repro.load_inputs(folder / "example.npz", "meta")  # a device this machine has, as CUDA would be
    leaves = [leaf for leaf in flatten(args) if isinstance(leaf, torch.Tensor)]
    assert leaves and all(leaf.device.type == "meta" for leaf in leaves)


def test_repro_of_a_real_path_shows_its_bug(tmp_path):
    pytest.importorskip("onnxruntime")
    from conformance.paths.records import PATHS, load_framework
    from conformance.run.runner import check
    from conformance.triage.bug_report import write_bucket

    load_framework("torch")
    case = load_case_file(ROOT / "cases" / "torch-onnx-dynamo-shape-branch-silently-frozen.json").case
    rec = check(case, PATHS["torch.onnx_dynamo"])
    assert rec.outcome == "mismatch"
    bucket = TriageBucket(signature(rec).with_program(case.program), [Sighting.of(rec)], case, rec)
    folder = write_bucket(bucket, tmp_path / "onnx", verify=True)
    assert (folder / "inputs.npz").exists()  # the batch input set shows it, not the example
    assert bucket.repro["verified"] is True, bucket.repro["output_tail"]
    assert "difference: output 0:" in bucket.repro["output_tail"]


def _passing_case():
    body = (Get("a", "x0"), Get("b", "x1", (0,)), OpStmt("c", "mul", ("a", "b")),
            If(KwargCond("k0", "truth"), (OpStmt("c", "relu", ("c",)),)), OpStmt("d", "sigmoid", ("a",)))
    program = Program(4, (Input("x0", T("B", 3)), Input("x1", SeqSpec("list", (T(3),)))),
                      (Kwarg("k0", "bool", True, (True, False)),), (), body,
                      OutSeq("tuple", (OutVar("c"), OutVar("d"))))
    return Case(program, (InputSet("example", 2, 0), InputSet("batch", 4, 1)))


#: Torch paths whose repro.py is checked (the compile ones take a while).
_REPRO_PATHS = ["torch.script", "torch.trace", "torch.export", "torch.onnx_dynamo", "torch.onnx_torchscript",
                pytest.param("torch.compile", marks=pytest.mark.slow),
                pytest.param("torch.compile_aot_eager", marks=pytest.mark.slow)]


@pytest.mark.parametrize("path_id", _REPRO_PATHS)
def test_repro_snippet_converts_like_its_path(path_id, tmp_path):
    """A program every torch path converts right: each path's repro.py must agree with eager too
    (nested inputs, a dynamic dim and a kwarg exercise the snippet's handling of them)."""
    pytest.importorskip("torch")
    from conformance.paths.records import PATHS, load_framework, missing_requirements
    from conformance.run.runner import check
    from conformance.triage.bug_report import write_bucket

    load_framework("torch")
    path = PATHS[path_id]
    if missing_requirements(path):
        pytest.skip(f"{path_id} needs {', '.join(missing_requirements(path))}")
    case = _passing_case()
    rec = check(case, path)
    assert rec.outcome == "pass", rec.detail.message
    failing_batch = replace(rec, outcome="mismatch", detail=ResultDetail(inputs=[InputResult("batch", 1, "mismatch")]))
    bucket = TriageBucket(signature(failing_batch).with_program(case.program), [Sighting.of(rec)], case,
                          failing_batch)
    write_bucket(bucket, tmp_path / "b", verify=True)
    assert bucket.repro["exit_code"] == 0, bucket.repro["output_tail"]
    assert f"OK: {path_id} agrees with eager" in bucket.repro["output_tail"]


@pytest.mark.parametrize("path_id", ["paddle.jit_save_function", "tf.saved_model"])
def test_repro_of_other_frameworks_agrees_where_the_path_does(path_id, tmp_path):
    """The same assembly for Paddle and TensorFlow; a file the conversion reads beside its module (Paddle's
    callers template) is copied beside repro.py; a SavedModel's sorted dict outputs are matched by key."""
    framework = path_id.split(".")[0]
    pytest.importorskip({"paddle": "paddle", "tf": "tensorflow"}[framework])
    from conformance.paths.records import PATHS, load_framework
    from conformance.run.runner import check
    from conformance.triage.bug_report import write_bucket

    load_framework(framework)
    path = PATHS[path_id]
    body = (Get("a", "x0"), OpStmt("b", "tanh", ("a",)), OpStmt("c", "sigmoid", ("a",)))
    output = (OutDict((("zeta", OutVar("b")), ("alpha", OutVar("c")))) if framework == "tf"  # keys not sorted
              else OutSeq("tuple", (OutVar("b"), OutVar("c"))))
    program = Program(6, (Input("x0", T("B", 3)),), (), (), body, output)
    case = Case(program, (InputSet("example", 2, 0), InputSet("batch", 3, 1)))
    record = check(case, path)
    assert record.outcome == "pass", record.detail.message
    batch_fails = ResultDetail(inputs=[InputResult("batch", 1, "mismatch")])
    failing_batch = replace(record, outcome="mismatch", detail=batch_fails)
    bucket = TriageBucket(signature(failing_batch).with_program(program), [Sighting.of(record)], case, failing_batch)
    folder = write_bucket(bucket, tmp_path / "b", verify=True)
    assert {Path(f).name for f in path.files} <= {p.name for p in folder.iterdir()}
    assert bucket.repro["exit_code"] == 0, bucket.repro["output_tail"]
    assert f"OK: {path_id} agrees with eager" in bucket.repro["output_tail"]


@pytest.mark.parametrize("path_id", ["torch.script", "torch.trace", "torch.onnx_dynamo"])
def test_repro_contains_the_code_the_campaign_ran(path_id):
    """repro.py is assembled from the conversion functions themselves, never from a copy kept beside them."""
    pytest.importorskip("torch")
    from conformance.paths.records import PATHS, load_framework
    from conformance.triage import repro_main
    from conformance.triage.repro import repro_source

    fw = load_framework("torch")
    path = PATHS[path_id]
    case = _passing_case()
    record = ResultRecord.for_case(case, "torch", path.name, "cpu", {}).finish("mismatch", "")
    bucket = TriageBucket(signature(record).with_program(case.program), [Sighting.of(record)], case, record)
    source = repro_source(bucket)
    for fn in (path.convert, path.run, fw.prepare, fw.call, fw.to_numpy, repro_main.reproduce,
               repro_main.differences):
        fn = getattr(fn, "func", fn)  # a functools.partial: the function it binds
        assert inspect.getsource(fn) in source, fn
    assert f"PATH = {path_id!r}" in source and "RUN_ON = ['example.npz']" in source
    assert "class Model(torch.nn.Module):" in source and "if __name__ == \"__main__\":" in source
    tree = ast.parse(source)
    defined = [node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.ClassDef))]
    assert len(defined) == len(set(defined))  # what two parts share is written once


def test_the_reproducer_driver_is_standalone():
    """repro_main is copied into every repro.py: it may import only the standard library and numpy."""
    from conformance.triage import repro_main
    from conformance.triage.repro import DATA, driver_source

    tree = ast.parse(inspect.getsource(repro_main))
    imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}
    imported |= {node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert imported <= set(sys.stdlib_module_names) | {"numpy"}, imported
    data = {"PATH": "tf.xla", "RUN_ON": ["example.npz", "inputs.npz"], "LEAF_NAMES": ["x0", "x1.k"],
            "ARG_NAMES": ["x0", "x1"], "DYNAMIC_AXES": {"x0": [0], "x1.k": []}, "ONNX_OPSET": 17, "DEVICE": "cuda"}
    source = driver_source(data)
    namespace: dict = {"__name__": "repro", "__file__": "/tmp/repro.py"}
    exec(compile(source, "repro.py", "exec"), namespace)
    assert {name: namespace[name] for name in DATA} == data


# ------------------------------------------------------------------ the command line and the corpus


def test_cli_triage_writes_buckets_then_saves_them_to_the_corpus(planted, tmp_path):
    records = []
    for i, case in enumerate([_while_case(), fault_cases()[-1]]):
        path = "torch.planted_while" if i == 0 else "torch.planted_faults"
        rec = planted(case, path)
        rec.seed, rec.index = 7, i
        records.append(rec)
    results = tmp_path / "results.jsonl"
    results.write_text("".join(json.dumps(r.to_json()) + "\n" for r in records))
    out, cases = tmp_path / "triage", tmp_path / "cases"

    def conformance(*args):
        return subprocess.run([sys.executable, "-m", "conformance", *args], cwd=ROOT, capture_output=True, text=True,
                              timeout=600)

    proc = conformance("triage", str(results), "--out", str(out), "--load", "tests.planted_triage", "--max-seconds",
                       "120", "--save", str(cases), "--corpus", str(cases))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "2 bucket(s)" in proc.stdout and "saved as" in proc.stdout
    folders = sorted(p for p in out.iterdir() if p.is_dir() and p.name != "logs")
    assert len(folders) == 2
    for folder in folders:
        written = {p.name for p in folder.iterdir()}
        assert {"bucket.json", "case.json", "repro.py", "REPORT.md", "example.npz"} <= written
        assert json.loads((folder / "bucket.json").read_text())["repro"]["verified"] is True
    saved = sorted(cases.glob("*.json"))
    assert [load_case_file(f).expected for f in saved] and len(saved) == 2
    outcomes = {next(iter(load_case_file(f).expected.values()))[0].outcome for f in saved}
    assert outcomes == {"mismatch", "conversion_error"}
    assert all(load_case_file(f).expected[next(iter(load_case_file(f).expected))][0].versions.startswith(">=2.")
               for f in saved)
    again = conformance("triage", str(out), "--save", str(cases), "--corpus", str(cases))
    assert again.returncode == 0 and again.stdout.count("already in the corpus") == 2, again.stdout + again.stderr
    replay = conformance("replay", str(saved[0]), "--load", "tests.planted_triage", "--frameworks", "torch",
                         "--paths", "planted_while,planted_faults")
    assert replay.returncode == 1  # still a finding
    from conformance.report.figures import read_triage

    assert {b.path for b in read_triage(out)} == {"torch.planted_while", "torch.planted_faults"}


_GOOD_CASE = {"summary": "s", "source": "https://example.org/1",
              "model": {"framework": "torch", "source": ["class Model: pass", "INPUTS = []"]},
              "expected": {"torch.script": {"outcome": "pass", "versions": ">=2.13"}}}


@pytest.mark.parametrize("change, field", [
    (lambda d: ["not", "an", "object"], "(top level)"),
    (lambda d: {**d, "expect": {}}, "expect"),
    (lambda d: {**d, "summary": ""}, "summary"),
    (lambda d: {**d, "case": {}}, "case/model"),
    (lambda d: {k: v for k, v in d.items() if k != "model"} | {"case": {"program": {}, "inputs": []}}, "case"),
    (lambda d: {**d, "expected": {"torch.script": {"outcome": "wrong"}}}, "expected['torch.script'].outcome"),
    (lambda d: {**d, "expected": {"torch.script": {"outcome": "pass", "versions": "two"}}},
     "expected['torch.script'].versions"),
    (lambda d: {**d, "expected": {"jax.jit": {"outcome": "pass"}}}, "expected['jax.jit']"),
    (lambda d: {**d, "expected": {"paddle.to_static": {"outcome": "pass"}}}, "expected['paddle.to_static']"),
    (lambda d: {**d, "expected": {"torch.script": [{"outcome": "pass"}, {"outcome": "pass", "when": 1}]}},
     "expected['torch.script'][1]"),
    (lambda d: {**d, "expected": {"torch.script": {"outcome": "pass", "cpu": "AVX-512"}}},
     "expected['torch.script'].cpu"),
    (lambda d: {**d, "model": {"framework": "torch", "source": "class Model(:\n"}}, "model.source"),
    (lambda d: {**d, "model": {"framework": "torch", "source": "class Model: pass\n"}}, "model.source"),
    (lambda d: {**d, "model": {"framework": "mxnet", "source": "x"}}, "model.framework"),
])
def test_a_malformed_case_file_names_the_file_and_field(tmp_path, change, field):
    parse_case(_GOOD_CASE, "good.json")
    file = tmp_path / "bad.json"
    file.write_text(json.dumps(change(dict(_GOOD_CASE))))
    with pytest.raises(CaseFileError) as e:
        load_case_file(file)
    assert str(e.value).startswith(f"{file}: {field}:"), str(e.value)


def test_an_expectation_gated_on_a_cpu_flag_applies_where_the_cpu_has_it(monkeypatch):
    from conformance.triage import corpus

    monkeypatch.setattr(corpus, "cpu_flags", lambda: frozenset({"avx2", "fma"}))
    doc = {**_GOOD_CASE, "expected": {"torch.script": [{"outcome": "mismatch", "cpu": "avx512bw"},
                                                       {"outcome": "runtime_error", "cpu": "!avx512bw",
                                                        "versions": ">=2.13"},
                                                       {"outcome": "pass"}]}}
    case_file = parse_case(doc, "cpu.json")
    assert case_file.expectation("torch.script", "2.13.0").outcome == "runtime_error"
    assert case_file.expectation("torch.script", "2.12.0").outcome == "pass"
    monkeypatch.setattr(corpus, "cpu_flags", lambda: frozenset({"avx2", "avx512bw"}))
    assert case_file.expectation("torch.script", "2.13.0").outcome == "mismatch"
    assert case_file.to_dict()["expected"] == doc["expected"]


def test_a_case_file_that_is_not_json_is_named(tmp_path):
    file = tmp_path / "broken.json"
    file.write_text("{\"summary\": ")
    with pytest.raises(CaseFileError, match=r"broken.json: not valid JSON"):
        load_case_file(file)


def test_loading_a_case_file_runs_none_of_its_code(tmp_path):
    marker = tmp_path / "ran"
    doc = dict(_GOOD_CASE, model={"framework": "torch", "source": [
        f"open({str(marker)!r}, 'w').write('x')", "class Model: pass", "INPUTS = []"]})
    file = tmp_path / "case.json"
    file.write_text(json.dumps(doc))
    assert load_case_file(file).model.source.startswith("open(")
    assert not marker.exists()


def test_a_hand_written_model_is_judged_call_by_call():
    pytest.importorskip("torch")
    from conformance.paths.records import PATHS, load_framework
    from conformance.triage.corpus import ModelSource, check_model

    load_framework("torch")
    source = "\n".join([
        "import numpy as np", "import torch", "", "",
        "class Model(torch.nn.Module):",
        "    def __init__(self):",
        "        super().__init__()",
        "        self.scale = 1.0",
        "",
        "    def forward(self, x, m: int = 1):",
        "        if bool((x < 0).any()):",
        "            raise ValueError('negative input')",
        "        return x * self.scale * (1 / m)",
        "",
        "",
        "def before_call(model, index):",
        "    model.scale = 2.0 if index == 1 else 1.0",
        "",
        "",
        "INPUTS = [([np.ones(3, np.float32)], {}), ([np.ones(3, np.float32)], {}), ([-np.ones(3, np.float32)], {})]"])
    # script copies the attribute when it converts: the change before call 1 does not reach it;
    # on call 2 both raise, which agrees
    record = check_model(ModelSource("torch", source), PATHS["torch.script"])
    assert [e.outcome for e in record.detail.inputs] == ["pass", "mismatch", "pass"]
    assert record.outcome == "mismatch" and record.detail.message.startswith("call 1:")
    unchanged = source.replace("2.0 if index == 1 else 1.0", "1.0")
    assert check_model(ModelSource("torch", unchanged), PATHS["torch.script"]).outcome == "pass"
    # 1 / 0 raises ZeroDivisionError in Python; TorchScript returns inf: a result where eager raises
    divide = unchanged.replace("([-np.ones(3, np.float32)], {})", "([np.ones(3, np.float32)], {'m': 0})")
    record = check_model(ModelSource("torch", divide), PATHS["torch.script"])
    assert record.outcome == "mismatch" and "returns a result where eager raises ZeroDivisionError" in \
        record.detail.message


def test_expected_bugs_are_strict_xfails(tmp_path):
    """The corpus suite itself, on three cases: a bug still there (xfail), a 'bug' that passes
    (an unexpected pass fails the run), and a pass (passes)."""
    pytest.importorskip("torch")
    (tmp_path / "oracles").mkdir()
    shutil.copy(ROOT / "oracles" / "test_cases.py", tmp_path / "oracles" / "test_cases.py")
    (tmp_path / "cases").mkdir()
    bug = json.loads((ROOT / "cases" / "torch-compile-clamp-bound-overflow.json").read_text())  # hand-written
    (tmp_path / "cases" / "still-there.json").write_text(json.dumps(bug))
    fixed = dict(bug, expected={"torch.script": {"outcome": "mismatch"}},
                 model={"framework": "torch", "source": [
                     "import numpy as np", "import torch", "", "",
                     "class Model(torch.nn.Module):", "    def forward(self, x):", "        return x + 1", "", "",
                     "INPUTS = [([np.ones(2, np.float32)], {})]"]})
    (tmp_path / "cases" / "fixed-upstream.json").write_text(json.dumps(fixed))
    passes = dict(fixed, expected={"torch.script": {"outcome": "pass"}})
    (tmp_path / "cases" / "passes.json").write_text(json.dumps(passes))
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rxX",
                           "oracles/test_cases.py", "-k", "test_case_outcome"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=600)
    assert "1 failed, 1 passed, 3 deselected, 1 xfailed" in proc.stdout, proc.stdout + proc.stderr
    assert "[XPASS(strict)] known bug" in proc.stdout and "fixed-upstream" in proc.stdout


# ------------------------------------------------------------------ a whole campaign (slow)


@pytest.mark.slow
def test_a_campaign_with_planted_faults_triages_to_one_bucket_per_fault(tmp_path):
    pytest.importorskip("torch")

    def conformance(*args):
        return subprocess.run([sys.executable, "-m", "conformance", *args], cwd=ROOT, capture_output=True, text=True,
                              timeout=1800)

    runs = tmp_path / "campaign"
    proc = conformance("fuzz", "--load", "tests.planted_triage", "--frameworks", "torch", "--mode", "infer",
                       "--paths", "planted_while,planted_faults",
                       "--max-cases", "200", "--seed", "1", "--workers", "1", "--budget", "300", "--out", str(runs))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    findings = [r for r in map(json.loads, (runs / "results.jsonl").read_text().splitlines())
                if r["outcome"] in ("mismatch", "conversion_error")]
    out = tmp_path / "triage"
    proc = conformance("triage", str(runs), "--out", str(out), "--load", "tests.planted_triage", "--max-seconds",
                       "900", "--reduce-seconds", "60")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    from conformance.triage.buckets import read_buckets

    buckets = read_buckets(out)
    assert sum(len(b.findings) for b in buckets) == len(findings) > len(buckets)
    assert all(b.minimised and b.repro["verified"] for b in buckets)
    loops = [b for b in buckets if b.signature.path == "planted_while"]
    assert len(loops) == 1, [b.signature for b in loops]  # one fault: one bucket, however many cases
    assert "while_tensor" in loops[0].signature.constructs and loops[0].case.program.size() <= 3
    # planted_faults: one bucket per fault that its findings show (which faults show depends on the draws)
    faults = [b for b in buckets if b.signature.path == "planted_faults"]
    refused = [b for b in faults if b.signature.outcome == "conversion_error"]
    wrong = [b for b in faults if b.signature.outcome == "mismatch"]
    assert len(refused) <= 1 and all("dict_input" in b.signature.constructs for b in refused)
    kinds = ["sigmoid" if "sigmoid" in b.signature.ops else "while" if "while_tensor" in b.signature.constructs
             else "?" for b in wrong]
    assert sorted(kinds) == sorted(set(kinds)) and "?" not in kinds, [b.signature for b in wrong]


def test_a_saved_case_names_the_framework_version_of_a_tf_finding(tmp_path):
    # records keep versions under the package's name (tensorflow), the signature under the framework's (tf)
    from conformance.triage.buckets import save_case

    rec = ResultRecord.from_json({"framework": "tf", "path": "onnx", "mode": "infer", "outcome": "mismatch",
                                  "versions": {"tensorflow": "2.21.0", "tf2onnx": "1.17.0", "python": "3.11"},
                                  "case": Case(_program(), (InputSet("example", 1, 0),)).to_dict(),
                                  "detail": {"message": "output: 1 of 2 values differ"}})
    bucket = TriageBucket(signature(rec), [Sighting.of(rec)], Case.from_dict(rec.case), rec)
    saved = load_case_file(save_case(bucket, tmp_path, date="2026-11-23"))
    assert saved.expected["tf.onnx"][0].versions == ">=2.21"
    assert "(tf 2.21.0, tf2onnx 1.17.0;" in saved.source
