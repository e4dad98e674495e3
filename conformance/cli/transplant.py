"""``conformance transplant``: run the corpus's IR cases along the paths of every framework and record what each
path does in the case files (see :mod:`conformance.triage.transplant`)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from conformance.cli.common import add_path_options, available_paths, console


def cmd_transplant(args) -> int:
    from conformance.triage.corpus import CaseFileError
    from conformance.triage.transplant import transplant_corpus

    out = console()
    if args.mode != ["infer"]:
        raise SystemExit("conformance transplant: a case file records outputs (--mode infer) only")
    paths = available_paths(out, args, keep_duplicates=True)  # a case records every path that runs here
    if not paths:
        return 2

    def show(r):
        named = f"  [{r.named[:80]}]" if r.named else ""
        out.print(f"{r.file.stem}  {r.path_id:<30} {r.outcome:<20} {r.action:<10} {r.message[:120]}{named}",
                  markup=False, highlight=False)

    try:
        results = transplant_corpus([Path(t) for t in args.targets], paths, args.device, args.write, show)
    except CaseFileError as e:
        raise SystemExit(f"conformance: {e}")
    if args.out:  # the records, for conformance triage (a new finding is minimised and saved from there)
        from conformance.run.records import results_line

        Path(args.out).write_text("".join(results_line(r.record) for r in results if r.record is not None))
    counts = Counter(r.action for r in results)
    out.print(", ".join(f"{n} {a}" for a, n in sorted(counts.items())) + ("" if args.write else
                                                                           " (dry run: --write records them)"))
    new = [r for r in results if r.new_finding]
    for r in new:
        out.print(f"new finding: {r.file.name} on {r.path_id}: {r.outcome}: {r.message[:160]} — triage it into "
                  f"cases/ (conformance triage of --out's records) or name it by a limitation record", markup=False,
                  highlight=False)
    return 1 if new or counts["differs"] else 0


def add_parsers(sub) -> None:
    t = sub.add_parser("transplant", help="replay the IR cases of cases/ along every framework's paths and record "
                                          "the outcomes in their 'expected' (--write)")
    add_path_options(t)
    t.add_argument("targets", nargs="+", help="case files, or folders of them (hand-written models are left out)")
    t.add_argument("--write", action="store_true",
                   help="record each path's outcome where the file has no expectation for the installed version")
    t.add_argument("--out", help="write the records to this .jsonl (conformance triage reads it)")
    t.set_defaults(fn=cmd_transplant)
