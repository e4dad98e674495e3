"""The package's shape: no import cycles, no private names across modules, no module past ~500 lines.

The layers themselves (faces > report > triage > run > judge > paths > render > program) are import-linter's
contract in pyproject.toml, checked by ``lint-imports`` in the test command.
"""

import ast
from pathlib import Path

import grimp

PACKAGE = Path(__file__).resolve().parent.parent / "conformance"
MAX_LINES = 520  # "about 500": a module that grows past this is split


def _modules():
    for path in sorted(PACKAGE.rglob("*.py")):
        name = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        yield name.removesuffix(".__init__"), path


def test_no_import_cycles_among_the_package_modules():
    graph = grimp.build_graph("conformance", cache_dir=None, exclude_type_checking_imports=True)  # annotations only
    cycles = []
    for module in sorted(graph.modules):
        for imported in graph.find_modules_directly_imported_by(module):
            if imported != module and graph.chain_exists(imported=module, importer=imported):
                cycles.append(" -> ".join(graph.find_shortest_chain(importer=module, imported=imported))
                              + " -> ... -> " + module)
    assert not cycles, "import cycles:\n" + "\n".join(cycles)


def test_no_private_name_is_imported_from_another_module():
    crossings = []
    for name, path in _modules():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("conformance"):
                crossings += [f"{name} imports {node.module}.{a.name}" for a in node.names
                              if a.name.startswith("_") and not a.name.startswith("__")]
    assert not crossings, "\n".join(crossings)


#: Data modules, exempt from the line cap: the catalogue of known limitations keeps every record about one component
#: in one module (conformance.paths.known.<component>), and splitting a component's records by a line count would
#: scatter them again. Only modules that hold records and nothing else are exempt.
DATA_MODULES = "conformance.paths.known."


def test_no_module_is_longer_than_about_500_lines():
    long = [f"{name}: {n} lines" for name, path in _modules()
            if (n := len(path.read_text().splitlines())) > MAX_LINES
            and not (name.startswith(DATA_MODULES) and name.removeprefix(DATA_MODULES) not in ("factories", ""))]
    assert not long, "split these modules:\n" + "\n".join(long)
