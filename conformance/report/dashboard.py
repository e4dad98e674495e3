"""The parity dashboard: one self-contained HTML file (inline CSS and SVG, no script, nothing fetched when it
opens), to attach to a CI run or publish as it is: a framework/path × construct matrix, the run time of each
path relative to eager, a trend across framework versions, and the failures grouped into buckets with replay
commands (and triage reproducers, with ``--triage``). The numbers come from :mod:`conformance.report.figures`.
"""

from __future__ import annotations

import math
import os
import time
from pathlib import Path
from typing import Optional

from conformance.report.figures import (
    GROUPS,
    Dashboard,
    Tally,
    Trend,
    anchor,
    describe_versions,
    replay_command,
    row_label,
)
from conformance.report.ops_view import op_table, stopped_ops_of

PALETTE = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f",
           "#bab0ac")
MAX_BUCKETS_PER_ROW = 50
MAX_CASES_PER_BUCKET = 10


# ------------------------------------------------------------------ plots (inline SVG geometry)


def _log_ticks(lo: float, hi: float) -> list[float]:
    """Powers of ten around [lo, hi], at least two."""
    first, last = math.floor(math.log10(lo)), math.ceil(math.log10(hi))
    return [10.0 ** e for e in range(first, max(last, first + 1) + 1)]


def bar_chart(items: list[tuple[str, Optional[float]]], unit: str, width: int = 640,
              reference: Optional[float] = None) -> dict:
    """Geometry of a horizontal bar chart on a log scale: ``items`` are (label, value), None left out.
    With ``reference``, bars start at the reference value (left of it: faster than the reference)."""
    items = [(label, v) for label, v in items if v is not None and v > 0]
    if not items:
        return {}
    left, right, row_h = 190, width - 70, 20
    values = [v for _, v in items] + ([reference] if reference else [])
    ticks = _log_ticks(min(values), max(values))
    lo, hi = math.log10(ticks[0]), math.log10(ticks[-1])
    x = lambda v: left + (right - left) * (math.log10(v) - lo) / (hi - lo)  # noqa: E731
    base = x(reference) if reference else left
    height = row_h * len(items) + 30
    bars = [{"label": label, "y": 4 + i * row_h, "x0": min(base, x(v)), "x1": max(base, x(v), min(base, x(v)) + 1),
             "value": fmt(v) + unit} for i, (label, v) in enumerate(items)]
    return {"width": width, "height": height, "bars": bars, "axis_y": height - 24, "left": left, "right": right,
            "ticks": [{"x": x(t), "label": fmt(t) + unit} for t in ticks],
            "reference": base if reference else None}


def line_chart(trend: Trend, width: int = 640, height: int = 220) -> dict:
    """Geometry of the trend: pass rate (pass / judged) per path over version sets."""
    left, right, top, bottom = 44, width - 16, 10, height - 28
    n = len(trend.labels)
    xs = [left + (right - left) * (i / (n - 1) if n > 1 else 0.5) for i in range(n)]
    y = lambda rate: bottom - (bottom - top) * rate  # noqa: E731
    lines = []
    for i, (row, tallies) in enumerate(trend.paths.items()):
        points = [{"x": xs[j], "y": y(t.pass_rate), "title": f"{row_label(row)} · {trend.labels[j]}: "
                   f"{t.pass_rate:.0%} pass ({t.counts['pass']}/{t.judged}); {t.describe()}"}
                  for j, t in enumerate(tallies) if t is not None and t.pass_rate is not None]
        lines.append({"label": row_label(row), "color": PALETTE[i % len(PALETTE)], "points": points,
                      "polyline": " ".join(f"{p['x']:.1f},{p['y']:.1f}" for p in points)})
    return {"width": width, "height": height, "lines": lines, "left": left, "right": right, "bottom": bottom,
            "grid": [{"y": y(f), "label": f"{f:.0%}"} for f in (0, 0.25, 0.5, 0.75, 1.0)],
            "xlabels": [{"x": x, "label": f"v{j + 1}"} for j, x in enumerate(xs)]}


def fmt(v: float) -> str:
    """A number for a chart or a table: three significant digits, thousands grouped."""
    return f"{v:.3g}" if v < 1000 else f"{v:,.0f}"


# ------------------------------------------------------------------ the page


def device_suffix(row: tuple, rows: list[tuple]) -> str:
    """`` [cuda]`` where rows of several devices are shown, else nothing."""
    return f" [{row[2]}]" if len({r[2] for r in rows}) > 1 else ""


#: Where the dashboard's links into the documentation point when no base is given: ``$CONFORMANCE_DOCS_URL``, else
#: the site built in the source tree this package runs from (``mkdocs build`` writes ``site/``).
DOCS_URL_VARIABLE = "CONFORMANCE_DOCS_URL"


def docs_base(docs_url: Optional[str] = None) -> Optional[str]:
    """The base URL of the documentation site the dashboard links outcomes and limitations to: ``docs_url``, else
    ``$CONFORMANCE_DOCS_URL``, else the site built beside this package's source (a ``file://`` URL), else None (no
    links)."""
    base = docs_url or os.environ.get(DOCS_URL_VARIABLE)
    if not base:
        site = Path(__file__).resolve().parents[2] / "site"
        base = site.as_uri() if (site / "index.html").is_file() else None
    return base.rstrip("/") + "/" if base else None


def docs_link(base: Optional[str], page: str, anchor: str) -> Optional[str]:
    """The URL of ``anchor`` on a page of the documentation site (``concepts/outcomes``), or None without a base."""
    return f"{base}{page}.html#{anchor.replace(' ', '-')}" if base else None


def render_html(dashboard: Dashboard, out: Path, title: str, docs_url: Optional[str] = None) -> str:
    from jinja2 import Environment, PackageLoader, select_autoescape

    env = Environment(loader=PackageLoader("conformance.report", "templates"),
                      autoescape=select_autoescape(default=True), trim_blocks=True, lstrip_blocks=True)
    env.filters["pct"] = lambda v: "–" if v is None else f"{v:.0%}"
    env.filters["num"] = lambda v, unit="": "–" if v is None else fmt(v) + unit
    env.filters["relpath"] = lambda p: os.path.relpath(p, out)
    results = dashboard.results
    base = docs_base(docs_url)
    env.globals.update(outcome_doc=lambda outcome: docs_link(base, "concepts/outcomes", outcome),
                       limitation_doc=lambda path: docs_link(base, "reference/paths", path))
    env.globals.update(row_label=row_label, anchor=anchor, groups=list(GROUPS), describe_versions=describe_versions,
                       replay=lambda r: replay_command(r, results), source_of=lambda r: results.run_of(r).source)
    rows = dashboard.matrix.rows
    lat = dashboard.latency
    run_chart = bar_chart([(row_label(r) + device_suffix(r, rows), lat[r].vs_eager if r in lat else None)
                           for r in rows], "×", reference=1.0)
    convert_chart = bar_chart([(row_label(r) + device_suffix(r, rows), lat[r].convert_s if r in lat else None)
                               for r in rows], " s")
    frameworks_latest = [describe_versions(sets[-1], fw) for fw, sets in results.version_sets.items()]
    from conformance.triage.bisect import STORE, bisection_for, load_store

    bisections = load_store(STORE)
    return env.get_template("dashboard.html").render(
        title=title, dashboard=dashboard, results=results, rows=rows, columns=dashboard.matrix.columns,
        matrix=dashboard.matrix, latency=lat, run_chart=run_chart, convert_chart=convert_chart,
        trends=[(t, line_chart(t)) for t in dashboard.trends], frameworks_latest=frameworks_latest,
        totals=Tally.of(dashboard.latest), device_suffix=lambda r: device_suffix(r, rows),
        ops=op_table(dashboard.latest, stopped_ops_of(run.source for run in results.runs)),
        max_buckets=MAX_BUCKETS_PER_ROW, max_cases=MAX_CASES_PER_BUCKET,
        bisections=bisections, bisections_file=STORE, bisection_of=lambda b: bisection_for(b, bisections),
        generated=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))
