"""Programs outside the safe box: inputs of other dtypes, inputs carrying edge values, and edge shapes.

Three constructs of the generator (:data:`EDGE_CONSTRUCTS`), each turned on for a share of the programs that
allow it (:data:`SHARE`), so the stream stays mostly clean:

* ``dtypes``: inputs of every dtype of :data:`conformance.program.dtypes.DRAWN_DTYPES` (float16, float64,
  int8, uint8, int32, int64, bool beside float32), and statements that convert between dtypes (``cast``,
  ``round_to`` through float16 or bfloat16) and compute on integers (``conformance.program.ops.integer``);
* ``edge_values``: inputs that mix in edge values (:data:`conformance.program.dtypes.EDGE_KINDS`: zeros and
  -0.0, ties, huge and tiny magnitudes, NaN, infinities); a variable computed from one carries them too
  (``Variable.edge``), and only ops with ``OpRecord.edge_ok`` take it, past the edge of their domain too;
* ``edge_shapes``: dims of size 0 (empty tensors), rank 0 (scalars) up to rank 5, size-1 dims that
  broadcast, and non-contiguous intermediates (the ``noncontiguous`` op; torch is the framework with strides).

Every choice draws its safe value first (float32, no edge, ranks 1 to 4 with dims of 1 to 5, the construct
off), so Hypothesis shrinks a failing program back into the box, keeping only the edge the failure needs.
"""

from __future__ import annotations

import math
from typing import Optional

import hypothesis.strategies as st

from conformance.program.dtypes import DRAWN_DTYPES, EDGE_KINDS, is_int
from conformance.program.ir import DYNAMIC, TensorSpec
from conformance.program.ops import OPS

EDGE_CONSTRUCTS = ("dtypes", "edge_values", "edge_shapes")
#: One program in ``SHARE`` that allows a construct of :data:`EDGE_CONSTRUCTS` turns it on.
SHARE = 3
#: The value range of a variable that carries edge values: nothing is known of it.
EDGE_RANGE = (-math.inf, math.inf)
#: Value ranges of integer inputs: small, positive (divisors away from zero), negative.
INT_RANGES = ((-9.0, 9.0), (1.0, 9.0), (-9.0, -1.0))
#: Ops each construct adds to the statements a program draws (as ``train_layers`` does for its ops).
CONSTRUCT_OPS = {"dtypes": ("cast", "round_to", "floor_div", "trunc_div", "ceil_div", "remainder", "fmod",
                            "int_mul", "int_add", "int_and", "int_or", "int_xor", "int_pow"),
                 "edge_values": ("isnan", "signbit", "sqrt", "log", "div", "maximum", "minimum", "clamp", "floor_div"),
                 "edge_shapes": ("noncontiguous", "sum", "sum_all", "prod", "expand", "stack", "flip", "permute")}


def turned_on(draw, constructs) -> frozenset:
    """The edge constructs of ``constructs`` this program uses (each in one program of :data:`SHARE`)."""
    return frozenset(c for c in EDGE_CONSTRUCTS if c in constructs and draw(st.integers(0, SHARE - 1)) == SHARE - 1)


def shape(draw, on: frozenset, dynamic: bool) -> tuple:
    """An input shape: rank 1 to 4 with dims 1 to 5; with ``edge_shapes`` also rank 0 and 5, a dim of 0, and
    size-1 dims."""
    if "edge_shapes" not in on:
        rank = draw(st.integers(1, 4))
        dims = [draw(st.integers(1, 5)) for _ in range(rank)]
    else:
        rank = draw(st.sampled_from([1, 2, 3, 4, 0, 5]))
        dims = [draw(st.sampled_from([1, 2, 3, 0])) if rank == 5 else draw(st.sampled_from([2, 3, 1, 5, 0]))
                for _ in range(rank)]
    if dynamic and dims and draw(st.booleans()) and dims[0] != 0:
        dims[0] = DYNAMIC
    return tuple(dims)


def leaf(draw, on: frozenset, shape: tuple, float_ranges) -> TensorSpec:
    """An input leaf of ``shape``: float32 in one of ``float_ranges``; with ``dtypes`` another dtype now and then,
    with ``edge_values`` an edge kind now and then."""
    dtype = draw(st.sampled_from(DRAWN_DTYPES)) if "dtypes" in on else "float32"
    lo, hi = draw(st.sampled_from(INT_RANGES if is_int(dtype) else float_ranges))
    edge = ""
    if "edge_values" in on and dtype != "bool" and draw(st.booleans()):
        edge = draw(st.sampled_from(EDGE_KINDS))
    return TensorSpec(shape, dtype, lo, hi, edge)


class EdgeStatements:
    """The statements of the edge constructs, for the generator that mixes this in (it provides ``op``, ``edges``
    and ``renderable``): one op of :data:`CONSTRUCT_OPS` where one fits."""

    def construct_op(self, scope, construct: str) -> Optional[list]:
        return self.op(scope, [OPS[n] for n in CONSTRUCT_OPS[construct] if n in self.renderable]) or None

    def dtypes(self, scope) -> Optional[list]:
        return self.construct_op(scope, "dtypes")

    def edge_values(self, scope) -> Optional[list]:
        return self.construct_op(scope, "edge_values")

    def edge_shapes(self, scope) -> Optional[list]:
        return self.construct_op(scope, "edge_shapes")

