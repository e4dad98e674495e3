"""Reports from results: merge runs and shards, write the parity dashboard, a Markdown summary, JUnit XML.

    conformance report reports/nightly-* --out reports/dashboard
    conformance report reports/shard0 reports/shard1 ci.jsonl --triage reports/triage --out reports/dashboard

``DIR`` gets ``index.html`` (:mod:`conformance.report.dashboard`), ``summary.md`` and ``junit.xml``
(:mod:`conformance.report.summaries`). Library use::

    from conformance.report import load_results, write_report
    write_report(load_results(["reports/shard0", "reports/shard1"]), "reports/dashboard")
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable, Optional

from conformance.report.dashboard import render_html
from conformance.report.figures import build_dashboard
from conformance.report.results import Results
from conformance.report.summaries import junit_xml, markdown


def write_report(results: Results, out, triage: Iterable = (), title: str = "Conformance dashboard",
                 docs_url: Optional[str] = None) -> dict:
    """Write ``index.html``, ``summary.md`` and ``junit.xml`` into ``out``; returns their paths. The dashboard links
    outcomes and limitations to the documentation site at ``docs_url``
    (:func:`~conformance.report.dashboard.docs_base`)."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    dashboard = build_dashboard(results, triage)
    files = {"html": out / "index.html", "markdown": out / "summary.md", "junit": out / "junit.xml"}
    files["html"].write_text(render_html(dashboard, out, title, docs_url))
    files["markdown"].write_text(markdown(dashboard))
    files["junit"].write_text(junit_xml(dashboard))
    return files
