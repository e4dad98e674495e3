"""Torch paths that hang or kill their process, registered for ``conformance check``'s isolation self-tests: a
path that hangs must be a ``timeout`` and one that segfaults a ``crash``, and the paths after them still run."""

from __future__ import annotations

import os
import signal
import time
from dataclasses import replace

import conformance.paths.torch  # noqa: F401 - registers the real torch paths first
from conformance.paths.records import PATHS, register


def _hang(ctx):
    time.sleep(3600)


def _segfault(ctx):
    os.kill(os.getpid(), signal.SIGSEGV)


register(replace(PATHS["torch.eager"], name="planted_hang", convert=_hang, reference=False, default=False,
                 description="a conversion that never returns"),
         replace(PATHS["torch.eager"], name="planted_segfault", convert=_segfault, reference=False, default=False,
                 description="a conversion that kills its process with SIGSEGV"))
