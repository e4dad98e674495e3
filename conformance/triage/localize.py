"""Where a finding first goes wrong: the first statement whose values diverge while its inputs agree.

:func:`localize` bisects over the cuts of the finding's program (:mod:`conformance.program.truncate`): each
truncated program returns what is live at its cut, the branch decisions and loop counts taken so far and
whether the cut was reached; it is converted and run along the finding's path and judged against eager
by the same runner and oracle as the finding, on the input set that failed (converted, as every case, on
the example). Bisection needs nothing from the converter and costs about ``log2(cuts) + 2`` conversions (the
whole program first, then the bisection, then the first failing cut once more: a path whose conversions
depend on what it converted before must not send it astray), never more than ``max_conversions`` (20).

The answer (:class:`Localisation`) names the statement between the last cut that agrees and the first
that fails like the finding, its line in the rendered model file, its op and attributes, the first
diverging value with its max abs/rel error, and the **kind** of divergence: ``value`` (an op computes
another value), ``branch`` (an ``if`` decides otherwise), ``iterations`` (a loop runs another number of
times), ``control_flow`` (the converted model does not get to the statement), ``input`` (an input as the
path reads it), ``error`` (the first statement with which the conversion or the run fails like the
finding), ``gradient`` (in the ``grad`` and ``train`` modes: the values agree, the gradients of the loss
over them do not), or ``untaken`` (a gradient where eager has none, from code eager does not run: named by
:mod:`conformance.triage.untaken` without a conversion, since truncated programs leave that code out).

Where truncating changes the bug (the instrumented whole program no longer fails like the finding, or cuts
fail in another way), the answer says so (``status`` ``changed`` or ``inconclusive``, with the truncations'
verdicts) instead of guessing, and carries what ``fallback`` (intermediate outputs, where the path can
expose them: :mod:`conformance.triage.intermediates`) found.
"""

from __future__ import annotations

import re
import time
from dataclasses import asdict, dataclass, field
from typing import Callable, Optional, Protocol

from conformance.program.case import Case
from conformance.program.flow import Cut, FollowError, describe, executed, follow, statement_at, statement_text
from conformance.program.ir import Get, Grow, If, OpStmt, ProgramError, PyStmt
from conformance.program.program import Program
from conformance.program.truncate import Output, truncate
from conformance.render.lines import method_line, output_line, statement_lines
from conformance.run.records import FINDINGS
from conformance.triage.signatures import normalise, principal_error, program_names
from conformance.triage.untaken import describe_untaken, untaken_use

LOCALISATION_SCHEMA = 1
#: Statuses: ``found``; ``changed`` (the instrumented program no longer fails like the finding);
#: ``inconclusive`` (truncations fail otherwise, or the budget ran out, before the step is one statement);
#: ``unavailable`` (no program to cut, or eager's path cannot be followed).
STATUSES = ("found", "changed", "inconclusive", "unavailable")
KINDS = ("value", "gradient", "untaken", "branch", "iterations", "control_flow", "input", "error")


class Runner(Protocol):
    """What runs candidates: an :class:`~conformance.triage.localize_workers.LocalizeEvaluator` (a worker
    process) or :class:`~conformance.triage.localize_workers.InProcess`."""

    def __call__(self, case: Case, pid: str, mode: str = "infer"): ...

    def decisions(self, case: Case, framework: str) -> list: ...


@dataclass
class Step:
    """One truncated program run along the path: where it was cut, and how it did."""

    cut: str  # the cut in words
    verdict: str  # same (fails like the finding), agree (eager and the path agree), other (fails otherwise)
    message: str = ""


@dataclass
class Localisation:
    status: str
    message: str  # one sentence: what was found, or why nothing was
    kind: Optional[str] = None
    location: Optional[list] = None  # the statement's location in the IR body (index, field, index, ...)
    statement: str = ""  # the statement in IR words
    line: Optional[int] = None  # its line in the rendered model file (model.py of the reproducer)
    source: str = ""  # that line
    op: Optional[str] = None
    attrs: dict = field(default_factory=dict)
    value: Optional[str] = None  # the first diverging value (a variable, or a branch/iteration count)
    max_abs_err: Optional[float] = None
    max_rel_err: Optional[float] = None
    eager: Optional[str] = None  # for a count: eager's and the path's, as the oracle printed them
    path_value: Optional[str] = None
    input_set: int = 0  # the input set localised on
    conversions: int = 0
    seconds: float = 0.0
    notes: list = field(default_factory=list)
    steps: list = field(default_factory=list)
    fallback: Optional[dict] = None  # intermediate outputs, where truncation could not answer
    schema: int = LOCALISATION_SCHEMA

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> "Localisation":
        d = dict(d)
        d["steps"] = [Step(**s) if isinstance(s, dict) else s for s in d.get("steps", [])]
        return cls(**{k: v for k, v in d.items() if k in cls.__dataclass_fields__})

    def summary(self) -> str:
        """One line, for tables and the dashboard."""
        if self.status != "found":
            fallback = f"; intermediate outputs: {self.fallback['message']}" if self.fallback else ""
            return f"{self.status}: {self.message}{fallback}"
        where = f"line {self.line}: {self.source}" if self.line else self.statement
        if self.location is None:  # before any statement: the inputs, as the method takes them
            where = "the inputs, before any statement" + (f" (line {self.line}: {self.source})" if self.line else "")
        return f"{self.kind} at {where}"

    def markdown(self) -> str:
        """A ``## First divergence`` section for REPORT.md."""
        out = ["## First divergence", ""]
        if self.status == "found":
            out.append(f"**{self.kind}** — {self.message}")
            out.append("")
            if self.line:
                out += ["```python", f"{self.line}: {self.source}", "```", ""]
            rows = [("statement (IR)", self.statement and f"`{self.statement}`"), ("op", self.op and f"`{self.op}`"),
                    ("attributes", self.attrs and ", ".join(f"{k}={v!r}" for k, v in self.attrs.items())),
                    ("first diverging value", self.value and f"`{self.value}`"),
                    ("max abs error", _num(self.max_abs_err)), ("max rel error", _num(self.max_rel_err)),
                    ("eager / path", self.eager and f"{self.eager} / {self.path_value}")]
            out += ["| | |", "|---|---|"] + [f"| {k} | {v} |" for k, v in rows if v]
        else:
            out.append(f"No single statement: **{self.status}**. {self.message}")
        out += [""] + [f"- {n}" for n in self.notes]
        if self.fallback:
            out += ["", f"Intermediate outputs: {self.fallback.get('message', '')}"]
        out += ["", f"({self.conversions} conversion{'s' * (self.conversions != 1)}, {self.seconds:.1f} s, on input "
                    f"set {self.input_set}; "
                    f"truncations: " + "; ".join(f"{s.cut}: {s.verdict}" for s in self.steps) + ")"]
        return "\n".join(line for line in out) + "\n"


def _num(x) -> Optional[str]:
    return None if x is None else f"{x:.3g}"


def _as_dict(record) -> dict:
    return record.to_json() if hasattr(record, "to_json") else dict(record)


def failing_input(record: dict) -> int:
    """The index of the first input set with the record's outcome (0 where none says)."""
    entries = record.get("detail", {}).get("inputs") or []
    return next((e.get("index", 0) for e in entries if e.get("outcome") == record.get("outcome")), 0)


_ROLE = re.compile(r"^(?:example|values|batch|kwargs|call \d+)(?: inputs)?: ")


def _error_key(message: str, names: set) -> str:
    """An error as triage keys it (the principal error, with what varies blanked: numbers, addresses, the
    program's own names), so a candidate fails "like the finding" when its error has the finding's key."""
    return normalise(principal_error(_ROLE.sub("", message or "")), names)


def _flaky(record: dict) -> bool:
    return any(e.get("flaky") for e in (record.get("detail", {}).get("inputs") or []))


def verdict(finding: dict, candidate, index: int) -> tuple[str, str]:
    """``same`` (the candidate fails like the finding), ``agree`` (the path agrees with eager on it) or
    ``other`` (it fails another way), with a message."""
    rec = _as_dict(candidate)
    outcome, message = rec.get("outcome"), rec.get("detail", {}).get("message", "")
    entries = rec.get("detail", {}).get("inputs") or []
    entry = next((e for e in entries if e.get("index") == index), None)
    want = finding["outcome"]
    names = set()
    for r in (finding, rec):
        if r.get("case"):
            names |= program_names(Program.from_dict(r["case"]["program"]))
    same_error = lambda text: _error_key(text, names) == _error_key(finding["detail"]["message"], names)  # noqa: E731
    if want in ("mismatch", "runtime_error") and entry is not None:
        got = entry.get("outcome")
        if got == want == "mismatch" and entry.get("flaky") and not _flaky(finding):
            return "other", f"flaky (a rerun agreed with eager): {entry.get('message', '')}"
        if got == want and (want == "mismatch" or same_error(entry.get("message", ""))):
            return "same", entry.get("message", "")
        if got in ("pass", "expected_divergence") or (want == "runtime_error" and got == "mismatch"):
            return "agree", ""
        return "other", f"{got}: {entry.get('message', '')}"
    if outcome == want and (want not in ("conversion_error", "runtime_error") or same_error(message)):
        return "same", message
    if want != "mismatch" and outcome in ("pass", "mismatch", "expected_divergence", "runtime_error") and \
            not (want == "runtime_error" and outcome == "runtime_error"):
        return "agree", ""
    return "other", f"{outcome}: {message}"


def localize(case: Case, record, runner: Runner, *, max_conversions: int = 20,
             fallback: Optional[Callable[[Case, dict], Optional[dict]]] = None) -> Localisation:
    """Localise the finding ``record`` (a result record of ``case``) by truncation; see the module docstring.

    ``runner`` converts and runs candidates (and tells eager's decisions); ``fallback(case, record)``, where
    truncation cannot answer, tries intermediate outputs and returns what it found (a dict with a
    ``message``), or None; by default the runner's ``intermediates`` (:mod:`conformance.triage.intermediates`)."""
    t0 = time.monotonic()
    finding = _as_dict(record)
    result = _localize(case, finding, runner, max_conversions)
    fallback = fallback or getattr(runner, "intermediates", None)
    if result.status in ("changed", "inconclusive") and fallback is not None:
        try:
            result.fallback = fallback(case, finding)
        except Exception as e:  # noqa: BLE001 - the fallback is a best effort: say why it gave nothing
            result.fallback = {"message": f"intermediate outputs failed: {type(e).__name__}: {e}"}
        if result.fallback:
            result.conversions += result.fallback.get("conversions", 0)
    result.seconds = round(time.monotonic() - t0, 3)
    return result


def _localize(case: Case, finding: dict, runner: Runner, budget: int) -> Localisation:
    outcome = finding.get("outcome")
    if outcome not in FINDINGS:
        return Localisation("unavailable", f"a {outcome} record is not a finding")
    program = case.program
    if not program.body or not program.inputs:
        return Localisation("unavailable", "the program has no statements to cut (a model of your own: see "
                                           "conformance.triage.localize_models)")
    framework, mode = finding["framework"], finding.get("mode", "infer")
    pid = f"{framework}.{finding['path']}"
    index = failing_input(finding)
    try:
        decisions = runner.decisions(case, framework)[index]
        reached = follow(program, decisions, dict(_kwargs(case, index)))
    except FollowError as e:
        return Localisation("unavailable", f"eager's control flow cannot be followed over the program: {e}",
                            input_set=index)
    except Exception as e:  # noqa: BLE001 - eager itself fails: nothing to compare with
        return Localisation("unavailable", f"eager's decisions are not available: {type(e).__name__}: {e}",
                            input_set=index)
    inputs = (case.inputs[0],) + ((case.inputs[index],) if index else ())
    judged = len(inputs) - 1
    tried: dict[int, tuple] = {}
    steps: list[Step] = []
    converted: list[int] = []  # the cuts converted, in order (a truncation that does not type-check is not)
    inference = mode == "infer"
    options = {"keep_inputs": inference, "taps": inference, "markers": True, "ran": executed(reached)}

    def attempt(position: int) -> str:
        cut = reached[position]
        try:
            trunc = truncate(program, cut, **options)
        except ProgramError as e:  # a bug of truncate's: say so rather than guess
            tried[position] = ("other", f"the truncated program does not type-check: {e}", None, None)
            steps.append(Step(describe(program, cut), "other", tried[position][1]))
            return "other"
        converted.append(position)
        rec = _as_dict(runner(Case(trunc.program, inputs), pid, mode))
        v, message = verdict(finding, rec, judged)
        tried[position] = (v, message, rec, trunc)
        steps.append(Step(describe(program, cut), v, message[:300]))
        return v

    last = len(reached) - 1
    whole = attempt(last)
    notes = []
    first_try = tried[last]
    # instrumentation a path may mind: the counts (loop variables), then the inputs returned through neg
    for change, why in (({"markers": False}, "branch and iteration counts are left out (a wrong decision or "
                                               "count shows as the values after it)"),
                        ({"taps": False}, "inputs are returned as they are")):
        if whole == "same" or (change.get("taps") is False and not options["taps"]):
            continue
        options.update(change)
        whole = attempt(last)
        if whole == "same":
            notes.append(f"{why}: instrumented in full, the whole program "
                         f"{'passes' if first_try[0] == 'agree' else 'fails otherwise: ' + first_try[1][:200]}")
    if whole != "same":
        untaken = _gradient_from_untaken_code(program, framework, finding, reached) if whole == "agree" else None
        if untaken is not None:  # the code truncation leaves out is where this gradient comes from
            untaken.input_set, untaken.conversions, untaken.steps = index, len(converted), steps
            return untaken
        if not converted:  # conformance's truncation could not build the program: no verdict on the path
            return Localisation("unavailable", f"the program cannot be instrumented for truncation: "
                                               f"{first_try[1][:300]}", input_set=index, steps=steps)
        what = "passes" if first_try[0] == "agree" else f"fails otherwise ({first_try[1][:200]})"
        return Localisation("changed", f"the whole program instrumented for truncation (its live values as one "
                                       f"tuple, with branch and loop counts; also without them, and with its inputs "
                                       f"returned as they are) {what} along {pid}: truncating changes the bug",
                            input_set=index, conversions=len(converted), steps=steps)
    lo, hi = -1, last
    confirmed, retried = {last}, set()
    while len(steps) < budget:
        middle = (lo + hi) // 2
        choices = sorted((p for p in range(lo + 1, hi) if p not in tried), key=lambda p: (abs(p - middle), p))
        unsteady = [p for p in range(lo + 1, hi) if p in tried and p not in retried and
                    tried[p][1].startswith(("flaky", "not reproducible"))]
        if not choices and unsteady:  # converted once more, a path that converts otherwise each time may agree
            retried.add(unsteady[0])
            tried.pop(unsteady[0])
            choices = unsteady[:1]
        if hi - lo > 1 and choices:
            v = attempt(choices[0])
            if v == "same":
                hi = choices[0]
            elif v == "agree":
                lo = choices[0]
            continue
        if hi in confirmed:
            break
        # the step is found: converted once more, the first cut that fails must fail again (a path whose
        # conversions depend on what it converted before would otherwise send the bisection astray)
        first = tried.pop(hi)
        if attempt(hi) == "same":
            confirmed.add(hi)
            continue
        tried[hi] = ("other", f"not reproducible: failed like the finding once ({first[1][:150]}), then "
                              f"{tried[hi][0]}", first[2], first[3])
        notes.append(f"truncating {describe(program, reached[hi])} failed like the finding in one conversion and "
                     f"not in another: {pid} converts it differently from one time to the next")
        hi = min([p for p in tried if p > hi and tried[p][0] == "same"] + [last])
    others = [p for p in range(lo + 1, hi) if p in tried]
    notes += [f"truncating {describe(program, reached[p])} makes {pid} fail otherwise: {tried[p][1][:200]}"
             for p in sorted(tried) if tried[p][0] == "other"]
    if hi - lo > 1:
        why = "every truncation between them fails otherwise" if others and len(others) == hi - lo - 1 else \
            f"the budget of {budget} conversions ran out"
        start = "the start" if lo < 0 else describe(program, reached[lo])
        return Localisation("inconclusive", f"the divergence lies between {start} and "
                                            f"{describe(program, reached[hi])}; {why}", input_set=index,
                            conversions=len(converted), notes=notes, steps=steps)
    found = _classify(program, framework, reached[hi], tried[hi], finding, judged)
    found.input_set, found.conversions, found.steps, found.notes = index, len(converted), steps, notes + found.notes
    return found


def _gradient_from_untaken_code(program, framework: str, finding: dict, reached: list) -> Optional[Localisation]:
    """A gradient where eager has none, from code eager does not run (:mod:`conformance.triage.untaken`)."""
    entries = finding.get("detail", {}).get("inputs") or []
    failures = [f for e in entries for f in ((e.get("report") or {}).get("failures") or [])]
    extra = next((f for f in failures if f.get("kind") == "extra_gradient"), None)
    if extra is None:
        return None
    found = untaken_use(program, reached, extra.get("path", ""))
    if found is None:
        return None
    loc, s, what = found
    line, source = statement_lines(program, framework).get(loc) or output_line(program, framework)
    return Localisation("found", describe_untaken(program, loc, s, what), "untaken", list(loc), statement_text(s),
                        line, source, s.op if isinstance(s, OpStmt) else None,
                        dict(s.attrs) if isinstance(s, OpStmt) else {}, value=extra.get("path"),
                        notes=["the whole program truncated as localisation cuts it, which leaves out the code "
                               "eager does not run (early returns it skips, what follows them), does not show this "
                               "gradient: the statement is read from eager's path and the program"])


def _kwargs(case: Case, index: int) -> dict:
    from conformance.program.case import materialize

    return materialize(case.program, case.inputs[index])[1]


_LEAF = re.compile(r"^(?:\['outputs'\])?\[(\d+)\]")
_VALUES = re.compile(r"candidate (?:np\.\w+\()?([^,)]+)\)?, eager (?:np\.\w+\()?([^,)]+)\)?")


def _failures(rec: dict, judged: int) -> list[tuple[int, dict]]:
    entry = next((e for e in rec.get("detail", {}).get("inputs") or [] if e.get("index") == judged), {})
    report = entry.get("frozen_report") or entry.get("report") or {}
    out = []
    for f in report.get("failures", []):
        m = _LEAF.match(f.get("path") or "")
        out.append((int(m.group(1)) if m else -1, f))
    return out


def _classify(program, framework: str, cut: Cut, tried: tuple, finding: dict, judged: int) -> Localisation:
    _, message, rec, trunc = tried
    failures = _failures(rec, judged)
    failing = {i: f for i, f in failures if i >= 0}
    outputs: tuple[Output, ...] = trunc.outputs
    bad = [outputs[i] for i in sorted(failing) if i < len(outputs)]
    roles = {o.role for o in bad}
    notes = []
    if cut.entered is not None:
        loc = cut.entered
    else:
        loc = cut.statement
    s = statement_at(program.body, loc) if loc is not None else None
    marker = next((o for o in bad if o.role in ("branch", "iterations") and o.at == loc), None)
    if finding["outcome"] != "mismatch":
        kind = "error"
        if loc is None:
            notes.append("the program cut before its first statement (the inputs read and returned, nothing "
                         "computed) already fails like the finding: the path fails on the model's inputs or "
                         "signature")
    elif loc is None:
        kind = "input"
    elif cut.entered is not None and (marker is not None or "reached" in roles):
        kind = "branch" if isinstance(s, If) else "iterations"
    elif "reached" in roles:
        kind = "control_flow"
    elif marker is not None:
        kind = marker.role
    elif cut.entered is not None:  # nothing runs between the cuts: what the outputs make of the values differs
        kind = "gradient" if not bad and failures else "value"
    elif isinstance(s, Get):
        kind = "input"
    elif not bad and failures:  # grad/train mode: no output differs, a gradient (or a step) does
        kind = "gradient"
    else:
        kind = "value"
        if type(s).__name__ in ("While", "For"):
            notes.append("the loop's first iteration agrees and so does its count: the values part in a later "
                         "iteration")
        elif isinstance(s, Grow):
            notes.append("a grow loop: its iteration count shows only in its result's values")
    # the first diverging value: the statement's own result, else the first that fails
    first = None
    if isinstance(s, (OpStmt, Get, Grow, PyStmt)):
        first = next((o for o in bad if o.var == s.out), None)
    if kind in ("branch", "iterations") and marker is not None:
        first = marker
    first = first or (bad[0] if bad else None)
    where = {o.name: i for i, o in enumerate(outputs)}
    leaf = failing.get(where[first.name]) if first is not None else None
    if leaf is None and failures:
        leaf = failures[0][1]
    lines = statement_lines(program, framework)
    line, source = lines.get(loc, (None, "")) if loc is not None else method_line(program, framework)
    notes += [f"{var} is not compared at the cut: {why}" for var, why in trunc.skipped]
    op = isinstance(s, (OpStmt, PyStmt))
    result = Localisation("found", "", kind, list(loc) if loc else None, statement_text(s) if s else "", line, source,
                          s.op if op else None, dict(s.attrs) if op else {}, notes=notes)
    if first is not None:
        result.value = _value_name(program, first)
    elif failures:
        result.value = failures[0][1].get("path")
    if leaf is not None:
        result.max_abs_err, result.max_rel_err = leaf.get("required_atol"), leaf.get("required_rtol")
        m = _VALUES.search(leaf.get("message", ""))
        if m and first is not None and first.role in ("branch", "iterations", "reached"):
            result.path_value, result.eager = m.group(1).strip(), m.group(2).strip()
    result.message = _sentence(result, kind, message)
    return result


def _value_name(program, o: Output) -> str:
    if o.role in ("value", "input"):
        return o.var
    if o.role == "reached":
        return "whether the statement is reached"
    s = statement_at(program.body, o.at)
    what = "then-branch runs of" if o.role == "branch" else "iterations of"
    return f"{what} `{statement_text(s)}`"


def _sentence(r: Localisation, kind: str, message: str) -> str:
    at = f"line {r.line} (`{r.source}`)" if r.line and r.statement else (f"`{r.statement}`" if r.statement else
                                                                          "the inputs")
    if kind == "value":
        return f"{at} computes another value of {r.value} than eager, from inputs that agree"
    if kind == "gradient":
        return f"after {at} the values agree but the gradient {r.value} differs from eager's"
    if kind == "branch":
        counts = f" (then-branch taken {r.path_value} times, eager {r.eager})" if r.eager else ""
        return f"the if at {at} decides otherwise than eager{counts}"
    if kind == "iterations":
        counts = f" ({r.path_value} iterations, eager {r.eager})" if r.eager else ""
        return f"the loop at {at} runs another number of iterations than eager{counts}"
    if kind == "control_flow":
        return f"the converted model does not get to {at} where eager does"
    if kind == "input":
        return f"the input read at {at} differs from eager's" if r.statement else \
            "the inputs as the path reads them differ"
    if not r.statement:
        return f"the model's inputs alone already fail like the finding: {message[:200]}"
    return f"the program up to {at} already fails like the finding: {message[:200]}"
