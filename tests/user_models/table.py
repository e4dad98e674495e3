"""Run ``conformance check`` on every hand-written model of a framework and print the table of outcomes
(models × paths, and the count of each outcome per path); ``--json OUT`` keeps every result's outcome, message
and what named it.

    python -m tests.user_models.table torch --paths eager,script,trace,export
"""

from __future__ import annotations

import argparse
import collections
import importlib
import json


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("framework", choices=("torch", "paddle", "tf"))
    parser.add_argument("--paths", help="comma-separated path names (default: every default path)")
    parser.add_argument("--models", help="comma-separated model names (default: all)")
    parser.add_argument("--json", help="write every result here")
    parser.add_argument("--timeout", type=float, default=300.0)
    options = parser.parse_args()
    import conformance

    models = importlib.import_module(f"tests.user_models.{options.framework}_models").MODELS
    wanted = options.models.split(",") if options.models else list(models)
    paths = options.paths.split(",") if options.paths else None
    results: dict = {}
    for name in wanted:
        factory, example = models[name]
        args, kwargs = example()
        try:
            report = conformance.check(factory(), args, kwargs, paths=paths, timeout=options.timeout)
        except Exception as e:  # noqa: BLE001 - check() raising is what the table must show
            results[name] = {"check()": {"outcome": "check_exception", "message": f"{type(e).__name__}: {e}"}}
        else:
            results[name] = {r.path.split(".", 1)[1]: {"outcome": r.outcome, "message": r.message[:400],
                                                      "named": r.named[:200],
                                                      "localisation": r.localisation}
                             for r in report.results}
        print(name, {p: r["outcome"] for p, r in results[name].items()}, flush=True)
        if options.json:  # kept after every model: a long run can be read (or cut short) as it goes
            with open(options.json, "w") as f:
                json.dump(results, f, indent=1)
    columns = list(dict.fromkeys(p for r in results.values() for p in r))
    print("\n| model | " + " | ".join(columns) + " |\n|---|" + "---|" * len(columns))
    for name, row in results.items():
        print(f"| {name} | " + " | ".join(row.get(p, {}).get("outcome", "-") for p in columns) + " |")
    totals = collections.Counter(r["outcome"] for row in results.values() for r in row.values())
    print("\noutcomes:", dict(totals.most_common()))


if __name__ == "__main__":
    main()
