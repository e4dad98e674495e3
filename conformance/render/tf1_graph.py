"""``build_graph``: a program as a TensorFlow 1 graph, with the functional control flow (``tf.cond``,
``tf.while_loop``) TF1 users wrote by hand, for the ``tf.session`` path (see :class:`GraphWriter`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from conformance.program.ir import (
    DYNAMIC,
    Break,
    Continue,
    For,
    Get,
    Grow,
    If,
    LoopVarCond,
    OpStmt,
    PyCond,
    PyStmt,
    Return,
    ShapeCond,
    TensorCond,
    While,
    out_leaves,
    walk,
)
from conformance.program.ops import OPS
from conformance.program.program import Program
from conformance.program.typecheck import TypeChecker
from conformance.render.dialects import Dialect
from conformance.render.model_writer import ModelWriter, annotation


def _reads(stmts) -> set:
    """The variables that statements read, anywhere inside them (a conservative liveness: read later is live)."""
    found: set = set()
    for s in walk(stmts):
        if isinstance(s, OpStmt):
            found.update(s.args)
        elif isinstance(s, Grow):
            found.update((s.init, s.piece))
        elif isinstance(s, Return):
            found.update(out_leaves(s.value))
        if isinstance(s, (If, While)) and isinstance(s.cond, (TensorCond, ShapeCond)):
            found.add(s.cond.var)
    return found


def _assigns(stmts) -> set:
    """The variables that statements assign, anywhere inside them."""
    return {s.out for s in walk(stmts) if isinstance(s, (Get, OpStmt, Grow))}


class _Unsupported(Exception):
    """A construct ``build_graph`` does not express: the module's ``build_graph`` raises with this reason."""


def python_values(program: Program) -> None:
    """Python values (numbers from tensors, lists, dicts, ``None``, a variable that changes type, a ``for`` over a
    tensor's rows) are Python-level code of TF2 eager: a TF1 graph has tensors only, and a list grown in a
    ``tf.while_loop`` is a TensorArray threaded through the loop by hand. ``build_graph`` declines such a program
    (raises :class:`_Unsupported`)."""
    for s in walk(program.body):
        if isinstance(s, PyStmt) or isinstance(getattr(s, "cond", None), PyCond) or \
                (isinstance(s, For) and isinstance(s.count, str) and s.count not in {k.name for k in program.kwargs}):
            raise _Unsupported("Python values (numbers from tensors, lists, dicts, None, variables that change "
                               "type, a for over the rows of a tensor) are Python-level code of TF2 eager, not "
                               "expressed in this TF1 graph")


@dataclass(frozen=True)
class _Loop:
    """A loop being rendered: a Python ``for`` unrolled when the graph is built (``graph`` False), or a
    ``tf.while_loop`` whose loop variables are the int32 counter ``var``, the ``carried`` tensors and, with
    ``flag``, the bool ``_broke`` that a ``break`` sets."""

    graph: bool
    var: str
    carried: tuple = ()
    flag: bool = False
    next_counter: str = ""  # the counter where an iteration ends

    def variables(self) -> str:
        return ", ".join([self.var, *self.carried] + (["_broke"] if self.flag else []))

    def end(self, broke: bool = False) -> str:
        """The body's ``return`` where an iteration ends (after a ``break`` with ``broke``)."""
        flag = [f"tf.constant({broke})"] if self.flag else []
        return "return " + ", ".join([self.next_counter, *self.carried] + flag)


class GraphWriter(ModelWriter):
    """``build_graph(model, *inputs, **kwargs)``: the program as a TensorFlow 1 graph, built on placeholders.

    Control flow is written the way TF1 users wrote it by hand. A decision known when the graph is built (a
    keyword argument, a static dim, the index of a Python loop) is a Python ``if``, and a ``for`` over
    ``range`` is a Python loop, unrolled. A decision on a tensor is ``tf.cond``, its branches functions that
    take and return the variables they assign (those used later); a ``while`` on a tensor is ``tf.while_loop``
    with an int32 counter for its bound, the variables it assigns (those used later) as loop variables, and
    ``shape_invariants`` for a tensor that grows. ``break`` and ``continue`` under a tensor condition are
    expressed as AutoGraph does: the loop becomes a ``tf.while_loop`` (a ``for`` too), a ``break`` sets a
    ``_broke`` flag among the loop variables that its condition reads, and the rest of the body after such an
    ``if`` becomes a function (a continuation) its branches call where they do not leave the iteration. An
    early ``return`` under a tensor condition puts the rest of the model into a continuation the same way, so
    ``tf.cond`` returns the model's outputs. A ``return`` inside a loop that runs as a ``tf.while_loop`` is not
    expressed: that ``build_graph`` raises ``NotImplementedError`` with the reason.
    """

    def __init__(self, program: Program, d: Dialect, float_dtype: str):
        super().__init__(program, d, False, float_dtype)
        self.owner = "model"
        self.checker = TypeChecker(program)
        self.env: dict = {}  # the variables defined here, with their types
        self.loops: list[_Loop] = []  # the loops around here, innermost last
        self.n_functions = 0

    def source(self) -> str:
        p, d = self.p, self.d
        args = ["model"] + [f"{i.name}: {annotation(i.spec, d)}" for i in p.inputs]
        args += [f"{k.name}: {k.type} = {k.default!r}" for k in p.kwargs]
        head = ["", f"def build_graph({', '.join(args)}):",
                '    """This model as a TensorFlow 1 graph (what conformance\'s tf.session path runs): call it on',
                "    tf.compat.v1.placeholders in a tf.Graph, with a Model made in that graph (its tf.Variables), "
                "and run",
                "    the outputs in a tf.compat.v1.Session. Control flow on tensors is tf.cond and tf.while_loop; "
                "Python",
                '    if and for only where the decision is known when the graph is built."""']
        try:
            python_values(p)
            self.seq(p.body, 1, set(out_leaves(p.output)), f"return {self.out(p.output)}")
        except _Unsupported as e:
            self.lines = ["    raise NotImplementedError(" + repr(f"build_graph: {e}") + ")"]
        return "\n".join(head + self.lines) + "\n"

    def function_name(self, prefix: str) -> str:
        self.n_functions += 1
        return f"{prefix}_{self.n_functions}"

    def tensor_cond(self, c) -> bool:
        """Whether ``c`` is decided by a tensor when the graph runs, rather than in Python when it is built
        (a shape test on a variable not defined here yet counts as a tensor one: where this decides how
        control flow is expressed, that is always correct)."""
        if isinstance(c, ShapeCond):
            return c.var not in self.env or self.env[c.var].shape[c.dim] == DYNAMIC
        if isinstance(c, LoopVarCond):
            return any(loop.graph and loop.var == c.var for loop in self.loops)
        return isinstance(c, TensorCond)

    def cond(self, c) -> str:
        if isinstance(c, ShapeCond) and not self.tensor_cond(c):
            return f"{c.var}.shape[{c.dim}] {c.cmp} {c.value!r}"
        if isinstance(c, (ShapeCond, LoopVarCond)) and self.tensor_cond(c):
            lhs = f"tf.shape({c.var})[{c.dim}]" if isinstance(c, ShapeCond) else c.var
            # (Tensor == is Python identity in a TF1 graph)
            return f"tf.equal({lhs}, {c.value!r})" if c.cmp == "==" else f"{lhs} {c.cmp} {c.value!r}"
        return super().cond(c)

    def escapes(self, stmts, under: bool = False, depth: int = 0) -> set:
        """``(kind, under a tensor condition)`` of the ``break``, ``continue`` and ``return`` statements that leave
        ``stmts`` (a ``break`` or ``continue`` inside a loop of their own stays in it)."""
        found = set()
        for s in stmts:
            if isinstance(s, (Break, Continue)) and depth == 0:
                found.add((type(s).__name__.lower(), under))
            elif isinstance(s, Return):
                found.add(("return", under))
            elif isinstance(s, If):
                inner = under or self.tensor_cond(s.cond)
                found |= self.escapes(s.then, inner, depth) | self.escapes(s.orelse, inner, depth)
            elif isinstance(s, (While, For)):
                found |= self.escapes(s.body, under, depth + 1)
        return found

    def seq(self, stmts, depth: int, after: set, tail: Optional[str] = None) -> None:
        """Emit a block; ``after``: the variables read after it; ``tail``: the ``return`` that ends the function
        it is the rest of (None: the block falls through into the code around it)."""
        start, saved = len(self.lines), dict(self.env)
        for i, s in enumerate(stmts):
            live = _reads(stmts[i + 1:]) | after
            if isinstance(s, If) and any(under for _, under in self.escapes([s])):
                self.split(s, stmts[i + 1:], depth, live, after, tail)
                break
            self.statement(s, depth, live)
            if isinstance(s, (Break, Continue, Return)):
                break  # what follows is never reached
        else:
            if tail:
                self.emit(depth, tail)
        if all(line.lstrip().startswith("#") for line in self.lines[start:]):
            self.emit(depth, "pass")
        self.env = saved

    def function(self, prefix: str, params: list, body, depth: int, after: set, tail: str) -> str:
        name = self.function_name(prefix)
        self.emit(depth, f"def {name}({', '.join(params)}):")
        self.seq(body, depth + 1, after, tail)
        return name

    def branches(self, s: If, params: list, depth: int, after: set, tail: str) -> str:
        """Define the two branches of a ``tf.cond`` on ``s``; the call."""
        names = [self.function(prefix, params, body, depth, after, tail)
                 for prefix, body in (("_then", s.then), ("_else", s.orelse))]
        call = [f"lambda: {n}({', '.join(params)})" if params else n for n in names]
        return f"tf.cond({self.cond(s.cond)}, {call[0]}, {call[1]})"

    def split(self, s: If, rest, depth: int, live: set, after: set, tail: Optional[str]) -> None:
        """An ``if`` that leaves the loop iteration or the model under a tensor condition: ``rest`` becomes a
        continuation that the branches call where they fall through, and the function returns what they return."""
        assert tail is not None, "a break, continue or return under a tensor condition outside a function frame"
        if rest:
            params = [v for v in self.env if v in live and v in _assigns([s, *rest])]
            name = self.function("_rest", params, rest, depth, after, tail)
            tail = f"return {name}({', '.join(params)})"
        if self.tensor_cond(s.cond):
            params = [v for v in self.env if v in _assigns(s.then + s.orelse)]
            self.emit(depth, "return " + self.branches(s, params, depth, live, tail))
            return
        self.emit(depth, f"if {self.cond(s.cond)}:")
        self.seq(s.then, depth + 1, live, tail)
        self.emit(depth, "else:")
        self.seq(s.orelse, depth + 1, live, tail)

    def statement(self, s, depth: int, live: set) -> None:
        if isinstance(s, OpStmt) and OPS[s.op].statement:
            raise _Unsupported(f"{s.op} is Python-level code of TF2 eager (state, Python values, helper functions), "
                               f"not expressed in this TF1 graph")
        if isinstance(s, (Get, OpStmt)) or (isinstance(s, Grow) and s.cond is None):
            super().stmt(s, depth)
            self.checker.stmt(s, self.env, (), "build_graph")
        elif isinstance(s, Grow):
            self.grow(s, depth)
            self.checker.stmt(s, self.env, (), "build_graph")
        elif isinstance(s, If) and self.tensor_cond(s.cond):
            params = [v for v in self.env if v in _assigns(s.then + s.orelse)]
            results = [v for v in params if v in live]
            if not results:
                self.emit(depth, f"# (an if on {self.cond(s.cond)} assigns nothing used after it: no tf.cond)")
                return
            call = self.branches(s, params, depth, live, f"return {', '.join(results)}")
            self.emit(depth, f"{', '.join(results)} = {call}")
        elif isinstance(s, If):
            self.emit(depth, f"if {self.cond(s.cond)}:")
            self.seq(s.then, depth + 1, live)
            if s.orelse:
                self.emit(depth, "else:")
                self.seq(s.orelse, depth + 1, live)
        elif isinstance(s, (While, For)):
            self.loop(s, depth, live)
        elif isinstance(s, (Break, Continue)):
            loop = self.loops[-1]
            self.emit(depth, loop.end(isinstance(s, Break)) if loop.graph else type(s).__name__.lower())
        elif isinstance(s, Return):
            if any(loop.graph for loop in self.loops):
                raise _Unsupported("a return inside a loop that runs as a tf.while_loop (a while on a tensor, or a "
                                   "for with a break, continue or return under a tensor condition) is not expressed "
                                   "in this TF1 graph")
            self.emit(depth, f"return {self.out(s.value)}")

    def loop(self, s, depth: int, live: set) -> None:
        after = live | _reads([s])  # what a loop variable may be read by: the code after, or the next iteration
        if isinstance(s, For) and not any(under for _, under in self.escapes(s.body)):
            self.loops.append(_Loop(False, s.var))
            self.emit(depth, f"for {s.var} in range({s.count}):")
            self.seq(s.body, depth + 1, after)
            self.loops.pop()
            return
        carried = tuple(v for v in self.env if v in _assigns(s.body) and v in after)
        if not carried:
            self.emit(depth, "# (a loop that assigns nothing used after it: no tf.while_loop)")
            return
        flag = any(kind == "break" for kind, _ in self.escapes(s.body))
        if isinstance(s, For):
            loop = _Loop(True, s.var, carried, flag, f"{s.var} + 1")
            test, first = f"{s.var} < {s.count}", []
        else:
            loop = _Loop(True, s.counter, carried, flag, s.counter)
            test = f"tf.logical_and({s.counter} < {s.max_iter}, {self.cond(s.cond)})"
            first = [(s.counter, f"{s.counter} + 1")]
        if flag:
            test = f"tf.logical_and(tf.logical_not(_broke), {test})"
        self.loops.append(loop)
        self.while_loop(loop, test, first, s.body, after, depth, [*carried, *(["tf.constant(False)"] if flag else [])])
        self.loops.pop()

    def while_loop(self, loop: _Loop, test: str, first: list, body, after: set, depth: int, inits: list,
                   invariants: str = "") -> None:
        """``tf.while_loop`` over ``loop``'s variables (the counter starts at 0); ``first``: ``(variable, value)``
        assignments that start each iteration."""
        variables = loop.variables()
        name = self.function_name("_cond")
        self.emit(depth, f"def {name}({variables}):")
        self.emit(depth + 1, f"return {test}")
        body_name = self.function_name("_body")
        self.emit(depth, f"def {body_name}({variables}):")
        for var, value in first:
            self.emit(depth + 1, f"{var} = {value}")
        self.seq(body, depth + 1, after, loop.end())
        self.emit(depth, f"{variables} = tf.while_loop({name}, {body_name}, ({', '.join(['tf.constant(0)', *inits])})"
                         f"{invariants})")

    def grow(self, s: Grow, depth: int) -> None:
        """A grow loop on a tensor condition: a ``tf.while_loop`` whose shape invariant lets the tensor grow."""
        shape = [None if i == s.dim or not isinstance(n, int) else n for i, n in enumerate(self.env[s.init].shape)]
        loop = _Loop(True, s.counter, (s.out,), False, s.counter)
        test = f"tf.logical_and({s.counter} < {s.count}, {self.cond(s.cond)})"
        concat = self.op_expr(OpStmt(s.out, "concat", (s.out, s.piece), (("dim", s.dim),)))
        self.while_loop(loop, test, [(s.counter, f"{s.counter} + 1"), (s.out, concat)], (), set(), depth, [s.init],
                        f", shape_invariants=(tf.TensorShape([]), tf.TensorShape({shape!r}))")
        reduced = OpStmt(s.out, s.reduce, (s.out,), (("dim", s.dim), ("keepdim", True)))
        self.emit(depth, f"{s.out} = " + self.op_expr(reduced))
