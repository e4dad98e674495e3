"""Paddle paths judged end to end: the derived input_spec, what each path documents, Paddle's known
bugs as records, planted wrong paths caught as mismatches, no pip install while converting."""

import dataclasses
import os
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, assume, given, settings

pytest.importorskip("paddle")

from conformance.paths.records import PATHS, select_paths  # noqa: E402
from conformance.program.case import Case, InputSet  # noqa: E402
from conformance.program.ir import (  # noqa: E402
    Break,
    DictSpec,
    For,
    Get,
    Grow,
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
)
from conformance.program.program import Program  # noqa: E402
from conformance.program.strategies import CONSTRUCTS, cases  # noqa: E402
from conformance.run.runner import check  # noqa: E402

from . import planted_paddle  # noqa: E402

select_paths(["paddle"])
#: The paths that run the test model (one with parameters) on every machine.
REAL = ("to_static", "to_static_sot", "to_static_build_strategy", "to_static_spec_from_tensor", "jit_save",
        "jit_save_methods", "inference", "inference_no_onednn", "onnx")
quick = settings(max_examples=4, deadline=None, derandomize=True, database=None,
                 suppress_health_check=list(HealthCheck))


def _model() -> Program:
    """What Paddle's guides show: a list input unpacked by index, a dict input read by key, a None
    batch dim, a bool ``use_act`` flag, an int kwarg loop count, a data-dependent if, a nested output."""
    b3 = TensorSpec(("B", 3))
    return Program(
        seed=3,
        inputs=(Input("xs", SeqSpec("list", (b3, b3))), Input("d", DictSpec((("a", b3), ("b", TensorSpec((3,)))))),),
        kwargs=(Kwarg("use_act", "bool", True, (True, False)), Kwarg("n", "int", 1, (1, 2))),
        params=(Param("p0", (3, 3)), Param("p1", (3,))),
        body=(Get("v0", "xs", (0,)), Get("v1", "xs", (1,)), Get("v2", "d", ("a",)), Get("v3", "d", ("b",)),
              OpStmt("v4", "add", ("v0", "v1")),
              OpStmt("v4", "linear", ("v4",), (("out_features", 3),), ("p0", "p1")),
              If(KwargCond("use_act", "truth"), (OpStmt("v4", "relu", ("v4",)),)),
              For("i0", "n", (OpStmt("v5", "add", ("v4", "v2")), OpStmt("v4", "tanh", ("v5",)))),
              If(TensorCond("v4", "sum", ">", 0.0), (OpStmt("v4", "mul", ("v4", "v3")),),
                 (OpStmt("v4", "neg", ("v4",)),)),
              OpStmt("v6", "mul_scalar", ("v3",), (("c", 2.0),))),
        output=OutSeq("tuple", (OutVar("v4"), OutDict((("scaled", OutVar("v6")),)))))


def _case(program: Program, other_kwargs=True) -> Case:
    kw = tuple(sorted((k.name, k.default) for k in program.kwargs))
    sets = [InputSet("example", 2, 1, kw), InputSet("values", 2, 2, kw), InputSet("batch", 4, 3, kw)]
    if other_kwargs and program.kwargs:
        sets.append(InputSet("kwargs", 2, 4, tuple(sorted((k.name, k.choices[-1]) for k in program.kwargs))))
    return Case(program, tuple(sets))


def _by_role(record) -> dict:
    return {e["role"]: e["outcome"] for e in record["detail"]["inputs"]}


def test_input_spec_is_what_users_write(tmp_path):
    import numpy as np
    import paddle

    from conformance.paths.paddle.conversions import input_spec

    ctx = dataclasses.replace(_ctx(_model(), tmp_path), kwargs={"use_act": False, "n": 2})
    assert ctx.tensor_names == ["xs.0", "xs.1", "d.a", "d.b"]
    spec = input_spec(ctx)
    assert isinstance(spec[0], list) and isinstance(spec[1], dict) and spec[2:] == [False, 2]
    assert [(s.name, list(s.shape)) for s in spec[0]] == [("xs.0", [-1, 3]), ("xs.1", [-1, 3])]
    assert {k: (s.name, list(s.shape)) for k, s in spec[1].items()} == {"a": ("d.a", [-1, 3]), "b": ("d.b", [3])}
    assert all(s.dtype == paddle.float32 for s in (*spec[0], *spec[1].values()))
    int_tuple = SimpleNamespace(args=[(paddle.to_tensor(np.zeros(2, "int64")),)], kwargs={}, tensor_names=["xs.0"],
                                dynamic_axes={"xs.0": []})
    (tup,) = input_spec(int_tuple)
    assert isinstance(tup, tuple) and tup[0].dtype == paddle.int64  # a tuple input gets a tuple of specs


def test_every_path_follows_nested_inputs_batch_and_kwargs():
    """Fixed kwargs are documented for the saved paths and AST (input_spec values); SOT retraces."""
    case = _case(_model())
    for name in REAL:
        record = check(case, PATHS[f"paddle.{name}"])
        roles = _by_role(record)
        assert roles["example"] == roles["values"] == roles["batch"] == "pass", (name, record["detail"]["message"])
        fixed = "kwargs" in PATHS[f"paddle.{name}"].specializes
        assert roles["kwargs"] == ("expected_divergence" if fixed else "pass"), (name, record["detail"]["message"])
    assert not PATHS["paddle.to_static_sot"].specializes


@pytest.mark.parametrize("path", [p.name for p in planted_paddle.PERTURBED])
def test_a_perturbed_output_of_every_path_is_a_mismatch(path):
    record = check(_case(_model(), other_kwargs=False), PATHS[f"paddle.{path}"])
    assert record["outcome"] == "mismatch", record["detail"]["message"]
    assert record["detail"]["inputs"][0]["flaky"] is False


def test_a_loaded_model_reading_the_wrong_list_item_is_a_mismatch():
    record = check(_case(_model(), other_kwargs=False), PATHS["paddle.planted_load_list"])
    assert record["outcome"] == "mismatch", record["detail"]["message"]


def test_a_predictor_returning_its_first_answer_is_a_mismatch():
    record = check(_case(_model(), other_kwargs=False), PATHS["paddle.planted_stale_predictor"])
    roles = _by_role(record)
    assert roles["example"] == "pass" and roles["values"] == "mismatch" and roles["batch"] == "mismatch"
    assert "shape" in record["detail"]["message"] or "values differ" in record["detail"]["message"]


def test_sot_keeping_the_first_kwargs_is_a_mismatch():
    """SOT documents no specialisation: other kwargs must give eager's answer."""
    record = check(_case(_model()), PATHS["paddle.planted_sot_first_kwargs"])
    assert _by_role(record)["kwargs"] == "mismatch", record["detail"]["message"]


def test_fixed_kwargs_do_not_excuse_a_wrong_result():
    record = check(_case(_model()), PATHS["paddle.planted_static_kwargs_wrong"])
    assert _by_role(record)["kwargs"] == "mismatch"
    assert "differs even from eager replayed" in record["detail"]["message"]


def test_an_onnx_model_dropping_a_loop_iteration_is_a_mismatch():
    p = _model()
    p = dataclasses.replace(p, body=tuple(For("i0", 2, s.body) if isinstance(s, For) else s for s in p.body))
    record = check(_case(p, other_kwargs=False), PATHS["paddle.planted_onnx_short_loops"])
    assert record["outcome"] == "mismatch", record["detail"]["message"]


@quick
@given(cases(max_statements=4, constructs=CONSTRUCTS))
def test_planted_perturbation_is_caught_on_generated_programs(case):
    for name in ("planted_perturb_to_static", "planted_perturb_jit_save"):
        record = check(case, PATHS[f"paddle.{name}"])
        assume(record["outcome"] not in ("discarded", "conversion_error", "unsupported"))
        assume(any(e.get("max_abs_err") for e in record["detail"]["inputs"]))  # a float output to perturb
        assert record["outcome"] == "mismatch", record["detail"]["message"]


def _unused_input_program() -> Program:
    p = _model()
    return dataclasses.replace(p, output=OutVar("v6"), body=p.body[:4] + (p.body[-1],))  # only d.b is used


def test_an_input_no_output_uses_is_refused_by_the_saved_paths():
    p = _unused_input_program()
    assert p.unused_inputs() == ["xs.0", "xs.1", "d.a"] and "unused_input" in p.constructs()
    case = _case(p)
    assert check(case, PATHS["paddle.to_static"])["outcome"] in ("pass", "expected_divergence")
    for name in ("jit_save", "jit_save_methods", "inference", "inference_no_onednn", "onnx"):
        record = check(case, PATHS[f"paddle.{name}"])
        assert record["outcome"] == "unsupported", record["detail"]["message"]
        assert "refuses an input that no output uses" in record["detail"]["limitation"]


def test_forward_whose_first_parameter_is_not_self_is_refused():
    case = _case(dataclasses.replace(_model(), self_name="this"))
    assert check(case, PATHS["paddle.eager"])["outcome"] == "pass"
    for name in REAL:
        record = check(case, PATHS[f"paddle.{name}"])
        assert record["outcome"] == "unsupported" and "named `self`" in record["detail"]["limitation"], name


def test_a_loop_growing_a_shape_converts():
    """concat in a loop, for a kwarg count and while a condition on the grown tensor holds."""
    p = _model()
    grow = (Grow("v7", "v2", "v0", 1, "sum", "n", "it0"),
            Grow("v8", "v2", "v1", 1, "mean", 3, "it1", TensorCond("v8", "amin", ">", -0.9)))
    p = dataclasses.replace(p, body=p.body + grow, output=OutSeq("tuple", (p.output, OutVar("v7"), OutVar("v8"))))
    assert {"grow_loop", "grow_while"} <= p.constructs()
    case = _case(p)
    for name in ("to_static", "to_static_sot", "jit_save", "inference"):
        record = check(case, PATHS[f"paddle.{name}"])
        assert record["outcome"] in ("pass", "expected_divergence"), (name, record["detail"]["message"])


def _program(body, output, inputs=(("x", TensorSpec((2, 3))),)) -> Program:
    return Program(seed=1, inputs=tuple(Input(n, s) for n, s in inputs), kwargs=(), params=(), body=body,
                   output=output)


def test_known_bug_predictor_cannot_run_a_model_returning_its_input():
    case = _case(_program((Get("v0", "x"), OpStmt("v1", "neg", ("v0",))),
                          OutSeq("tuple", (OutVar("v1"), OutVar("v0")))))
    assert check(case, PATHS["paddle.jit_save"])["outcome"] == "pass"
    record = check(case, PATHS["paddle.inference"])
    assert record["outcome"] == "runtime_error" and "shadow output" in record["detail"]["known_issue"]


def test_known_bug_predictor_cannot_reorder_a_branch_result_and_its_view():
    """A oneDNN bug: the predictor without oneDNN runs the model (so the two predictors really differ)."""
    body = (Get("v0", "x"), OpStmt("v1", "add", ("v0", "v0")),
            If(TensorCond("v0", "amin", "<", 1.5), (), (OpStmt("v1", "neg", ("v1",)),)),
            OpStmt("v2", "unsqueeze", ("v1",), (("dim", 1),)))
    case = _case(_program(body, OutSeq("tuple", (OutVar("v1"), OutVar("v2")))), other_kwargs=False)
    for name in ("jit_save", "inference_no_onednn"):
        assert check(case, PATHS[f"paddle.{name}"])["outcome"] == "pass", name
    record = check(case, PATHS["paddle.inference"])
    assert record["outcome"] == "runtime_error" and record["detail"]["known_issue"].startswith(
        "paddle_inference.reorder:")


@pytest.mark.parametrize("cond, bug", [
    (TensorCond("v0", "mean", ">", 0.0), "mean over all elements"),  # x.mean() aborts paddle2onnx
    (TensorCond("v0", "sum", ">", 0.0), None),
])
def test_paddle2onnx_aborting_the_process_is_a_recorded_error(cond, bug):
    case = _case(_program((Get("v0", "x"), If(cond, (OpStmt("v0", "tanh", ("v0",)),))), OutVar("v0")))
    record = check(case, PATHS["paddle.onnx"])  # in this process: paddle2onnx's abort() must not end it
    if bug:
        assert record["outcome"] == "conversion_error" and bug in record["detail"]["known_issue"]
        assert "killed by SIGABRT" in record["detail"]["message"]
    else:
        assert record["outcome"] == "pass", record["detail"]["message"]


def test_known_bug_a_tensor_break_in_a_python_loop_is_refused_by_ast():
    body = (Get("v0", "x"), For("i0", 2, (If(TensorCond("v0", "sum", ">", 100.0), (Break(),)),
                                          OpStmt("v0", "tanh", ("v0",)))))
    case = _case(_program(body, OutVar("v0")))
    assert check(case, PATHS["paddle.to_static_sot"])["outcome"] == "pass"
    record = check(case, PATHS["paddle.to_static"])
    assert record["outcome"] == "conversion_error" and "while pred" in record["detail"]["known_issue"]


def test_known_bug_a_variable_aliased_into_a_while_loop_comes_back_empty():
    """a = x + x; acc = a; while ... acc.min() < t: acc = concat(acc, y); ...; if acc.max() < u: return a"""
    from conformance.program.ir import Return

    body = (Get("v0", "x"), Get("v3", "y"), OpStmt("v1", "add", ("v0", "v0")),
            Grow("v2", "v1", "v3", 1, "sum", 3, "it0", TensorCond("v2", "amin", "<", 9.5)),
            If(TensorCond("v2", "amax", "<", 34.0), (Return(OutVar("v1")),)))
    inputs = (("x", TensorSpec((2, 3))), ("y", TensorSpec((2, 3))))
    case = _case(_program(body, OutVar("v1"), inputs), other_kwargs=False)
    assert check(case, PATHS["paddle.to_static_sot"])["outcome"] == "pass"
    for name in ("to_static", "jit_save"):
        record = check(case, PATHS[f"paddle.{name}"])  # a silent wrong result: an empty tensor
        assert record["outcome"] == "mismatch", name
        if "shape [0] != eager [2, 3]" in record["detail"]["message"]:  # now and then: other wrong values instead
            assert "alias_loop" in record["detail"]["known_issue"], name
    record = check(case, PATHS["paddle.inference"])
    assert record["outcome"] == "runtime_error" and record["detail"]["known_issue"].startswith(
        "paddle_inference.alias_loop_no_memory:")


def test_sot_is_not_fooled_by_an_equal_forward_in_another_module():
    """Two programs whose forward compiles to the same bytecode (they differ in a default): SOT's cache
    must not hand the first module's translation to the second (see paths.paddle.conversions.clear_sot_cache)."""
    body = (Get("v0", "x"),
            If(TensorCond("v0", "sum", ">", 0.0), (OpStmt("v0", "mul_kwarg", ("v0",), (("kwarg", "a"),)),)))
    for default in (0.5, 1.5):
        p = dataclasses.replace(_program(body, OutVar("v0")), kwargs=(Kwarg("a", "float", default, (0.5, 1.5)),))
        assert check(_case(p, other_kwargs=False), PATHS["paddle.to_static_sot"])["outcome"] == "pass"


def test_executors_of_earlier_cases_are_freed():
    """Paddle caches every program's executor (five threads each); each case starts with none."""
    def threads():
        return len(os.listdir("/proc/self/task"))
    case = _case(_program((Get("v0", "x"), OpStmt("v1", "neg", ("v0",))), OutVar("v1")), other_kwargs=False)
    check(case, PATHS["paddle.to_static"])
    before = threads()
    for _ in range(3):
        check(case, PATHS["paddle.to_static"])
        check(case, PATHS["paddle.jit_save"])
    assert threads() <= before + 2


def test_no_package_is_installed_while_exporting_to_onnx(monkeypatch, tmp_path):
    """paddle.onnx.export switches on Polygraphy's auto-install: with onnx_graphsurgeon missing it runs
    pip (the control: plain paddle.onnx.export in a fresh interpreter). The onnx path's exporter keeps
    it off: the export goes on without constant folding, and nothing is installed."""
    import subprocess
    import sys

    import conformance.paths.paddle as pp

    hide = tmp_path / "hide" / "onnx_graphsurgeon"
    hide.mkdir(parents=True)
    (hide / "__init__.py").write_text("raise ImportError('hidden by the test')\n")
    marker = tmp_path / "installed"
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(hide.parent), os.environ.get("PYTHONPATH", "")]))
    monkeypatch.setenv("POLYGRAPHY_INSTALL_CMD", f"{sys.executable} -c open({str(marker)!r},'w')")
    case = _case(_program((Get("v0", "x"), OpStmt("v1", "tanh", ("v0",))), OutVar("v1")), other_kwargs=False)
    pp.PADDLE2ONNX.close()  # the next export starts a server with this environment
    try:
        record = check(case, dataclasses.replace(PATHS["paddle.onnx"], requires=()))  # not stopped by `requires`
    finally:
        pp.PADDLE2ONNX.close()
    assert record["outcome"] == "pass", record["detail"]["message"]
    assert "'onnx_graphsurgeon' is required but could not be imported" in record["detail"]["output_tail"]
    assert not marker.exists()
    control = ("import paddle\n"
               "class M(paddle.nn.Layer):\n    def forward(self, x):\n        return paddle.tanh(x)\n"
               f"paddle.onnx.export(M(), {str(tmp_path / 'm')!r}, input_spec=[paddle.static.InputSpec([2, 3])])\n")
    (tmp_path / "control.py").write_text(control)  # to_static reads the model's source: a real file
    subprocess.run([sys.executable, str(tmp_path / "control.py")], capture_output=True, timeout=300)
    assert marker.exists()


def test_the_environment_has_what_paddle2onnx_would_install():
    record = check(_case(_program((Get("v0", "x"), OpStmt("v1", "tanh", ("v0",))), OutVar("v1")), other_kwargs=False),
                   PATHS["paddle.onnx"])
    assert record["outcome"] == "pass" and "Fail to fold" not in record["detail"].get("output_tail", "")


# ------------------------------------------------------------------ the variants of issue 8


def _ctx(program: Program, tmp_path, batch: int = 2):
    """What a path's convert gets for ``program``'s example inputs (a fresh model, on the CPU)."""
    from conformance.paths.paddle.adapter import to_tensor
    from conformance.paths.paddle.conversions import prepare
    from conformance.paths.records import ConvertContext
    from conformance.program.case import map_tree, materialize
    from conformance.render.source import load_model_module
    from conformance.run.runner import tensor_names

    case = _case(program, other_kwargs=False)
    args, kwargs = materialize(program, case.inputs[0])
    model = prepare(load_model_module(program, "paddle").Model(), "cpu", False)
    return ConvertContext(model, map_tree(lambda a: to_tensor(a, "cpu", False), args), kwargs, program, "cpu",
                          tmp_path, tensor_names(program))


def test_the_build_strategy_reaches_to_static():
    """The strategy is given to to_static (Paddle 3's PIR runner applies neither option, so there the path
    checks what to_static does); it is in default campaigns, as the issue's variants are."""
    from conformance.paths.paddle.conversions import fusing_strategy

    strategy = fusing_strategy()
    assert strategy.fuse_elewise_add_act_ops and strategy.enable_addto
    record = check(_case(_model()), PATHS["paddle.to_static_build_strategy"], mode="grad")
    assert record["outcome"] in ("pass", "expected_divergence", "mismatch"), record["detail"]["message"]
    assert "paddle.to_static_build_strategy" in {p.id for p in select_paths(["paddle"])}


def test_amp_converts_to_a_bfloat16_program(tmp_path):
    """auto_cast inside the converted forward: matmul (linear) in bfloat16, cast back to float32."""
    from conformance.paths.paddle.conversions import amp_static

    static = amp_static(_ctx(_model(), tmp_path))
    program = str(static.forward.concrete_program.main_program)
    assert "dtype:bfloat16" in program and "tensor<-1x3xbf16>" in program


def test_amp_runs_where_the_cpu_has_bfloat16_and_refuses_elsewhere():
    import paddle

    record = check(_case(_model(), other_kwargs=False), PATHS["paddle.to_static_amp"])
    assert PATHS["paddle.to_static_amp"].precision == "bfloat16"
    if paddle.base.core.supports_bfloat16():
        assert record["outcome"] == "pass", record["detail"]["message"]
    else:  # running the program would abort this process
        assert record["outcome"] == "unsupported" and "AVX512" in record["detail"]["limitation"]


def test_spec_from_tensor_fixes_the_example_shapes_and_builds_a_program_per_shape(tmp_path):
    """InputSpec.from_tensor / from_numpy take the example's shapes; another batch builds another program."""
    from conformance.paths.paddle.conversions import spec_from_examples

    xs, d, use_act, n = spec_from_examples(_ctx(_model(), tmp_path))
    assert [(s.name, list(s.shape)) for s in xs] == [("xs.0", [2, 3]), ("xs.1", [2, 3])]
    assert {k: list(s.shape) for k, s in d.items()} == {"a": [2, 3], "b": [3]} and (use_act, n) == (True, 1)
    record = check(_case(_model()), PATHS["paddle.to_static_spec_from_tensor"])
    assert _by_role(record)["batch"] == "pass"
    programs = {e["role"]: e["counters"]["programs"] for e in record["detail"]["inputs"]}
    assert programs["example"] == programs["values"] == 1 and programs["batch"] == 2


def test_one_save_holds_both_methods_and_the_second_is_run(tmp_path):
    from conformance.paths.paddle.saved import METHOD, load_with_method

    loaded = load_with_method(_ctx(_model(), tmp_path))
    assert {f.name for f in tmp_path.glob("*.json")} == {"model.json", f"model.{METHOD}.json"}
    assert callable(getattr(loaded, METHOD))


def test_a_loaded_method_answering_for_other_inputs_is_a_mismatch():
    record = check(_case(_model(), other_kwargs=False), PATHS["paddle.planted_method_other_inputs"])
    assert record["outcome"] == "mismatch", record["detail"]["message"]


def test_a_saved_function_without_parameters_runs_and_with_parameters_is_refused():
    body = (Get("v0", "x"), If(TensorCond("v0", "sum", ">", 0.0), (OpStmt("v0", "tanh", ("v0",)),)),
            OpStmt("v1", "mul", ("v0", "v0")))
    case = _case(_program(body, OutSeq("tuple", (OutVar("v0"), OutVar("v1")))), other_kwargs=False)
    assert check(case, PATHS["paddle.jit_save_function"])["outcome"] == "pass"
    for planted in planted_paddle.PERTURBED_WITHOUT_PARAMETERS:
        assert check(case, planted)["outcome"] == "mismatch", planted.id
    record = check(_case(_model()), PATHS["paddle.jit_save_function"])
    assert record["outcome"] == "unsupported" and "not the parameters" in record["detail"]["limitation"]


def test_a_onednn_predictor_dropping_an_addition_is_a_mismatch():
    record = check(_case(_model(), other_kwargs=False), PATHS["paddle.planted_onednn_drops_add"])
    assert record["outcome"] == "mismatch", record["detail"]["message"]


def test_the_existing_inference_path_is_the_onednn_one():
    """Paddle Inference's default on the CPU is oneDNN: ``paddle.inference`` keeps meaning what it meant."""
    import paddle

    assert paddle.inference.Config().onednn_enabled()
    assert "oneDNN" in PATHS["paddle.inference"].description
    assert PATHS["paddle.inference_no_onednn"].devices == ("cpu",)


@pytest.mark.parametrize("mode", ["grad", "train"])
def test_a_loaded_layer_is_fine_tuned_on_its_own_parameters(mode):
    """Gradients and optimizer steps reach the loaded layer's parameters (found by the saved names); on the
    eager model's tensors instead, the planted path gets none."""
    from .test_training import detached_program

    case = Case(detached_program(), (InputSet("example", 2, 1), InputSet("values", 3, 2)))
    record = check(case, PATHS["paddle.jit_save"], mode=mode)
    assert record["outcome"] == "pass", record["detail"]["message"]
    planted = check(case, PATHS["paddle.planted_fine_tuned_eager_tensors"], mode=mode)
    assert planted["outcome"] == "mismatch", planted["detail"]["message"]
    if mode == "grad":
        assert "no gradient (None) where eager has one" in planted["detail"]["message"]


def test_known_bug_a_loaded_layer_trains_with_its_inference_program():
    """Saved in train(): batch norm and dropout come back with is_test=true, in train() too."""
    from .test_training import batch_norm_program

    case = Case(batch_norm_program(), (InputSet("example", 1, 11),))
    record = check(case, PATHS["paddle.jit_save"], mode="train")
    assert record["outcome"] == "conversion_error", record["detail"]["message"]
    assert "pd_op.batch_norm_" in record["detail"]["message"] and record["detail"]["known_issue"].startswith(
        "paddle_jit_save.loaded_trains_as_inference:")
    assert check(Case(batch_norm_program(training=False), case.inputs), PATHS["paddle.jit_save"],
                 mode="train")["outcome"] == "pass"


def _parameter_free_case() -> Case:
    """A list input, a dynamic dim, a kwarg and a branch on a tensor; no parameters (a saved function keeps none)."""
    b3 = TensorSpec(("B", 3))
    body = (Get("v0", "xs", (0,)), Get("v1", "xs", (1,)), OpStmt("v2", "mul", ("v0", "v1")),
            If(KwargCond("use_act", "truth"), (OpStmt("v2", "tanh", ("v2",)),)),
            If(TensorCond("v2", "sum", ">", 0.0), (OpStmt("v2", "neg", ("v2",)),)), OpStmt("v3", "sigmoid", ("v0",)))
    program = Program(seed=4, inputs=(Input("xs", SeqSpec("list", (b3, b3))),),
                      kwargs=(Kwarg("use_act", "bool", True, (True, False)),), params=(), body=body,
                      output=OutSeq("tuple", (OutVar("v2"), OutVar("v3"))))
    kwargs = (("use_act", True),)
    return Case(program, (InputSet("example", 2, 0, kwargs), InputSet("batch", 4, 1, kwargs)))


@pytest.mark.parametrize("name", ["to_static", "to_static_sot", "to_static_build_strategy",
                                  "to_static_spec_from_tensor", "jit_save", "jit_save_methods", "jit_save_function",
                                  "inference", "inference_no_onednn", "onnx"])
def test_the_triage_reproducer_agrees_with_eager_where_the_path_does(name, tmp_path):
    """conformance triage's repro.py for a Paddle path (the path's own conversion code, copied, and the files it reads
    beside its module) converts as the path does: on a case that passes, it passes too. tests/test_repro_paddle.py
    checks the copied code itself, for every path (to_static_amp too: here the path itself does not pass this case on
    a CPU with bfloat16, see test_amp_runs_where_the_cpu_has_bfloat16_and_refuses_elsewhere)."""
    from conformance.triage.buckets import Sighting, TriageBucket
    from conformance.triage.bug_report import write_bucket
    from conformance.triage.signatures import signature

    case = _parameter_free_case()
    record = check(case, PATHS[f"paddle.{name}"])
    assert record.outcome == "pass", record.detail.message
    bucket = TriageBucket(signature(record), [Sighting.of(record)], case, record)
    write_bucket(bucket, tmp_path, verify=True)
    assert bucket.repro.get("file"), bucket.repro.get("unavailable")
    assert bucket.repro["verified"] is False, bucket.repro.get("output_tail")  # it ran and agreed with eager


def _grad_case(body, output, inputs=(("x", TensorSpec((2, 3))),)) -> Case:
    return Case(_program(body, output, inputs), (InputSet("example", 2, 1),))


def test_known_bug_a_loaded_layer_cannot_build_the_backward_of_a_while_loop():
    """while i < 1 and y.sum() > -1.5: i += 1; z = y + x; y = -y  (to_static's own bug here: middle_0)"""
    from conformance.program.ir import While

    body = (Get("v0", "x"), Get("v1", "y"),
            While(TensorCond("v1", "sum", ">", -1.5), 1, "it0", (OpStmt("v2", "add", ("v1", "v0")),
                                                                  OpStmt("v1", "neg", ("v1",)))))
    case = _grad_case(body, OutSeq("tuple", (OutVar("v1"), OutVar("v0"))),
                      (("x", TensorSpec((2, 3))), ("y", TensorSpec((2, 3)))))
    record = check(case, PATHS["paddle.jit_save"], mode="grad")
    assert record["outcome"] == "runtime_error" and record["detail"]["known_issue"].startswith(
        "paddle_jit_save.loaded_while_backward:")


def test_known_bug_an_early_return_before_a_while_loop_fails_with_autograd():
    """if x.mean() < -0.5: return x; while i < 1 and x.max() > 0.5: i += 1; return x"""
    from conformance.program.ir import Return, While

    body = (Get("v0", "x"), If(TensorCond("v0", "mean", "<", -0.5), (Return(OutVar("v0")),)),
            While(TensorCond("v0", "amax", ">", 0.5), 1, "it0", ()))
    case = _grad_case(body, OutVar("v0"))
    assert check(case, PATHS["paddle.to_static_sot"], mode="grad")["outcome"] == "pass"
    record = check(case, PATHS["paddle.jit_save"], mode="grad")
    assert record["outcome"] == "runtime_error" and record["detail"]["known_issue"].startswith(
        "pir_ast.early_return_before_while:")
