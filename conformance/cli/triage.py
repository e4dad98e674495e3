"""``conformance triage``: bucket a campaign's findings, minimise them, write reproducers (see
:mod:`conformance.triage.buckets`)."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from conformance.cli.common import load_modules, names_of, read_or_exit
from conformance.run.records import FINDINGS
from conformance.triage.buckets import TriageBucket, find_in_corpus, read_buckets, save_case, triage
from conformance.triage.bug_report import write_bucket
from conformance.triage.first_divergence import summary_line

COMMAND = "conformance triage"


def table_rows(buckets: list[TriageBucket]) -> tuple[list[str], list[list[str]]]:
    """The table ``conformance triage`` prints (and writes to summary.md)."""
    header = ["#", "bucket", "path", "outcome", "blamed on", "signature", "minimal program", "findings", "first seen",
              "statements", "first divergence", "repro.py", "corpus"]
    rows = []
    for n, b in enumerate(buckets, 1):
        sig = b.signature
        reduction = b.reduction
        size = (f"{reduction['size_before']}→{reduction['size']}" if reduction
                else f"{b.case.program.size()} (not minimised)")
        verified = b.repro.get("verified")
        said = {True: "fails", False: "passes!", None: "not run"}
        repro = "-" if not b.repro.get("file") else said[verified]
        runtime = b.repro.get("runtime") or {}
        if runtime.get("file"):  # onnxruntime's bug: the reproducer with the .onnx file and the runtime alone
            repro += f"; {runtime['file']}: {said[runtime.get('verified')]}"
        first = b.first_seen
        rows.append([str(n), b.id, sig.path_id, sig.outcome, sig.blame or "-", sig.key,
                     ", ".join(sig.ops + sig.constructs) or "-",
                     f"{len(b.findings)} in {len(b.case_ids)} case(s)",
                     "-" if first["seed"] is None else f"seed {first['seed']} #{first['index']}",
                     size, summary_line({"localisation": b.localisation})[:120], repro,
                     Path(b.corpus).name if b.corpus else "new"])
    return header, rows


def _results_files(paths: list[str]) -> list[Path]:
    files = []
    for p in map(Path, paths):
        file = p / "results.jsonl" if p.is_dir() else p
        if not file.is_file():
            raise SystemExit(f"{COMMAND}: {p}: no results file (a results.jsonl or a campaign folder)")
        files.append(file)
    return files


def _known_paths(frameworks: set) -> set[str]:
    from conformance.paths.records import PATHS, UnknownPathError, load_framework

    for fw in frameworks:
        try:
            load_framework(fw)
        except (ImportError, UnknownPathError):
            pass
    return set(PATHS)


def _minimised_buckets(args, out: Path, modules: list[str], say) -> list[TriageBucket]:
    """Triage the findings of the results files named on the command line, minimising and then localising each
    bucket's minimal case in one worker process."""
    from conformance.triage.first_divergence import localize_buckets
    from conformance.triage.localize_workers import LocalizeEvaluator

    records = [r for f in _results_files(args.results) for r in read_or_exit(f, COMMAND)]
    outcomes = names_of(args.outcomes) or list(FINDINGS)
    _campaign_opset(records, outcomes, say)
    wanted = {r.path_id for r in records if r.outcome in outcomes}
    unknown = wanted - _known_paths({r.framework for r in records if r.outcome in outcomes})
    if unknown:
        raise SystemExit(f"{COMMAND}: path(s) {', '.join(sorted(unknown))} are not registered here: "
                         f"pass --load with the module the campaign loaded")
    count = sum(1 for r in records if r.outcome in outcomes)
    say(f"{count} finding(s) ({', '.join(outcomes)}) among {len(records)} records; minimising for at most "
        f"{args.max_seconds:g} s")
    (out / "logs").mkdir(parents=True, exist_ok=True)
    with LocalizeEvaluator(tuple(modules), args.device, args.timeout, str(out / "logs" / "reducer.log")) as worker:
        buckets = triage(records, worker if args.max_seconds > 0 else None, outcomes=outcomes,
                         max_seconds=args.max_seconds, reduce_seconds=args.reduce_seconds, progress=say)
        say(f"localising the first divergence of {len(buckets)} bucket(s) for at most {args.localize_seconds:g} s")
        localize_buckets(buckets, worker, max_seconds=args.localize_seconds, progress=say)
    return buckets


def _campaign_opset(records: list, outcomes: list, say) -> None:
    """Minimise and reproduce ONNX findings at the opset their campaign asked for (``detail.onnx``): set for this
    process and the reducer's worker (:data:`~conformance.paths.onnx_opset.OPSET_ENV`)."""
    from conformance.paths.onnx_opset import OPSET_ENV

    asked = {(r.detail.onnx or {}).get("requested_opset") for r in records if r.outcome in outcomes and r.detail.onnx}
    if len(asked) > 1:
        say(f"warning: the ONNX findings were exported at several opsets ({sorted(asked, key=str)}): each is "
            f"replayed at ${OPSET_ENV} or the exporter's default")
    elif asked and None not in asked:
        opset = asked.pop()
        os.environ[OPSET_ENV] = str(opset)
        say(f"ONNX findings replayed at opset {opset}, as their campaign asked (--onnx-opset)")
    elif asked:
        os.environ.pop(OPSET_ENV, None)


def command(args) -> int:
    """``conformance triage RESULTS... --out DIR [--save CASES]`` (see ``conformance triage --help``)."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from conformance.triage.corpus import CaseFileError, corpus

    console = Console() if sys.stdout.isatty() else Console(width=200)
    say = lambda line: console.print(escape(line), highlight=False)  # noqa: E731
    modules = names_of(args.load)
    load_modules(modules, COMMAND)
    out = Path(args.out)
    given = [Path(p) for p in args.results]
    if len(given) == 1 and given[0].is_dir() and any(given[0].glob("*/bucket.json")):
        try:
            buckets = read_buckets(given[0])  # an earlier triage: nothing to rerun (e.g. to --save)
        except ValueError as e:
            raise SystemExit(f"{COMMAND}: {e}")
        say(f"{len(buckets)} bucket(s) from the triage in {given[0]}")
        out = given[0]
        rewrite = False
    else:
        buckets = _minimised_buckets(args, out, modules, say)
        for old in [d for d in out.glob("*/") if (d / "bucket.json").exists()]:
            shutil.rmtree(old)
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
    for heading in header:
        table.add_column(heading, overflow="fold")
    for row in rows:
        table.add_row(*map(escape, row))
    console.print(table)
    if rewrite:
        markdown = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        markdown += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
        (out / "summary.md").write_text("\n".join(markdown) + "\n")
    if args.save:
        _save(buckets, args, say)
    return 0


def _save(buckets: list[TriageBucket], args, say) -> None:
    """``--save CASES``: add the buckets (those of ``--bucket``) that the corpus does not have yet."""
    wanted = set(names_of(args.bucket))
    unknown = wanted - {b.id for b in buckets}
    if unknown:
        raise SystemExit(f"{COMMAND}: no bucket {', '.join(sorted(unknown))}; "
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


def add_parsers(sub) -> None:
    t = sub.add_parser("triage", help="bucket a campaign's findings, minimise them, write reproducers",
                       description="Group the findings of results files into buckets by signature, minimise one "
                                   "case per bucket, localise where it first goes wrong, and write a folder per "
                                   "bucket with bucket.json, case.json, repro.py (+ .npz inputs) and REPORT.md. "
                                   "Given a folder of an earlier triage, "
                                   "reuses its buckets (e.g. to --save them).")
    t.add_argument("results", nargs="+", help="results.jsonl files or campaign folders (or one earlier triage folder)")
    t.add_argument("--out", default="reports/triage", help="folder for the bucket folders (default reports/triage)")
    t.add_argument("--max-seconds", type=float, default=600.0,
                   help="time for minimising, all buckets together (default 600; 0: do not minimise)")
    t.add_argument("--reduce-seconds", type=float, default=120.0, help="time for minimising one case (default 120)")
    t.add_argument("--localize-seconds", type=float, default=900.0,
                   help="time for localising the buckets' first divergence, all together (default 900; 0: do not "
                        "localise, each bucket says so)")
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
