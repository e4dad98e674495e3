"""The ``conformance`` command line.

    conformance fuzz --budget 120 --seed 0 --frameworks torch --out reports/latest
    conformance fuzz --mode infer --frameworks torch      # outputs only (default: infer,grad,train)
    conformance replay reports/latest/results.jsonl --case-id 1a2b3c4d5e6f
    conformance summary reports/latest/results.jsonl
    conformance triage reports/latest --out reports/triage [--save cases/]   # buckets, minimal cases, repro.py
    conformance report reports/latest reports/older --out reports/dashboard   # HTML, Markdown, JUnit
    conformance paths          # the path records, with their limitations
    conformance ops            # the op records
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

from conformance.paths.records import MODES
from conformance.run.records import FINDINGS, OUTCOMES


def _split(values):
    """Names from repeatable, comma-separated options (``--paths a,b --paths c``)."""
    from conformance.paths.records import split_names

    return [name for v in values or [] for name in split_names(v)]


def _console():
    from rich.console import Console

    return Console() if sys.stdout.isatty() else Console(width=160)


def summary_rows(records) -> tuple[list[str], list[list]]:
    """Per path: number of cases and of each outcome (the table ``fuzz`` and ``summary`` print)."""
    counts: dict[tuple, Counter] = defaultdict(Counter)
    for r in records:
        counts[(r["framework"], r["path"], r.get("mode", "infer"), r["device"])][r["outcome"]] += 1
    header = ["path", "device", "cases"] + list(OUTCOMES)
    rows = [[f"{fw}.{p}" + (f" ({mode})" if mode != "infer" else ""), dev, sum(c.values())]
            + [c.get(o, 0) for o in OUTCOMES] for (fw, p, mode, dev), c in counts.items()]
    return header, rows


def coverage(records) -> dict:
    """How many distinct programs exercise data-dependent control flow, nested inputs or kwargs."""
    progs = {}
    for r in records:
        progs[r["program_id"]] = set(r.get("constructs", ()))
    interesting = {"if_tensor", "while_tensor", "nested_input", "kwargs"}
    dd = sum(1 for c in progs.values() if c & {"if_tensor", "while_tensor"})
    return {"programs": len(progs), "interesting": sum(1 for c in progs.values() if c & interesting),
            "data_dependent": dd}


def print_summary(console, records) -> None:
    from rich.table import Table

    header, rows = summary_rows(records)
    table = Table(title="conformance results per path")
    for h in header:
        table.add_column(h, justify="left" if h in ("path", "device") else "right")
    for row in rows:
        table.add_row(*[str(x) if x else ("·" if isinstance(x, int) else str(x)) for x in row])
    console.print(table)
    cov = coverage(records)
    if cov["programs"]:
        console.print(f"{cov['programs']} programs; {cov['interesting']} ({cov['interesting'] / cov['programs']:.0%}) "
                      f"with data-dependent control flow, nested inputs or kwargs; "
                      f"{cov['data_dependent']} with data-dependent control flow")


def markdown_summary(records) -> str:
    header, rows = summary_rows(records)
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(x) for x in row) + " |" for row in rows]
    findings = [r for r in records if r["outcome"] in FINDINGS]
    if findings:
        lines += ["", "## Findings", ""]
        lines += [f"- `{r['framework']}.{r['path']}` {r['outcome']} on case `{r['case_id']}` (index {r['index']}): "
                  f"{r['detail'].get('message', '')[:300]}" for r in findings]
    return "\n".join(lines) + "\n"


def read_records(path: Path) -> list[dict]:
    """Records of a results.jsonl, or exit with the error naming the file and line."""
    from conformance.run.records import ReportError
    from conformance.run.records import read_records as read

    try:
        return read(path)
    except ReportError as e:
        raise SystemExit(f"conformance: {e}")


# ------------------------------------------------------------------ commands


def cmd_fuzz(args) -> int:
    from conformance.run.campaign import Campaign, CampaignOptions, ResumeError, WorkerStartError, campaign_manifest
    from conformance.run.database import DatabaseError

    console = _console()
    if args.device == "cuda" and not _cuda_available():
        console.print("--device cuda: no CUDA device here; nothing to run (skipped)", style="yellow")
        return 0
    paths = _available_paths(console, args)
    if not paths:
        return 2
    out = Path(args.out)
    generator = {"max_statements": args.max_statements}
    if set(args.mode) - {"infer"}:  # dropout, batch norm, detach and train()/eval() as generated choices
        from conformance.program.strategies import CONSTRUCTS, TRAIN_CONSTRUCTS

        generator["constructs"] = CONSTRUCTS + TRAIN_CONSTRUCTS
    opts = CampaignOptions(seed=args.seed, budget=args.budget, max_cases=args.max_cases, paths=paths,
                           device=args.device, workers=args.workers, timeout=args.timeout, out=out,
                           generator=generator, modules=_split(args.load), modes=tuple(args.mode),
                           shard=_shard(args.shard), resume=args.resume, database=args.database,
                           memory_gb=_default_memory_gb(args.workers) if args.memory_limit is None else args.memory_limit)
    records: list[dict] = []
    started = time.time()
    console.print(f"campaign seed {args.seed}, budget {args.budget:g} s, {opts.workers} worker(s), device "
                  f"{args.device}, modes {', '.join(args.mode)}: {', '.join(p.id for p in paths)}")
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("[progress.description]{task.description}"), BarColumn(), TimeElapsedColumn(),
                  TextColumn("{task.fields[status]}"), console=console, transient=not console.is_terminal) as bar:
        task = bar.add_task("fuzzing", total=args.budget, status="")

        def on_record(r):
            records.append(r)
            c = Counter(x["outcome"] for x in records)
            bar.update(task, completed=min(time.time() - started, args.budget),
                       status=f"{len({x['case_id'] for x in records})} cases, " +
                              ", ".join(f"{k} {v}" for k, v in sorted(c.items())))

        try:
            summary = Campaign(opts, on_record).run()
        except (WorkerStartError, ResumeError, DatabaseError) as e:
            raise SystemExit(f"conformance: {e}")
        bar.update(task, completed=args.budget)
    manifest = campaign_manifest(opts, summary, started)
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    records = read_records(out / "results.jsonl")  # with --resume, earlier runs' records too
    (out / "summary.md").write_text(markdown_summary(records))
    print_summary(console, records)
    findings = [r for r in records if r["outcome"] in FINDINGS]
    console.print(f"{summary['cases']} cases in {summary['elapsed_s']:.0f} s; {len(findings)} findings; "
                  f"results in {out / 'results.jsonl'}" + (" (interrupted)" if summary["interrupted"] else ""))
    fail_on = set(_split(args.fail_on))
    return 1 if any(r["outcome"] in fail_on for r in records) else 0


def _modes(text: str) -> list[str]:
    """``--mode``'s comma-separated modes, in the order of MODES."""
    wanted = set(_split([text]))
    unknown = wanted - set(MODES)
    if unknown or not wanted:
        raise argparse.ArgumentTypeError(f"unknown mode {', '.join(sorted(unknown)) or '(none)'}; "
                                         f"known: {', '.join(MODES)}")
    return [m for m in MODES if m in wanted]


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


def _available_paths(console, args):
    import importlib

    from rich.markup import escape

    from conformance.paths.records import (
        FRAMEWORK_MODULES,
        UnknownPathError,
        framework_available,
        missing_requirements,
        select_paths,
    )

    for module in _split(getattr(args, "load", None)):
        try:
            importlib.import_module(module)
        except Exception as e:  # noqa: BLE001 - say which module and why, not a traceback
            raise SystemExit(f"conformance: --load {module}: {type(e).__name__}: {e}")
    frameworks = _split(args.frameworks) or [fw for fw in FRAMEWORK_MODULES if framework_available(fw)]
    unknown = [fw for fw in frameworks if fw not in FRAMEWORK_MODULES]
    if unknown:
        raise SystemExit(f"conformance: unknown framework {unknown[0]!r}; known: {', '.join(FRAMEWORK_MODULES)}")
    usable = []
    for fw in frameworks:
        if not framework_available(fw):
            console.print(escape(f"skipping framework {fw!r}: it is not installed "
                                 f"(pip install -c constraints.txt 'conformance[{fw}]')"), style="yellow")
            continue
        usable.append(fw)
    if not usable:
        console.print("[red]no installed framework to run[/]")
        return []
    try:
        paths = select_paths(usable, _split(args.paths) or None)
    except UnknownPathError as e:
        raise SystemExit(f"conformance: {e}")
    kept = []
    modes = getattr(args, "mode", ["infer"])
    for p in paths:
        missing = missing_requirements(p)
        if missing:
            console.print(f"[yellow]skipping {p.id}: needs {', '.join(missing)}[/]")
        elif not set(modes) & p.modes:
            console.print(f"[yellow]skipping {p.id}: it has no {' or '.join(modes)} mode "
                          f"(modes: {', '.join(sorted(p.modes))})[/]")
        elif args.device not in p.devices:
            console.print(f"[yellow]skipping {p.id}: it runs on {', '.join(p.devices)} only[/]")
        else:
            kept.append(p)
    return kept


def _load_cases(file: Path, case_id, index):
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
            for r in read_records(file):
                if (case_id is None or r["case_id"] == case_id) and (index is None or r.get("index") == index):
                    found.setdefault(r["case_id"], r["case"])
            if not found:
                raise SystemExit(f"conformance: no record in {file} matches"
                                 + (f" case id {case_id}" if case_id else "") + (f" index {index}" if index is not None else ""))
            return [Case.from_dict(c) for c in found.values()]
        data = json.loads(text)
        return [Case.from_dict(data.get("case", data))]
    except json.JSONDecodeError as e:
        raise SystemExit(f"conformance: {file} is not valid JSON: {e}")
    except ProgramError as e:
        raise SystemExit(f"conformance: {file}: {e}")


def cmd_replay(args) -> int:
    from conformance.run.runner import run_case, tasks_of

    console = _console()
    from conformance.triage.corpus import is_model_file, replay_model_file

    if is_model_file(Path(args.file)):  # a hand-written model from cases/
        return replay_model_file(Path(args.file), _available_paths(console, args), args.device, console)
    cases = _load_cases(Path(args.file), args.case_id, args.index)
    if len(cases) > 1 and args.case_id is None and args.index is None:
        console.print(f"{len(cases)} cases in {args.file}; replaying all (choose one with --case-id or --index)")
    paths = _available_paths(console, args)
    records = []
    for case in cases:
        for r in run_case(case, tasks_of(paths, args.mode), args.device):
            records.append(r)
            msg = (r["detail"].get("message") or "").strip().splitlines()
            console.print(f"{r['case_id']}  {r['framework']}.{r['path']:<18} {r['outcome']:<20} "
                          f"{msg[0][:160] if msg else ''}", markup=False, highlight=False)
    if args.out:
        Path(args.out).write_text("".join(json.dumps(r, sort_keys=True) + "\n" for r in records))
    return 1 if any(r["outcome"] in FINDINGS for r in records) else 0


def cmd_summary(args) -> int:
    console = _console()
    records = [r for f in args.results for r in read_records(Path(f))]
    print_summary(console, records)
    return 0


def cmd_report(args) -> int:
    import time

    from conformance.report.dashboard import ReportError, load_results, write_report

    started = time.perf_counter()
    try:
        results = load_results(args.results)
        files = write_report(results, Path(args.out), triage=args.triage or (), title=args.title)
    except ReportError as e:
        raise SystemExit(f"conformance: {e}")
    html = files["html"]
    print(f"{len(results.records)} records from {len(results.runs)} run(s)"
          + (f" ({results.duplicates} repeated, counted once)" if results.duplicates else "")
          + f" in {time.perf_counter() - started:.1f} s: {html} ({html.stat().st_size / 1024:.0f} KiB), "
          f"{files['markdown']}, {files['junit']}")
    return 0


def _load_user_file(spec: str):
    """``FILE.py:NAME`` -> (the imported module, NAME); the file's folder goes on sys.path first."""
    import importlib.util

    file, _, name = spec.rpartition(":")
    if not file or not name:
        raise SystemExit(f"conformance: expected FILE.py:NAME, got {spec!r}")
    path = Path(file).resolve()
    if not path.is_file():
        raise SystemExit(f"conformance: no such file: {file}")
    sys.path.insert(0, str(path.parent))
    module_spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[path.stem] = module  # so the model's class has an importable home (script/to_static read it)
    try:
        module_spec.loader.exec_module(module)
    except Exception as e:  # noqa: BLE001 - whatever the user's file raises, say which file and why
        raise SystemExit(f"conformance: cannot import {file}: {type(e).__name__}: {e}") from None
    if not hasattr(module, name):
        public = ", ".join(n for n in vars(module) if not n.startswith("_"))
        raise SystemExit(f"conformance: {file} has no {name!r}; it defines: {public}")
    return module, name


def _user_model(obj):
    """A model from NAME: a model instance, a model class (built with no arguments) or a factory function."""
    import inspect

    if inspect.isclass(obj) or inspect.isfunction(obj):
        try:
            return obj()
        except TypeError as e:
            raise SystemExit(f"conformance: cannot build the model with {obj.__name__}(): {e}; "
                             f"name a factory function or an instance that needs no arguments")
    return obj


def _npz_inputs(file: str, names: list[str]) -> tuple[list, dict]:
    """Positional inputs and kwargs from an .npz: keys are leaf paths (``x``, ``feats.0``, ``d.mask``),
    ``__kwargs__`` holds the kwargs as JSON (what ``conformance.case.save_inputs`` writes)."""
    import numpy as np

    with np.load(file) as data:
        arrays = {k: data[k] for k in data.files}
    kwargs = json.loads(str(arrays.pop("__kwargs__"))) if "__kwargs__" in arrays else {}
    tops = {k.split(".")[0] for k in arrays}
    unknown = sorted(tops - set(names))
    if unknown:
        raise SystemExit(f"conformance: {file} has inputs {unknown} that the model's forward does not take "
                         f"(its positional parameters: {', '.join(names)})")

    def nest(prefix: str):
        if prefix in arrays:
            return arrays[prefix]
        subs = sorted({k[len(prefix) + 1:].split(".")[0] for k in arrays if k.startswith(prefix + ".")})
        if all(s.isdigit() for s in subs):
            return [nest(f"{prefix}.{i}") for i in sorted(subs, key=int)]
        return {s: nest(f"{prefix}.{s}") for s in subs}

    return [nest(n) for n in names if n in tops], kwargs


def cmd_check(args) -> int:
    import inspect

    from rich.markup import escape
    from rich.table import Table

    from conformance.check import CheckError, check

    module, name = _load_user_file(args.model)
    model = _user_model(getattr(module, name))
    if args.inputs:
        forward = getattr(model, "forward", None) or model.__call__
        names = [p.name for p in inspect.signature(forward).parameters.values()
                 if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        inputs, kwargs = _npz_inputs(args.inputs, names)
    elif args.example:
        if not hasattr(module, args.example):
            raise SystemExit(f"conformance: {args.model.rpartition(':')[0]} has no example function {args.example!r}")
        made = getattr(module, args.example)()
        inputs, kwargs = made if isinstance(made, tuple) and len(made) == 2 and isinstance(made[1], dict) else (made, {})
    else:
        raise SystemExit("conformance: give the inputs with --inputs FILE.npz, or name a function of the file "
                         "that returns them with --example")
    if args.kwargs:
        kwargs = {**kwargs, **json.loads(args.kwargs)}
    try:
        report = check(model, list(inputs), kwargs, paths=_split(args.paths) or None, device=args.device)
    except CheckError as e:
        raise SystemExit(f"conformance: {e}")
    console = _console()
    header, rows = report.rows()
    table = Table(title=f"conformance check of {report.model} ({report.framework}, {report.device}); "
                        f"input sets: {', '.join(report.input_sets)}")
    for h in header:
        table.add_column(h, justify="right" if "err" in h or "to pass" in h or h == "time" else "left",
                         overflow="fold")
    for row in rows:
        table.add_row(*map(escape, row))
    console.print(table)
    for note in report.notes:
        console.print(f"note: {note}", markup=False, highlight=False)
    if args.json:
        Path(args.json).write_text(json.dumps(report.to_dict(), indent=1, sort_keys=True, default=str))
    fail_on = _split(args.fail_on) or ["mismatch"]
    return 1 if any(r.outcome in fail_on for r in report.results) else 0


def cmd_paths(args) -> int:
    from rich.markup import escape
    from rich.table import Table

    from conformance.paths.records import FRAMEWORK_MODULES, PATHS, framework_available, load_framework

    console = _console()
    table = Table(title="conversion paths")
    for h in ("path", "what", "modes", "specialises on", "known limitations"):
        table.add_column(h)
    for fw in FRAMEWORK_MODULES:
        if not framework_available(fw):
            console.print(f"[yellow]{fw}: not installed[/]")
            continue
        load_framework(fw)
    for p in PATHS.values():
        lims = "\n".join(escape(f"[{lim.phase}] {lim.reason}") + (f" ({lim.versions})" if lim.versions else "")
                         for lim in p.limitations)
        modes = ", ".join(m for m in ("infer", "grad", "train") if m in p.modes)
        table.add_row(p.id, p.description, modes, ", ".join(sorted(p.specializes)) or "-", lims or "-")
    console.print(table)
    return 0


def cmd_ops(args) -> int:
    from rich.table import Table

    from conformance.program.ops import OPS

    table = Table(title=f"{len(OPS)} op records")
    for h in ("op", "family", "arity", "what", "frameworks", "notes"):
        table.add_column(h)
    for rec in OPS.values():
        differs = "".join(f"; differs in {fw} by design: {why}" for fw, why in rec.differs.items())
        table.add_row(rec.name, rec.family, str(rec.arity), rec.doc, ", ".join(rec.frameworks),
                      ("discontinuous; " if rec.discontinuous else "") + rec.tolerance + differs)
    _console().print(table)
    return 0


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="conformance", description="Conversion parity checking for DL frameworks.")
    sub = ap.add_subparsers(dest="command", required=True)

    def common(p, default_modes=("infer",)):
        p.add_argument("--frameworks", action="append",
                       help="frameworks, comma separated: torch, paddle, tf (default: every one installed)")
        p.add_argument("--paths", action="append", help="paths, e.g. script,trace or torch.compile (default: all)")
        p.add_argument("--device", default="cpu", choices=("cpu", "cuda"))
        p.add_argument("--load", action="append", help="import this module first (it may register more paths)")
        p.add_argument("--mode", type=_modes, default=list(default_modes),
                       help="what to compare with eager, comma separated: outputs (infer), outputs and gradients "
                            "of a loss (grad), losses, parameters and buffers after SGD and Adam steps (train); "
                            f"each path runs in the modes it has (default: {','.join(default_modes)})")

    f = sub.add_parser("fuzz", help="run a campaign of generated cases")
    common(f, MODES)
    f.add_argument("--budget", type=float, default=120.0, help="seconds to keep generating cases (default 120)")
    f.add_argument("--seed", type=int, default=0, help="campaign seed: same seed, same cases")
    f.add_argument("--max-cases", type=int, help="stop after this many cases")
    f.add_argument("--out", default="reports/latest", help="folder for results.jsonl, manifest.json, summary.md")
    f.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="worker processes (default: cores)")
    f.add_argument("--timeout", type=float, default=120.0, help="seconds one path may take on one case")
    f.add_argument("--max-statements", type=int, default=6, help="top-level statements per program")
    f.add_argument("--fail-on", action="append", help="exit 1 if any record has these outcomes, e.g. mismatch")
    f.add_argument("--resume", action="store_true",
                   help="continue the campaign in --out (same seed and options): skip what is recorded")
    f.add_argument("--database", metavar="URL",
                   help="shared findings database (redis://HOST:PORT or a directory): its findings are replayed "
                        "first, and this campaign's are saved there for the other machines")
    f.add_argument("--shard", default="0/1", help="i/n: run every n-th case starting at i (n machines, one seed)")
    f.add_argument("--memory-limit", type=float, metavar="GB",
                   help="address-space limit per worker; a path that allocates past it is a crash record "
                        "(default: an equal share of memory, one share kept free; 0: no limit)")
    f.set_defaults(fn=cmd_fuzz)

    r = sub.add_parser("replay", help="rerun saved cases (a case .json or a results .jsonl)")
    common(r)
    r.add_argument("file")
    r.add_argument("--case-id")
    r.add_argument("--index", type=int)
    r.add_argument("--out", help="write the new records to this .jsonl")
    r.set_defaults(fn=cmd_replay)

    s = sub.add_parser("summary", help="print the per-path table of results files")
    s.add_argument("results", nargs="+")
    s.set_defaults(fn=cmd_summary)

    rp = sub.add_parser("report", help="merge results and write a dashboard (index.html), summary.md and junit.xml")
    rp.add_argument("results", nargs="+", help="results .jsonl files or campaign folders (runs, shards, pytest runs)")
    rp.add_argument("--out", default="reports/dashboard", help="folder to write into (default reports/dashboard)")
    rp.add_argument("--triage", action="append", help="a triage folder whose buckets the failures link to")
    rp.add_argument("--title", default="Conformance dashboard", help="the dashboard's title")
    rp.set_defaults(fn=cmd_report)

    c = sub.add_parser("check", help="check your own model: which paths agree with eager mode on your inputs")
    c.add_argument("model", metavar="FILE.py:NAME", help="a model class, a factory function or an instance")
    c.add_argument("--inputs", help=".npz of inputs: keys are argument names, nested as x.0 or d.key; "
                                    "__kwargs__ holds kwargs as JSON")
    c.add_argument("--example", help="a function of FILE.py returning the inputs: args, or (args, kwargs)")
    c.add_argument("--kwargs", help="keyword arguments as a JSON object (added to those of the inputs)")
    c.add_argument("--paths", action="append", help="paths, e.g. script,trace (default: all of the framework's)")
    c.add_argument("--device", default="cpu", choices=("cpu", "cuda"))
    c.add_argument("--json", help="write the report (every path's record) to this file")
    c.add_argument("--fail-on", action="append", help="exit 1 if a path has these outcomes (default: mismatch)")
    c.set_defaults(fn=cmd_check)
    sub.add_parser("paths", help="list conversion paths and their known limitations").set_defaults(fn=cmd_paths)
    sub.add_parser("ops", help="list op records").set_defaults(fn=cmd_ops)
    from conformance.triage.buckets import add_parser as add_triage_parser

    add_triage_parser(sub)
    return ap


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    return args.fn(args)


if __name__ == "__main__":
    sys.exit(main())
