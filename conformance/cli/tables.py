"""``conformance paths`` and ``conformance ops``: the tables generated from the path and op records."""

from __future__ import annotations

import sys

from conformance.cli.common import console
from conformance.paths.records import ENTRY_POINT_GROUP as ENTRY_POINT
from conformance.paths.records import MODES


def cmd_paths(args) -> int:
    from rich.markup import escape
    from rich.table import Table

    from conformance.paths.catalogue import kind, links, markdown, registered_paths, selector
    from conformance.paths.records import FRAMEWORK_MODULES, PLUGIN_ERRORS, framework_available

    out = console()
    missing = [fw for fw in FRAMEWORK_MODULES if not framework_available(fw)]
    paths = registered_paths()
    broken = [f"plug-in {name} ({ENTRY_POINT}) registered nothing: {why}" for name, why in PLUGIN_ERRORS.items()]
    if args.markdown:
        print(markdown(paths), end="")
        for line in broken:
            print(line, file=sys.stderr)
        return 0
    for fw in missing:
        out.print(f"[yellow]{fw}: not installed[/]")
    table = Table(title="conversion paths")
    for heading in ("path", "what", "modes", "specialises on", "known limitations"):
        table.add_column(heading)
    for p in paths:  # --long: each record's details and provenance too
        limitations = "\n".join(escape(f"{lim.name} ({kind(lim)}), {selector(lim)} {lim.reason}"
                                        + (f"\n    {lim.details} {links(lim)}".rstrip() if args.long else ""))
                                 for lim in p.records)
        modes = ", ".join(m for m in MODES if m in p.modes)
        table.add_row(p.id, p.description, modes, ", ".join(sorted(p.specializes)) or "-", limitations or "-")
    out.print(table)
    for line in broken:  # a plug-in that failed to load: its paths are missing above
        out.print(escape(line), style="red")
    return 0


def cmd_ops(args) -> int:
    from rich.table import Table

    from conformance.program.ops.table import op_coverage, table

    coverage = pairs = lines = None
    if getattr(args, "results", None):  # per op and path: how many programs used it, with what outcomes
        from conformance.program.coverage import summary_lines
        from conformance.report.ops_view import pair_coverage, stopped_ops
        from conformance.run.records import path_id, read_results

        records = list(read_results(args.results))
        coverage = op_coverage((r.ops, path_id(r.framework, r.path), r.outcome) for r in records)
        pairs = pair_coverage(records)  # per op and path: the share of its reachable attribute pairs judged
        lines = summary_lines(pairs, stopped_ops(args.results))
    title, headings, rows = table(coverage, pairs)
    out = Table(title=title)
    for heading in headings:
        out.add_column(heading)
    for row in rows:
        out.add_row(*row)
    console().print(out)
    for line in lines or ():
        console().print(line)
    return 0


def add_parsers(sub) -> None:
    paths = sub.add_parser("paths", help="list conversion paths and their known limitations")
    paths.add_argument("--markdown", action="store_true",
                       help="print Markdown tables (the documentation site's paths reference is these)")
    paths.add_argument("--long", action="store_true", help="with each known limitation's details and provenance")
    paths.set_defaults(fn=cmd_paths)
    ops = sub.add_parser("ops", help="list op records (with --results: per op and path, the outcomes of the programs "
                                     "that used it)")
    ops.add_argument("--results", help="a results file (.jsonl) or campaign folder")
    ops.set_defaults(fn=cmd_ops)
