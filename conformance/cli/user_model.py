"""``conformance check``: which conversion paths of its framework agree with eager on a model of your own."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from conformance.cli.common import add_onnx_opset_option, console, names_of
from conformance.cli.releases import add_with_options


def _load_user_file(spec: str):
    """``FILE.py:NAME`` -> (the imported module, NAME); the file's folder goes on sys.path first (for the file's own
    imports of its neighbours). The module is named after the file unless a module of that name is loaded already
    (then under a name of its own): a path's process gets what it cannot import by name by value."""
    import importlib.util

    file, _, name = spec.rpartition(":")
    if not file or not name:
        raise SystemExit(f"conformance: expected FILE.py:NAME, got {spec!r}")
    path = Path(file).resolve()
    if not path.is_file():
        raise SystemExit(f"conformance: no such file: {file}")
    sys.path.insert(0, str(path.parent))
    module_name = path.stem if path.stem not in sys.modules else f"conformance_user_{path.stem}"
    module_spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[module_name] = module  # the model's classes have a home: pickled by reference where importable
    try:
        module_spec.loader.exec_module(module)
    except Exception as e:  # noqa: BLE001 - whatever the user's file raises, say which file and why
        raise SystemExit(f"conformance: cannot import {file}: {type(e).__name__}: {e}") from None
    if not hasattr(module, name):
        public = ", ".join(n for n in vars(module) if not n.startswith("_"))
        raise SystemExit(f"conformance: {file} has no {name!r}; it defines: {public}")
    return module, name


def _user_model(obj):
    """A model from NAME: a model instance, a model class (built with no arguments) or a factory function."""
    import inspect

    if inspect.isclass(obj) or inspect.isfunction(obj):
        try:
            return obj()
        except TypeError as e:
            raise SystemExit(f"conformance: cannot build the model with {obj.__name__}(): {e}; "
                             f"name a factory function or an instance that needs no arguments")
    return obj


def _npz_inputs(file: str, names: list[str]) -> tuple[list, dict]:
    """Positional inputs and kwargs from an .npz: keys are leaf paths (``x``, ``feats.0``, ``d.mask``),
    ``__kwargs__`` holds the kwargs as JSON (what ``conformance.program.case.save_inputs`` writes)."""
    import numpy as np

    with np.load(file) as data:
        arrays = {k: data[k] for k in data.files}
    kwargs = json.loads(str(arrays.pop("__kwargs__"))) if "__kwargs__" in arrays else {}
    tops = {k.split(".")[0] for k in arrays}
    unknown = sorted(tops - set(names))
    if unknown:
        raise SystemExit(f"conformance: {file} has inputs {unknown} that the model's forward does not take "
                         f"(its positional parameters: {', '.join(names)})")

    def nest(prefix: str):
        if prefix in arrays:
            return arrays[prefix]
        subs = sorted({k[len(prefix) + 1:].split(".")[0] for k in arrays if k.startswith(prefix + ".")})
        if all(s.isdigit() for s in subs):
            return [nest(f"{prefix}.{i}") for i in sorted(subs, key=int)]
        return {s: nest(f"{prefix}.{s}") for s in subs}

    return [nest(n) for n in names if n in tops], kwargs


def cmd_check(args) -> int:
    import inspect

    from rich.markup import escape
    from rich.table import Table

    from conformance.check import CheckError, check, detect_framework
    from conformance.check.calls import forward_of

    module, name = _load_user_file(args.model)
    model = _user_model(getattr(module, name))
    if args.inputs:
        try:
            forward = forward_of(model, detect_framework(model))  # a Keras model's call, not its __call__(*args)
        except CheckError as e:
            raise SystemExit(f"conformance: {e}")
        names = [p.name for p in inspect.signature(forward).parameters.values()
                 if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        inputs, kwargs = _npz_inputs(args.inputs, names)
    elif args.example:
        if not hasattr(module, args.example):
            raise SystemExit(f"conformance: {args.model.rpartition(':')[0]} has no example function {args.example!r}")
        made = getattr(module, args.example)()
        with_kwargs = isinstance(made, tuple) and len(made) == 2 and isinstance(made[1], dict)
        inputs, kwargs = made if with_kwargs else (made, {})
    else:
        raise SystemExit("conformance: give the inputs with --inputs FILE.npz, or name a function of the file "
                         "that returns them with --example")
    if args.kwargs:
        kwargs = {**kwargs, **json.loads(args.kwargs)}
    try:
        report = check(model, list(inputs), kwargs, paths=names_of(args.paths) or None, device=args.device,
                       onnx_opset=args.onnx_opset, isolate=not args.in_process, timeout=args.timeout)
    except CheckError as e:
        raise SystemExit(f"conformance: {e}")
    out = console()
    header, rows = report.rows()
    table = Table(title=f"conformance check of {report.model} ({report.framework}, {report.device}); "
                        f"input sets: {', '.join(report.input_sets)}")
    for h in header:
        table.add_column(h, justify="right" if "err" in h or "to pass" in h or h == "time" else "left",
                         overflow="fold")
    for row in rows:
        table.add_row(*map(escape, row))
    out.print(table)
    for line in report.localisations():  # where each mismatch first goes wrong
        out.print(f"first divergence: {line}", markup=False, highlight=False)
    for note in report.notes:
        out.print(f"note: {note}", markup=False, highlight=False)
    for error in report.configuration_errors:  # each once: the runtime cannot load what would be exported
        out.print(f"configuration error: {error}", markup=False, highlight=False, style="red")
    if args.json:
        Path(args.json).write_text(json.dumps(report.to_dict(), indent=1, sort_keys=True, default=str))
    if args.markdown:
        Path(args.markdown).write_text(report.to_markdown())
    if report.configuration_errors:
        return 2
    fail_on = names_of(args.fail_on) or ["mismatch"]
    return 1 if any(r.outcome in fail_on for r in report.results) else 0


def add_parsers(sub) -> None:
    c = sub.add_parser("check", help="check your own model: which paths agree with eager mode on your inputs")
    c.add_argument("model", metavar="FILE.py:NAME", help="a model class, a factory function or an instance")
    c.add_argument("--inputs", help=".npz of inputs: keys are argument names, nested as x.0 or d.key; "
                                    "__kwargs__ holds kwargs as JSON")
    c.add_argument("--example", help="a function of FILE.py returning the inputs: args, or (args, kwargs)")
    c.add_argument("--kwargs", help="keyword arguments as a JSON object (added to those of the inputs)")
    c.add_argument("--paths", action="append", help="paths, e.g. script,trace (default: all of the framework's)")
    c.add_argument("--device", default="cpu", choices=("cpu", "cuda"))
    add_onnx_opset_option(c)
    add_with_options(c)
    c.add_argument("--json", help="write the report (every path's record) to this file")
    c.add_argument("--markdown", help="write the report as a Markdown table (and where mismatches first diverge)")
    c.add_argument("--timeout", type=float, default=600.0,
                   help="seconds a path may take in its own process before it is killed (a timeout)")
    c.add_argument("--in-process", action="store_true",
                   help="run the paths in this process (no time limit; a crash takes the check down)")
    c.add_argument("--fail-on", action="append", help="exit 1 if a path has these outcomes (default: mismatch)")
    c.set_defaults(fn=cmd_check)
