"""Bugs that travel: every IR case of the corpus run along the paths of every framework, and what each path does
recorded in the case's ``expected``.

An IR case (a file with ``"case"``) is a framework-neutral program: the bug it pins on one path (a
``torch.compile`` mismatch) is rendered for Paddle and TensorFlow too and becomes a test of ``to_static`` and
XLA. :func:`transplant` replays a case along the chosen paths (eager prepared once per framework) and says, per
path, what the installed version does and how that stands against the file:

* ``added``: the file has no expectation for this path at this version; the outcome is recorded as
  ``{"outcome": ..., "versions": ">=<installed version>"}`` (so a fix and a regression in a later release are both
  noticed, as ``cases/README.md`` asks);
* ``kept``: the recorded expectation holds;
* ``differs``: the recorded expectation applies and the path now does something else (a fix upstream, or a
  regression): never overwritten, left for a person to read;
* ``unrecorded``: the outcome cannot be an expectation (``harness_error``: this project's own bug), or the path
  could not run the case at all: the IR cannot say the program in that framework (an op without an emitter
  there), or that framework's eager cannot run it (Paddle has no int8 ``multiply`` kernel on the CPU), so it is
  not a test of that framework.

A finding added this way that no limitation of the path names (``Transplanted.new_finding``) is a new bug on
that path: triage it into a case of its own named for the path, or name it by a limitation record.
``conformance transplant cases/`` runs it; ``--write`` writes the added expectations into the files.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Optional

from conformance.paths.records import PathRecord, load_framework
from conformance.run.neighbours import without_emitter
from conformance.run.records import FINDINGS, ResultRecord
from conformance.run.runner import error_text, prepare, run_path
from conformance.triage.corpus import EXPECTABLE, CaseFile, Expectation, corpus, load_case_file, write_case_file

ACTIONS = ("added", "kept", "differs", "unrecorded")


@dataclass(frozen=True)
class Transplanted:
    """What one path did on one case file, against what the file records (see the module docstring)."""

    file: Path
    path_id: str
    outcome: str
    action: str
    message: str = ""
    recorded: Optional[Expectation] = None  # the expectation that applies (None: none did)
    named: str = ""  # the limitation or known bug the record names, if any
    record: Optional[ResultRecord] = field(default=None, compare=False, repr=False)  # None: the path did not run

    @property
    def new_finding(self) -> bool:
        """A finding (mismatch, an error, a crash) the file did not record for this path and no limitation of the
        path names."""
        return self.action == "added" and self.outcome in FINDINGS and not self.named


def since(version: str) -> str:
    """The specifier of an expectation recorded on ``version`` (``2.13.0+cpu`` -> ``>=2.13.0``)."""
    return f">={version.split('+')[0]}"


def judge_record(case_file: CaseFile, record: ResultRecord, version: str) -> Transplanted:
    """How ``record`` (a replay of ``case_file`` along one path) stands against the file's expectations."""
    pid = f"{record.framework}.{record.path}"
    want = case_file.expectation(pid, version)
    detail = record.detail
    named = detail.known_issue or detail.limitation or ""
    message = (detail.message or "").strip().splitlines()
    common = dict(file=case_file.file, path_id=pid, outcome=record.outcome, message=message[0][:300] if message
                  else "", recorded=want, named=named, record=record)
    if record.outcome not in EXPECTABLE:
        return Transplanted(action="unrecorded", **common)
    if want is None:
        return Transplanted(action="added", **common)
    return Transplanted(action="kept" if want.outcome == record.outcome else "differs", **common)


def transplant(case_file: CaseFile, paths: Iterable[PathRecord], device: str = "cpu") -> list[Transplanted]:
    """Replay an IR case file along ``paths`` (the reference paths left out): one :class:`Transplanted` per path."""
    if case_file.case is None:
        raise ValueError(f"{case_file.file}: a hand-written model is one framework's code: only IR cases travel")
    chosen = [p for p in paths if not p.reference]
    out = []
    for fw in dict.fromkeys(p.framework for p in chosen):
        mine = [p for p in chosen if p.framework == fw]
        unsaid = without_emitter(case_file.case, fw)
        if unsaid:
            out += [Transplanted(case_file.file, p.id, "", "unrecorded", f"the IR cannot say this program in {fw}: no "
                                 f"{fw} emitter for {', '.join(unsaid)}") for p in mine]
            continue
        try:
            prep = prepare(case_file.case, fw)
        except Exception as e:  # noqa: BLE001 - eager cannot run the program there: no path of it can be judged
            out += [Transplanted(case_file.file, p.id, "", "unrecorded", f"eager {fw} cannot run this program: "
                                 f"{error_text(e)[:300]}") for p in mine]
            continue
        version, versions = prep.framework.version(), prep.framework.versions()
        out += [judge_record(case_file, run_path(case_file.case, prep, p, device, versions), version) for p in mine]
    return out


def with_added(case_file: CaseFile, results: Iterable[Transplanted]) -> CaseFile:
    """``case_file`` with the ``added`` outcomes of ``results`` appended to its expectations (the file's own ones
    first, so an expectation recorded by hand for an older version keeps applying there)."""
    expected = {pid: tuple(es) for pid, es in case_file.expected.items()}
    for r in results:
        if r.action == "added":
            version = load_framework(r.path_id.split(".")[0]).version()
            expected[r.path_id] = expected.get(r.path_id, ()) + (Expectation(r.outcome, since(version)),)
    return CaseFile(case_file.file, case_file.summary, case_file.source, expected, case_file.case, case_file.model,
                    case_file.signature)


def transplant_corpus(targets: Iterable[Path], paths: list[PathRecord], device: str = "cpu", write: bool = False,
                      on_result: Optional[Callable[[Transplanted], None]] = None) -> list[Transplanted]:
    """:func:`transplant` every IR case file among ``targets`` (files, or folders of them); hand-written models are
    left out. ``write``: record the ``added`` outcomes in each file (:func:`with_added`)."""
    files = []
    for target in targets:
        target = Path(target)
        files += corpus(target) if target.is_dir() else [load_case_file(target)]
    results = []
    for case_file in (f for f in files if f.case is not None):
        found = []
        for r in transplant(case_file, paths, device):
            found.append(r)
            if on_result:
                on_result(r)
        if write and any(r.action == "added" for r in found):
            write_case_file(case_file.file, with_added(case_file, found))
        results += found
    return results
