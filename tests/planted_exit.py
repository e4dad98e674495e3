"""Planted paths whose framework ends the process with ``sys.exit`` (as paddle2onnx does on an error), registered
in every process that imports this module (``--load tests.planted_exit``):

* ``torch.planted_exit_convert``: the conversion calls ``sys.exit(3)``;
* ``torch.planted_exit_run``: converts (eager), and running it calls ``sys.exit(-1)``.
"""

from __future__ import annotations

import sys

import conformance.paths.torch  # noqa: F401 - registers the real torch paths first
from conformance.paths.records import PathRecord, register


def _exit_converting(ctx):
    sys.exit(3)


def _exit_running(model, args, kwargs):
    sys.exit(-1)


register(PathRecord("torch", "planted_exit_convert", "its conversion calls sys.exit(3)", _exit_converting,
                    lambda model, args, kwargs: model(*args, **kwargs), default=False),
         PathRecord("torch", "planted_exit_run", "eager, whose run calls sys.exit(-1)", lambda ctx: ctx.model,
                    _exit_running, default=False))
