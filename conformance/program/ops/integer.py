"""Integer arithmetic and dtypes: division that rounds down, toward zero or up, the two remainders,
wrapping products, bitwise ops, casts between dtypes and rounding through a reduced-precision float.

Both arguments of a binary op here have one dtype (an integer or a float dtype): promotion between dtypes
happens by explicit casts (``cast``), which every framework spells alike. Integer results are compared exactly
by the oracle, so a wrong rounding mode or a lost wrap-around is a mismatch. A division by zero is an edge
(``OpRecord.edge_ok``): float division by zero gives infinities or NaN, integer division by zero is undefined
(a framework may raise, return garbage or die of SIGFPE), so divisors of integer divisions stay away from zero
unless they carry edge values.
"""

from __future__ import annotations

import math

import numpy as np

from conformance.program.dtypes import FLOATS, INTS, is_float, is_int
from conformance.program.ir import TensorType
from conformance.program.ops.record import (
    broadcast,
    everywhere,
    hull,
    interval_mul,
    keep_bound,
    need,
    per_framework,
    register,
    same_type,
    strategies,
)

#: What Paddle's CPU kernels refuse (paddle 3.3: 'The kernel with key (CPU, ..., int8) of kernel `multiply` is not
#: registered'), for ``OpRecord.refuses``.
PADDLE_SMALL = {"paddle": ("int8", "uint8")}
PADDLE_FLOAT16 = {"paddle": ("float16",)}  # paddle's divide has no float16 kernel on the CPU
PADDLE_SMALL_FLOAT16 = {"paddle": ("int8", "uint8", "float16")}


def _same_dtype(ts, a):
    need(ts[0].dtype == ts[1].dtype, f"needs arguments of one dtype, got {ts[0]} and {ts[1]}")
    need(ts[0].dtype != "bool", f"needs numbers, got {ts[0]}")
    return TensorType(broadcast(ts[0].shape, ts[1].shape), ts[0].dtype)


def _signed(ts, a):
    need(ts[0].dtype != "uint8", f"needs a signed dtype (negation wraps in uint8), got {ts[0]}")
    return _same_dtype(ts, a)


def _away_from_zero(ivs, ts):
    """The divisor's range excludes zero (at least 1 in magnitude for ints, 0.1 for floats)."""
    gap = 1 if is_int(ts[1].dtype) else 0.1
    return ivs[1][0] >= gap or ivs[1][1] <= -gap


def _quotient(ivs):
    return interval_mul(ivs[0], (1 / ivs[1][1], 1 / ivs[1][0]))


def _rounded_quotient(f):
    return lambda ivs, a, ts: tuple(float(f(x)) for x in _quotient(ivs))


def _divider(name, emit, rounding, doc, infer=_same_dtype, refuses=PADDLE_FLOAT16, **kw):
    """A division-like op on two numbers of one dtype; float results jump where the quotient is an integer."""
    register(name=name, family="integer", arity=2, doc=doc, infer=infer, emit=emit, arg_dtypes=("number",),
             refuses=refuses,
             domain=_away_from_zero, empty_ok=True, edge_ok=True, probe="int",
             probe_args={fw: "{0} / {1}" for fw in emit},
             tolerance="on floats it jumps where the quotient is an integer: watched by the branch-flip guard; "
                       "on integers exact, and a division by zero is undefined (only with edge values)",
             bound=rounding, **kw)


_divider("floor_div", everywhere("{0} // {1}"), _rounded_quotient(math.floor),
         "a // b: the quotient rounded down (Python's and every framework's floor division)")
_divider("trunc_div", per_framework('torch.div({0}, {1}, rounding_mode="trunc")',
                                    'paddle.divide({0}, {1}, rounding_mode="trunc")', "tf.truncatediv({0}, {1})"),
         _rounded_quotient(math.trunc), "the quotient rounded toward zero (C's integer division)")
_divider("ceil_div", everywhere("-((-{0}) // {1})"), _rounded_quotient(math.ceil),
         "the quotient rounded up, written -((-a) // b) as users do (signed dtypes: -a wraps in uint8)",
         infer=_signed)
_divider("remainder", per_framework("torch.remainder({0}, {1})", "paddle.remainder({0}, {1})",
                                    "tf.math.floormod({0}, {1})"),
         lambda ivs, a, ts: hull(0.0, *(c for c in ivs[1])), "a mod b with the sign of b (Python's %)",
         refuses=PADDLE_SMALL_FLOAT16)
_divider("fmod", per_framework("torch.fmod({0}, {1})",
                               # paddle has no fmod: what users write instead
                               '{0} - paddle.divide({0}, {1}, rounding_mode="trunc") * {1}',
                               "tf.truncatemod({0}, {1})"),
         lambda ivs, a, ts: hull(*(s * abs(c) for s in (-1, 1) for c in ivs[1])),
         "a mod b with the sign of a (C's fmod)",
         refuses={**PADDLE_SMALL_FLOAT16, "tf": ("int8", "uint8", "float16")})  # tf.truncatemod: no such kernels


def _int_args(ts, a):
    need(is_int(ts[0].dtype), f"needs integers, got {ts[0]}")
    return _same_dtype(ts, a)


def _wrap(iv, dtype: str):
    """``iv`` for a result of ``dtype``: the whole range of the dtype where ``iv`` leaves it (it wraps around)."""
    info = np.iinfo(dtype)
    return iv if info.min <= iv[0] and iv[1] <= info.max else (float(info.min), float(info.max))


def _bits(ivs, a, ts):
    """Bitwise results stay within the powers of two above the arguments' magnitudes."""
    top = 2.0 ** (int(max(abs(x) for iv in ivs for x in iv)).bit_length() + 1)
    return _wrap((-top, top), ts[0].dtype)


register(name="int_mul", family="integer", arity=2, arg_dtypes=("int",), infer=_int_args, empty_ok=True,
         refuses=PADDLE_SMALL,
         edge_ok=True, emit=everywhere("{0} * {1}"), bound=lambda ivs, a, ts: _wrap(interval_mul(*ivs), ts[0].dtype),
         doc="a * b on integers: wraps around in int8, uint8 and int32 (two's complement)")
register(name="int_add", family="integer", arity=2, arg_dtypes=("int",), infer=_int_args, empty_ok=True,
         edge_ok=True, emit=everywhere("{0} + {1}"),
         bound=lambda ivs, a, ts: _wrap((ivs[0][0] + ivs[1][0], ivs[0][1] + ivs[1][1]), ts[0].dtype),
         doc="a + b on integers: wraps around in int8, uint8 and int32")
for _op in ("and", "or", "xor"):
    register(name=f"int_{_op}", family="integer", arity=2, arg_dtypes=("int",), infer=_int_args, empty_ok=True,
             edge_ok=True, bound=_bits, doc=f"bitwise {_op} of integers (bitwise_{_op} takes bools)",
             emit=per_framework(f"torch.bitwise_{_op}({{0}}, {{1}})", f"paddle.bitwise_{_op}({{0}}, {{1}})",
                                f"tf.bitwise.bitwise_{_op}({{0}}, {{1}})"))
register(name="int_pow", family="integer", arity=1, arg_dtypes=("int",), infer=same_type, empty_ok=True,
         refuses={**PADDLE_SMALL, "tf": ("uint8",)},
         edge_ok=True, emit=per_framework("{0} ** {exponent}", "paddle.pow({0}, {exponent})", "{0} ** {exponent}"),
         bound=lambda ivs, a, ts: _wrap(hull(*(x ** a["exponent"] for x in ivs[0]), 0.0), ts[0].dtype),
         attrs=lambda draw, ts: {"exponent": draw(strategies().sampled_from([2, 3]))},
         doc="x ** n for an int tensor and an int exponent n in {2, 3}: an integer, wrapping in small dtypes")


def _cast_infer(ts, a):
    src, dst = ts[0].dtype, a["dtype"]
    need(not (is_float(src) and (is_int(dst) or dst == "bool")),
         f"cast {src} -> {dst}: float to integer is to_int (it truncates, and NaN or out-of-range is undefined)")
    need(dst != "bfloat16", "bfloat16 has no numpy dtype for outputs: round_to rounds through it")
    return TensorType(ts[0].shape, dst)


def _cast_bound(ivs, a, ts):
    return _wrap(ivs[0], a["dtype"]) if is_int(a["dtype"]) else ivs[0]  # narrowing an integer wraps


#: Dtypes ``cast`` converts to, the model's float first (where shrinking goes).
CAST_TARGETS = ("float32",) + tuple(d for d in FLOATS + INTS if d not in ("float32", "bfloat16")) + ("bool",)

register(name="cast", family="cast", arity=1, arg_dtypes=("any",), infer=_cast_infer, bound=_cast_bound,
         empty_ok=True, edge_ok=True,
         # copy=True: x.to(dtype) is x itself where the dtypes agree, as in the fp64 reference, where every float
         # dtype is float64 (an in-place write to the cast would reach its argument there only)
         emit=per_framework("{0}.to({dtype}, copy=True)", "paddle.cast({0}, {dtype})", "tf.cast({0}, {dtype})"),
         attrs=lambda draw, ts: {"dtype": draw(strategies().sampled_from(
             [d for d in CAST_TARGETS if d != ts[0].dtype and not (is_float(ts[0].dtype) and not is_float(d))]))},
         doc="convert to another dtype: integers narrow by wrapping, ints and bools become floats, floats change "
             "precision (float to integer is to_int)",
         tolerance="a float cast rounds to the target's precision; the fp64 reference keeps every float in float64")
register(name="round_to", family="cast", arity=1, arg_dtypes=("float32",), infer=same_type, bound=keep_bound,
         empty_ok=True, edge_ok=True,
         emit=per_framework("{0}.to({dtype}).to({float})", "paddle.cast(paddle.cast({0}, {dtype}), {float})",
                            "tf.cast(tf.cast({0}, {dtype}), {float})"),
         attrs=lambda draw, ts: {"dtype": draw(strategies().sampled_from(["float16", "bfloat16"]))},
         doc="round through float16 or bfloat16 and back (what a model computing in reduced precision does to "
             "its values); the fp64 reference does not round",
         tolerance="judged against fp64 with eager's own rounding error as the noise")
register(name="isnan", family="cast", arity=1, arg_dtypes=("float",), infer=lambda ts, a: TensorType(ts[0].shape,
                                                                                                     "bool"),
         bound=lambda ivs, a, ts: (0.0, 1.0), empty_ok=True, edge_ok=True,
         emit=per_framework("torch.isnan({0})", "paddle.isnan({0})", "tf.math.is_nan({0})"),
         doc="whether each value is NaN")
register(name="signbit", family="cast", arity=1, arg_dtypes=("float32",), refuses={"paddle": ("float16",)},
         infer=lambda ts, a: TensorType(ts[0].shape, "bool"), bound=lambda ivs, a, ts: (0.0, 1.0), empty_ok=True,
         edge_ok=True, emit={"torch": "torch.signbit({0})", "paddle": "paddle.signbit({0})"},
         missing={"tf": "TensorFlow has no signbit"},
         probe="cmp", probe_args={"torch": "{0}, {0} * 0.0", "paddle": "{0}, {0} * 0.0"},
         doc="whether the sign bit is set (true for -0.0 and for NaNs with the sign bit)",
         tolerance="jumps at 0: the guard watches x against 0")
def _matrix(ts, a):
    need(ts[0].rank >= 2, f"needs two dims to lay out, got {ts[0]}")
    return ts[0]


register(name="noncontiguous", family="layout", arity=1, arg_dtypes=("any",), infer=_matrix, bound=keep_bound,
         empty_ok=True, edge_ok=True,
         emit={"torch": "{0}.mT.contiguous().mT"},
         missing={"paddle": "paddle tensors have no strides to lay out", "tf": "TensorFlow tensors have no strides"},
         doc="the same values laid out column-major in the last two dims: a non-contiguous tensor")
register(name="int_abs", family="integer", arity=1, arg_dtypes=("int",), infer=same_type, empty_ok=True, edge_ok=True,
         refuses={**PADDLE_SMALL, "tf": ("uint8",)},
         emit=per_framework("torch.abs({0})", "paddle.abs({0})", "tf.abs({0})"),
         bound=lambda ivs, a, ts: _wrap((0.0, max(map(abs, ivs[0]))), ts[0].dtype) if ivs[0][0] > np.iinfo(
             ts[0].dtype).min else (float(np.iinfo(ts[0].dtype).min), float(np.iinfo(ts[0].dtype).max)),
         doc="|x| of integers: the minimum of a signed dtype has no positive counterpart and stays itself (-128 in "
             "int8)")
