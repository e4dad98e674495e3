"""Draw the reference sample that measures which attribute pairs the generator reaches, per framework and op, and
check on the way that no draw raises.

    python benchmarks/coverage_reach.py --programs 20000 [--frameworks torch,paddle,tf] [--seeds 4] [--jobs 3]
        [--first-seed 0] [--write [--add]]

Draws the campaign streams (``generate_cases``, steered like a campaign) of ``--seeds`` seeds for each framework
alone with every construct family on (``DEFAULT_CONSTRUCTS`` and ``train_layers``), ``--programs`` cases per
framework in all, and prints per framework: cases drawn, CPU seconds, the exceptions raised (with the first
traceback), the ops drawn and the attribute pairs they reach. With ``--write`` it writes the pairs to
``conformance/program/coverage_reach.json``, the table ``conformance ops --results`` measures pairwise coverage
against (a campaign's coverage counts only pairs this draw reached: the reachable ones). Run it again after a
change to the op records or to the binning (``conformance.program.coverage``).
"""

import argparse
import concurrent.futures
import itertools
import json
import time
import traceback

from conformance.program.coverage import REACH_FILE, Coverage, reach
from conformance.program.strategies import DEFAULT_CONSTRUCTS, TRAIN_CONSTRUCTS
from conformance.run.draws import DrawError
from conformance.run.stream import generate_cases


def draw(framework: str, n: int, seed: int) -> tuple[int, list[str], Coverage]:
    """Up to ``n`` cases of campaign seed ``seed`` for ``framework`` alone: how many were drawn, the tracebacks of
    the draws that raised, and the pairs the cases hold."""
    coverage, errors, drawn = Coverage(), [], 0
    stream = generate_cases(seed, frameworks=(framework,), constructs=DEFAULT_CONSTRUCTS + TRAIN_CONSTRUCTS)
    try:
        for case in itertools.islice(stream, n):
            drawn += 1
            if isinstance(case, DrawError):  # the campaign records it as a harness_error and goes on: so does this
                errors.append(case.traceback)
            else:
                coverage.add(case.program)
    except Exception:  # noqa: BLE001 - what this script looks for: any exception a draw raises
        errors.append(traceback.format_exc())
    return drawn, errors, coverage


def encode(seen: dict) -> dict:
    """Per op, its ``feature=bin`` items and per item its pairs with the items after it, as a bit mask in hex (bit
    k of item i: its pair with item i + 1 + k; about a twelfth of the size of the pairs written out)."""
    out = {}
    for op, got in sorted(seen.items()):
        items = sorted({item for pair in got for item in pair.split("&")})
        index = {item: i for i, item in enumerate(items)}
        masks = [0] * len(items)
        for a, b in (pair.split("&") for pair in got):
            i, j = sorted((index[a], index[b]))
            masks[i] |= 1 << (j - i - 1)
        out[op] = {"items": items, "pairs": " ".join(f"{m:x}" for m in masks)}
    return out


def _job(job: tuple) -> tuple:
    fw, n, seed = job
    t0 = time.process_time()
    drawn, errors, coverage = draw(fw, n, seed)
    return fw, drawn, errors, coverage.seen, time.process_time() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--programs", type=int, default=20000, help="cases per framework (all seeds together)")
    parser.add_argument("--frameworks", default="torch,paddle,tf")
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--first-seed", type=int, default=0, help="the seeds are first-seed .. first-seed + seeds - 1")
    parser.add_argument("--jobs", type=int, default=1, help="processes drawing at once (one seed of one framework "
                                                             "each)")
    parser.add_argument("--write", action="store_true", help=f"write the pairs to {REACH_FILE}")
    parser.add_argument("--add", action="store_true", help="with --write: add the pairs to those the file holds (a "
                                                           "larger sample in steps) instead of replacing them")
    args = parser.parse_args()
    frameworks = args.frameworks.split(",")
    seeds = range(args.first_seed, args.first_seed + args.seeds)
    jobs = [(fw, args.programs // args.seeds, seed) for fw in frameworks for seed in seeds]
    totals = {fw: {"cases": 0, "cpu": 0.0, "errors": [], "seen": {}} for fw in frameworks}
    with concurrent.futures.ProcessPoolExecutor(args.jobs) as pool:
        for fw, drawn, errors, seen, cpu in pool.map(_job, jobs):
            t = totals[fw]
            t["cases"] += drawn
            t["cpu"] += cpu
            t["errors"] += errors
            for op, got in seen.items():
                t["seen"].setdefault(op, set()).update(got)
    table = json.loads(REACH_FILE.read_text())["frameworks"] if args.write and REACH_FILE.exists() else {}
    for fw, t in totals.items():
        print(f"{fw}: {t['cases']} cases in {t['cpu']:.0f} CPU s, {len(t['errors'])} exception(s); "
              f"{len(t['seen'])} ops drawn, {sum(map(len, t['seen'].values()))} attribute pairs")
        if t["errors"]:
            print(t["errors"][0])
        if args.add:
            for op, got in reach([fw]).items():
                t["seen"].setdefault(op, set()).update(got)
        table[fw] = encode(t["seen"])
    if args.write:
        REACH_FILE.write_text(json.dumps({"frameworks": table}, sort_keys=True, separators=(",", ":")) + "\n")
        print(f"wrote {REACH_FILE}")


if __name__ == "__main__":
    main()
