"""Where a worker process died: a process killed by a signal (SIGSEGV, SIGFPE on an integer division, SIGABRT)
dumps its Python stack into its log (:func:`report_fatal_signals`), and :func:`crash_site` reads the statement of
the rendered model it was running from there, so the ``crash`` record names the op; where the stack shows no line
of the model (the crash was in a conversion, or in a compiled program), the record names the program's ops, and
``conformance triage`` reduces the case to the one that crashes.

A crash or a timeout may be a known one: :func:`finish_lost` names it by the path's limitations of phase ``crash``
or ``timeout`` (selected on the signal, the end of the log, the program's ops), as the runner names an exception."""

from __future__ import annotations

import ast
import faulthandler
import re
import signal
from pathlib import Path
from typing import Optional

from conformance.paths.records import Failure, PathRecord
from conformance.program.ir import OpStmt
from conformance.program.program import Program
from conformance.run.records import ResultRecord

#: How much of a worker's log the stack dump is looked for in (the end of the log: the dump is the last thing it wrote)
TAIL_CHARS = 50_000
_FATAL = "Fatal Python error"


#: The signals a crash kills a process with.
_FATAL_SIGNALS = (signal.SIGSEGV, signal.SIGABRT, signal.SIGFPE, signal.SIGBUS, signal.SIGILL)


def report_fatal_signals(fd: int) -> None:
    """Make this process dump its Python stack to ``fd`` (its log: not fd 2, which a run may capture meanwhile)
    when a fatal signal kills it (see :mod:`faulthandler`), and then die of it.

    Call it after the frameworks are imported: their own handlers go (Paddle installs one on import that prints a
    C++ stack; on a heap that a crash left corrupt, glibc's "corrupted double-linked list" abort, it waits forever
    for the allocator's lock, and the task's crash became a timeout two minutes later). faulthandler writes its
    dump without allocating."""
    for sig in _FATAL_SIGNALS:
        signal.signal(sig, signal.SIG_DFL)
    faulthandler.enable(file=fd, all_threads=False)


def crash_site(program: Program, framework: str, log: Path) -> str:
    """Where in ``program`` (rendered for ``framework``) the process that wrote ``log`` died, as text that
    follows a crash message: ``" at model.py:12 `v3 = a0 // a1` (op floor_div)"``, or ``" in a program with
    ops ..."`` where the stack shows no line of the model."""
    text = log.read_text(errors="replace")[-TAIL_CHARS:] if log.exists() else ""
    dump = text[text.rfind(_FATAL):] if _FATAL in text else ""
    where = re.compile(r'File "([^"]*/' + re.escape(f"{framework}/{program.id}/") + r'[^"/]+\.py)", line (\d+)')
    for file, line in where.findall(dump):  # innermost frame first
        source = Path(file).read_text().splitlines() if Path(file).exists() else []
        if 0 < int(line) <= len(source):
            statement = source[int(line) - 1].strip()
            op = _op_assigned(program, statement)
            return f" at {Path(file).name}:{line} `{statement[:200]}`" + (f" (op {op})" if op else "")
    return f" in a program with ops {', '.join(sorted(set(program.ops()))) or '(none)'}"


def _op_assigned(program: Program, statement: str) -> str:
    """The IR op whose result ``statement`` (a line of the rendered model) assigns, or ""."""
    try:
        node = ast.parse(statement).body[0]
    except (SyntaxError, IndexError):
        return ""
    if not isinstance(node, ast.Assign):
        return ""
    names = {n.id for target in node.targets for n in ast.walk(target) if isinstance(n, ast.Name)}
    return next((s.op for s in program.walk() if isinstance(s, OpStmt) and s.out in names), "")


def signal_name(code) -> str:
    """The name of the signal that killed a process of exit code ``code`` (negative), or ""."""
    if code is None or code >= 0:
        return ""
    try:
        return signal.Signals(-code).name
    except ValueError:
        return str(-code)


def finish_lost(record: ResultRecord, path: PathRecord, outcome: str, message: str, code, tail: str,
                program: Optional[Program], version: str) -> ResultRecord:
    """Finish ``record`` of a path whose process died (``crash``) or hung (``timeout``): a limitation of the path of
    that phase, selecting on the signal (``code``, the exit code), the log's end ``tail`` and the program's ops and
    constructs, turns it into its outcome (a refusal) or names it as a known bug; else it stays a finding."""
    killed_by = signal_name(code)
    failure = Failure(outcome, record.mode, (killed_by,) if killed_by else (), tail).of_program(program)
    lim = path.limitation_for(failure, version)
    if lim and lim.outcome:
        record.detail.limitation = lim.text
        return record.finish(lim.outcome, message)
    if lim:
        record.detail.known_issue = lim.text
    return record.finish(outcome, message)
