"""The TensorFlow deployment paths judged end to end: each passes a clean program with nested inputs, kwargs and a
dict output (also at another batch size), and the same conversion with a planted wrong output is a mismatch; each
conversion is copyable into a reproducer."""

import pytest

pytest.importorskip("conformance.paths.tf", reason="tensorflow is not installed")  # the adapter imports it

from conformance.paths.records import PATHS  # noqa: E402
from conformance.paths.standalone import standalone_source  # noqa: E402
from conformance.paths.tf.deployment_records import DEPLOYMENT_PATHS  # noqa: E402
from conformance.program.case import Case, InputSet  # noqa: E402
from conformance.program.ir import Get, Input, OpStmt, OutSeq, OutVar, TensorSpec  # noqa: E402
from conformance.program.program import Program  # noqa: E402
from conformance.run.runner import prepare, run_path  # noqa: E402

from .planted_deploy import (  # noqa: E402
    assert_clean_passes,
    assert_planted_is_a_mismatch,
    clean_case,
    clean_program,
    ensure_registered,
    skip_without_requirements,
)  # noqa: E402

ensure_registered(DEPLOYMENT_PATHS)
PATH_IDS = [p.id for p in DEPLOYMENT_PATHS]


@pytest.fixture(scope="module")
def prepared():
    case = clean_case()
    return case, prepare(case, "tf")


@pytest.mark.parametrize("path_id", PATH_IDS)
def test_a_clean_program_passes(prepared, path_id):
    assert_clean_passes(*prepared, path_id)


@pytest.mark.parametrize("path_id", PATH_IDS)
def test_a_planted_wrong_output_is_a_mismatch(prepared, path_id):
    assert_planted_is_a_mismatch(*prepared, path_id)


@pytest.mark.parametrize("path_id", ["tf.tflite", "tf.openvino"])
def test_kwargs_are_fixed_at_conversion_and_judged_as_such(path_id):
    """Another kwargs value runs the example's: matches eager replayed with the example's kwargs."""
    skip_without_requirements(path_id)
    case = Case(clean_program(), (InputSet("example", 2, 1, (("alpha", 0.5), ("flag", True))),
                                  InputSet("kwargs", 2, 2, (("alpha", 2.0), ("flag", False)))))
    record = run_path(case, prepare(case, "tf"), PATHS[path_id])
    assert [e["outcome"] for e in record["detail"]["inputs"]] == ["pass", "expected_divergence"]


@pytest.mark.parametrize("path", DEPLOYMENT_PATHS, ids=lambda p: p.id)
def test_each_conversion_is_copyable_into_a_reproducer(path):
    source = standalone_source(path.convert, path.run, names=("convert", "run"))
    compile(source, path.id, "exec")


def _program(shape: tuple, body: tuple, output) -> Program:
    return Program(seed=5, inputs=(Input("x", TensorSpec(shape)),), kwargs=(), params=(),
                   body=(Get("v0", "x", ()),) + body, output=output)


def test_openvino_reads_each_of_more_than_ten_outputs_by_its_own_name():
    """A SavedModel signature returning a list names its outputs output_0 ... output_11, and OpenVINO's reader gives
    some of them the name of another too (output_8 is also called output_6): the signature returns a dict of
    zero-padded keys instead (the tf campaign of 2026-11-28, case dd6ff2025f38, was a mismatch)."""
    skip_without_requirements("tf.openvino")
    body = tuple(OpStmt(f"v{i + 1}", "mul_scalar", ("v0",), (("c", float(i + 1)),)) for i in range(12))
    program = _program(("B", 3), body, OutSeq("tuple", tuple(OutVar(f"v{i + 1}") for i in range(12))))
    case = Case(program, (InputSet("example", 2, 1, ()),))
    record = run_path(case, prepare(case, "tf"), PATHS["tf.openvino"])
    assert record["outcome"] == "pass", record["detail"]["message"]


def test_onnx_openvino_never_loads_the_file_in_onnxruntime(prepared, monkeypatch):
    """What onnxruntime refuses (a kernel it lacks, e.g. Softplus on float64: case 84367fb474d8) is not OpenVINO's
    finding: the ONNX file goes to OpenVINO's reader only."""
    skip_without_requirements("tf.onnx_openvino")
    from conformance.paths.tf import conversions

    def refuse(*args, **kwargs):
        raise AssertionError("onnxruntime loaded the file of tf.onnx_openvino")

    monkeypatch.setattr(conversions, "OrtModel", refuse)
    assert_clean_passes(*prepared, "tf.onnx_openvino")


@pytest.mark.parametrize("path_id", ["tf.tflite", "tf.tflite_select_tf_ops"])
def test_an_empty_output_of_tflite_is_the_interpreters_known_bug(path_id):
    """The interpreter runs a model of static shapes with an empty output, and its get_tensor refuses the 0-byte
    output ('Invalid tensor size.', tensorflow#57084): the inputs are fed as documented, and the record names it."""
    skip_without_requirements(path_id)
    case = Case(_program((2, 0, 3), (OpStmt("v1", "abs", ("v0",)),), OutVar("v1")),
                (InputSet("example", 2, 1, ()),))
    record = run_path(case, prepare(case, "tf"), PATHS[path_id])
    assert record["outcome"] == "runtime_error", record["detail"]["message"]
    assert "Invalid tensor size" in record["detail"]["message"]
    assert "get_tensor" in record["detail"]["known_issue"]


def test_a_flatbuffer_that_reads_variables_it_never_initialises_is_refused_and_named():
    """The Keras 3 model's weights stay uninitialised resource variables (TensorFlow Lite's converter's bug): the
    path refuses the flatbuffer instead of judging uninitialised memory; the same weights in a tf.Module pass."""
    import numpy as np
    import tensorflow as tf

    import conformance
    from conformance.paths import known

    skip_without_requirements("tf.tflite")

    class KerasEmbedding(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.emb = tf.keras.layers.Embedding(10, 4)

        def call(self, tokens):
            return tf.reduce_mean(self.emb(tokens), 1)

    class ModuleEmbedding(tf.Module):
        def __init__(self, table):
            super().__init__()
            self.table = tf.Variable(table)

        def __call__(self, tokens):
            return tf.reduce_mean(tf.gather(self.table, tokens), 1)

    tokens = np.array([[1, 2, 3], [4, 5, 9]], dtype=np.int32)
    keras_model = KerasEmbedding()
    keras_model(tokens)
    refused = {r.path: r for r in conformance.check(keras_model, [tokens], paths=["tflite"]).results}
    assert refused["tf.tflite"].outcome == "conversion_error"
    assert known.record("tflite.keras_variables_uninitialised").reason[:60] in refused["tf.tflite"].named
    control = conformance.check(ModuleEmbedding(keras_model.emb.embeddings.numpy()), [tokens], paths=["tflite"])
    assert {r.path: r.outcome for r in control.results}["tf.tflite"] == "pass"
