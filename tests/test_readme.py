"""Every code block of the README runs as written, on a one-framework install (torch), with small budgets.

The blocks are taken from README.md itself. What is changed before running, and why:

* ``python3 -m venv .venv`` and ``.venv/bin/pip install ...`` are left out, and ``.venv/bin/`` is the interpreter
  running this test: the install is what this environment already is (CI runs the README's install line itself,
  through ``.ci/run``); the test command's checks (lint, docs build, pytest) are CI's own run, and
  ``tests/test_docs.py`` checks that ``.ci/run`` is that line verbatim;
* ``--frameworks torch,paddle,tf`` becomes ``--frameworks torch`` (the one-framework install);
* budgets shrink: ``fuzz --budget`` to 30 s, ``triage --max-seconds`` to 90 s — enough for seed 0 to find the
  findings the worked example triages and replays (PyTorch's dynamo ONNX exporter refuses some of the first
  cases), at a fraction of the time;
* the pytest example runs with ``--hypothesis-seed 0``: it is a property over random models, and a new finding
  among them would fail it by chance, not because the example is wrong;
* a Python block the text says to "Save as `FILE`" is written to ``FILE`` in a scratch folder, where every command
  runs; one that is not a test (``test_*.py``) is then run with ``python FILE``, as the README says.

Running them takes minutes, so those tests are ``slow``; the extraction itself (every block has a way to run or a
reason not to) is checked in every run.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
BIN = str(Path(sys.executable).parent) + "/"
SUBSTITUTIONS = ((r"--frameworks torch,paddle,tf", "--frameworks torch"), (r"--budget \d+", "--budget 30"),
                 (r"--max-seconds \d+", "--max-seconds 90"), (r"(-m pytest .*)$", r"\1 --hypothesis-seed 0"))


def blocks() -> list[tuple[str, str, str]]:
    """(language, code, the text before it) for every fenced block of the README."""
    text = README.read_text()
    found, start = [], 0
    for m in re.finditer(r"^```(\w*)\n(.*?)^```\n", text, re.M | re.S):
        found.append((m.group(1), m.group(2), text[start:m.start()]))
        start = m.end()
    return found


def save_as(before: str):
    """The file the paragraph before a block says to save it as ("Save as `gate.py`"), or None."""
    named = re.findall(r"Save as\s+`([\w.]+)`", before.strip().split("\n\n")[-1])
    return named[-1] if named else None


def saved_files() -> dict[str, str]:
    """The Python blocks the README says to save, by file name."""
    return {save_as(before): code for lang, code, before in blocks() if lang == "python" and save_as(before)}


def commands(code: str) -> list[str]:
    """A shell block's commands, as this test runs them (see the module docstring)."""
    runnable = []
    for line in code.splitlines():
        for command in line.split(" && "):
            command = command.strip()
            if not command or command.startswith(("python3 -m venv", ".venv/bin/pip install")):
                continue
            if command.startswith((".venv/bin/lint-imports", ".venv/bin/ruff", ".venv/bin/mkdocs",
                                   ".venv/bin/python -m pytest -n auto")):
                continue  # the test command: CI's own run
            for pattern, replacement in SUBSTITUTIONS:
                command = re.sub(pattern, replacement, command)
            runnable.append(command.replace(".venv/bin/", BIN))
    return runnable


def runs() -> list[tuple[str, list[str]]]:
    """What the slow tests run: (an id, the commands), in README order."""
    out = []
    for i, (lang, code, before) in enumerate(blocks()):
        if lang == "sh" and commands(code):
            out.append((f"sh-{i}", commands(code)))
        elif lang == "python" and save_as(before) and not save_as(before).startswith("test_"):
            out.append((save_as(before), [f"{BIN}python {save_as(before)}"]))
    return out


def test_every_block_has_a_way_to_run():
    kinds = {lang for lang, _, _ in blocks()}
    assert kinds <= {"sh", "python"}, f"README blocks of a kind this test cannot run: {kinds - {'sh', 'python'}}"
    unsaved = [code[:200] for lang, code, before in blocks() if lang == "python" and not save_as(before)]
    assert not unsaved, f"Python blocks the README does not say where to save: {unsaved}"
    ran = [c for _, cs in runs() for c in cs]
    assert any(" fuzz " in c for c in ran) and any(" triage " in c for c in ran) and any(" replay " in c for c in ran)
    assert any("pytest" in c for c in ran) and any(c.endswith(".py") for c in ran)


@pytest.mark.slow
@pytest.mark.skipif(not importlib.util.find_spec("torch"), reason="the README's examples need torch")
@pytest.mark.parametrize("name,script", runs(), ids=[name for name, _ in runs()])
def test_the_readme_block_runs(tmp_path, name, script):
    for file, code in saved_files().items():
        (tmp_path / file).write_text(code)
    env = {**os.environ, "PATH": BIN + os.pathsep + os.environ.get("PATH", "")}
    for command in script:
        done = subprocess.run(command, shell=True, cwd=tmp_path, env=env, capture_output=True, text=True,
                              timeout=900)
        # replay exits 1 while a finding it replays is still there (the worked example replays one): that is its
        # answer, as long as it names one
        named = re.search(r"\b(mismatch|conversion_error|runtime_error|crash|timeout)\b", done.stdout)
        ok = (0, 1) if " replay " in command and named else (0,)
        assert done.returncode in ok, f"{command}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
