"""The dashboard's per-op table (like the ONNX backend scoreboard's per-operator table): for each op record, how
many programs of the latest records used it, and per path the outcomes of those programs' records there. An op no
program used is listed as not drawn, so a gap in a campaign's coverage shows as plainly as a failing op. Each cell
also tells the op's pairwise coverage there (:func:`pair_coverage`): the share of its reachable attribute pairs
(:mod:`conformance.program.coverage`) that programs judged on that path held. An op whose programs a path stopped
judging when a known bug naming it fired (:func:`stopped_ops`) is listed apart in the summary lines.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Optional

from conformance.program.coverage import OpCoverage, judged_coverage, pairs, statement_features, summary_lines
from conformance.report.figures import Tally
from conformance.run.records import NOT_JUDGED, ResultRecord


@dataclass
class OpRow:
    """One op: its family, the programs (distinct cases) that used it, and a tally per path id."""

    op: str
    family: str
    programs: int = 0
    cells: dict[str, Tally] = field(default_factory=dict)
    pairs: dict[str, OpCoverage] = field(default_factory=dict)

    def cell(self, path: str) -> Tally:
        return self.cells.get(path, Tally())

    def pair_share(self, path: str) -> Optional[OpCoverage]:
        """The op's pairwise coverage on ``path`` (None: not judged there)."""
        return self.pairs.get(path)


@dataclass
class OpTable:
    """Rows in the order of the op records (ops the records do not know, from older results, last), columns the
    path ids in the order the records first name them."""

    paths: list[str]
    rows: list[OpRow]
    #: one line per path: the share of the reachable attribute pairs of the ops drawn judged there, the ops at 95%
    pair_lines: list[str] = field(default_factory=list)

    @property
    def not_drawn(self) -> list[str]:
        return [row.op for row in self.rows if not row.programs]


def op_table(records: Iterable[ResultRecord], stopped: Optional[dict] = None) -> OpTable:
    """Per op and path, the outcomes of the records whose program used the op, and its pairwise coverage there;
    ``stopped`` (:func:`stopped_ops`): the ops a known bug stopped each path judging, listed apart in the lines."""
    records = list(records)
    from conformance.program.ops import OPS

    rows = {name: OpRow(name, rec.family) for name, rec in OPS.items()}
    cases: dict[str, set] = {}
    paths: dict[str, None] = {}
    for r in records:
        paths.setdefault(r.path_id)
        for op in set(r.ops):
            row = rows.setdefault(op, OpRow(op, "other"))
            row.cells.setdefault(r.path_id, Tally()).add(r.outcome)
            cases.setdefault(op, set()).add(r.case_id)
    for op, used in cases.items():
        rows[op].programs = len(used)
    coverage = pair_coverage(records)
    for (op, path), c in coverage.items():
        rows.setdefault(op, OpRow(op, "other")).pairs[path] = c
    return OpTable(list(paths), list(rows.values()), summary_lines(coverage, stopped))


def pair_coverage(records: Iterable[ResultRecord]) -> dict[tuple[str, str], OpCoverage]:
    """Per (op, path id): pairwise coverage of the records that judged a program (not ``NOT_JUDGED``) with the
    case saved in the record."""
    from conformance.program.case import Case
    from conformance.program.ir import ProgramError

    judged: dict[tuple[str, str], set] = {}
    per_case: dict[str, list] = {}
    for r in records:
        if r.outcome in NOT_JUDGED or not r.case:
            continue
        if r.case_id not in per_case:
            try:
                program = Case.from_dict(r.case).program
            except (ProgramError, KeyError, TypeError, ValueError):  # a case of an older format
                per_case[r.case_id] = []
            else:
                per_case[r.case_id] = [(op, pairs(feats)) for op, feats in statement_features(program)]
        for op, got in per_case[r.case_id]:
            judged.setdefault((op, r.path_id), set()).update(got)
    return judged_coverage(judged)


def stopped_ops_of(sources: Iterable) -> dict[str, dict[str, str]]:
    """:func:`stopped_ops` of several campaigns (the runs a dashboard reads) together."""
    out: dict[str, dict[str, str]] = {}
    for source in sources:
        for path, ops in stopped_ops(source).items():
            out.setdefault(path, {}).update(ops)
    return out


def stopped_ops(source) -> dict[str, dict[str, str]]:
    """Per path id, the ops whose programs the path stopped judging because a known bug selecting them fired
    (:mod:`conformance.run.steering`: the ops it names, and those whose statements exercise a construct it names),
    each with the bug's text: read from the campaign's ``plan.jsonl`` beside the results ``source`` (a results file
    or campaign folder; none there: nothing stopped). An op counts only where the path skipped its programs in every
    mode the path ran; a construct no op statement exercises (a data-dependent if) stops programs, not an op."""
    import json
    from pathlib import Path

    from conformance.paths.known import all_records
    from conformance.run.plan import PLAN_FILE
    from conformance.run.records import results_file
    from conformance.run.steering import selected_ops

    plan = results_file(source).parent / PLAN_FILE
    if not plan.exists():
        return {}
    bugs = {lim.text: lim for lim in all_records()}
    modes: dict[str, set] = {}
    stopped: dict[str, dict[str, dict]] = {}  # path id -> op -> {mode: bug text}
    for line in Path(plan).read_text().splitlines():
        entry = json.loads(line) if line.strip() else {}
        for key in list(entry.get("tasks", ())) + list(entry.get("steered", {})):
            path, _, mode = key.partition("@")
            modes.setdefault(path, set()).add(mode)
        for key, text in entry.get("steered", {}).items():
            path, _, mode = key.partition("@")
            for op in selected_ops(bugs[text]) if text in bugs else ():
                stopped.setdefault(path, {}).setdefault(op, {})[mode] = text
    out = {path: {op: next(iter(by_mode.values())) for op, by_mode in ops.items() if set(by_mode) >= modes[path]}
           for path, ops in stopped.items()}
    return {path: ops for path, ops in out.items() if ops}

