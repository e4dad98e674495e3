"""Results as the report reads them: runs, shards and pytest sessions merged.

Each source is a ``results.jsonl`` (from ``conformance fuzz`` or from ``pytest --conformance-results``) or a
campaign folder holding one beside its ``manifest.json``; its records are read by the one reader of results
files, :func:`conformance.run.records.read_results`.

How records are merged: records are self-describing (schema in ``reports/README.md``), so the records
of any runs, shards and pytest sessions can be read together. The ``versions`` of a framework's records
(the framework, its runtimes, conformance, Python) make a *version set*: one point of the trend. The
same (case, path, device, mode) recorded twice under one version set counts once (the last one read). The
matrix, latency, failures and JUnit show each framework's latest version set; runs are ordered by their
manifests' start times where every run has a manifest, else as given.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Optional

from conformance.run.records import ReportError, ResultRecord, read_results, results_file

__all__ = ["ReportError", "Results", "Run", "load_results", "merge", "read_run", "version_key"]


@dataclass
class Run:
    """One results file as read: where it came from, its manifest (None without one), its records."""

    source: Path
    manifest: Optional[dict]
    records: list[ResultRecord]

    @property
    def file(self) -> Path:
        return results_file(self.source)


@dataclass
class Results:
    """Records of several runs merged (see the module docstring for the rules)."""

    runs: list[Run]
    records: list[ResultRecord]
    duplicates: int
    #: per framework, its version sets (``versions`` dicts), oldest first
    version_sets: dict[str, list[dict]]
    #: ``id(record)`` -> the run it was read from
    origin: dict[int, Run] = field(default_factory=dict, repr=False)

    def latest(self) -> list[ResultRecord]:
        """The records of each framework's latest version set."""
        newest = {fw: version_key(sets[-1]) for fw, sets in self.version_sets.items()}
        return [r for r in self.records if version_key(r.versions) == newest[r.framework]]

    def run_of(self, record: ResultRecord) -> Run:
        return self.origin[id(record)]


def version_key(versions: dict) -> tuple:
    """A hashable key of a ``versions`` dict (names and versions, sorted)."""
    return tuple(sorted(versions.items()))


def read_run(source) -> Run:
    """Read a ``results.jsonl`` or a folder holding one (and its ``manifest.json``, if any)."""
    source = Path(source)
    file = results_file(source)
    records = read_results(file)
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
    from conformance.paths.records import FRAMEWORK_PACKAGES

    versioned = lambda r: FRAMEWORK_PACKAGES.get(r.framework, r.framework) in r.versions  # noqa: E731
    usual: dict[str, Counter] = defaultdict(Counter)
    for r in run.records:
        if versioned(r):
            usual[r.framework][version_key(r.versions)] += 1
    for r in run.records:
        if not versioned(r) and usual[r.framework]:
            r.versions = dict(usual[r.framework].most_common(1)[0][0])


def merge(runs: list[Run]) -> Results:
    """Merge runs: order them, drop repeated (case, path, device, mode, versions), collect version sets."""
    if runs and all((r.manifest or {}).get("started") for r in runs):
        runs = sorted(runs, key=lambda r: r.manifest["started"])
    merged: dict[tuple, ResultRecord] = {}
    version_sets: dict[str, dict[tuple, dict]] = defaultdict(dict)
    origin: dict[int, Run] = {}
    total = 0
    for run in runs:
        for r in run.records:
            total += 1
            key = version_key(r.versions)
            version_sets[r.framework].setdefault(key, r.versions)
            merged[(r.case_id, r.framework, r.path, r.device, r.mode, key)] = r
            origin[id(r)] = run
    return Results(runs, list(merged.values()), total - len(merged),
                   {fw: list(sets.values()) for fw, sets in version_sets.items()}, origin)


def load_results(sources: Iterable) -> Results:
    """Read and merge results files or campaign folders."""
    return merge([read_run(s) for s in sources])
