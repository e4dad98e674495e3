"""The documentation stays true to the code: the README's test command is what CI runs, the reference pages are
generated from the records (``docs/reference_pages.py``, run by ``mkdocs build``), the pages the dashboard links to
have the anchors it links, and no docstring, page or README names a module or object that does not exist."""

from __future__ import annotations

import ast
import importlib.util
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.program.ops.table import op_rows
from conformance.report.figures import GROUPS
from conformance.run.records import FINDINGS, OUTCOMES

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"


def reference_pages():
    spec = importlib.util.spec_from_file_location("reference_pages", DOCS / "reference_pages.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_readme_is_short_and_its_test_command_is_what_ci_runs():
    lines = README.read_text().splitlines()
    assert len(lines) <= 300, f"README.md has {len(lines)} lines: move reference material into docs/"
    ci = (ROOT / ".ci" / "run").read_text().strip().splitlines()[-1]
    commands = re.findall(r"^```sh\n(.*?)\n```", README.read_text(), re.M | re.S)
    assert ci in commands, f".ci/run's command is not one of the README's shell blocks: {ci}"
    assert "mkdocs build --strict" in ci


def test_the_reference_pages_are_generated_from_the_records():
    pages = reference_pages()
    ops = pages.ops_page()
    assert all(f"`{row['op']}`" in ops for row in op_rows())
    results = pages.results_page()
    assert all(f"`{outcome}`" in results for outcome in OUTCOMES + FINDINGS)
    assert "`case_id`" in results and "`detail.blame`" in results  # the fields, and what reports/README.md says
    from conformance.cli import build_parser

    cli = pages.cli_page()
    for name, sub in pages._subcommands(build_parser()).items():
        assert f"## `conformance {name}`" in cli
        assert all(option in cli for action in sub._actions for option in action.option_strings)


@pytest.mark.slow  # a fresh interpreter loading every framework: 35 s (CI's mkdocs build --strict checks the links)
def test_the_paths_page_has_an_anchor_per_built_in_path():
    # a fresh interpreter: test modules register planted paths in this one
    code = ("import importlib.util, sys; spec = importlib.util.spec_from_file_location('p', sys.argv[1]); "
            "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); "
            "from conformance.paths.catalogue import registered_paths; page = m.paths_page(); "
            "missing = [p.id for p in registered_paths(builtin_only=True) if f'id=\"{p.id}\"' not in page]; "
            "print(missing)")
    out = subprocess.run([sys.executable, "-c", code, str(DOCS / "reference_pages.py")], capture_output=True,
                         text=True, check=True).stdout
    assert out.strip() == "[]", f"paths without an anchor on the paths page: {out}"


def test_the_outcomes_page_has_an_anchor_per_outcome_and_group():
    page = (DOCS / "concepts" / "outcomes.md").read_text()
    anchors = set(re.findall(r"\{#([\w-]+)\}", page)) | set(re.findall(r'id="([\w-]+)"', page))
    slugs = set(OUTCOMES) | {g.replace(" ", "-") for g in GROUPS}
    assert slugs <= anchors, f"no anchor for {sorted(slugs - anchors)} on docs/concepts/outcomes.md"


# ------------------------------------------------------------------ references to modules and objects

PACKAGE = ROOT / "conformance"
ROLE = re.compile(r":(?:mod|func|class|data|meth|attr|exc):`~?([\w.]+)`")
CODE = re.compile(r"`([^`\n]+)`")
MENTION = re.compile(r"(?<![\w/.-])(conformance(?:\.\w+)+)")


def module_names() -> dict[str, Path]:
    names = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        names[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return names


MODULES = module_names()


def namespace(tree: ast.Module) -> dict[str, ast.AST]:
    """The names a module binds at its top level (definitions, assignments, imports) -> the node."""
    names = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names[node.name] = node
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        names[name.id] = node
        elif isinstance(node, ast.Import):
            for alias in node.names:
                names[(alias.asname or alias.name).split(".")[0]] = node
        elif isinstance(node, ast.ImportFrom):  # each name with its own import, to follow it
            for alias in node.names:
                names[alias.asname or alias.name] = ast.ImportFrom(module=node.module, names=[alias], level=node.level)
        elif isinstance(node, (ast.If, ast.Try)):  # names bound under `if TYPE_CHECKING:` or a try/except import
            blocks = [node.body, node.orelse, *(h.body for h in getattr(node, "handlers", ())),
                      getattr(node, "finalbody", [])]
            names.update(namespace(ast.Module(body=[n for block in blocks for n in block], type_ignores=[])))
    return names


TREES = {name: ast.parse(path.read_text()) for name, path in MODULES.items()}
NAMESPACES = {name: namespace(tree) for name, tree in TREES.items()}
CLASSES = {node.name: node for tree in TREES.values() for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}


def resolves(target: str, module: str = "", cls: ast.ClassDef = None) -> bool:
    """Whether ``target`` names a module or an object: absolute (``conformance.run.records.ResultRecord``), or
    relative to the module the docstring is in (a name it binds, a member of the class, a sibling module)."""
    parts = target.split(".")
    if parts[0] != "conformance":
        package = module if MODULES.get(module, Path("x")).name == "__init__.py" else module.rpartition(".")[0]
        if not parts[0]:  # relative: a sibling module (``.linalg``)
            return resolves(package + target)
        classes = [n for n in ast.walk(TREES[module]) if isinstance(n, ast.ClassDef)] if module else []
        if any(_member(c, parts[:1], module) for c in ([cls] if cls else []) + classes):
            return True  # a member of the class the docstring is in, or of one in its module
        if parts[0] in NAMESPACES.get(module, {}):
            return _member(NAMESPACES[module][parts[0]], parts[1:], module)
        if any(f"{base}.{target}" in MODULES or resolves(f"{base}.{target}") for base in (package, "conformance")):
            return True
        if parts[0] in CLASSES:  # a class of another module, named by its own name (``PathRecord.optimizer``)
            return _member(CLASSES[parts[0]], parts[1:], module)
        return importlib.util.find_spec(parts[0]) is not None or parts[0] in sys.builtin_module_names
    for i in range(len(parts), 0, -1):
        name = ".".join(parts[:i])
        if name in MODULES:
            return i == len(parts) or (parts[i] in NAMESPACES[name]
                                       and _member(NAMESPACES[name][parts[i]], parts[i + 1:], name))
    return False


def _attributes(cls: ast.ClassDef) -> set[str]:
    return {t.attr for n in ast.walk(cls) if isinstance(n, (ast.Assign, ast.AnnAssign))
            for t in (n.targets if isinstance(n, ast.Assign) else [n.target]) if isinstance(t, ast.Attribute)} | \
           {n.target.id for n in cls.body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)}


def _member(node: ast.AST, rest: list[str], module: str) -> bool:
    if not rest:
        return True
    if isinstance(node, ast.ClassDef):
        return rest[0] in {n.name for n in node.body if hasattr(n, "name")} | _attributes(node) | \
            {t.id for n in node.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
    if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("conformance"):
        return resolves(".".join([node.module, node.names[0].name, *rest]))
    return True  # an attribute of something else (an imported third-party object): not ours to check


def docstrings(tree: ast.Module):
    """(docstring, the class it is in or None) for the module, its classes and its functions."""
    def walk(node, cls):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                yield ast.get_docstring(child) or "", child if isinstance(child, ast.ClassDef) else cls
                yield from walk(child, child if isinstance(child, ast.ClassDef) else cls)
    yield ast.get_docstring(tree) or "", None
    yield from walk(tree, None)
    for node in ast.walk(tree):  # `#:` documentation comments are read by the API pages too
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            yield node.value.value, None


def test_every_docstring_reference_resolves():
    broken = sorted({f"{module}: {target}" for module, tree in TREES.items()
                     for text, cls in docstrings(tree) for target in ROLE.findall(text)
                     if not resolves(target, module, cls)})
    assert not broken, "docstrings name what does not exist:\n" + "\n".join(broken)


def test_every_module_path_in_the_docs_and_readme_resolves():
    pages = [README, ROOT / "reports" / "README.md", ROOT / "cases" / "README.md", *sorted(DOCS.rglob("*.md"))]
    broken = sorted({f"{page.relative_to(ROOT)}: {target}" for page in pages
                     for code in CODE.findall(page.read_text()) for target in MENTION.findall(code)
                     if not resolves(target)})
    assert not broken, "the documentation names what does not exist:\n" + "\n".join(broken)


def test_the_resolver_refuses_what_does_not_exist():
    assert resolves("conformance.run.records.ResultRecord.for_case")
    assert resolves("ResultRecord", "conformance.run.records")
    assert not resolves("conformance.oracle")
    assert not resolves("conformance.run.records.NoSuchThing")
    assert not resolves("conformance.run.records.ResultRecord.no_such_method")


@pytest.mark.parametrize("path", [README, *sorted(DOCS.rglob("*.md"))], ids=lambda p: str(p.relative_to(ROOT)))
def test_every_conformance_command_in_the_docs_parses(path):
    """Each ``conformance ...`` line of a shell block is a command the argument parser accepts (a renamed or
    removed option fails here)."""
    from conformance.cli import build_parser

    parser = build_parser()
    for block in re.findall(r"^```sh\n(.*?)^```", path.read_text(), re.M | re.S):
        for command in re.split(r"\n| && ", block):
            command = command.split("  #")[0].split(" # ")[0].strip()
            # a command substitution stands for one word; "..." for more options
            words = [w for w in shlex.split(re.sub(r'"\$\([^"]*"', "WORD", command)) if w != "..."]
            if words and words[0].endswith("conformance") and len(words) > 1:
                try:
                    parser.parse_args(words[1:])
                except SystemExit:
                    pytest.fail(f"{path.relative_to(ROOT)}: the parser refuses: {command}")


def test_the_dashboard_links_outcomes_and_limitations_to_their_pages(tmp_path, monkeypatch):
    import json

    from conformance.report import load_results, write_report

    def record(case, path, outcome, **detail):
        return {"schema": 1, "case_id": case, "framework": "torch", "path": path, "device": "cpu", "outcome": outcome,
                "detail": {"message": "boom", **detail}, "versions": {"torch": "2.13.0"}}

    run = tmp_path / "run"
    run.mkdir()
    records = [record("a", "eager", "pass"), record("a", "script", "mismatch"),
               record("b", "eager", "pass"), record("b", "trace", "runtime_error", known_issue="a known bug")]
    (run / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    html = write_report(load_results([run]), tmp_path / "dash", docs_url="https://docs.example/")["html"].read_text()
    for outcome in ("mismatch", "runtime_error", "error", "not judged"):
        assert f'href="https://docs.example/concepts/outcomes.html#{outcome.replace(" ", "-")}"' in html
    assert 'href="https://docs.example/reference/paths.html#torch.trace"' in html
    from conformance.report.dashboard import DOCS_URL_VARIABLE, docs_base, docs_link

    assert docs_link(None, "concepts/outcomes", "pass") is None  # no site known: the names are not links
    monkeypatch.setenv(DOCS_URL_VARIABLE, "https://env.example")
    assert docs_base() == "https://env.example/"
