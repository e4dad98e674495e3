"""The record of one (case, path, mode): what campaigns write to ``results.jsonl`` (format:
``reports/README.md``) and every other producer returns."""

from __future__ import annotations

import json
import platform

from conformance.paths.records import PathRecord
from conformance.program.case import Case
from conformance.version import __version__

SCHEMA_VERSION = 1
OUTCOMES = ("pass", "mismatch", "conversion_error", "runtime_error", "unsupported", "expected_divergence",
            "timeout", "crash", "discarded")
#: Outcomes that are findings worth a look (a campaign's exit status counts these).
FINDINGS = ("mismatch", "conversion_error", "runtime_error", "timeout", "crash")
#: The outcome a record takes from its input sets' outcomes: the first of these any input set has.
SEVERITY = ("crash", "mismatch", "runtime_error", "unsupported", "expected_divergence", "pass")


def base_record(case: Case, path: PathRecord, device: str, versions: dict, mode: str = "infer") -> dict:
    program = case.program
    return {
        "schema": SCHEMA_VERSION,
        "case_id": case.id,
        "program_id": program.id,
        "seed": None,
        "index": None,
        "framework": path.framework,
        "path": path.name,
        "device": device,
        "mode": mode,
        "outcome": None,
        "max_abs_err": None,
        "max_rel_err": None,
        "detail": {"message": ""},
        "timings": {},
        "versions": {"conformance": __version__, "python": platform.python_version(), **versions},
        "constructs": sorted(program.constructs()),
        "ops": sorted(set(program.ops())),
        "case": case.to_dict(),
    }


def finish(record: dict, outcome: str, message: str) -> dict:
    assert outcome in OUTCOMES, outcome
    record["outcome"] = outcome
    record["detail"]["message"] = message
    return record




class ReportError(ValueError):
    """Results that cannot be reported (an unreadable file, a record of a newer schema...)."""


REQUIRED = ("schema", "case_id", "framework", "path", "device", "outcome")


def read_records(path) -> list[dict]:
    """Records of a results.jsonl; raises :class:`ReportError` naming the file (and line) it cannot read."""
    records = []
    try:
        f = open(path)
    except OSError as e:
        raise ReportError(f"cannot read {path}: {e.strerror}") from None
    with f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError as e:
                raise ReportError(f"{path}:{n}: not a JSON record ({e})") from None
    return records


def check_record(record, where: str) -> None:
    if not isinstance(record, dict) or not isinstance(record.get("schema"), int):
        raise ReportError(f"{where}: not a conformance result record (no schema number)")
    if record["schema"] > SCHEMA_VERSION:
        raise ReportError(f"{where}: schema {record['schema']} is newer than this conformance reads "
                          f"({SCHEMA_VERSION}); upgrade conformance")
    missing = [k for k in REQUIRED if k not in record]
    if missing:
        raise ReportError(f"{where}: missing {', '.join(missing)}")
    if record["outcome"] not in OUTCOMES:
        raise ReportError(f"{where}: unknown outcome {record['outcome']!r}")
