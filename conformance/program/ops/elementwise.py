"""Elementwise ops: unary math and activations, scalar arithmetic, binary arithmetic with broadcasting.

Each takes any float dtype (float32, float16, float64: ``OpRecord.arg_dtypes`` ``"float"``), both arguments of a
binary op of one dtype (mixed dtypes promote in ``conformance.program.ops.mixed``), except where a framework's
kernels refuse one (:data:`FLOAT16_REFUSED`).
"""

from __future__ import annotations

import math

from conformance.program.ir import TensorType
from conformance.program.ops.record import (
    FLOAT_KWARG_RANGE,
    Enabler,
    broadcast,
    calls,
    everywhere,
    hull,
    interval_mul,
    monotone,
    need,
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


#: The float ops whose float16 kernels a framework lacks, per framework (paddle 3.3 on the CPU: 'The kernel with key
#: (CPU, Undefined(AnyLayout), float16) of kernel `sin` is not registered'; its floor_divide by a Python float gives
#: float32; tensorflow 2.21: no float16 TruncateMod), found by running each op's emitter eagerly on float16 and
#: float64 tensors in each framework (``tests/test_ops_eager.py`` runs them on drawn programs of those dtypes).
FLOAT16_REFUSED = {
    "paddle": frozenset((
        "abs", "acos", "add", "asin", "asinh", "atan", "atanh", "celu", "clamp", "cos", "cosh", "div", "elu",
        "floor_divide_scalar", "gelu", "gelu_tanh", "hardsigmoid", "hardswish", "hardtanh", "leaky_relu", "lerp",
        "logaddexp", "logsigmoid", "maximum", "minimum", "mish", "mul", "pow", "pow_fraction", "pow_scalar",
        "reciprocal", "relu", "relu6", "remainder_scalar", "round", "rsqrt", "selu", "sigmoid", "sign", "silu",
        "sin", "sinh", "softplus", "softshrink", "softsign", "sqrt", "square", "sub", "tan", "tanh", "tanhshrink",
        "trunc")),
    "tf": frozenset(("fmod_scalar",)),
}


def float_op(name: str, kw: dict) -> dict:
    """``kw`` of an elementwise float op's record with its defaults: any float dtype, less what
    :data:`FLOAT16_REFUSED` says a framework refuses."""
    refuses = {fw: ("float16",) for fw, names in FLOAT16_REFUSED.items() if name in names}
    return {"arg_dtypes": ("float",), "refuses": refuses, **kw}


def unary(name, family, emit, bound, doc, domain=None, tolerance="", **kw):
    """An elementwise op of one argument (its result has the argument's type; it accepts empty tensors)."""
    kw = float_op(name, kw)
    return register(name=name, family=family, arity=1, doc=doc, infer=same_type, bound=bound,
                    emit=emit, domain=domain or (lambda ivs, ts: True), tolerance=tolerance, empty_ok=True, **kw)


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
    need(ts[0].dtype == ts[1].dtype, f"needs arguments of one dtype, got {ts[0]} and {ts[1]}")
    return TensorType(broadcast(ts[0].shape, ts[1].shape), ts[0].dtype)


def binary(name, emit, bound, doc, domain=None, **kw):
    """An elementwise op of two arguments of one dtype that broadcast against each other."""
    kw = float_op(name, kw)
    return register(name=name, family="elementwise", arity=2, doc=doc, infer=_binary_infer, bound=bound,
                    emit=emit, domain=domain or (lambda ivs, ts: True), empty_ok=True, **kw)


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

# ---------------------------------------------------------------- more unary math


def _decreasing(f):
    """Bound of a monotone decreasing elementwise function."""
    return lambda ivs, a, ts: (f(ivs[0][1]), f(ivs[0][0]))


def _away_from_zero(ivs, ts):
    return ivs[0][0] >= 0.1 or ivs[0][1] <= -0.1


def _rounding(name, f, doc, torch, paddle, tf, **kw):
    """An op that rounds to integers (as floats): it jumps at integers, watched by the branch-flip guard."""
    return unary(name, "elementwise", calls(torch, paddle, tf), lambda ivs, a, ts: (f(ivs[0][0]), f(ivs[0][1])), doc,
                 probe="int", **{"tolerance": "jumps at integers: watched by the branch-flip guard", **kw})


unary("erf", "elementwise", calls("torch.erf", "paddle.erf", "tf.math.erf"), monotone(math.erf), "error function",
      tolerance="erf approximations differ by a few ulp")
unary("erfc", "elementwise", per_framework("torch.erfc({0})", "1.0 - paddle.erf({0})", "tf.math.erfc({0})"),
      _decreasing(math.erfc), "complementary error function 1 - erf(x)", domain=within(-3.0, 3.0),
      tolerance="paddle has no erfc: its emitter computes 1 - erf(x), which loses the relative precision of small "
                "results (inputs stay below 3, where erfc(x) > 2e-5)")
_rounding("floor", math.floor, "round down to an integer", "torch.floor", "paddle.floor", "tf.floor")
_rounding("ceil", math.ceil, "round up to an integer", "torch.ceil", "paddle.ceil", "tf.math.ceil")
_rounding("trunc", math.trunc, "round toward zero", "torch.trunc", "paddle.trunc", "tf.experimental.numpy.fix")
_rounding("round", lambda x: float(math.floor(x + 0.5)), "round to the nearest integer, halves to even (torch, tf)",
          "torch.round", "paddle.round", "tf.round",
          probe_args={fw: "{0} + 0.5" for fw in ("torch", "paddle", "tf")},
          tolerance="jumps at half-integers: the guard watches x + 0.5 near integers",
          differs={"paddle": "paddle.round rounds halves away from zero (2.5 -> 3); torch.round and tf.round "
                             "round them to even (2.5 -> 2)"})
unary("sign", "elementwise", calls("torch.sign", "paddle.sign", "tf.sign"), lambda ivs, a, ts: (-1.0, 1.0),
      "the sign of x (-1, 0 or 1)", probe="cmp", probe_args={fw: "{0}, {0} * 0.0" for fw in ("torch", "paddle", "tf")},
      tolerance="jumps at 0: the guard watches x against 0")
unary("reciprocal", "elementwise", calls("torch.reciprocal", "paddle.reciprocal", "tf.math.reciprocal"),
      _decreasing(lambda x: 1 / x), "1 / x (inputs away from zero)", domain=_away_from_zero)
unary("rsqrt", "elementwise", calls("torch.rsqrt", "paddle.rsqrt", "tf.math.rsqrt"), _decreasing(lambda x: x ** -0.5),
      "1 / sqrt(x) (inputs >= 0.05)", domain=within(lo=0.05))
unary("expm1", "elementwise", calls("torch.expm1", "paddle.expm1", "tf.math.expm1"), monotone(math.expm1),
      "exp(x) - 1, accurate near 0", domain=within(hi=6.0))
unary("log1p", "elementwise", calls("torch.log1p", "paddle.log1p", "tf.math.log1p"), monotone(math.log1p),
      "log(1 + x), accurate near 0 (inputs > -0.95)", domain=within(lo=-0.95))
unary("tan", "elementwise", calls("torch.tan", "paddle.tan", "tf.tan"), monotone(math.tan), "tangent (|x| <= 1.2)",
      domain=within(-1.2, 1.2))
unary("atan", "elementwise", calls("torch.atan", "paddle.atan", "tf.atan"), monotone(math.atan), "arc tangent")
unary("asin", "elementwise", calls("torch.asin", "paddle.asin", "tf.asin"), monotone(math.asin),
      "arc sine (|x| <= 1)", domain=within(-1.0, 1.0),
      tolerance="the slope grows without bound near |x| = 1: judged against fp64 with the nudged run's noise")
unary("acos", "elementwise", calls("torch.acos", "paddle.acos", "tf.acos"), _decreasing(math.acos),
      "arc cosine (|x| <= 1)", domain=within(-1.0, 1.0),
      tolerance="the slope grows without bound near |x| = 1: judged against fp64 with the nudged run's noise")
unary("sinh", "elementwise", calls("torch.sinh", "paddle.sinh", "tf.sinh"), monotone(math.sinh),
      "hyperbolic sine (|x| <= 5)", domain=within(-5.0, 5.0))
unary("cosh", "elementwise", calls("torch.cosh", "paddle.cosh", "tf.cosh"),
      lambda ivs, a, ts: (1.0 if ivs[0][0] <= 0 <= ivs[0][1] else min(map(math.cosh, ivs[0])),
                          max(map(math.cosh, ivs[0]))), "hyperbolic cosine (|x| <= 5)", domain=within(-5.0, 5.0))
unary("asinh", "elementwise", calls("torch.asinh", "paddle.asinh", "tf.asinh"), monotone(math.asinh),
      "inverse hyperbolic sine")
unary("atanh", "elementwise", calls("torch.atanh", "paddle.atanh", "tf.atanh"), monotone(math.atanh),
      "inverse hyperbolic tangent (|x| < 1)", domain=lambda ivs, ts: -1.0 < ivs[0][0] and ivs[0][1] < 1.0,
      weight=8.0)  # few values lie strictly inside (-1, 1): tanh, sigmoid, softsign results


def _power_bound(ivs, a, ts):
    lo, hi = ivs[0]
    e = a["exponent"]
    values = [lo ** e, hi ** e] + ([0.0] if lo <= 0 <= hi else [])
    return hull(*values)


unary("pow_scalar", "elementwise", calls("torch.pow", "paddle.pow", "tf.pow", args="{0}, {exponent}"), _power_bound,
      "x ** e for an integer exponent e in {2, 3} (|x| <= 10)", domain=within(-10.0, 10.0),
      attrs=lambda draw, ts: {"exponent": draw(strategies().sampled_from([2.0, 3.0]))})
unary("pow_fraction", "elementwise", calls("torch.pow", "paddle.pow", "tf.pow", args="{0}, {exponent}"), _power_bound,
      "x ** e for a fractional exponent e in {0.5, 1.5} (0.05 <= x <= 100)", domain=within(0.05, 100.0),
      attrs=lambda draw, ts: {"exponent": draw(strategies().sampled_from([0.5, 1.5]))})


def _scalar_divisor(draw, ts):
    return {"c": draw(strategies().sampled_from([1.5, 0.75, 2.0]))}


unary("remainder_scalar", "elementwise", calls("torch.remainder", "paddle.remainder", "tf.math.floormod",
                                                args="{0}, {c}"),
      lambda ivs, a, ts: (0.0, a["c"]), "x mod c with the sign of c (Python's %): x - floor(x / c) * c",
      attrs=_scalar_divisor, probe="int", probe_args={fw: "{0} / {c}" for fw in ("torch", "paddle", "tf")},
      domain=within(-100.0, 100.0), tolerance="jumps where x / c is an integer: watched by the branch-flip guard")
unary("fmod_scalar", "elementwise", {"torch": "torch.fmod({0}, {c})", "tf": "tf.truncatemod({0}, {c})"},
      lambda ivs, a, ts: (-a["c"], a["c"]), "x mod c with the sign of x (C's fmod): x - trunc(x / c) * c",
      attrs=_scalar_divisor, probe="int", probe_args={fw: "{0} / {c}" for fw in ("torch", "tf")},
      domain=within(-100.0, 100.0), tolerance="jumps where x / c is an integer: watched by the branch-flip guard",
      missing={"paddle": "paddle has no fmod: paddle.mod and paddle.remainder are the floor remainder (the sign "
                         "of the divisor)"})
unary("floor_divide_scalar", "elementwise", calls("torch.floor_divide", "paddle.floor_divide", "tf.math.floordiv",
                                                   args="{0}, {c}"),
      lambda ivs, a, ts: (math.floor(ivs[0][0] / a["c"]), math.floor(ivs[0][1] / a["c"])),
      "floor(x / c) for a float x", attrs=_scalar_divisor, probe="int",
      probe_args={fw: "{0} / {c}" for fw in ("torch", "paddle", "tf")}, domain=within(-100.0, 100.0),
      tolerance="jumps where x / c is an integer: watched by the branch-flip guard")


# ---------------------------------------------------------------- more binary math


def _pow_bound(ivs, a, ts):
    (a0, a1), (b0, b1) = ivs
    return hull(a0 ** b0, a0 ** b1, a1 ** b0, a1 ** b1)


binary("pow", calls("torch.pow", "paddle.pow", "tf.pow", args="{0}, {1}"), _pow_bound,
       "x ** y elementwise (0.1 <= x <= 10, |y| <= 2)",
       domain=lambda ivs, ts: 0.1 <= ivs[0][0] and ivs[0][1] <= 10 and -2 <= ivs[1][0] and ivs[1][1] <= 2,
       enabler=Enabler("tanh", lambda ts: {}))  # an exponent in (-1, 1) of the base's dtype and shape
binary("atan2", calls("torch.atan2", "paddle.atan2", "tf.math.atan2", args="{0}, {1}"),
       lambda ivs, a, ts: (-math.pi, math.pi),
       "atan2(y, x), the angle of (x, y); y stays away from 0, where the angle jumps by 2 pi for x < 0",
       domain=lambda ivs, ts: ivs[0][0] >= 0.05 or ivs[0][1] <= -0.05)
binary("logaddexp", per_framework("torch.logaddexp({0}, {1})", "paddle.logaddexp({0}, {1})",
                                  # TensorFlow has no logaddexp: what users write instead
                                  "tf.maximum({0}, {1}) + tf.math.log1p(tf.exp(-tf.abs({0} - {1})))"),
       lambda ivs, a, ts: (max(ivs[0][0], ivs[1][0]), max(ivs[0][1], ivs[1][1]) + math.log(2)),
       "log(exp(x) + exp(y)), computed stably", domain=lambda ivs, ts: max(map(abs, ivs[0] + ivs[1])) <= 1e3)
binary("lerp", per_framework("torch.lerp({0}, {1}, {w})", "paddle.lerp({0}, {1}, {w})", "{0} + {w} * ({1} - {0})"),
       lambda ivs, a, ts: (min(ivs[0][0], ivs[1][0]), max(ivs[0][1], ivs[1][1])),
       "linear interpolation x + w * (y - x) with a constant weight w",
       attrs=lambda draw, ts: {"w": draw(strategies().sampled_from([0.25, 0.5, 0.9]))})
