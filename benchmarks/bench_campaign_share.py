"""The harness's own share of a single-path campaign: how much of the time goes to anything but the path.

    python benchmarks/bench_campaign_share.py --cases 60 --seed 0 [--paths script,trace,onnx_torchscript]
    python benchmarks/bench_campaign_share.py --profile script --cases 40   # cProfile of one worker's loop
    python benchmarks/bench_campaign_share.py --default 180 --frameworks torch,paddle,tf --workers 2

For each path, a campaign of ``--cases`` cases on that path alone (with its framework's eager path, which every
campaign runs) through the real campaign machinery, one worker. Printed per path: programs per minute from the
first ready worker to the last record, the seconds the path itself took (conversion, running and comparison, from
the records) and the rest, the harness's share: drawing the case, rendering and importing it, the eager reference,
the eager path's own task, pipes and journaling.

``--default BUDGET`` runs a default campaign instead (every default path of ``--frameworks``, in infer mode,
sharing the worker time by measured cost: :mod:`conformance.run.schedule`) and prints, per task, the programs it
judged, its median seconds per program and its last rate, the core paths first, and the programs steered away from
known bugs.

``--profile PATH`` runs the worker's loop in this process under cProfile instead (generation, ``run_case``, the
records' JSON) and prints the functions that took the most cumulative time, grouped into generation, rendering and
import, eager reference, conversion and run, comparison, journaling.
"""

import argparse
import cProfile
import io
import pstats
import tempfile
import time
from pathlib import Path

from conformance.paths.records import select_paths
from conformance.run.campaign import Campaign, CampaignOptions
from conformance.run.records import read_results, results_line
from conformance.run.stream import generate_cases


def share(path: str, cases: int, seed: int) -> None:
    paths = select_paths(["torch"], [path])
    with tempfile.TemporaryDirectory() as out:
        summary = Campaign(CampaignOptions(seed=seed, budget=1e9, max_cases=cases, paths=paths, workers=1,
                                           out=Path(out))).run()
        records = read_results(Path(out) / "results.jsonl")
    # the path's own seconds (what run.schedule.judged_seconds counts; written out so that the script also measures
    # a checkout from before that module, for before/after figures)
    own = sum((r.timings.convert_s or 0) + (r.timings.run_s or 0) + (r.timings.compare_s or 0)
              for r in records if r.path_id == paths[-1].id)
    elapsed = summary["elapsed_s"]
    print(f"{paths[-1].id:<24} {summary['cases']} programs in {elapsed:.1f} s: {summary['cases'] / elapsed * 60:.0f} "
          f"programs/min; the path {own:.1f} s, the harness {elapsed - own:.1f} s: harness share "
          f"{(elapsed - own) / elapsed:.0%}")


STAGES = {  # function-name fragments of each stage, as cProfile names them
    "generation": ("generate_cases", "strategies.py", "hypothesis"),
    "rendering and import": ("load_model_module", "render"),
    "eager reference": ("prepare",),
    "path (conversion and run)": ("run_path",),
    "comparison": ("_judge", "compare"),
    "journaling": ("results_line", "to_json"),
}


def profile(path: str, cases: int, seed: int) -> None:
    from conformance.run.runner import run_case, tasks_of

    paths = select_paths(["torch"], [path])
    tasks = tasks_of(paths, ["infer"])
    stream = generate_cases(seed)
    profiler = cProfile.Profile()
    t = time.perf_counter()
    profiler.enable()
    for _ in range(cases):
        for record in run_case(next(stream), tasks):
            results_line(record)
    profiler.disable()
    wall = time.perf_counter() - t
    stats = pstats.Stats(profiler, stream=io.StringIO())
    print(f"{cases} programs along {paths[-1].id} in one process: {wall:.1f} s")
    for stage, needles in STAGES.items():
        seconds = max((v[3] for k, v in stats.stats.items() if any(n in f"{k[0]}:{k[2]}" for n in needles)),
                      default=0.0)
        print(f"  {stage:<28} {seconds:6.2f} s cumulative ({seconds / wall:.0%})")
    text = io.StringIO()
    pstats.Stats(profiler, stream=text).sort_stats("cumulative").print_stats(30)
    print(text.getvalue())


def default_campaign(budget: float, frameworks: list, workers: int, seed: int) -> None:
    from conformance.run.costs import CORE
    from conformance.run.plan import PLAN_FILE

    paths = select_paths(frameworks)
    with tempfile.TemporaryDirectory() as out:
        campaign = Campaign(CampaignOptions(seed=seed, budget=budget, paths=paths, workers=workers, out=Path(out),
                                            sample="cost"))
        summary = campaign.run()
        records = read_results(Path(out) / "results.jsonl")
        planned = len((Path(out) / PLAN_FILE).read_text().splitlines())
    plan = campaign.planner.summary()
    seconds: dict = {}
    for r in records:
        seconds.setdefault(f"{r.path_id}@{r.mode}", []).append(
            (r.timings.convert_s or 0) + (r.timings.run_s or 0) + (r.timings.compare_s or 0))
    print(f"{summary['cases']} cases ({planned} planned) in {summary['elapsed_s']:.0f} s, {workers} worker(s); "
          f"{plan['steered_programs']} program(s) steered away from {plan['known_bugs']} known bug(s)")
    order = sorted(seconds, key=lambda k: (k.split("@")[0] not in CORE, -len(seconds[k])))
    for key in order:
        s = sorted(seconds[key])
        print(f"  {'core ' if key.split('@')[0] in CORE else '     '}{key:<42} {len(s):5d} programs, median "
              f"{s[len(s) // 2]:.3f} s, rate {plan['rates'].get(key, 1.0):.3f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=60)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--paths", default="script,trace,onnx_torchscript")
    ap.add_argument("--profile", metavar="PATH", help="profile the worker loop on this path instead")
    ap.add_argument("--default", type=float, metavar="BUDGET", help="run a default campaign of BUDGET s instead")
    ap.add_argument("--frameworks", default="torch")
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args()
    if args.default:
        default_campaign(args.default, args.frameworks.split(","), args.workers, args.seed)
        return
    if args.profile:
        profile(args.profile, args.cases, args.seed)
        return
    for path in args.paths.split(","):
        share(path, args.cases, args.seed)


if __name__ == "__main__":
    main()
