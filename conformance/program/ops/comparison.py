"""Comparisons (bool results), where, and casts between float, int64 and bool."""

from __future__ import annotations

import math

from conformance.program.ir import TensorType
from conformance.program.ops.record import broadcast, calls, everywhere, keep_bound, need, per_framework, register


def _cmp_infer(ts, a):
    return TensorType(broadcast(ts[0].shape, ts[1].shape), "bool")


register(name="gt", family="comparison", arity=2, empty_ok=True, doc="x > y (broadcasting), a bool tensor",
               emit=everywhere("{0} > {1}"),
         infer=_cmp_infer, bound=lambda ivs, a, ts: (0.0, 1.0), probe="cmp",
         tolerance="flips where x is within rounding of y: watched by the branch-flip guard")
register(name="lt", family="comparison", arity=2, empty_ok=True, doc="x < y (broadcasting), a bool tensor",
               emit=everywhere("{0} < {1}"),
         infer=_cmp_infer, bound=lambda ivs, a, ts: (0.0, 1.0), probe="cmp",
         tolerance="flips where x is within rounding of y: watched by the branch-flip guard")


def _where_infer(ts, a):
    c, x, y = ts
    need(c.dtype == "bool" and x.dtype == y.dtype == "float32",
         f"where(cond, x, y) needs bool, float, float; got {c}, {x}, {y}")
    return TensorType(broadcast(broadcast(c.shape, x.shape), y.shape), x.dtype)


register(name="where", family="comparison", arity=3, empty_ok=True, doc="torch.where(cond, x, y)",
         arg_dtypes=("bool", "float32", "float32"),
         emit=per_framework("torch.where({0}, {1}, {2})", "paddle.where({0}, {1}, {2})", "tf.where({0}, {1}, {2})"),
         infer=_where_infer,
         bound=lambda ivs, a, ts: (min(ivs[1][0], ivs[2][0]), max(ivs[1][1], ivs[2][1])))


def _cast_infer(dtype, src):
    def infer(ts, a):
        need(ts[0].dtype in src, f"cast to {dtype} takes {' or '.join(src)}, got {ts[0]}")
        return TensorType(ts[0].shape, dtype)
    return infer


register(name="to_int", family="cast", arity=1, empty_ok=True, doc="cast float to int64 (truncation toward zero)",
         emit=per_framework("{0}.to(torch.int64)", "paddle.cast({0}, paddle.int64)", "tf.cast({0}, tf.int64)"),
         infer=_cast_infer("int64", ("float32",)),
         bound=lambda ivs, a, ts: (float(math.trunc(ivs[0][0])), float(math.trunc(ivs[0][1]))), probe="int",
         tolerance="jumps at integers: watched by the branch-flip guard")
register(name="to_float", family="cast", arity=1, empty_ok=True, doc="cast int64 or bool to float", arg_dtypes=("any",),
         weight=4.0,
         emit=per_framework("{0}.to({float})", "paddle.cast({0}, {float})", "tf.cast({0}, {float})"),
         infer=_cast_infer("float32", ("int64", "bool")), bound=keep_bound,
         domain=lambda ivs, ts: ts[0].dtype in ("int64", "bool"))


# ---------------------------------------------------------------- more comparisons, logical and bitwise ops


#: TensorFlow's == and != are elementwise only executing eagerly or in a tf.function: in a TF1 graph (tf.session)
#: they compare the Tensor objects and give a Python bool, so TensorFlow's emitter names the op
_TF_EQUALITY = {"==": "tf.math.equal({0}, {1})", "!=": "tf.math.not_equal({0}, {1})"}


def _comparison(name, symbol, doc):
    operator = f"{{0}} {symbol} {{1}}"
    emit = per_framework(operator, operator, _TF_EQUALITY[symbol]) if symbol in _TF_EQUALITY else everywhere(operator)
    register(name=name, family="comparison", arity=2, empty_ok=True, doc=doc, emit=emit,
             infer=_cmp_infer, bound=lambda ivs, a, ts: (0.0, 1.0), probe="cmp",
             tolerance="flips where x is within rounding of y: watched by the branch-flip guard")


_comparison("ge", ">=", "x >= y (broadcasting), a bool tensor")
_comparison("le", "<=", "x <= y (broadcasting), a bool tensor")
_comparison("eq", "==", "x == y (broadcasting), a bool tensor: exact equality of floats (ties after relu, clamp)")
_comparison("ne", "!=", "x != y (broadcasting), a bool tensor")
register(name="to_bool", family="cast", arity=1, empty_ok=True, doc="cast float to bool (x != 0)",
         emit=per_framework("{0}.to(torch.bool)", "paddle.cast({0}, paddle.bool)", "tf.cast({0}, tf.bool)"),
         infer=_cast_infer("bool", ("float32",)), bound=lambda ivs, a, ts: (0.0, 1.0), probe="cmp",
         probe_args=everywhere("{0}, {0} * 0.0"), tolerance="jumps at 0: the guard watches x against 0")


def _same_dtype_infer(ts, a):
    need(ts[0].dtype == ts[-1].dtype, f"needs arguments of one dtype, got {ts[0]} and {ts[-1]}")
    return TensorType(broadcast(ts[0].shape, ts[-1].shape), ts[0].dtype)


def _logical(name, doc, arity=2):
    fn = name if arity == 2 else "logical_not"
    args = "{0}, {1}" if arity == 2 else "{0}"
    register(name=name, family="logical", arity=arity, arg_dtypes=("bool",), empty_ok=True, doc=doc,
             emit=calls(f"torch.{fn}", f"paddle.{fn}", f"tf.math.{fn}", args=args), infer=_same_dtype_infer,
             bound=lambda ivs, a, ts: (0.0, 1.0))


_logical("logical_and", "x and y elementwise, on bool tensors (broadcasting)")
_logical("logical_or", "x or y elementwise, on bool tensors (broadcasting)")
_logical("logical_xor", "x xor y elementwise, on bool tensors (broadcasting)")
_logical("logical_not", "not x elementwise, on a bool tensor", arity=1)


def _bits_bound(ivs, a, ts):
    """Bitwise results of two's-complement ints within the operands' bit length."""
    top = 2 ** int(max(abs(x) for iv in ivs for x in iv) + 1).bit_length()
    return (-float(top), float(top))


def _bitwise(name, tf_name, doc):
    register(name=name, family="logical", arity=2, arg_dtypes=("int64",), empty_ok=True, doc=doc,
             emit=calls(f"torch.{name}", f"paddle.{name}", f"tf.bitwise.{tf_name}", args="{0}, {1}"),
             infer=_same_dtype_infer, bound=_bits_bound)


_bitwise("bitwise_and", "bitwise_and", "x & y on int64 tensors (broadcasting)")
_bitwise("bitwise_or", "bitwise_or", "x | y on int64 tensors (broadcasting)")
_bitwise("bitwise_xor", "bitwise_xor", "x ^ y on int64 tensors (broadcasting)")
register(name="bitwise_not", family="logical", arity=1, arg_dtypes=("int64",), empty_ok=True,
         doc="~x on an int64 tensor (-x - 1)",
         emit=calls("torch.bitwise_not", "paddle.bitwise_not", "tf.bitwise.invert"),
         infer=lambda ts, a: ts[0], bound=lambda ivs, a, ts: (-ivs[0][1] - 1, -ivs[0][0] - 1))
