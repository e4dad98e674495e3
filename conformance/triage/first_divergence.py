"""First divergence wherever a finding is shown: what triage, the dashboard, ``conformance replay --localize``
and ``check()`` call (see :mod:`conformance.triage.localize`, :mod:`conformance.triage.localize_models`).

A localisation travels as :meth:`~conformance.triage.localize.Localisation.to_dict` under the key
``localisation``: in a result record's ``detail`` (:func:`attach`), in ``bucket.json``
(:func:`localize_buckets`, which ``conformance triage`` runs on every bucket); :func:`summary_line`
reads it back from either for a table or the dashboard, and :func:`markdown` for ``REPORT.md``.

    python -m conformance.triage.first_divergence results.jsonl [--limit 20] [--paths to_static,onnx]

localises the findings of a results file (one per path, mode, outcome and message, like buckets) in a worker
process and prints one line each.
"""

from __future__ import annotations

import argparse
import time
from typing import Callable, Optional

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


def localize_buckets(buckets: list, runner: Runner, *, max_seconds: float = 600.0,
                     progress: Callable[[str], None] = lambda line: None) -> None:
    """Localise each triage bucket's minimal case (``bucket.localisation``) with ``runner`` (a
    :class:`~conformance.triage.localize_workers.LocalizeEvaluator`), while ``max_seconds`` last; a bucket left
    out says why (a timeout, a finding that did not fail the same way when replayed, the time ran out)."""
    t0 = time.monotonic()
    for n, b in enumerate(buckets, 1):
        why = _not_localisable(b, max_seconds - (time.monotonic() - t0), max_seconds)
        if why:
            loc = Localisation("unavailable", why)
        else:
            try:
                loc = localize(b.case, b.record, runner)
            except Exception as e:  # noqa: BLE001 - conformance's own error: said in the bucket, never a finding
                loc = Localisation("unavailable", f"the localiser failed (an error of conformance's, not of the "
                                                  f"path: please report it): {type(e).__name__}: {e}")
        b.localisation = loc.to_dict()
        progress(f"[{n}/{len(buckets)}] {b.id}: {loc.summary()[:160]} ({loc.conversions} conversions, "
                 f"{loc.seconds:.1f} s)")


def _not_localisable(bucket, left: float, max_seconds: float) -> str:
    """Why a bucket is not localised ("" where it is)."""
    outcome = bucket.signature.outcome
    if outcome == "timeout":
        return ("a timeout: every truncated program could run until the timeout, so bisecting would cost up to "
                "20 timeouts; not localised")
    if bucket.reproduced is False:
        return ("the finding did not fail the same way when triage replayed it (flaky, or it needs what ran before "
                "it in the campaign's process): nothing steady to localise")
    if max_seconds <= 0:
        return "not localised (conformance triage --localize-seconds 0)"
    if left <= 0:
        return f"not localised: triage's time for localisation (--localize-seconds {max_seconds:g}) ran out"
    return ""


def localisation_of(thing) -> Optional[Localisation]:
    """The localisation kept in a record (its JSON form or a :class:`ResultRecord`) or a ``bucket.json`` dict."""
    if isinstance(thing, ResultRecord):
        found = thing.detail.extra.get(KEY)
        return Localisation.from_dict(found) if found else None
    data = thing
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
    """The ``## First divergence`` section of ``REPORT.md`` (where there is no localisation, it says so)."""
    loc = localisation_of(thing)
    return loc.markdown() if loc else "## First divergence\n\nNot localised (a triage from before localisation).\n"


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
