"""Elementwise ops: unary math and activations, scalar arithmetic, binary arithmetic with broadcasting."""

from __future__ import annotations

import math

from conformance.program.ir import TensorType
from conformance.program.ops.record import (
    FLOAT_KWARG_RANGE,
    broadcast,
    calls,
    everywhere,
    hull,
    interval_mul,
    monotone,
    per_framework,
    register,
    same_type,
    strategies,
    within,
)


def _sigmoid(x):
    if x < 0:
        e = math.exp(x)
        return e / (1 + e)
    return 1 / (1 + math.exp(-x))


def _softplus(x):
    return math.log1p(math.exp(-abs(x))) + max(x, 0.0)


def unary(name, family, emit, bound, doc, domain=None, tolerance="", **kw):
    return register(name=name, family=family, arity=1, doc=doc, infer=same_type, bound=bound,
                    emit=emit, domain=domain or (lambda ivs, ts: True), tolerance=tolerance, **kw)


unary("neg", "elementwise", everywhere("-{0}"), lambda ivs, a, ts: (-ivs[0][1], -ivs[0][0]), "negation")
unary("abs", "elementwise", calls("torch.abs", "paddle.abs", "tf.abs"),
      lambda ivs, a, ts: (0.0 if ivs[0][0] <= 0 <= ivs[0][1] else min(map(abs, ivs[0])), max(map(abs, ivs[0]))),
      "absolute value")
unary("square", "elementwise", everywhere("{0} * {0}"),
      lambda ivs, a, ts: (0.0 if ivs[0][0] <= 0 <= ivs[0][1] else min(x * x for x in ivs[0]),
                          max(x * x for x in ivs[0])), "x * x")
unary("exp", "elementwise", calls("torch.exp", "paddle.exp", "tf.exp"), monotone(math.exp), "exponential",
      domain=within(hi=6.0), tolerance="vectorised exp differs by ~1 ulp between kernels")
unary("log", "elementwise", calls("torch.log", "paddle.log", "tf.math.log"), monotone(math.log), "natural log",
      domain=within(lo=0.05))
unary("sqrt", "elementwise", calls("torch.sqrt", "paddle.sqrt", "tf.sqrt"), monotone(math.sqrt),
      "square root (inputs >= 0.05: the slope at 0 is infinite and would amplify rounding without bound)",
      domain=within(lo=0.05))
unary("sin", "elementwise", calls("torch.sin", "paddle.sin", "tf.sin"), lambda ivs, a, ts: (-1.0, 1.0), "sine",
      domain=within(-100, 100))
unary("cos", "elementwise", calls("torch.cos", "paddle.cos", "tf.cos"), lambda ivs, a, ts: (-1.0, 1.0), "cosine",
      domain=within(-100, 100))
RELU = unary("relu", "activation", calls("torch.relu", "F.relu", "tf.nn.relu"), monotone(lambda x: max(x, 0.0)),
             "rectified linear unit")
unary("sigmoid", "activation", calls("torch.sigmoid", "F.sigmoid", "tf.sigmoid"), monotone(_sigmoid),
      "logistic sigmoid")
unary("tanh", "activation", calls("torch.tanh", "paddle.tanh", "tf.tanh"), monotone(math.tanh), "hyperbolic tangent")
unary("gelu", "activation", per_framework("F.gelu({0})", "F.gelu({0})", "tf.nn.gelu({0}, approximate=False)"),
      lambda ivs, a, ts: (-0.17, max(ivs[0][1], 0.0)), "GELU (erf form)",
      tolerance="erf approximations differ by a few ulp")
unary("silu", "activation", calls("F.silu", "F.silu", "tf.nn.silu"), lambda ivs, a, ts: (-0.28, max(ivs[0][1], 0.0)),
      "SiLU / swish")
unary("softplus", "activation", calls("F.softplus", "F.softplus", "tf.nn.softplus"), monotone(_softplus),
      "log(1 + exp(x))", domain=within(hi=50))
unary("leaky_relu", "activation",
      per_framework("F.leaky_relu({0}, {slope})", "F.leaky_relu({0}, {slope})", "tf.nn.leaky_relu({0}, alpha={slope})"),
      lambda ivs, a, ts: tuple(x if x > 0 else x * a["slope"] for x in ivs[0]), "leaky ReLU",
      attrs=lambda draw, ts: {"slope": draw(strategies().sampled_from([0.1, 0.01, 0.2]))})
CLAMP = unary(
    "clamp", "elementwise",
    calls("torch.clamp", "paddle.clip", "tf.clip_by_value", args="{0}, {lo}, {hi}"),
    lambda ivs, a, ts: (min(max(ivs[0][0], a["lo"]), a["hi"]), max(min(ivs[0][1], a["hi"]), a["lo"])),
    "clamp to [lo, hi]",
    attrs=lambda draw, ts: dict(zip(("lo", "hi"), draw(strategies().sampled_from([(-1.0, 1.0), (0.0, 1.0),
                                                                                  (-0.5, 2.0), (0.0, 6.0)])))))
unary("add_scalar", "elementwise", everywhere("{0} + {c}"),
      lambda ivs, a, ts: (ivs[0][0] + a["c"], ivs[0][1] + a["c"]), "add a constant",
      attrs=lambda draw, ts: {"c": draw(strategies().sampled_from([1.0, -0.5, 0.25, 2.0, -1.5]))})
unary("mul_scalar", "elementwise", everywhere("{0} * {c}"),
      lambda ivs, a, ts: hull(ivs[0][0] * a["c"], ivs[0][1] * a["c"]), "multiply by a constant",
      attrs=lambda draw, ts: {"c": draw(strategies().sampled_from([2.0, 0.5, -1.0, 3.0, -0.25]))})
# mul_kwarg is drawn by the generator only when the program has a float kwarg (it names the kwarg).
unary("mul_kwarg", "elementwise", everywhere("{0} * {kwarg}"),
      lambda ivs, a, ts: hull(*(x * c for x in ivs[0] for c in FLOAT_KWARG_RANGE)),
      "multiply by a float keyword argument")

# ---------------------------------------------------------------- binary elementwise


def _binary_infer(ts, a):
    return TensorType(broadcast(ts[0].shape, ts[1].shape), ts[0].dtype)


def binary(name, emit, bound, doc, domain=None, **kw):
    return register(name=name, family="elementwise", arity=2, doc=doc, infer=_binary_infer, bound=bound,
                    emit=emit, domain=domain or (lambda ivs, ts: True), **kw)


binary("add", everywhere("{0} + {1}"), lambda ivs, a, ts: (ivs[0][0] + ivs[1][0], ivs[0][1] + ivs[1][1]),
       "addition (broadcasting)")
binary("sub", everywhere("{0} - {1}"), lambda ivs, a, ts: (ivs[0][0] - ivs[1][1], ivs[0][1] - ivs[1][0]),
       "subtraction (broadcasting)")
binary("mul", everywhere("{0} * {1}"), lambda ivs, a, ts: interval_mul(ivs[0], ivs[1]),
       "multiplication (broadcasting)")
binary("div", everywhere("{0} / {1}"), lambda ivs, a, ts: interval_mul(ivs[0], (1 / ivs[1][1], 1 / ivs[1][0])),
       "true division (broadcasting); the divisor stays away from zero",
       domain=lambda ivs, ts: ivs[1][0] >= 0.1 or ivs[1][1] <= -0.1)
binary("maximum", calls("torch.maximum", "paddle.maximum", "tf.maximum", args="{0}, {1}"),
       lambda ivs, a, ts: (max(ivs[0][0], ivs[1][0]), max(ivs[0][1], ivs[1][1])),
       "elementwise maximum")
binary("minimum", calls("torch.minimum", "paddle.minimum", "tf.minimum", args="{0}, {1}"),
       lambda ivs, a, ts: (min(ivs[0][0], ivs[1][0]), min(ivs[0][1], ivs[1][1])),
       "elementwise minimum")
