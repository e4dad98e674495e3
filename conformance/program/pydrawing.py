"""How the program generator draws Python values: numbers from tensors, variables that change type, lists and dicts
built in loops (:class:`PyValueDrawing`, mixed into the generator of :mod:`conformance.program.strategies`).

Each drawing is a small scene composed with the program's own control flow: it is drawn in any block (a branch, a
loop body, the top level), its loops and branches hold blocks the generator draws as usual, and what it leaves
(a tensor, a number, a list, a dict) is used later by ops, conditions, trip counts or the outputs:

* ``number``: ``.item()``, ``int(...)``, ``bool(...)``, shape arithmetic, ``numel``, ``len``, then fed into an op
  (``x * n``), a ``range(n)`` of a loop, or an ``if`` on it, or left for the outputs;
* ``branch_type``: a variable whose type differs between the branches of a data-dependent ``if`` (``None`` or a
  tensor, a float or a 0-d tensor, float32 or float64), read afterwards where each type works;
* ``loop_type``: a variable whose type changes from one iteration of a tensor-conditioned ``while`` to the next
  (a float that becomes a tensor; the loop's own variable changing dtype), or a Python int counter it carries;
* ``list_loop`` / ``dict_loop``: a list or dict built in a loop (a static ``range``, a ``range(n)`` of an int from
  a tensor, a ``while`` on a tensor) by ``append``, ``pop``, ``l[i] =``, ``extend``, ``+=``, key assignment, then
  stacked and reduced, summed by iteration, measured by ``len``, or returned as it is; or a list of a length known
  before its loop, ``l = [v] * n`` written at ``l[i]`` for each ``i in range(n)`` (a fixed-size ``tf.TensorArray``
  in TensorFlow), then stacked;
* ``rows``: ``for r in x`` over a tensor's rows, a drawn body that reads ``r``, a list appended to in each
  iteration (stacked after) and now and then a Python int counting the rows.

Lists of tensors are marked ``array`` in a share of the scenes: Paddle renders those as its tensor arrays
(:func:`~conformance.program.pyops.arrays`).

Every value stays bounded (interval arithmetic, like the ops'), so programs are valid by construction.
"""

from __future__ import annotations

from typing import Optional

import hypothesis.strategies as st

from conformance.program.coverage import spread
from conformance.program.ir import (
    BOOL,
    DYNAMIC,
    FLOAT,
    INT,
    DictType,
    For,
    If,
    ListType,
    OpStmt,
    PyCond,
    PyStmt,
    TensorCond,
    TensorType,
    While,
    union,
)
from conformance.program.ops import MAX_BATCH
from conformance.program.ops.record import may_be_empty
from conformance.program.scope import Variable, join

#: The scenes, the simplest first (where shrinking goes); loops twice (they are what converters get wrong most).
SCENES = ("number", "branch_type", "loop_type", "list_loop", "dict_loop", "rows", "loop_type", "list_loop")
#: The constructs of Python values (:data:`~conformance.program.pyvalues.PY_CONSTRUCTS`) each scene exercises, most of
#: the time: a program that must not exercise one (a campaign's ``Avoid``) draws the other scenes.
SCENE_CONSTRUCTS = {"branch_type": {"type_differs_if", "none_value"}, "loop_type": {"type_change_while"},
                    "list_loop": {"list_value", "list_repeat"}, "rows": {"list_value"}, "dict_loop": {"dict_value"}}
#: How a number is used after it is made.
NUMBER_USES = ("op", "range", "if", "keep")


def _size(d) -> tuple:
    return (2, MAX_BATCH) if d == DYNAMIC else (d, d)


class PyValueDrawing:
    """The generator's Python-value statements (see the module docstring)."""

    def python_values(self, scope) -> Optional[list]:
        pre = [] if self._float_vars(scope) else self._float_source(scope)
        if not self._float_vars(scope):
            return None
        scenes = tuple(s for s in SCENES if not SCENE_CONSTRUCTS.get(s, set()) & self.left_out) or ("number",)
        return pre + getattr(self, "_scene_" + self._choose(scenes))(scope)

    def _float_source(self, scope) -> list:
        """In a program of another dtype (ints, bools, float16): ``f = tanh(x.to(float32))``, a float32 tensor in
        [-1, 1] for the scene to read."""
        names = [n for n in sorted(scope.env) if not scope.env[n].edge and not may_be_empty(scope.env[n].type)]
        if not names:
            return []
        x, f = self.draw(st.sampled_from(names)), self.fresh()
        self._tensor(scope, f, TensorType(scope.env[x].type.shape, "float32"), (-1.0, 1.0))
        return [OpStmt(f, "cast", (x,), (("dtype", "float32"),)), OpStmt(f, "tanh", (f,))]

    # ------------------------------------------------------------------ helpers
    def _choose(self, options):
        """One of ``options``, about evenly (``sampled_from`` favours the first ones; see ``op_drawing.spread``)."""
        word = st.integers(0, 2**32 - 1)
        return options[spread(self.draw(word), self.draw(word), len(options))]

    def _pick(self, scope, rank: int = 0) -> str:
        names = [n for n in self._float_vars(scope) if scope.env[n].type.rank >= rank]
        return self.draw(st.sampled_from(names or self._float_vars(scope)))

    def _tensor(self, scope, name: str, t: TensorType, iv) -> None:
        """Register a new tensor variable made here (ops may use it from now on)."""
        scope.env[name] = Variable(t, iv)
        scope.local.add(name)
        self.recent.append(name)

    def _keep(self, scope, name: str, t) -> None:
        """Register a Python value (or a variable whose type is a union) for the outputs."""
        scope.py[name] = t
        self.recent.append(name)

    @staticmethod
    def _bounded(source: str, name: str) -> OpStmt:
        """``name = tanh(source)``: a tensor of ``source``'s type in [-1, 1]."""
        return OpStmt(name, "tanh", (source,))

    def _loop_var(self) -> str:
        self.loop_counter += 1
        return f"i{self.loop_counter - 1}"

    def _counter(self) -> str:
        self.loop_counter += 1
        return f"it{self.loop_counter - 1}"

    def _body(self, scope, loop) -> tuple:
        """A scope for a loop body that assigns no outer tensor variable, and a block drawn in it."""
        inner = scope.child(limits={}, loop=loop)
        return inner, self.block(inner, 0, 1)

    # ------------------------------------------------------------------ numbers from tensors
    def _number(self, scope, kinds=("int_of", "item", "bool_of", "dim_of", "numel_of", "len_of")) -> tuple:
        """``(statement, name, type, interval)`` of a Python number made from a tensor."""
        d = self.draw
        kind = self._choose(kinds)
        x = self._pick(scope, 1 if kind in ("len_of", "dim_of") else 0)
        var = scope.env[x]
        if var.type.rank == 0 and kind in ("len_of", "dim_of"):  # only 0-d tensors here: no dims to measure
            kind = "numel_of"
        lo, hi = var.iv
        name = self.fresh()
        if kind == "int_of":
            mod = d(st.integers(2, 4))
            return PyStmt(name, kind, (x,), (("mod", mod), ("scale", d(st.sampled_from([1.0, 2.0, 4.0]))))), name, \
                INT, (0.0, mod - 1.0)
        if kind == "item":
            return PyStmt(name, kind, (x,), (("reduce", "mean"),)), name, FLOAT, (lo, hi)
        if kind == "bool_of":
            thr = round((lo + hi) / 2 + d(st.sampled_from([0.0, 0.25, -0.25])) * (hi - lo), 2)
            return PyStmt(name, kind, (x,), (("reduce", "mean"), ("thr", thr))), name, BOOL, (0.0, 1.0)
        shape = var.type.shape
        if kind == "dim_of":
            dim, k, c = d(st.integers(0, len(shape) - 1)), d(st.integers(1, 2)), d(st.integers(0, 1))
            a, b = _size(shape[dim])
            return PyStmt(name, kind, (x,), (("c", c), ("dim", dim), ("k", k))), name, INT, (a * k + c, b * k + c)
        if kind == "len_of":
            return PyStmt(name, kind, (x,)), name, INT, tuple(float(v) for v in _size(shape[0]))
        n_lo = n_hi = 1
        for dim in shape:
            a, b = _size(dim)
            n_lo, n_hi = n_lo * a, n_hi * b
        return PyStmt(name, kind, (x,)), name, INT, (float(n_lo), float(n_hi))

    def _scene_number(self, scope) -> list:
        """A number from a tensor, fed into an op, a trip count or a condition (or kept for the outputs)."""
        d = self.draw
        stmt, n, t, iv = self._number(scope)
        out = [stmt]
        self._keep(scope, n, t)
        use = self._choose(NUMBER_USES)
        if use == "op" and t != BOOL and max(abs(iv[0]), abs(iv[1])) <= 64:
            x = self._pick(scope)
            y = self.fresh()
            lo, hi = scope.env[x].iv
            corners = [a * b for a in iv for b in (lo, hi)] + [0.0]
            out.append(PyStmt(y, "scale_by", (n, x)))
            self._tensor(scope, y, scope.env[x].type, (min(corners), max(corners)))
        elif use == "range" and t == INT and 0 <= iv[0] and iv[1] <= 16:
            loop = self._loop_var()
            made = self._loop_body(scope, ("for", loop))
            if made is not None:
                out.append(For(loop, n, tuple(made[2])))
        elif use == "if":
            if t == BOOL:
                cond = PyCond(n, d(st.sampled_from(["truth", "not"])))
            else:
                mid = (iv[0] + iv[1]) / 2
                value = round(mid) + 0.5 if t == INT else round(mid, 2)  # between two ints: no tie
                cond = PyCond(n, d(st.sampled_from([">", "<"])), value)
            made = self._if(scope, cond)
            out += made or []
        return out

    # ------------------------------------------------------------------ a type that differs between branches
    def _scene_branch_type(self, scope) -> list:
        d = self.draw
        x = self._pick(scope)
        t, (lo, hi) = scope.env[x].type, scope.env[x].iv
        kind = self._choose(["none", "float", "dtype"])
        v = self.fresh()
        if d(st.booleans()):
            cond = self.tensor_cond(scope)
            pre = []
        else:  # an if on a Python number from a tensor
            stmt, n, nt, iv = self._number(scope, ("item", "int_of", "bool_of"))
            pre = [stmt]
            self._keep(scope, n, nt)
            cond = PyCond(n, "truth") if nt == BOOL else \
                PyCond(n, ">", round((iv[0] + iv[1]) / 2) + 0.5 if nt == INT else round((iv[0] + iv[1]) / 2, 2))
        then_s, else_s = scope.child(), scope.child()
        then, orelse = self.block(then_s, 0, 1), self.block(else_s, 0, 1)
        for name, var in scope.env.items():
            var.iv = join(then_s.env[name].iv, else_s.env[name].iv)
        y = self.fresh()
        if kind == "none":  # v = None; if c: v = tanh(x); y = x if v is None else v
            pre.append(PyStmt(v, "none", ()))
            then.append(self._bounded(x, v))
            after = [PyStmt(y, "or_else", (v, x))]
            self._tensor(scope, y, t, (min(lo, -1.0), max(hi, 1.0)))
        elif kind == "float":  # a = 0.0; if c: a = a + x.mean(); y = a + x.mean(): a float or a 0-d tensor
            pre.append(PyStmt(v, "const", (), (("value", 0.0),)))
            then.append(PyStmt(v, "acc_add", (v, x)))
            after = [PyStmt(y, "acc_add", (v, x))]
            self._keep(scope, v, union(FLOAT, TensorType((), t.dtype)))
            self._tensor(scope, y, TensorType((), t.dtype), (min(lo, 0.0) + lo, max(hi, 0.0) + hi))
        else:  # w = tanh(x); if c: w = w.to(float64); y = w.to(float32)
            pre.append(self._bounded(x, v))
            then.append(OpStmt(v, "cast", (v,), (("dtype", "float64"),)))
            after = [OpStmt(y, "cast", (v,), (("dtype", "float32"),))]
            self._keep(scope, v, union(t, TensorType(t.shape, "float64")))
            self._tensor(scope, y, t, (-1.0, 1.0))
        return pre + [If(cond, tuple(then), tuple(orelse))] + after

    # ------------------------------------------------------------------ a type that changes across iterations
    def _scene_loop_type(self, scope) -> list:
        d = self.draw
        x = self._pick(scope)
        t = scope.env[x].type
        w, y = self.fresh(), self.fresh()
        cond = TensorCond(w, "mean", d(st.sampled_from([">", "<"])), d(st.sampled_from([0.0, 0.25, -0.25])))
        inner, block = self._body(scope, ("while", None))
        pre = [self._bounded(x, w)]
        kind = self._choose(["float", "dtype", "count"])
        if kind == "count":  # n = 0; while ...: n = n + 1: a Python int carried through the loop
            n = self.fresh()
            pre.append(PyStmt(n, "const", (), (("value", 0),)))
            body = block + [PyStmt(n, "add_const", (n,), (("c", 1),)), OpStmt(w, "sigmoid", (w,))]
            self._keep(scope, n, INT)
            self._tensor(scope, y, t, (-4.0, 4.0))
            return pre + [While(cond, d(st.integers(1, 4)), self._counter(), tuple(body)),
                          PyStmt(y, "scale_by", (n, w))]
        if kind == "float":  # acc = 0.0; while ...: acc = acc + w.mean(); w = sigmoid(w)
            acc = self.fresh()
            pre.append(PyStmt(acc, "const", (), (("value", 0.0),)))
            body = block + [PyStmt(acc, "acc_add", (acc, w)), OpStmt(w, "sigmoid", (w,))]
            after = [PyStmt(y, "acc_add", (acc, w))]
            self._keep(scope, acc, union(FLOAT, TensorType((), t.dtype)))
            self._tensor(scope, y, TensorType((), t.dtype), (-1.0 - 4.0, 1.0 + 4.0))
        else:  # the loop's own variable changes dtype: w = tanh(w.to(float64))
            body = block + [OpStmt(w, "cast", (w,), (("dtype", "float64"),)), OpStmt(w, "sigmoid", (w,))]
            after = [OpStmt(y, "cast", (w,), (("dtype", "float32"),))]
            self._keep(scope, w, union(t, TensorType(t.shape, "float64")))
            self._tensor(scope, y, t, (-1.0, 1.0))
        return pre + [While(cond, d(st.integers(1, 4)), self._counter(), tuple(body))] + after

    # ------------------------------------------------------------------ lists and dicts built in loops
    def _loop(self, scope, body_of) -> list:
        """A loop of a kind drawn here (a static ``range``, a ``range(n)`` of an int from a tensor, a ``while`` on a
        tensor) around ``body_of(inner scope, loop variable or None, source)``; ``source`` is a tensor in [-1, 1]
        the body may read (the ``while``'s own variable). Returns the statements before and the loop."""
        d = self.draw
        kind = self._choose(["for_data", "while", "for_const", "while"])
        x = self._pick(scope)
        src = self.fresh()
        pre = [self._bounded(x, src)]
        if kind == "while":
            inner, block = self._body(scope, ("while", None))
            inner.env[src] = Variable(scope.env[x].type, (-1.0, 1.0))
            body = block + body_of(inner, None, src) + [OpStmt(src, "sigmoid", (src,))]
            cond = TensorCond(src, "mean", d(st.sampled_from([">", "<"])), d(st.sampled_from([0.0, 0.25, 0.5])))
            return pre + [While(cond, d(st.integers(1, 4)), self._counter(), tuple(body))]
        var = self._loop_var()
        if kind == "for_data":
            stmt, count, t, iv = self._number(scope, ("int_of",))
            pre.append(stmt)
        else:
            count = d(st.integers(1, 3))
        inner, block = self._body(scope, ("for", var))
        inner.env[src] = Variable(scope.env[x].type, (-1.0, 1.0))
        return pre + [For(var, count, tuple(block + body_of(inner, var, src)))]

    def _array(self) -> tuple:
        """The attribute that makes a list of tensors Paddle's tensor array, in half of the lists."""
        return (("array", True),) if self.draw(st.booleans()) else ()

    def _scene_list_loop(self, scope) -> list:
        d = self.draw
        x = self._pick(scope)
        t = scope.env[x].type
        if self._choose(["grow", "grow", "grow", "fill"]) == "fill":
            return self._fill_loop(scope, x, t)
        lst, first = self.fresh(), self.fresh()
        numbers = d(st.integers(0, 3)) == 0  # a list of Python floats now and then
        if numbers:
            pre = [PyStmt(first, "item", (x,), (("reduce", "mean"),))]
            item = FLOAT
        else:
            pre = [self._bounded(x, first)]
            item = t
        if d(st.booleans()):
            pre.append(PyStmt(lst, "list_of", (first,)))
        else:
            pre += [PyStmt(lst, "list_new", (), (() if numbers else self._array()) +
                           (("of", "float" if numbers else "tensor"),)), PyStmt(lst, "append", (lst, first))]
        change = self._choose(["append", "pop", "setitem", "extend", "iadd"])

        def body_of(inner, var, src):
            if src not in inner.env or inner.env[src].type != t:
                src = x  # the loop's own tensor has another type: read the list's source
            p, q = self.fresh(), self.fresh()
            make = PyStmt(p, "item", (src,), (("reduce", "mean"),)) if numbers else OpStmt(p, "tanh", (src,))
            stmts = [make, PyStmt(lst, "append", (lst, p))]
            if change == "pop":
                stmts += [PyStmt(lst, "append", (lst, first)), PyStmt(q, "pop", (lst,))]
            elif change == "setitem":
                stmts.append(PyStmt(lst, "setitem", (lst, p), (("index", 0),)))
            elif change in ("extend", "iadd"):
                stmts += [PyStmt(q, "list_of", (p,)), PyStmt(lst, change, (lst, q))]
            return stmts

        out = pre + self._loop(scope, body_of)
        finish = self._choose(["reduce", "len", "sum", "keep"])
        y = self.fresh()
        if finish == "reduce" and not numbers:
            out.append(PyStmt(y, "stack_reduce", (lst,), (("reduce", d(st.sampled_from(["mean", "sum"]))),)))
            self._tensor(scope, y, t, (-16.0, 16.0))
        elif finish == "len":
            out.append(PyStmt(y, "len_of", (lst,)))
            self._keep(scope, y, INT)
        elif finish == "sum":
            out.append(PyStmt(y, "list_sum", (lst, first)))
            if numbers:
                self._keep(scope, y, FLOAT)
            else:
                self._tensor(scope, y, t, (-32.0, 32.0))
        self._keep(scope, lst, ListType(item))
        return out

    def _fill_loop(self, scope, x: str, t: TensorType) -> list:
        """``n`` (a size of ``x``, or a constant); ``l = [v] * n``; ``for i in range(n): <block>; l[i] = tanh(.) * i``,
        now and then read back (``acc = acc + l[i].mean()``); then stacked and reduced."""
        d = self.draw
        lst, first, n, acc, y = (self.fresh() for _ in range(5))
        if t.rank and d(st.booleans()):
            dim = d(st.integers(0, t.rank - 1))
            count, most = PyStmt(n, "dim_of", (x,), (("c", 0), ("dim", dim), ("k", 1))), _size(t.shape[dim])[1]
        else:
            most = d(st.integers(1, 3))
            count = PyStmt(n, "const", (), (("value", most),))
        read = d(st.booleans())
        out = [self._bounded(x, first), count, PyStmt(lst, "list_fill", (first, n), self._array())]
        out += [PyStmt(acc, "const", (), (("value", 0.0),))] if read else []
        var = self._loop_var()
        inner, block = self._body(scope, ("for", var))
        src = d(st.sampled_from(sorted(v for v in inner.env if inner.env[v].type == t and not inner.env[v].edge)))
        p, q, g = self.fresh(), self.fresh(), self.fresh()
        body = block + [OpStmt(q, "tanh", (src,)), PyStmt(p, "scale_by", (var, q)),
                        PyStmt(lst, "setitem_at", (lst, var, p))]
        if read:
            body += [PyStmt(g, "getitem_at", (lst, var)), PyStmt(acc, "acc_add", (acc, g))]
            self._keep(scope, acc, union(FLOAT, TensorType((), t.dtype)))
        out += [For(var, n, tuple(body)),
                PyStmt(y, "stack_reduce", (lst,), (("reduce", d(st.sampled_from(["mean", "sum"]))),))]
        self._keep(scope, n, INT)
        self._tensor(scope, y, t, (-float(most * most), float(most * most)))
        return out

    def _scene_rows(self, scope) -> list:
        """``for r in x``: a drawn body that reads the row ``r``, appends ``tanh`` of a row-shaped value to a list
        (stacked and reduced after the loop) and, now and then, counts the rows in a Python int."""
        d = self.draw
        x = self._pick(scope, 1)
        t = scope.env[x].type
        if t.rank < 1:
            return self._scene_number(scope)
        self.loop_counter += 1
        r, row = f"r{self.loop_counter - 1}", TensorType(t.shape[1:], t.dtype)
        lst, n, p, y = (self.fresh() for _ in range(4))
        count = d(st.booleans())
        out = [PyStmt(lst, "list_new", (), self._array() + (("of", "tensor"),))]
        out += [PyStmt(n, "const", (), (("value", 0),))] if count else []
        inner = scope.child(limits={}, loop=("for", r))
        inner.env[r] = Variable(row, scope.env[x].iv)
        block = self.block(inner, 0, 2)
        src = d(st.sampled_from([r] + sorted(v for v in inner.local if inner.env[v].type == row)))
        body = block + [OpStmt(p, "tanh", (src,)), PyStmt(lst, "append", (lst, p))]
        body += [PyStmt(n, "add_const", (n,), (("c", 1),))] if count else []
        out += [For(r, x, tuple(body), rows=True),
                PyStmt(y, "stack_reduce", (lst,), (("reduce", d(st.sampled_from(["mean", "sum"]))),))]
        size = float(_size(t.shape[0])[1])
        self._tensor(scope, y, row, (-size, size))
        if count:
            self._keep(scope, n, INT)
        self._keep(scope, lst, ListType(row))
        return out

    def _scene_dict_loop(self, scope) -> list:
        x = self._pick(scope)
        t = scope.env[x].type
        dct, first = self.fresh(), self.fresh()
        pre = [self._bounded(x, first), PyStmt(dct, "dict_new", (), (("of", "tensor"),)),
               PyStmt(dct, "dict_set", (dct, first), (("key", "z"),))]  # inserted first, sorted last

        def body_of(inner, var, src):
            if src not in inner.env or inner.env[src].type != t:
                src = x  # the loop's own tensor has another type: read the list's source
            p = self.fresh()
            if var is None:  # a while: no index for a key of its own
                return [OpStmt(p, "tanh", (src,)), PyStmt(dct, "dict_set", (dct, p), (("key", "a"),))]
            return [OpStmt(p, "tanh", (src,)), PyStmt(dct, "dict_set_at", (dct, var, p))]

        out = pre + self._loop(scope, body_of)
        y = self.fresh()
        finish = self._choose(["sum", "get", "len", "keep"])
        if finish == "sum":
            out.append(PyStmt(y, "dict_sum", (dct, first)))
            self._tensor(scope, y, t, (-8.0, 8.0))
        elif finish == "get":
            out.append(PyStmt(y, "dict_get", (dct,), (("key", "z"),)))
            self._tensor(scope, y, t, (-1.0, 1.0))
        elif finish == "len":
            out.append(PyStmt(y, "len_of", (dct,)))
            self._keep(scope, y, INT)
        self._keep(scope, dct, DictType(t))
        return out

    # ------------------------------------------------------------------ outputs
    def python_outputs(self, scope) -> list:
        """Python values that may be returned: numbers, bools, lists and dicts (of one type on every path, or a
        float-or-tensor union), most recent first."""
        last = {n: i for i, n in enumerate(self.recent)}
        return sorted(scope.py, key=lambda n: last.get(n, -1), reverse=True)
