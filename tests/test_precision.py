"""The reduced-precision rule (conformance.precision): real bfloat16 rounding passes, an error beyond it
is a mismatch, and a decision that reduced precision flips is discarded rather than judged."""

import numpy as np
import pytest

from conformance.judge.oracle import diagnose
from conformance.judge.precision import judge, tolerance


def _bf16(a: np.ndarray) -> np.ndarray:
    """Round float32 values to bfloat16 (nearest, ties to even), back in float32."""
    bits = a.astype(np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return rounded.astype(np.uint32).view(np.float32)


def _matmul(seed: int, n: int = 64, rows: int = 8, cols: int = 8):
    """fp32 eager, fp64 reference, eager on one-ulp-nudged inputs, and the product with bfloat16 inputs and
    a bfloat16 result (accumulated in fp32), as autocast computes it on the CPU."""
    rng = np.random.default_rng(seed)
    a, b = rng.standard_normal((rows, n)).astype(np.float32), rng.standard_normal((n, cols)).astype(np.float32)
    nudged = np.nextafter(a, np.where(rng.random(a.shape) < 0.5, -np.inf, np.inf).astype(np.float32))
    low = _bf16(_bf16(a) @ _bf16(b))
    return a @ b, a.astype(np.float64) @ b.astype(np.float64), nudged @ b, low


def test_the_rule_numbers():
    bf16 = tolerance("bfloat16")
    assert bf16["rtol"] == 1.6e-2 and bf16["atol"] == 1e-5  # torch.testing's bfloat16 defaults
    assert bf16["multiplier"] == 3 * 2.0 ** 16  # TorchDynamo's m = 3, times u_bf16 / u_fp32
    assert tolerance("float16")["multiplier"] == 3 * 2.0 ** 13
    with pytest.raises(ValueError, match="no reduced-precision rule"):
        tolerance("float32")


@pytest.mark.parametrize("seed", range(10))
def test_bfloat16_rounding_passes_and_the_fp32_rule_would_not(seed):
    eager, ref, noise, low = _matmul(seed)
    assert judge(low, eager, ref, noise, "bfloat16").ok
    assert not diagnose(low, eager, ref, noise=noise).ok  # the fp32 rule would call it a mismatch


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("shape", [(8, 8), (3, 5)], ids=["64-elements", "15-elements"])
def test_an_error_beyond_bfloat16_rounding_is_a_mismatch(seed, shape):
    """Also in a leaf small enough that its tail is one element: the largest element gets no tail."""
    eager, ref, noise, low = _matmul(seed, rows=shape[0], cols=shape[1])
    idx = np.unravel_index(np.argmax(np.abs(eager)), eager.shape)
    wrong = low.copy()
    wrong[idx] *= 1.1  # 10% off at the largest element: far beyond bf16's 0.4% rounding
    report = judge(wrong, eager, ref, noise, "bfloat16")
    assert not report.ok and report.failures[0].worst_index == tuple(int(i) for i in idx)


torch = pytest.importorskip("torch")

from conformance.paths.records import PATHS, select_paths  # noqa: E402
from conformance.program.case import Case, InputSet, materialize  # noqa: E402
from conformance.program.ir import Get, If, Input, OpStmt, OutVar, TensorCond, TensorSpec  # noqa: E402
from conformance.program.program import Program  # noqa: E402
from conformance.run.runner import check  # noqa: E402

from . import planted_training  # noqa: E402, F401 - registers torch.planted_precision_flip

select_paths(["torch"])


def _branch_case() -> Case:
    """if x.sum() > 0: relu(x) else: -x, on an example whose sum is clearly positive."""
    p = Program(seed=0, inputs=(Input("x", TensorSpec((4, 3))),), kwargs=(), params=(),
                body=(Get("v0", "x"), If(TensorCond("v0", "sum", ">", 0.0), (OpStmt("v0", "relu", ("v0",)),),
                                          (OpStmt("v0", "neg", ("v0",)),))), output=OutVar("v0"))
    seed = next(s for s in range(1000) if materialize(p, InputSet("example", 1, s))[0][0].sum() > 0.5)
    return Case(p, (InputSet("example", 1, seed),))


def test_a_decision_flipped_by_reduced_precision_is_discarded():
    record = check(_branch_case(), PATHS["torch.planted_precision_flip"])
    assert record["outcome"] == "discarded"
    assert "otherwise than fp32 eager" in record["detail"]["message"]


def test_autocast_bf16_passes_a_branching_model():
    record = check(_branch_case(), PATHS["torch.autocast_bf16"])
    assert record["outcome"] == "pass", record["detail"]["message"]


@pytest.mark.parametrize("name", ["linear", "conv"])
def test_rounding_of_a_sum_whose_terms_cancel_is_not_a_finding(name):
    """Seed-0 torch campaigns. ``linear``: a ``linear(exp(x))`` element that cancels to -0.02 from terms of
    magnitude ~3 (case 22b2a6c94a6d): bfloat16's rounding there is ~7% of the result. Nudging only the inputs barely
    moved fp32 eager (exp is well conditioned near 0), so the rule's noise was far below the terms' rounding and
    autocast_bf16 was a mismatch; the noise run nudges the weights too. ``conv``: a circular-padded 3x3
    convolution's element of 0.0295 from terms of ~0.5 (case d059b52f6804), 1 of 45 values, where the nudged run
    happened to move eager by 2 ulps only: a leaf of fewer than 50 elements had no tail; it has one element now."""
    import json
    from pathlib import Path

    data = Path(__file__).parent / "data" / f"bf16_{name}_cancellation_case.json"
    case = Case.from_dict(json.loads(data.read_text()))
    record = check(case, PATHS["torch.autocast_bf16"])
    assert record["outcome"] == "pass", record["detail"]["message"]
