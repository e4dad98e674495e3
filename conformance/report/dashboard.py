"""Reports from results: merge runs and shards, render the parity dashboard, a Markdown summary, JUnit XML.

    conformance report reports/nightly-* --out reports/dashboard
    conformance report reports/shard0 reports/shard1 ci.jsonl --triage reports/triage --out reports/dashboard

Each argument is a ``results.jsonl`` (from ``conformance fuzz`` or from ``pytest --conformance-results``)
or a campaign folder holding one beside its ``manifest.json``. ``DIR`` gets:

* ``index.html``: the dashboard, one self-contained file (inline CSS and SVG, no script, nothing fetched
  when it opens), to attach to a CI run or publish as it is: a framework/path × construct matrix, the
  run time of each path relative to eager, a trend across framework versions, and the failures grouped
  into buckets with replay commands (and triage reproducers, with ``--triage``);
* ``summary.md``: the same numbers in Markdown, for CI logs;
* ``junit.xml``: one test case per (case, path), for CI systems that read JUnit.

How records are merged: records are self-describing (schema in ``reports/README.md``), so the records
of any runs, shards and pytest sessions can be read together. The ``versions`` of a framework's records
(the framework, its runtimes, conformance, Python) make a *version set*: one point of the trend. The
same (case, path, device) recorded twice under one version set counts once (the last one read). The
matrix, latency, failures and JUnit show each framework's latest version set; runs are ordered by their
manifests' start times where every run has a manifest, else as given.

Library use::

    from conformance.report.dashboard import load_results, write_report
    write_report(load_results(["reports/shard0", "reports/shard1"]), "reports/dashboard")
"""

from __future__ import annotations

import json
import math
import os
import re
import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, NamedTuple, Optional

from conformance.run.records import FINDINGS, ReportError, check_record, read_records

#: How the dashboard groups outcomes. Only ``pass`` is a pass: ``unsupported``, ``expected`` (a documented
#: specialisation) and ``not judged`` (discarded by the branch-flip guard) never count as one.
GROUPS: dict[str, tuple[str, ...]] = {
    "pass": ("pass",),
    "mismatch": ("mismatch",),
    "error": tuple(o for o in FINDINGS if o != "mismatch"),
    "unsupported": ("unsupported",),
    "expected": ("expected_divergence",),
    "not judged": ("discarded",),
}
GROUP_OF = {o: g for g, outcomes in GROUPS.items() for o in outcomes}
#: Outcomes whose record timed the converted model on every input set (usable for latency).
RAN = ("pass", "mismatch", "expected_divergence")
PALETTE = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f",
           "#bab0ac")
MAX_BUCKETS_PER_ROW = 50
MAX_CASES_PER_BUCKET = 10


# ------------------------------------------------------------------ the results model


@dataclass
class Run:
    """One results file as read: where it came from, its manifest (None without one), its records."""

    source: Path
    manifest: Optional[dict]
    records: list[dict]

    @property
    def file(self) -> Path:
        return results_file(self.source)


def results_file(source: Path) -> Path:
    """The results file a source names: a ``.jsonl`` itself, or a campaign folder's ``results.jsonl``."""
    return source / "results.jsonl" if source.is_dir() else source


@dataclass
class Results:
    """Records of several runs merged (see the module docstring for the rules)."""

    runs: list[Run]
    records: list[dict]
    duplicates: int
    #: per framework, its version sets (``versions`` dicts), oldest first
    version_sets: dict[str, list[dict]]
    #: ``id(record)`` -> the run it was read from
    origin: dict[int, Run] = field(default_factory=dict, repr=False)

    def latest(self) -> list[dict]:
        """The records of each framework's latest version set."""
        newest = {fw: version_key(sets[-1]) for fw, sets in self.version_sets.items()}
        return [r for r in self.records if version_key(r["versions"]) == newest[r["framework"]]]


def version_key(versions: dict) -> tuple:
    """A hashable key of a ``versions`` dict (names and versions, sorted)."""
    return tuple(sorted(versions.items()))


def read_run(source) -> Run:
    """Read a ``results.jsonl`` or a folder holding one (and its ``manifest.json``, if any)."""
    source = Path(source)
    file = results_file(source)
    records = read_records(file)
    for n, record in enumerate(records, 1):
        check_record(record, f"{file}: record {n}")
    manifest_file = file.parent / "manifest.json"
    manifest = None
    if file.name == "results.jsonl" and manifest_file.exists():
        try:
            manifest = json.loads(manifest_file.read_text())
        except json.JSONDecodeError as e:
            raise ReportError(f"{manifest_file}: not valid JSON ({e})")
    run = Run(source, manifest, records)
    _fill_framework_versions(run)
    return run


def _fill_framework_versions(run: Run) -> None:
    """A record whose eager reference failed carries no framework version: take its run's."""
    usual: dict[str, Counter] = defaultdict(Counter)
    for r in run.records:
        r.setdefault("versions", {})
        if r["framework"] in r["versions"]:
            usual[r["framework"]][version_key(r["versions"])] += 1
    for r in run.records:
        if r["framework"] not in r["versions"] and usual[r["framework"]]:
            r["versions"] = dict(usual[r["framework"]].most_common(1)[0][0])


def merge(runs: list[Run]) -> Results:
    """Merge runs: order them, drop repeated (case, path, device, versions), collect version sets."""
    if runs and all((r.manifest or {}).get("started") for r in runs):
        runs = sorted(runs, key=lambda r: r.manifest["started"])
    merged: dict[tuple, dict] = {}
    version_sets: dict[str, dict[tuple, dict]] = defaultdict(dict)
    origin: dict[int, Run] = {}
    total = 0
    for run in runs:
        for r in run.records:
            total += 1
            key = version_key(r["versions"])
            version_sets[r["framework"]].setdefault(key, r["versions"])
            merged[(r["case_id"], r["framework"], r["path"], r["device"], _mode(r), key)] = r
            origin[id(r)] = run
    return Results(runs, list(merged.values()), total - len(merged),
                   {fw: list(sets.values()) for fw, sets in version_sets.items()}, origin)


def load_results(sources: Iterable) -> Results:
    """Read and merge results files or campaign folders."""
    return merge([read_run(s) for s in sources])


# ------------------------------------------------------------------ the matrix


@dataclass
class Tally:
    """Outcome counts of a set of records, by group."""

    counts: Counter = field(default_factory=Counter)

    @classmethod
    def of(cls, records: Iterable[dict]) -> "Tally":
        return cls(Counter(GROUP_OF[r["outcome"]] for r in records))

    def add(self, outcome: str) -> None:
        self.counts[GROUP_OF[outcome]] += 1

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def judged(self) -> int:
        return self.total - self.counts["not judged"]

    @property
    def pass_rate(self) -> Optional[float]:
        return self.counts["pass"] / self.judged if self.judged else None

    @property
    def status(self) -> str:
        """The colour of a cell: its worst group, or ``pass`` when every judged case passed."""
        c = self.counts
        if not self.judged:
            return "empty"
        for group in ("mismatch", "error"):
            if c[group]:
                return group
        return "pass" if c["pass"] == self.judged else "partial" if c["pass"] else "unsupported"

    def segments(self) -> list[tuple[str, float]]:
        """(group, percent of all cases) for a stacked bar."""
        return [(g, 100.0 * self.counts[g] / self.total) for g in GROUPS if self.counts[g]]

    def describe(self) -> str:
        return f"{self.total} cases: " + ", ".join(f"{self.counts[g]} {g}" for g in GROUPS)


class Column(NamedTuple):
    kind: str  # "all", "construct" or "family"
    name: str

    @property
    def heading(self) -> str:
        return {"all": "all cases", "construct": self.name, "family": f"ops: {self.name}"}[self.kind]


def _features(record: dict, family_of: dict) -> set:
    return ({Column("all", "all")} | {Column("construct", c) for c in record.get("constructs", ())}
            | {Column("family", family_of.get(op, "other")) for op in record.get("ops", ())})


def _op_families() -> dict:
    from conformance.program.ops import OPS

    return {name: rec.family for name, rec in OPS.items()}


def _mode(record: dict) -> str:
    """The runner mode of a record: ``infer`` (outputs), ``grad`` or ``train`` (records before modes: infer)."""
    return record.get("mode", "infer")


def row_key(record: dict) -> tuple:
    """A matrix row: (framework, path, device, mode)."""
    return record["framework"], record["path"], record["device"], _mode(record)


def row_label(key: tuple) -> str:
    return f"{key[0]}.{key[1]}" + (f" ({key[3]})" if key[3] != "infer" else "")


def anchor(key: tuple) -> str:
    return "fail-" + re.sub(r"[^A-Za-z0-9_-]", "-", "-".join(key))


@dataclass
class Matrix:
    """Rows (framework, path, device) × columns (all cases, each construct, each op family)."""

    rows: list[tuple]
    columns: list[Column]
    cells: dict[tuple, Tally]  # (row, column) -> tally

    def cell(self, row: tuple, column: Column) -> Tally:
        return self.cells.get((row, column), Tally())


def build_matrix(records: list[dict]) -> Matrix:
    """Columns come from the data: the constructs the records' programs use (alphabetical) and every
    op family of the op records (``other`` for ops this version does not know)."""
    family_of = _op_families()
    cells: dict[tuple, Tally] = defaultdict(Tally)
    rows: dict[tuple, None] = {}
    seen: set = set()
    for r in records:
        row = row_key(r)
        rows.setdefault(row)
        for col in _features(r, family_of):
            seen.add(col)
            cells[(row, col)].add(r["outcome"])
    families = list(dict.fromkeys(family_of.values())) + (["other"] if Column("family", "other") in seen else [])
    columns = ([Column("all", "all")] + sorted((c for c in seen if c.kind == "construct"), key=lambda c: c.name)
               + [Column("family", f) for f in families])
    return Matrix(list(rows), columns, dict(cells))


# ------------------------------------------------------------------ latency


@dataclass
class Latency:
    """Medians over cases of one path: its run time relative to eager on the same case, its run and
    conversion times in seconds (None where no case measured it)."""

    vs_eager: Optional[float]
    run_s: Optional[float]
    convert_s: Optional[float]
    cases: int


def _median(values: list) -> Optional[float]:
    return statistics.median(values) if values else None


def latency(records: list[dict], reference: str = "eager") -> dict[tuple, Latency]:
    """Per row: timings of the records whose converted model ran on every input set (``RAN``)."""
    ran = [r for r in records if r["outcome"] in RAN and r.get("timings", {}).get("run_s") is not None]
    eager = {(r["case_id"], r["framework"], r["device"], _mode(r)): r["timings"]["run_s"]
             for r in ran if r["path"] == reference}
    by_row: dict[tuple, list[dict]] = defaultdict(list)
    for r in ran:
        by_row[row_key(r)].append(r)
    out = {}
    for row, rs in by_row.items():
        ratios = [r["timings"]["run_s"] / e for r in rs
                  if (e := eager.get((r["case_id"], r["framework"], r["device"], _mode(r)))) and e > 0]
        converts = [r["timings"]["convert_s"] for r in rs if r["timings"].get("convert_s") is not None]
        out[row] = Latency(_median(ratios), _median([r["timings"]["run_s"] for r in rs]), _median(converts),
                           len(ratios))
    return out


# ------------------------------------------------------------------ trend


def version_labels(version_sets: list[dict], framework: str) -> list[str]:
    """Short, distinct labels: the framework's version, plus whatever else differs between the sets."""
    keys = sorted({k for v in version_sets for k in v if k != framework})
    differing = [k for k in keys if len({v.get(k) for v in version_sets}) > 1]
    return [" · ".join([f"{framework} {v.get(framework, '?')}"] + [f"{k} {v.get(k, '-')}" for k in differing])
            for v in version_sets]


@dataclass
class Trend:
    framework: str
    labels: list[str]  # one per version set, oldest first
    versions: list[dict]
    paths: dict[tuple, list[Optional[Tally]]]  # row -> tally per version set (None: not run there)


def trends(results: Results) -> list[Trend]:
    tallies: dict[tuple, Tally] = defaultdict(Tally)
    for r in results.records:
        tallies[(row_key(r), version_key(r["versions"]))].add(r["outcome"])
    rows = list(dict.fromkeys(row_key(r) for r in results.records))
    out = []
    for fw, sets in results.version_sets.items():
        keys = [version_key(v) for v in sets]
        paths = {row: [tallies.get((row, k)) for k in keys] for row in rows if row[0] == fw}
        out.append(Trend(fw, version_labels(sets, fw), sets, paths))
    return out


# ------------------------------------------------------------------ failures


@dataclass
class TriageBucket:
    """A bucket folder written by triage: ``bucket.json`` names its cases (see reports/README.md)."""

    directory: Path
    title: str
    case_ids: frozenset
    path: Optional[str]  # "framework.path", or None for any path
    files: list[str]  # repro.py, REPORT.md: those present

    def matches(self, record: dict) -> bool:
        return record["case_id"] in self.case_ids and self.path in (None, f"{record['framework']}.{record['path']}")


def read_triage(folder) -> list[TriageBucket]:
    """The buckets under a triage folder: every ``*/bucket.json`` (or the folder's own)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ReportError(f"--triage {folder}: not a folder")
    found = sorted(folder.glob("*/bucket.json")) + ([folder / "bucket.json"] if (folder / "bucket.json").exists() else [])
    buckets = []
    for file in found:
        try:
            doc = json.loads(file.read_text())
            ids = frozenset(doc["case_ids"])
        except (json.JSONDecodeError, KeyError, TypeError) as e:
            raise ReportError(f"{file}: a bucket needs a JSON object with a list 'case_ids' ({e})")
        title = doc.get("title") or doc.get("signature") or file.parent.name
        files = [f for f in ("repro.py", "REPORT.md") if (file.parent / f).exists()]
        buckets.append(TriageBucket(file.parent, str(title), ids, doc.get("path"), files))
    return buckets


@dataclass
class Bucket:
    """Failures of one path grouped: by triage bucket where one holds the case, else by outcome and
    :func:`conformance.triage.failure_key` (the error with what varies blanked, the kind of divergence
    of a mismatch, the signal of a crash): triage's signature before its minimisation."""

    row: tuple
    outcome: str
    title: str
    records: list[dict]
    triage: Optional[TriageBucket] = None

    @property
    def common_constructs(self) -> list[str]:
        return sorted(set.intersection(*(set(r.get("constructs", ())) for r in self.records)))

    @property
    def common_ops(self) -> list[str]:
        return sorted(set.intersection(*(set(r.get("ops", ())) for r in self.records)))


def buckets(records: list[dict], triage: list[TriageBucket] = ()) -> dict[tuple, list[Bucket]]:
    """Per row, the buckets of its findings (``FINDINGS`` outcomes), most severe and largest first."""
    from conformance.triage.buckets import failure_key

    grouped: dict[tuple, Bucket] = {}
    for r in records:
        if r["outcome"] not in FINDINGS:
            continue
        tb = next((b for b in triage if b.matches(r)), None)
        key = (row_key(r), r["outcome"], tb.directory if tb else failure_key(r))
        if key not in grouped:
            grouped[key] = Bucket(row_key(r), r["outcome"], tb.title if tb else key[2], [], tb)
        grouped[key].records.append(r)
    out: dict[tuple, list[Bucket]] = defaultdict(list)
    for b in sorted(grouped.values(), key=lambda b: (FINDINGS.index(b.outcome), -len(b.records))):
        out[b.row].append(b)
    return dict(out)


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
             "value": _fmt(v) + unit} for i, (label, v) in enumerate(items)]
    return {"width": width, "height": height, "bars": bars, "axis_y": height - 24, "left": left, "right": right,
            "ticks": [{"x": x(t), "label": _fmt(t) + unit} for t in ticks],
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


def _fmt(v: float) -> str:
    return f"{v:.3g}" if v < 1000 else f"{v:,.0f}"


# ------------------------------------------------------------------ outputs


def describe_versions(versions: dict, framework: str) -> str:
    rest = ", ".join(f"{k} {v}" for k, v in sorted(versions.items()) if k != framework)
    return f"{framework} {versions.get(framework, '?')}" + (f" ({rest})" if rest else "")


@dataclass
class Report:
    """Everything the outputs show, computed once from merged results."""

    results: Results
    latest: list[dict]
    matrix: Matrix
    latency: dict[tuple, Latency]
    trends: list[Trend]
    buckets: dict[tuple, list[Bucket]]


def build_report(results: Results, triage: Iterable = ()) -> Report:
    latest = results.latest()
    triage_buckets = [b for folder in triage for b in read_triage(folder)]
    return Report(results, latest, build_matrix(latest), latency(latest), trends(results),
                  buckets(latest, triage_buckets))


def replay_command(record: dict, results: Results) -> str:
    """The command that reruns a record's case along its path (from the file it was read from)."""
    return (f"conformance replay {results.origin[id(record)].file} --case-id {record['case_id']} "
            f"--frameworks {record['framework']} --paths {record['framework']}.{record['path']}"
            + (f" --device {record['device']}" if record["device"] != "cpu" else ""))


def render_html(report: Report, out: Path, title: str) -> str:
    import time

    from jinja2 import Environment, PackageLoader, select_autoescape

    env = Environment(loader=PackageLoader("conformance.report", "templates"), autoescape=select_autoescape(default=True),
                      trim_blocks=True, lstrip_blocks=True)
    env.filters["pct"] = lambda v: "–" if v is None else f"{v:.0%}"
    env.filters["num"] = lambda v, unit="": "–" if v is None else _fmt(v) + unit
    env.filters["relpath"] = lambda p: os.path.relpath(p, out)
    results = report.results
    env.globals.update(row_label=row_label, anchor=anchor, groups=list(GROUPS), describe_versions=describe_versions,
                       replay=lambda r: replay_command(r, results), source_of=lambda r: results.origin[id(r)].source)
    rows = report.matrix.rows
    lat = report.latency
    run_chart = bar_chart([(row_label(r) + _device_suffix(r, rows), lat[r].vs_eager if r in lat else None)
                           for r in rows], "×", reference=1.0)
    convert_chart = bar_chart([(row_label(r) + _device_suffix(r, rows), lat[r].convert_s if r in lat else None)
                               for r in rows], " s")
    frameworks_latest = [describe_versions(sets[-1], fw) for fw, sets in results.version_sets.items()]
    return env.get_template("dashboard.html").render(
        title=title, report=report, results=results, rows=rows, columns=report.matrix.columns,
        matrix=report.matrix, latency=lat, run_chart=run_chart, convert_chart=convert_chart,
        trends=[(t, line_chart(t)) for t in report.trends], frameworks_latest=frameworks_latest,
        totals=Tally.of(report.latest), device_suffix=lambda r: _device_suffix(r, rows),
        max_buckets=MAX_BUCKETS_PER_ROW, max_cases=MAX_CASES_PER_BUCKET,
        generated=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))


def _device_suffix(row: tuple, rows: list[tuple]) -> str:
    """`` [cuda]`` where rows of several devices are shown, else nothing."""
    return f" [{row[2]}]" if len({r[2] for r in rows}) > 1 else ""


def markdown(report: Report) -> str:
    """The Markdown summary: per path outcome groups and latency, failure buckets, the trend."""
    results = report.results
    lines = ["# Conformance report", "",
             f"{len(results.records)} records from {len(results.runs)} run(s)"
             + (f" ({results.duplicates} repeated records counted once)" if results.duplicates else "") + ". "
             + "Latest versions: " + "; ".join(describe_versions(s[-1], fw) for fw, s in results.version_sets.items()),
             "", "| path | device | cases | " + " | ".join(GROUPS) + " | pass rate | run vs eager | convert (median) |",
             "|---|---|" + "---:|" * (len(GROUPS) + 4)]
    for row in report.matrix.rows:
        t = report.matrix.cell(row, Column("all", "all"))
        lat = report.latency.get(row)
        vs = f"{_fmt(lat.vs_eager)}×" if lat and lat.vs_eager is not None else "–"
        conv = f"{_fmt(lat.convert_s)} s" if lat and lat.convert_s is not None else "–"
        rate = f"{t.pass_rate:.0%}" if t.pass_rate is not None else "–"
        lines.append(f"| {row_label(row)} | {row[2]} | {t.total} | " + " | ".join(str(t.counts[g]) for g in GROUPS)
                     + f" | {rate} | {vs} | {conv} |")
    all_buckets = [b for bs in report.buckets.values() for b in bs]
    if all_buckets:
        lines += ["", f"## Findings: {len(all_buckets)} bucket(s)", ""]
        for b in all_buckets:
            where = f" — triage: {b.triage.directory}" if b.triage else ""
            lines.append(f"- `{row_label(b.row)}` [{b.row[2]}] {b.outcome} × {len(b.records)}: "
                         f"{_md_code(b.title)}{where} (e.g. case `{b.records[0]['case_id']}`)")
    for t in report.trends:
        if len(t.labels) < 2:
            continue
        lines += ["", f"## Trend: {t.framework}", "", "| path | " + " | ".join(t.labels) + " |",
                  "|---|" + "---:|" * len(t.labels)]
        for row, tallies in t.paths.items():
            lines.append(f"| {row_label(row)} [{row[2]}] | " + " | ".join(
                "–" if x is None or x.pass_rate is None else f"{x.pass_rate:.0%} ({x.counts['pass']}/{x.judged})"
                for x in tallies) + " |")
    return "\n".join(lines) + "\n"


def _md_code(text: str) -> str:
    return "`" + text.replace("`", "'").replace("|", "\\|") + "`"


_XML_INVALID = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def junit_xml(report: Report) -> str:
    """JUnit XML: a test suite per path, a test case per (case, path) of the latest version sets.

    ``mismatch`` is a failure; conversion and runtime errors, timeouts and crashes are errors;
    ``unsupported``, ``expected_divergence`` and ``discarded`` are skipped with the outcome named.
    """
    import xml.etree.ElementTree as ET

    clean = lambda s: _XML_INVALID.sub("?", str(s))  # noqa: E731
    by_row: dict[tuple, list[dict]] = defaultdict(list)
    for r in report.latest:
        by_row[row_key(r)].append(r)
    root = ET.Element("testsuites", name="conformance")
    totals = Counter()
    for row, records in by_row.items():
        suite = ET.SubElement(root, "testsuite", name=f"{row_label(row)}[{row[2]}]")
        counts = Counter()
        for r in records:
            timings = r.get("timings", {})
            seconds = sum(timings.get(k) or 0.0 for k in ("convert_s", "run_s", "compare_s"))
            name = (f"case {r['index']} " if r.get("index") is not None else "") + r["case_id"]
            case = ET.SubElement(suite, "testcase", classname=f"conformance.{row_label(row)}", name=clean(name),
                                 time=f"{seconds:.6f}")
            message = clean(r.get("detail", {}).get("message", ""))
            group = GROUP_OF[r["outcome"]]
            if group == "mismatch":
                tag = "failure"
            elif group == "error":
                tag = "error"
            elif group != "pass":
                tag = "skipped"
            else:
                continue
            counts[tag] += 1
            el = ET.SubElement(case, tag, type=r["outcome"], message=f"{r['outcome']}: {message.splitlines()[0] if message else ''}"[:500])
            if tag != "skipped":
                el.text = message
        suite.set("tests", str(len(records)))
        for tag, attr in (("failure", "failures"), ("error", "errors"), ("skipped", "skipped")):
            suite.set(attr, str(counts[tag]))
        totals.update(counts)
        totals["tests"] += len(records)
    for tag, attr in (("tests", "tests"), ("failure", "failures"), ("error", "errors"), ("skipped", "skipped")):
        root.set(attr, str(totals[tag]))
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def write_report(results: Results, out, triage: Iterable = (), title: str = "Conformance dashboard") -> dict:
    """Write ``index.html``, ``summary.md`` and ``junit.xml`` into ``out``; returns their paths."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    report = build_report(results, triage)
    files = {"html": out / "index.html", "markdown": out / "summary.md", "junit": out / "junit.xml"}
    files["html"].write_text(render_html(report, out, title))
    files["markdown"].write_text(markdown(report))
    files["junit"].write_text(junit_xml(report))
    return files
