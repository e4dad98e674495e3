"""The op table that ``conformance ops`` prints, generated from the records, and per-op coverage of a campaign.

:func:`op_rows` gives one row per record (what it is, the frameworks with an emitter, the gaps and why,
the notes); :func:`op_coverage` counts, per op and path, how many result records of programs using the op
there are, by outcome (the ONNX backend scoreboard's per-operator table); :func:`table` puts both into
headings and string rows for a terminal table.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable, Optional

from conformance.program.ops.record import FRAMEWORKS, OPS, OpRecord


def notes(rec: OpRecord) -> str:
    """What a user of the op should know: discontinuities, tolerance, differences by design, float32 inside."""
    parts = (["discontinuous"] if rec.discontinuous else []) + \
        ([rec.tolerance] if rec.tolerance else []) + \
        [f"differs in {fw} by design: {why}" for fw, why in rec.differs.items()] + \
        [f"{fw} computes part of its float64 run in float32: {why}" for fw, why in rec.fp32_in_fp64.items()] + \
        (["data-dependent output size"] if rec.data_dependent else [])
    return "; ".join(parts)


def op_rows() -> list[dict]:
    """One dict per op record, in table order."""
    return [{"op": rec.name, "family": rec.family, "arity": rec.arity, "what": rec.doc,
             "frameworks": list(rec.frameworks), "gaps": dict(rec.missing), "notes": notes(rec)}
            for rec in OPS.values()]


def family_counts() -> dict[str, int]:
    """How many records each family has."""
    return dict(Counter(rec.family for rec in OPS.values()))


def gaps() -> dict[str, dict[str, str]]:
    """Per framework, the ops without an emitter there and why."""
    return {fw: {rec.name: rec.missing[fw] for rec in OPS.values() if fw in rec.missing} for fw in FRAMEWORKS}


def op_coverage(results: Iterable[tuple[Iterable[str], str, str]]) -> dict[str, dict[str, Counter]]:
    """Per op and path id, the outcomes of the result records of programs using the op: ``results`` are
    ``(ops of the record's program, path id, outcome)`` triples, one per result record."""
    coverage: dict[str, dict[str, Counter]] = {}
    for ops, path, outcome in results:
        for op in set(ops):
            coverage.setdefault(op, {}).setdefault(path, Counter())[outcome] += 1
    return coverage


def coverage_text(per_path: dict[str, Counter], pairs: Optional[dict] = None) -> str:
    """``torch.script 12: 10 pass, 2 mismatch; pairs 96% (48/50)`` lines for one op's coverage (``pairs``: per path,
    its pairwise coverage there, :class:`~conformance.program.coverage.OpCoverage`)."""
    return "\n".join(f"{path} {sum(counts.values())}: "
                     + ", ".join(f"{n} {outcome}" for outcome, n in counts.most_common())
                     + (f"; pairs {pairs[path]}" if pairs and path in pairs else "")
                     for path, counts in sorted(per_path.items()))


def table(coverage: Optional[dict[str, dict[str, Counter]]] = None,
          pairs: Optional[dict] = None) -> tuple[str, list[str], list[list[str]]]:
    """A title, headings and rows of strings for ``conformance ops`` (with a coverage column when given; ``pairs``:
    per (op, path id), the op's pairwise coverage there)."""
    per_op: dict[str, dict] = {}
    for (op, path), c in (pairs or {}).items():
        per_op.setdefault(op, {})[path] = c
    headings = ["op", "family", "arity", "what", "frameworks", "notes"] + (["coverage"] if coverage is not None else [])
    rows = []
    for row in op_rows():
        frameworks = ", ".join(row["frameworks"]) + "".join(f"\nno {fw}: {why}" for fw, why in row["gaps"].items())
        cells = [row["op"], row["family"], str(row["arity"]), row["what"], frameworks, row["notes"]]
        if coverage is not None:
            cells.append(coverage_text(coverage.get(row["op"], {}), per_op.get(row["op"])) or "not drawn")
        rows.append(cells)
    families = ", ".join(f"{family} {n}" for family, n in sorted(family_counts().items()))
    missing = sum(len(g) for g in gaps().values())
    title = f"{len(OPS)} op records ({families}); {missing} framework gaps"
    return title, headings, rows
