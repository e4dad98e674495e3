"""The public API: what users import is importable from ``conformance`` or from one documented public module per
concern, each with an ``__all__``; the names the API pages document are exactly those; and the examples of the README
and the documentation import nothing else."""

from __future__ import annotations

import ast
import importlib
import re
import types
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
API = ROOT / "docs" / "reference" / "api"
#: public module -> its API page
PUBLIC = {"conformance": "conformance.md", "conformance.strategies": "strategies.md",
          "conformance.results": "results.md", "conformance.paths": "paths.md",
          "conformance.program.ops": "ops.md"}
#: the facades that re-export and define nothing else: every public attribute is in ``__all__``
FACADES = ("conformance", "conformance.strategies", "conformance.results")


def documented(page: str) -> tuple[str, list[str]]:
    """The module a page renders (``::: NAME``) and the ``members:`` it lists."""
    text = (API / page).read_text()
    (module,) = re.findall(r"^::: (\S+)$", text, re.M)
    members = re.search(r"^      members:\n((?:        - \S+\n)+)", text, re.M)
    assert members, f"{page}: no members: list under ::: {module}"
    return module, re.findall(r"- (\S+)", members.group(1))


@pytest.mark.parametrize("module", PUBLIC)
def test_the_documented_names_are_exactly_the_public_ones(module):
    mod = importlib.import_module(module)
    page_module, names = documented(PUBLIC[module])
    assert page_module == module
    assert len(names) == len(set(names)), f"{PUBLIC[module]} lists a name twice"
    assert set(names) == set(mod.__all__), (
        f"{module}: documented but not in __all__: {sorted(set(names) - set(mod.__all__))}; "
        f"in __all__ but not documented on docs/reference/api/{PUBLIC[module]}: "
        f"{sorted(set(mod.__all__) - set(names))}")
    missing = [name for name in mod.__all__ if not hasattr(mod, name)]
    assert not missing, f"{module}.__all__ names what it does not define: {missing}"


@pytest.mark.parametrize("module", FACADES)
def test_a_facade_has_no_public_name_outside_its_all(module):
    mod = importlib.import_module(module)
    public = {name for name, value in vars(mod).items()
              if not name.startswith("_") and not isinstance(value, types.ModuleType)}
    assert public == set(mod.__all__) - {"__version__"}, f"{module}: public names outside __all__: " \
                                                          f"{sorted(public - set(mod.__all__))}"


def test_the_api_index_lists_every_public_module():
    index = (API / "index.md").read_text()
    listed = re.findall(r"^\| \[`([\w.]+)`\]\((\S+?)\)", index, re.M)
    assert dict(listed) == PUBLIC


def python_blocks(path: Path) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", path.read_text(), re.M | re.S)


EXAMPLE_FILES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_examples_import_only_public_names(path):
    """Every ``conformance`` import of a Python example is a public module, every name taken from one is in its
    ``__all__``, and every ``conformance.NAME`` it uses is in the package's ``__all__``."""
    import conformance

    wrong = []
    for block in python_blocks(path):
        try:
            tree = ast.parse(block)
        except SyntaxError:  # a fragment of a larger file (a record in a family module): no imports to check
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "conformance":
                if node.module not in PUBLIC:
                    wrong.append(f"from {node.module} import ...: not a public module")
                else:
                    public = importlib.import_module(node.module).__all__
                    wrong += [f"from {node.module} import {a.name}: not in its __all__"
                              for a in node.names if a.name not in public]
            elif isinstance(node, ast.Import):
                wrong += [f"import {a.name}: not a public module" for a in node.names
                          if a.name.split(".")[0] == "conformance" and a.name not in PUBLIC]
            elif (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                  and node.value.id == "conformance" and node.attr not in conformance.__all__):
                wrong.append(f"conformance.{node.attr}: not in conformance.__all__")
    assert not wrong, f"{path.relative_to(ROOT)}: " + "; ".join(wrong)
