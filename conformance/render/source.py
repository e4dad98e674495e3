"""Render a program as real Python source for a framework, write it to a file and import it.

TorchScript, Paddle's AST ``to_static`` and TensorFlow's AutoGraph read a model's source, so every
program becomes a readable module file: a ``Model`` class whose weights are made from the program's
seed with numpy (the same values in every framework), and a ``__main__`` that runs the model on an
``.npz`` of inputs. That file is also the heart of a standalone reproducer.

Two variants of each program are rendered:

* ``clean`` — what every conversion path converts, and what a reproducer ships;
* ``probed`` — the same computation with hooks that record each control-flow decision and how far
  each data-dependent predicate (and each comparison or int cast) sits from its threshold. Only the
  eager reference runs it, in fp32 and in fp64 (``float_dtype="float64"``), for the oracle's
  branch-flip guard.

TensorFlow modules also define ``build_graph``: the same model as a TensorFlow 1 graph, with the
functional control flow (``tf.cond``, ``tf.while_loop``) TF1 users wrote by hand, for the
``tf.session`` path (see :class:`~conformance.render.tf1_graph.GraphWriter`).

The pieces live in modules of their own: :mod:`~conformance.render.dialects` (how each framework spells a
model), :mod:`~conformance.render.model_writer` (the module and its ``Model`` class, clean or probed),
:mod:`~conformance.render.tf1_graph` (``build_graph``) and :mod:`~conformance.render.loading` (files and
imports); this module puts them together and keeps the names callers import.
"""

from __future__ import annotations

from dataclasses import dataclass

from conformance.program.ir import ProgramError
from conformance.program.program import Program
from conformance.render.dialects import DIALECTS, PADDLE, TF, TORCH, Dialect  # noqa: F401 - re-exported
from conformance.render.loading import cache_dir, load_source  # noqa: F401 - re-exported
from conformance.render.model_writer import ModelWriter
from conformance.render.tf1_graph import GraphWriter


def render(program: Program, framework: str = "torch", *, probed: bool = False,
           float_dtype: str = "float32") -> str:
    """The Python source of ``program`` as a ``Model`` class of ``framework``."""
    if framework not in DIALECTS:
        raise ProgramError(f"no renderer for framework {framework!r}; have {', '.join(DIALECTS)}")
    dialect = DIALECTS[framework]
    graph = GraphWriter(program, dialect, float_dtype).source() if dialect.graph_builder and not probed else ""
    return ModelWriter(program, dialect, probed, float_dtype).source(graph)


def load_model_module(program: Program, framework: str = "torch", *, probed: bool = False,
                      float_dtype: str = "float32"):
    """Render, write and import one variant of ``program``; returns the module (with ``Model``)."""
    variant = "model" if not probed else f"probed_{float_dtype}"
    path = cache_dir() / framework / program.id / f"{variant}.py"
    name = f"conformance_model_{framework}_{program.id}_{variant}"
    return load_source(render(program, framework, probed=probed, float_dtype=float_dtype), path, name)


@dataclass(frozen=True)
class ModelParts:
    """A rendered program in the pieces other documents quote."""

    body: str  # the module without its docstring and its ``__main__`` entry: what a reproducer ships
    model_class: str  # the ``Model`` class alone: what a bug report shows


def render_parts(program: Program, framework: str = "torch") -> ModelParts:
    """The clean rendering of ``program`` (:func:`render`) in :class:`ModelParts`."""
    import ast

    source = render(program, framework)
    tree = ast.parse(source)
    lines = source.splitlines()
    docstring = tree.body[0] if isinstance(tree.body[0], ast.Expr) else None
    entry = next(node for node in tree.body
                 if isinstance(node, ast.If) and ast.unparse(node.test) == "__name__ == '__main__'")
    kept = [node for node in tree.body if node is not docstring and node is not entry]
    model_class = next(node for node in kept if isinstance(node, ast.ClassDef) and node.name == "Model")
    body = "\n".join(lines[kept[0].lineno - 1:kept[-1].end_lineno]) + "\n"
    return ModelParts(body, ast.get_source_segment(source, model_class))
