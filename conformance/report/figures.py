"""What the report shows, computed once from merged results (:class:`Dashboard`): outcome groups, the
framework/path × construct matrix, latency relative to eager, the trend across version sets, the
failures grouped (by triage bucket where one holds the case, else by triage's signature key; an ONNX
path's by the component they are blamed on too), and the configuration errors, each once."""

from __future__ import annotations

import json
import re
import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, NamedTuple, Optional

from conformance.judge.blame import label_of
from conformance.report.results import Results, version_key
from conformance.run.records import FINDINGS, ReportError, ResultRecord, path_id
from conformance.triage.first_divergence import localisation_of, summary_line
from conformance.triage.signatures import failure_key

#: How the dashboard groups outcomes. Only ``pass`` is a pass: ``unsupported``, ``expected`` (a documented
#: specialisation) and ``not judged`` (discarded by the branch-flip guard) never count as one.
GROUPS: dict[str, tuple[str, ...]] = {
    "pass": ("pass",),
    "mismatch": ("mismatch",),
    "error": tuple(o for o in FINDINGS if o != "mismatch"),
    "unsupported": ("unsupported",),
    "expected": ("expected_divergence",),
    "not judged": ("discarded",),
    "harness error": ("harness_error",),
}
GROUP_OF = {o: g for g, outcomes in GROUPS.items() for o in outcomes}
#: Outcomes whose record timed the converted model on every input set (usable for latency).
RAN = ("pass", "mismatch", "expected_divergence")


# ------------------------------------------------------------------ the matrix


@dataclass
class Tally:
    """Outcome counts of a set of records, by group."""

    counts: Counter = field(default_factory=Counter)

    @classmethod
    def of(cls, records: Iterable[ResultRecord]) -> "Tally":
        return cls(Counter(GROUP_OF[r.outcome] for r in records))

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
        counts = self.counts
        if not self.judged:
            return "empty"
        for group in ("mismatch", "error"):
            if counts[group]:
                return group
        return "pass" if counts["pass"] == self.judged else "partial" if counts["pass"] else "unsupported"

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


def _features(record: ResultRecord, family_of: dict) -> set:
    return ({Column("all", "all")} | {Column("construct", c) for c in record.constructs}
            | {Column("family", family_of.get(op, "other")) for op in record.ops})


def _op_families() -> dict:
    from conformance.program.ops import OPS

    return {name: rec.family for name, rec in OPS.items()}


def row_key(record: ResultRecord) -> tuple:
    """A matrix row: (framework, path, device, mode)."""
    return record.framework, record.path, record.device, record.mode


def row_label(key: tuple) -> str:
    return path_id(key[0], key[1]) + (f" ({key[3]})" if key[3] != "infer" else "")


def anchor(key: tuple) -> str:
    return "fail-" + re.sub(r"[^A-Za-z0-9_-]", "-", "-".join(key))


@dataclass
class Matrix:
    """Rows (framework, path, device, mode) × columns (all cases, each construct, each op family)."""

    rows: list[tuple]
    columns: list[Column]
    cells: dict[tuple, Tally]  # (row, column) -> tally

    def cell(self, row: tuple, column: Column) -> Tally:
        return self.cells.get((row, column), Tally())


def build_matrix(records: list[ResultRecord]) -> Matrix:
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
            cells[(row, col)].add(r.outcome)
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


def latency(records: list[ResultRecord], reference: str = "eager") -> dict[tuple, Latency]:
    """Per row: timings of the records whose converted model ran on every input set (``RAN``)."""
    ran = [r for r in records if r.outcome in RAN and r.timings.run_s is not None]
    eager = {(r.case_id, r.framework, r.device, r.mode): r.timings.run_s for r in ran if r.path == reference}
    by_row: dict[tuple, list[ResultRecord]] = defaultdict(list)
    for r in ran:
        by_row[row_key(r)].append(r)
    out = {}
    for row, rs in by_row.items():
        ratios = [r.timings.run_s / e for r in rs if (e := eager.get((r.case_id, r.framework, r.device, r.mode)))
                  and e > 0]
        converts = [r.timings.convert_s for r in rs if r.timings.convert_s is not None]
        out[row] = Latency(_median(ratios), _median([r.timings.run_s for r in rs]), _median(converts), len(ratios))
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
        tallies[(row_key(r), version_key(r.versions))].add(r.outcome)
    rows = list(dict.fromkeys(row_key(r) for r in results.records))
    out = []
    for fw, sets in results.version_sets.items():
        keys = [version_key(v) for v in sets]
        paths = {row: [tallies.get((row, k)) for k in keys] for row in rows if row[0] == fw}
        out.append(Trend(fw, version_labels(sets, fw), sets, paths))
    return out


# ------------------------------------------------------------------ failures


@dataclass
class BucketFolder:
    """A bucket folder written by triage, as the report links to it: ``bucket.json`` names its cases (see
    reports/README.md)."""

    directory: Path
    title: str
    case_ids: frozenset
    path: Optional[str]  # "framework.path", or None for any path
    files: list[str]  # repro.py, runtime/repro.py (onnxruntime's bugs), REPORT.md: those present
    first_divergence: str = "not localised"  # where its minimal case first goes wrong, or why that is not known

    def matches(self, record: ResultRecord) -> bool:
        return record.case_id in self.case_ids and self.path in (None, record.path_id)


def read_triage(folder) -> list[BucketFolder]:
    """The buckets under a triage folder: every ``*/bucket.json`` (or the folder's own)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ReportError(f"--triage {folder}: not a folder")
    own = folder / "bucket.json"
    found = sorted(folder.glob("*/bucket.json")) + ([own] if own.exists() else [])
    bucket_folders = []
    for file in found:
        try:
            doc = json.loads(file.read_text())
            ids = frozenset(doc["case_ids"])
        except (json.JSONDecodeError, KeyError, TypeError) as e:
            raise ReportError(f"{file}: a bucket needs a JSON object with a list 'case_ids' ({e})")
        title = doc.get("title") or doc.get("signature") or file.parent.name
        files = [f for f in ("repro.py", "runtime/repro.py", "REPORT.md") if (file.parent / f).exists()]
        bucket_folders.append(BucketFolder(file.parent, str(title), ids, doc.get("path"), files,
                                           summary_line(doc) if doc.get("localisation") else
                                           "not localised (a triage from before localisation)"))
    return bucket_folders


@dataclass
class FailureGroup:
    """Failures of one path grouped: by triage bucket where one holds the case, else by outcome and
    :func:`conformance.triage.signatures.failure_key` (the error with what varies blanked, the kind of
    divergence of a mismatch, the signal of a crash): triage's signature before its minimisation."""

    row: tuple
    outcome: str
    title: str
    records: list[ResultRecord]
    triage: Optional[BucketFolder] = None
    #: An ONNX path's findings: the component they are blamed on (:func:`conformance.judge.blame.label_of`:
    #: ``exporter``, ``onnxruntime.kernel``, ``onnxruntime.optimizer``, ``undecided``); None elsewhere.
    blame: Optional[str] = None

    @property
    def first_divergence(self) -> str:
        """Where the bucket first goes wrong (its triage bucket's localisation, else one kept in a record by
        ``conformance replay --localize``), or why that is not known."""
        if self.triage is not None:
            return self.triage.first_divergence
        kept = next((r for r in self.records if localisation_of(r) is not None), None)
        if kept is not None:
            return f"{summary_line(kept)} (case {kept.case_id})"
        return ("not localised: conformance triage localises every bucket (pass its folder with --triage), "
                "conformance replay --localize a case")

    @property
    def common_constructs(self) -> list[str]:
        return sorted(set.intersection(*(set(r.constructs) for r in self.records)))

    @property
    def common_ops(self) -> list[str]:
        return sorted(set.intersection(*(set(r.ops) for r in self.records)))


def failure_groups(records: list[ResultRecord], triage: list[BucketFolder] = ()) -> dict[tuple, list[FailureGroup]]:
    """Per row, the groups of its findings (``FINDINGS`` outcomes), most severe and largest first."""
    grouped: dict[tuple, FailureGroup] = {}
    for r in records:
        if r.outcome not in FINDINGS:
            continue
        folder = next((b for b in triage if b.matches(r)), None)
        blame = label_of(r.detail.blame)
        key = (row_key(r), r.outcome, folder.directory if folder else failure_key(r), blame)
        if key not in grouped:
            grouped[key] = FailureGroup(row_key(r), r.outcome, folder.title if folder else key[2], [], folder, blame)
        grouped[key].records.append(r)
    out: dict[tuple, list[FailureGroup]] = defaultdict(list)
    for group in sorted(grouped.values(), key=lambda g: (FINDINGS.index(g.outcome), -len(g.records))):
        out[group.row].append(group)
    return dict(out)


# ------------------------------------------------------------------ all of it


@dataclass
class Dashboard:
    """Everything the outputs show, computed once from merged results."""

    results: Results
    latest: list[ResultRecord]
    matrix: Matrix
    latency: dict[tuple, Latency]
    trends: list[Trend]
    failure_groups: dict[tuple, list[FailureGroup]]
    configuration_errors: list["ConfigurationError"] = field(default_factory=list)


@dataclass
class ConfigurationError:
    """Records that say one configuration error (``detail.configuration``: the installed runtime cannot load what
    an exporter wrote): shown once, never among the failures."""

    message: str
    paths: list[str]
    records: int


def configuration_errors(records: list[ResultRecord]) -> list[ConfigurationError]:
    """The configuration errors among the records, each message once."""
    found: dict[str, ConfigurationError] = {}
    for r in records:
        if r.detail.configuration:
            error = found.setdefault(r.detail.message, ConfigurationError(r.detail.message, [], 0))
            error.records += 1
            if r.path_id not in error.paths:
                error.paths.append(r.path_id)
    return list(found.values())


def build_dashboard(results: Results, triage: Iterable = ()) -> Dashboard:
    latest = results.latest()
    bucket_folders = [b for folder in triage for b in read_triage(folder)]
    return Dashboard(results, latest, build_matrix(latest), latency(latest), trends(results),
                     failure_groups(latest, bucket_folders), configuration_errors(latest))


def describe_versions(versions: dict, framework: str) -> str:
    """``tf 2.21.0 (onnx 1.19.0, ...)``: the framework's version (recorded under its package's name) first."""
    from conformance.paths.records import FRAMEWORK_PACKAGES

    package = FRAMEWORK_PACKAGES.get(framework, framework)
    rest = ", ".join(f"{k} {v}" for k, v in sorted(versions.items()) if k not in (framework, package))
    return f"{framework} {versions.get(package, versions.get(framework, '?'))}" + (f" ({rest})" if rest else "")


def replay_command(record: ResultRecord, results: Results) -> str:
    """The command that reruns a record's case along its path (from the file it was read from)."""
    return (f"conformance replay {results.run_of(record).file} --case-id {record.case_id} "
            f"--frameworks {record.framework} --paths {record.path_id}"
            + (f" --device {record.device}" if record.device != "cpu" else ""))
