"""What the commands share: option parsing, the console, the paths to run, reading results files."""

from __future__ import annotations

import argparse
import sys

from conformance.paths.records import MODES, split_names
from conformance.run.records import ReportError, ResultRecord, read_results


def names_of(values) -> list[str]:
    """Names from repeatable, comma-separated options (``--paths a,b --paths c``)."""
    return [name for v in values or [] for name in split_names(v)]


def console():
    from rich.console import Console

    return Console() if sys.stdout.isatty() else Console(width=160)


def modes(text: str) -> list[str]:
    """``--mode``'s comma-separated modes, in the order of MODES."""
    wanted = set(names_of([text]))
    unknown = wanted - set(MODES)
    if unknown or not wanted:
        raise argparse.ArgumentTypeError(f"unknown mode {', '.join(sorted(unknown)) or '(none)'}; "
                                         f"known: {', '.join(MODES)}")
    return [m for m in MODES if m in wanted]


def add_path_options(parser, default_modes=("infer",)) -> None:
    """The options that choose what runs: frameworks, paths, device, modules to load, modes."""
    parser.add_argument("--frameworks", action="append",
                        help="frameworks, comma separated: torch, paddle, tf (default: every one installed)")
    parser.add_argument("--paths", action="append", help="paths, e.g. script,trace or torch.compile (default: all)")
    parser.add_argument("--device", default="cpu", choices=("cpu", "cuda"))
    parser.add_argument("--load", action="append", help="import this module first (it may register more paths)")
    parser.add_argument("--mode", type=modes, default=list(default_modes),
                        help="what to compare with eager, comma separated: outputs (infer), outputs and gradients "
                             "of a loss (grad), losses, parameters and buffers after SGD and Adam steps (train); "
                             f"each path runs in the modes it has (default: {','.join(default_modes)})")


def load_modules(modules: list[str], command: str = "conformance") -> None:
    """Import ``--load`` modules; exit naming the module and why where one fails."""
    import importlib

    for module in modules:
        try:
            importlib.import_module(module)
        except Exception as e:  # noqa: BLE001 - say which module and why, not a traceback
            raise SystemExit(f"{command}: --load {module}: {type(e).__name__}: {e}")


def available_paths(out, args) -> list:
    """The path records the options choose, less those that cannot run here (each said on ``out``)."""
    from rich.markup import escape

    from conformance.paths.records import (
        FRAMEWORK_MODULES,
        UnknownPathError,
        framework_available,
        missing_requirements,
        select_paths,
    )

    load_modules(names_of(getattr(args, "load", None)))
    frameworks = names_of(args.frameworks) or [fw for fw in FRAMEWORK_MODULES if framework_available(fw)]
    unknown = [fw for fw in frameworks if fw not in FRAMEWORK_MODULES]
    if unknown:
        raise SystemExit(f"conformance: unknown framework {unknown[0]!r}; known: {', '.join(FRAMEWORK_MODULES)}")
    usable = []
    for fw in frameworks:
        if not framework_available(fw):
            out.print(escape(f"skipping framework {fw!r}: it is not installed "
                             f"(pip install -c constraints.txt 'conformance[{fw}]')"), style="yellow")
            continue
        usable.append(fw)
    if not usable:
        out.print("[red]no installed framework to run[/]")
        return []
    try:
        paths = select_paths(usable, names_of(args.paths) or None)
    except UnknownPathError as e:
        raise SystemExit(f"conformance: {e}")
    kept = []
    wanted_modes = getattr(args, "mode", ["infer"])
    for p in paths:
        missing = missing_requirements(p)
        if missing:
            out.print(f"[yellow]skipping {p.id}: needs {', '.join(missing)}[/]")
        elif not set(wanted_modes) & p.modes:
            out.print(f"[yellow]skipping {p.id}: it has no {' or '.join(wanted_modes)} mode "
                      f"(modes: {', '.join(sorted(p.modes))})[/]")
        elif args.device not in p.devices:
            out.print(f"[yellow]skipping {p.id}: it runs on {', '.join(p.devices)} only[/]")
        else:
            kept.append(p)
    return kept


def read_or_exit(path, command: str = "conformance") -> list[ResultRecord]:
    """The records of a results file (or a campaign folder), or exit with the error naming the file and line."""
    try:
        return read_results(path)
    except ReportError as e:
        raise SystemExit(f"{command}: {e}")
