"""Where each statement of a program sits in its rendered model file.

The clean rendering (:func:`~conformance.render.source.render`) writes ``forward`` statement by statement,
depth first, one line per simple statement, so the statements are found in order from the ``def`` of the
model's method: an op or input read by ``<out> = `` (a Python-value statement by its variable's name), an ``if``
by ``if ``, a ``while`` by its ``while`` line, a ``for`` by ``for <var> in ``, a grow loop by
``<out> = <init>`` (it is named by the line of its loop; the reduction after the loop ends it).
"""

from __future__ import annotations

from conformance.program.flow import locations
from conformance.program.ir import Break, Continue, For, Get, Grow, If, OpStmt, PyStmt, Return, While
from conformance.program.program import Program
from conformance.render.source import DIALECTS, render


def _starts(s):
    if isinstance(s, PyStmt):  # ``v3 = ``, ``v3: List[int] = ``, ``v3.append(``, ``v3[0] = ``, ``v3 += ``
        return tuple(s.out + c for c in " :.[")
    if isinstance(s, (Get, OpStmt)):
        return f"{s.out} = "
    if isinstance(s, Grow):
        return f"{s.out} = {s.init}"
    if isinstance(s, If):
        return "if "
    if isinstance(s, While):
        return f"while {s.counter} < "
    if isinstance(s, For):
        return f"for {s.var} in "
    if isinstance(s, Return):
        return "return"
    if isinstance(s, Break):
        return "break"
    if isinstance(s, Continue):
        return "continue"
    raise TypeError(s)


def _method_index(lines: list, framework: str):
    """The index of the line that defines the model's method (``def forward(``), or None."""
    method = f"    def {DIALECTS[framework].method}("
    return next((i for i, line in enumerate(lines) if line.startswith(method)), None)


def method_line(program: Program, framework: str, source: str = "") -> tuple:
    """``(line number, line text)`` of the model's method definition (``def forward(self, x0, ...)``: the inputs
    the model takes)."""
    lines = (source or render(program, framework)).splitlines()
    at = _method_index(lines, framework)
    return (at + 1, lines[at].strip()) if at is not None else (None, "")


def output_line(program: Program, framework: str, source: str = "") -> tuple:
    """``(line number, line text)`` of the model's final ``return`` (of ``program.output``)."""
    lines = (source or render(program, framework)).splitlines()
    at = _method_index(lines, framework)
    if at is None:
        return None, ""
    end = next((i for i in range(at + 1, len(lines)) if lines[i] and not lines[i].startswith("    ")), len(lines))
    hit = next((i for i in range(end - 1, at, -1) if lines[i].startswith("        return ")), None)
    return (hit + 1, lines[hit].strip()) if hit is not None else (None, "")


def statement_lines(program: Program, framework: str, source: str = "") -> dict:
    """``{location: (line number, line text)}`` of every statement in the clean rendering of ``program`` for
    ``framework`` (``source``: that rendering, if already made). Line numbers count from 1."""
    lines = (source or render(program, framework)).splitlines()
    at = _method_index(lines, framework)
    found: dict = {}
    if at is None:
        return found
    for loc, s in locations(program.body):
        want = _starts(s)
        hit = next((i for i in range(at + 1, len(lines)) if lines[i].strip().startswith(want)), None)
        if hit is None:
            return found
        found[loc] = (hit + 1, lines[hit].strip())
        at = hit
        if isinstance(s, Grow):  # named by its loop's line; the reduction after it, at the grow's indentation, ends it
            indent = len(lines[hit]) - len(lines[hit].lstrip())
            loop = next(i for i in range(hit + 1, len(lines)) if lines[i].lstrip().startswith(("for ", "while ")))
            found[loc] = (loop + 1, lines[loop].strip())
            at = next((i for i in range(loop + 1, len(lines)) if len(lines[i]) - len(lines[i].lstrip()) == indent),
                      loop)
    return found
