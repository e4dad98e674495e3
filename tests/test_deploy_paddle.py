"""The PaddlePaddle deployment paths judged end to end: each passes a clean program with nested inputs, kwargs and a
dict output (also at another batch size), and the same conversion with a planted wrong output is a mismatch;
OpenVINO's refusal of Paddle 3's saved format is the documented limitation; each conversion is copyable into a
reproducer."""

import pytest

pytest.importorskip("conformance.paths.paddle", reason="paddle is not installed")

from conformance.paths import known  # noqa: E402
from conformance.paths.paddle.deployment_records import DEPLOYMENT_PATHS  # noqa: E402
from conformance.paths.records import PATHS  # noqa: E402
from conformance.paths.standalone import standalone_source  # noqa: E402
from conformance.run.runner import prepare, run_path  # noqa: E402

from .planted_deploy import (  # noqa: E402
    assert_clean_passes,
    assert_planted_is_a_mismatch,
    clean_case,
    ensure_registered,
)  # noqa: E402

ensure_registered(DEPLOYMENT_PATHS)
#: the paths that run a model here (OpenVINO cannot read what paddle 3 saves: see the test below)
RUNNING = ["paddle.inference_no_ir_optim", "paddle.onnx_openvino"]


@pytest.fixture(scope="module")
def prepared():
    # the output dict's keys sorted: paddle's saved paths return dict outputs flat in sorted-key order, which the
    # runner does not rebuild yet (paddle.inference, paddle.onnx and paddle.jit_save mismatch on unsorted keys alike)
    case = clean_case(keys=("alpha", "zeta"))
    return case, prepare(case, "paddle")


@pytest.mark.parametrize("path_id", RUNNING)
def test_a_clean_program_passes(prepared, path_id):
    assert_clean_passes(*prepared, path_id)


@pytest.mark.parametrize("path_id", RUNNING)
def test_a_planted_wrong_output_is_a_mismatch(prepared, path_id):
    assert_planted_is_a_mismatch(*prepared, path_id)


def test_openvino_refuses_paddle_3s_saved_program_as_documented(prepared):
    """OpenVINO reads .pdmodel programs only; paddle 3 saves PIR .json. When an OpenVINO release reads them, this
    fails: then the path runs, and a planted fault belongs here as for the others."""
    pytest.importorskip("openvino")
    import paddle
    from packaging.version import Version

    if Version(paddle.__version__) < Version("3.0"):
        pytest.skip("paddle 2 saves .pdmodel programs")
    case, prep = prepared
    record = run_path(case, prep, PATHS["paddle.openvino"])
    assert record["outcome"] == "unsupported", record["detail"]["message"]
    assert record["detail"]["limitation"] == known.record("openvino.no_pir").reason


@pytest.mark.parametrize("path", DEPLOYMENT_PATHS, ids=lambda p: p.id)
def test_each_conversion_is_copyable_into_a_reproducer(path):
    source = standalone_source(path.convert, path.run, names=("convert", "run"))
    compile(source, path.id, "exec")
