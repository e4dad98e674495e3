"""What a block of a program being drawn may see and reassign (:mod:`conformance.program.strategies`): its
tensor variables with their types and value intervals, its Python values, and which outer variables it may
write."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from conformance.program.ir import TensorType
from conformance.program.ops import Interval


def join(a: Interval, b: Interval) -> Interval:
    return (min(a[0], b[0]), max(a[1], b[1]))


def inside(a: Interval, b: Interval) -> bool:
    return b[0] <= a[0] and a[1] <= b[1]


@dataclass
class Variable:
    """A variable in scope: its type, the interval its values lie in, and whether it may hold edge values
    (NaN, infinities, values past an op's domain: then ``iv`` says nothing and only ops with
    ``OpRecord.edge_ok`` take it)."""

    type: TensorType
    iv: Interval
    edge: bool = False


@dataclass
class Scope:
    """What a block may see and reassign.

    ``limits`` maps outer variables the block may reassign to the interval a new value must stay in
    (``None``: any). Loop bodies may reassign only their carried variable, inside its widened
    interval, so the analysis holds for every iteration.
    """

    env: dict
    limits: dict
    depth: int
    loops: tuple = ()  # enclosing loop kinds: ("for", var) / ("while", None)
    local: set = field(default_factory=set)
    reassigned: set = field(default_factory=set)  # outer variables this block assigned
    # inside a loop body, the variables created in that body: the only in-place targets there, since
    # a variable from before the loop may alias another one on the next iteration
    loop_owned: Optional[set] = None
    #: Python values and variables whose type differs by path (:mod:`conformance.program.pydrawing`): name -> type;
    #: op drawing never sees them (``env`` holds tensors only)
    py: dict = field(default_factory=dict)

    def child(self, limits: Optional[dict] = None, loop=None) -> "Scope":
        inherited = dict(self.limits) if limits is None else limits
        if limits is None:
            inherited.update({n: None for n in self.local})
        owned = set() if loop else (None if self.loop_owned is None else self.loop_owned | self.local)
        return Scope(dict((k, Variable(v.type, v.iv, v.edge)) for k, v in self.env.items()), inherited, self.depth + 1,
                      self.loops + ((loop,) if loop else ()), loop_owned=owned, py=dict(self.py))

    def may_write_in_place(self, name: str) -> bool:
        if name in self.local:
            return True
        return name in self.limits and (self.loop_owned is None or name in self.loop_owned)

    def may_assign(self, name: str, t: TensorType, iv: Interval) -> bool:
        if self.env[name].type != t:
            return False
        if name in self.local:
            return True
        if name not in self.limits:
            return False
        limit = self.limits[name]
        return limit is None or inside(iv, limit)
