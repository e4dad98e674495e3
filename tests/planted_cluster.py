"""Torch paths that segfault or hang on a few cases only, chosen by the program's id (the same cases on every
run and machine), registered for the cluster tests (``--load tests.planted_cluster``): a campaign of a few dozen
cases meets some of each without paying a crash or a timeout on every case.
"""

import hashlib
import os
import signal
import time

import conformance.paths.torch  # noqa: F401 - registers the real torch paths first
from conformance.paths.records import PathRecord, register

#: One case in this many segfaults (``planted_segv_some``) and one in this many hangs (``planted_hang_some``).
EVERY = 10


def bucket(program_id: str, salt: str) -> bool:
    """Whether the planted fault ``salt`` strikes the program ``program_id``."""
    return int(hashlib.sha256(f"{salt}:{program_id}".encode()).hexdigest(), 16) % EVERY == 0


def _segv_some(ctx):
    if bucket(ctx.program.id, "segv"):
        os.kill(os.getpid(), signal.SIGSEGV)
    return ctx.model


def _hang_some(ctx):
    if bucket(ctx.program.id, "hang"):
        while True:
            time.sleep(0.1)
    return ctx.model


def _eager_run(model, args, kwargs):
    import torch

    with torch.no_grad():
        return model(*args, **kwargs)


register(
    PathRecord("torch", "planted_segv_some", "segfaults while converting one program in ten", _segv_some,
               _eager_run, default=False),
    PathRecord("torch", "planted_hang_some", "hangs while converting one program in ten", _hang_some, _eager_run,
               default=False),
)
