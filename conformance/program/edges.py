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

from typing import Optional

import hypothesis.strategies as st

from conformance.program.coverage import Steering, weighted
from conformance.program.dtypes import DRAWN_DTYPES, EDGE_KINDS, is_int
from conformance.program.ir import DYNAMIC, OpStmt, TensorSpec, spec_leaves
from conformance.program.ops import OPS

EDGE_CONSTRUCTS = ("dtypes", "edge_values", "edge_shapes")
#: One program in ``SHARE`` that allows a construct of :data:`EDGE_CONSTRUCTS` turns it on.
SHARE = 3
#: Value ranges of integer inputs: positive and negative (divisors away from zero), both.
INT_RANGES = ((1.0, 9.0), (-9.0, -1.0), (-9.0, 9.0))
UINT_RANGES = ((0.0, 9.0), (1.0, 9.0))
#: Ops each construct adds to the statements a program draws (as ``train_layers`` does for its ops).
#: (``round_to`` twice: it is the one way to bfloat16, which numpy cannot hold as an input; mixed-dtype ops and integer
#: reductions twice: few statements have the arguments they take)
CONSTRUCT_OPS = {"dtypes": ("cast", "round_to", "round_to", "floor_div", "trunc_div", "ceil_div", "remainder", "fmod",
                            "int_mul", "int_add", "int_and", "int_or", "int_xor", "int_pow",
                            "add_mixed", "add_mixed", "mul_mixed", "gt_int_float", "gt_int_float", "int_sum",
                            "int_sum", "int_prod", "int_prod", "int_mean"),
                 "edge_values": ("isnan", "signbit", "sqrt", "log", "div", "maximum", "minimum", "clamp", "floor_div"),
                 "edge_shapes": ("noncontiguous", "sum", "sum_all", "prod", "expand", "stack", "flip", "permute",
                                 "concat_empty", "reshape_empty", "matmul_empty", "matmul_empty", "int_sum")}


def turned_on(draw, constructs) -> frozenset:
    """The edge constructs of ``constructs`` this program uses (each in one program of :data:`SHARE`)."""
    return frozenset(c for c in EDGE_CONSTRUCTS if c in constructs and draw(st.integers(0, SHARE - 1)) == SHARE - 1)


def shape(draw, on: frozenset, dynamic: bool, steering: Optional[Steering] = None) -> tuple:
    """An input shape: rank 1 to 4 with dims 1 to 5; with ``edge_shapes`` also rank 0 and 5, a dim of 0, and
    size-1 dims. With ``steering``, the rank and the dynamic dim lean to those with attribute pairs not seen yet
    (``Steering.bias``)."""
    if "edge_shapes" not in on:
        rank = draw(st.integers(1, 4)) if steering is None else steered(draw, steering, "rank", (1, 2, 3, 4))
        dims = [draw(st.integers(1, 5)) for _ in range(rank)]
    else:
        rank = (draw(st.sampled_from([1, 2, 3, 4, 0, 5])) if steering is None
                else steered(draw, steering, "rank", (1, 2, 3, 4, 0, 5)))
        dims = [draw(st.sampled_from([1, 2, 3, 0])) if rank == 5 else draw(st.sampled_from([2, 3, 1, 5, 0]))
                for _ in range(rank)]
    if dynamic and dims and (draw(st.booleans()) if steering is None
                             else steered(draw, steering, "dynamic", (False, True))) and dims[0] != 0:
        dims[0] = DYNAMIC
    return tuple(dims)


def program_dtype(draw, on: frozenset, steering: Optional[Steering] = None) -> str:
    """The dtype of a program's inputs besides float32 (with ``dtypes``; else float32): one per program, so that
    binary integer ops find two arguments of one dtype; about evenly, or with ``steering`` leaning to the dtypes with
    attribute pairs not seen yet."""
    if "dtypes" not in on:
        return "float32"
    return steered(draw, steering, "dtype", DRAWN_DTYPES) if steering else weighted(draw, DRAWN_DTYPES, None)


def steered(draw, steering: Steering, feature: str, bins: tuple):
    """One of ``bins`` of an argument feature, weighted by :meth:`Steering.bias` (the first where shrinking goes)."""
    return weighted(draw, bins, steering.bias(feature, [str(b) for b in bins]))


#: The highest rank of a variable: that of the focus inputs ``edge_shapes`` draws (:func:`focus_bins`). An op that
#: would raise a tensor of this rank higher (an unsqueeze) is not applied to it (frameworks cap ranks: Paddle's
#: kernels at 6 or 9, and a rank-7 tensor was only ever made by accident, its pairs unreachable on purpose).
MAX_RANK = 6


def focus_bins(constructs, rec) -> dict[str, tuple]:
    """The bins of each argument feature of pairwise coverage a fresh input of op ``rec`` may take in a program of
    ``constructs`` (float32, ranks 1 to 4 and no edge alone, but with the construct that draws the others: ranks
    0, 5 and 6 with ``edge_shapes``; other ops reach rank 6 from rank 5, and an op needs its pairs there too)."""
    on = set(constructs)
    return {"dtype": DRAWN_DTYPES if "dtypes" in on else ("float32",),
            "rank": ("1", "2", "3", "4") + (("0", "5", "6") if "edge_shapes" in on else ()),
            "zero_size": ("False", "True") if "edge_shapes" in on else ("False",),
            "edge": ("False", "True") if "edge_values" in on and rec.edge_ok else ("False",),
            "dynamic": ("False", "True") if "dynamic_dim" in on else ("False",)}


def possible(feats: dict) -> bool:
    """Whether an input can hold the argument features ``feats`` together (see :func:`focus_leaf`)."""
    rank, empty, dynamic = int(feats["rank"]), feats["zero_size"] == "True", feats["dynamic"] == "True"
    return rank >= empty + dynamic and not (feats["dtype"] == "bool" and feats["edge"] == "True")


def focus_leaf(draw, feats: dict, float_ranges) -> list[TensorSpec]:
    """Input leaves with the argument features ``feats`` (:func:`possible`), one per value range of their dtype (the
    first that a focus op takes is used): dims 1 to 5 (1 to 3 from rank 5 on: a few hundred elements at most), one
    of size 0, the first dynamic, edge values of a drawn kind."""
    rank, dtype = int(feats["rank"]), feats["dtype"]
    dims = [draw(st.sampled_from([3, 2, 5, 1, 4] if rank < 5 else [2, 3, 1])) for _ in range(rank)]
    dynamic = feats["dynamic"] == "True"
    if feats["zero_size"] == "True":
        dims[draw(st.integers(int(dynamic), rank - 1))] = 0
    if dynamic:
        dims[0] = DYNAMIC
    edge = draw(st.sampled_from(EDGE_KINDS)) if feats["edge"] == "True" else ""
    ranges = float_ranges if not is_int(dtype) else UINT_RANGES if dtype == "uint8" else INT_RANGES
    return [TensorSpec(tuple(dims), dtype, lo, hi, edge) for lo, hi in ranges]


def leaf(draw, on: frozenset, shape: tuple, float_ranges, dtype: str) -> TensorSpec:
    """An input leaf of ``shape``: with ``dtypes``, of ``dtype`` (the program's, :func:`program_dtype`) or any other
    (float32 in one of ``float_ranges``); with ``edge_values`` an edge kind now and then."""
    if "dtypes" in on and draw(st.booleans()):  # half the leaves: any dtype; the others: the program's
        dtype = weighted(draw, DRAWN_DTYPES, None)
    ranges = float_ranges if not is_int(dtype) else UINT_RANGES if dtype == "uint8" else INT_RANGES
    lo, hi = draw(st.sampled_from(ranges))
    edge = ""
    if "edge_values" in on and dtype != "bool":
        edge = draw(st.sampled_from(("",) + EDGE_KINDS))
    return TensorSpec(shape, dtype, lo, hi, edge)


class EdgeStatements:
    """The statements of the edge constructs, for the generator that mixes this in (it provides ``op``, ``edges``
    and ``renderable``): one op of :data:`CONSTRUCT_OPS` where one fits; and the program's input dtype."""

    dtype = "float32"  # the program's other input dtype (program_dtype)

    def construct_op(self, scope, construct: str) -> Optional[list]:
        return self.op(scope, [OPS[n] for n in CONSTRUCT_OPS[construct] if n in self.renderable]) or None

    def dtypes(self, scope) -> Optional[list]:
        return self.construct_op(scope, "dtypes")

    def edge_values(self, scope) -> Optional[list]:
        return self.construct_op(scope, "edge_values")

    def edge_shapes(self, scope) -> Optional[list]:
        return self.construct_op(scope, "edge_shapes")



#: Ops whose torch result is a non-contiguous view of their argument (or, ``noncontiguous``, a copy laid out so).
NONCONTIGUOUS_OPS = ("noncontiguous", "transpose", "permute", "movedim", "expand")
#: Op kinds :func:`usage` counts: arithmetic promoting two dtypes, reductions of integers, ops over an empty axis.
OP_KINDS = {"mixed_dtypes": ("add_mixed", "mul_mixed", "gt_int_float", "ldexp"),
            "int_reduction": ("int_sum", "int_prod", "int_mean"),
            "empty_axis": ("concat_empty", "reshape_empty", "matmul_empty")}


def usage(program) -> set[str]:
    """What of the edges a program uses: ``dtype:<d>`` per dtype of an input or a cast (``round_to`` through
    bfloat16 included), ``edge:<kind>`` per edge kind of an input, the shape kinds ``empty`` (an input with a
    dim of size 0), ``rank0``, ``rank5`` and ``noncontiguous``, and the op kinds of :data:`OP_KINDS`."""
    used = set()
    for inp in program.inputs:
        for _, spec in spec_leaves(inp.spec):
            used.add(f"dtype:{spec.dtype}")
            if spec.edge:
                used.add(f"edge:{spec.edge}")
            if 0 in spec.shape:
                used.add("empty")
            if len(spec.shape) in (0, 5):
                used.add(f"rank{len(spec.shape)}")
    for s in program.walk():
        if isinstance(s, OpStmt):
            if "dtype" in s.attr:
                used.add(f"dtype:{s.attr['dtype']}")
            if s.op in NONCONTIGUOUS_OPS:
                used.add("noncontiguous")
            used.update(kind for kind, ops in OP_KINDS.items() if s.op in ops)
    return used
