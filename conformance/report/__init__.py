"""Reports from results files: read and merge them (:mod:`~conformance.report.results`), compute what they
show (:mod:`~conformance.report.figures`), write the dashboard, Markdown and JUnit (:mod:`~conformance.report.writer`).
"""

from conformance.report.results import ReportError, Results, load_results
from conformance.report.writer import write_report

__all__ = ["ReportError", "Results", "load_results", "write_report"]
