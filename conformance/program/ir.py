"""The framework-neutral program IR: types, input specs, statements and outputs (plain data).

A whole program is a :class:`~conformance.program.program.Program`; this module holds the pieces it is
made of, which the op records, the type checker and the renderers share.

Semantics follow Python: a variable holds a tensor or a Python value (:class:`PyType` numbers, bools and
``None``; :class:`ListType` lists and :class:`DictType` dicts of tensors and numbers); a variable assigned inside
a block (branch or loop body) is local to that block unless it already existed outside it. An outer variable
may change type there, as Python allows: after the block its type is the :class:`UnionType` of what each
path leaves in it (:mod:`conformance.program.typecheck`). ``"B"`` in a shape is the one dynamic dimension a
program may have (the batch size).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Optional, Union

#: Logical dtypes. ``float32`` is rendered as float64 for the fp64 reference run, and so are ``float16`` and
#: ``bfloat16`` (a program computing in reduced precision is judged against the exact result);
#: ``conformance.program.dtypes`` groups them. ``bfloat16`` has no numpy dtype: it is never an input.
DTYPES = ("float32", "int64", "bool", "float16", "bfloat16", "float64", "int8", "uint8", "int32")
DYNAMIC = "B"

Dim = Union[int, str]


class ProgramError(ValueError):
    """A program (or case file) is malformed: the message says where and what."""


@dataclass(frozen=True)
class TensorType:
    shape: tuple[Dim, ...]
    dtype: str = "float32"

    @property
    def rank(self) -> int:
        return len(self.shape)

    def concrete(self, batch: int) -> tuple[int, ...]:
        return tuple(batch if d == DYNAMIC else d for d in self.shape)

    def __str__(self) -> str:
        return f"{self.dtype}[{', '.join(map(str, self.shape))}]"


@dataclass(frozen=True)
class PyType:
    """A Python scalar: ``int``, ``float``, ``bool`` or ``none`` (the value ``None``)."""

    kind: str

    def __str__(self) -> str:
        return "None" if self.kind == "none" else self.kind


@dataclass(frozen=True)
class ListType:
    """A Python ``list`` whose items have type ``item`` (``None``: an empty list, no item added yet)."""

    item: Optional["Type"] = None

    def __str__(self) -> str:
        return f"list[{'' if self.item is None else self.item}]"


@dataclass(frozen=True)
class DictType:
    """A Python ``dict`` with string keys whose values have type ``item`` (``None``: empty so far)."""

    item: Optional["Type"] = None

    def __str__(self) -> str:
        return f"dict[str, {'' if self.item is None else self.item}]"


@dataclass(frozen=True)
class UnionType:
    """What a variable may hold where paths through an ``if`` or a loop leave it with different types."""

    options: frozenset

    def __str__(self) -> str:
        return " | ".join(sorted(map(str, self.options)))


Type = Union[TensorType, PyType, ListType, DictType, UnionType]
INT, FLOAT, BOOL, NONE = PyType("int"), PyType("float"), PyType("bool"), PyType("none")


def union(*types: Type) -> Type:
    """The union of types (one type stays itself). An empty list or dict joins a list or dict of one item type;
    a list's or dict's item types join."""
    flat: set = set()
    for t in types:
        flat |= set(t.options) if isinstance(t, UnionType) else {t}
    for kind in (ListType, DictType):  # containers of one kind merge: their item types join
        group = [t for t in flat if isinstance(t, kind)]
        if len(group) > 1:
            items = [t.item for t in group if t.item is not None]
            flat = (flat - set(group)) | {kind(union(*items) if items else None)}
    return next(iter(flat)) if len(flat) == 1 else UnionType(frozenset(flat))


def options(t: Type) -> frozenset:
    """The types a value of type ``t`` may have."""
    return t.options if isinstance(t, UnionType) else frozenset({t})


def is_number(t: Type) -> bool:
    """A Python ``int`` or ``float`` (a ``bool`` is a number in Python, but not one the IR does arithmetic on)."""
    return isinstance(t, PyType) and t.kind in ("int", "float")


# ---------------------------------------------------------------- input signature and outputs


@dataclass(frozen=True)
class TensorSpec:
    """A tensor input: its type and the range its values are drawn from.

    ``edge`` names edge values mixed into the drawn ones (``conformance.program.dtypes.EDGE_KINDS``: zeros and
    -0.0, ties, huge or tiny magnitudes, NaN, infinities); ``values``, when given, are the tensor's values
    themselves, flat in C order (``"nan"``, ``"inf"``, ``"-inf"`` spelled as strings), the same in every input
    set: what a hand-reduced case needs.
    """

    shape: tuple[Dim, ...]
    dtype: str = "float32"
    low: float = -1.0
    high: float = 1.0
    edge: str = ""
    values: Optional[tuple] = None

    @property
    def type(self) -> TensorType:
        return TensorType(self.shape, self.dtype)


@dataclass(frozen=True)
class SeqSpec:
    """A ``list`` (homogeneous) or ``tuple`` input."""

    kind: str  # "list" | "tuple"
    items: tuple["Spec", ...]


@dataclass(frozen=True)
class DictSpec:
    """A ``dict`` input with string keys (homogeneous values)."""

    items: tuple[tuple[str, "Spec"], ...]


Spec = Union[TensorSpec, SeqSpec, DictSpec]


@dataclass(frozen=True)
class Input:
    name: str
    spec: Spec


@dataclass(frozen=True)
class Kwarg:
    """A non-tensor keyword argument: its type, default and the values cases may pass."""

    name: str
    type: str  # "bool" | "int" | "float" | "str"
    default: Any
    choices: tuple[Any, ...]


@dataclass(frozen=True)
class Param:
    """A weight: values are uniform in [offset - scale, offset + scale], drawn from (program seed, index).

    ``trainable=False`` makes it state rather than a weight (batch-norm running statistics): a buffer that
    optimizers do not update and gradients are not taken for.
    """

    name: str
    shape: tuple[int, ...]
    scale: float = 0.5
    offset: float = 0.0
    trainable: bool = True

    def to_dict(self) -> dict:
        d = {"name": self.name, "shape": list(self.shape), "scale": self.scale}
        if self.offset:  # written only when set, so older programs keep their JSON (and ids)
            d["offset"] = self.offset
        if not self.trainable:
            d["trainable"] = False
        return d


@dataclass(frozen=True)
class OutVar:
    name: str


@dataclass(frozen=True)
class OutSeq:
    kind: str  # "tuple" | "list"
    items: tuple["Out", ...]


@dataclass(frozen=True)
class OutDict:
    items: tuple[tuple[str, "Out"], ...]


Out = Union[OutVar, OutSeq, OutDict]

# ---------------------------------------------------------------- conditions


@dataclass(frozen=True)
class TensorCond:
    """``var.<reduce>() <cmp> value``: data-dependent."""

    var: str
    reduce: str  # sum | mean | amax | amin
    cmp: str  # > | <
    value: float


@dataclass(frozen=True)
class KwargCond:
    """``flag`` / ``not flag`` (bool), ``mode == "x"`` (str), ``n > 2`` (int), ``alpha > 0.5``."""

    name: str
    cmp: str  # truth | not | == | > | <
    value: Any = None


@dataclass(frozen=True)
class ShapeCond:
    """``var.shape[dim] <cmp> value``: depends on input sizes."""

    var: str
    dim: int
    cmp: str
    value: int


@dataclass(frozen=True)
class LoopVarCond:
    """``i <cmp> value`` on the index of an enclosing ``for``."""

    var: str
    cmp: str
    value: int


@dataclass(frozen=True)
class PyCond:
    """``n > 2`` on a Python number variable, ``flag`` (``cmp`` "truth") or ``not flag`` ("not") on a Python bool,
    ``v is None`` ("none") or ``v is not None`` ("some"): data-dependent where the value came from a tensor."""

    var: str
    cmp: str  # > | < | == | truth | not | none | some
    value: Any = None


Cond = Union[TensorCond, KwargCond, ShapeCond, LoopVarCond, PyCond]

# ---------------------------------------------------------------- statements


@dataclass(frozen=True)
class Get:
    """``out = source[path...]``: reads a leaf of a (nested) input."""

    out: str
    source: str
    path: tuple[Union[int, str], ...] = ()


@dataclass(frozen=True)
class OpStmt:
    """``out = op(args..., **attrs)``; ``params`` name the weights the op uses."""

    out: str
    op: str
    args: tuple[str, ...]
    attrs: tuple[tuple[str, Any], ...] = ()
    params: tuple[str, ...] = ()

    @property
    def attr(self) -> dict[str, Any]:
        return dict(self.attrs)


@dataclass(frozen=True)
class If:
    cond: Cond
    then: tuple["Stmt", ...]
    orelse: tuple["Stmt", ...] = ()


@dataclass(frozen=True)
class While:
    """``while counter < max_iter and cond:`` — the bound keeps every path terminating."""

    cond: TensorCond
    max_iter: int
    counter: str
    body: tuple["Stmt", ...]


@dataclass(frozen=True)
class For:
    """``for var in range(count)``; ``count`` is an int, the name of an int kwarg, or the name of a variable
    holding a Python int (a trip count that depends on the data where that int came from a tensor). With ``rows``,
    ``for var in count``: ``count`` names a tensor of rank >= 1 and ``var`` holds each of its rows in turn."""

    var: str
    count: Union[int, str]
    body: tuple["Stmt", ...]
    rows: bool = False


@dataclass(frozen=True)
class Break:
    pass


@dataclass(frozen=True)
class Continue:
    pass


@dataclass(frozen=True)
class Return:
    value: Out


@dataclass(frozen=True)
class Grow:
    """A loop that grows a tensor along a static ``dim``, then reduces that dim (keeping it, size 1)::

        out = init
        for counter in range(count):          # count: an int or the name of an int kwarg
            out = concat([out, piece], dim)
        out = reduce(out, dim, keepdim=True)

    With ``cond`` (a condition on ``out`` itself) the loop is ``while counter < count and cond:``, so
    how far the shape grows depends on the data (static graphs want loop shapes to stay fixed).
    """

    out: str
    init: str
    piece: str
    dim: int
    reduce: str  # sum | mean | amax
    count: Union[int, str]
    counter: str
    cond: Optional[TensorCond] = None


@dataclass(frozen=True)
class PyStmt:
    """``out = op(args...)`` of a Python-value op (:mod:`conformance.program.pyops`): numbers from tensors, numbers
    into tensors, lists and dicts built and changed. An op that changes a container in place (``append``) names
    the container as ``out`` and as its first argument."""

    out: str
    op: str
    args: tuple[str, ...]
    attrs: tuple[tuple[str, Any], ...] = ()

    @property
    def attr(self) -> dict[str, Any]:
        return dict(self.attrs)


Stmt = Union[Get, OpStmt, If, While, For, Break, Continue, Return, Grow, PyStmt]


def walk(stmts) -> Iterator[Stmt]:
    for s in stmts:
        yield s
        if isinstance(s, If):
            yield from walk(s.then)
            yield from walk(s.orelse)
        elif isinstance(s, (While, For)):
            yield from walk(s.body)


def spec_leaves(spec: Spec, path: tuple = ()) -> Iterator[tuple[tuple, TensorSpec]]:
    """(path, leaf) for every tensor of an input tree, in the order frameworks flatten it."""
    if isinstance(spec, TensorSpec):
        yield path, spec
    elif isinstance(spec, SeqSpec):
        for i, item in enumerate(spec.items):
            yield from spec_leaves(item, path + (i,))
    else:
        for k, item in spec.items:
            yield from spec_leaves(item, path + (k,))


def out_leaves(out: Out) -> Iterator[str]:
    if isinstance(out, OutVar):
        yield out.name
    elif isinstance(out, OutSeq):
        for item in out.items:
            yield from out_leaves(item)
    else:
        for _, item in out.items:
            yield from out_leaves(item)


# ---------------------------------------------------------------- JSON codecs
