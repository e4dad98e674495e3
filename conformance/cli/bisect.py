"""``conformance bisect``: since which release a finding is there, and in which it is gone.

    conformance bisect cases/onnxruntime-reduce-over-empty-axis-keeps-zero.json --package onnxruntime
    conformance bisect cases/standalone/tf_onnx_sort_nan.py --package onnxruntime --range 1.17..
    conformance bisect reports/latest/results.jsonl --case-id 1a2b3c4d5e6f --path torch.onnx_torchscript \\
        --package onnxruntime --onnx-opset 17
    conformance bisect reports/triage/<bucket>/ --package paddle2onnx --write
"""

from __future__ import annotations

import sys
from pathlib import Path

from conformance.cli.common import console, onnx_opset
from conformance.cli.releases import add_index_options, index_of


def cmd_bisect(args) -> int:
    from importlib.metadata import PackageNotFoundError, version

    from rich.markup import escape
    from rich.table import Table

    from conformance.run.releases import IndexUnreachable, ReleaseError, canonical
    from conformance.triage.bisect import BisectError, bisect, in_range, reproducer, store, write_gate

    out = console()
    index = index_of(args)
    package = canonical(args.package)
    try:
        rep = reproducer(Path(args.target), args.path, args.case_id, args.index, args.onnx_opset)
        installed = version(package)
    except BisectError as e:
        raise SystemExit(f"conformance bisect: {e}")
    except PackageNotFoundError:
        raise SystemExit(f"conformance bisect: {package} is not installed here: the finding was found with which "
                         "release? (install it, then bisect)")
    try:
        index.check_reachable(package)
        releases = in_range(index.versions(package, pre=args.pre), args.range)
    except IndexUnreachable as e:
        print(f"conformance bisect: {e}", file=sys.stderr)
        return 2
    except (BisectError, ReleaseError) as e:
        raise SystemExit(f"conformance bisect: {e}")
    if len(releases) < 2:
        raise SystemExit(f"conformance bisect: {len(releases)} release(s) of {package} install here"
                         + (f" within {args.range}" if args.range else "") + ": nothing to bisect")
    out.print(escape(f"bisecting {rep.label} over {len(releases)} releases of {package} ({releases[0]} .. "
                     f"{releases[-1]}; installed {installed})"))
    try:
        result = bisect(rep, package, releases, installed, index, args.timeout,
                        say=lambda s: out.print(escape(s), highlight=False))
    except BisectError as e:
        raise SystemExit(f"conformance bisect: {e}")
    except IndexUnreachable as e:
        print(f"conformance bisect: {e}", file=sys.stderr)
        return 2
    table = Table(title=f"{rep.label}: {package}")
    for column in ("release", "bug", "s", "what it printed"):
        table.add_column(column)
    for v, t in result.tested.items():
        table.add_row(v, t["status"], f"{t['seconds']:.0f}", escape(t["note"][:110]))
    out.print(table)
    out.print(escape(result.summary()), style="bold")
    out.print(escape(f"gate: versions={result.gate()!r}" if result.gate() else
                     "no boundary within the releases that run here: no gate to write"))
    kept = store(result, Path(args.store), args.key)
    out.print(f"kept in {kept}")
    if args.write and result.gate():
        if rep.case_file is None or rep.case_file.suffix != ".json":
            out.print("--write: only a case file of cases/ takes a gate; for a record, set its versions to "
                      f"{result.seen()!r} with package={package!r}", style="yellow")
        else:
            write_gate(rep.case_file, rep.path_id, result)
            out.print(escape(f"wrote the gate into {rep.case_file} ({rep.path_id})"))
    return 0


def add_parsers(sub) -> None:
    from conformance.triage.bisect import STORE

    b = sub.add_parser("bisect", help="find the release where a finding appears and the one where it is gone")
    b.add_argument("target", help="a case file, a reproducer script (cases/standalone/*.py, a triage bucket's "
                                  "repro.py or its folder), or a results.jsonl (with --case-id / --index)")
    b.add_argument("--package", required=True, help="the distribution whose releases to bisect, e.g. onnxruntime")
    b.add_argument("--range", metavar="A..B", help="only these releases (1.15..1.31, 1.17.., ..1.20; default: every "
                   "release on the index with a wheel for this interpreter)")
    b.add_argument("--pre", action="store_true", help="take pre-releases (release candidates) in too")
    b.add_argument("--path", help="the path of the finding (where the case has findings on several)")
    b.add_argument("--case-id", help="the finding's case in a results.jsonl")
    b.add_argument("--index", type=int, help="the finding's case index in a results.jsonl")
    b.add_argument("--onnx-opset", type=onnx_opset, metavar="N",
                   help="the ONNX opset to export at (one the older runtimes load, e.g. 17)")
    b.add_argument("--timeout", type=float, default=600.0, help="seconds one reproducer run may take")
    b.add_argument("--store", default=str(STORE), help=f"the JSON file bisections are kept in (default {STORE}; "
                                                       "the dashboard reads it)")
    b.add_argument("--key", help="the name to keep it under (default: the case and path, or the script's name), "
                                 "e.g. a known-bug record's name")
    b.add_argument("--write", action="store_true", help="write the range into the case file's versions gate")
    add_index_options(b)
    b.set_defaults(fn=cmd_bisect)
