"""First-divergence localisation on planted faults: hit rate per fault kind and path, time and conversions.

    python benchmarks/bench_localize.py [--n 10] [--drawn 30] [--paths torch.planted_loc_script,...] [--worker]

For each path and each fault category of ``tests/planted_localize.py`` (a perturbed op, a wrong branch
decision, a loop one iteration short; in straight-line code and inside loop bodies) it localises the ``n``
known programs and prints how many are localised to the planted statement with the planted kind, the median
and the largest number of conversions per localisation, and the median seconds per localisation (the
conversions of the truncated programs, their eager references, and the bisection; the finding's own record
is not counted). ``--drawn N``: also N faults planted at random statements of programs a campaign draws
(seed 1; :func:`tests.planted_localize.drawn_planted`), rows ``drawn_perturb``, ``drawn_branch``,
``drawn_short``. ``--worker``: candidates run in the reducer's worker process (as ``conformance triage``
runs them) instead of this process. A path's framework is imported when its first case runs; TensorFlow
and Paddle paths run in a process of their own each (they do not import into one process together).
"""

import argparse
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

DEFAULT_PATHS = ("torch.planted_loc_script", "torch.planted_loc_compile_aot_eager", "torch.planted_loc_compile",
                 "torch.planted_loc_onnx_torchscript", "tf.planted_loc_function", "paddle.planted_loc_to_static")


def run_path(pid: str, n: int, worker: bool, drawn: int = 0) -> list:
    """Rows ``(path, category, hits, n, median conversions, max conversions, median seconds)``."""
    import importlib

    from conformance.triage.localize import localize
    from conformance.triage.localize_workers import InProcess, LocalizeEvaluator
    from tests.planted_localize import CATEGORIES, planted_cases, planted_module

    importlib.import_module(planted_module(pid))
    runner = LocalizeEvaluator((planted_module(pid),), timeout=600) if worker else InProcess()
    rows = []
    try:
        groups = [(category, planted_cases(category, n)) for category in CATEGORIES]
        if drawn:
            from tests.planted_localize import drawn_planted

            planted = drawn_planted(1, drawn, runner, pid)
            groups += [(kind, [p for p in planted if p.category == kind])
                       for kind in ("drawn_perturb", "drawn_branch", "drawn_short")]
        for category, cases in groups:
            if not cases:
                continue
            hits, conversions, seconds = 0, [], []
            for p in cases:
                record = runner(p.case, pid)
                t0 = time.perf_counter()
                loc = localize(p.case, record, runner)
                seconds.append(time.perf_counter() - t0)
                conversions.append(loc.conversions)
                hits += loc.status == "found" and tuple(loc.location or ()) == p.location and loc.kind == p.kind
            rows.append((pid, category, hits, len(cases), statistics.median(conversions), max(conversions),
                         statistics.median(seconds)))
    finally:
        if worker:
            runner.close()
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10)
    ap.add_argument("--paths", default=",".join(DEFAULT_PATHS))
    ap.add_argument("--worker", action="store_true")
    ap.add_argument("--drawn", type=int, default=0)
    ap.add_argument("--one", default="", help=argparse.SUPPRESS)  # a child process: one path, rows as repr
    args = ap.parse_args()
    if args.one:
        print(repr(run_path(args.one, args.n, args.worker, args.drawn)))
        return
    rows = []
    for pid in [p for p in args.paths.split(",") if p]:
        command = [sys.executable, __file__, "--one", pid, "--n", str(args.n), "--drawn", str(args.drawn)] + \
            (["--worker"] if args.worker else [])
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode:
            print(f"{pid}: failed\n{done.stderr[-2000:]}")
            continue
        rows += eval(done.stdout.strip().splitlines()[-1])  # noqa: S307 - our own child's repr
        print(f"{pid}: done", flush=True)
    print(f"{'path':<38} {'fault':<17} {'hits':>7} {'conv. median':>12} {'max':>4} {'s median':>9}")
    for pid, category, hits, n, conv, most, secs in rows:
        print(f"{pid:<38} {category:<17} {hits:>3}/{n:<3} {conv:>12g} {most:>4} {secs:>9.2f}")
    if rows:
        every = [r for r in rows]
        print(f"all: {sum(r[2] for r in every)}/{sum(r[3] for r in every)} localised; median of the per-row median "
              f"seconds {statistics.median(r[6] for r in every):.2f}; at most {max(r[5] for r in every)} conversions")


if __name__ == "__main__":
    main()
