"""The source of a conversion, for standalone reproducers: the code a campaign ran, copied, never retyped.

Each framework's conversions live in a *standalone* module (``conformance/paths/<framework>/conversions.py``):
it imports only the standard library, numpy, the framework and its converters, never ``conformance``, so
its functions run unchanged in a ``repro.py`` that a maintainer pastes into a bug report.
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


def _module_of(fn: Callable) -> ModuleType:
    module = sys.modules[fn.__module__]
    source = inspect.getsource(module)
    for node in ast.parse(source).body:
        if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("conformance")):
            raise NotStandalone(f"{module.__name__} imports {'.' * node.level}{node.module or ''}: a standalone "
                                f"conversions module imports only the standard library, numpy and frameworks")
    return module


def _top_level(module: ModuleType) -> tuple[list[str], dict[str, tuple[int, str]]]:
    """The module's import statements, and each top-level definition: name -> (order, source)."""
    source = inspect.getsource(module)
    tree = ast.parse(source)
    imports, defs = [], {}
    for order, node in enumerate(tree.body):
        text = ast.get_source_segment(source, node, padded=False)
        decorators = getattr(node, "decorator_list", [])
        if decorators:  # a decorated definition starts at its first decorator
            lines = source.splitlines()
            text = "\n".join(lines[decorators[0].lineno - 1:node.end_lineno])
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            imports.append(text)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defs[node.name] = (order, text)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                if isinstance(t, ast.Name):
                    defs[t.id] = (order, text)
    return imports, defs


def _names_used(text: str) -> set[str]:
    return {n.id for n in ast.walk(ast.parse(textwrap.dedent(text))) if isinstance(n, ast.Name)}


def standalone_source(*functions: Callable, names: tuple[str, ...] = ()) -> str:
    """Python source defining each of ``functions`` (by its own name, or by ``names`` where given: a
    partial needs one) with everything it uses from its standalone module, in the module's order, after
    the module's imports. Raises :class:`NotStandalone` naming what cannot be copied."""
    imports: list[str] = []
    chosen: dict[str, tuple[int, int, str]] = {}  # name -> (module index, order, source)
    aliases = []
    modules: list[str] = []
    for i, fn in enumerate(functions):
        target, binding = _target(fn)
        module = _module_of(target)
        if module.__name__ not in modules:
            modules.append(module.__name__)
        mod_imports, defs = _top_level(module)
        imports += [s for s in mod_imports if s not in imports]
        todo = [target.__name__]
        while todo:
            name = todo.pop()
            if name in chosen or name not in defs:
                continue
            order, text = defs[name]
            chosen[name] = (modules.index(module.__name__), order, text)
            todo += sorted(_names_used(text) - set(chosen))
        alias = names[i] if i < len(names) else ""
        if binding:
            if not alias:
                raise NotStandalone(f"a functools.partial of {target.__name__} needs a name to bind it to")
            aliases.append(f"{alias} = {binding}")
        elif alias and alias != target.__name__:
            aliases.append(f"{alias} = {target.__name__}")
    if aliases and "import functools" not in imports:
        imports.append("import functools")
    body = [text for _, _, text in sorted(set(chosen.values()))]
    return "\n".join(imports) + "\n\n\n" + "\n\n\n".join(body) + ("\n\n\n" + "\n".join(aliases) if aliases else "") + "\n"
