"""The record of one (case, path, mode): :class:`ResultRecord`, what campaigns write to ``results.jsonl``
(format: ``reports/README.md``) and every other producer (``runner.check``, ``conformance.check``, the
corpus, the reducer, the pytest plugin) returns.

Every producer starts a record with :meth:`ResultRecord.for_case` and ends it with
:meth:`ResultRecord.finish`; :meth:`ResultRecord.to_json` and :meth:`ResultRecord.from_json` are the one
way between a record and its JSON form, and :func:`read_results` is the one reader of results files.
"""

from __future__ import annotations

import json
import platform
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Optional, get_args

from conformance.program.case import Case
from conformance.version import __version__

SCHEMA_VERSION = 1
#: What happened to a case along a path in a mode (the closed set; ``reports/README.md`` says what each means).
Outcome = Literal["pass", "mismatch", "conversion_error", "runtime_error", "unsupported", "expected_divergence",
                  "timeout", "crash", "discarded", "harness_error"]
OUTCOMES: tuple[str, ...] = get_args(Outcome)
#: Outcomes that are findings worth a look (a campaign's exit status counts these). ``harness_error`` (an
#: exception raised in this project's own code) is never a framework's finding: it is this project's bug.
FINDINGS = ("mismatch", "conversion_error", "runtime_error", "timeout", "crash")
#: Outcomes that judged nothing of the program: the harness failed, or the case was unstable (or eager refused it) and
#: was discarded. A program's attribute pairs count as covered on a path only where its record there has another.
NOT_JUDGED = ("harness_error", "discarded")
#: The outcome a record takes from its input sets' outcomes: the first of these any input set has.
SEVERITY = ("harness_error", "crash", "mismatch", "runtime_error", "unsupported", "expected_divergence", "pass")


class ReportError(ValueError):
    """Results that cannot be read (an unreadable file, a record of a newer schema...)."""


def path_id(framework: str, path: str) -> str:
    """The id of a path: ``"torch.script"``."""
    return f"{framework}.{path}"


def split_path_id(pid: str) -> tuple[str, str]:
    """``(framework, path)`` of a :func:`path_id`."""
    framework, _, path = pid.partition(".")
    return framework, path


def checked_outcome(outcome: str) -> str:
    if outcome not in OUTCOMES:
        raise ValueError(f"unknown outcome {outcome!r}; known: {', '.join(OUTCOMES)}")
    return outcome


def _set(out: dict, **values) -> dict:
    """``out`` with the values that are not None."""
    out.update((k, v) for k, v in values.items() if v is not None)
    return out


@dataclass
class InputResult:
    """One input set of a record (``detail.inputs[]``): how the converted model did on it."""

    role: str  # example, values, batch, kwargs; "call" for the calls of a hand-written model
    index: int
    outcome: Optional[str] = None  # set by the runner (an outcome, never "None" once the record is finished)
    message: Optional[str] = None
    #: The oracle compared the outputs: then the JSON has ``max_abs_err`` and ``max_rel_err`` (null where
    #: nothing finite was measured).
    compared: bool = False
    max_abs_err: Optional[float] = None
    max_rel_err: Optional[float] = None
    report: Optional[dict] = None  # the oracle's report (oracle.Report.to_dict()) of a mismatch
    frozen_report: Optional[dict] = None  # against eager replayed on the example's path (paths that specialise)
    flaky: Optional[bool] = None  # a mismatch: did a rerun on the same inputs agree with eager?
    counters: Optional[dict] = None  # the path's counters after this input set ran
    limitation: Optional[str] = None
    known_issue: Optional[str] = None
    #: An ONNX path's mismatch or error on this input set: which component is to blame
    #: (:meth:`conformance.judge.blame.Blame.to_dict`).
    blame: Optional[dict] = None
    extra: dict = field(default_factory=dict)  # fields of a newer writer, kept as read

    def to_json(self) -> dict:
        out = {"role": self.role, "index": self.index, **self.extra}
        if self.compared:
            out.update(max_abs_err=self.max_abs_err, max_rel_err=self.max_rel_err)
        return _set(out, outcome=self.outcome, message=self.message, report=self.report,
                    frozen_report=self.frozen_report, flaky=self.flaky, counters=self.counters,
                    limitation=self.limitation, known_issue=self.known_issue, blame=self.blame)

    @classmethod
    def from_json(cls, d: dict) -> "InputResult":
        known = {"role", "index", "outcome", "message", "max_abs_err", "max_rel_err", "report", "frozen_report",
                 "flaky", "counters", "limitation", "known_issue", "blame"}
        return cls(d.get("role", ""), d.get("index", 0), d.get("outcome"), d.get("message"), "max_abs_err" in d,
                   d.get("max_abs_err"), d.get("max_rel_err"), d.get("report"), d.get("frozen_report"),
                   d.get("flaky"), d.get("counters"), d.get("limitation"), d.get("known_issue"), d.get("blame"),
                   {k: v for k, v in d.items() if k not in known})


@dataclass
class ResultDetail:
    """What happened, beyond the outcome (``detail``): the fields a producer leaves None are not written."""

    message: str = ""  # the error, or the oracle's summary of the first failing input set
    traceback: Optional[str] = None
    limitation: Optional[str] = None  # the documented limitation that made it ``unsupported``
    known_issue: Optional[str] = None  # the known-bug record an error or a mismatch matched
    warnings: Optional[list] = None  # warnings raised while converting
    counters: Optional[dict] = None  # the path's counters after conversion
    inputs: Optional[list] = None  # InputResult per input set
    output_tail: Optional[str] = None  # the end of what the framework printed while converting and running
    stderr_tail: Optional[str] = None  # the end of a dead or killed worker's log
    #: An ONNX path (:func:`conformance.run.onnx_checks.onnx_detail`): the opset asked for (``requested_opset``,
    #: None: the exporter's default) and the ``opset``, ``ir_version`` and other ``domains`` of the file written.
    onnx: Optional[dict] = None
    #: An ONNX path's mismatch or error: which component is to blame (the first failing input set's, or the
    #: conversion's; :meth:`conformance.judge.blame.Blame.to_dict`).
    blame: Optional[dict] = None
    #: True: an ``unsupported`` record because the installed runtime cannot load what the exporter wrote (its
    #: opset or IR version): a configuration error, never a finding (``--onnx-opset``).
    configuration: Optional[bool] = None
    extra: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        inputs = [i.to_json() for i in self.inputs] if self.inputs is not None else None
        return _set({"message": self.message, **self.extra}, traceback=self.traceback, limitation=self.limitation,
                    known_issue=self.known_issue, warnings=self.warnings, counters=self.counters, inputs=inputs,
                    output_tail=self.output_tail, stderr_tail=self.stderr_tail, onnx=self.onnx, blame=self.blame,
                    configuration=self.configuration)

    @classmethod
    def from_json(cls, d: dict) -> "ResultDetail":
        known = {"message", "traceback", "limitation", "known_issue", "warnings", "counters", "inputs",
                 "output_tail", "stderr_tail", "onnx", "blame", "configuration"}
        inputs = [InputResult.from_json(i) for i in d["inputs"]] if d.get("inputs") is not None else None
        return cls(d.get("message") or "", d.get("traceback"), d.get("limitation"), d.get("known_issue"),
                   d.get("warnings"), d.get("counters"), inputs, d.get("output_tail"), d.get("stderr_tail"),
                   d.get("onnx"), d.get("blame"), d.get("configuration"),
                   {k: v for k, v in d.items() if k not in known})


@dataclass
class Timings:
    """Seconds: render, import and eager fp32/fp64 (``prepare_s``), conversion, running, comparing."""

    prepare_s: Optional[float] = None
    convert_s: Optional[float] = None
    run_s: Optional[float] = None
    compare_s: Optional[float] = None
    extra: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return _set(dict(self.extra), prepare_s=self.prepare_s, convert_s=self.convert_s, run_s=self.run_s,
                    compare_s=self.compare_s)

    @classmethod
    def from_json(cls, d: dict) -> "Timings":
        known = {"prepare_s", "convert_s", "run_s", "compare_s"}
        return cls(d.get("prepare_s"), d.get("convert_s"), d.get("run_s"), d.get("compare_s"),
                   {k: v for k, v in d.items() if k not in known})


@dataclass
class ResultRecord(Mapping):
    """The record of one (case, path, mode).

    Start one with :meth:`for_case`, end it with :meth:`finish`. It also reads like its JSON form
    (``record["outcome"]``, ``record["detail"]["message"]``: a read-only view of :meth:`to_json`), for
    code written against the plain records.
    """

    case_id: str
    framework: str
    path: str
    device: str = "cpu"
    mode: str = "infer"  # infer, grad or train (records written before modes existed are infer)
    outcome: Optional[str] = None  # one of OUTCOMES once finished
    program_id: Optional[str] = None
    seed: Optional[int] = None  # the campaign seed and the case's position in it (None outside campaigns)
    index: Optional[int] = None
    max_abs_err: Optional[float] = None
    max_rel_err: Optional[float] = None
    detail: ResultDetail = field(default_factory=ResultDetail)
    timings: Timings = field(default_factory=Timings)
    versions: dict = field(default_factory=dict)
    constructs: list = field(default_factory=list)
    ops: list = field(default_factory=list)
    case: Optional[dict] = None  # the case's JSON (Case.to_dict()); None where it is not replayable
    test: Optional[str] = None  # records of ``pytest --conformance-results``: the test's node id
    schema: int = SCHEMA_VERSION
    extra: dict = field(default_factory=dict)  # fields of a newer writer, kept as read

    @classmethod
    def for_case(cls, case: Case, framework: str, path: str, device: str, versions: dict,
                 mode: str = "infer") -> "ResultRecord":
        """A record of ``case`` along path ``framework.path`` in ``mode``, not finished yet."""
        program = case.program
        return cls(case.id, framework, path, device, mode, program_id=program.id,
                   versions={"conformance": __version__, "python": platform.python_version(), **versions},
                   constructs=sorted(program.constructs()), ops=sorted(set(program.ops())), case=case.to_dict())

    def finish(self, outcome: str, message: str) -> "ResultRecord":
        self.outcome = checked_outcome(outcome)
        self.detail.message = message
        return self

    @property
    def path_id(self) -> str:
        return path_id(self.framework, self.path)

    def to_json(self) -> dict:
        out = {"schema": self.schema, "case_id": self.case_id, "program_id": self.program_id, "seed": self.seed,
               "index": self.index, "framework": self.framework, "path": self.path, "device": self.device,
               "mode": self.mode, "outcome": self.outcome, "max_abs_err": self.max_abs_err,
               "max_rel_err": self.max_rel_err, "detail": self.detail.to_json(), "timings": self.timings.to_json(),
               "versions": self.versions, "constructs": self.constructs, "ops": self.ops, **self.extra}
        return _set(out, case=self.case, test=self.test)

    @classmethod
    def from_json(cls, d: dict) -> "ResultRecord":
        """A record from its JSON form; fields a record of an older writer lacks take their defaults."""
        known = {"schema", "case_id", "program_id", "seed", "index", "framework", "path", "device", "mode",
                 "outcome", "max_abs_err", "max_rel_err", "detail", "timings", "versions", "constructs", "ops",
                 "case", "test"}
        return cls(d.get("case_id", ""), d.get("framework", ""), d.get("path", ""), d.get("device", "cpu"),
                   d.get("mode", "infer"), d.get("outcome"), d.get("program_id"), d.get("seed"), d.get("index"),
                   d.get("max_abs_err"), d.get("max_rel_err"), ResultDetail.from_json(d.get("detail") or {}),
                   Timings.from_json(d.get("timings") or {}), dict(d.get("versions") or {}),
                   list(d.get("constructs") or ()), list(d.get("ops") or ()), d.get("case"), d.get("test"),
                   d.get("schema", SCHEMA_VERSION), {k: v for k, v in d.items() if k not in known})

    # the read-only view of the JSON form
    def __getitem__(self, key: str):
        return self.to_json()[key]

    def __iter__(self):
        return iter(self.to_json())

    def __len__(self) -> int:
        return len(self.to_json())


REQUIRED = ("schema", "case_id", "framework", "path", "device", "outcome")


def check_record(record, where: str) -> None:
    """Raise :class:`ReportError` unless ``record`` (parsed JSON) is a result record this version reads."""
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


def results_file(source) -> Path:
    """The results file a source names: a ``.jsonl`` itself, or a campaign folder's ``results.jsonl``."""
    source = Path(source)
    return source / "results.jsonl" if source.is_dir() else source


def read_results(source) -> list[ResultRecord]:
    """The records of a results file (JSON Lines) or a campaign folder's, checked; raises :class:`ReportError`
    naming the file and the line or record it cannot read. The one reader of results files."""
    path = results_file(source)
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
                parsed = json.loads(line)
            except json.JSONDecodeError as e:
                raise ReportError(f"{path}:{n}: not a JSON record ({e})") from None
            check_record(parsed, f"{path}: record {len(records) + 1}")
            records.append(ResultRecord.from_json(parsed))
    return records


def results_line(record: ResultRecord) -> str:
    """A record as one line of a results file (the one writer: keys sorted, newline ended)."""
    return json.dumps(record.to_json(), sort_keys=True) + "\n"
