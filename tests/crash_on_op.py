"""Planted crashes for ``tests/test_crash_site.py`` (``--load tests.crash_on_op``), registered in every process:

* ``torch.planted_sigfpe_floordiv``: eager, but a tensor ``//`` kills the process with SIGFPE (what an integer
  division by zero does in a kernel without a check), so the crash happens on the model's line of that op;
* ``torch.planted_sigsegv_convert``: the conversion kills the process with SIGSEGV before the model runs (a
  crash no line of the model shows);
* ``torch.planted_sigfpe_known``: the first one, with a known-bug record of phase ``crash`` that names its
  SIGFPE on ``//`` (and nothing else).
"""

from __future__ import annotations

import os
import signal

import torch

import conformance.paths.torch  # noqa: F401 - registers the real torch paths first
from conformance.paths.records import Limitation, PathRecord, register


def _die(sig):
    os.kill(os.getpid(), sig)


def _sigfpe_on_floordiv(model, args, kwargs):
    original = torch.Tensor.__floordiv__
    torch.Tensor.__floordiv__ = lambda a, b: _die(signal.SIGFPE)
    try:
        return model(*args, **kwargs)
    finally:
        torch.Tensor.__floordiv__ = original


def _sigsegv(ctx):
    _die(signal.SIGSEGV)


register(PathRecord("torch", "planted_sigfpe_floordiv", "eager; a tensor // kills the process with SIGFPE",
                    lambda ctx: ctx.model, _sigfpe_on_floordiv, default=False),
         PathRecord("torch", "planted_sigsegv_convert", "a conversion that kills the process with SIGSEGV",
                    _sigsegv, lambda model, args, kwargs: model(*args, **kwargs), default=False),
         PathRecord("torch", "planted_sigfpe_known", "eager; a tensor // kills the process with SIGFPE, a known bug",
                    lambda ctx: ctx.model, _sigfpe_on_floordiv, default=False,
                    limitations=(Limitation("planted known bug: // dies of SIGFPE", phases=("crash",),
                                            errors=("SIGFPE",), ops=("floor_div", "ceil_div"), outcome=None),)))
