"""Throughput per conversion path, and where the time goes: harness versus framework.

    python benchmarks/bench_paths.py --cases 20 --seed 0 [--paths script,trace]

For each path it runs the same generated cases in this process (one thread) and prints cases per
minute and the share of wall time spent in the harness (generation, rendering and importing, the
fp32/fp64 eager reference runs, comparison, record building) versus in the framework's own
conversion and execution of the converted model.
"""

import argparse
import itertools
import time

from conformance.paths.records import select_paths
from conformance.run.runner import prepare, run_path
from conformance.run.stream import generate_cases


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--paths", default="")
    args = ap.parse_args()
    paths = select_paths(["torch"], [p for p in args.paths.split(",") if p] or None)
    t0 = time.perf_counter()
    cases = list(itertools.islice(generate_cases(args.seed), args.cases))
    gen_s = (time.perf_counter() - t0) / len(cases)
    rows = []
    for path in paths:
        wall = framework = 0.0
        for case in cases:
            t1 = time.perf_counter()
            prep = prepare(case, "torch")
            record = run_path(case, prep, path)
            wall += time.perf_counter() - t1 + gen_s
            framework += record["timings"].get("convert_s", 0.0) + record["timings"].get("run_s", 0.0)
        rows.append((path.id, len(cases) / wall * 60, wall / len(cases), framework / len(cases), 1 - framework / wall))
    print(f"{len(cases)} cases of seed {args.seed}; generation {gen_s * 1000:.1f} ms per case (counted as harness)")
    print(f"{'path':<26}{'cases/min':>10}{'s/case':>10}{'framework s':>13}{'harness share':>15}")
    for pid, cpm, per, fw, share in rows:
        print(f"{pid:<26}{cpm:>10.1f}{per:>10.3f}{fw:>13.3f}{share:>15.1%}")


if __name__ == "__main__":
    main()
