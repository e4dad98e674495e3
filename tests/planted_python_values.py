"""Deliberately wrong torch paths for Python values (``--load tests.planted_python_values``).

Each runs the eager model, re-rendered with one Python-value bug that converters have had, or with its outputs
changed on the way out:

* ``planted_int_to_float``: a loop-carried Python int becomes a float (``n = n + 1`` runs as ``float(n) + 1``), as
  a converter that types a loop variable from a float it meets first;
* ``planted_stale_item``: ``.item()`` keeps the value its first call returned, on every later call of the model (a
  graph that baked the number in as a constant);
* ``planted_drops_last_append``: the last element appended in a loop whose trip count depends on the data is lost
  (an off-by-one in a converted loop's list, a TensorArray read one short);
* ``planted_sorted_dict_keys``: a dict comes back with its keys sorted, where eager keeps insertion order.
"""

import dataclasses
import itertools
import re

import torch

import conformance.paths.torch  # noqa: F401 - registers the real torch paths first
from conformance.paths.records import PathRecord, register
from conformance.program.ir import For, If, PyStmt, While
from conformance.program.pyops import data_dependent_loops
from conformance.render.source import cache_dir, load_source, render


def _load(ctx, source: str, variant: str):
    """The model of ``source`` (a torch rendering of ``ctx.program``), with the eager model's weights."""
    path = cache_dir() / "torch" / ctx.program.id / f"planted_{variant}.py"
    model = load_source(source, path, f"planted_{variant}_{ctx.program.id}").Model()
    model.load_state_dict(ctx.model.state_dict())
    return model.train(ctx.model.training)


_COUNTER = re.compile(r"^(\s+)(\w+) = \2 \+ (\d+)$", re.M)


def _int_to_float(ctx):
    return _load(ctx, _COUNTER.sub(r"\1\2 = float(\2) + \3", render(ctx.program, "torch")), "int_to_float")


_ITEM = re.compile(r"^(\s+)(\w+) = (.+)\.item\(\)$", re.M)


def _stale_item(ctx):
    sites = itertools.count()
    source = _ITEM.sub(lambda m: f"{m[1]}{m[2]} = _FIRST.setdefault({next(sites)}, ({m[3]}).item())",
                       render(ctx.program, "torch"))
    return _load(ctx, source.replace("\nclass Model(", "\n_FIRST = {}\n\n\nclass Model(", 1), "stale_item")


def _drop_last(program):
    """``program`` with ``l.pop()`` after each loop whose trip count depends on the data and that appends to ``l``."""
    loops = {id(s) for s in data_dependent_loops(program)}
    fresh = itertools.count()

    def block(stmts):
        out = []
        for s in stmts:
            if isinstance(s, If):
                s = If(s.cond, block(s.then), block(s.orelse))
            elif isinstance(s, (While, For)):
                grown = [t.args[0] for t in s.body if isinstance(t, PyStmt) and t.op == "append"]
                rebuilt = dataclasses.replace(s, body=block(s.body))
                if id(s) in loops and grown:
                    out += [rebuilt, PyStmt(f"dropped{next(fresh)}", "pop", (grown[-1],))]
                    continue
                s = rebuilt
            out.append(s)
        return tuple(out)

    return dataclasses.replace(program, body=block(program.body))


def _drops_last_append(ctx):
    return _load(ctx, render(_drop_last(ctx.program), "torch"), "drops_last_append")


def _sorted_keys(tree):
    if isinstance(tree, dict):
        return {k: _sorted_keys(tree[k]) for k in sorted(tree)}
    if isinstance(tree, (list, tuple)):
        return type(tree)(_sorted_keys(v) for v in tree)
    return tree


def _model(ctx):
    return ctx.model


def _run(model, args, kwargs):
    with torch.no_grad():
        return model(*args, **kwargs)


register(
    PathRecord("torch", "planted_int_to_float", "eager, a loop-carried Python int made a float (n = float(n) + 1)",
               _int_to_float, _run, default=False),
    PathRecord("torch", "planted_stale_item", "eager, each .item() keeps the value of its first call",
               _stale_item, _run, default=False),
    PathRecord("torch", "planted_drops_last_append", "eager, the last append of a loop with a data-dependent trip "
               "count lost", _drops_last_append, _run, default=False),
    PathRecord("torch", "planted_sorted_dict_keys", "eager, dicts returned with their keys sorted", _model,
               lambda model, args, kwargs: _sorted_keys(_run(model, args, kwargs)), default=False),
)
