"""A standalone conversions module for tests/test_standalone.py: only stdlib imports, module-level code."""

import math

from conformance.program.trees import FlatOutputs, flatten

SCALE = 2.0


class Wrapped:
    def __init__(self, fn):
        self.fn = fn

    def __call__(self, x):
        return self.fn(x) * SCALE


def _helper(x):
    return math.floor(x)


def convert(ctx, offset=0):
    return Wrapped(lambda x: _helper(x) + offset)


def unused():
    return "never copied"


def run_flat(fn, args):
    """Uses a standalone conformance module: its definitions are copied, not imported."""
    return FlatOutputs(flatten(fn(*args)))
