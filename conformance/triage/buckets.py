"""Triage a campaign's findings into buckets, one per bug, each with the minimal case that shows it.

:func:`triage` groups findings by their coarse signature (:mod:`conformance.triage.signatures`: framework,
path, mode, outcome, key), minimises one finding per group (:mod:`conformance.triage.reduce`), and puts
each other finding of the group into the bucket whose minimal program's ops and constructs it contains
(else it is minimised in turn, and may found a bucket of its own). :mod:`conformance.triage.bug_report`
writes a folder per bucket; :func:`save_case` adds a bucket to the ``cases/`` corpus.
"""

from __future__ import annotations

import dataclasses
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Optional

from conformance.paths.records import FRAMEWORK_PACKAGES
from conformance.program.case import Case
from conformance.run.records import FINDINGS, ResultRecord
from conformance.triage.corpus import CaseFile, Expectation, write_case_file
from conformance.triage.reduce import SIMPLE_OPS, cost, reduce_case
from conformance.triage.signatures import Signature, signature

BUCKET_SCHEMA = 1

#: ``run(case, path_id, mode)``: the record of a case along a path in a mode (a reduce.Evaluator).
Runner = Callable[[Case, str, str], ResultRecord]


@dataclass(frozen=True)
class Sighting:
    """Where a finding of a bucket was seen: its case, campaign seed and index there."""

    case_id: str
    seed: Optional[int] = None
    index: Optional[int] = None

    @classmethod
    def of(cls, record: ResultRecord) -> "Sighting":
        return cls(record.case_id, record.seed, record.index)

    def to_dict(self) -> dict:
        return {"case_id": self.case_id, "seed": self.seed, "index": self.index}

    @classmethod
    def from_dict(cls, d: dict) -> "Sighting":
        return cls(d["case_id"], d.get("seed"), d.get("index"))


def seen_order(found) -> tuple:
    """Campaign order (seed, then index) of a :class:`Sighting` or a record; None counts first."""
    return (found.seed if found.seed is not None else -1, found.index if found.index is not None else -1)


@dataclass
class TriageBucket:
    """Findings with one signature, and the minimal case that shows it."""

    signature: Signature
    findings: list[Sighting]
    case: Case  # the minimal case (the smallest finding's case when not minimised)
    record: ResultRecord  # the minimal case's record
    reduction: Optional[dict] = None  # reduce.Reduction.to_dict(); None: not minimised
    reproduced: Optional[bool] = None  # did the finding fail the same way when replayed? None: not replayed
    repro: dict = field(default_factory=dict)  # the reproducer: file and how its verification went
    corpus: Optional[str] = None  # the case file in the corpus that has this bug
    #: Where the minimal case first goes wrong, or why that is not known: a localisation's dict
    #: (:meth:`conformance.triage.localize.Localisation.to_dict`, set by :mod:`conformance.triage.first_divergence`)
    localisation: Optional[dict] = None

    @property
    def minimised(self) -> bool:
        return self.reduction is not None

    @property
    def id(self) -> str:
        return self.signature.id

    @property
    def first_seen(self) -> dict:
        return min(self.findings, key=seen_order).to_dict()

    @property
    def case_ids(self) -> list[str]:
        return list(dict.fromkeys(s.case_id for s in sorted(self.findings, key=seen_order)))

    @property
    def failing_input(self) -> int:
        """The index of the first input set of the minimal case that shows the failure."""
        entries = self.record.detail.inputs or []
        return next((e.index for e in entries if e.outcome == self.signature.outcome), 0)

    def folder_name(self, number: int) -> str:
        return f"{number:02d}-{self.signature.framework}-{self.signature.path}-{self.signature.outcome}-{self.id}"

    def to_dict(self) -> dict:
        record = self.record.to_json()
        record.pop("case", None)
        return {"schema": BUCKET_SCHEMA, "id": self.id, "title": self.signature.title(), "path": self.signature.path_id,
                "signature": self.signature.to_dict(), "count": len(self.findings), "case_ids": self.case_ids,
                "first_seen": self.first_seen, "findings": [s.to_dict() for s in self.findings],
                "known_issue": self.record.detail.known_issue, "minimised": self.minimised,
                "reduction": self.reduction, "reproduced": self.reproduced, "case": self.case.to_dict(),
                "failing_input": self.failing_input, "record": record, "repro": self.repro, "corpus": self.corpus,
                "localisation": self.localisation}

    @classmethod
    def from_dict(cls, d: dict) -> "TriageBucket":
        return cls(Signature.from_dict(d["signature"]), [Sighting.from_dict(s) for s in d["findings"]],
                   Case.from_dict(d["case"]), ResultRecord.from_json(d["record"]), d.get("reduction"),
                   d.get("reproduced"), d.get("repro") or {}, d.get("corpus"), d.get("localisation"))


def read_buckets(folder: Path) -> list[TriageBucket]:
    """The buckets a triage wrote under ``folder`` (each ``*/bucket.json``)."""
    found = sorted(Path(folder).glob("*/bucket.json"))
    buckets = []
    for file in found:
        try:
            buckets.append(TriageBucket.from_dict(json.loads(file.read_text())))
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as e:
            raise ValueError(f"{file}: not a bucket written by conformance triage ({type(e).__name__}: {e})") from None
    return buckets


def _program_size(record: ResultRecord) -> int:
    return Case.from_dict(record.case).program.size()


def triage(records: Iterable[ResultRecord], run: Optional[Runner] = None, *,
           outcomes: Iterable[str] = FINDINGS, max_seconds: float = 600.0, reduce_seconds: float = 120.0,
           progress: Callable[[str], None] = lambda line: None) -> list[TriageBucket]:
    """Group the findings among ``records`` into buckets, minimising with ``run(case, path_id, mode)``.

    Every finding is minimised while ``max_seconds`` last (the smallest of each group first, then the
    rest), ``reduce_seconds`` at most each; findings with the same minimal signature share a bucket.
    A bucket whose minimal program has the constructs and non-trivial ops of another bucket of its
    group (not none), and more, joins that one. Findings left when the time is up (or all, with
    ``run=None``) join a bucket of their group whose minimal ops and constructs they contain, or else one
    bucket of their group marked not minimised.
    """
    wanted = set(outcomes)
    findings = sorted((r for r in records if r.outcome in wanted), key=seen_order)
    groups: dict[Signature, list[ResultRecord]] = {}
    for record in findings:
        groups.setdefault(signature(record), []).append(record)
    for members in groups.values():
        members.sort(key=lambda r: (_program_size(r), seen_order(r)))
    t0 = time.monotonic()
    placed: dict[Signature, list[TriageBucket]] = {coarse: [] for coarse in groups}
    leftovers: dict[Signature, list[ResultRecord]] = {coarse: [] for coarse in groups}
    for phase in ("first of each group", "the others"):
        first = phase == "first of each group"
        for n, (coarse, members) in enumerate(groups.items(), 1):
            if first:
                progress(f"[{n}/{len(groups)}] {coarse.title()[:150]} ({len(members)} finding(s))")
            for record in members[:1] if first else members[1:]:
                left = max_seconds - (time.monotonic() - t0)
                if run is None or left <= 0:
                    leftovers[coarse].append(record)
                    continue
                minimal = minimise_finding(record, coarse, run, min(reduce_seconds, left), progress, verbose=first)
                place_finding(record, minimal, placed[coarse])
    buckets = []
    for coarse, mine in placed.items():
        mine = _merge_supersets(mine)
        rest = []
        for record in leftovers[coarse]:
            home = next((b for b in mine if b.minimised and b.signature.within(record.ops, record.constructs)), None)
            if home is not None:
                home.findings.append(Sighting.of(record))
            else:
                rest.append(record)
        if rest:
            case = Case.from_dict(rest[0].case)
            mine.append(TriageBucket(coarse.with_program(case.program), [Sighting.of(r) for r in rest], case, rest[0]))
        buckets += mine
    return sorted(buckets, key=lambda b: seen_order(min(b.findings, key=seen_order)))


def _merge_supersets(buckets: list[TriageBucket]) -> list[TriageBucket]:
    """A minimal program with the constructs and non-trivial ops of another bucket, and more, is taken for the
    same bug (its reduction got stuck on something the moves cannot remove, or needed another trivial op to
    keep a loop going): the buckets merge."""
    buckets = sorted(buckets, key=lambda b: len(b.signature.ops) + len(b.signature.constructs))
    merged: list[TriageBucket] = []
    for bucket in buckets:
        features = nontrivial_features(bucket.signature)
        home = next((m for m in merged if bucket.minimised and m.minimised and nontrivial_features(m.signature)
                     and nontrivial_features(m.signature) <= features), None)
        if home is not None:
            home.findings += bucket.findings
        else:
            merged.append(bucket)
    return merged


def nontrivial_features(sig: Signature) -> set:
    """A signature's constructs and ops but the trivial ones the reducer simplifies others to."""
    return set(sig.constructs) | (set(sig.ops) - {name for name, _ in SIMPLE_OPS})


def minimise_finding(record: ResultRecord, coarse: Signature, run: Runner, seconds: float, progress,
                     verbose: bool) -> TriageBucket:
    """A bucket of one finding: its minimal case (or the case itself if a replay fails otherwise)."""
    keep = lambda rec: rec.outcome == coarse.outcome and signature(rec) == coarse  # noqa: E731
    case = Case.from_dict(record.case)
    replayed = run(case, coarse.path_id, coarse.mode)
    if not keep(replayed):
        progress(f"    case {record.case_id} did not fail the same way when replayed ({replayed.outcome}): "
                 f"not minimised")
        return TriageBucket(coarse.with_program(case.program), [Sighting.of(record)], case, record, reproduced=False)
    reduction = reduce_case(case, keep, lambda c: run(c, coarse.path_id, coarse.mode), record=replayed,
                            max_seconds=seconds,
                            progress=(lambda line: progress("      " + line)) if verbose else (lambda line: None))
    progress(f"    case {record.case_id}: {reduction.size_before} -> {reduction.size} statements in "
             f"{reduction.seconds:.1f} s ({reduction.tried} tried{'' if reduction.complete else ', time ran out'})")
    return TriageBucket(coarse.with_program(reduction.case.program), [Sighting.of(record)], reduction.case,
                        reduction.record, reduction.to_dict(), True)


def place_finding(record: ResultRecord, new: TriageBucket, buckets: list[TriageBucket]) -> None:
    """Put a minimised finding in the bucket with its signature (keeping the smaller case), or a new one."""
    same = next((b for b in buckets if b.signature == new.signature and b.reproduced == new.reproduced), None)
    if same is None:
        buckets.append(new)
        return
    same.findings.append(Sighting.of(record))
    if new.minimised and cost(new.case) < cost(same.case):
        same.case, same.record, same.reduction = new.case, new.record, new.reduction


# ------------------------------------------------------------------ the corpus


def find_in_corpus(bucket: TriageBucket, case_files: list) -> Optional[Path]:
    """A case file of the corpus with this bucket's bug: same framework, path, outcome and key, and
    programs of which one has the other's ops and constructs."""
    mine = bucket.signature
    for case_file in case_files:
        if not case_file.signature:
            continue
        try:
            theirs = Signature.from_dict(case_file.signature)
        except (KeyError, TypeError):
            continue
        if theirs.blame is None:  # a case saved before findings were blamed on a component: any component
            theirs = dataclasses.replace(theirs, blame=mine.blame)
        if theirs.coarse() == mine.coarse() and (theirs.within(mine.ops, mine.constructs)
                                                 or mine.within(theirs.ops, theirs.constructs)):
            return case_file.file
    return None


def save_case(bucket: TriageBucket, cases_dir: Path, date: Optional[str] = None) -> Path:
    """Add a bucket's minimal case to the corpus as ``<framework>-<path>-<outcome>-<id>.json``.

    Its expectation is the bucket's outcome on this framework version and later (so a fix upstream
    shows up as an unexpected pass); rename the file and edit its summary as you see fit."""
    sig = bucket.signature
    if sig.mode != "infer":
        raise ValueError(f"bucket {bucket.id} is a {sig.mode}-mode finding: the corpus replays inference only")
    versions, package = bucket.record.versions, FRAMEWORK_PACKAGES.get(sig.framework, sig.framework)
    version = str(versions.get(package, "")).split("+")[0]
    major_minor = ".".join(version.split(".")[:2])
    others = ", ".join(f"{k} {v}" for k, v in versions.items() if k not in ("conformance", "python", package))
    seen = bucket.first_seen
    source = (f"found by conformance {date or time.strftime('%Y-%m-%d')} ({sig.framework} {version}"
              + (f", {others}" if others else "") + f"; campaign seed {seen['seed']}, case {seen['case_id']})")
    case_file = CaseFile(Path(cases_dir) / f"{sig.framework}-{sig.path}-{sig.outcome}-{bucket.id}.json",
                         f"{sig.path_id} {sig.outcome}: {sig.key}", source,
                         {sig.path_id: (Expectation(sig.outcome, f">={major_minor}" if major_minor else ""),)},
                         case=bucket.case, signature=sig.to_dict())
    return write_case_file(case_file.file, case_file)
