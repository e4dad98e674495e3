"""Paths judged end to end: planted wrong paths are caught, trace's frozen branch is never a pass."""

import types

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings

torch = pytest.importorskip("torch")

from conformance.paths import known  # noqa: E402
from conformance.paths.records import PATHS, Failure  # noqa: E402
from conformance.program.case import Case, InputSet, materialize  # noqa: E402
from conformance.program.ir import Get, If, Input, OpStmt, OutVar, TensorCond, TensorSpec  # noqa: E402
from conformance.program.program import Program  # noqa: E402
from conformance.program.strategies import CONSTRUCTS, cases  # noqa: E402
from conformance.run.runner import check  # noqa: E402

from . import planted_paths  # noqa: E402

quick = settings(max_examples=8, deadline=None, derandomize=True, database=None,
                 suppress_health_check=list(HealthCheck))


def _has_float_output(record) -> bool:
    return any(e.get("outcome") != "discarded" for e in record["detail"].get("inputs", []))


@quick
@given(cases(constructs=CONSTRUCTS))
def test_planted_perturbation_is_a_mismatch(case):
    eager = check(case, PATHS["torch.eager"])
    assume(eager["outcome"] == "pass")
    record = check(case, PATHS["torch.planted_perturb"])
    outs = [e for e in record["detail"]["inputs"] if e["outcome"] != "discarded"]
    if all(e.get("max_abs_err", 0) == 0 for e in outs):  # no float output to perturb
        assume(False)
    assert record["outcome"] == "mismatch", record["detail"]["message"]


@quick
@given(cases(constructs=CONSTRUCTS))
def test_planted_dtype_and_nan_are_mismatches(case):
    assume(check(case, PATHS["torch.eager"])["outcome"] == "pass")
    dtype = check(case, PATHS["torch.planted_dtype"])
    nan = check(case, PATHS["torch.planted_nan"])
    float_out = dtype["outcome"] != "pass"  # only programs with a float output can be broken this way
    assume(float_out)
    assert dtype["outcome"] == "mismatch" and "dtype" in dtype["detail"]["message"]
    assert nan["outcome"] == "mismatch" and "NaN" in nan["detail"]["message"]


@quick
@given(cases(constructs=CONSTRUCTS))
def test_eager_and_script_pass_generated_programs(case):
    for name in ("torch.eager", "torch.script"):
        record = check(case, PATHS[name])
        assert record["outcome"] in ("pass", "discarded"), record["detail"]["message"]


def _branch_program() -> Program:
    """if x.sum() > 0: relu(x) else: -x — a data-dependent branch."""
    return Program(
        seed=0, inputs=(Input("x", TensorSpec((4, 3))),), kwargs=(), params=(),
        body=(Get("v0", "x"),
              If(TensorCond("v0", "sum", ">", 0.0), (OpStmt("v0", "relu", ("v0",)),), (OpStmt("v0", "neg", ("v0",)),))),
        output=OutVar("v0"))


def _seed_with_sign(program, positive: bool) -> int:
    for s in range(1000):
        args, _ = materialize(program, InputSet("example", 1, s))
        if (args[0].sum() > 0.5) == positive and abs(args[0].sum()) > 0.5:
            return s
    raise AssertionError("no seed found")


@pytest.mark.parametrize("path", ["torch.trace", "torch.onnx_torchscript"])
def test_trace_on_the_other_branch_is_caught(path):
    p = _branch_program()
    case = Case(p, (InputSet("example", 1, _seed_with_sign(p, True)), InputSet("values", 1, _seed_with_sign(p, False))))
    record = check(case, PATHS[path])
    by_role = {e["role"]: e["outcome"] for e in record["detail"]["inputs"]}
    assert by_role["example"] == "pass"
    assert by_role["values"] in ("expected_divergence", "mismatch")
    assert record["outcome"] in ("expected_divergence", "mismatch")
    assert any("TracerWarning" in w for w in record["detail"]["warnings"]) or path != "torch.trace"
    # script follows the branch: no divergence at all
    assert check(case, PATHS["torch.script"])["outcome"] == "pass"


def test_a_mismatch_is_rerun_to_tell_flaky_from_wrong():
    p = _branch_program()
    case = Case(p, (InputSet("example", 1, _seed_with_sign(p, True)),))
    wrong = check(case, PATHS["torch.planted_perturb"])
    assert wrong["outcome"] == "mismatch" and wrong["detail"]["inputs"][0]["flaky"] is False
    planted_paths._calls["n"] = 0
    flaky = check(case, PATHS["torch.planted_flaky"])
    assert flaky["outcome"] == "mismatch" and flaky["detail"]["inputs"][0]["flaky"] is True
    assert flaky["detail"]["message"].startswith("example inputs: flaky")


def test_specialisation_does_not_excuse_a_wrong_result():
    """On the other branch trace must compute eager with the example's branch; anything else is a bug."""
    p = _branch_program()
    case = Case(p, (InputSet("example", 1, _seed_with_sign(p, True)), InputSet("values", 1, _seed_with_sign(p, False))))
    trace = check(case, PATHS["torch.trace"])
    assert trace["outcome"] == "expected_divergence"
    assert "matches eager replayed with the example's kwargs and control flow" in trace["detail"]["message"]
    wrong = check(case, PATHS["torch.planted_trace_wrong"])
    assert wrong["outcome"] == "mismatch", wrong["detail"]["message"]
    assert "differs even from eager replayed" in wrong["detail"]["message"]


def test_a_known_bug_is_named_on_inputs_a_path_specialises_on_too():
    """A mismatch against eager's replay (inputs the path specialises on) is named by a compare-phase
    known-bug record like any other mismatch: it stays a mismatch, with the record's reason."""
    import dataclasses

    from conformance.paths.records import Limitation

    p = _branch_program()
    case = Case(p, (InputSet("example", 1, _seed_with_sign(p, True)), InputSet("values", 1, _seed_with_sign(p, False))))
    known = Limitation(reason="known bug: planted, 1% off off the example", phases=("compare",), divergences=("value",),
                       outcome=None)
    path = dataclasses.replace(PATHS["torch.planted_trace_wrong"], limitations=(known,))
    record = check(case, path)
    assert record["outcome"] == "mismatch" and record["detail"]["inputs"][1]["outcome"] == "mismatch"
    assert record["detail"]["inputs"][1]["known_issue"].startswith("known bug: planted")


def test_a_record_of_a_package_that_is_not_installed_names_nothing():
    from dataclasses import replace

    from conformance.paths.records import Failure, Limitation

    failure = Failure("convert", error_types=("RuntimeError",), message="boom")
    of_absent = Limitation(reason="known bug: planted", errors=("RuntimeError",), outcome=None, versions=">=1.0",
                           package="conformance-no-such-package")
    assert not of_absent.applies(failure, "2.13.0")
    assert replace(of_absent, package="numpy").applies(failure, "2.13.0")


def test_export_refuses_data_dependent_branch_as_documented():
    p = _branch_program()
    case = Case(p, (InputSet("example", 1, _seed_with_sign(p, True)),))
    record = check(case, PATHS["torch.export"])
    assert record["outcome"] == "unsupported" and "torch.cond" in record["detail"]["limitation"]


# ------------------------------------------------------------------ limitations select what torch really raises


class _DataDependentBranch(torch.nn.Module):
    def forward(self, x0):
        return x0.relu() if x0.sum() > 0 else -x0


class _ShapeBranch(torch.nn.Module):
    def forward(self, x0):
        return x0 * 2 if x0.shape[0] > 2 else x0


class _FloatKwarg(torch.nn.Module):
    def forward(self, x0, alpha: float = 0.5):
        return x0 * alpha


class _BoolKwarg(torch.nn.Module):
    def forward(self, x0, flag: bool = True):
        return x0 * 2 if flag else x0


class _InputReturned(torch.nn.Module):
    def forward(self, x0, x1):
        return x0.relu(), x1


class _TrailingDict(torch.nn.Module):
    def forward(self, x0, x1):
        return x0 + x1["k0"]


def _context(model, args, kwargs, workdir):
    """A conversion's plain-data context for hand-written inputs: every tensor's first axis dynamic."""
    from conformance.program.trees import flatten

    arg_names = [f"x{i}" for i in range(len(args))]
    leaf_names = [name + (f".{k}" if isinstance(value, dict) else "") for name, value in zip(arg_names, args)
                  for k in (value if isinstance(value, dict) else [None])]
    assert len(leaf_names) == len(flatten(list(args)))
    return types.SimpleNamespace(model=model.eval(), args=args, kwargs=kwargs, device="cpu", workdir=str(workdir),
                                 tensor_names=leaf_names, arg_names=arg_names,
                                 dynamic_axes={name: [0] for name in leaf_names}, kwarg_sets=[kwargs], mode="infer")


_ROWS = torch.ones(4, 3)
#: (path, model, args, kwargs, limitation): converting the model along the path fails, and the failure as the
#: runner sees it (exception type, the framework's message) selects exactly that limitation of the path.
_REFUSALS = [
    ("torch.export", _DataDependentBranch, (_ROWS,), {}, known.record("torch_export.data_dependent")),
    ("torch.export", _ShapeBranch, (_ROWS,), {}, known.record("torch_export.shape_guard")),
    ("torch.fx", _DataDependentBranch, (_ROWS,), {}, known.record("fx.control_flow")),
    ("torch.onnx_dynamo", _DataDependentBranch, (_ROWS,), {}, known.record("torch_export.onnx_data_dependent")),
    ("torch.onnx_dynamo", _InputReturned, (_ROWS, _ROWS), {}, known.record("dynamo_exporter.identity_output")),
    ("torch.onnx_torchscript", _FloatKwarg, (_ROWS,), {"alpha": 0.5},
     known.record("torchscript_exporter.float_kwarg_input")),
]


@pytest.mark.parametrize("path_id, model, args, kwargs, expected", _REFUSALS,
                         ids=[f"{p}-{m.__name__.strip('_')}" for p, m, *_ in _REFUSALS])
def test_a_limitation_selects_the_error_torch_raises(path_id, model, args, kwargs, expected, tmp_path):
    path = PATHS[path_id]
    with pytest.raises(Exception) as raised:
        path.convert(_context(model(), list(args), kwargs, tmp_path))
    failure = Failure.of_exception(raised.value, "convert")
    assert path.limitation_for(failure, torch.__version__) is expected, failure


def test_onnx_dynamo_takes_a_trailing_dict_input_for_an_input(tmp_path):
    # the exporter takes a trailing dict of args for the kwargs when none are given
    # (cases/torch-onnx-dynamo-trailing-dict-input-taken-as-kwargs.json): the path passes the kwargs explicitly
    path, args = PATHS["torch.onnx_dynamo"], [_ROWS, {"k0": 2 * _ROWS}]
    artifact = path.convert(_context(_TrailingDict(), args, {}, tmp_path))
    out = path.run(artifact, args, {})
    assert np.allclose(np.asarray(out), 3 * _ROWS.numpy())


def test_an_exported_program_refuses_another_kwarg_value_as_documented(tmp_path):
    path = PATHS["torch.export"]
    artifact = path.convert(_context(_BoolKwarg(), [_ROWS], {"flag": True}, tmp_path))
    with pytest.raises(Exception) as raised:
        path.run(artifact, [_ROWS], {"flag": False})
    failure = Failure.of_exception(raised.value, "run")
    assert path.limitation_for(failure, torch.__version__) is known.record("torch_export.kwarg_guard"), failure
    assert path.limitation_for(Failure.of_exception(raised.value, "convert"), torch.__version__) is None


class _Softplus(torch.nn.Module):
    def forward(self, x0):
        return torch.nn.functional.softplus(x0)


def test_onnxruntime_without_a_float64_softplus_kernel_is_a_refusal_of_the_dynamo_exporter_too(tmp_path):
    path = PATHS["torch.onnx_dynamo"]
    with pytest.raises(Exception) as raised:
        path.convert(_context(_Softplus(), [_ROWS.double()], {}, tmp_path))
    failure = Failure.of_exception(raised.value, "convert")
    assert path.limitation_for(failure, torch.__version__) is known.record("onnxruntime.no_kernel"), failure


class _Identity(torch.nn.Module):
    def forward(self, x0):
        return x0


def test_autocast_keeps_a_float64_output_beyond_float32_range(tmp_path):
    # autocast leaves float64 alone: casting its output to float32 made 4.5e307 inf (seed 0 case f5fe525517c5)
    path, x = PATHS["torch.autocast_bf16"], torch.full((1, 2), 4.5e307, dtype=torch.float64)
    out = path.run(path.convert(_context(_Identity(), [x], {}, tmp_path)), [x], {})
    assert out.dtype == torch.float64 and torch.equal(out, x)


def test_the_train_mode_export_record_names_batch_norm_or_dropout_in_train_mode_only():
    lim, version = known.record("torchscript_exporter.train_mode_exported_eval"), torch.__version__
    diverged = dict(phase="compare", divergences=(("value", "[0]"),))
    assert lim.applies(Failure(constructs=("train_layer", "train_mode"), ops=("batch_norm",), **diverged), version)
    assert not lim.applies(Failure(constructs=("train_layer",), ops=("batch_norm",), **diverged), version)  # eval()
    assert not lim.applies(Failure(constructs=("train_mode",), ops=("floor_div",), **diverged), version)


def test_cudnns_refusal_to_differentiate_an_rnn_in_eval_is_documented_on_every_autograd_path():
    """Seen on an H200 (grad mode, a GRU in eval(): eager, script and trace alike); CI has no GPU, so the record's
    selector is checked on the failure the GPU run recorded."""
    message = "cudnn RNN backward can only be called in training mode"
    failure = Failure("run", "grad", ("RuntimeError", "Exception"), message, ops=("gru", "sin"))
    for pid in ("torch.eager", "torch.script", "torch.trace", "torch.fx", "torch.compile", "torch.export"):
        named = PATHS[pid].limitation_for(failure, torch.__version__)
        assert named is known.record("torch_eager.cudnn_rnn_eval_backward"), pid
    other = Failure("run", "grad", ("RuntimeError", "Exception"), message, ops=("conv2d",))
    assert PATHS["torch.eager"].limitation_for(other, torch.__version__) is None


def test_every_limitation_selects_ops_that_exist():
    from conformance.program.ops import OPS

    for path in PATHS.values():
        for lim in path.records:
            assert set(lim.ops) <= set(OPS), (path.id, lim.reason[:60], set(lim.ops) - set(OPS))
