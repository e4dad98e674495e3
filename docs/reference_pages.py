"""The reference pages of the documentation site, generated from the records: every path with its limitations,
every op record, the results schema and the command line.

``docs/hooks.py`` adds them to the site at build time (``mkdocs build``), so the site is always
what the installed records say; ``tests/test_docs.py`` calls :func:`pages` to check each page is written.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import typing
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GENERATED = "<!-- generated at build time by docs/reference_pages.py from the records: do not edit -->\n\n"


def _cell(text) -> str:
    return str(text).replace("|", "\\|").replace("[", "\\[").replace("\n", "<br>")


def paths_page() -> str:
    """Every built-in path with its limitations: the tables ``conformance paths --markdown`` prints (plug-ins'
    paths left out), with an anchor per path for the dashboard's links."""
    from conformance.paths.catalogue import markdown, registered_paths
    from conformance.paths.records import FRAMEWORK_MODULES, framework_available

    missing = [fw for fw in FRAMEWORK_MODULES if not framework_available(fw)]
    paths = registered_paths(builtin_only=True)
    table = markdown(paths)
    for p in paths:  # the first cell naming a path gets its anchor: reference/paths/#torch.script
        table = table.replace(f"| `{p.id}` |", f'| <span id="{p.id}"></span>`{p.id}` |', 1)
    note = (f"\n!!! warning \"Incomplete\"\n    Built without {', '.join(missing)} installed: their paths are "
            "missing here.\n" if missing else "")
    return (GENERATED + "# Paths and their limitations\n\n"
            "Every conversion path with its modes, what it specialises on, and its limitation records "
            "(the same tables as `conformance paths --markdown`; `conformance paths` also lists the paths of "
            "installed plug-ins). A *refusal* is documented by the framework and becomes `unsupported`; a "
            "*documented divergence* becomes `expected_divergence`; a *known bug* keeps its outcome and is named "
            "in the record (the pytest suites xfail it). A limitation selects failures by phase and mode, exception "
            "type, the oracle's kind of divergence and where it is, and only then by the framework's own message; "
            "version ranges are on the framework (or the package named). See "
            "[outcomes and limitations](../concepts/outcomes.md).\n" + note + "\n" + table)


def ops_page() -> str:
    """Every op record: its family, arity, the frameworks with an emitter (and why the others have none), notes."""
    from conformance.program.ops.table import family_counts, op_rows

    rows = op_rows()
    families = ", ".join(f"{family} {n}" for family, n in sorted(family_counts().items()))
    lines = [GENERATED + "# Op records\n",
             f"{len(rows)} op records ({families}), the table `conformance ops` prints. Each is one `OpRecord` "
             "in its family's module of `conformance/program/ops/` ([add an op](../tutorials/add-an-op.md)); "
             "`conformance ops --results RESULTS` adds, per op and path, the outcomes of the programs that used "
             "it.\n",
             "| op | family | arity | what | frameworks | notes |", "|---|---|---|---|---|---|"]
    for row in rows:
        frameworks = ", ".join(row["frameworks"]) + "".join(f"<br>no {fw}: {_cell(why)}"
                                                            for fw, why in row["gaps"].items())
        lines.append(f'| <span id="{row["op"]}"></span>`{row["op"]}` | {row["family"]} | {row["arity"]} | '
                     f"{_cell(row['what'])} | {frameworks} | {_cell(row['notes']) or '-'} |")
    return "\n".join(lines) + "\n"


def _type_name(tp) -> str:
    text = getattr(tp, "__name__", None) if not typing.get_args(tp) else None
    return text or str(tp).replace("typing.", "")


def results_page() -> str:
    """The results schema: the outcomes and the record's fields from :mod:`conformance.run.records`, then the files a
    run writes and what each field means from ``reports/README.md`` (the format's own documentation, kept beside the
    files it describes)."""
    from conformance.run import records

    lines = [GENERATED + "# Results schema\n",
             f"Schema version {records.SCHEMA_VERSION}. Outcomes (a closed set): "
             + ", ".join(f"`{o}`" for o in records.OUTCOMES) + ". Findings (what a campaign's exit status counts): "
             + ", ".join(f"`{o}`" for o in records.FINDINGS) + ". What each means: "
             "[outcomes and limitations](../concepts/outcomes.md). From Python, "
             "`conformance.results.read_results` reads results files.\n",
             "## Fields, from the record types\n"]
    for cls in (records.ResultRecord, records.ResultDetail, records.InputResult, records.Timings):
        hints = typing.get_type_hints(cls)
        lines += [f"### `{cls.__name__}`\n", (cls.__doc__ or "").strip().splitlines()[0] + "\n",
                  "| field | type |", "|---|---|"]
        lines += [f"| `{f.name}` | `{_cell(_type_name(hints[f.name]))}` |" for f in dataclasses.fields(cls)]
        lines.append("")
    readme = (ROOT / "reports" / "README.md").read_text().split("\n", 1)[1]  # all of it but its title
    lines.append("## The files a run writes, and what the fields mean (`reports/README.md`)\n")
    lines.append(readme.replace("\n## ", "\n### "))
    return "\n".join(lines) + "\n"


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:  # argparse has no public way to list its subparsers
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def cli_page() -> str:
    """Every ``conformance`` command with its options, from the argument parser itself."""
    from conformance.cli import build_parser

    parser = build_parser()
    commands = _subcommands(parser)
    lines = [GENERATED + "# Command line\n",
             "The `conformance` command (also `python -m conformance`), generated from its argument parser.\n",
             "| command | what |", "|---|---|"]
    helps = {a.dest: a.help for a in next(a for a in parser._actions
                                         if isinstance(a, argparse._SubParsersAction))._choices_actions}
    lines += [f"| [`{name}`](#{name}) | {_cell(helps.get(name) or '')} |" for name in commands]
    width = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "88"  # argparse wraps help text to the terminal's width: the page's
    try:
        for name, sub in commands.items():
            lines += ["", f"## `conformance {name}` {{#{name}}}", "", "```text", sub.format_help().rstrip(), "```"]
    finally:
        if width is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = width
    return "\n".join(lines) + "\n"


def pages() -> dict[str, str]:
    """The generated pages: path under ``docs/`` -> Markdown."""
    return {"reference/paths.md": paths_page(), "reference/ops.md": ops_page(),
            "reference/results.md": results_page(), "reference/cli.md": cli_page()}
