"""Triage a campaign's findings: signatures, buckets, minimal cases, standalone reproducers.

A failure's **signature** is (framework, path, outcome, key, ops, constructs):

* the key of an error is its message with what varies between occurrences blanked: addresses,
  numbers, file paths, program ids and the program's own names (inputs, variables, keyword
  arguments, weights) — and for export errors that wrap the real one, the wrapped error; the key of
  a ``mismatch`` is the kind of divergence (value, shape, dtype, nonfinite, structure), whether it
  also differs from eager replayed on the example's path, and whether a rerun agreed (flaky); a
  crash's key is its signal;
* ops and constructs are those of the finding's *minimal* program (:mod:`conformance.reduce`).

:func:`triage` groups findings by the first four, minimises one finding per group, and puts each
other finding of the group into the bucket whose minimal program's ops and constructs it contains
(else it is minimised in turn, and may found a bucket of its own). :func:`write_bucket` writes a
folder per bucket: ``bucket.json`` (the bucket, its minimal case and findings), ``case.json`` (the
minimal case, for ``conformance replay``), ``repro.py`` with ``example.npz``/``inputs.npz`` (a script
that needs only the framework: it builds the minimal model, converts it along the path, compares
with eager and prints both and the difference; exit status 1 while the bug is there), and
``REPORT.md`` (an upstream bug report). :func:`save_case` adds a bucket to the ``cases/`` corpus.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Optional

from conformance.program.case import Case, save_inputs
from conformance.program.ir import For, Get, OpStmt, While, spec_leaves
from conformance.program.program import Program, dynamic_axes
from conformance.run.records import FINDINGS

BUCKET_SCHEMA = 1

# ------------------------------------------------------------------ signatures

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_ROLE_PREFIX = re.compile(r"^(?:example|values|batch|kwargs|call \d+)(?: inputs)?: ")


def program_names(program: Program) -> set[str]:
    """Every name a program chooses: inputs, dict keys, kwargs, weights, variables, loop counters."""
    names = {i.name for i in program.inputs} | {k.name for k in program.kwargs} | {q.name for q in program.params}
    names |= {str(step) for i in program.inputs for path, _ in spec_leaves(i.spec) for step in path
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
    text = _ANSI.sub("", text)
    text = re.sub(r"0x[0-9a-fA-F]+", "<addr>", text)
    text = re.sub(r"(?:[A-Za-z]:)?(?:[/\\][\w.@+~-]+){2,}[/\\]?", "<path>", text)
    text = re.sub(r"\b[0-9a-f]{12}\b", "<id>", text)
    for name in sorted(set(names), key=len, reverse=True):  # quoted, or bare where it cannot be a word
        quoted = rf"(?<=['\"`]){re.escape(name)}(?=['\"`])"
        text = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)" if re.search(r"[\d_]", name) else quoted, "<name>", text)
    text = re.sub(r"(?<![\w.])[-+]?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?", "<n>", text)
    return re.sub(r"\s+", " ", text).strip()[:240]


def _essence(message: str) -> str:
    """The line of an error message that says what went wrong: for an exporter's error that wraps
    another (torch.export's "## Exception summary"), the wrapped error, prefixed by the outer type; for
    Paddle's to_static ("In transformed code:", then the converted code's traceback), the error raised
    in the converted code."""
    message = _ROLE_PREFIX.sub("", _ANSI.sub("", message or "").strip())
    outer = re.match(r"^([\w.]+):", message)
    wrapped = re.search(r"## Exception summary\s*\n\s*(\S.*)", message)
    if wrapped:
        return f"{outer.group(1)}: {wrapped.group(1)}" if outer else wrapped.group(1)
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    if len(lines) > 1 and lines[0].endswith("In transformed code:"):
        raised = [line for line in lines[1:] if re.match(r"[\w.]*(?:Error|Exception)\b", line)]
        return raised[-1] if raised else lines[-1]
    return lines[0] if lines else "(no message)"


def failure_key(record: dict) -> str:
    """The key of a record's failure (the part of its signature that is not where or what program)."""
    outcome = record["outcome"]
    detail = record.get("detail") or {}
    message = detail.get("message") or ""
    if outcome == "mismatch":
        entry = next((e for e in detail.get("inputs", []) if e.get("outcome") == "mismatch"), {})
        report = entry.get("frozen_report") or entry.get("report") or {}
        if report:
            key = f"{report.get('kind') or 'value'} differs from eager"
        else:  # e.g. a result where eager raises
            key = _essence(entry.get("message") or message)
        if "frozen_report" in entry:
            key += ", also from eager replayed on the example's path"
        if entry.get("flaky"):
            key += " (flaky)"
        return normalise(key, _names_of(record))
    if outcome == "crash":
        found = re.search(r"SIG[A-Z]+|out of memory", message)
        return found.group(0) if found else "crash"
    if outcome == "timeout":
        return "timeout"
    return normalise(_essence(message), _names_of(record))


def _names_of(record: dict) -> set[str]:
    case = record.get("case")
    if not case:
        return set()
    try:
        return program_names(Case.from_dict(case).program)
    except ValueError:
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

    @property
    def path_id(self) -> str:
        return f"{self.framework}.{self.path}"

    @property
    def id(self) -> str:
        return hashlib.sha256(json.dumps(self.to_dict(), sort_keys=True).encode()).hexdigest()[:10]

    def coarse(self) -> "Signature":
        """Without the program's ops and constructs."""
        return Signature(self.framework, self.path, self.outcome, self.key, mode=self.mode)

    def with_program(self, program: Program) -> "Signature":
        return Signature(self.framework, self.path, self.outcome, self.key, tuple(sorted(set(program.ops()))),
                         tuple(sorted(program.constructs())), self.mode)

    def within(self, ops: Iterable[str], constructs: Iterable[str]) -> bool:
        """Are this signature's ops and constructs among these?"""
        return set(self.ops) <= set(ops) and set(self.constructs) <= set(constructs)

    def title(self) -> str:
        return f"{self.path_id}{'' if self.mode == 'infer' else f' ({self.mode})'} {self.outcome}: {self.key}"

    def to_dict(self) -> dict:
        return {"framework": self.framework, "path": self.path, "outcome": self.outcome, "key": self.key,
                "ops": list(self.ops), "constructs": list(self.constructs),
                **({} if self.mode == "infer" else {"mode": self.mode})}

    @classmethod
    def from_dict(cls, d: dict) -> "Signature":
        return cls(d["framework"], d["path"], d["outcome"], d["key"], tuple(d.get("ops", ())),
                   tuple(d.get("constructs", ())), d.get("mode", "infer"))


def signature(record: dict) -> Signature:
    """A record's coarse signature (no ops and constructs: those come from its minimal program)."""
    return Signature(record["framework"], record["path"], record["outcome"], failure_key(record),
                     mode=record.get("mode", "infer"))


# ------------------------------------------------------------------ buckets


@dataclass
class Bucket:
    """Findings with one signature, and the minimal case that shows it."""

    signature: Signature
    findings: list[dict]  # the findings' records (or their ``case_id``/``seed``/``index`` when read back)
    case: Case  # the minimal case (the smallest finding's case when not minimised)
    record: dict  # the minimal case's record
    reduction: Optional[dict] = None  # reduce.Reduction.to_dict(); None: not minimised
    reproduced: Optional[bool] = None  # did the finding fail the same way when replayed? None: not replayed
    repro: dict = field(default_factory=dict)  # the reproducer: file and how its verification went
    corpus: Optional[str] = None  # the case file in the corpus that has this bug

    @property
    def minimised(self) -> bool:
        return self.reduction is not None

    @property
    def id(self) -> str:
        return self.signature.id

    @property
    def first_seen(self) -> dict:
        r = min(self.findings, key=_seen_order)
        return {"case_id": r["case_id"], "seed": r.get("seed"), "index": r.get("index")}

    @property
    def case_ids(self) -> list[str]:
        return list(dict.fromkeys(r["case_id"] for r in sorted(self.findings, key=_seen_order)))

    @property
    def failing_input(self) -> int:
        """The index of the first input set of the minimal case that shows the failure."""
        entries = self.record.get("detail", {}).get("inputs", [])
        return next((e.get("index", i) for i, e in enumerate(entries) if e.get("outcome") == self.signature.outcome), 0)

    def folder_name(self, number: int) -> str:
        return f"{number:02d}-{self.signature.framework}-{self.signature.path}-{self.signature.outcome}-{self.id}"

    def to_dict(self) -> dict:
        record = {k: v for k, v in self.record.items() if k != "case"}
        return {"schema": BUCKET_SCHEMA, "id": self.id, "title": self.signature.title(), "path": self.signature.path_id,
                "signature": self.signature.to_dict(), "count": len(self.findings), "case_ids": self.case_ids,
                "first_seen": self.first_seen,
                "findings": [{k: r.get(k) for k in ("case_id", "seed", "index")} for r in self.findings],
                "known_issue": self.record.get("detail", {}).get("known_issue"), "minimised": self.minimised,
                "reduction": self.reduction, "reproduced": self.reproduced, "case": self.case.to_dict(),
                "failing_input": self.failing_input, "record": record, "repro": self.repro, "corpus": self.corpus}

    @classmethod
    def from_dict(cls, d: dict) -> "Bucket":
        return cls(Signature.from_dict(d["signature"]), list(d["findings"]), Case.from_dict(d["case"]), d["record"],
                   d.get("reduction"), d.get("reproduced"), d.get("repro") or {}, d.get("corpus"))


def _seen_order(record: dict) -> tuple:
    return (record.get("seed") if record.get("seed") is not None else -1,
            record.get("index") if record.get("index") is not None else -1)


def _program_size(record: dict) -> int:
    return Case.from_dict(record["case"]).program.size()


def triage(records: Iterable[dict], run: Optional[Callable[[Case, str], dict]] = None, *,
           outcomes: Iterable[str] = FINDINGS, max_seconds: float = 600.0, reduce_seconds: float = 120.0,
           progress: Callable[[str], None] = lambda line: None) -> list[Bucket]:
    """Group the findings among ``records`` into buckets, minimising with ``run(case, path_id, mode)``.

    ``run`` returns the record of a case along a path in a runner mode (a
    :class:`~conformance.reduce.Evaluator`).
    Every finding is minimised while ``max_seconds`` last (the smallest of each group first, then the
    rest), ``reduce_seconds`` at most each; findings with the same minimal signature share a bucket.
    A bucket whose minimal program has the constructs and non-trivial ops of another bucket of its
    group (not none), and more, joins that one. Findings left when the time is up (or all, with ``run=None``) join a bucket
    of their group whose minimal ops and constructs they contain, or else one bucket of their group
    marked not minimised.
    """
    findings = sorted((r for r in records if r["outcome"] in set(outcomes)), key=_seen_order)
    groups: dict[Signature, list[dict]] = {}
    for r in findings:
        groups.setdefault(signature(r), []).append(r)
    for members in groups.values():
        members.sort(key=lambda r: (_program_size(r), _seen_order(r)))
    t0 = time.monotonic()
    placed: dict[Signature, list[Bucket]] = {coarse: [] for coarse in groups}
    leftovers: dict[Signature, list[dict]] = {coarse: [] for coarse in groups}
    for phase in (0, 1):  # the smallest finding of every group first, then the others
        for n, (coarse, members) in enumerate(groups.items(), 1):
            if phase == 0:
                progress(f"[{n}/{len(groups)}] {coarse.title()[:150]} ({len(members)} finding(s))")
            for r in members[:1] if phase == 0 else members[1:]:
                left = max_seconds - (time.monotonic() - t0)
                if run is None or left <= 0:
                    leftovers[coarse].append(r)
                    continue
                _place(r, _minimise(r, coarse, run, min(reduce_seconds, left), progress, verbose=phase == 0),
                       placed[coarse])
    buckets = []
    for coarse, mine in placed.items():
        # A minimal program with the constructs and non-trivial ops of another bucket, and more, is taken
        # for the same bug (its reduction got stuck on something the moves cannot remove, or needed
        # another trivial op to keep a loop going): the buckets merge.
        mine.sort(key=lambda b: len(b.signature.ops) + len(b.signature.constructs))
        merged: list[Bucket] = []
        for b in mine:
            home = next((m for m in merged if b.minimised and m.minimised and _core(m.signature)
                         and _core(m.signature) <= _core(b.signature)), None)
            if home is not None:
                home.findings += b.findings
            else:
                merged.append(b)
        mine = merged
        rest = []
        for r in leftovers[coarse]:
            home = next((b for b in mine if b.minimised and b.signature.within(r.get("ops", ()), r.get("constructs", ()))),
                        None)
            if home is not None:
                home.findings.append(r)
            else:
                rest.append(r)
        if rest:
            case = Case.from_dict(rest[0]["case"])
            mine.append(Bucket(coarse.with_program(case.program), rest, case, rest[0]))
        buckets += mine
    return sorted(buckets, key=lambda b: _seen_order(min(b.findings, key=_seen_order)))


def _core(sig: Signature) -> set:
    """A signature's constructs and ops but the trivial ones the reducer simplifies others to."""
    from conformance.triage.reduce import SIMPLE_OPS

    return set(sig.constructs) | (set(sig.ops) - {name for name, _ in SIMPLE_OPS})


def _minimise(r: dict, coarse: Signature, run, seconds: float, progress, verbose: bool) -> Bucket:
    """A bucket of one finding: its minimal case (or the case itself if a replay fails otherwise)."""
    from conformance.triage.reduce import reduce_case

    keep = lambda rec: rec.get("outcome") == coarse.outcome and signature(rec) == coarse  # noqa: E731
    case = Case.from_dict(r["case"])
    replayed = run(case, coarse.path_id, coarse.mode)
    if not keep(replayed):
        progress(f"    case {r['case_id']} did not fail the same way when replayed ({replayed.get('outcome')}): "
                 f"not minimised")
        return Bucket(coarse.with_program(case.program), [r], case, r, reproduced=False)
    red = reduce_case(case, keep, lambda c: run(c, coarse.path_id, coarse.mode), record=replayed, max_seconds=seconds,
                      progress=(lambda line: progress("      " + line)) if verbose else (lambda line: None))
    progress(f"    case {r['case_id']}: {red.size_before} -> {red.size} statements in {red.seconds:.1f} s "
             f"({red.tried} tried{'' if red.complete else ', time ran out'})")
    return Bucket(coarse.with_program(red.case.program), [r], red.case, red.record, red.to_dict(), True)


def _place(r: dict, new: Bucket, mine: list) -> None:
    """Put a minimised finding in the bucket with its signature (keeping the smaller case), or a new one."""
    from conformance.triage.reduce import cost

    same = next((b for b in mine if b.signature == new.signature and b.reproduced == new.reproduced), None)
    if same is None:
        mine.append(new)
        return
    same.findings.append(r)
    if new.minimised and cost(new.case) < cost(same.case):
        same.case, same.record, same.reduction = new.case, new.record, new.reduction


# ------------------------------------------------------------------ reproducers and reports

_DRIVER = '''
# ---------------------------------------------------------------- compare with eager

PATH = {path!r}
CONVERT_WITH = "example.npz"
RUN_ON = {run_on!r}
RTOL, ATOL = 1.3e-6, 1e-5  # torch.testing.assert_close's float32 defaults


def flatten(tree):
    if isinstance(tree, (list, tuple)):
        return [leaf for item in tree for leaf in flatten(item)]
    if isinstance(tree, dict):
        return [leaf for item in tree.values() for leaf in flatten(item)]
    return [tree]


def differences(got, want):
    """What differs between the converted model's outputs and eager's (flat lists of arrays)."""
    if len(got) != len(want):
        return [f"{{len(got)}} outputs, eager has {{len(want)}}"]
    found = []
    for i, (g, w) in enumerate(zip(got, want)):
        if g.shape != w.shape or g.dtype != w.dtype:
            found.append(f"output {{i}}: {{g.dtype}}{{list(g.shape)}}, eager {{w.dtype}}{{list(w.shape)}}")
            continue
        if w.dtype.kind in "fc":
            bad = ~np.isclose(g, w, rtol=RTOL, atol=ATOL, equal_nan=True)
        else:
            bad = g != w
        if bad.any():
            at = tuple(int(j) for j in np.unravel_index(np.argmax(bad), bad.shape))
            with np.errstate(invalid="ignore"):
                diff = np.abs(g.astype(np.float64) - w.astype(np.float64))
            found.append(f"output {{i}}: {{int(bad.sum())}} of {{bad.size}} values differ, max abs difference "
                         f"{{np.nanmax(diff):.6g}}; first at {{at}}: converted {{g[at]!r}}, eager {{w[at]!r}}")
    return found


def main():
    np.set_printoptions(precision=6, threshold=40, edgeitems=3)
    args, kwargs = load_inputs(os.path.join(HERE, CONVERT_WITH))
    try:
        converted = convert(make_model(), args, kwargs)
    except Exception:
        traceback.print_exc()
        print(f"\\nFAILED: {{PATH}} raised while converting")
        return 1
    eager_model = make_model()
    failed = False
    for name in RUN_ON:
        args, kwargs = load_inputs(os.path.join(HERE, name))
        want = [to_numpy(x) for x in flatten(call(eager_model, args, kwargs))]
        print(f"== {{name}} (kwargs {{kwargs}})\\neager:     {{want}}")
        args, kwargs = load_inputs(os.path.join(HERE, name))
        try:
            got = [to_numpy(x) for x in flatten(call(converted, args, kwargs))]
        except Exception:
            traceback.print_exc()
            print(f"FAILED: the {{PATH}} model raised on {{name}}")
            failed = True
            continue
        print(f"converted: {{got}}")
        for line in differences(got, want):
            print("difference:", line)
            failed = True
    print(f"\\nFAILED: {{PATH}} differs from eager" if failed else f"\\nOK: {{PATH}} agrees with eager")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
'''


def _without_docstring(source: str) -> str:
    if source.startswith('"""'):
        source = source[source.index('"""', 3) + 3:]
    return source.lstrip("\n")


def repro_source(bucket: Bucket) -> Optional[str]:
    """The standalone ``repro.py`` of a bucket, or None where the path has no reproducer snippet."""
    from conformance.paths.records import PATHS, load_framework
    from conformance.render.source import render

    sig = bucket.signature
    fw = load_framework(sig.framework)
    path = PATHS.get(sig.path_id)
    if path is None or not path.repro or not fw.repro or sig.mode != "infer":  # reproducers compare outputs
        return None
    program = bucket.case.program
    model = render(program, sig.framework).split('\nif __name__ == "__main__":')[0].rstrip()
    run_on = ["example.npz"] + (["inputs.npz"] if bucket.failing_input else [])
    needs = ", ".join([sig.framework if sig.framework != "tf" else "tensorflow", "numpy", *path.requires])
    doc = (f'"""Reproducer: {path.description} ({sig.path_id}) — {sig.outcome}.\n\n'
           f"{sig.key}\n\n"
           f"Needs {needs}; nothing else. Run: python repro.py (loads example.npz"
           f"{' and inputs.npz' if len(run_on) > 1 else ''} beside it).\n"
           f"It converts the model on example.npz, runs eager and the converted model on {' and '.join(run_on)},\n"
           f"prints both and the difference, and exits with status 1 while the bug is there.\n"
           f"Written by conformance triage (bucket {bucket.id}).\n"
           '"""\n')
    data = (f"HERE = os.path.dirname(os.path.abspath(__file__))\n"
            f"LEAF_NAMES = {[n for n in dynamic_axes(program)]!r}\n"
            f"DYNAMIC_AXES = {dynamic_axes(program)!r}\n")
    sections = [doc + "import os\nimport traceback\n\n" + _without_docstring(model),
                f"# ---------------------------------------------------------------- {sig.framework}\n\n"
                + fw.repro.strip("\n"),
                f"# ---------------------------------------------------------------- the path: {path.description}\n\n"
                + data + "\n\n" + path.repro.strip("\n"),
                _DRIVER.format(path=sig.path_id, run_on=run_on).strip("\n")]
    return "\n\n\n".join(sections) + "\n"


def verify_repro(folder: Path, timeout: float = 300.0) -> dict:
    """Run ``repro.py`` in a clean environment (``python -I``, its own folder): did it fail?"""
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "TMPDIR", "SYSTEMROOT")}
    t0 = time.monotonic()
    try:
        proc = subprocess.run([sys.executable, "-I", "repro.py"], cwd=folder, env=env, capture_output=True,
                              text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"file": "repro.py", "verified": None, "exit_code": None,
                "output_tail": f"ran past {timeout:g} s", "seconds": round(time.monotonic() - t0, 1)}
    out = _ANSI.sub("", proc.stderr + proc.stdout)[-3000:]  # the verdict, on stdout, last
    return {"file": "repro.py", "verified": proc.returncode != 0, "exit_code": proc.returncode, "output_tail": out,
            "seconds": round(time.monotonic() - t0, 1)}


def report_markdown(bucket: Bucket) -> str:
    """``REPORT.md``: the bucket as an upstream bug report."""
    from conformance.paths.records import PATHS

    sig = bucket.signature
    path = PATHS.get(sig.path_id)
    record = bucket.record
    versions = record.get("versions") or {}
    fw_name = {"torch": "PyTorch", "paddle": "PaddlePaddle", "tf": "TensorFlow"}.get(sig.framework, sig.framework)
    what = path.description if path else sig.path_id
    role = bucket.case.inputs[bucket.failing_input].role
    lines = [f"# {what}: {sig.outcome} — {sig.key}", "",
             f"**Versions**: {', '.join(f'{k} {v}' for k, v in versions.items() if k != 'conformance') or 'unknown'}",
             f"**Path**: `{sig.path_id}` — {what}",
             f"**Seen**: {len(bucket.findings)} finding(s) in {len(bucket.case_ids)} case(s), first in campaign "
             f"seed {bucket.first_seen['seed']}, case {bucket.first_seen['case_id']} (index {bucket.first_seen['index']})",
             ""]
    if record.get("detail", {}).get("known_issue"):
        lines += [f"**Known issue**: {record['detail']['known_issue']}", ""]
    lines += ["## To reproduce", ""]
    if bucket.repro.get("file"):
        lines += ["```sh", "python repro.py   # beside example.npz" + (" and inputs.npz" if bucket.failing_input else ""),
                  "```", "", f"`repro.py` needs {fw_name}, numpy"
                  + (f" and {', '.join(path.requires)}" if path and path.requires else "")
                  + "; it builds the model below, converts it on `example.npz`, and compares the converted model "
                    "with eager."]
    else:
        why = f"it is a `{sig.mode}`-mode finding (reproducers compare outputs)" if sig.mode != "infer" else \
            f"`{sig.path_id}` has no reproducer snippet yet"
        lines += [f"No standalone reproducer: {why}. Replay the case with `conformance replay case.json --paths "
                  f"{sig.path}" + ("" if sig.mode == "infer" else f" --mode {sig.mode}") + "`."]
    from conformance.render.source import render

    forward = render(bucket.case.program, sig.framework).split("class Model", 1)[1].split("\n\ndef load_inputs")[0]
    lines += ["", "The model (weights are drawn with numpy from a fixed seed):", "", "```python",
              "class Model" + forward.rstrip(), "```", "",
              "## Expected", "",
              f"The converted model returns what eager {fw_name} returns (within `torch.testing.assert_close`'s float32 "
              f"tolerances), on the inputs it was converted with"
              + (f" and on the `{role}` input set (`inputs.npz`: {_role_words(role)})." if bucket.failing_input else "."),
              "", "## Actual", "", "```", (record.get("detail", {}).get("message") or "").strip()[:3000], "```"]
    if bucket.repro.get("output_tail"):
        lines += ["", "`repro.py` printed (the end):", "", "```", bucket.repro["output_tail"].strip()[-2000:], "```"]
    red = bucket.reduction
    lines += ["", "## Notes", ""]
    if red:
        lines.append(f"- Minimised by conformance from {red['size_before']} to {red['size']} statements in "
                     f"{red['seconds']} s ({red['tried']} candidates run)"
                     + ("." if red["complete"] else "; the time ran out before it was minimal."))
    else:
        lines.append("- Not minimised" + (" (it did not fail the same way when replayed)." if bucket.reproduced is False
                                          else " (triage ran out of time)."))
    lines.append(f"- Signature: `{json.dumps(sig.to_dict())}`")
    return "\n".join(lines) + "\n"


def _role_words(role: str) -> str:
    return {"values": "other values", "batch": "another size of the dynamic dim",
            "kwargs": "other keyword-argument values", "example": "the example"}.get(role, role)


def write_bucket(bucket: Bucket, folder: Path, verify: bool = True, timeout: float = 300.0) -> Path:
    """Write a bucket's folder (see the module docstring); ``verify`` runs its ``repro.py``."""
    folder.mkdir(parents=True, exist_ok=True)
    case = bucket.case
    (folder / "case.json").write_text(json.dumps({"case": case.to_dict()}, indent=1) + "\n")
    save_inputs(folder / "example.npz", case.program, case.inputs[0])
    if bucket.failing_input:
        save_inputs(folder / "inputs.npz", case.program, case.inputs[bucket.failing_input])
    source = repro_source(bucket)
    bucket.repro = {}
    if source is not None:
        (folder / "repro.py").write_text(source)
        bucket.repro = verify_repro(folder, timeout) if verify else {"file": "repro.py", "verified": None}
    (folder / "REPORT.md").write_text(report_markdown(bucket))
    (folder / "bucket.json").write_text(json.dumps(bucket.to_dict(), indent=1, sort_keys=True) + "\n")
    return folder


def read_buckets(folder: Path) -> list[Bucket]:
    """The buckets a triage wrote under ``folder`` (each ``*/bucket.json``)."""
    found = sorted(Path(folder).glob("*/bucket.json"))
    buckets = []
    for file in found:
        try:
            buckets.append(Bucket.from_dict(json.loads(file.read_text())))
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as e:
            raise ValueError(f"{file}: not a bucket written by conformance triage ({type(e).__name__}: {e})") from None
    return buckets


# ------------------------------------------------------------------ the corpus


def find_in_corpus(bucket: Bucket, case_files: list) -> Optional[Path]:
    """A case file of the corpus with this bucket's bug: same framework, path, outcome and key, and
    programs of which one has the other's ops and constructs."""
    for cf in case_files:
        if not cf.signature:
            continue
        try:
            sig = Signature.from_dict(cf.signature)
        except (KeyError, TypeError):
            continue
        mine = bucket.signature
        if sig.coarse() == mine.coarse() and (sig.within(mine.ops, mine.constructs) or mine.within(sig.ops, sig.constructs)):
            return cf.file
    return None


def save_case(bucket: Bucket, cases_dir: Path, date: Optional[str] = None) -> Path:
    """Add a bucket's minimal case to the corpus as ``<framework>-<path>-<outcome>-<id>.json``.

    Its expectation is the bucket's outcome on this framework version and later (so a fix upstream
    shows up as an unexpected pass); rename the file and edit its summary as you see fit."""
    from conformance.triage.corpus import CaseFile, Expectation, write_case_file

    sig = bucket.signature
    if sig.mode != "infer":
        raise ValueError(f"bucket {bucket.id} is a {sig.mode}-mode finding: the corpus replays inference only")
    versions = bucket.record.get("versions") or {}
    version = str(versions.get(sig.framework, "")).split("+")[0]
    major_minor = ".".join(version.split(".")[:2])
    others = ", ".join(f"{k} {v}" for k, v in versions.items() if k not in ("conformance", "python", sig.framework))
    seen = bucket.first_seen
    source = (f"found by conformance {date or time.strftime('%Y-%m-%d')} ({sig.framework} {version}"
              + (f", {others}" if others else "") + f"; campaign seed {seen['seed']}, case {seen['case_id']})")
    case_file = CaseFile(Path(cases_dir) / f"{sig.framework}-{sig.path}-{sig.outcome}-{bucket.id}.json",
                         f"{sig.path_id} {sig.outcome}: {sig.key}", source,
                         {sig.path_id: (Expectation(sig.outcome, f">={major_minor}" if major_minor else ""),)},
                         case=bucket.case, signature=sig.to_dict())
    return write_case_file(case_file.file, case_file)


# ------------------------------------------------------------------ the command


def _results_files(paths: list[str]) -> list[Path]:
    files = []
    for p in map(Path, paths):
        f = p / "results.jsonl" if p.is_dir() else p
        if not f.is_file():
            raise SystemExit(f"conformance triage: {p}: no results file (a results.jsonl or a campaign folder)")
        files.append(f)
    return files


def table_rows(buckets: list[Bucket]) -> tuple[list[str], list[list[str]]]:
    """The table ``conformance triage`` prints (and writes to summary.md)."""
    header = ["#", "bucket", "path", "outcome", "signature", "minimal program", "findings", "first seen", "statements",
              "repro.py", "corpus"]
    rows = []
    for n, b in enumerate(buckets, 1):
        sig = b.signature
        red = b.reduction
        size = f"{red['size_before']}→{red['size']}" if red else f"{b.case.program.size()} (not minimised)"
        verified = b.repro.get("verified")
        repro = "-" if not b.repro.get("file") else {True: "fails", False: "passes!", None: "not run"}[verified]
        first = b.first_seen
        rows.append([str(n), b.id, sig.path_id, sig.outcome, sig.key, ", ".join(sig.ops + sig.constructs) or "-",
                     f"{len(b.findings)} in {len(b.case_ids)} case(s)",
                     "-" if first["seed"] is None else f"seed {first['seed']} #{first['index']}",
                     size, repro, Path(b.corpus).name if b.corpus else "new"])
    return header, rows


def command(args) -> int:
    """``conformance triage RESULTS... --out DIR [--save CASES]`` (see ``conformance triage --help``)."""
    import importlib
    import shutil

    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from conformance.paths.records import split_names
    from conformance.triage.corpus import CaseFileError, corpus
    from conformance.triage.reduce import Evaluator

    console = Console() if sys.stdout.isatty() else Console(width=200)
    say = lambda line: console.print(escape(line), highlight=False)  # noqa: E731
    modules = [m for v in args.load or [] for m in split_names(v)]
    for module in modules:
        try:
            importlib.import_module(module)
        except Exception as e:  # noqa: BLE001
            raise SystemExit(f"conformance triage: --load {module}: {type(e).__name__}: {e}")
    out = Path(args.out)
    given = [Path(p) for p in args.results]
    if len(given) == 1 and given[0].is_dir() and any(given[0].glob("*/bucket.json")):
        try:
            buckets = read_buckets(given[0])  # an earlier triage: nothing to rerun (e.g. to --save)
        except ValueError as e:
            raise SystemExit(f"conformance triage: {e}")
        say(f"{len(buckets)} bucket(s) from the triage in {given[0]}")
        out = given[0]
        rewrite = False
    else:
        from conformance.run.records import ReportError, read_records

        try:
            records = [r for f in _results_files(args.results) for r in read_records(f)]
        except ReportError as e:
            raise SystemExit(f"conformance triage: {e}")
        outcomes = split_names(",".join(args.outcomes or [])) or list(FINDINGS)
        wanted = {f"{r['framework']}.{r['path']}" for r in records if r["outcome"] in outcomes}
        unknown = wanted - _known_paths({p.split(".")[0] for p in wanted})
        if unknown:
            raise SystemExit(f"conformance triage: path(s) {', '.join(sorted(unknown))} are not registered here: "
                             f"pass --load with the module the campaign loaded")
        n = sum(1 for r in records if r["outcome"] in outcomes)
        say(f"{n} finding(s) ({', '.join(outcomes)}) among {len(records)} records; minimising for at most "
            f"{args.max_seconds:g} s")
        (out / "logs").mkdir(parents=True, exist_ok=True)
        with Evaluator(tuple(modules), args.device, args.timeout, str(out / "logs" / "reducer.log")) as evaluator:
            buckets = triage(records, evaluator if args.max_seconds > 0 else None, outcomes=outcomes,
                             max_seconds=args.max_seconds, reduce_seconds=args.reduce_seconds, progress=say)
        old = [d for d in out.glob("*/") if (d / "bucket.json").exists()]
        for d in old:
            shutil.rmtree(d)
        rewrite = True
    corpus_dir = Path(args.corpus) if args.corpus else None
    known = []
    if corpus_dir is not None and corpus_dir.is_dir():
        try:
            known = corpus(corpus_dir)
        except CaseFileError as e:
            say(f"warning: cannot compare with the corpus: {e}")
    for n, b in enumerate(buckets, 1):
        b.corpus = str(find_in_corpus(b, known) or "") or None
        if rewrite:
            say(f"writing {out / b.folder_name(n)}" + ("" if args.no_verify else " (and running its repro.py)"))
            write_bucket(b, out / b.folder_name(n), verify=not args.no_verify, timeout=args.timeout)
    header, rows = table_rows(buckets)
    table = Table(title=f"{len(buckets)} bucket(s) in {out}")
    for h in header:
        table.add_column(h, overflow="fold")
    for row in rows:
        table.add_row(*map(escape, row))
    console.print(table)
    if rewrite:
        md = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        md += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in rows]
        (out / "summary.md").write_text("\n".join(md) + "\n")
    if args.save:
        wanted = set(split_names(",".join(args.bucket or [])))
        unknown = wanted - {b.id for b in buckets}
        if unknown:
            raise SystemExit(f"conformance triage: no bucket {', '.join(sorted(unknown))}; "
                             f"have {', '.join(b.id for b in buckets)}")
        Path(args.save).mkdir(parents=True, exist_ok=True)
        for b in buckets:
            if wanted and b.id not in wanted:
                continue
            if b.corpus:
                say(f"bucket {b.id}: already in the corpus as {b.corpus}")
                continue
            try:
                say(f"bucket {b.id}: saved as {save_case(b, Path(args.save))}")
            except ValueError as e:
                say(f"bucket {b.id}: not saved: {e}")
    return 0


def _known_paths(frameworks: set) -> set[str]:
    from conformance.paths.records import PATHS, UnknownPathError, load_framework

    for fw in frameworks:
        try:
            load_framework(fw)
        except (ImportError, UnknownPathError):
            pass
    return set(PATHS)


def add_parser(sub) -> None:
    """The ``triage`` subcommand's options (called by :mod:`conformance.cli`)."""
    t = sub.add_parser("triage", help="bucket a campaign's findings, minimise them, write reproducers",
                       description="Group the findings of results files into buckets by signature, minimise one "
                                   "case per bucket, and write a folder per bucket with bucket.json, case.json, "
                                   "repro.py (+ .npz inputs) and REPORT.md. Given a folder of an earlier triage, "
                                   "reuses its buckets (e.g. to --save them).")
    t.add_argument("results", nargs="+", help="results.jsonl files or campaign folders (or one earlier triage folder)")
    t.add_argument("--out", default="reports/triage", help="folder for the bucket folders (default reports/triage)")
    t.add_argument("--max-seconds", type=float, default=600.0,
                   help="time for minimising, all buckets together (default 600; 0: do not minimise)")
    t.add_argument("--reduce-seconds", type=float, default=120.0, help="time for minimising one case (default 120)")
    t.add_argument("--timeout", type=float, default=120.0, help="seconds one candidate or repro.py may run")
    t.add_argument("--outcomes", action="append", help="outcomes to triage (default: " + ",".join(FINDINGS) + ")")
    t.add_argument("--device", default="cpu", choices=("cpu", "cuda"))
    t.add_argument("--load", action="append", help="import this module first (the campaign's --load)")
    t.add_argument("--no-verify", action="store_true", help="do not run each repro.py")
    t.add_argument("--corpus", default="cases" if Path("cases").is_dir() else None,
                   help="case folder to look each bucket up in (default: ./cases where it exists)")
    t.add_argument("--save", metavar="CASES", help="add the buckets (those of --bucket) to this corpus folder")
    t.add_argument("--bucket", action="append", help="with --save: only these bucket ids")
    t.set_defaults(fn=command)
