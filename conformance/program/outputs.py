"""Rewriting a drawn program's outputs: every input made to reach one, a value's variables renamed."""

from __future__ import annotations

import dataclasses

from conformance.program.ir import For, Get, If, OpStmt, OutDict, OutSeq, OutVar, Return, While, spec_leaves
from conformance.program.program import Program


def use_every_input(g, inputs: tuple, body: list, output):
    """Make every input tensor reach an output: each one no output depends on is returned as
    ``tanh(x)`` (a cast to float32 where it is not float32, to float64 where it carries edge values, which tanh does
    not take) beside the outputs (and beside the values of early returns). ``g``: the generator drawing the program
    (its ``fresh`` names and ``kwargs``). Returns (body, output)."""
    unused = set(Program(0, inputs, tuple(g.kwargs), (), tuple(body), output).unused_inputs())
    if not unused:
        return body, output
    n_gets = next((i for i, s in enumerate(body) if not isinstance(s, Get)), len(body))
    leaves = {(i.name, path): leaf for i in inputs for path, leaf in spec_leaves(i.spec)}
    added = []
    for get in body[:n_gets]:
        if get.source + "".join(f".{step}" for step in get.path) in unused:
            leaf = leaves[(get.source, tuple(get.path))]
            if leaf.dtype != "float32":
                added.append(OpStmt(g.fresh(), "cast", (get.out,), (("dtype", "float32"),)))
            elif leaf.edge:
                added.append(OpStmt(g.fresh(), "cast", (get.out,), (("dtype", "float64"),)))
            else:
                added.append(OpStmt(g.fresh(), "tanh", (get.out,)))
    extras = tuple(OutVar(s.out) for s in added)

    def widen(out):
        items = out.items if isinstance(out, OutSeq) and out.kind == "tuple" else (out,)
        return OutSeq("tuple", items + extras)

    def rewrite(stmts):
        new = []
        for s in stmts:
            if isinstance(s, Return):
                s = Return(widen(s.value))
            elif isinstance(s, If):
                s = If(s.cond, tuple(rewrite(s.then)), tuple(rewrite(s.orelse)))
            elif isinstance(s, (While, For)):
                s = dataclasses.replace(s, body=tuple(rewrite(s.body)))
            new.append(s)
        return new

    return body[:n_gets] + added + rewrite(body[n_gets:]), widen(output)


def replace_leaves(out, mapping: dict):
    """The output structure ``out`` with each variable renamed by ``mapping``."""
    if isinstance(out, OutVar):
        return OutVar(mapping[out.name])
    if isinstance(out, OutSeq):
        return OutSeq(out.kind, tuple(replace_leaves(i, mapping) for i in out.items))
    return OutDict(tuple((k, replace_leaves(v, mapping)) for k, v in out.items))
