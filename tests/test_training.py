"""The gradient and training-step oracles (``grad`` and ``train`` modes): planted wrong gradients and
optimizer steps are mismatches, rounding noise and seeded dropout are not; the IR stays backward
compatible; batch norm and dropout mean the same in every framework's eager mode."""

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, assume, given, settings

from conformance.judge.training import STEPS, compare
from conformance.program.case import Case, InputSet
from conformance.program.ir import Get, Input, OpStmt, OutVar, Param, TensorSpec
from conformance.program.ops import OPS, TRIAGED_OPS
from conformance.program.program import Program
from conformance.program.strategies import CONSTRUCTS, TRAIN_CONSTRUCTS, cases, programs

# no shrinking: each shrink step runs eager and a path again (shrink a failure by hand with the dev profile)
quick = settings(max_examples=6, deadline=None, derandomize=True, database=None,
                 suppress_health_check=list(HealthCheck), phases=[Phase.explicit, Phase.generate])
TRAIN = CONSTRUCTS + TRAIN_CONSTRUCTS


def _program(body, params, output, inputs=(Input("x0", TensorSpec((6, 3))),), training=False) -> Program:
    p = Program(seed=7, inputs=inputs, kwargs=(), params=params, body=(Get("v0", "x0"),) + body,
                output=output, training=training)
    return Program.from_dict(p.to_dict())  # type-checked


def _linear(out, arg, p, q, n_in, n_out):
    return OpStmt(out, "linear", (arg,), (("out_features", n_out),), (p, q)), \
        (Param(p, (n_out, n_in)), Param(q, (n_out,)))


def detached_program() -> Program:
    """out = linear(x; p0, p1) + tanh(detach(linear(x; p2, p3))): p2 and p3 get no gradient (None)."""
    s1, w1 = _linear("v1", "v0", "p0", "p1", 3, 2)
    s2, w2 = _linear("v2", "v0", "p2", "p3", 3, 2)
    body = (s1, s2, OpStmt("v3", "detach", ("v2",)), OpStmt("v4", "tanh", ("v3",)), OpStmt("v5", "add", ("v1", "v4")))
    return _program(body, w1 + w2, OutVar("v5"))


def batch_norm_program(p: float = 0.5, training: bool = True) -> Program:
    """linear(dropout(batch_norm(x), p)) on x of shape [6, 3, 2], in train() or eval()."""
    bn = (Param("p0", (3,)), Param("p1", (3,)), Param("p2", (3,), trainable=False),
          Param("p3", (3,), 0.25, 1.0, trainable=False))
    s, w = _linear("v3", "v2", "p4", "p5", 2, 4)
    body = (OpStmt("v1", "batch_norm", ("v0",), (), ("p0", "p1", "p2", "p3")),
            OpStmt("v2", "dropout", ("v1",), (("key", 1), ("p", p))), s)
    return _program(body, bn + w, OutVar("v3"), (Input("x0", TensorSpec((6, 3, 2))),), training)


def _case(program: Program, sets: int = 2) -> Case:
    return Case(program, tuple(InputSet("example" if i == 0 else "values", 1, 11 + i) for i in range(sets)))


# ------------------------------------------------------------------ pure parts (no framework)


def test_compare_none_rule():
    g = np.ones(3, np.float32)
    eager = {"param_grads": {"p0": g, "p1": None}}
    assert compare({"param_grads": {"p0": g, "p1": None}}, eager).ok
    where_none = compare({"param_grads": {"p0": g, "p1": np.zeros(3, np.float32)}}, eager)
    assert not where_none.ok and "a gradient where eager has none" in where_none.summary()
    assert "['param_grads']['p1']" in where_none.summary()
    missing = compare({"param_grads": {"p0": None, "p1": None}}, eager)
    assert not missing.ok and "no gradient (None) where eager has one" in missing.summary()
    scaled = compare({"param_grads": {"p0": g * 1.001, "p1": None}}, eager, {"param_grads": {"p0": g, "p1": None}})
    assert not scaled.ok and scaled.failures[0].path == "['param_grads']['p0']"


def test_a_path_with_no_loss_where_eager_has_one_is_a_missing_loss_not_a_dtype():
    """No output of the path reached the loss head (train_steps records None): said so, never a float32 stand-in
    compared with eager's float64 losses."""
    from conformance.judge.training import NO_LOSS

    eager = {"sgd": {"losses": np.array([0.5, 0.25]), "params": {"p0": np.ones(3)}}}
    report = compare({"sgd": {"losses": None, "params": {"p0": np.ones(3)}}}, eager)
    assert not report.ok
    assert [(f.path, f.kind) for f in report.failures] == [("['sgd']['losses']", "missing_gradient")]
    assert NO_LOSS in report.summary()
    assert compare({"sgd": {"losses": None, "params": {"p0": np.ones(3)}}},
                   {"sgd": {"losses": None, "params": {"p0": np.ones(3)}}}).ok  # eager had none either


def test_old_programs_keep_their_json_and_ids():
    """Programs without the new fields (training, a Param's offset and trainable) serialise as before, so
    case files and ids from before stay the same; the new fields round-trip."""
    for file in sorted(Path(__file__).resolve().parent.parent.glob("cases/*.json")):
        data = json.loads(file.read_text())
        if "case" not in data:
            continue
        program = Program.from_dict(data["case"]["program"])
        assert json.loads(json.dumps(program.to_dict())) == {**data["case"]["program"], "format": 1}
    p = detached_program()
    assert "training" not in p.to_dict() and all(set(q) == {"name", "shape", "scale"} for q in p.to_dict()["params"])
    bn = batch_norm_program()
    assert Program.from_json(bn.to_json()) == bn and bn.to_dict()["training"] is True
    assert bn.to_dict()["params"][3] == {"name": "p3", "shape": [3], "scale": 0.25, "offset": 1.0, "trainable": False}
    assert bn.id != batch_norm_program(training=False).id
    assert {"train_layer", "train_mode"} <= bn.constructs()


def test_batch_norm_statistics_must_not_be_trainable():
    d = batch_norm_program().to_dict()
    d["params"][2].pop("trainable")
    with pytest.raises(ValueError, match="trainable"):
        Program.from_dict(d)


@quick
@given(programs(constructs=CONSTRUCTS))
def test_default_programs_draw_no_train_layers(program):
    assert not program.training and not {"dropout", "batch_norm", "detach"} & set(program.ops())


def test_train_layers_are_drawn_on_request():
    seen, training = set(), set()

    @settings(max_examples=60, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(programs(constructs=TRAIN))
    def draw(program):
        seen.update(o for o in program.ops() if OPS[o].train_layer)
        training.add(program.training)

    draw()
    assert seen == {"dropout", "batch_norm", "detach"} and training == {True, False}


# ------------------------------------------------------------------ torch


torch = pytest.importorskip("torch")

from conformance.paths.records import PATHS, select_paths  # noqa: E402
from conformance.run.runner import check, get_mode, harness_fault, prepare, run_path  # noqa: E402

from . import planted_training  # noqa: E402, F401 - registers the planted paths

select_paths(["torch"])


def _outcome(case, path, mode):
    record = check(case, PATHS[f"torch.{path}"], mode=mode)
    assert record["mode"] == mode
    return record


@pytest.mark.parametrize("mode", ["grad", "train"])
def test_eager_script_and_fx_pass_with_seeded_dropout_and_batch_norm(mode):
    case = _case(batch_norm_program(p=0.5, training=True))
    for path in ("eager", "script", "fx"):
        record = _outcome(case, path, mode)
        assert record["outcome"] == "pass", (path, record["detail"]["message"])


def test_planted_gradient_scale_is_a_mismatch():
    record = _outcome(_case(detached_program()), "planted_grad_scale", "grad")
    assert record["outcome"] == "mismatch"
    assert record["detail"]["message"].startswith("example inputs: ['param_grads']['p0']")
    assert _outcome(_case(detached_program()), "eager", "grad")["outcome"] == "pass"


def test_planted_input_gradient_scale_is_a_mismatch():
    record = _outcome(_case(detached_program()), "planted_input_grad_scale", "grad")
    assert record["outcome"] == "mismatch" and "['input_grads']['x0']" in record["detail"]["message"]


def test_a_gradient_where_eager_has_none_is_a_mismatch():
    record = _outcome(_case(detached_program()), "planted_grad_where_none", "grad")
    assert record["outcome"] == "mismatch"
    assert "['param_grads']['p2']: a gradient where eager has none" in record["detail"]["message"]


def test_an_optimizer_that_skips_its_last_step_is_a_mismatch():
    assert STEPS >= 2  # a step before the skipped one, so the losses agree and the parameters do not
    record = _outcome(_case(detached_program()), "planted_optimizer_skip", "train")
    assert record["outcome"] == "mismatch"
    failing = [f["path"] for f in record["detail"]["inputs"][0]["report"]["failures"]]
    assert failing and all("['params']" in f for f in failing)  # the losses before the skipped step agree


def test_stale_batch_norm_statistics_are_a_mismatch():
    record = _outcome(_case(batch_norm_program(p=0.0)), "planted_stale_bn", "train")
    assert record["outcome"] == "mismatch"
    failing = {f["path"] for f in record["detail"]["inputs"][0]["report"]["failures"]}
    assert {"['sgd']['buffers']['p2']", "['sgd']['buffers']['p3']"} <= failing


@quick
@given(cases(constructs=TRAIN, ops=TRIAGED_OPS))
def test_planted_gradient_scale_is_caught_on_generated_programs(case):
    """Wherever the scaled gradient is large enough to see (above atol = 1e-5, as for outputs)."""
    prep = prepare(case, "torch")
    try:
        judged = get_mode("grad").judged(prep)
    except RuntimeError as e:  # eager autograd refuses the program: a campaign discards it, unless our code raised
        assume(harness_fault(e))
        raise
    first = next((q.name for q in case.program.params if q.trainable), None)
    assume(first is not None and prep.runs[0].stability.stable and judged[0].stability.stable)
    g = judged[0].eager["param_grads"][first]
    assume(g is not None and np.abs(g).max() > 0.05)
    record = run_path(case, prep, PATHS["torch.planted_grad_scale"], mode="grad")
    assert record["outcome"] == "mismatch", record["detail"]["message"]


@quick
@given(cases(constructs=TRAIN))
def test_rounding_noise_is_not_a_finding(case):
    """Eager against itself and script against eager, in both modes, on generated programs with dropout,
    batch norm, detach and train()/eval() (a mismatch may only be the known TorchScript batch-norm bug)."""
    prep = prepare(case, "torch")
    for mode in ("grad", "train"):
        for path in ("eager", "script"):
            record = run_path(case, prep, PATHS[f"torch.{path}"], mode=mode)
            known = record["outcome"] == "mismatch" and "known_issue" in record["detail"]
            assert record["outcome"] in ("pass", "discarded") or known, (mode, path, record["detail"]["message"])


def test_a_path_without_the_mode_is_unsupported():
    record = _outcome(_case(detached_program()), "onnx_torchscript", "grad")
    assert record["outcome"] == "unsupported" and "does not support mode 'grad'" in record["detail"]["message"]


def test_eager_autograd_refusal_is_unsupported_for_every_path():
    """sigmoid saves its output for backward; updating it in place makes eager's backward fail."""
    body = (OpStmt("v1", "sigmoid", ("v0",)), OpStmt("v1", "mul_", ("v1", "v0")))
    case = _case(_program(body, (), OutVar("v1")))
    assert _outcome(case, "eager", "infer")["outcome"] == "pass"
    record = _outcome(case, "script", "grad")
    assert record["outcome"] == "unsupported" and "in-place" in record["detail"]["limitation"]


# ------------------------------------------------------------------ every framework's eager mode


def _eager_train_forwards(framework: str, program: Program, x: np.ndarray, calls: int = 3):
    """Outputs and running statistics after each of ``calls`` forwards in train() (seeded), as numpy."""
    from conformance.paths.records import load_framework
    from conformance.render.source import load_model_module

    fw = load_framework(framework)
    fw.setup()
    model = fw.prepare(load_model_module(program, framework).Model(), "cpu", False)
    fw.autograd.set_training(model, program.training)
    out = []
    for _ in range(calls):
        fw.autograd.seed(0)
        y = fw.to_numpy(fw.call(model, [fw.to_tensor(x, "cpu", False)], {}))
        out.append((y, fw.to_numpy(model.p2), fw.to_numpy(model.p3)))
    return out


@pytest.mark.parametrize("framework", ["paddle", "tf"])
@pytest.mark.parametrize("training", [True, False])
def test_batch_norm_means_the_same_in_every_framework(framework, training):
    """torch momentum 0.1 (weight of the new statistic) is Paddle's 0.9 (weight of the old one) and the tf
    emitter's 0.1: outputs and running means agree over three forwards. The running variance agrees with
    torch in tf; Paddle updates it with the biased batch variance, which this pins exactly."""
    from conformance.paths.records import FRAMEWORK_MODULES, framework_available, load_framework

    if not framework_available(framework) or framework not in FRAMEWORK_MODULES:
        pytest.skip(f"{framework} is not installed")
    if load_framework(framework).autograd is None:
        pytest.skip(f"the {framework} adapter has no autograd (train()/eval()) support yet")
    program = batch_norm_program(p=0.0, training=training)
    x = np.random.default_rng(0).uniform(-1, 1, (6, 3, 2)).astype(np.float32)
    ref = _eager_train_forwards("torch", program, x)
    got = _eager_train_forwards(framework, program, x)
    n = x.size // x.shape[1]
    var = x.transpose(1, 0, 2).reshape(3, -1).var(axis=1)
    for step, ((y, rm, rv), (y2, rm2, rv2)) in enumerate(zip(ref, got)):
        np.testing.assert_allclose(y2, y, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(rm2, rm, rtol=1e-5, atol=1e-6)
        if framework == "paddle" and training:  # each step: Paddle adds 0.1 * var, torch 0.1 * var * n / (n - 1)
            np.testing.assert_allclose(rv - rv2, 0.1 * var / (n - 1) * sum(0.9 ** k for k in range(step + 1)),
                                       rtol=1e-4, atol=1e-6)
        else:
            np.testing.assert_allclose(rv2, rv, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("framework", ["paddle", "tf"])
def test_dropout_p0_and_eval_mode_are_the_identity_everywhere(framework):
    from conformance.paths.records import framework_available, load_framework

    if not framework_available(framework):
        pytest.skip(f"{framework} is not installed")
    if load_framework(framework).autograd is None:
        pytest.skip(f"the {framework} adapter has no autograd (train()/eval()) support yet")
    x = np.random.default_rng(1).uniform(-1, 1, (6, 3, 2)).astype(np.float32)
    for p, training in ((0.0, True), (0.5, False)):
        program = batch_norm_program(p=p, training=training)
        ref = _eager_train_forwards("torch", program, x, calls=1)[0][0]
        np.testing.assert_allclose(_eager_train_forwards(framework, program, x, calls=1)[0][0], ref, rtol=1e-5,
                                   atol=1e-5)


def test_input_gradients_are_named_by_their_own_input_whatever_the_float_dtypes_before_them():
    """A float64 input before a float32 one: both are autograd leaves, and a wrong gradient of the first is
    reported under its own name (not the float32 input's, with the last gradient left out)."""
    inputs = (Input("x0", TensorSpec((6, 3), "float64")), Input("x1", TensorSpec((6, 3))))
    body = (Get("v1", "x1"), OpStmt("v2", "cast", ("v0",), (("dtype", "float32"),)), OpStmt("v3", "add", ("v1", "v2")))
    case = _case(_program(body, (), OutVar("v3"), inputs))
    assert _outcome(case, "eager", "grad")["outcome"] == "pass"
    message = _outcome(case, "planted_input_grad_scale", "grad")["detail"]["message"]
    assert "['input_grads']['x0']" in message and "'x1'" not in message, message
