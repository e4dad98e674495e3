"""The ``conformance`` command line: one module per command group.

    conformance fuzz --budget 120 --seed 0 --frameworks torch --out reports/latest
    conformance fuzz --mode infer --frameworks torch      # outputs only (default: infer,grad,train)
    conformance fuzz --onnx-opset 17 --paths onnx_torchscript,onnx_dynamo   # an opset an older onnxruntime loads
    conformance replay reports/latest/results.jsonl --case-id 1a2b3c4d5e6f
    conformance summary reports/latest/results.jsonl
    conformance triage reports/latest --out reports/triage [--save cases/]   # buckets, minimal cases, repro.py
    conformance transplant cases/ --write     # the IR cases on every framework's paths, recorded in 'expected'
    conformance report reports/latest reports/older --out reports/dashboard   # HTML, Markdown, JUnit
    conformance check my_models.py:Net --example example_inputs              # your own model
    conformance fuzz --with onnxruntime==1.18.1 --onnx-opset 17   # fuzz, replay, check with other releases
    conformance bisect cases/onnxruntime-reduce-over-empty-axis-keeps-zero.json --package onnxruntime
    conformance paths          # the path records, with their limitations
    conformance ops            # the op records
"""

from __future__ import annotations

import argparse
import sys

from conformance.cli import bisect, campaigns, replay, report, tables, transplant, triage, user_model


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="conformance", description="Conversion parity checking for DL frameworks.")
    sub = parser.add_subparsers(dest="command", required=True)
    for group in (campaigns, replay, report, user_model, tables, triage, transplant, bisect):
        group.add_parsers(sub)
    return parser


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    if getattr(args, "with_", None):  # the whole command again, in an environment with those releases
        if getattr(args, "cluster", None):  # a cluster's actors run its nodes' Python, not this machine's environment
            print("conformance: --with and --cluster cannot be combined: install the releases on the cluster's "
                  "nodes instead (the actors run the nodes' own Python)", file=sys.stderr)
            return 2
        from conformance.cli.releases import run_with

        return run_with(args, list(sys.argv[1:] if argv is None else argv))
    return args.fn(args)


if __name__ == "__main__":
    sys.exit(main())
