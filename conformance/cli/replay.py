"""``conformance replay``: rerun saved cases (a case file, a corpus file, or the records of a results file)."""

from __future__ import annotations

import json
from pathlib import Path

from conformance.cli.common import add_path_options, available_paths, console, read_or_exit, use_onnx_opset
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
    if is_model_file(Path(args.file)):  # a hand-written model from cases/
        if args.localize:
            out.print("--localize: a hand-written model has no program to cut; conformance check localises a model "
                      "of your own by its submodules")
        paths = available_paths(out, args)
        if use_onnx_opset(out, paths, args)[1]:
            return 2
        return replay_model_file(Path(args.file), paths, args.device, out)
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


def _localize(record, device: str, out) -> None:
    """``--localize``: where the finding first goes wrong, printed and kept in the record (``--out``)."""
    from conformance.triage.first_divergence import attach, localize_record

    loc = localize_record(record, device=device)
    attach(record, loc)
    out.print(f"    first divergence: {loc.summary()} ({loc.conversions} conversions, {loc.seconds:.1f} s)",
              markup=False, highlight=False)


def add_parsers(sub) -> None:
    r = sub.add_parser("replay", help="rerun saved cases (a case .json or a results .jsonl)")
    add_path_options(r)
    r.add_argument("file")
    r.add_argument("--case-id")
    r.add_argument("--index", type=int)
    r.add_argument("--out", help="write the new records to this .jsonl")
    r.add_argument("--localize", action="store_true",
                   help="localise each finding: the first statement whose values diverge from eager's (at most 20 "
                        "conversions each), printed and kept in --out's records (detail.localisation)")
    r.set_defaults(fn=cmd_replay)
