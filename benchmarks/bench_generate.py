"""How long the generator takes to draw a case, and which ops it draws.

    python benchmarks/bench_generate.py --cases 300 --seeds 3 [--ops] [--edges]

Draws the campaign streams of seeds 0 .. seeds-1 (what ``conformance fuzz --seed S`` draws:
``generate_cases``), ``--cases`` cases each, and prints CPU milliseconds per case and per statement (CPU
time of this process: steadier than wall time on a shared machine), the number of op statements per
case, a digest of the case ids (equal digests: the same streams, e.g. before and after a refactoring that
must not change what is drawn) and, with ``--ops``, how often each op was drawn. Program sizes vary a
lot from one stream to the next: compare figures over several seeds. ``--edges`` draws with the edge
constructs too (dtypes, edge values, edge shapes: ``conformance.program.edges``), each in its share of the cases.
"""

import argparse
import collections
import hashlib
import itertools
import time

from conformance.run.stream import generate_cases


def draw(seed: int, n: int, **options) -> tuple[float, list]:
    """CPU seconds of this process to draw ``n`` cases of campaign seed ``seed`` (``options``: the generator's),
    and the cases."""
    t0 = time.process_time()
    cases = list(itertools.islice(generate_cases(seed, **options), n))
    return time.process_time() - t0, cases


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=300)
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--ops", action="store_true", help="print how often each op was drawn")
    ap.add_argument("--edges", action="store_true", help="with the edge constructs (dtypes, edge values and shapes)")
    args = ap.parse_args()
    options = {}
    if args.edges:
        from conformance.program.edges import EDGE_CONSTRUCTS
        from conformance.program.strategies import CONSTRUCTS

        options["constructs"] = CONSTRUCTS + EDGE_CONSTRUCTS
    draw(1000, 20, **options)  # warm up: imports, Hypothesis' own caches
    seconds, cases = 0.0, []
    for seed in range(args.seeds):
        s, drawn = draw(seed, args.cases, **options)
        seconds += s
        cases += drawn
    digest = hashlib.sha256(" ".join(c.id for c in cases).encode()).hexdigest()[:12]
    counts = collections.Counter(op for c in cases for op in c.program.ops())
    statements = sum(c.program.size() for c in cases)
    print(f"{len(cases)} cases of seeds 0-{args.seeds - 1}: {seconds / len(cases) * 1000:.2f} CPU ms per case, "
          f"{seconds / statements * 1000:.3f} per statement; {statements / len(cases):.1f} statements and "
          f"{sum(counts.values()) / len(cases):.1f} op statements per case, {len(counts)} distinct ops; "
          f"stream digest {digest}")
    if args.ops:
        for name, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
            print(f"  {name:24s} {n}")


if __name__ == "__main__":
    main()
