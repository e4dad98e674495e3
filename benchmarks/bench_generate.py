"""How long the generator takes to draw a case, and which ops it draws.

    python benchmarks/bench_generate.py --cases 300 --seed 0 [--repeat 3] [--ops]

Draws the same campaign stream a ``conformance fuzz --seed S`` run draws (``generate_cases``) and prints
milliseconds per case (median of ``--repeat`` runs; one core), the number of op statements per case, a
digest of the case ids (equal digests: the same stream, e.g. before and after a refactoring that must
not change what is drawn) and, with ``--ops``, how often each op was drawn.
"""

import argparse
import collections
import hashlib
import itertools
import statistics
import time

from conformance.run.campaign import generate_cases


def draw(seed: int, n: int) -> tuple[float, list]:
    t0 = time.perf_counter()
    cases = list(itertools.islice(generate_cases(seed), n))
    return time.perf_counter() - t0, cases


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--ops", action="store_true", help="print how often each op was drawn")
    args = ap.parse_args()
    draw(args.seed + 1, 20)  # warm up: imports, Hypothesis' own caches
    times = []
    for _ in range(args.repeat):
        seconds, cases = draw(args.seed, args.cases)
        times.append(seconds / len(cases))
    digest = hashlib.sha256(" ".join(c.id for c in cases).encode()).hexdigest()[:12]
    counts = collections.Counter(op for c in cases for op in c.program.ops())
    print(f"{len(cases)} cases of seed {args.seed}: {statistics.median(times) * 1000:.2f} ms per case "
          f"(median of {args.repeat}; runs {', '.join(f'{t * 1000:.2f}' for t in times)}), "
          f"{sum(counts.values()) / len(cases):.1f} op statements per case, {len(counts)} distinct ops, "
          f"stream digest {digest}")
    if args.ops:
        for name, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
            print(f"  {name:24s} {n}")


if __name__ == "__main__":
    main()
