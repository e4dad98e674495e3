"""The TensorFlow deployment paths judged end to end: each passes a clean program with nested inputs, kwargs and a
dict output (also at another batch size), and the same conversion with a planted wrong output is a mismatch; each
conversion is copyable into a reproducer."""

import pytest

pytest.importorskip("conformance.paths.tf", reason="tensorflow is not installed")  # the adapter imports it

from conformance.paths.records import PATHS  # noqa: E402
from conformance.paths.standalone import standalone_source  # noqa: E402
from conformance.paths.tf.deployment_records import DEPLOYMENT_PATHS  # noqa: E402
from conformance.program.case import Case, InputSet  # noqa: E402
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
