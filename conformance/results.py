"""Results files from Python: the record of one (case, path, mode) and the one reader of ``results.jsonl``.

    >>> from conformance.results import FINDINGS, read_results
    >>> findings = [r for r in read_results("reports/latest") if r.outcome in FINDINGS]

A :class:`ResultRecord` is what campaigns write (one JSON line each), what :func:`conformance.check_case`
returns and what ``pytest --conformance-results`` collects; it is also a read-only mapping of its JSON form
(``record["outcome"]``). :data:`OUTCOMES` is the closed set of outcomes, :data:`FINDINGS` those a campaign's
exit status counts. The format, field by field, is in the documentation's results schema.
"""

from conformance.run.records import (
    FINDINGS,
    OUTCOMES,
    InputResult,
    ReportError,
    ResultDetail,
    ResultRecord,
    Timings,
    read_results,
)

__all__ = ["FINDINGS", "OUTCOMES", "InputResult", "ReportError", "ResultDetail", "ResultRecord", "Timings",
           "read_results"]
