"""``conformance fuzz`` (a campaign of generated cases) and ``conformance summary`` (its per-path table)."""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from pathlib import Path

from conformance.cli.common import add_path_options, available_paths, console, names_of, read_or_exit, use_onnx_opset
from conformance.cli.releases import add_with_options
from conformance.paths.records import MODES
from conformance.report.summaries import plan_lines, plan_markdown
from conformance.report.verdicts import markdown_summary, print_summary
from conformance.run.records import FINDINGS, ResultRecord, results_file

__all__ = ["add_parsers", "cmd_fuzz", "cmd_summary", "findings_of", "markdown_summary", "print_summary"]


def findings_of(records: list[ResultRecord]) -> list[ResultRecord]:
    """The records that are findings (``FINDINGS`` outcomes; a configuration error never is one)."""
    return [r for r in records if r.outcome in FINDINGS and not r.detail.configuration]


def cmd_fuzz(args) -> int:
    """Run a campaign. Whatever the frameworks print in this process (their import logs, from C++ too) goes to
    ``OUT/logs/parent.log`` (the workers' to their own logs), never over the progress bar and the summary."""
    from conformance.run.errors import output_to

    folder = Path(args.out)
    (folder / "logs").mkdir(parents=True, exist_ok=True)
    with os.fdopen(os.dup(1), "w", buffering=1) as terminal, open(folder / "logs" / "parent.log", "a") as log:
        with output_to(log):
            return _fuzz(args, console(terminal), folder)


def _fuzz(args, out, folder: Path) -> int:
    from conformance.run.campaign import Campaign, CampaignOptions, ResumeError, WorkerStartError, campaign_manifest
    from conformance.run.database import DatabaseError
    from conformance.run.schedule import shares

    if args.device == "cuda" and not args.cluster and not _cuda_available():
        out.print("--device cuda: no CUDA device here; nothing to run (skipped)", style="yellow")
        return 0
    if args.workers is None and not args.cluster:  # on a cluster: one worker per CPU (GPU with cuda) it has
        args.workers = os.cpu_count() or 1
    paths = available_paths(out, args)
    if not paths:
        return 2
    opset, refused = use_onnx_opset(out, paths, args)
    if refused:  # said once, instead of one conversion error per case
        return 2
    from conformance.program.strategies import DEFAULT_CONSTRUCTS, TRAIN_CONSTRUCTS

    # the whole language: control flow, dtypes, edge values and shapes (each in a share of the cases), mutation,
    # module state and Python dynamism (conformance.program.strategies.DEFAULT_CONSTRUCTS)
    generator = {"max_statements": args.max_statements, "frameworks": tuple(sorted({p.framework for p in paths})),
                 "constructs": DEFAULT_CONSTRUCTS}
    if set(args.mode) - {"infer"}:  # dropout, batch norm, detach and train()/eval() as generated choices
        generator["constructs"] += TRAIN_CONSTRUCTS
    if args.constructs:  # NAME adds a construct, -NAME leaves one out
        names = [c for c in args.constructs.split(",") if c]
        left_out = {c[1:] for c in names if c.startswith("-")}
        known = DEFAULT_CONSTRUCTS + TRAIN_CONSTRUCTS
        if left_out - set(known):
            out.print(f"--constructs: unknown constructs {sorted(left_out - set(known))}; known: {', '.join(known)}",
                      style="red")
            return 2
        added = tuple(c for c in names if not c.startswith("-"))
        generator["constructs"] = tuple(c for c in dict.fromkeys(tuple(generator["constructs"]) + added)
                                        if c not in left_out)
    if args.corpus:  # a share of the cases are neighbours of the corpus's IR cases (conformance.run.neighbours)
        generator.update(corpus=args.corpus, corpus_share=args.corpus_share)
    if args.memory_limit is not None:
        memory_gb = args.memory_limit
    elif args.cluster:  # nodes differ: Ray's memory monitor kills the worker that takes a node's memory
        memory_gb = None
    elif args.device == "cuda":  # CUDA reserves far more address space than it uses: RLIMIT_AS breaks its start
        memory_gb = 0
        out.print("--device cuda: no address-space limit per worker (CUDA reserves more than any share of memory)")
    else:
        memory_gb = _default_memory_gb(args.workers)
    opts = CampaignOptions(seed=args.seed, budget=args.budget, max_cases=args.max_cases, paths=paths,
                           device=args.device, workers=args.workers, timeout=args.timeout, out=folder,
                           generator=generator, modules=names_of(args.load), modes=tuple(args.mode),
                           shard=_shard(args.shard), resume=args.resume, database=args.database, memory_gb=memory_gb,
                           onnx_opset=opset, sample=args.sample or ("all" if args.paths else "cost"),
                           known_bug_limit=args.known_bug_limit)
    seen: list[ResultRecord] = []
    started = time.time()
    out.print(f"campaign seed {args.seed}, budget {args.budget:g} s, {opts.workers or 'one per cluster CPU'} "
              f"worker(s), device {args.device}, modes {', '.join(args.mode)}"
              + (f", ONNX opset {opset}" if opset is not None else "") + f": {', '.join(p.id for p in paths)}")
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("[progress.description]{task.description}"), BarColumn(), TimeElapsedColumn(),
                  TextColumn("{task.fields[status]}"), console=out, transient=not out.is_terminal) as bar:
        task = bar.add_task("fuzzing", total=args.budget, status="")

        def on_record(record: ResultRecord) -> None:
            seen.append(record)
            counts = Counter(r.outcome for r in seen)
            bar.update(task, completed=min(time.time() - started, args.budget),
                       status=f"{len({r.case_id for r in seen})} cases, " +
                              ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))

        refusals: tuple = (WorkerStartError, ResumeError, DatabaseError)
        if args.cluster:
            from conformance.run.cluster import ClusterCampaign, ClusterError

            campaign, refusals = ClusterCampaign(opts, args.cluster, on_record), refusals + (ClusterError,)
        else:
            campaign = Campaign(opts, on_record)
        try:
            summary = campaign.run()
        except refusals as e:
            raise SystemExit(f"conformance: {e}")
        bar.update(task, completed=args.budget)
    results = folder / "results.jsonl"
    records = read_or_exit(results)  # with --resume, earlier runs' records too
    summary["tasks"] = shares(records, campaign.plan)
    summary["plan"] = campaign.planner.summary()
    if args.cluster:  # where each task ran: the worker time per node
        from conformance.run.cluster import node_shares

        summary.update(cluster=args.cluster, nodes=node_shares(records), nodes_lost=sorted(campaign.nodes_lost))
    manifest = campaign_manifest(opts, summary, started)
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    (folder / "summary.md").write_text(markdown_summary(records, results, summary["tasks"], summary.get("nodes"))
                                       + plan_markdown(summary["plan"]))
    print_summary(out, records, results)
    for line in plan_lines(summary["plan"], folder / "summary.md"):
        out.print(line, style="dim")
    out.print(f"{summary['cases']} cases in {summary['elapsed_s']:.0f} s; "
              f"results in {results}" + (" (interrupted)" if summary["interrupted"] else ""))
    fail_on = set(names_of(args.fail_on))
    return 1 if any(r.outcome in fail_on for r in records) else 0


def _shard(text: str) -> tuple[int, int]:
    try:
        i, n = (int(x) for x in text.split("/"))
    except ValueError:
        raise SystemExit(f"conformance: --shard takes i/n (like 0/4), got {text!r}")
    if not 0 <= i < n:
        raise SystemExit(f"conformance: --shard i/n needs 0 <= i < n, got {text!r}")
    return i, n


def _default_memory_gb(workers: int) -> float:
    """An equal share of this machine's memory per worker, with one share kept for everything else."""
    total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return round(max(total / (max(1, workers) + 1), 4.0), 1)


def _cuda_available() -> bool:
    try:
        import torch
    except ImportError:
        return False
    return torch.cuda.is_available()


def cmd_summary(args) -> int:
    records = [r for f in args.results for r in read_or_exit(f)]
    if len(args.results) == 1:  # its replay commands, and the ops known bugs stopped (its plan.jsonl)
        print_summary(console(), records, results_file(args.results[0]))
    else:
        print_summary(console(), records)
    return 0


def add_parsers(sub) -> None:
    f = sub.add_parser("fuzz", help="run a campaign of generated cases")
    add_path_options(f, MODES)
    f.add_argument("--budget", type=float, default=120.0, help="seconds to keep generating cases (default 120)")
    f.add_argument("--seed", type=int, default=0, help="campaign seed: same seed, same cases")
    f.add_argument("--max-cases", type=int, help="stop after this many cases")
    f.add_argument("--out", default="reports/latest", help="folder for results.jsonl, manifest.json, summary.md")
    f.add_argument("--workers", type=int, help="worker processes (default: cores; with --cluster: one Ray actor per "
                                               "CPU of the cluster, per GPU with --device cuda)")
    f.add_argument("--timeout", type=float, default=120.0, help="seconds one path may take on one case")
    f.add_argument("--max-statements", type=int, default=6, help="top-level statements per program")
    f.add_argument("--constructs", metavar="NAMES",
                   help="constructs to add (NAME) or leave out (-NAME), comma separated; every family is drawn by "
                        "default: e.g. --constructs=-mutation,-module_state,-dynamism leaves out views written "
                        "through and in-place writes, buffers and flags across calls, and Python-level dynamism")
    f.add_argument("--corpus", metavar="DIR", help="start a share of the cases from the IR cases of this corpus "
                   "(e.g. cases/), mutated by the generator's strategies: a prefix, new weights, new input sets")
    f.add_argument("--corpus-share", type=float, default=0.25, help="the share of cases --corpus starts (default 0.25)")
    f.add_argument("--fail-on", action="append", help="exit 1 if any record has these outcomes, e.g. mismatch")
    f.add_argument("--resume", action="store_true",
                   help="continue the campaign in --out (same seed and options): skip what is recorded")
    f.add_argument("--database", metavar="URL",
                   help="shared findings database (redis://HOST:PORT or a directory): its findings are replayed "
                        "first, and this campaign's are saved there for the other machines")
    f.add_argument("--sample", choices=("all", "cost"),
                   help="which cases each path judges: all (every case; the default with --paths) or cost (the "
                        "paths Paddle to_static, jit_save, inference, TF function, xla, onnx and torch script, trace, "
                        "export, onnx_torchscript every case, the others a share of the worker time by the cost "
                        "measured in the run; the default without --paths)")
    f.add_argument("--known-bug-limit", type=int, default=3, metavar="K",
                   help="after a known bug has fired K times on a path, that path skips the programs that meet its "
                        "selector (its ops, constructs), so the budget goes elsewhere; other paths still judge them "
                        "(default 3; 0: never)")
    f.add_argument("--shard", default="0/1", help="i/n: run every n-th case starting at i (n machines, one seed)")
    f.add_argument("--cluster", metavar="ADDRESS",
                   help="run the workers as Ray actors on a cluster: ray://HOST:PORT (Ray Client), HOST:PORT (its "
                        "head, from a node) or auto (RAY_ADDRESS); this process draws the cases and writes the "
                        "results (pip install 'conformance[ray]')")
    f.add_argument("--memory-limit", type=float, metavar="GB",
                   help="address-space limit per worker; a path that allocates past it is a crash record (default: "
                        "an equal share of memory, one share kept free; none with --device cuda; 0: no limit)")
    add_with_options(f)
    f.set_defaults(fn=cmd_fuzz)

    s = sub.add_parser("summary", help="print the per-path table of results files")
    s.add_argument("results", nargs="+")
    s.set_defaults(fn=cmd_summary)
