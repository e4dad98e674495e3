"""Ops whose arguments have different dtypes (issue 15): ``ldexp`` promotes a bool, integer or float by a float
exponent (torch's promotion rule), ``in_top_k`` takes float scores and integer targets.

Where frameworks promote or treat NaN differently, the record says so (``missing``, ``differs``).
"""

from __future__ import annotations

from conformance.program.dtypes import FLOATS, is_float
from conformance.program.ir import TensorType
from conformance.program.ops.record import broadcast, need, per_framework, register, strategies

#: Float dtypes by width, for promotion (bfloat16 and float16 together promote to float32).
_WIDTH = {"float16": 16, "bfloat16": 16, "float32": 32, "float64": 64}


def promote(a: str, b: str) -> str:
    """torch's result dtype of a binary float op on ``a`` and ``b``, at least one of them a float: the float one
    beside a bool or an integer, else the wider (float16 with bfloat16: float32)."""
    if not is_float(a) or not is_float(b):
        return a if is_float(a) else b
    if a == b:
        return a
    if _WIDTH[a] == _WIDTH[b]:
        return "float32"
    return a if _WIDTH[a] > _WIDTH[b] else b


def _ldexp_infer(ts, a):
    need(is_float(ts[0].dtype) or is_float(ts[1].dtype), f"ldexp needs a float argument, got {ts[0]} and {ts[1]}")
    need("bfloat16" not in (ts[0].dtype, ts[1].dtype), "bfloat16 has no numpy dtype for outputs")
    return TensorType(broadcast(ts[0].shape, ts[1].shape), promote(ts[0].dtype, ts[1].dtype))


register(name="ldexp", family="mixed", arity=2, arg_dtypes=("any",), infer=_ldexp_infer, empty_ok=True,
         edge_ok=True, emit={"torch": "torch.ldexp({0}, {1})"},
         bound=lambda ivs, a, ts: (min(0.0, ivs[0][0]) * 2.0 ** ivs[1][1], max(0.0, ivs[0][1]) * 2.0 ** ivs[1][1]),
         domain=lambda ivs, ts: ivs[1][1] <= 8 and max(map(abs, ivs[0])) <= 100,
         missing={"paddle": "paddle.ldexp promotes otherwise (float16 x int32 is float32, torch keeps float16)",
                  "tf": "TensorFlow has no ldexp"},
         doc="x * 2 ** e, the result dtype promoted from both (a bool or an int x takes e's float dtype)")


def _top_k_infer(ts, a):
    scores, targets = ts
    need(scores.rank == 2 and targets.rank == 1, f"in_top_k takes scores [N, C] and targets [N], got {ts}")
    need(scores.dtype in FLOATS and targets.dtype in ("int64", "int32"), f"in_top_k dtypes: {ts}")
    need(scores.shape[0] == targets.shape[0], f"in_top_k: {scores} and {targets} differ in N")
    need(isinstance(scores.shape[1], int) and scores.shape[1] >= a.get("k", 1), f"in_top_k: k past C in {scores}")
    return TensorType(targets.shape, "bool")


def _targets_in_range(ivs, ts):
    """The targets index a class: 0 <= target < C."""
    return (ts[0].rank == 2 and isinstance(ts[0].shape[1], int) and ts[1].dtype in ("int64", "int32")
            and 0 <= ivs[1][0] and ivs[1][1] < ts[0].shape[1])


register(name="in_top_k", family="mixed", arity=2, arg_dtypes=("any",), infer=_top_k_infer, edge_ok=True,
         arg_shapes="any",
         emit={"torch": "(torch.topk({0}, {k}, dim=-1).indices == {1}.unsqueeze(-1)).any(-1)",
               "paddle": "(paddle.topk({0}, {k}, axis=-1)[1] == {1}.unsqueeze(-1)).any(-1)",
               "tf": "tf.math.in_top_k(tf.cast({1}, tf.int32), tf.cast({0}, tf.float32), {k})"},
         fp32_in_fp64={"tf": "tf.math.in_top_k takes float32 scores only (the fp64 reference casts them)"},
         bound=lambda ivs, a, ts: (0.0, 1.0), domain=_targets_in_range,
         attrs=lambda draw, ts: {"k": draw(strategies().integers(1, ts[0].shape[1]))},
         probe="cmp",  # the gaps between sorted neighbours (as sorting ops): two scores crossing moves the top k
         probe_args=per_framework("torch.diff(torch.sort({0}, dim=-1).values, dim=-1), torch.zeros(())",
                                  "paddle.diff(paddle.sort({0}, axis=-1), axis=-1), paddle.zeros([])",
                                  "tf.experimental.numpy.diff(tf.sort({0}, axis=-1), axis=-1), "
                                  "tf.zeros([], {0}.dtype)"),
         differs={"tf": "tf.math.in_top_k counts ties in the target's favour and a NaN score as not in the top k; "
                        "torch.topk and paddle.topk rank NaN first and break ties by index"},
         doc="whether each row's target index is among the k largest scores (tf.math.in_top_k; torch and paddle "
             "compare topk's indices)",
         tolerance="ties decide membership: the guard watches the scores")
