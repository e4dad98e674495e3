"""What makes two failures the same bug: a failure's **signature**, (framework, path, mode, outcome, key, ops,
constructs, blame).

* the key of an error is its message with what varies between occurrences blanked: addresses,
  numbers, file paths, program ids and the program's own names (inputs, variables, keyword
  arguments, weights) — and for export errors that wrap the real one, the wrapped error; the key of
  a ``mismatch`` is the kind of divergence (value, shape, dtype, nonfinite, structure), whether it
  also differs from eager replayed on the example's path, and whether a rerun agreed (flaky); a
  crash's key is its signal;
* ops and constructs are those of the finding's *minimal* program (:mod:`conformance.triage.reduce`);
* blame, for an ONNX path's finding, is the component its record blames (``detail.blame``,
  :func:`conformance.judge.blame.label_of`: ``exporter``, ``onnxruntime.kernel``, ``onnxruntime.optimizer``
  or ``undecided``): one wrong result of the exporter and one of onnxruntime's optimiser are two bugs.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from typing import Iterable, Optional

from conformance.judge.blame import label_of
from conformance.program.case import Case
from conformance.program.ir import For, Get, OpStmt, ProgramError, While, spec_leaves
from conformance.program.program import Program
from conformance.run.records import ResultRecord, path_id

ANSI = re.compile(r"\x1b\[[0-9;]*m")
_ROLE_PREFIX = re.compile(r"^(?:example|values|batch|kwargs|call \d+)(?: inputs)?: ")


def program_names(program: Program) -> set[str]:
    """Every name a program chooses: inputs, dict keys, kwargs, weights, variables, loop counters."""
    names = {i.name for i in program.inputs} | {k.name for k in program.kwargs} | {q.name for q in program.params}
    names |= {str(step) for i in program.inputs for steps, _ in spec_leaves(i.spec) for step in steps
              if isinstance(step, str)}
    for s in program.walk():
        if isinstance(s, (Get, OpStmt)):
            names.add(s.out)
        elif isinstance(s, While):
            names.add(s.counter)
        elif isinstance(s, For):
            names.add(s.var)
    return names


def normalise(text: str, names: Iterable[str] = ()) -> str:
    """A message with what varies between occurrences of one bug blanked (see the module docstring)."""
    text = ANSI.sub("", text)
    text = re.sub(r"0x[0-9a-fA-F]+", "<addr>", text)
    text = re.sub(r"(?:[A-Za-z]:)?(?:[/\\][\w.@+~-]+){2,}[/\\]?", "<path>", text)
    text = text.replace("<string>", "<path>")  # source compiled from a string: a location, as a file's path is
    text = re.sub(r"\b[0-9a-f]{12}\b", "<id>", text)
    for name in sorted(set(names), key=len, reverse=True):  # quoted, or bare where it cannot be a word
        quoted = rf"(?<=['\"`]){re.escape(name)}(?=['\"`])"
        text = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)" if re.search(r"[\d_]", name) else quoted, "<name>", text)
    text = re.sub(r"(?<![\w.])[-+]?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?", "<n>", text)
    return re.sub(r"\s+", " ", text).strip()[:240]


def principal_error(message: str) -> str:
    """The line of an error message that says what went wrong: for an exporter's error that wraps
    another (torch.export's "## Exception summary"), the wrapped error, prefixed by the outer type; for
    Paddle's to_static ("In transformed code:", then the converted code's traceback), the error raised
    in the converted code."""
    message = _ROLE_PREFIX.sub("", ANSI.sub("", message or "").strip())
    outer = re.match(r"^([\w.]+):", message)
    wrapped = re.search(r"## Exception summary\s*\n\s*(\S.*)", message)
    if wrapped:
        return f"{outer.group(1)}: {wrapped.group(1)}" if outer else wrapped.group(1)
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    if len(lines) > 1 and lines[0].endswith("In transformed code:"):
        raised = [line for line in lines[1:] if re.match(r"[\w.]*(?:Error|Exception)\b", line)]
        return raised[-1] if raised else lines[-1]
    return lines[0] if lines else "(no message)"


def failure_key(record: ResultRecord) -> str:
    """The key of a record's failure (the part of its signature that is not where or what program)."""
    outcome, detail = record.outcome, record.detail
    if outcome == "mismatch":
        entry = next((e for e in detail.inputs or [] if e.outcome == "mismatch"), None)
        report = (entry.frozen_report or entry.report or {}) if entry else {}
        if report:
            key = f"{report.get('kind') or 'value'} differs from eager"
        else:  # e.g. a result where eager raises
            key = principal_error((entry.message if entry else None) or detail.message)
        if entry and entry.frozen_report is not None:
            key += ", also from eager replayed on the example's path"
        if entry and entry.flaky:
            key += " (flaky)"
        return normalise(key, names_of(record))
    if outcome == "crash":
        found = re.search(r"SIG[A-Z]+|out of memory", detail.message)
        return found.group(0) if found else "crash"
    if outcome == "timeout":
        return "timeout"
    return normalise(principal_error(detail.message), names_of(record))


def names_of(record: ResultRecord) -> set[str]:
    """The names the program of a record's case chooses (none without a case)."""
    if not record.case:
        return set()
    try:
        return program_names(Case.from_dict(record.case).program)
    except (ValueError, ProgramError):
        return set()


@dataclass(frozen=True)
class Signature:
    """What makes two failures the same bug (see the module docstring)."""

    framework: str
    path: str
    outcome: str
    key: str
    ops: tuple = ()
    constructs: tuple = ()
    mode: str = "infer"  # what the runner compared: outputs (infer), gradients (grad), a training step (train)
    #: An ONNX path's finding: the component to blame (:func:`~conformance.judge.blame.label_of`); None elsewhere.
    blame: Optional[str] = None

    @property
    def path_id(self) -> str:
        return path_id(self.framework, self.path)

    @property
    def id(self) -> str:
        return hashlib.sha256(json.dumps(self.to_dict(), sort_keys=True).encode()).hexdigest()[:10]

    def coarse(self) -> "Signature":
        """Without the program's ops and constructs."""
        return Signature(self.framework, self.path, self.outcome, self.key, mode=self.mode, blame=self.blame)

    def with_program(self, program: Program) -> "Signature":
        return Signature(self.framework, self.path, self.outcome, self.key, tuple(sorted(set(program.ops()))),
                         tuple(sorted(program.constructs())), self.mode, self.blame)

    def within(self, ops: Iterable[str], constructs: Iterable[str]) -> bool:
        """Are this signature's ops and constructs among these?"""
        return set(self.ops) <= set(ops) and set(self.constructs) <= set(constructs)

    def title(self) -> str:
        blamed = f" [blamed on {self.blame}]" if self.blame else ""
        return f"{self.path_id}{'' if self.mode == 'infer' else f' ({self.mode})'} {self.outcome}{blamed}: {self.key}"

    def to_dict(self) -> dict:
        return {"framework": self.framework, "path": self.path, "outcome": self.outcome, "key": self.key,
                "ops": list(self.ops), "constructs": list(self.constructs),
                **({} if self.mode == "infer" else {"mode": self.mode}),
                **({} if self.blame is None else {"blame": self.blame})}

    @classmethod
    def from_dict(cls, d: dict) -> "Signature":
        return cls(d["framework"], d["path"], d["outcome"], d["key"], tuple(d.get("ops", ())),
                   tuple(d.get("constructs", ())), d.get("mode", "infer"), d.get("blame"))


def signature(record: ResultRecord) -> Signature:
    """A record's coarse signature (no ops and constructs: those come from its minimal program)."""
    return Signature(record.framework, record.path, record.outcome, failure_key(record), mode=record.mode,
                     blame=label_of(record.detail.blame))
