"""Standalone reproducers: a bucket's ``repro.py``, assembled from the code the campaign ran.

A ``repro.py`` needs only the framework (and the path's converters) and numpy. It is, in order:

1. the minimal case's model, as the renderer writes it (:func:`conformance.render.source.render_parts`);
2. the framework's ``prepare``, ``call`` and ``to_numpy`` and 3. the path's ``convert`` and ``run``, copied
   from the standalone conversions module they are defined in (:func:`conformance.paths.standalone.
   standalone_source`), so the reproducer cannot drift from what the campaign ran;
4. the driver, :mod:`conformance.triage.repro_main`, copied with its data lines (the path, the input files,
   the input names and dynamic axes) written for the bucket.

A definition that two parts share (the framework's ``call`` as the path's ``run``, the modules' imports) is
written once; two different definitions of one name are refused (:class:`NoReproducer`).
"""

from __future__ import annotations

import ast
import inspect
import os
import subprocess
import sys
import time
from pathlib import Path

from conformance.paths.records import PATHS, load_framework
from conformance.paths.standalone import NotStandalone, standalone_source
from conformance.program.program import dynamic_axes
from conformance.render.source import render_parts
from conformance.triage import repro_main
from conformance.triage.buckets import TriageBucket
from conformance.triage.signatures import ANSI

#: The data lines of the driver that are written for each bucket.
DATA = ("PATH", "RUN_ON", "LEAF_NAMES", "ARG_NAMES", "DYNAMIC_AXES", "ONNX_OPSET", "DEVICE")


class NoReproducer(Exception):
    """A bucket whose finding a standalone ``repro.py`` cannot show; the message says why."""


def repro_source(bucket: TriageBucket) -> str:
    """The standalone ``repro.py`` of a bucket; raises :class:`NoReproducer` where there cannot be one."""
    sig = bucket.signature
    if sig.mode != "infer":
        raise NoReproducer(f"it is a `{sig.mode}`-mode finding (reproducers compare outputs)")
    fw = load_framework(sig.framework)
    path = PATHS.get(sig.path_id)
    if path is None:
        raise NoReproducer(f"`{sig.path_id}` is not registered here")
    try:
        framework_part = standalone_source(fw.prepare, fw.call, fw.to_numpy)
        path_part = standalone_source(path.convert, path.run, names=("convert", "run"))
    except NotStandalone as e:
        raise NoReproducer(f"the code of `{sig.path_id}` is not standalone ({e})") from None
    program = bucket.case.program
    axes = dynamic_axes(program)
    run_on = ["example.npz"] + (["inputs.npz"] if bucket.failing_input else [])
    data = {"PATH": sig.path_id, "RUN_ON": run_on, "LEAF_NAMES": list(axes),
            "ARG_NAMES": [i.name for i in program.inputs], "DYNAMIC_AXES": axes,
            "ONNX_OPSET": (bucket.record.detail.onnx or {}).get("requested_opset"), "DEVICE": bucket.record.device}
    needs = ", ".join([sig.framework if sig.framework != "tf" else "tensorflow", "numpy", *path.requires])
    doc = (f'"""Reproducer: {path.description} ({sig.path_id}) — {sig.outcome}.\n\n'
           f"{sig.key}\n\n"
           f"Needs {needs}; nothing else. Run: python repro.py (loads example.npz"
           f"{' and inputs.npz' if len(run_on) > 1 else ''} beside it).\n"
           f"It converts the model on example.npz, runs eager and the converted model on {' and '.join(run_on)},\n"
           f"prints both and the difference, and exits with status 1 while the bug is there.\n"
           + (f"It runs on {bucket.record.device}, as the campaign did.\n" if bucket.record.device != "cpu" else "")
           + f"Written by conformance triage (bucket {bucket.id}).\n"
           '"""\n')
    sections = [render_parts(program, sig.framework).body,
                f"# ---------------------------------------------------------------- {sig.framework}: prepare, call, "
                f"to_numpy\n\n" + framework_part,
                f"# ---------------------------------------------------------------- the path: {path.description}\n\n"
                + path_part,
                "# ---------------------------------------------------------------- compare with eager\n\n"
                + driver_source(data)]
    try:
        source = doc + "\n" + "\n\n".join(_without_repeats(sections))
        compile(source, "repro.py", "exec")
    except (SyntaxError, ValueError) as e:
        raise NoReproducer(f"the parts of repro.py do not fit together: {e}") from None
    return source


def driver_source(data: dict) -> str:
    """The source of :mod:`~conformance.triage.repro_main` without its docstring, with the data lines
    :data:`DATA` written from ``data``."""
    source = inspect.getsource(repro_main)
    tree = ast.parse(source)
    lines = source.splitlines()
    replaced = set()
    for node in reversed(tree.body):
        target = node.targets[0].id if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name) else ""
        if target in DATA:
            lines[node.lineno - 1:node.end_lineno] = [f"{target} = {data[target]!r}"]
            replaced.add(target)
    if replaced != set(DATA):
        raise ValueError(f"repro_main has no data line for {', '.join(sorted(set(DATA) - replaced))}")
    docstring = tree.body[0]
    del lines[docstring.lineno - 1:docstring.end_lineno]
    return "\n".join(lines).lstrip("\n") + "\n"


def _definitions(source: str) -> list[tuple[str, str, int, int]]:
    """``(name, text, first line, last line)`` of each top-level statement (name "" for what defines no name)."""
    tree = ast.parse(source)
    lines = source.splitlines()
    out = []
    for node in tree.body:
        decorators = getattr(node, "decorator_list", [])
        first = decorators[0].lineno if decorators else node.lineno
        text = "\n".join(lines[first - 1:node.end_lineno])
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            name = node.name
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
        else:
            name = ""
        out.append((name, text, first, node.end_lineno))
    return out


def _without_repeats(sections: list[str]) -> list[str]:
    """The sections with each statement written once (the first time); raises ValueError where two sections
    define one name differently."""
    seen_texts: set[str] = set()
    defined: dict[str, str] = {}
    out = []
    for section in sections:
        lines = section.splitlines()
        for name, text, first, last in reversed(_definitions(section)):
            if name and defined.get(name, text) != text:
                raise ValueError(f"{name} is defined twice, differently")
            if text in seen_texts:
                del lines[first - 1:last]
        for name, text, _, _ in _definitions(section):
            seen_texts.add(text)
            if name:
                defined[name] = text
        out.append(_squeeze_blank_lines("\n".join(lines)))
    return out


def _squeeze_blank_lines(text: str) -> str:
    """At most two blank lines in a row (a statement left out leaves its neighbours' blank lines)."""
    out: list[str] = []
    for line in text.splitlines():
        if not line.strip() and len(out) >= 2 and not out[-1].strip() and not out[-2].strip():
            continue
        out.append(line)
    return "\n".join(out).strip("\n") + "\n"


def verify_repro(folder: Path, timeout: float = 300.0) -> dict:
    """Run ``repro.py`` in a clean environment (``python -I``, its own folder): did it fail?"""
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "TMPDIR", "SYSTEMROOT")}
    t0 = time.monotonic()
    try:
        proc = subprocess.run([sys.executable, "-I", "repro.py"], cwd=folder, env=env, capture_output=True,
                              text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"file": "repro.py", "verified": None, "exit_code": None,
                "output_tail": f"ran past {timeout:g} s", "seconds": round(time.monotonic() - t0, 1)}
    out = ANSI.sub("", proc.stderr + proc.stdout)[-3000:]  # the verdict, on stdout, last
    return {"file": "repro.py", "verified": proc.returncode != 0, "exit_code": proc.returncode, "output_tail": out,
            "seconds": round(time.monotonic() - t0, 1)}
