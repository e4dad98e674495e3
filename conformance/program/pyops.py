"""Python-value ops: the statements that make, change and read Python numbers, ``None``, lists and dicts.

Each :class:`PyOp` is a record, like the tensor ops' :class:`~conformance.program.ops.record.OpRecord`: a type rule
(``check``: the result's :data:`~conformance.program.ir.Type` from the arguments', raising
:class:`~conformance.program.ir.ProgramError` where eager Python would fail on every input), and one emitter per
framework, written the way users write it. Four groups:

* numbers from tensors: ``.item()``, ``int(...)``, ``bool(...)``, ``len(...)``, shape arithmetic, ``numel``;
* numbers: constants, arithmetic, ``float(n)``, and a number fed back into a tensor (``x * n``, ``acc + x.mean()``);
* ``None`` and ``v if v is not None else x``;
* lists and dicts: made empty or of one item, ``append``, ``pop``, index and key assignment, ``extend``, ``+=``,
  iteration, ``len``, stacked and reduced.

TensorFlow has no Python value inside a traced function: a number from a tensor stays a 0-d tensor there
(``tf.reduce_mean(x)``, ``tf.cast(..., tf.int32)``), as AutoGraph users write it. Lists of tensors are rendered as
each framework's own tensor array where its users write one (:func:`arrays`): in TensorFlow, a list appended to
under a loop whose trip count depends on the data is a ``tf.TensorArray(..., dynamic_size=True)``
(:func:`tensor_arrays`; AutoGraph cannot carry a Python list through a ``tf.while_loop``), and a list of a length
known before its loop (``l = [x] * n``, then ``l[i] = ...`` for ``i in range(n)``) a ``tf.TensorArray(..., size=n)``
written with ``.write(i, v)`` and read with ``.read(i)`` (:func:`fixed_arrays`); in Paddle, a list the generator
marks ``array`` is ``paddle.tensor.create_array`` written with ``array_write``, read with ``array_read`` and
measured with ``array_length``, in eager and under ``to_static`` alike.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping

from conformance.program.dtypes import is_float
from conformance.program.ir import (
    BOOL,
    FLOAT,
    INT,
    NONE,
    Break,
    Continue,
    DictType,
    For,
    If,
    ListType,
    ProgramError,
    PyStmt,
    Return,
    TensorType,
    Type,
    While,
    is_number,
    options,
    out_leaves,
    union,
    walk,
)


def need(ok: bool, msg: str) -> None:
    if not ok:
        raise ProgramError(msg)


@dataclass(frozen=True)
class PyOp:
    """A Python-value op. ``emit``: per framework, the lines of ``forward`` (``{out}``, ``{0}``..., the attributes
    and ``fields``); ``inplace``: it changes its first argument, a list or dict, and names it as ``out``;
    ``mutates``: it changes its first argument and assigns another variable (``pop``); ``probe``: the result jumps at
    a threshold (``int``: a cast to int; ``cmp``: a comparison), and ``probe_args`` are the operands the branch-flip
    guard watches; ``array``: per framework, the emitter where the list is that framework's tensor array
    (:func:`arrays`)."""

    name: str
    arity: int
    doc: str
    check: Callable[[list, dict], Type]
    emit: Mapping[str, str]
    inplace: bool = False
    mutates: bool = False
    probe: str = ""
    probe_args: Mapping[str, str] = field(default_factory=dict)
    array: Mapping[str, str] = field(default_factory=dict)
    fields: Callable[[list, dict, str], dict] = lambda ts, a, fw: {}


PYOPS: dict[str, PyOp] = {}


def _op(name, arity, doc, check, emit, **kw) -> None:
    PYOPS[name] = PyOp(name, arity, doc, check, emit, **kw)


def _same(text: str) -> dict:
    return {"torch": text, "paddle": text, "tf": text}


def float_tensor(t: Type, what: str) -> TensorType:
    need(isinstance(t, TensorType) and is_float(t.dtype), f"{what} needs a float tensor, got {t}")
    return t


def _number(t: Type, what: str) -> Type:
    need(is_number(t), f"{what} needs a Python int or float, got {t}")
    return t


def _list_item(t: Type, what: str) -> Type:
    need(isinstance(t, ListType) and t.item is not None, f"{what} needs a list with items, got {t}")
    return t.item


def _tensor_list(t: Type, what: str) -> TensorType:
    item = _list_item(t, what)
    need(isinstance(item, TensorType), f"{what} needs a list of tensors of one type, got {t}")
    return item


def _item_fits(container: Type, item: Type, kind, what: str) -> Type:
    need(isinstance(container, kind), f"{what} needs a {kind.__name__[:-4].lower()}, got {container}")
    if container.item is not None:  # a container keeps one item type: what eager stacks or adds up later
        need(container.item == item, f"{what}: {item} into a container of {container.item}")
    return kind(item)


_OF = {"tensor": None, "int": INT, "float": FLOAT}
_ANNOTATION = {"tensor": "torch.Tensor", "int": "int", "float": "float"}


def _new(kind):
    def check(ts, a):
        need(a.get("of") in _OF, f"an empty container of 'tensor', 'int' or 'float', got {a.get('of')!r}")
        return kind(None)
    return check


def _tf_size(ts, a, fw) -> dict:
    t = ts[0]
    dim = a.get("dim", 0)
    if isinstance(t, TensorType) and dim < t.rank:
        static = isinstance(t.shape[dim], int)
        return {"size": f"{{0}}.shape[{dim}]" if static or fw != "tf" else f"tf.shape({{0}})[{dim}]"}
    return {"size": "len({0})"}


def _of(ts, a, fw) -> dict:
    return {"annotation": _ANNOTATION.get(a.get("of"), ""),
            "ta_dtype": "{float}" if a.get("of") in ("tensor", "float") else "tf.int32"}


def _len_type(ts, a):
    t = ts[0]
    if isinstance(t, TensorType):
        need(t.rank >= 1, f"len() of a 0-d tensor raises, got {t}")
    else:
        need(isinstance(t, (ListType, DictType)), f"len() needs a tensor, list or dict, got {t}")
    return INT


def _arith(ts, a):
    t = _number(ts[0], "arithmetic")
    ints = all(isinstance(a[k], int) and not isinstance(a[k], bool) for k in ("k", "c"))
    need(t == FLOAT or ints, "int arithmetic takes int constants (a float one makes a float)")
    return t


def _add(ts, a):
    need(is_number(ts[0]) and ts[0] == ts[1], f"adds two numbers of one kind, got {ts[0]} and {ts[1]}")
    return ts[0]


def _acc(ts, a):
    x = float_tensor(ts[1], "acc + x.mean()")
    for t in options(ts[0]):
        need(t == FLOAT or t == TensorType((), x.dtype), f"acc + x.mean() needs acc a float or a 0-d {x.dtype}, got "
             f"{ts[0]}")
    return TensorType((), x.dtype)


def _or_else(ts, a):
    need(isinstance(ts[1], TensorType) and options(ts[0]) <= {NONE, ts[1]},
         f"v if v is not None else x needs v None or of x's type {ts[1]}, got {ts[0]}")
    return ts[1]


def _const(ts, a):
    v = a.get("value")
    need(isinstance(v, (bool, int, float)), f"a constant is a bool, int or float, got {v!r}")
    return BOOL if isinstance(v, bool) else INT if isinstance(v, int) else FLOAT


def _fold(ts, a):
    item = _list_item(ts[0], "iteration")
    need(ts[1] == item and (is_number(item) or isinstance(item, TensorType)),
         f"a sum over a list starts from a value of its items' type {item}, got {ts[1]}")
    return item


def _dict_fold(ts, a):
    need(isinstance(ts[0], DictType) and ts[0].item is not None and ts[1] == ts[0].item,
         f"a sum over a dict's values starts from a value of their type, got {ts[0]} and {ts[1]}")
    return ts[1]


_REDUCE_TF = {"mean": "tf.reduce_mean", "sum": "tf.reduce_sum"}

# ---------------------------------------------------------------- numbers from tensors

_op("item", 1, "s = x.mean().item(): a Python float (TensorFlow: a 0-d tensor)",
    lambda ts, a: (float_tensor(ts[0], ".item()"), FLOAT)[1],
    {"torch": "{out} = {0}.{reduce}().item()", "paddle": "{out} = {0}.{reduce}().item()",
     "tf": "{out} = {tf_reduce}({0})"}, fields=lambda ts, a, fw: {"tf_reduce": _REDUCE_TF[a["reduce"]]})
_op("int_of", 1, "n = int(x.abs().sum() * s) % m: a Python int from a tensor",
    lambda ts, a: (float_tensor(ts[0], "int()"), need(a["mod"] >= 1, "mod >= 1"), INT)[2],
    {"torch": "{out} = int({0}.abs().sum() * {scale}) % {mod}",
     "paddle": "{out} = int({0}.abs().sum() * {scale}) % {mod}",
     "tf": "{out} = tf.cast(tf.reduce_sum(tf.abs({0})) * {scale}, tf.int32) % {mod}"},
    probe="int", probe_args={"torch": "{0}.abs().sum() * {scale}", "paddle": "{0}.abs().sum() * {scale}",
                             "tf": "tf.reduce_sum(tf.abs({0})) * {scale}"})
_op("bool_of", 1, "b = bool(x.mean() > t): a Python bool from a tensor",
    lambda ts, a: (float_tensor(ts[0], "bool()"), BOOL)[1],
    {"torch": "{out} = bool({0}.{reduce}() > {thr})", "paddle": "{out} = bool({0}.{reduce}() > {thr})",
     "tf": "{out} = {tf_reduce}({0}) > {thr}"},
    probe="cmp", probe_args={"torch": "{0}.{reduce}(), {0}.{reduce}() * 0.0 + {thr}",
                             "paddle": "{0}.{reduce}(), {0}.{reduce}() * 0.0 + {thr}",
                             "tf": "{tf_reduce}({0}), {tf_reduce}({0}) * 0.0 + {thr}"},
    fields=lambda ts, a, fw: {"tf_reduce": _REDUCE_TF[a["reduce"]]})
_op("dim_of", 1, "n = x.shape[d] * k + c: shape arithmetic in Python ints",
    lambda ts, a: (need(isinstance(ts[0], TensorType) and 0 <= a["dim"] < ts[0].rank, f"no dim {a['dim']} in {ts[0]}"),
                   INT)[1],
    _same("{out} = {size} * {k} + {c}"), fields=_tf_size)
_op("numel_of", 1, "n = x.numel(): the element count (Paddle: int(x.numel()); TensorFlow: tf.size, a tensor)",
    lambda ts, a: (need(isinstance(ts[0], TensorType), f"numel of a tensor, got {ts[0]}"), INT)[1],
    {"torch": "{out} = {0}.numel()", "paddle": "{out} = int({0}.numel())", "tf": "{out} = tf.size({0})"})
_op("len_of", 1, "n = len(v): of a tensor (its first dim), a list or a dict", _len_type,
    _same("{out} = {size}"), array={"tf": "{out} = {0}.size()", "paddle": "{out} = paddle.tensor.array_length({0})"},
    fields=_tf_size)

# ---------------------------------------------------------------- numbers, and numbers into tensors

_op("const", 0, "v = 0 / 0.0 / False: a Python constant (an accumulator's start, a type change)", _const,
    _same("{out} = {value!r}"))
_op("num_arith", 1, "m = n * k + c: Python arithmetic (int stays int)", _arith, _same("{out} = {0} * {k!r} + {c!r}"))
_op("add_const", 1, "n = n + 1: a counter (an int stays an int; a float a float)",
    lambda ts, a: (_number(ts[0], "n + c"),
                   need(ts[0] == FLOAT or (isinstance(a["c"], int) and not isinstance(a["c"], bool)),
                        "an int plus an int constant stays an int"), ts[0])[2], _same("{out} = {0} + {c!r}"))
_op("num_add", 2, "m = a + b: two numbers of one kind", _add, _same("{out} = {0} + {1}"))
_op("float_of", 1, "f = float(n): an int becomes a float (TensorFlow: a cast)",
    lambda ts, a: (_number(ts[0], "float()"), FLOAT)[1],
    {"torch": "{out} = float({0})", "paddle": "{out} = float({0})", "tf": "{out} = tf.cast({0}, {float})"})
_op("scale_by", 2, "y = x * n: a Python number fed back into a tensor op",
    lambda ts, a: (_number(ts[0], "x * n"), float_tensor(ts[1], "x * n"))[1],
    {"torch": "{out} = {1} * {0}", "paddle": "{out} = {1} * {0}", "tf": "{out} = {1} * tf.cast({0}, {1}.dtype)"})
_op("acc_add", 2, "acc = acc + x.mean(): a Python float becomes a 0-d tensor (a loop-carried type change)", _acc,
    {"torch": "{out} = {0} + {1}.mean()", "paddle": "{out} = {0} + {1}.mean()",
     "tf": "{out} = {0} + tf.reduce_mean({1})"})

# ---------------------------------------------------------------- None

_op("none", 0, "v = None", lambda ts, a: NONE, _same("{out} = None"))
_op("or_else", 2, "y = x if v is None else v: an optional tensor read where one is needed", _or_else,
    _same("{out} = {1} if {0} is None else {0}"))

# ---------------------------------------------------------------- lists and dicts

_op("list_new", 0, "l = []: an empty list (annotated in torch: List[int] etc., as TorchScript needs)", _new(ListType),
    {"torch": "{out}: List[{annotation}] = []", "paddle": "{out} = []", "tf": "{out} = []"},
    array={"tf": "{out} = tf.TensorArray({ta_dtype}, size=0, dynamic_size=True)",
           "paddle": "{out} = paddle.tensor.create_array({float})"}, fields=_of)
_op("list_of", 1, "l = [v]: a list of one item", lambda ts, a: ListType(ts[0]), _same("{out} = [{0}]"))
_op("append", 2, "l.append(v)", lambda ts, a: _item_fits(ts[0], ts[1], ListType, "append"),
    _same("{0}.append({1})"), inplace=True,
    array={"tf": "{0} = {0}.write({0}.size(), {1})",
           "paddle": "{0} = paddle.tensor.array_write({1}, paddle.full([1], paddle.tensor.array_length({0}), "
                     "'int64'), {0})"})
_op("pop", 1, "v = l.pop(): the last item, removed", lambda ts, a: _list_item(ts[0], "pop"), _same("{out} = {0}.pop()"),
    mutates=True)
_op("setitem", 2, "l[i] = v", lambda ts, a: _item_fits(ts[0], ts[1], ListType, "l[i] = v"),
    _same("{0}[{index}] = {1}"), inplace=True)
_op("getitem", 1, "v = l[i]", lambda ts, a: _list_item(ts[0], "l[i]"), _same("{out} = {0}[{index}]"))
_op("list_fill", 2, "l = [v] * n: a list of n items made before a loop writes each (TensorFlow: a TensorArray of "
    "size n; Paddle: create_array)",
    lambda ts, a: (need(ts[1] == INT, f"[v] * n needs an int n, got {ts[1]}"),
                   need(isinstance(ts[0], TensorType) and ts[0].dtype == "float32",
                        f"a list made to be written at each index holds float32 tensors, got {ts[0]}"),
                   ListType(ts[0]))[2],
    _same("{out} = [{0}] * {1}"),
    array={"tf": "{out} = tf.TensorArray({float}, size={1}, clear_after_read=False)",
           "paddle": "{out} = paddle.tensor.create_array({float})"})
_op("setitem_at", 3, "l[i] = v: a write at an index from an int variable (a loop's index)",
    lambda ts, a: (need(ts[1] == INT, f"l[i] = v needs an int i, got {ts[1]}"),
                   _item_fits(ts[0], ts[2], ListType, "l[i] = v"))[1],
    _same("{0}[{1}] = {2}"), inplace=True,
    array={"tf": "{0} = {0}.write({1}, {2})",
           "paddle": "{0} = paddle.tensor.array_write({2}, paddle.full([1], {1}, 'int64'), {0})"})
_op("getitem_at", 2, "v = l[i]: a read at an index from an int variable",
    lambda ts, a: (need(ts[1] == INT, f"l[i] needs an int i, got {ts[1]}"), _list_item(ts[0], "l[i]"))[1],
    _same("{out} = {0}[{1}]"),
    array={"tf": "{out} = {0}.read({1})",
           "paddle": "{out} = paddle.tensor.array_read({0}, paddle.full([1], {1}, 'int64'))"})
_op("extend", 2, "l.extend(m)", lambda ts, a: union(ts[0], _list_of(ts[1])), _same("{0}.extend({1})"), inplace=True)
_op("iadd", 2, "l += m", lambda ts, a: union(ts[0], _list_of(ts[1])), _same("{0} += {1}"), inplace=True)
_op("stack_reduce", 1, "y = stack(l).mean(0): a list of tensors stacked and reduced",
    lambda ts, a: _tensor_list(ts[0], "stack"),
    {"torch": "{out} = torch.stack({0}).{reduce}(0)", "paddle": "{out} = paddle.stack({0}).{reduce}(0)",
     "tf": "{out} = {tf_reduce}(tf.stack({0}), 0)"},
    array={"tf": "{out} = {tf_reduce}({0}.stack(), 0)"},
    fields=lambda ts, a, fw: {"tf_reduce": _REDUCE_TF[a["reduce"]]})
_op("list_sum", 2, "s = v; for e in l: s = s + e: iteration over a list", _fold,
    _same("{out}_s = {1}\nfor {out}_e in {0}:\n    {out}_s = {out}_s + {out}_e\n{out} = {out}_s"))
_op("dict_new", 0, "d = {}: an empty dict (annotated in torch)", _new(DictType),
    {"torch": "{out}: Dict[str, {annotation}] = {{}}", "paddle": "{out} = {{}}", "tf": "{out} = {{}}"}, fields=_of)
_op("dict_set", 2, "d[key] = v", lambda ts, a: _item_fits(ts[0], ts[1], DictType, "d[key] = v"),
    _same("{0}[{key!r}] = {1}"), inplace=True)
_op("dict_set_at", 3, "d['k' + str(9 - i)] = v: a key made from an int (a loop index): inserted in an order that "
    "is not the keys' sorted order",
    lambda ts, a: (need(ts[1] == INT, f"a key from an int, got {ts[1]}"),
                   _item_fits(ts[0], ts[2], DictType, "d[key] = v"))[1],
    _same("{0}['k' + str(9 - {1})] = {2}"), inplace=True)
_op("dict_get", 1, "v = d[key]", lambda ts, a: (need(isinstance(ts[0], DictType) and ts[0].item is not None,
                                                     f"d[key] needs a dict with items, got {ts[0]}"), ts[0].item)[1],
    _same("{out} = {0}[{key!r}]"))
_op("dict_sum", 2, "s = v; for k in d: s = s + d[k]: iteration over a dict's keys", _dict_fold,
    _same("{out}_s = {1}\nfor {out}_k in {0}:\n    {out}_s = {out}_s + {0}[{out}_k]\n{out} = {out}_s"))


def _list_of(t: Type) -> ListType:
    need(isinstance(t, ListType), f"needs a list, got {t}")
    return t


def check_pyop(s: PyStmt, types: list) -> Type:
    """The type of ``s``'s result (raises :class:`ProgramError` naming what does not fit)."""
    op = PYOPS.get(s.op)
    need(op is not None, f"unknown Python-value op {s.op!r}")
    need(len(types) == op.arity, f"{s.op} takes {op.arity} arguments, got {len(types)}")
    try:
        out = op.check(types, s.attr)
    except KeyError as e:
        raise ProgramError(f"{s.op} is missing attribute {e}") from None
    if op.inplace or op.mutates:
        need(isinstance(types[0], (ListType, DictType)), f"{s.op} changes a list or dict, got {types[0]}")
        need(not op.inplace or s.out == s.args[0], f"{s.op} changes {s.args[0]!r} in place: it assigns that name")
        need(not op.mutates or s.out != s.args[0], f"{s.op} assigns a variable other than the list it changes")
    return out


def changed(s: PyStmt) -> str:
    """The container a statement changes in place besides its result (``pop``), or ''."""
    return s.args[0] if PYOPS[s.op].mutates else ""


def data_dependent_loops(program) -> list:
    """The loops whose trip count depends on the data: ``while`` on a tensor, ``for`` over a Python int variable
    (``range(n)``, ``n`` computed in ``forward``) or over a tensor's rows."""
    kwargs = {k.name for k in program.kwargs}
    return [s for s in program.walk() if isinstance(s, While)
            or (isinstance(s, For) and isinstance(s.count, str) and s.count not in kwargs)]


def _uses(program) -> dict:
    """Per variable, the ``(op, argument position)`` of each Python-value statement naming it (0: its result)."""
    uses: dict = {}
    for s in program.walk():
        if isinstance(s, PyStmt):
            for i, name in enumerate((s.out,) + s.args):
                uses.setdefault(name, set()).add((s.op, i))
    return uses


def _returned(program) -> set:
    return set(out_leaves(program.output)).union(*(out_leaves(s.value) for s in program.walk()
                                                   if isinstance(s, Return)))


def _escapes(stmts) -> bool:
    """Whether a ``break`` or ``continue`` of this loop body (not of a loop nested in it) is in ``stmts``."""
    for s in stmts:
        if isinstance(s, (Break, Continue)) or (isinstance(s, If) and (_escapes(s.then) or _escapes(s.orelse))):
            return True
    return False


def _filled(program) -> tuple[set, set]:
    """The lists made by ``l = [v] * n`` that a later ``for i in range(n)`` of their block writes at ``l[i]`` in
    every iteration (at its top level, with no ``break`` or ``continue``), and the ids of the reads ``l[i]`` that
    come after that write at the loop's top level."""
    filled, reads = set(), set()

    def block(stmts):
        made = {}
        for s in stmts:
            if isinstance(s, PyStmt) and s.op == "list_fill":
                made[s.out] = s.args[1]
            elif isinstance(s, For) and not s.rows and not _escapes(s.body):
                for name in (name for name, n in made.items() if n == s.count):
                    at = [t.args[:2] == (name, s.var) and t.op == "setitem_at" for t in s.body
                          if isinstance(t, PyStmt)]
                    if any(at):
                        filled.add(name)
                        later = [t for t in s.body if isinstance(t, PyStmt)][at.index(True) + 1:]
                        reads.update(id(t) for t in later if t.op == "getitem_at" and t.args == (name, s.var))
            for name in BLOCKS_OF.get(type(s), ()):
                block(getattr(s, name))

    block(program.body)
    return filled, reads


#: The blocks of each compound statement.
BLOCKS_OF = {If: ("then", "orelse"), While: ("body",), For: ("body",)}


def fixed_arrays(program) -> set:
    """The lists of a length known before their loop, which TensorFlow renders as ``tf.TensorArray(..., size=n)``:
    made once by ``l = [v] * n``, then written at each index of a ``for i in range(n)`` (``l[i] = v``), read only
    at that index after the write, stacked and measured, and stacked in the end."""
    uses, (filled, reads) = _uses(program), _filled(program)
    allowed = {("list_fill", 0), ("setitem_at", 0), ("setitem_at", 1), ("getitem_at", 1), ("stack_reduce", 1),
               ("len_of", 1)}
    fills = [s.out for s in program.walk() if isinstance(s, PyStmt) and s.op == "list_fill"]
    read_ok = {s.args[0]: True for s in program.walk() if isinstance(s, PyStmt) and s.op == "getitem_at"}
    for s in program.walk():
        if isinstance(s, PyStmt) and s.op == "getitem_at":
            read_ok[s.args[0]] = read_ok[s.args[0]] and id(s) in reads
    return {name for name in filled - _returned(program) if fills.count(name) == 1 and read_ok.get(name, True)
            and uses[name] <= allowed and ("stack_reduce", 1) in uses[name]}


def arrays(program, framework: str) -> set:
    """The lists ``framework`` renders as its own tensor array: TensorFlow's :func:`tensor_arrays` and
    :func:`fixed_arrays` (AutoGraph needs a ``tf.TensorArray`` where a loop becomes a ``tf.while_loop``); in Paddle,
    those of them made by a statement marked ``array`` (the generator marks a share of its lists; Paddle converts a
    Python list itself too)."""
    if framework == "tf":
        return tensor_arrays(program) | fixed_arrays(program)
    if framework == "paddle":
        marked = {s.out for s in program.walk() if isinstance(s, PyStmt) and s.attr.get("array")}
        return (tensor_arrays(program) | fixed_arrays(program)) & marked
    return set()


def tensor_arrays(program) -> set:
    """The lists TensorFlow renders as ``tf.TensorArray(..., dynamic_size=True)``: lists of tensors made empty, only
    appended to, stacked and measured, and appended to in a loop whose trip count depends on the data."""
    uses = _uses(program)
    grown = {s.args[0] for loop in data_dependent_loops(program) for s in walk(loop.body)
             if isinstance(s, PyStmt) and s.op == "append"}
    allowed = {("list_new", 0), ("append", 0), ("append", 1), ("stack_reduce", 1), ("len_of", 1)}
    made = {s.out for s in program.walk() if isinstance(s, PyStmt) and s.op == "list_new" and s.attr["of"] == "tensor"}
    return {name for name in (grown & made) - _returned(program)
            if uses[name] <= allowed and ("stack_reduce", 1) in uses[name]}
