"""A gradient where eager has none: the code eager does not run that uses the input (or weight).

In the ``grad`` and ``train`` modes a path that builds a graph (``tf.function``, a TF1 session, AOTAutograd,
Paddle's static programs, TorchScript) holds both branches of an ``if``, every loop body and every early
``return``; an input or weight that only code eager does not run reads gets a zero gradient there, and None in
eager. Truncating the program leaves that code out (the truncated programs drop early returns, and cut what
comes after), so where the whole truncated program no longer shows such a gradient, :func:`untaken_use` names
that code instead, from eager's path (the cuts it reaches) and the program: the first statement eager does not
run that reads the input, or a value eager's path computes from it.
"""

from __future__ import annotations

import re
from typing import Optional

from conformance.program.flow import executed, locations, statement_text
from conformance.program.ir import Get, Grow, If, OpStmt, Return, ShapeCond, TensorCond, While, out_leaves

_GRADIENT = re.compile(r"^\['(input|param)_grads'\]\['([^']+)'\]")


def _reads(s) -> set:
    found = set()
    if isinstance(s, OpStmt):
        found.update(s.args)
    elif isinstance(s, Grow):
        found.update((s.init, s.piece))
    elif isinstance(s, Return):
        found.update(out_leaves(s.value))
    if isinstance(s, (If, While)) and isinstance(s.cond, (TensorCond, ShapeCond)):
        found.add(s.cond.var)
    return found


def untaken_use(program, reached: list, leaf_path: str) -> Optional[tuple]:
    """For a failing leaf ``['input_grads']['x1.0']`` or ``['param_grads']['p3']`` (a gradient where eager has
    none): ``(location, statement, what)`` of the first statement eager does not run that reads the input or
    weight, or a value eager's path computes from it (the model's final ``return``, at location
    ``(len(body),)``, where eager returns early); None where there is none."""
    m = _GRADIENT.match(leaf_path or "")
    if not m:
        return None
    kind, name = m.groups()
    ran = executed(reached)
    tainted: set = set()  # variables eager's path computes from the input or weight
    for loc, s in locations(program.body):
        runs = loc in ran
        if isinstance(s, Get):
            reads = kind == "input" and s.source + "".join(f".{step}" for step in s.path) == name
        else:
            reads = bool(_reads(s) & tainted) or (kind == "param" and isinstance(s, OpStmt) and name in s.params)
        if not reads:
            continue
        if not runs:
            return loc, s, f"{'input' if kind == 'input' else 'weight'} {name}"
        if isinstance(s, (Get, OpStmt, Grow)):
            tainted.add(s.out)
    end = (len(program.body),)
    if end not in ran and set(out_leaves(program.output)) & tainted:  # eager returned early
        return end, Return(program.output), f"{'input' if kind == 'input' else 'weight'} {name}"
    return None


def describe_untaken(program, loc, s, what: str) -> str:
    return (f"the gradient of {what} comes from code eager does not run: `{statement_text(s)}` is the first "
            f"statement there that reads it (or a value made from it); the converted model accounts for that code "
            f"(a graph holds the branch, loop body or early return eager skips, or a compiled graph keeps a value "
            f"for it past a graph break), which gives a zero gradient where eager has none")
