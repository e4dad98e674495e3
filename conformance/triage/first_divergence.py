"""First divergence wherever a finding is shown: what triage, the dashboard, ``conformance replay --localize``
and ``check()`` call (see :mod:`conformance.triage.localize`, :mod:`conformance.triage.localize_models`).

A localisation travels as :meth:`~conformance.triage.localize.Localisation.to_dict` under the key
``localisation``: in a result record's ``detail`` (:func:`attach`), in ``bucket.json``; :func:`summary_line`
reads it back from either for a table or the dashboard, and :func:`markdown` for ``REPORT.md``.

    python -m conformance.triage.first_divergence results.jsonl [--limit 20] [--paths to_static,onnx]

localises the findings of a results file (one per path, mode, outcome and message, like buckets) in a worker
process and prints one line each.
"""

from __future__ import annotations

import argparse
import time
from typing import Optional

from conformance.program.case import Case
from conformance.run.records import FINDINGS, ResultRecord, read_results
from conformance.triage.localize import Localisation, Runner, localize

KEY = "localisation"


def localize_record(record, runner: Optional[Runner] = None, *, device: str = "cpu",
                    max_conversions: int = 20) -> Localisation:
    """The first divergence of a finding record (a :class:`ResultRecord` or its JSON form) that carries its case;
    ``runner`` by default runs candidates in this process (:class:`~conformance.triage.localize_workers.InProcess`)."""
    from conformance.triage.localize_workers import InProcess

    data = record.to_json() if hasattr(record, "to_json") else dict(record)
    if not data.get("case"):
        return Localisation("unavailable", "the record carries no case (a model of your own: localise it with "
                                           "conformance.triage.localize_models.localize_model)")
    return localize(Case.from_dict(data["case"]), data, runner or InProcess(device), max_conversions=max_conversions)


def attach(record: ResultRecord, localisation: Localisation) -> ResultRecord:
    """Keep the localisation in the record: ``detail.localisation`` in its JSON form."""
    record.detail.extra[KEY] = localisation.to_dict()
    return record


def localisation_of(thing) -> Optional[Localisation]:
    """The localisation kept in a record (its JSON form or a :class:`ResultRecord`) or a ``bucket.json`` dict."""
    data = thing.to_json() if hasattr(thing, "to_json") else thing
    if not isinstance(data, dict):
        return None
    found = data.get(KEY) or (data.get("detail") or {}).get(KEY) or ((data.get("record") or {}).get("detail") or
                                                                      {}).get(KEY)
    return Localisation.from_dict(found) if found else None


def summary_line(thing) -> str:
    """One line for a table or the dashboard's failure list: where it first goes wrong, or why that is not known."""
    loc = localisation_of(thing)
    return loc.summary() if loc else "not localised"


def markdown(thing) -> str:
    """The ``## First divergence`` section of ``REPORT.md`` ("" where there is no localisation)."""
    loc = localisation_of(thing)
    return loc.markdown() if loc else ""


def _representatives(records: list, paths: list, limit: int) -> list:
    seen, out = set(), []
    for r in records:
        if r.outcome not in FINDINGS or not r.case or (paths and r.path not in paths):
            continue
        key = (r.framework, r.path, r.mode, r.outcome, r.detail.message[:60])
        if key not in seen:
            seen.add(key)
            out.append(r)
    return out[:limit]


def main(argv=None) -> int:
    from conformance.triage.localize_workers import LocalizeEvaluator

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results")
    ap.add_argument("--limit", type=int, default=20)
    ap.add_argument("--paths", default="", help="path names, comma separated (default: all)")
    ap.add_argument("--load", action="append", default=[], help="import this module in the worker first")
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--timeout", type=float, default=300.0)
    args = ap.parse_args(argv)
    picked = _representatives(read_results(args.results), [p for p in args.paths.split(",") if p], args.limit)
    counts: dict = {}
    with LocalizeEvaluator(tuple(args.load), args.device, args.timeout) as worker:
        for r in picked:
            t0 = time.monotonic()
            loc = localize_record(r, worker)
            counts[loc.status] = counts.get(loc.status, 0) + 1
            print(f"{r.path_id}@{r.mode} {r.outcome} ({r.case_id}): {loc.summary()[:200]} "
                  f"[{loc.conversions} conversions, {time.monotonic() - t0:.1f} s]", flush=True)
    print(", ".join(f"{n} {status}" for status, n in counts.items()) or "no findings with a case")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
