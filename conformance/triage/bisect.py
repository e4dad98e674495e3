"""Since which release: a finding's reproducer run in each release's environment, by binary search.

A reproducer is one of

* a **script** (a ``repro.py`` that ``conformance triage`` writes, or one of ``cases/standalone/``), judged by its
  exit status: 0 the bug is absent, 1 or a crash (a signal, 128 and above) it is present; any other status, a
  script whose imports fail, or an output that says the runtime cannot load the model (an older onnxruntime and
  a newer opset) means the release *cannot run* it;
* a **case** (a case file of ``cases/`` or a finding of a ``results.jsonl``) replayed along one path with
  ``conformance replay`` in the environment: the finding's outcome again is *present*, an outcome the parity
  suite accepts (``pass``, ``unsupported``, ``expected_divergence``) is *absent*, anything else (a configuration
  error, another finding) *cannot run*, shown with the outcome it had.

Releases that cannot run are skipped over, never guessed: where they hide the boundary, the answer says between
which releases it lies.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable, Optional

from conformance.run.records import read_results
from conformance.run.releases import Index, ReleaseError, canonical, environment

PRESENT, ABSENT, CANNOT_RUN = "present", "absent", "cannot run"
#: Outcomes that are not a finding (the parity suite accepts them).
ACCEPTED = ("pass", "unsupported", "expected_divergence")
#: Output of a script that says the release cannot run it at all (not the bug).
CANNOT_RUN_OUTPUT = re.compile(r"ModuleNotFoundError|ImportError: |is under development|Unsupported model IR version|"
                               r"only \*guarantees\* support for models stamped with official released onnx opset")
#: Outcomes whose exception must be the anchor's for the finding to be present (another error is another finding).
ERRORS = ("conversion_error", "runtime_error")
#: Where bisections are kept (the dashboard reads them).
STORE = Path("cases") / "bisections" / "bisections.json"


class BisectError(Exception):
    """What to bisect is not a finding here (it does not reproduce with the installed release, for one)."""


@dataclass
class Verdict:
    status: str
    note: str = ""
    seconds: float = 0.0
    outcome: str = ""  # a replayed case's outcome


@dataclass
class Bisection:
    """The answer: ``first_bad`` the oldest release where the finding is present (None: present in every release
    that runs here, the oldest of them being ``oldest_run``), ``last_good`` the release before it where it was
    absent, ``first_good`` the first release after the installed one where it is gone (None: still present)."""

    finding: str
    package: str
    reproducer: str
    installed: str
    tested: dict = field(default_factory=dict)  # version -> {"status", "note", "seconds"}
    first_bad: Optional[str] = None
    last_good: Optional[str] = None
    first_good: Optional[str] = None
    last_bad: Optional[str] = None
    unknown_before: list = field(default_factory=list)  # cannot-run releases between last_good and first_bad
    unknown_after: list = field(default_factory=list)  # ... between last_bad and first_good
    date: str = ""

    def exact(self) -> tuple[Optional[str], Optional[str]]:
        """The boundaries known exactly: ``first_bad`` where the release before it ran without the finding,
        ``first_good`` where no release between it and ``last_bad`` could not run (None where not known)."""
        return (self.first_bad if self.last_good and not self.unknown_before else None,
                self.first_good if self.first_good and not self.unknown_after else None)

    def seen(self) -> str:
        """The exact boundaries as a PEP 440 specifier (``>=1.17.0,<1.32.0``; '' for none)."""
        low, high = self.exact()
        return ",".join(x for x in (f">={low}" if low else "", f"<{high}" if high else "") if x)

    def gate(self) -> str:
        """The ``versions`` gate a record or case of this finding takes (``onnxruntime>=1.17.0``; '' where no
        boundary was found)."""
        return f"{self.package}{self.seen()}" if self.seen() else ""

    def summary(self) -> str:
        if self.last_good is None:
            since = f"present in every release that runs here (the oldest: {self.first_bad})"
        else:
            gap = f" (cannot run: {', '.join(self.unknown_before)})" if self.unknown_before else ""
            since = f"first present in {self.first_bad}, absent in {self.last_good}{gap}"
        if self.first_good is None:
            gap = f" (cannot run: {', '.join(self.unknown_after)})" if self.unknown_after else ""
            until = f"still present in {self.last_bad}{gap}"
        else:
            gap = f" (cannot run: {', '.join(self.unknown_after)})" if self.unknown_after else ""
            until = f"gone in {self.first_good}{gap}"
        return f"{self.package}: {since}; {until}"

    def to_dict(self) -> dict:
        return asdict(self)


def search(releases: list[str], anchor: str, run: Callable[[str], Verdict],
           on_verdict: Callable[[str, Verdict], None] = lambda v, x: None) -> dict:
    """Binary search over ``releases`` (oldest first) around ``anchor``, where the finding must be present:
    ``{"tested", "first_bad", "last_good", "first_good", "last_bad", "unknown_before", "unknown_after"}``."""
    tested: dict[str, Verdict] = {}

    def judge(i: int) -> str:
        v = releases[i]
        if v not in tested:
            tested[v] = run(v)
            on_verdict(v, tested[v])
        return tested[v].status

    a = releases.index(anchor)
    status = judge(a)
    if status != PRESENT:
        raise BisectError(f"the finding is {status} with {anchor} (the release it was found with?): "
                          f"{tested[anchor].note or 'nothing to bisect'}")

    def boundary(bad: int, good: int) -> tuple[int, int, list[int]]:
        """Narrow (bad, good) — present at ``bad``, absent at ``good`` (-1 or len: past the ends) — skipping
        releases that cannot run; returns the narrowed pair and the skipped indices between them."""
        skipped: set[int] = set()
        while True:
            lo, hi = sorted((bad, good))
            between = [i for i in range(lo + 1, hi) if i not in skipped]
            if not between:
                return bad, good, sorted(i for i in skipped if lo < i < hi)
            middle = sorted(between, key=lambda i: (abs(i - (lo + hi) / 2), i))[0]
            status = judge(middle)
            if status == PRESENT:
                bad = middle
            elif status == ABSENT:
                good = middle
            else:
                skipped.add(middle)

    bad_old, good_old, unknown_before = boundary(a, -1)
    bad_new, good_new, unknown_after = boundary(a, len(releases))
    return {"tested": tested,
            "first_bad": releases[bad_old], "last_good": releases[good_old] if good_old >= 0 else None,
            "last_bad": releases[bad_new], "first_good": releases[good_new] if good_new < len(releases) else None,
            "unknown_before": [releases[i] for i in unknown_before],
            "unknown_after": [releases[i] for i in unknown_after]}


# ------------------------------------------------------------------ reproducers


@dataclass(frozen=True)
class Reproducer:
    """What runs in each release's environment: a script, or a case replayed along one path."""

    label: str
    script: Optional[Path] = None
    case_file: Optional[Path] = None
    path_id: str = ""
    outcome: str = ""  # the finding's outcome (a case)
    case_id: Optional[str] = None
    onnx_opset: Optional[int] = None

    def run(self, python: Path, timeout: float) -> Verdict:
        t0 = time.monotonic()
        env = dict(os.environ)
        if self.onnx_opset is not None:
            from conformance.paths.onnx_opset import OPSET_ENV

            env[OPSET_ENV] = str(self.onnx_opset)
        if self.script is not None:
            argv, cwd = [str(python), self.script.name], self.script.parent
        else:
            out = Path(tempfile.mkdtemp(prefix="conformance-bisect-")) / "records.jsonl"
            argv = [str(python), "-m", "conformance", "replay", str(self.case_file), "--paths", self.path_id,
                    "--frameworks", self.path_id.split(".")[0], "--out", str(out)]
            argv += ["--case-id", self.case_id] if self.case_id else []
            argv += ["--onnx-opset", str(self.onnx_opset)] if self.onnx_opset is not None else []
            cwd = None
        try:
            proc = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            if self.script is None:
                shutil.rmtree(out.parent, ignore_errors=True)
            return Verdict(CANNOT_RUN, f"ran past {timeout:g} s", round(time.monotonic() - t0, 1))
        seconds = round(time.monotonic() - t0, 1)
        text = (proc.stderr + proc.stdout).strip()
        last = text.splitlines()[-1][:200] if text else ""
        if self.script is not None:
            return Verdict(script_status(proc.returncode, text), f"exit {proc.returncode}: {last}", seconds)
        records = read_results(out) if out.exists() and out.stat().st_size else []
        shutil.rmtree(out.parent, ignore_errors=True)
        mine = [r for r in records if r.path_id == self.path_id and r.mode == "infer"]
        if not mine:
            return Verdict(CANNOT_RUN, f"no record (exit {proc.returncode}): {last}", seconds)
        r = mine[0]
        message = (r.detail.message.strip().splitlines() or [""])[0][:160]
        status = PRESENT if r.outcome == self.outcome and not r.detail.configuration else \
            ABSENT if r.outcome in ACCEPTED else CANNOT_RUN
        return Verdict(status, f"{r.outcome}: {message}", seconds, r.outcome)


def error_kind(message: str) -> Optional[str]:
    """The exception class a record's message names first (None: it names none)."""
    m = re.search(r"\b([A-Za-z_]\w*(?:Error|Exception))\b", message)
    return m.group(1) if m else None


def script_status(returncode: int, output: str) -> str:
    """A script's verdict from its exit status and output (the convention of the module docstring)."""
    if returncode == 0:
        return ABSENT
    if returncode == 1 or returncode >= 128 or returncode < 0:
        return CANNOT_RUN if CANNOT_RUN_OUTPUT.search(output) and returncode == 1 else PRESENT
    return CANNOT_RUN


def reproducer(target: Path, path_id: Optional[str] = None, case_id: Optional[str] = None,
               index: Optional[int] = None, onnx_opset: Optional[int] = None) -> Reproducer:
    """The reproducer of ``target``: a script, a triage bucket folder (its ``repro.py``), a case file, or a
    ``results.jsonl`` (with ``case_id`` or ``index`` choosing the finding)."""
    from conformance.run.records import FINDINGS

    if target.is_dir():
        target = target / "repro.py"
    if not target.exists():
        raise BisectError(f"{target} does not exist")
    if target.suffix == ".py":
        return Reproducer(target.name, script=target.resolve(), onnx_opset=onnx_opset)
    if target.suffix == ".jsonl":
        found = [r for r in read_results(target) if r.outcome in FINDINGS and not r.detail.configuration
                 and (case_id is None or r.case_id == case_id) and (index is None or r.index == index)
                 and (path_id is None or r.path_id == path_id) and r.mode == "infer"]
        if not found:
            raise BisectError(f"no infer-mode finding in {target} matches (choose one with --case-id, --index, "
                              "--path)")
        if len({(r.case_id, r.path_id) for r in found}) > 1:
            raise BisectError(f"{len(found)} findings in {target} match: choose one with --case-id and --path")
        r = found[0]
        return Reproducer(f"{r.case_id} {r.path_id}", case_file=target.resolve(), path_id=r.path_id,
                          outcome=r.outcome, case_id=r.case_id, onnx_opset=onnx_opset)
    doc = json.loads(target.read_text())
    expected = {pid: (w if isinstance(w, list) else [w]) for pid, w in doc.get("expected", {}).items()}
    findings = {pid: ws[0]["outcome"] for pid, ws in expected.items() if ws[0].get("outcome") in FINDINGS}
    if path_id is None:
        if len(findings) != 1:
            raise BisectError(f"{target}: choose the path with --path (its findings: "
                              f"{', '.join(sorted(findings)) or 'none'})")
        path_id = next(iter(findings))
    if path_id not in findings:
        raise BisectError(f"{target}: {path_id} is not one of its findings ({', '.join(sorted(findings))})")
    return Reproducer(f"{target.stem} {path_id}", case_file=target.resolve(), path_id=path_id,
                      outcome=findings[path_id], onnx_opset=onnx_opset)


def in_range(releases: list[str], text: Optional[str]) -> list[str]:
    """The releases within ``--range A..B`` (either end may be left out; ``1.15`` takes in 1.15.x)."""
    from packaging.version import Version

    if not text:
        return releases
    if ".." not in text:
        raise BisectError(f"--range takes A..B (like 1.15..1.31), got {text!r}")
    low, high = text.split("..", 1)

    def key(v: str, width: int) -> tuple:
        return Version(v).release[:width]

    return [v for v in releases
            if (not low or key(v, len(Version(low).release)) >= Version(low).release)
            and (not high or key(v, len(Version(high).release)) <= Version(high).release)]


def bisect(rep: Reproducer, package: str, releases: list[str], installed: str, index: Index,
           timeout: float = 600.0, say: Callable[[str], None] = lambda s: None) -> Bisection:
    """Run ``rep`` in the environments of ``releases`` (oldest first) of ``package`` by binary search from
    ``installed`` (which must show the finding)."""
    from packaging.version import Version

    if installed not in releases:
        near = [v for v in releases if Version(v) <= Version(installed)] or releases
        installed = near[-1]
    envs: dict[str, str] = {}

    def run(version: str) -> Verdict:
        try:
            env = environment([f"{package}=={version}"], index, () if rep.script else ("conformance",))
        except ReleaseError as e:
            first = str(e).strip().splitlines()
            return Verdict(CANNOT_RUN, "environment: " + " ".join(first[1:2] or first[:1])[:200])
        envs[version] = env.added
        verdict = rep.run(env.python, timeout)
        if env.added:
            verdict.note = f"[{env.added.split(':')[0]}] {verdict.note}"
        return verdict

    def shown(version: str, v: Verdict) -> None:
        say(f"{package} {version:<12} {v.status:<11} {v.seconds:>6.1f} s  {v.note}")

    kinds: list = []  # the anchor's error kind: an error outcome is the finding only with the same exception

    def same_error(version: str) -> Verdict:
        verdict = run(version)
        kind = error_kind(verdict.note) if verdict.outcome in ERRORS else None
        if not kinds:
            kinds.append(kind)
        elif verdict.status == PRESENT and kind != kinds[0]:
            verdict.status, verdict.note = CANNOT_RUN, f"another error: {verdict.note}"
        return verdict

    found = search(releases, installed, same_error, shown)
    tested = {v: asdict(x) for v, x in sorted(found.pop("tested").items(), key=lambda kv: Version(kv[0]))}
    where = Path(rep.script or rep.case_file)
    named = os.path.relpath(where) if where.is_relative_to(Path.cwd()) else str(where)
    return Bisection(rep.label, canonical(package), named, installed, tested, date=time.strftime("%Y-%m-%d"), **found)


def store(bisection: Bisection, file: Path = STORE, key: Optional[str] = None) -> Path:
    """Keep ``bisection`` in the JSON file the dashboard reads (``{key: bisection}``, one entry per finding)."""
    data = json.loads(file.read_text()) if file.exists() else {}
    data[key or bisection.finding] = bisection.to_dict()
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(json.dumps(dict(sorted(data.items())), indent=1) + "\n")
    return file


def load_store(file: Path = STORE) -> dict:
    """The bisections kept in ``file`` ({} where there is none)."""
    try:
        return json.loads(file.read_text())
    except (OSError, ValueError):
        return {}


def bisection_for(bucket, bisections: dict) -> Optional[dict]:
    """The bisection of a dashboard bucket: kept under its triage bucket's folder name, or under a key that its
    known bug's text holds (``--key microsoft/onnxruntime/issues/7563`` for a record that cites that issue), else
    None."""
    triage = getattr(bucket, "triage", None)
    if triage is not None and Path(triage.directory).name in bisections:
        return bisections[Path(triage.directory).name]
    known = (bucket.records[0].detail.known_issue or "") if bucket.records else ""
    return next((b for key, b in bisections.items() if known and key in known), None)


def write_gate(case_file: Path, path_id: str, bisection: Bisection) -> None:
    """``--write``: the case's expectation for ``path_id`` gated on the exact boundaries found, each followed by the
    outcome the release beyond that boundary had (releases that cannot run hide a boundary: it is not written)."""
    from conformance.triage.corpus import CaseFileError, load_case_file

    original = case_file.read_text()
    doc = json.loads(original)
    wants = doc["expected"][path_id]
    if not bisection.gate():
        raise BisectError("no exact boundary was found: there is no gate to write")
    first = dict(wants[0] if isinstance(wants, list) else wants)
    first["versions"] = bisection.gate()
    low, high = bisection.exact()
    package, gated = bisection.package, [first]
    if low:  # the outcome the releases before it had
        gated.append({"outcome": bisection.tested[bisection.last_good]["outcome"] or "pass",
                      "versions": f"{package}<{low}"})
    if high:
        gated.append({"outcome": bisection.tested[high]["outcome"] or "pass", "versions": f"{package}>={high}"})
    doc["expected"][path_id] = gated
    case_file.write_text(json.dumps(doc, indent=1) + "\n")
    try:
        load_case_file(case_file)
    except CaseFileError:
        case_file.write_text(original)
        raise
