"""Ops over an empty axis: ``concat``, ``reshape`` and ``matmul`` applied to tensors with a dim of size 0,
where each gives its identity: a concatenation of empty pieces is empty, a reshape keeps no elements, and a matmul
whose contracted dim is empty is all zeros (the empty sum).

Each is its op's record (same emitters, shape rule, value bound) taking only arguments with a dim of size 0, drawn
in programs that allow the ``edge_shapes`` construct (``OpRecord.construct``): the records of ``concat``,
``reshape`` and ``matmul`` themselves refuse empty tensors, so the default stream is unchanged.
"""

from __future__ import annotations

import dataclasses

from conformance.program.ops.record import OPS, need, register, static_dims, strategies


def _empty_variant(base: str, doc: str, **changes) -> None:
    """Register ``<base>_empty``: ``base``'s record taking only arguments with a dim of size 0 (drawn more often
    than most ops: few variables are empty)."""
    rec = OPS[base]

    def infer(ts, a):
        need(any(0 in t.shape for t in ts), f"{base}_empty takes a tensor with a dim of size 0, got {list(ts)}")
        return rec.infer(ts, a)

    fields = {f.name: getattr(rec, f.name) for f in dataclasses.fields(rec) if f.init}
    register(**{**fields, "name": f"{base}_empty", "infer": infer, "empty_ok": True, "construct": "edge_shapes",
                "weight": 8.0, "doc": doc, **changes})


def _reshape_attrs(draw, ts):
    """A static shape with a dim of size 0 (any such shape holds the no elements of an empty tensor)."""
    st = strategies()
    k = draw(st.integers(1, 3))
    return {"shape": draw(st.sampled_from([(0,), (0, k), (k, 0), (k, 0, 1)]))}


_empty_variant("concat", "concatenate two equal empty tensors along a static dim (of size 0 or not)",
               attrs=lambda draw, ts: {"dim": draw(strategies().sampled_from(static_dims(ts[0], 0)))})
_empty_variant("reshape", "reshape an empty tensor to another static shape with a dim of size 0",
               attrs=_reshape_attrs)
_empty_variant("matmul", "x @ y.transpose(-2, -1) of empty tensors: all zeros where the contracted dim is 0, empty "
                         "where another is")
