"""TensorFlow paths judged end to end: planted wrong paths are caught, kwargs retrace, limitations hold; the
TF1 graph the tf.session path runs is written as TF1 users wrote models."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

pytest.importorskip("conformance.paths.tf", reason="tensorflow is not installed")  # the adapter imports it
pytest.importorskip("tf2onnx")

from conformance.paths.records import PATHS, missing_requirements, select_paths  # noqa: E402
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
    Return,
    SeqSpec,
    ShapeCond,
    TensorCond,
    TensorSpec,
    While,
)
from conformance.program.ops import TRIAGED_OPS  # noqa: E402
from conformance.program.program import Program  # noqa: E402
from conformance.program.strategies import CONSTRUCTS, cases  # noqa: E402
from conformance.run.runner import check, prepare, run_path  # noqa: E402

from . import planted_tf  # noqa: E402,F401 - registers the planted paths

#: the paths that run the model as a graph (traced, or the TF1 graph of tf.session)
GRAPHS = ["tf.function", "tf.xla", "tf.saved_model", "tf.onnx", "tf.session"]


def kwarg_program() -> Program:
    """if flag: relu(x) * alpha else: -x, x: float32[B, 3] — the answer depends on both kwargs."""
    return Program(
        seed=1, inputs=(Input("x", TensorSpec(("B", 3))),),
        kwargs=(Kwarg("flag", "bool", True, (True, False)), Kwarg("alpha", "float", 0.5, (0.5, 2.0))),
        params=(),
        body=(Get("v0", "x"),
              If(KwargCond("flag", "truth"), (OpStmt("v0", "relu", ("v0",)), OpStmt("v0", "mul_kwarg", ("v0",),
                                                                                     (("kwarg", "alpha"),))),
                 (OpStmt("v0", "neg", ("v0",)),))),
        output=OutVar("v0"))


def _kwarg_case() -> Case:
    return Case(kwarg_program(), (InputSet("example", 2, 1, (("alpha", 0.5), ("flag", True))),
                                   InputSet("batch", 5, 2, (("alpha", 0.5), ("flag", True))),
                                   InputSet("kwargs", 2, 3, (("alpha", 2.0), ("flag", False))),
                                   InputSet("kwargs", 3, 4, (("alpha", 2.0), ("flag", True)))))


@pytest.fixture(scope="module")
def kwarg_prep():
    case = _kwarg_case()
    return case, prepare(case, "tf")


@pytest.mark.parametrize("path", ["tf.eager", "tf.function", "tf.xla", "tf.saved_model"])
def test_every_kwargs_value_gives_the_eager_answer(kwarg_prep, path):
    case, prep = kwarg_prep
    record = run_path(case, prep, PATHS[path])
    assert record["outcome"] == "pass", record["detail"]["message"]
    assert [e["outcome"] for e in record["detail"]["inputs"]] == ["pass"] * 4


def test_a_new_kwargs_value_traces_once_more_and_a_new_batch_never(kwarg_prep):
    case, prep = kwarg_prep
    record = run_path(case, prep, PATHS["tf.function"])
    assert record["detail"]["counters"] == {"traces": 1, "functions": 1}
    assert [e["counters"]["traces"] for e in record["detail"]["inputs"]] == [1, 1, 2, 3]
    saved = run_path(case, prep, PATHS["tf.saved_model"])
    assert saved["detail"]["counters"] == {"traces": 3}  # one concrete function per kwargs value of the case


@pytest.mark.parametrize("path", ["tf.planted_stale_kwargs", "tf.planted_saved_first_kwargs"])
def test_reusing_the_first_kwargs_trace_is_a_mismatch(kwarg_prep, path):
    case, prep = kwarg_prep
    record = run_path(case, prep, PATHS[path])
    by_role = [(e["role"], e["outcome"]) for e in record["detail"]["inputs"]]
    assert by_role == [("example", "pass"), ("batch", "pass"), ("kwargs", "mismatch"), ("kwargs", "mismatch")]
    assert record["outcome"] == "mismatch"


@pytest.mark.parametrize("path", ["tf.onnx", "tf.session"])
def test_onnx_and_the_tf1_graph_bind_kwargs_when_built(kwarg_prep, path):
    """tf2onnx exports the example's kwargs, the TF1 graph is built with them: other values match eager replayed
    with the example's."""
    case, prep = kwarg_prep
    record = run_path(case, prep, PATHS[path])
    assert [e["outcome"] for e in record["detail"]["inputs"]] == ["pass", "pass", "expected_divergence",
                                                                  "expected_divergence"]


def _loop_program() -> Program:
    """A while loop that always runs its three iterations (halving x), nested inputs and a dict output
    whose keys are not sorted (tf2onnx orders outputs by sorted key)."""
    return Program(
        seed=2,
        inputs=(Input("x", SeqSpec("list", (TensorSpec(("B", 3)), TensorSpec(("B", 3))))),
                Input("y", DictSpec((("k1", TensorSpec((2,))), ("k0", TensorSpec(("B", 2))))))),
        kwargs=(), params=(),
        body=(Get("v0", "x", (0,)), Get("v1", "x", (1,)), Get("v2", "y", ("k1",)), Get("v3", "y", ("k0",)),
              OpStmt("v4", "add", ("v0", "v1")),
              While(TensorCond("v4", "amax", ">", -100.0), 3, "it0",
                    (OpStmt("v4", "mul_scalar", ("v4",), (("c", 0.5),)),)),
              OpStmt("v5", "exp", ("v3",))),
        output=OutSeq("tuple", (OutDict((("zeta", OutVar("v4")), ("alpha", OutVar("v5")))), OutVar("v2"))))


def test_nested_inputs_and_a_dict_output_pass_every_path():
    case = Case(_loop_program(), (InputSet("example", 2, 1), InputSet("values", 2, 2), InputSet("batch", 4, 3)))
    prep = prepare(case, "tf")
    for path in select_paths(["tf"]):
        if missing_requirements(path):  # a deployment runtime this machine lacks (the deploy extra)
            continue
        record = run_path(case, prep, path)
        assert record["outcome"] == "pass", (path.id, record["detail"]["message"])


def test_an_onnx_loop_one_iteration_short_is_a_mismatch():
    case = Case(_loop_program(), (InputSet("example", 2, 1), InputSet("batch", 4, 3)))
    record = check(case, PATHS["tf.planted_onnx_short_loop"])
    assert record["outcome"] == "mismatch", record["detail"]["message"]
    assert "zeta" in record["detail"]["message"]  # the loop's output, not the others


def test_an_xla_result_off_by_1e4_is_a_mismatch():
    case = Case(_loop_program(), (InputSet("example", 2, 1),))
    record = check(case, PATHS["tf.planted_xla_perturb"])
    assert record["outcome"] == "mismatch" and record["detail"]["inputs"][0]["flaky"] is False


def _shape_program(cmp: str) -> Program:
    """if x.shape[0] <cmp> 3: relu(x) else: -x — a test on the dim that is None in the signature
    (rendered for TensorFlow as tf.shape(x)[0], a tf.cond once traced)."""
    return Program(
        seed=3, inputs=(Input("x", TensorSpec(("B", 2))),), kwargs=(), params=(),
        body=(Get("v0", "x"),
              If(ShapeCond("v0", 0, cmp, 3), (OpStmt("v0", "relu", ("v0",)),), (OpStmt("v0", "neg", ("v0",)),))),
        output=OutVar("v0"))


@pytest.mark.parametrize("cmp", ["==", "<"])
@pytest.mark.parametrize("path", GRAPHS)
def test_a_shape_test_on_the_none_dim_follows_the_batch(cmp, path):
    case = Case(_shape_program(cmp), (InputSet("example", 3, 1), InputSet("batch", 2, 2), InputSet("batch", 4, 3)))
    record = check(case, PATHS[path])
    assert record["outcome"] == "pass", record["detail"]["message"]


def test_a_python_shape_test_on_the_none_dim_is_a_documented_refusal(tmp_path):
    """A model of the user's own may compare x.shape[0], None while tracing: TensorFlow refuses it."""
    import numpy as np

    import conformance

    (tmp_path / "shape_model.py").write_text(
        "import tensorflow as tf\n\n\nclass M(tf.Module):\n    def __call__(self, x):\n"
        "        return tf.nn.relu(x) if x.shape[0] < 3 else -x\n")
    sys.path.insert(0, str(tmp_path))
    try:
        import shape_model

        report = conformance.check(shape_model.M(), [np.ones((2, 3), np.float32)], {}, paths=["function"])
    finally:
        sys.path.remove(str(tmp_path))
    assert report["function"].outcome == "unsupported", report["function"].message


def test_a_refusal_when_a_new_kwargs_value_retraces_is_unsupported_too():
    """A tensor-dependent break in a Python for, under a kwarg: the example's trace never reaches it, the
    kwargs input set's trace does."""
    loop = For("i0", 2, (If(TensorCond("v0", "sum", ">", 100.0), (Break(),)), OpStmt("v0", "neg", ("v0",))))
    program = Program(
        seed=5, inputs=(Input("x", TensorSpec(("B", 2))),), kwargs=(Kwarg("flag", "bool", False, (True, False)),),
        params=(), body=(Get("v0", "x"), If(KwargCond("flag", "truth"), (loop,))), output=OutVar("v0"))
    case = Case(program, (InputSet("example", 3, 1, (("flag", False),)), InputSet("kwargs", 3, 2, (("flag", True),))))
    record = check(case, PATHS["tf.function"])
    assert [e["outcome"] for e in record["detail"]["inputs"]] == ["pass", "unsupported"]
    assert record["outcome"] == "unsupported" and "Python loop" in record["detail"]["limitation"]


def _grow_program() -> Program:
    """v = x; while it < 3 and mean(v) < 0.5: v = concat(v, p, dim=1); mean(v, dim=1) — a loop variable that
    grows (rendered for TensorFlow with the shape invariant AutoGraph needs)."""
    return Program(
        seed=6, inputs=(Input("x", TensorSpec(("B", 2), low=-1.0, high=0.0)), Input("p", TensorSpec(("B", 2), low=0.9,
                                                                                                    high=1.0))),
        kwargs=(), params=(),
        body=(Get("v0", "x"), Get("v1", "p"),
              Grow("v2", "v0", "v1", 1, "mean", 3, "it0", TensorCond("v2", "mean", "<", 0.5))),
        output=OutVar("v2"))


@pytest.mark.parametrize("path", GRAPHS)
def test_a_loop_variable_that_grows_converts_except_under_xla(path):
    case = Case(_grow_program(), (InputSet("example", 3, 1), InputSet("batch", 2, 2)))
    record = check(case, PATHS[path])
    if path == "tf.xla":
        assert record["outcome"] == "unsupported" and "XLA" in record["detail"]["limitation"]
    else:
        assert record["outcome"] == "pass", record["detail"]["message"]


def _dup_program(scale: float) -> Program:
    """Two while loops, the first breaking at once, the second with an if/else whose then-branch reads the
    first loop's variable: freezing it for tf2onnx names a rewritten condition 'while_cond_function'."""
    return Program(
        seed=4, inputs=(Input("x", TensorSpec(("B",))), Input("y", TensorSpec((1,))), Input("z", TensorSpec((3,)))),
        kwargs=(), params=(),
        body=(Get("v0", "x"), Get("v1", "y"), Get("v2", "z"),
              While(TensorCond("v0", "amax", "<", 0.0), 4, "it0", (Break(),)),
              While(TensorCond("v1", "amax", "<", 0.0), 4, "it1",
                    (If(TensorCond("v2", "mean", ">", 0.5),
                        (OpStmt("v1", "amin", ("v0",), (("dim", 0), ("keepdim", True))),),
                        (OpStmt("v3", "mul_scalar", ("v2",), (("c", scale),)),)),))),
        output=OutSeq("tuple", (OutVar("v0"), OutVar("v1"))))


def _convert_two_in_one_process() -> list:
    """tf.onnx on two _dup_program models, in this process (the bug leaves the process's function library
    polluted, so the test runs this in a child of its own)."""
    return [check(Case(_dup_program(scale), (InputSet("example", 2, 1),)), PATHS["tf.onnx"])
            for scale in (2.0, 3.0)]


def test_known_bug_a_second_frozen_while_condition_is_a_duplicate_function():
    """tensorflow 2.21: the second model fails to convert; an unexpected pass means it was fixed upstream
    (drop the known-bug record FREEZE_DUPLICATE_FUNCTION of conformance/paths/tf/limitations.py)."""
    code = ("import json; from tests.test_paths_tf import _convert_two_in_one_process as f; "
            "print(json.dumps([(r['outcome'], r['detail'].get('known_issue', '')) for r in f()]))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=900,
                          cwd=Path(__file__).resolve().parent.parent)
    assert proc.returncode == 0, proc.stderr[-3000:]
    _, (second, known) = json.loads(proc.stdout.strip().splitlines()[-1])
    assert second == "conversion_error", f"fixed upstream? the second model: {second}"
    assert known.startswith("tf_freeze.freeze_duplicate_function:")


def test_cuda_is_unsupported_without_a_tensorflow_gpu():
    import tensorflow as tf

    if tf.config.list_physical_devices("GPU"):
        pytest.skip("this machine has a TensorFlow GPU")
    case = Case(kwarg_program(), (InputSet("example", 2, 1, (("alpha", 0.5), ("flag", True))),))
    record = check(case, PATHS["tf.function"], "cuda")
    assert record["outcome"] == "unsupported" and "not available" in record["detail"]["message"]


@pytest.mark.parametrize("path", ["tf.eager", "tf.function", "tf.saved_model"])
def test_masked_select_of_a_0d_tensor_is_rendered_as_tensorflow_takes_it(path):
    """masked_select of a scalar (torch and paddle take one; tf.boolean_mask refuses a 0-d mask, eagerly too, and a
    traced model where the branch holding it is not taken: the campaign's case 619ae7c59d5f, issue 18)."""
    program = Program(
        seed=3, inputs=(Input("x", TensorSpec((), low=-3.0, high=3.0)),), kwargs=(), params=(),
        body=(Get("v0", "x"), OpStmt("m", "eq", ("v0", "v0")), OpStmt("s", "masked_select", ("v0", "m")),
              If(TensorCond("v0", "mean", "<", 100.0), (), (OpStmt("n", "ne", ("v0", "v0")),
                                                            OpStmt("t", "masked_select", ("v0", "n"))))),
        output=OutSeq("tuple", (OutVar("s"), OutVar("v0"))))
    record = check(Case(program, (InputSet("example", 1, 1), InputSet("values", 1, 2))), PATHS[path])
    assert record["outcome"] == "pass", record["detail"]["message"]


def test_the_signature_has_none_on_the_dynamic_dims():
    """The input_signature the traced paths use has None exactly on the dynamic dims, and the example's dtypes."""
    from conformance.paths.tf.conversions import input_signature
    from conformance.program.case import materialize
    from conformance.program.program import dynamic_axes, tensor_names

    program = _loop_program()
    args, _ = materialize(program, InputSet("example", 2, 1))
    assert tensor_names(program) == ["x.0", "x.1", "y.k1", "y.k0"]
    sig = input_signature(args, tensor_names(program), dynamic_axes(program))
    assert [s.shape.as_list() for s in sig[0]] == [[None, 3], [None, 3]]
    assert {k: s.shape.as_list() for k, s in sig[1].items()} == {"k1": [2], "k0": [None, 2]}
    assert [s.name for s in sig[0]] == ["x.0", "x.1"] and isinstance(sig[0], list)
    assert {s.dtype.name for s in sig[0]} == {"float32"}


@pytest.mark.parametrize("path", ["tf.saved_model", "tf.onnx", "tf.session"])
def test_the_reproducer_agrees_with_eager_where_the_path_does(path, tmp_path):
    """conformance triage's repro.py for a TensorFlow path (the path's own conversion code, copied) converts as
    the path does: on a case that passes, it passes too (nested inputs, and a dict output whose keys a loaded model
    sorts). tests/test_repro_tf.py checks the copied code itself, for every path."""
    from conformance.triage.buckets import Sighting, TriageBucket
    from conformance.triage.bug_report import write_bucket
    from conformance.triage.signatures import signature

    case = Case(_loop_program(), (InputSet("example", 2, 1),))
    record = check(case, PATHS[path])
    assert record.outcome == "pass", record.detail.message
    bucket = TriageBucket(signature(record), [Sighting.of(record)], case, record)
    write_bucket(bucket, tmp_path, verify=True)
    assert bucket.repro.get("file"), bucket.repro.get("unavailable")
    assert bucket.repro["verified"] is False, bucket.repro.get("output_tail")  # it ran and agreed with eager


# ------------------------------------------------------------------ the TF1 graph of tf.session


def _tf1_program() -> Program:
    """Nested list and dict inputs, an if on a kwarg, an if/else on a tensor, a while with a break under a tensor
    condition, an early return under a tensor condition, and a dict output whose keys are not sorted."""
    out = OutSeq("tuple", (OutVar("v0"), OutDict((("b", OutVar("v2")), ("a", OutVar("v1"))))))
    return Program(
        seed=7,
        inputs=(Input("x", SeqSpec("list", (TensorSpec(("B", 3)), TensorSpec(("B", 3))))),
                Input("y", DictSpec((("k0", TensorSpec(("B", 3))), ("k1", TensorSpec((3,))))))),
        kwargs=(Kwarg("flag", "bool", True, (True, False)),), params=(),
        body=(Get("v0", "x", (0,)), Get("v1", "x", (1,)), Get("v2", "y", ("k0",)), Get("v3", "y", ("k1",)),
              If(KwargCond("flag", "truth"), (OpStmt("v0", "relu", ("v0",)),)),
              If(TensorCond("v1", "sum", ">", 0.0), (OpStmt("v0", "add", ("v0", "v3")),),
                 (OpStmt("v1", "neg", ("v1",)),)),
              While(TensorCond("v0", "amax", ">", -100.0), 3, "it0",
                    (If(TensorCond("v2", "mean", ">", 0.0), (Break(),)),
                     OpStmt("v0", "mul_scalar", ("v0",), (("c", 0.5),)))),
              If(TensorCond("v2", "amax", ">", 0.8), (Return(out),)),
              OpStmt("v2", "tanh", ("v2",))),
        output=out)


TF1_GRAPH = '''def build_graph(model, x: List[tf.Tensor], y: Dict[str, tf.Tensor], flag: bool = True):
    """This model as a TensorFlow 1 graph (what conformance's tf.session path runs): call it on
    tf.compat.v1.placeholders in a tf.Graph, with a Model made in that graph (its tf.Variables), and run
    the outputs in a tf.compat.v1.Session. Control flow on tensors is tf.cond and tf.while_loop; Python
    if and for only where the decision is known when the graph is built."""
    v0 = x[0]
    v1 = x[1]
    v2 = y['k0']
    v3 = y['k1']
    if flag:
        v0 = tf.nn.relu(v0)
    def _then_1(v0, v1):
        v0 = v0 + v3
        return v0, v1
    def _else_2(v0, v1):
        v1 = -v1
        return v0, v1
    v0, v1 = tf.cond(tf.reduce_sum(v1) > 0.0, lambda: _then_1(v0, v1), lambda: _else_2(v0, v1))
    def _cond_3(it0, v0, _broke):
        return tf.logical_and(tf.logical_not(_broke), tf.logical_and(it0 < 3, tf.reduce_max(v0) > -100.0))
    def _body_4(it0, v0, _broke):
        it0 = it0 + 1
        def _rest_5(v0):
            v0 = v0 * 0.5
            return it0, v0, tf.constant(False)
        def _then_6():
            return it0, v0, tf.constant(True)
        def _else_7():
            return _rest_5(v0)
        return tf.cond(tf.reduce_mean(v2) > 0.0, _then_6, _else_7)
    it0, v0, _broke = tf.while_loop(_cond_3, _body_4, (tf.constant(0), v0, tf.constant(False)))
    def _rest_8(v2):
        v2 = tf.tanh(v2)
        return (v0, {'b': v2, 'a': v1})
    def _then_9():
        return (v0, {'b': v2, 'a': v1})
    def _else_10():
        return _rest_8(v2)
    return tf.cond(tf.reduce_max(v2) > 0.8, _then_9, _else_10)
'''


def test_the_tf1_graph_is_written_as_tf1_users_wrote_it():
    """Python if on a kwarg; tf.cond whose branches take and return the variables they assign; tf.while_loop with
    a counter for the bound and a _broke flag set by the break, the rest of the body after it a continuation; an
    early return under a tensor condition: tf.cond between it and the rest of the model."""
    from conformance.render.source import render

    source = render(_tf1_program(), "tf")
    assert source[source.index("def build_graph"):source.index("\nif __name__")].rstrip() == TF1_GRAPH.rstrip()


def test_the_tf1_graph_agrees_with_eager_on_every_input_set():
    """Several value draws, so the tensor conditions (the if, the break, the early return) go both ways."""
    sets = [InputSet("example", 3, 1, (("flag", True),))] + [InputSet("values", 3, seed, (("flag", True),))
                                                             for seed in range(2, 8)]
    record = check(Case(_tf1_program(), tuple(sets) + (InputSet("batch", 5, 9, (("flag", True),)),
                                                       InputSet("kwargs", 3, 10, (("flag", False),)))),
                   PATHS["tf.session"])
    outcomes = [e["outcome"] for e in record["detail"]["inputs"]]
    assert set(outcomes[:-1]) <= {"pass", "discarded"} and outcomes.count("pass") >= 6, record["detail"]["inputs"]
    assert outcomes[-1] == "expected_divergence"  # the kwargs are fixed when the graph is built


def _tensor_if_program() -> Program:
    """if sum(x) > -100: relu(x) else: -x (always the first branch)."""
    return Program(seed=8, inputs=(Input("x", TensorSpec(("B", 3))),), kwargs=(), params=(),
                   body=(Get("v0", "x"), If(TensorCond("v0", "sum", ">", -100.0), (OpStmt("v0", "relu", ("v0",)),),
                                            (OpStmt("v0", "neg", ("v0",)),))),
                   output=OutVar("v0"))


def test_swapped_tf_cond_branches_are_a_mismatch():
    case = Case(_tensor_if_program(), (InputSet("example", 3, 1),))
    assert check(case, PATHS["tf.session"])["outcome"] == "pass"
    record = check(case, PATHS["tf.planted_session_swapped_cond"])
    assert record["outcome"] == "mismatch" and record["detail"]["inputs"][0]["flaky"] is False, record["detail"]


def test_a_return_in_a_tf_while_loop_is_unsupported():
    """build_graph does not express a return inside a tf.while_loop: it raises, and the path says why."""
    from conformance.render.source import render

    program = Program(
        seed=9, inputs=(Input("x", TensorSpec(("B", 3))),), kwargs=(), params=(),
        body=(Get("v0", "x"), While(TensorCond("v0", "sum", ">", -100.0), 2, "it0",
                                    (If(TensorCond("v0", "sum", ">", 100.0), (Return(OutVar("v0")),)),
                                     OpStmt("v0", "tanh", ("v0",))))),
        output=OutVar("v0"))
    assert "raise NotImplementedError('build_graph: a return inside a loop" in render(program, "tf")
    record = check(Case(program, (InputSet("example", 3, 1),)), PATHS["tf.session"])
    assert record["outcome"] == "unsupported" and "tf.while_loop" in record["detail"]["limitation"], record["detail"]


def test_a_model_of_your_own_converts_with_a_graph_builder_of_its_own(tmp_path):
    """conformance.check on a user's model: tf.session builds the graph with the build_graph function of the model's
    module, and says a module without one is unsupported."""
    import numpy as np

    import conformance

    model = ("import tensorflow as tf\n\n\nclass M(tf.Module):\n    def __call__(self, x):\n"
             "        return tf.nn.relu(x) if tf.reduce_sum(x) > 0 else -x\n")
    builder = ("\n\ndef build_graph(model, x):\n"
               "    return tf.cond(tf.reduce_sum(x) > 0, lambda: tf.nn.relu(x), lambda: -x)\n")
    (tmp_path / "own_model.py").write_text(model)
    (tmp_path / "own_graph_model.py").write_text(model + builder)
    sys.path.insert(0, str(tmp_path))
    try:
        import own_graph_model
        import own_model

        x = [np.linspace(-1, 2, 6, dtype=np.float32).reshape(2, 3)]
        with_builder = conformance.check(own_graph_model.M(), x, paths=["session"])["session"]
        without = conformance.check(own_model.M(), x, paths=["session"])["session"]
    finally:
        sys.path.remove(str(tmp_path))
    assert with_builder.outcome == "pass", with_builder.message
    assert without.outcome == "unsupported" and "build_graph" in without.message


def test_known_bug_x_plus_x_in_a_tf1_cond_branch_is_dead_under_grappler():
    """tensorflow 2.21: `tf.cond(pred, lambda: x + x, lambda: x)` with TF1 control flow fails in a session where the
    branch is taken; an unexpected pass means it was fixed upstream (drop the known-bug record TF1_COND_X_PLUS_X
    of conformance/paths/tf/limitations.py)."""
    program = Program(seed=11, inputs=(Input("x", TensorSpec(("B", 3))),), kwargs=(), params=(),
                      body=(Get("v0", "x"),
                            If(TensorCond("v0", "sum", ">", -100.0), (OpStmt("v0", "add", ("v0", "v0")),))),
                      output=OutVar("v0"))
    record = check(Case(program, (InputSet("example", 3, 1),)), PATHS["tf.session"])
    assert record["outcome"] == "runtime_error", f"fixed upstream? {record['outcome']}: {record['detail']['message']}"
    assert "arithmetic optimizer" in record["detail"]["known_issue"]


def _linear_loop_program() -> Program:
    """A linear layer, then a while loop that always runs its two iterations (tanh): every input and weight
    reaches the output."""
    return Program(
        seed=10, inputs=(Input("x", TensorSpec(("B", 3))),), kwargs=(),
        params=(Param("p0", (2, 3)), Param("p1", (2,))),
        body=(Get("v0", "x"), OpStmt("v1", "linear", ("v0",), (("out_features", 2),), ("p0", "p1")),
              While(TensorCond("v1", "amax", ">", -100.0), 2, "it0", (OpStmt("v1", "tanh", ("v1",)),))),
        output=OutVar("v1"))


def test_the_tf1_graph_differentiates_as_eager_does():
    """grad mode: tf.compat.v1.gradients through the TF1 while loop, with respect to the placeholder and the
    graph's variables, equals eager's GradientTape."""
    case = Case(_linear_loop_program(), (InputSet("example", 3, 1), InputSet("batch", 5, 2)))
    record = check(case, PATHS["tf.session"], mode="grad")
    assert record["outcome"] == "pass", record["detail"]["message"]


@settings(max_examples=8, derandomize=True, database=None, deadline=None, suppress_health_check=list(HealthCheck))
@given(case=cases(ops=TRIAGED_OPS, constructs=CONSTRUCTS))
def test_the_tf1_graph_agrees_with_eager_on_generated_programs(case):
    """(oracles/test_tf_parity.py checks every path on more programs.)"""
    record = check(case, PATHS["tf.session"])
    assert record["outcome"] in {"pass", "expected_divergence", "discarded"} or "known_issue" in record["detail"], (
        record["outcome"], record["detail"]["message"], json.dumps(case.to_dict()))


def _lookup_program() -> Program:
    """tanh of rows of a [10, 2] weight table picked by an int64 input: TensorFlow differentiates the gather into
    ``tf.IndexedSlices``, not a tensor."""
    return Program(
        seed=11, inputs=(Input("x", TensorSpec(("B", 3), "int64", 0.0, 9.0)),), kwargs=(),
        params=(Param("p0", (10, 2)),),
        body=(Get("v0", "x"), OpStmt("v1", "embedding", ("v0",), (("features", 2),), ("p0",)),
              OpStmt("v1", "tanh", ("v1",))),
        output=OutVar("v1"))


@pytest.mark.parametrize("path", ["tf.eager", "tf.function", "tf.session"])
@pytest.mark.parametrize("mode", ["grad", "train"])
def test_a_gathered_weight_is_differentiated_as_a_dense_gradient(path, mode):
    """The weight's gradient of a lookup is compared as a dense array (it was a harness error)."""
    if mode not in PATHS[path].modes:
        pytest.skip(f"{path} has no {mode} mode")
    case = Case(_lookup_program(), (InputSet("example", 3, 1), InputSet("batch", 5, 2)))
    record = check(case, PATHS[path], mode=mode)
    assert record["outcome"] == "pass", record["detail"]["message"]
