"""More activation functions: the piecewise and smooth ones converters lower differently (hardswish, mish,
elu and its relatives, shrinkage, gated units), and PReLU with a learned slope per channel."""

from __future__ import annotations

import math

from conformance.program.ir import TensorType
from conformance.program.ops.elementwise import unary
from conformance.program.ops.record import (
    calls,
    monotone,
    need,
    per_framework,
    register,
    strategies,
    within,
)


def _below_identity(low: float):
    """Bound of an activation f with low <= f(x) <= max(x, 0) (hardswish, mish, gelu)."""
    return lambda ivs, a, ts: (low, max(ivs[0][1], 0.0))


unary("hardswish", "activation", per_framework("F.hardswish({0})", "F.hardswish({0})",
                                               "{0} * tf.nn.relu6({0} + 3.0) / 6.0"),
      _below_identity(-0.375), "x * relu6(x + 3) / 6")
unary("hardsigmoid", "activation", per_framework("F.hardsigmoid({0})", "F.hardsigmoid({0})",
                                                 "tf.nn.relu6({0} + 3.0) / 6.0"),
      lambda ivs, a, ts: (0.0, 1.0), "relu6(x + 3) / 6",
      tolerance="paddle's hardsigmoid takes slope 0.1666667 for 1/6 (a relative difference of 2e-7)",
      fp32_in_fp64={"paddle": "its slope 0.1666667 stands for 1/6 to float32 precision only (a relative difference "
                              "of 2e-5 near 0)"},
      arg_dtypes=("float32",))  # on float64 inputs paddle's result differs from the others by that slope
unary("mish", "activation", per_framework("F.mish({0})", "F.mish({0})", "{0} * tf.tanh(tf.nn.softplus({0}))"),
      _below_identity(-0.31), "x * tanh(softplus(x))", domain=within(hi=50.0))
unary("gelu_tanh", "activation", per_framework("F.gelu({0}, approximate='tanh')", "F.gelu({0}, approximate=True)",
                                               "tf.nn.gelu({0}, approximate=True)"),
      _below_identity(-0.17), "GELU, tanh approximation", tolerance="tanh approximations differ by a few ulp")


def _elu_attrs(draw, ts):
    return {"alpha": draw(strategies().sampled_from([1.0, 0.5, 2.0]))}


unary("elu", "activation", per_framework("F.elu({0}, {alpha})", "F.elu({0}, {alpha})",
                                         "tf.where({0} > 0, {0}, {alpha} * tf.math.expm1({0}))"),
      lambda ivs, a, ts: (-a["alpha"] if ivs[0][0] < 0 else ivs[0][0], ivs[0][1]),
      "x for x > 0, alpha * (exp(x) - 1) otherwise", attrs=_elu_attrs, domain=within(hi=1e3))
unary("celu", "activation", per_framework("F.celu({0}, {alpha})", "F.celu({0}, {alpha})",
                                          "tf.where({0} > 0, {0}, {alpha} * tf.math.expm1({0} / {alpha}))"),
      lambda ivs, a, ts: (-a["alpha"] if ivs[0][0] < 0 else ivs[0][0], ivs[0][1]),
      "x for x > 0, alpha * (exp(x / alpha) - 1) otherwise", attrs=_elu_attrs, domain=within(hi=1e3))
unary("selu", "activation", calls("F.selu", "F.selu", "tf.nn.selu"),
      lambda ivs, a, ts: (-1.7581 if ivs[0][0] < 0 else 0.0, max(ivs[0][1], 0.0) * 1.0508),
      "scaled ELU (scale 1.0507, alpha 1.6733)", domain=within(hi=1e3))
unary("softsign", "activation", calls("F.softsign", "F.softsign", "tf.nn.softsign"),
      monotone(lambda x: x / (1 + abs(x))), "x / (1 + |x|)")
unary("relu6", "activation", calls("F.relu6", "F.relu6", "tf.nn.relu6"), monotone(lambda x: min(max(x, 0.0), 6.0)),
      "min(max(x, 0), 6)")
unary("hardtanh", "activation", per_framework("F.hardtanh({0}, {lo}, {hi})", "F.hardtanh({0}, {lo}, {hi})",
                                              "tf.clip_by_value({0}, {lo}, {hi})"),
      lambda ivs, a, ts: (min(max(ivs[0][0], a["lo"]), a["hi"]), max(min(ivs[0][1], a["hi"]), a["lo"])),
      "clamp to [lo, hi] (an activation layer)",
      attrs=lambda draw, ts: dict(zip(("lo", "hi"), draw(strategies().sampled_from([(-1.0, 1.0), (-2.0, 2.0)])))))
unary("logsigmoid", "activation", calls("F.logsigmoid", "F.log_sigmoid", "tf.math.log_sigmoid"),
      monotone(lambda x: -(math.log1p(math.exp(-abs(x))) + max(-x, 0.0))), "log(sigmoid(x)), computed stably",
      domain=within(lo=-50.0))
unary("tanhshrink", "activation", per_framework("F.tanhshrink({0})", "F.tanhshrink({0})", "{0} - tf.tanh({0})"),
      monotone(lambda x: x - math.tanh(x)), "x - tanh(x)",
      tolerance="cancellation near 0: judged against fp64 with the nudged run's noise")
unary("softshrink", "activation", per_framework("F.softshrink({0}, {lambd})", "F.softshrink({0}, {lambd})",
                                                "tf.sign({0}) * tf.nn.relu(tf.abs({0}) - {lambd})"),
      lambda ivs, a, ts: (min(ivs[0][0] + a["lambd"], 0.0), max(ivs[0][1] - a["lambd"], 0.0)),
      "shrink toward 0 by lambda, 0 within it",
      attrs=lambda draw, ts: {"lambd": draw(strategies().sampled_from([0.5, 0.25]))})


def _prelu_infer(ts, a):
    t = ts[0]
    need(t.rank >= 2 and isinstance(t.shape[1], int), f"prelu needs [N, C, ...] with a static C, got {t}")
    return t


register(name="prelu", family="activation", arity=1, doc="x for x >= 0, w[c] * x otherwise: a learned slope per "
         "channel (dim 1)", infer=_prelu_infer, empty_ok=False,
         emit=per_framework("F.prelu({0}, {p0})", "F.prelu({0}, {p0})",
                            "tf.where({0} >= 0, {0}, tf.reshape({p0}, {channel_shape}) * {0})"),
         fields=lambda ts, a: {"channel_shape": [1, -1] + [1] * (ts[0].rank - 2)},
         domain=lambda ivs, ts: ts[0].rank >= 2 and isinstance(ts[0].shape[1], int),
         params=lambda ts, a: [((ts[0].shape[1],), 0.5)],
         bound=lambda ivs, a, ts: (min(ivs[0][0], 0.0) - 0.5 * max(map(abs, ivs[0])), max(ivs[0][1], 0.0)
                                   + 0.5 * max(map(abs, ivs[0]))))


def _glu_infer(ts, a):
    t = ts[0]
    d = a["dim"]
    need(0 <= d < t.rank and isinstance(t.shape[d], int) and t.shape[d] % 2 == 0,
         f"glu needs an even static dim {d}, got {t}")
    return TensorType(t.shape[:d] + (t.shape[d] // 2,) + t.shape[d + 1:], t.dtype)


def _even_dims(t):
    return [i for i, d in enumerate(t.shape) if isinstance(d, int) and d % 2 == 0]


register(name="glu", family="activation", arity=1, doc="gated linear unit: a * sigmoid(b) for the halves a, b of "
         "an even dim", infer=_glu_infer, domain=lambda ivs, ts: bool(_even_dims(ts[0])),
         emit=per_framework("F.glu({0}, {dim})", "F.glu({0}, {dim})",
                            "tf.split({0}, 2, axis={dim})[0] * tf.sigmoid(tf.split({0}, 2, axis={dim})[1])"),
         attrs=lambda draw, ts: {"dim": draw(strategies().sampled_from(_even_dims(ts[0])))},
         bound=lambda ivs, a, ts: (min(ivs[0][0], 0.0), max(ivs[0][1], 0.0)))
