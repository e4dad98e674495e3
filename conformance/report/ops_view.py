"""The dashboard's per-op table (like the ONNX backend scoreboard's per-operator table): for each op record, how
many programs of the latest records used it, and per path the outcomes of those programs' records there. An op no
program used is listed as not drawn, so a gap in a campaign's coverage shows as plainly as a failing op.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from conformance.report.figures import Tally
from conformance.run.records import ResultRecord


@dataclass
class OpRow:
    """One op: its family, the programs (distinct cases) that used it, and a tally per path id."""

    op: str
    family: str
    programs: int = 0
    cells: dict[str, Tally] = field(default_factory=dict)

    def cell(self, path: str) -> Tally:
        return self.cells.get(path, Tally())


@dataclass
class OpTable:
    """Rows in the order of the op records (ops the records do not know, from older results, last), columns the
    path ids in the order the records first name them."""

    paths: list[str]
    rows: list[OpRow]

    @property
    def not_drawn(self) -> list[str]:
        return [row.op for row in self.rows if not row.programs]


def op_table(records: Iterable[ResultRecord]) -> OpTable:
    """Per op and path, the outcomes of the records whose program used the op."""
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
    return OpTable(list(paths), list(rows.values()))
