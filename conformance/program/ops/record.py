"""The op record, the table of records, and the helpers the family modules share.

Each :class:`OpRecord` holds what the generator, the type checker and the renderers need:

* ``infer``: the shape and dtype rule (raises :class:`~conformance.program.ir.ProgramError` when the
  arguments do not fit);
* ``domain``: which argument value ranges are valid (``log`` needs positive inputs, ``exp``
  bounded ones), and ``bound``: the value range of the result — together they keep generated
  programs free of NaN and overflow by construction;
* ``attrs``: how the generator draws the op's attributes; ``params``: the weights it needs;
* ``emit``: one source template per framework (``{0}`` is the first argument, ``{p0}`` the first
  weight, ``{float}`` the float dtype, other names are attributes). A framework without a template
  cannot render the op yet;
* ``probe``: the result jumps at a threshold (``cmp``: a comparison of two operands; ``int``: a cast
  to int), so the oracle's branch-flip guard watches how close the operands come to it;
* ``view`` / ``inplace``: the result may alias the first argument / the op writes into it. The
  generator applies in-place ops only to variables that nothing else aliases (never an input, a
  view, or a variable a view was taken of), so the program means the same in a framework without
  in-place ops;
* ``tolerance``: notes on numerical behaviour, shown in the generated ops table;
* ``differs``: per framework, why its eager result differs from the other frameworks' by design (a
  rounding mode, integer division); the cross-framework check (``tests/test_cross_framework.py``)
  leaves that framework out on programs using the op, and ``conformance ops`` shows it;
* ``train_layer``: the op means something else in ``train()`` and ``eval()`` or under autograd (dropout,
  batch norm, detach); the generator draws it only for programs with the ``train_layers`` construct
  (gradient and training-step campaigns), so the default case stream is unchanged;
* ``helpers``: per framework, module-level source the emitter calls (rendered once into the model file
  of a program that uses the op), for ops a framework has no single function for;
* ``fields``: more template fields, computed from the argument types and attributes (a padding list in
  a framework's order, a permutation, an index tensor's literal);
* ``missing``: per framework without an emitter, why it has none (every framework of :data:`FRAMEWORKS`
  has an emitter or a reason); the generator draws such an op only for the frameworks that have one
  (``programs(frameworks=...)``), and ``conformance ops`` shows the gap;
* ``weight``: how often the generator draws the op relative to others (1.0; ops that most conversion
  paths refuse by design, such as data-dependent output shapes, are drawn more rarely so the default
  stream stays mostly clean);
* ``probe_args``: per framework, the operands the branch-flip guard watches when they are not the op's
  own arguments (``round`` jumps at half-integers: it watches ``x + 0.5`` with an ``int`` probe; ``sort``
  watches the gaps between neighbouring sorted values with a ``cmp`` probe);
* ``data_dependent``: the result's first dim has a size only the data decides (``masked_select``,
  ``nonzero``, ``unique``): its shape holds the symbol ``n_<variable>`` (:func:`data_dim`), so only
  tensors computed from that one result share it; the op is not applied inside loops and always
  assigns a new variable; ``empty_ok``: the op accepts such a tensor, which may be empty (elementwise
  ops, sums; not ``mean`` or ``amax``, whose empty result is NaN or an error);
* ``fp32_in_fp64``: per framework, why its float64 run computes part of the op in float32 (Paddle's
  interpolation coordinates): that framework's fp64 reference agrees with the others' only to float32
  precision, so the cross-framework check compares its fp32 results alone on programs using the op;
* ``edge_ok``: the op is meaningful on edge values (NaN, infinities, -0.0, huge or tiny magnitudes) and at or
  past the edge of its ``domain`` (``sqrt`` of a negative, a division by zero): the generator applies it to
  variables that carry edge values (``conformance.program.edges``), whose results the oracle judges by its
  NaN/Inf policy; other ops never see them, so the value-range analysis stays exact where it is used;
* ``refuses``: per framework, the argument dtypes its kernels refuse (Paddle's CPU kernels lack int8, uint8
  and float16 for many ops): the generator does not draw the op on them for programs rendered for that framework,
  and ``conformance ops`` shows it;
* ``max_rank``: per framework, the highest rank of an argument its kernel takes, where that is lower than what the
  generator draws (Paddle's ``logsumexp`` takes 4): the generator does not draw the op on more for programs rendered
  for that framework;
* ``construct``: the opt-in construct a program must allow for the generator to draw the op: an edge construct
  (``conformance.program.edges.EDGE_CONSTRUCTS``: mixed-dtype arithmetic, integer reductions take ``"dtypes"``) or
  an effect's (``conformance.program.effects.EFFECT_CONSTRUCTS``); empty: any program;
* ``arg_dtypes``: per argument (repeated to the arity), an IR dtype, or a group: ``"any"``, ``"float"`` (any float
  dtype), ``"int"`` (any integer dtype), ``"number"`` (either) — :func:`dtype_fits`;
* ``arg_shapes``: ``"broadcast"`` when the arguments of a binary op must broadcast against each other
  (the generator filters candidates with it), ``"any"`` when the shape rule alone decides;
* ``statement``: the emitters are whole statements (one or more lines, ``{out}`` the variable they assign), not
  an expression: mutation through views, slice assignment, module state, Python-level dynamism
  (:mod:`conformance.program.ops.effects`); ``init``: per framework, lines for the model's ``__init__`` (a
  submodule the statement calls);
* ``enabler``: an :class:`Enabler`, the op statement the generator applies first where the op's arguments are rare
  (``outer`` takes two vectors: a sum over the last dim of a matrix makes one; ``in_top_k`` takes targets in
  ``[0, C)`` beside ``[N, C]`` scores: an argmax over the last dim makes them);
* ``bins``: the op's own coverage features beside its binned attributes and argument features
  (:mod:`conformance.program.coverage`): relations between them that one attribute does not show (``{"scale":
  "down"}`` for a resize to fewer elements, ``{"duplicates": "True"}`` for a scatter index that repeats along its dim).

``OPS`` maps names to records, in the order the family modules register them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Optional, Sequence

from conformance.program.dtypes import FLOATS, INTS
from conformance.program.ir import DYNAMIC, ProgramError, TensorType

Interval = tuple[float, float]

#: Largest batch size a dynamic dimension takes; used for value bounds of reductions over it.
MAX_BATCH = 6
#: Generated values stay within this magnitude (keeps fp32 far from overflow).
MAX_ABS = 1e4
#: Float keyword arguments take values in this range.
FLOAT_KWARG_RANGE = (-2.0, 2.0)
#: The frameworks an op record has an emitter for, or a reason why not (``OpRecord.missing``).
FRAMEWORKS = ("torch", "paddle", "tf")
#: The prefix of a dim whose size the data decides (:func:`data_dim`).
DATA_DIM_PREFIX = "n_"


#: The dtype groups an op record's ``arg_dtypes`` may name besides a dtype.
DTYPE_GROUPS = {"any": None, "float": FLOATS, "int": INTS, "number": FLOATS + INTS}


def dtype_fits(dtype: str, want: str) -> bool:
    """Whether an argument of ``dtype`` fits ``want``, an IR dtype or a group of :data:`DTYPE_GROUPS`."""
    if want in DTYPE_GROUPS:
        return want == "any" or dtype in DTYPE_GROUPS[want]
    return dtype == want


def data_dim(variable: str) -> str:
    """The symbol of the data-dependent dim of the result assigned to ``variable`` (``n_v7``)."""
    return DATA_DIM_PREFIX + variable


def name_data_dim(t: TensorType, variable: str) -> TensorType:
    """``t`` (the result type of a data-dependent op, with the bare prefix for its data-dependent dim) with
    that dim named after the variable the result is assigned to."""
    return TensorType(tuple(data_dim(variable) if d == DATA_DIM_PREFIX else d for d in t.shape), t.dtype)


def has_data_dim(t: TensorType) -> bool:
    """Whether a dim of ``t`` has a size only the data decides (see ``OpRecord.data_dependent``)."""
    return any(isinstance(d, str) and d.startswith(DATA_DIM_PREFIX) for d in t.shape)


def may_be_empty(t: TensorType) -> bool:
    """Whether ``t`` has or may have no elements: a dim of size 0, or one only the data decides."""
    return 0 in t.shape or has_data_dim(t)


def hull(*xs: float) -> Interval:
    """The smallest interval holding every one of ``xs``."""
    return (min(xs), max(xs))


def size_bound(d) -> int:
    """The largest size dim ``d`` takes (the dynamic dim: up to :data:`MAX_BATCH`; a data-dependent dim: at most
    the element count of the tensor it was selected from, which generated shapes keep far below :data:`MAX_ABS`)."""
    if d == DYNAMIC:
        return MAX_BATCH
    return int(MAX_ABS) if isinstance(d, str) else d


def index_bound(size: int) -> Interval:
    """The values of an index into a dim of at most ``size`` elements: 0 to ``size - 1``, and just 0 for a dim that
    may be empty (a tensor without elements has no values, so any interval holds them; ``(0, -1)`` would be an
    inverted interval, which every bound computed from it downstream would mistake for values)."""
    return (0.0, float(max(size - 1, 0)))


def need(ok: bool, msg: str) -> None:
    """Raise :class:`ProgramError` with ``msg`` unless ``ok``."""
    if not ok:
        raise ProgramError(msg)


def broadcast(a: tuple, b: tuple) -> tuple:
    """NumPy broadcasting of two shapes with the dynamic dim as a symbol; raises if they do not fit."""
    out = []
    for i in range(1, max(len(a), len(b)) + 1):
        x = a[-i] if i <= len(a) else 1
        y = b[-i] if i <= len(b) else 1
        if x == y or y == 1:
            out.append(x)
        elif x == 1:
            out.append(y)
        else:
            raise ProgramError(f"shapes {list(a)} and {list(b)} do not broadcast")
    return tuple(reversed(out))


def axis_of(t: TensorType, attrs: Mapping) -> int:
    """The attribute ``dim`` as a non-negative axis of ``t`` (raises when out of range)."""
    d = attrs["dim"]
    need(-t.rank <= d < t.rank, f"dim {d} out of range for {t}")
    return d % t.rank


@dataclass(frozen=True)
class Enabler:
    """An op statement that makes an argument a record takes (``OpRecord.enabler``): ``op`` applied with the
    attributes ``attrs`` returns for its argument types, on arguments for which it returns a dict (None: this
    statement would not make what the record takes from these)."""

    op: str
    attrs: Callable[[Sequence[TensorType]], Optional[dict]]


@dataclass(frozen=True)
class OpRecord:
    name: str
    family: str
    arity: int
    doc: str
    infer: Callable[[Sequence[TensorType], Mapping], TensorType]
    bound: Callable[[Sequence[Interval], Mapping, Sequence[TensorType]], Interval]
    emit: Mapping[str, str]
    domain: Callable[[Sequence[Interval], Sequence[TensorType]], bool] = lambda ivs, ts: True
    attrs: Optional[Callable[[Any, Sequence[TensorType]], dict]] = None  # (draw, types) -> attrs
    params: Callable[[Sequence[TensorType], Mapping], list[tuple[tuple[int, ...], float]]] = lambda ts, a: []
    arg_dtypes: tuple[str, ...] = ("float32",)
    probe: Optional[str] = None  # "cmp" (two operands) or "int" (one): the result jumps at a threshold
    view: bool = False  # the result may share memory with the first argument (reshape, slicing...)
    inplace: bool = False  # writes into its first argument, which is also the statement's target
    tolerance: str = ""
    differs: Mapping[str, str] = field(default_factory=dict)
    train_layer: bool = False
    helpers: Mapping[str, str] = field(default_factory=dict)
    fields: Optional[Callable[[Sequence[TensorType], Mapping], dict]] = None
    missing: Mapping[str, str] = field(default_factory=dict)
    weight: float = 1.0
    probe_args: Mapping[str, str] = field(default_factory=dict)
    data_dependent: bool = False
    empty_ok: bool = False
    arg_shapes: str = "broadcast"
    fp32_in_fp64: Mapping[str, str] = field(default_factory=dict)
    edge_ok: bool = False
    refuses: Mapping[str, tuple] = field(default_factory=dict)
    max_rank: Mapping[str, int] = field(default_factory=dict)
    statement: bool = False
    init: Mapping[str, str] = field(default_factory=dict)
    construct: str = ""
    enabler: Optional[Enabler] = None
    bins: Optional[Callable[[Sequence[TensorType], Mapping], dict]] = None
    frameworks: tuple[str, ...] = field(init=False, default=())

    def __post_init__(self):
        object.__setattr__(self, "frameworks", tuple(sorted(self.emit)))
        unaccounted = set(FRAMEWORKS) - set(self.emit) - set(self.missing)
        if unaccounted:
            raise ValueError(f"op {self.name}: no emitter and no reason why for {sorted(unaccounted)}")
        if set(self.emit) & set(self.missing):
            raise ValueError(f"op {self.name}: both an emitter and a reason for its absence")

    @property
    def discontinuous(self) -> bool:
        return self.probe is not None

    def check(self, types: Sequence[TensorType], attrs: Mapping) -> TensorType:
        need(len(types) == self.arity, f"{self.name} takes {self.arity} arguments, got {len(types)}")
        for i, (t, want) in enumerate(zip(types, self.arg_dtypes * self.arity)):
            need(dtype_fits(t.dtype, want), f"{self.name} argument {i} must be {want}, got {t}")
            need(self.empty_ok or not may_be_empty(t),
                 f"{self.name} argument {i} may be empty (a dim of size 0 or one the data decides), which "
                 f"{self.name} refuses: {t}")
        return self.infer(types, attrs)

    def rank_limit(self, frameworks: Iterable[str]) -> Optional[int]:
        """The highest argument rank the kernels of every one of ``frameworks`` take (``max_rank``; None: any)."""
        return min((self.max_rank[fw] for fw in frameworks if fw in self.max_rank), default=None)

    def template_fields(self, types: Sequence[TensorType], attrs: Mapping) -> dict:
        """The fields ``fields`` computes for the emitters (none without it)."""
        return self.fields(types, attrs) if self.fields else {}


OPS: dict[str, OpRecord] = {}


def register(**kw) -> OpRecord:
    """Make an :class:`OpRecord` and add it to :data:`OPS`."""
    rec = OpRecord(**kw)
    OPS[rec.name] = rec
    return rec


def check_op(name: str) -> OpRecord:
    try:
        return OPS[name]
    except KeyError:
        raise ProgramError(f"unknown op {name!r}; known ops: {', '.join(sorted(OPS))}") from None


class Weight(tuple):
    """What ``OpRecord.params`` returns per weight: the pair ``(shape, scale)`` (so it unpacks as one),
    with ``offset`` (values uniform in offset ± scale) and ``trainable`` (False: state such as batch-norm
    running statistics, a buffer that optimizers leave alone) as attributes."""

    def __new__(cls, shape, scale: float, offset: float = 0.0, trainable: bool = True):
        self = super().__new__(cls, (tuple(shape), scale))
        self.offset, self.trainable = offset, trainable
        return self


def per_framework(torch: str, paddle: str, tf: str) -> dict:
    """Emitters of one op for torch, paddle and tensorflow."""
    return {"torch": torch, "paddle": paddle, "tf": tf}


def everywhere(template: str) -> dict:
    """An emitter written the same way in every framework (Python operators, indexing)."""
    return per_framework(template, template, template)


def strategies():
    """``hypothesis.strategies``, imported when attributes are drawn (not when the records load)."""
    import hypothesis.strategies as st

    return st


def same_type(ts, a):
    """Shape rule of an op whose result has its first argument's type."""
    return ts[0]


def keep_bound(ivs, a, ts):
    """Value bound of an op that only moves its first argument's values around."""
    return ivs[0]


def monotone(f):
    """Bound of a monotone increasing elementwise function."""
    return lambda ivs, a, ts: (f(ivs[0][0]), f(ivs[0][1]))


def within(lo=-math.inf, hi=math.inf):
    """Domain: the first argument's values lie in [lo, hi]."""
    return lambda ivs, ts: lo <= ivs[0][0] and ivs[0][1] <= hi


def interval_mul(x: Interval, y: Interval) -> Interval:
    return hull(x[0] * y[0], x[0] * y[1], x[1] * y[0], x[1] * y[1])


def static_last(ts) -> bool:
    """The first argument has a last dim of a static size."""
    return ts[0].rank >= 1 and isinstance(ts[0].shape[-1], int)


def static_dims(t: TensorType, min_size: int = 1) -> list[int]:
    """The axes of ``t`` with a static size of at least ``min_size``."""
    return [i for i, d in enumerate(t.shape) if isinstance(d, int) and d >= min_size]


def reduced_size(ts, a) -> int:
    """The largest size of the dim a one-dim reduction of ``ts[0]`` over ``a["dim"]`` reduces."""
    return size_bound(ts[0].shape[axis_of(ts[0], a)])


def dim_attr(draw, ts) -> dict:
    """One dim of the first argument, negative or not."""
    return {"dim": draw(strategies().integers(-ts[0].rank, ts[0].rank - 1))}


def calls(torch: str, paddle: str, tf: str, args: str = "{0}") -> dict:
    """Emitters that call one function per framework on the same arguments: ``calls("torch.exp",
    "paddle.exp", "tf.exp")``."""
    return per_framework(f"{torch}({args})", f"{paddle}({args})", f"{tf}({args})")
