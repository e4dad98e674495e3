"""What the commands share: option parsing, the console, the paths to run, reading results files."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Optional

from conformance.paths.records import MODES, split_names
from conformance.run.records import ReportError, ResultRecord, read_results


def names_of(values) -> list[str]:
    """Names from repeatable, comma-separated options (``--paths a,b --paths c``)."""
    return [name for v in values or [] for name in split_names(v)]


def console(file=None):
    """The console commands print on: ``file`` (default: stdout)."""
    from rich.console import Console

    return Console(file=file) if (file or sys.stdout).isatty() else Console(file=file, width=160)


def modes(text: str) -> list[str]:
    """``--mode``'s comma-separated modes, in the order of MODES."""
    wanted = set(names_of([text]))
    unknown = wanted - set(MODES)
    if unknown or not wanted:
        raise argparse.ArgumentTypeError(f"unknown mode {', '.join(sorted(unknown)) or '(none)'}; "
                                         f"known: {', '.join(MODES)}")
    return [m for m in MODES if m in wanted]


def onnx_opset(text: str) -> int:
    """``--onnx-opset``'s value: an ONNX opset onnxruntime may load (7 or newer)."""
    from conformance.paths.onnx_opset import requested_opset

    try:
        return requested_opset(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e) if "opset" in str(e) else f"not an opset number: {text!r}")


def add_onnx_opset_option(parser) -> None:
    from conformance.paths.onnx_opset import OPSET_ENV

    parser.add_argument("--onnx-opset", type=onnx_opset, metavar="N",
                        help="the ONNX opset every ONNX exporter is asked for (torch.onnx.export, paddle2onnx, "
                             f"tf2onnx), e.g. one an older onnxruntime loads (default: ${OPSET_ENV} if set, else "
                             "each exporter's own default)")


def use_onnx_opset(out, paths: list, args) -> tuple[Optional[int], list[str]]:
    """Apply ``--onnx-opset`` (else :data:`~conformance.paths.onnx_opset.OPSET_ENV`) to this process and the ones
    it starts, and check that the installed onnxruntime loads what the selected ONNX paths will write: returns
    the opset (None: the exporters' defaults) and the configuration errors, each printed once on ``out``."""
    from rich.markup import escape

    from conformance.paths.onnx_opset import OPSET_ENV, requested_opset
    from conformance.run.onnx_checks import configuration_errors

    opset = getattr(args, "onnx_opset", None)
    if opset is None:
        try:
            opset = requested_opset()
        except ValueError as e:
            raise SystemExit(f"conformance: ${OPSET_ENV}: {e}")
    if opset is not None:
        os.environ[OPSET_ENV] = str(opset)
    errors = configuration_errors(paths, opset)
    for error in errors:
        out.print(escape(f"configuration error: {error}"), style="red")
    return opset, errors


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
    add_onnx_opset_option(parser)


def load_modules(modules: list[str], command: str = "conformance") -> None:
    """Import ``--load`` modules, from the folder the command runs in too (as ``python -m`` does: the ``conformance``
    script's own folder is on the path, not that one); exit naming the module and why where one fails."""
    import importlib

    if modules and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())  # worker processes get this path too
    for module in modules:
        try:
            importlib.import_module(module)
        except Exception as e:  # noqa: BLE001 - say which module and why, not a traceback
            raise SystemExit(f"{command}: --load {module}: {type(e).__name__}: {e}")


def available_paths(out, args, keep_duplicates: bool = False) -> list:
    """The path records the options choose, less those that cannot run here (each said on ``out``). What the
    frameworks print while they are imported (Paddle's and TensorFlow's C++ logs) is kept out of the terminal,
    unless the import fails. A run that names no paths leaves out the variants that run their base path's code
    here (:func:`~conformance.paths.records.duplicate_work`), unless ``keep_duplicates``."""
    from rich.markup import escape

    from conformance.paths.records import (
        FRAMEWORK_MODULES,
        UnknownPathError,
        duplicate_work,
        framework_available,
        missing_requirements,
        select_paths,
        unavailable_reason,
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
    from conformance.run.errors import printed_output

    try:
        with printed_output() as text:
            paths = select_paths(usable, names_of(args.paths) or None)
    except UnknownPathError as e:
        raise SystemExit(f"conformance: {e}")
    except BaseException:
        sys.stderr.write("".join(text))
        raise
    kept = []
    wanted_modes = getattr(args, "mode", ["infer"])
    same = {} if keep_duplicates or names_of(args.paths) else duplicate_work(paths, args.device)
    for p in paths:
        missing = missing_requirements(p)
        if p.id in same:
            out.print(escape(f"leaving out {p.id} (name it with --paths to run it): {same[p.id]}"), style="yellow")
        elif missing:
            out.print(f"[yellow]skipping {p.id}: needs {', '.join(missing)}[/]")
        elif not set(wanted_modes) & p.modes:
            out.print(f"[yellow]skipping {p.id}: it has no {' or '.join(wanted_modes)} mode "
                      f"(modes: {', '.join(sorted(p.modes))})[/]")
        elif why := unavailable_reason(p, args.device):
            out.print(escape(f"skipping {p.id}: {why}"), style="yellow")
        else:
            kept.append(p)
    return kept


def read_or_exit(path, command: str = "conformance") -> list[ResultRecord]:
    """The records of a results file (or a campaign folder), or exit with the error naming the file and line."""
    try:
        return read_results(path)
    except ReportError as e:
        raise SystemExit(f"{command}: {e}")
