"""``conformance replay``: rerun saved cases (a case file, a corpus folder, or the records of a results file).

A corpus folder (``conformance replay cases/``) is replayed along every path its files record an outcome for (that
the options select), and what changed from the recorded outcomes is printed in one table: what a maintainer runs
on a release candidate, ``conformance replay cases/ --with onnxruntime==1.22.1`` (then, without ``--paths``, the
paths that use the packages named by ``--with``).
"""

from __future__ import annotations

import json
from pathlib import Path

from conformance.cli.common import add_path_options, available_paths, console, names_of, read_or_exit, use_onnx_opset
from conformance.cli.releases import add_with_options
from conformance.run.records import FINDINGS, results_line


def load_cases(file: Path, case_id, index) -> list:
    """Cases from a case JSON file, or from the records of a results.jsonl."""
    from conformance.program.case import Case
    from conformance.program.ir import ProgramError

    try:
        text = file.read_text()
    except OSError as e:
        raise SystemExit(f"conformance: cannot read {file}: {e.strerror}")
    try:
        if file.suffix == ".jsonl":
            found = {}
            for r in read_or_exit(file):
                if (case_id is None or r.case_id == case_id) and (index is None or r.index == index):
                    found.setdefault(r.case_id, r.case)
            if not found:
                raise SystemExit(f"conformance: no record in {file} matches"
                                 + (f" case id {case_id}" if case_id else "")
                                 + (f" index {index}" if index is not None else ""))
            return [Case.from_dict(c) for c in found.values()]
        data = json.loads(text)
        return [Case.from_dict(data.get("case", data))]
    except json.JSONDecodeError as e:
        raise SystemExit(f"conformance: {file} is not valid JSON: {e}")
    except ProgramError as e:
        raise SystemExit(f"conformance: {file}: {e}")


def cmd_replay(args) -> int:
    from conformance.run.runner import run_case, tasks_of
    from conformance.triage.corpus import is_model_file, replay_model_file

    out = console()
    if Path(args.file).is_dir():
        return replay_corpus(Path(args.file), args, out)
    if is_model_file(Path(args.file)):  # a hand-written model from cases/
        if args.localize:
            out.print("--localize: a hand-written model has no program to cut; conformance check localises a model "
                      "of your own by its submodules")
        paths = available_paths(out, args)
        if use_onnx_opset(out, paths, args)[1]:
            return 2
        return replay_model_file(Path(args.file), paths, args.device, out, args.out)
    cases = load_cases(Path(args.file), args.case_id, args.index)
    if len(cases) > 1 and args.case_id is None and args.index is None:
        out.print(f"{len(cases)} cases in {args.file}; replaying all (choose one with --case-id or --index)")
    paths = available_paths(out, args)
    if use_onnx_opset(out, paths, args)[1]:  # said once, instead of one conversion error per case
        return 2
    records = []
    for case in cases:
        for r in run_case(case, tasks_of(paths, args.mode), args.device):
            records.append(r)
            message = r.detail.message.strip().splitlines()
            out.print(f"{r.case_id}  {r.path_id:<24} {r.outcome:<20} {message[0][:160] if message else ''}",
                      markup=False, highlight=False)
            if args.localize and r.outcome in FINDINGS and not r.detail.configuration:
                _localize(r, args.device, out)
    if args.out:
        Path(args.out).write_text("".join(results_line(r) for r in records))
    return 1 if any(r.outcome in FINDINGS and not r.detail.configuration for r in records) else 0


def replay_corpus(folder: Path, args, out) -> int:
    """Replay every case file of ``folder`` along the selected paths it records; print the outcomes that changed
    (exit status 1 where one did)."""
    import os

    from rich.markup import escape
    from rich.table import Table

    from conformance.paths.records import load_framework
    from conformance.run.releases import WITH_ENV, spec_name
    from conformance.triage.bisect import ACCEPTED
    from conformance.triage.corpus import CaseFileError, corpus, replay

    try:
        files = corpus(folder)
    except CaseFileError as e:
        raise SystemExit(f"conformance: {e}")
    paths = available_paths(out, args, keep_duplicates=True)
    if use_onnx_opset(out, paths, args)[1]:
        return 2
    withs = [spec_name(s) for s in os.environ.get(WITH_ENV, "").split()]
    if withs and not names_of(args.paths):  # a release candidate of a runtime: the paths that use it
        paths = [p for p in paths if {m.replace("_", "-") for m in p.requires} & set(withs)
                 or {p.framework, "paddlepaddle" if p.framework == "paddle" else p.framework} & set(withs)]
        out.print(escape(f"the paths that use {', '.join(withs)}: {', '.join(p.id for p in paths) or 'none'}"))
    chosen = {p.id: p for p in paths if not p.reference and not (p.same_code_as and p.same_code_as(args.device))}
    versions = {fw: load_framework(fw).version() for fw in {p.framework for p in chosen.values()}}
    changed, replayed, left = [], 0, 0
    for case_file in files:
        for pid in case_file.expected:
            path = chosen.get(pid)
            want = case_file.expectation(pid, versions[path.framework]) if path else None
            if want is None:
                continue
            if want.outcome in ("crash", "timeout"):  # it would take this process with it
                left += 1
                continue
            record = replay(case_file, path, args.device)
            replayed += 1
            if record.outcome != want.outcome:
                message = (record.detail.message.strip().splitlines() or [""])[0][:100]
                kind = "fixed" if want.outcome in FINDINGS and record.outcome in ACCEPTED else \
                    "new failure" if record.outcome in FINDINGS and want.outcome not in FINDINGS else "changed"
                changed.append((case_file.file.stem, pid, want.outcome, record.outcome, kind, message))
                out.print(escape(f"{kind}: {case_file.file.stem} {pid}: {want.outcome} -> {record.outcome}"),
                          highlight=False)
    table = Table(title=f"{len(changed)} of {replayed} recorded outcomes changed"
                        + (f" ({os.environ[WITH_ENV]})" if os.environ.get(WITH_ENV) else ""))
    for column in ("case", "path", "recorded", "now", "change", "message"):
        table.add_column(column)
    for row in sorted(changed, key=lambda r: (r[4], r[0], r[1])):
        table.add_row(*(escape(x) for x in row))
    out.print(table)
    if left:
        out.print(f"{left} recorded crash or timeout outcome(s) not replayed (each would end this process): "
                  "replay those files one by one", style="yellow")
    return 1 if changed else 0


def _localize(record, device: str, out) -> None:
    """``--localize``: where the finding first goes wrong, printed and kept in the record (``--out``)."""
    from conformance.triage.first_divergence import attach, localize_record

    loc = localize_record(record, device=device)
    attach(record, loc)
    out.print(f"    first divergence: {loc.summary()} ({loc.conversions} conversions, {loc.seconds:.1f} s)",
              markup=False, highlight=False)


def add_parsers(sub) -> None:
    r = sub.add_parser("replay", help="rerun saved cases (a case .json, a corpus folder, or a results .jsonl)")
    add_path_options(r)
    r.add_argument("file")
    r.add_argument("--case-id")
    r.add_argument("--index", type=int)
    r.add_argument("--out", help="write the new records to this .jsonl")
    r.add_argument("--localize", action="store_true",
                   help="localise each finding: the first statement whose values diverge from eager's (at most 20 "
                        "conversions each), printed and kept in --out's records (detail.localisation)")
    add_with_options(r)
    r.set_defaults(fn=cmd_replay)
