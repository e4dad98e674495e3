"""Campaign throughput with 1 and 2 workers: cases per minute, and the speed-up.

    python benchmarks/bench_workers.py --cases 30 --seed 0 [--paths script,trace,compile]

Runs the same cases (one seed) with each worker count through the real campaign machinery and
prints cases per minute measured from the first ready worker to the last record. Each run gets an
empty inductor cache (``TORCHINDUCTOR_CACHE_DIR``), or the later run would reuse the earlier one's
compiled kernels.
"""

import argparse
import os
import tempfile
import time
from pathlib import Path

from conformance.paths.records import select_paths
from conformance.run.campaign import Campaign, CampaignOptions


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=30)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--paths", default="script,trace,export,onnx_torchscript")
    ap.add_argument("--workers", default="1,2")
    args = ap.parse_args()
    paths = select_paths(["torch"], [p for p in args.paths.split(",") if p])
    rates = {}
    for n in (int(w) for w in args.workers.split(",")):
        with tempfile.TemporaryDirectory() as out:
            os.environ["TORCHINDUCTOR_CACHE_DIR"] = str(Path(out) / "inductor")  # the workers inherit it
            t = time.perf_counter()
            summary = Campaign(CampaignOptions(seed=args.seed, budget=1e9, max_cases=args.cases, paths=paths,
                                               workers=n, out=Path(out))).run()
            wall = time.perf_counter() - t
        rates[n] = summary["cases"] / summary["elapsed_s"] * 60
        print(f"{n} worker(s): {summary['cases']} cases in {summary['elapsed_s']:.1f} s after start-up "
              f"({wall:.1f} s wall): {rates[n]:.1f} cases/min")
    if len(rates) > 1:
        base = min(rates)
        for n in sorted(rates)[1:]:
            print(f"speed-up of {n} workers over {base}: {rates[n] / rates[base]:.2f}x")


if __name__ == "__main__":
    main()
