"""The source of a conversion, for standalone reproducers: the code a campaign ran, copied, never retyped.

Each framework's conversions live in a *standalone* module (``conformance/paths/<framework>/conversions.py``):
it imports only the standard library, numpy, the framework and its converters, and names from other
standalone modules of ``conformance`` (:mod:`conformance.paths.ort`, :mod:`conformance.program.trees`),
whose definitions are copied too, so its functions run unchanged in a ``repro.py`` that a maintainer pastes
into a bug report.
:func:`standalone_source` copies a conversion function out of such a module together with everything it
uses from the module (other functions, classes, constants, transitively) and the module's imports.

A ``functools.partial`` of a module-level function is copied as the function plus a line that binds the
same arguments (their ``repr`` must be valid Python, as strings, numbers and ``torch.bfloat16`` are).
"""

from __future__ import annotations

import ast
import functools
import inspect
import sys
import textwrap
from types import ModuleType
from typing import Callable


class NotStandalone(ValueError):
    """A function that cannot be copied into a reproducer (not module-level, or its module is not standalone)."""


def _target(fn: Callable) -> tuple[Callable, str]:
    """The module-level function behind ``fn`` and the line that defines ``fn``'s name from it ("" if none)."""
    if isinstance(fn, functools.partial):
        inner, _ = _target(fn.func)
        args = [repr(a) for a in fn.args] + [f"{k}={v!r}" for k, v in fn.keywords.items()]
        return inner, f"functools.partial({inner.__name__}, {', '.join(args)})"
    if not inspect.isfunction(fn) and not inspect.isclass(fn):
        raise NotStandalone(f"{fn!r} is neither a function, a class nor a functools.partial of one")
    if "<locals>" in fn.__qualname__:
        raise NotStandalone(f"{fn.__qualname__} is defined inside a function: write it at module level")
    return fn, ""


def _check_standalone(module: ModuleType) -> None:
    """Raise :class:`NotStandalone` unless ``module`` imports nothing of conformance but standalone modules."""
    problem, _ = _standalone_problem(module.__name__, ())
    if problem:
        raise NotStandalone(problem)


#: Module name -> why it is not standalone ("" when it is): each module is read once however many import it.
_PROBLEMS: dict[str, str] = {}


def _standalone_problem(name: str, seen: tuple) -> tuple[str, bool]:
    """Why module ``name`` is not standalone ("" when it is), and whether the verdict skipped a module of
    ``seen`` (an import cycle still being checked: such a verdict is not kept)."""
    if name in _PROBLEMS:
        return _PROBLEMS[name], False
    problem, cut = "", False
    for node in ast.parse(inspect.getsource(sys.modules[name])).body:
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level:
            problem = (f"{name} has a relative import: a standalone module imports "
                       f"conformance's standalone modules by their full names")
            break
        if not (node.module or "").startswith("conformance") or node.module == name:
            continue
        if node.module in seen:
            cut = True
            continue
        inner, inner_cut = _standalone_problem(node.module, seen + (name,))
        cut = cut or inner_cut
        if inner:
            problem = f"{name} imports {node.module}, which is not standalone ({inner})"
            break
    if not cut:
        _PROBLEMS[name] = problem
    return problem, cut


def _top_level(module: ModuleType) -> tuple[list[str], dict[str, tuple[int, str]], dict[str, str]]:
    """The module's import statements (those of conformance left out), each top-level definition:
    name -> (order, source), and each name imported from a standalone conformance module: name -> module."""
    source = inspect.getsource(module)
    tree = ast.parse(source)
    imports, defs, borrowed = [], {}, {}
    lines = source.splitlines()
    for order, node in enumerate(tree.body):
        decorators = getattr(node, "decorator_list", [])
        first = decorators[0].lineno if decorators else node.lineno  # a decorated definition starts at its decorator
        text = "\n".join(lines[first - 1:node.end_lineno])
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("conformance"):
            borrowed.update({alias.asname or alias.name: node.module for alias in node.names})
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            if not (isinstance(node, ast.ImportFrom) and node.module == "__future__"):
                imports.append(text)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defs[node.name] = (order, text)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                if isinstance(t, ast.Name):
                    defs[t.id] = (order, text)
    return imports, defs, borrowed


def _names_used(text: str) -> set[str]:
    return {n.id for n in ast.walk(ast.parse(textwrap.dedent(text))) if isinstance(n, ast.Name)}


def standalone_source(*functions: Callable, names: tuple[str, ...] = ()) -> str:
    """Python source defining each of ``functions`` (by its own name, or by ``names`` where given: a
    partial needs one) with everything it uses from its standalone module (and from the standalone
    conformance modules that one imports), after the modules' imports. Raises :class:`NotStandalone`
    naming what cannot be copied."""
    imports: list[str] = []
    chosen: dict[str, tuple[int, int, str]] = {}  # name -> (module rank, order, source)
    rank: dict[str, int] = {}  # module -> rank: a module borrowed from comes before its borrower
    aliases = []

    def gather(name: str, module: ModuleType, depth: int) -> None:
        if name in chosen:
            return
        _check_standalone(module)
        mod_imports, defs, borrowed = _top_level(module)
        if name in borrowed:
            gather(name, sys.modules[borrowed[name]], depth + 1)
            return
        if name not in defs:
            return
        imports.extend(s for s in mod_imports if s not in imports)
        rank[module.__name__] = max(rank.get(module.__name__, 0), depth)
        order, text = defs[name]
        chosen[name] = (module.__name__, order, text)
        for used in sorted(_names_used(text)):
            gather(used, module, depth)

    for i, fn in enumerate(functions):
        target, binding = _target(fn)
        gather(target.__name__, sys.modules[target.__module__], 0)
        alias = names[i] if i < len(names) else ""
        if binding:
            if not alias:
                raise NotStandalone(f"a functools.partial of {target.__name__} needs a name to bind it to")
            aliases.append(f"{alias} = {binding}")
        elif alias and alias != target.__name__:
            aliases.append(f"{alias} = {target.__name__}")
    if aliases and "import functools" not in imports:
        imports.append("import functools")
    body = [text for module, order, text in sorted(chosen.values(), key=lambda v: (-rank[v[0]], v[0], v[1]))]
    tail = "\n\n\n" + "\n".join(aliases) if aliases else ""
    return "\n".join(imports) + "\n\n\n" + "\n\n\n".join(body) + tail + "\n"
