"""What :func:`conformance.check.check` returns: one :class:`PathResult` per path in a :class:`CheckReport`,
printed as a table, written as JSON or Markdown, and asserted on in a user's tests."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Sequence

from conformance.run.records import FINDINGS, ResultRecord


class ConformanceMismatch(AssertionError):
    """Raised by :meth:`CheckReport.raise_on_mismatch`; ``.report`` holds the :class:`CheckReport`."""

    def __init__(self, report: "CheckReport", failing: list):
        super().__init__(f"{len(failing)} conversion path(s) disagree with eager: "
                         f"{', '.join(r.path for r in failing)}\n{report}")
        self.report = report


@dataclass
class PathResult:
    """The verdict on one path: an outcome of the fuzzer's (``pass``, ``mismatch``, ``conversion_error``,
    ``unsupported``, ``timeout``, ``crash``, ``harness_error`` ...), the worst errors, the smallest tolerances
    that would have passed, times, and for a mismatch the first submodule whose output differs
    (``localisation``, see :mod:`conformance.triage.localize_models`)."""

    path: str
    outcome: str
    message: str
    max_abs_err: Optional[float]
    max_rel_err: Optional[float]
    required_atol: Optional[float]
    required_rtol: Optional[float]
    convert_s: Optional[float]
    run_s: Optional[float]
    record: ResultRecord = field(repr=False)

    @property
    def localisation(self) -> Optional[dict]:
        """Where a mismatch first goes wrong (``status``, ``submodule``, ``message``...), or None."""
        return self.record.detail.extra.get("localisation")

    @property
    def named(self) -> str:
        """What names a non-passing outcome: the documented limitation or known bug it matched ("" if none)."""
        detail = self.record.detail
        return detail.limitation or detail.known_issue or ""


@dataclass
class CheckReport:
    """What :func:`~conformance.check.check` found: one :class:`PathResult` per path, and notes on the input
    sets."""

    model: str
    framework: str
    device: str
    input_sets: list[str]
    results: list[PathResult]
    notes: list[str]
    #: The installed onnxruntime cannot load the opset the ONNX paths would write (each message once): those
    #: paths are ``unsupported`` records with ``detail.configuration``, never findings; see ``onnx_opset``.
    configuration_errors: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """No path is a finding (mismatch, conversion or runtime error, timeout, crash) or a harness error."""
        return not any(r.outcome in FINDINGS or r.outcome == "harness_error" for r in self.results)

    def __getitem__(self, path: str) -> PathResult:
        for r in self.results:
            if path in (r.path, r.path.split(".", 1)[-1]):
                return r
        raise KeyError(f"no result for path {path!r}; have {', '.join(r.path for r in self.results)}")

    def raise_on_mismatch(self, outcomes: Sequence[str] = ("mismatch",)) -> "CheckReport":
        """Raise :class:`ConformanceMismatch` if a path has one of ``outcomes`` (default: a silent mismatch).

        Pass ``outcomes=conformance.run.records.FINDINGS`` to fail on conversion errors and crashes too."""
        failing = [r for r in self.results if r.outcome in outcomes]
        if failing:
            raise ConformanceMismatch(self, failing)
        return self

    def to_dict(self) -> dict:
        return {"model": self.model, "framework": self.framework, "device": self.device,
                "input_sets": self.input_sets, "notes": self.notes, "configuration_errors": self.configuration_errors,
                "records": [r.record.to_json() for r in self.results]}

    def title(self) -> str:
        return (f"conformance check of {self.model} ({self.framework}, {self.device}); "
                f"input sets: {', '.join(self.input_sets)}")

    def rows(self) -> tuple[list[str], list[list[str]]]:
        header = ["path", "outcome", "max abs err", "max rel err", "atol to pass", "rtol to pass", "time", "message"]
        rows = [[r.path, r.outcome, _num(r.max_abs_err), _num(r.max_rel_err), _num(r.required_atol),
                 _num(r.required_rtol), _secs(r), _message(r)] for r in self.results]
        return header, rows

    def localisations(self) -> list[str]:
        """One line per mismatching path: where it first goes wrong."""
        return [f"{r.path}: {_where(r.localisation)}" for r in self.results if r.localisation]

    def __str__(self) -> str:
        header, rows = self.rows()
        widths = [max(len(h), *(len(row[i]) for row in rows)) if rows else len(h) for i, h in enumerate(header)]
        widths[-1] = len(header[-1])
        line = lambda cells: "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()  # noqa: E731
        out = [self.title(), line(header)]
        out += [line(row) for row in rows]
        out += [f"first divergence: {loc}" for loc in self.localisations()]
        out += [f"note: {n}" for n in self.notes]
        out += [f"configuration error: {e}" for e in self.configuration_errors]
        return "\n".join(out)

    def to_markdown(self) -> str:
        header, rows = self.rows()
        cell = lambda text: text.replace("|", "\\|")  # noqa: E731
        out = [f"# {self.title()}", "", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        out += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
        if self.localisations():
            out += ["", "## First divergence", ""] + [f"- {cell(loc)}" for loc in self.localisations()]
        if self.notes or self.configuration_errors:
            out += ["", "## Notes", ""] + [f"- {n}" for n in self.notes]
            out += [f"- configuration error: {e}" for e in self.configuration_errors]
        return "\n".join(out) + "\n"


def _where(loc: dict) -> str:
    if loc.get("status") == "found":
        return f"submodule {loc.get('submodule')!r} ({loc.get('method')}): {_one_line(loc.get('message', ''), 200)}"
    return f"{loc.get('status')}: {_one_line(loc.get('message', ''), 200)}"


def _message(r: PathResult) -> str:
    if r.record.detail.configuration:
        return "the runtime cannot load it: a configuration error (below), not a finding"
    named = f" [{_one_line(r.named, 60)}]" if r.named and r.outcome != "pass" else ""
    return _one_line(r.message) + named


def _num(x) -> str:
    return "-" if x is None else f"{x:.3g}"


def _secs(r: PathResult) -> str:
    total = (r.convert_s or 0.0) + (r.run_s or 0.0)
    return f"{total:.3f}s" if r.convert_s is not None else "-"


def _one_line(text: str, n: int = 110) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= n else text[: n - 3] + "..."


def path_result(pid: str, record: ResultRecord) -> PathResult:
    failures = [f for e in record.detail.inputs or [] for f in (e.report or {}).get("failures", [])]
    need = lambda key: max((f[key] for f in failures if f.get(key) is not None), default=None)  # noqa: E731
    return PathResult(pid, record.outcome, record.detail.message, record.max_abs_err, record.max_rel_err,
                      need("required_atol"), need("required_rtol"), record.timings.convert_s, record.timings.run_s,
                      record)
