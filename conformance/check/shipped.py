"""How a user's model reaches a path's process, wherever it was defined: a file on ``sys.path``, a notebook cell,
a module loaded by file path (``importlib.util.spec_from_file_location``, ``pytest --import-mode=importlib``), a
factory or a closure.

The model is pickled with cloudpickle (as Ray and Dask ship functions): by reference to its module where the path's
process can import that module by name, by value otherwise (``__main__``, classes made inside a function, and
modules that are in ``sys.modules`` but cannot be found again by name). Code whose source lives only in memory (each
notebook cell's, which IPython keeps in ``linecache``) has that source shipped along, so the paths that read source
(TorchScript's ``script``, Paddle's AST ``to_static``, TensorFlow's AutoGraph) read it there as they do here. Where a
model has no source at all (``exec``, a plain REPL), :func:`sourceless` names what lacks it and :func:`source_misses`
tells which paths went looking for it."""

from __future__ import annotations

import contextlib
import inspect
import linecache
import os
import sys
import types
from functools import cache
from typing import Optional

#: Top-level packages whose classes are the frameworks' own (their source is theirs to find, not the user's).
LIBRARIES = frozenset({"torch", "paddle", "tensorflow", "keras", "tf_keras"})


def dumps(obj) -> bytes:
    """``obj`` pickled for another process of this interpreter (same ``sys.path``), which may not have imported
    the modules that this process loaded by file path."""
    import io

    import cloudpickle

    buffer = io.BytesIO()
    registered: list = []
    try:
        _pickler()(buffer, registered).dump(obj)
    finally:
        for module in registered:
            cloudpickle.unregister_pickle_by_value(module)
    return buffer.getvalue()


@cache
def _pickler() -> type:
    """The pickler class (cloudpickle is imported when a model is first shipped, not with this package)."""
    import cloudpickle

    class _Pickler(cloudpickle.Pickler):
        """cloudpickle's pickler that pickles by value the classes and functions of every module another process could
        not import by its name."""

        def __init__(self, file, registered: list):
            super().__init__(file)
            self.registered = registered
            self.checked: set = set()

        def reducer_override(self, obj):
            if isinstance(obj, (type, types.FunctionType)):
                module = sys.modules.get(getattr(obj, "__module__", None) or "")
                if module is not None and module.__name__ not in self.checked:
                    self.checked.add(module.__name__)
                    if not importable(module.__name__):
                        cloudpickle.register_pickle_by_value(module)
                        self.registered.append(module)
            return super().reducer_override(obj)

    return _Pickler


def importable(name: str) -> bool:
    """Whether importing ``name`` afresh (by the import system, not from ``sys.modules``) finds the module this
    process has under that name: not so for ``__main__``, a module made with ``types.ModuleType``, or one loaded
    from a file outside ``sys.path`` and put in ``sys.modules`` by hand."""
    module = sys.modules.get(name)
    spec = getattr(module, "__spec__", None)
    if module is None or name == "__main__" or spec is None:
        return False
    if spec.origin in ("built-in", "frozen") or name.split(".")[0] in LIBRARIES:
        return True
    parent = name.rpartition(".")[0]
    if parent and not importable(parent):
        return False
    path = getattr(sys.modules[parent], "__path__", None) if parent else None
    for finder in sys.meta_path:
        find = getattr(finder, "find_spec", None)
        try:
            found = find(name, path) if find else None
        except Exception:  # noqa: BLE001 - a finder that cannot answer for this name has not found it
            found = None
        if found is not None:
            return found.origin == spec.origin
    return False


# ------------------------------------------------------------------ source


def in_memory_sources() -> dict[str, list[str]]:
    """The sources ``linecache`` holds that no file on disk has (IPython's cells, each under a file name of its own,
    e.g. ``/tmp/ipykernel_1234/2829.py``): file name -> lines."""
    return {name: entry[2] for name, entry in list(linecache.cache.items())
            if len(entry) == 4 and entry[1] is None and entry[2] and not os.path.exists(name)}


def seed_sources(sources: dict[str, list[str]]) -> None:
    """Put ``sources`` (from :func:`in_memory_sources`) in this process's ``linecache``, where ``inspect`` (and so
    TorchScript, Paddle's ``to_static`` and AutoGraph) reads source; entries this process has are left alone."""
    for name, lines in sources.items():
        if name not in linecache.cache:
            linecache.cache[name] = (sum(map(len, lines)), None, list(lines), name)


def user_classes(model) -> list[type]:
    """The classes of ``model`` and of its submodules (torch ``modules()``, Paddle ``sublayers()``, a ``tf.Module``'s
    ``submodules``) and their bases, the frameworks' own left out."""
    try:
        if hasattr(model, "sublayers"):
            parts = [model, *model.sublayers()]
        elif hasattr(model, "modules") and callable(model.modules):
            parts = list(model.modules())
        else:
            parts = [model, *getattr(model, "submodules", ())]
    except Exception:  # noqa: BLE001 - a model whose tree cannot be walked: its own class still counts
        parts = [model]
    classes = dict.fromkeys(cls for part in parts for cls in type(part).__mro__)
    return [cls for cls in classes if cls is not object and (cls.__module__ or "").split(".")[0] not in LIBRARIES]


#: The methods a conversion starts from, named first where their source is missing.
ENTRY_POINTS = ("forward", "call", "__call__")


def sourceless(model) -> Optional[str]:
    """A method of the model's own classes whose source ``inspect`` cannot read (``Gate.forward`` before the other
    methods), or None where every one has its source (a file, or a notebook cell)."""
    for cls in user_classes(model):
        methods = sorted(vars(cls).items(), key=lambda item: item[0] not in ENTRY_POINTS)
        for _, value in methods:
            fn = value.__func__ if isinstance(value, (staticmethod, classmethod)) else value
            if isinstance(fn, types.FunctionType):
                try:
                    inspect.getsourcelines(fn)
                except (OSError, TypeError):
                    return fn.__qualname__
    return None


@contextlib.contextmanager
def source_misses(watch: bool):
    """While the block runs (and ``watch`` is set), the names of the objects whose source ``inspect`` failed to
    find: the paths that read source all ask ``inspect.findsource`` for it."""
    misses: list[str] = []
    if not watch:
        yield misses
        return
    original = inspect.findsource

    def findsource(obj):
        try:
            return original(obj)
        except OSError:
            misses.append(getattr(obj, "__qualname__", None) or type(obj).__name__)
            raise

    inspect.findsource = findsource
    try:
        yield misses
    finally:
        inspect.findsource = original
