"""What a run prints and raises: frameworks' output captured (C++ logs too), exceptions as text, and whether an
exception is this project's own failure (:func:`harness_fault`: a ``harness_error`` record, never a finding)."""

from __future__ import annotations

import contextlib
import os
import re
import sys
import tempfile
import traceback
from typing import Iterator, Optional

from conformance.run.records import ResultDetail, ResultRecord

_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def error_text(e: BaseException) -> str:
    """``Type: message``; a bare exception (an ``assert`` deep in a framework) says where it was raised, and so does
    a ``SystemExit`` (a framework that ends the process on an error), with its exit code."""
    text = f"{type(e).__name__}: " + (f"sys.exit({e.code!r}) " if isinstance(e, SystemExit) else str(e))
    if (not str(e) or isinstance(e, SystemExit)) and e.__traceback__ is not None:
        frame = traceback.extract_tb(e.__traceback__)[-1]
        text += f"(raised at {os.path.basename(frame.filename)}:{frame.lineno} in {frame.name}: {frame.line})"
    return _ANSI.sub("", text)


@contextlib.contextmanager
def output_to(file) -> Iterator[None]:
    """Send what is printed to fd 1 and 2 meanwhile (frameworks' C++ logs too) to ``file`` (an open file)."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = [os.dup(1), os.dup(2)]
    os.dup2(file.fileno(), 1)
    os.dup2(file.fileno(), 2)
    try:
        yield
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for fd in saved:
            os.close(fd)


@contextlib.contextmanager
def printed_output() -> Iterator[list]:
    """Capture what is printed to fd 1 and 2 meanwhile instead of showing it: the list yielded gets the text
    (ANSI colours removed) when the block ends."""
    text: list = []
    with tempfile.TemporaryFile() as tmp:
        try:
            with output_to(tmp):
                yield text
        finally:
            tmp.seek(0)
            text.append(_ANSI.sub("", tmp.read().decode(errors="replace")))


@contextlib.contextmanager
def captured_output(detail: ResultDetail, keep: int = 2000):
    """Capture what the framework prints to fd 1 and 2 (C++ too) into ``detail.output_tail`` (its tail)."""
    text: list = []
    try:
        with printed_output() as text:
            yield
    finally:
        if text and text[0].strip():
            detail.output_tail = ((detail.output_tail or "") + text[0])[-keep:]


_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


#: What a mistake in Python code raises. (Frameworks raise ``RuntimeError``, ``ValueError``... from C++, and such an
#: exception looks raised by the line of this project that called into the framework.)
_PROGRAMMING_ERRORS = (NameError, UnboundLocalError, AttributeError, KeyError, IndexError, TypeError, AssertionError,
                       ZeroDivisionError)


def harness_fault(e: BaseException) -> Optional[str]:
    """Where this project's own code raised ``e``, or None: a programming error (``TypeError``, ``KeyError``,
    ``AttributeError``...) raised in a frame of the ``conformance`` package is this project's bug, never a
    framework's finding. (The exception classes the paths define to describe a framework's behaviour, and whatever
    a framework raises, are results; so is a ``SystemExit`` a framework raises, unless this project's code did.)"""
    if (type(e) not in _PROGRAMMING_ERRORS and not isinstance(e, SystemExit)) or e.__traceback__ is None:
        return None
    frame = traceback.extract_tb(e.__traceback__)[-1]
    if not os.path.abspath(frame.filename).startswith(_PACKAGE + os.sep):
        return None
    return f"{os.path.relpath(frame.filename, os.path.dirname(_PACKAGE))}:{frame.lineno} in {frame.name}"


def harness_error(record: ResultRecord, e: BaseException, where: str, during: str) -> ResultRecord:
    record.detail.traceback = short(traceback.format_exc(), 4000)
    return record.finish("harness_error", f"this project's code raised {short(error_text(e), 600)} at {where} "
                                          f"({during})")


def eager_refusal(record: ResultRecord, e: BaseException, what: str = "the program") -> ResultRecord:
    """Eager itself raises on the program (an integer division by zero, a dtype its kernels lack): there is no
    reference to judge any path against, so the record is ``discarded`` ("eager refuses ..."), never a finding.
    (A path that raises where eager does not is still a ``runtime_error``.)"""
    record.detail.traceback = short(traceback.format_exc(), 4000)
    return record.finish("discarded", f"eager refuses {what}: {short(error_text(e))}")


def out_of_memory(e: BaseException) -> bool:
    return isinstance(e, MemoryError) or "can't allocate memory" in str(e) or "std::bad_alloc" in str(e)


def short(text: str, n: int = 2000) -> str:
    return text if len(text) <= n else text[: n // 2] + "\n...\n" + text[-n // 2:]
