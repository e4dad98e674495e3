"""``conformance report``: merge results files and write the dashboard, the Markdown summary and JUnit XML."""

from __future__ import annotations

import time
from pathlib import Path


def cmd_report(args) -> int:
    from conformance.report.results import ReportError, load_results
    from conformance.report.writer import write_report

    started = time.perf_counter()
    try:
        results = load_results(args.results)
        files = write_report(results, Path(args.out), triage=args.triage or (), title=args.title,
                             docs_url=args.docs_url)
    except ReportError as e:
        raise SystemExit(f"conformance: {e}")
    html = files["html"]
    print(f"{len(results.records)} records from {len(results.runs)} run(s)"
          + (f" ({results.duplicates} repeated, counted once)" if results.duplicates else "")
          + f" in {time.perf_counter() - started:.1f} s: {html} ({html.stat().st_size / 1024:.0f} KiB), "
          f"{files['markdown']}, {files['junit']}")
    return 0


def add_parsers(sub) -> None:
    rp = sub.add_parser("report", help="merge results and write a dashboard (index.html), summary.md and junit.xml")
    rp.add_argument("results", nargs="+", help="results .jsonl files or campaign folders (runs, shards, pytest runs)")
    rp.add_argument("--out", default="reports/dashboard", help="folder to write into (default reports/dashboard)")
    rp.add_argument("--triage", action="append", help="a triage folder whose buckets the failures link to")
    rp.add_argument("--title", default="Conformance dashboard", help="the dashboard's title")
    rp.add_argument("--docs-url", metavar="URL", help="the documentation site the dashboard links outcomes and "
                    "limitations to (default: $CONFORMANCE_DOCS_URL, else the site built by mkdocs in the source tree)")
    rp.set_defaults(fn=cmd_report)
