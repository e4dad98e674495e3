"""The PyTorch deployment paths judged end to end: each passes a clean program with nested inputs, kwargs and a dict
output (also at another batch size), and the same conversion with a planted wrong output is a mismatch; a missing
runtime is a reasoned 'unsupported'; each conversion is copyable into a reproducer."""

import dataclasses

import pytest

pytest.importorskip("torch")

from conformance.paths.records import PATHS  # noqa: E402
from conformance.paths.standalone import standalone_source  # noqa: E402
from conformance.paths.torch.deployment_records import DEPLOYMENT_PATHS  # noqa: E402
from conformance.program.case import Case, InputSet  # noqa: E402
from conformance.run.runner import check, prepare, run_path  # noqa: E402

from .planted_deploy import (  # noqa: E402
    assert_clean_passes,
    assert_planted_is_a_mismatch,
    clean_case,
    clean_program,
    ensure_registered,
)  # noqa: E402

ensure_registered(DEPLOYMENT_PATHS)

#: AOTInductor compiles C++ for every conversion (about 30 s here): its tests are slow ones
SLOW = {"torch.aoti"}
PATH_IDS = [pytest.param(p.id, marks=[pytest.mark.slow] if p.id in SLOW else []) for p in DEPLOYMENT_PATHS]


@pytest.fixture(scope="module")
def prepared():
    case = clean_case()
    return case, prepare(case, "torch")


@pytest.mark.parametrize("path_id", PATH_IDS)
def test_a_clean_program_passes(prepared, path_id):
    assert_clean_passes(*prepared, path_id)


@pytest.mark.parametrize("path_id", PATH_IDS)
def test_a_planted_wrong_output_is_a_mismatch(prepared, path_id):
    assert_planted_is_a_mismatch(*prepared, path_id)


@pytest.mark.parametrize("path_id", ["torch.script_saved", "torch.trace_saved", "torch.export_saved"])
def test_another_kwargs_value_follows_what_the_path_documents(path_id):
    """script keeps the kwargs a parameter; trace and export fix the example's (a documented specialisation or
    refusal, never a silent wrong answer)."""
    program = clean_program()
    case = Case(program, (InputSet("example", 2, 1, (("alpha", 0.5), ("flag", True))),
                          InputSet("kwargs", 2, 2, (("alpha", 2.0), ("flag", False)))))
    record = check(case, PATHS[path_id])
    expected = {"torch.script_saved": "pass", "torch.trace_saved": "expected_divergence",
                "torch.export_saved": "unsupported"}[path_id]
    assert record["outcome"] == expected, record["detail"]["message"]


def test_a_missing_runtime_is_unsupported_with_the_reason(prepared):
    case, prep = prepared
    path = dataclasses.replace(PATHS["torch.openvino"], requires=("no_such_runtime_module",))
    record = run_path(case, prep, path)
    assert record["outcome"] == "unsupported" and "no_such_runtime_module" in record["detail"]["message"]


@pytest.mark.parametrize("path", DEPLOYMENT_PATHS, ids=lambda p: p.id)
def test_each_conversion_is_copyable_into_a_reproducer(path):
    source = standalone_source(path.convert, path.run, names=("convert", "run"))
    compile(source, path.id, "exec")
    assert "\ndef convert" in source or "\nconvert = " in source


@pytest.mark.parametrize("path_id", ["torch.onnx_torchscript", "torch.onnx_torchscript_openvino"])
def test_the_exporters_sigfpe_on_an_empty_reshape_is_a_known_crash(path_id):
    """The TorchScript exporter dies of SIGFPE exporting `x.reshape(0, 2)` of an empty x (in a worker: a crash,
    cases/standalone/torch_onnx_torchscript_reshape_empty_sigfpe.py): the lost record names the known bug, and only
    for a program with the op and that signal."""
    from conformance.paths.records import load_framework
    from conformance.program.ir import Get, Input, OpStmt, OutVar, TensorSpec
    from conformance.program.program import Program
    from conformance.run.crashes import finish_lost
    from conformance.run.records import ResultRecord

    path = PATHS[path_id]
    fw = load_framework("torch")

    def lost(op, attrs, code):
        program = Program(seed=1, inputs=(Input("x", TensorSpec((0, 2))),), kwargs=(), params=(),
                          body=(Get("v0", "x"), OpStmt("v1", op, ("v0",), attrs)), output=OutVar("v1"))
        case = Case(program, (InputSet("example", 1, 0),))
        record = ResultRecord.for_case(case, "torch", path.name, "cpu", fw.versions())
        return finish_lost(record, path, "crash", "the worker process died", code, "", program, fw.version())

    record = lost("reshape_empty", (("shape", (0, 2)),), -8)
    assert record["outcome"] == "crash" and "SIGFPE" in record["detail"]["known_issue"]
    assert not lost("reshape_empty", (("shape", (0, 2)),), -11)["detail"].get("known_issue")  # another signal
    assert not lost("neg", (), -8)["detail"].get("known_issue")  # another op
