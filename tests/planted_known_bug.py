"""A torch path with a planted known bug, registered for the steering self-tests (``--load tests.planted_known_bug``):
it refuses to convert any program that uses ``tanh`` (the framework's words: ``planted: no tanh``), and its known-bug
record names that failure, selected by the op."""

import conformance.paths.torch  # noqa: F401 - registers the real torch paths first
from conformance.paths.records import Limitation, PathRecord, register

PLANTED_BUG = Limitation("planted known bug: a program with tanh does not convert", phases=("convert",),
                         errors=("RuntimeError",), message="planted: no tanh", outcome=None, ops=("tanh",))


def _convert(ctx):
    if "tanh" in ctx.program.ops():
        raise RuntimeError("planted: no tanh")
    return ctx.model


register(PathRecord("torch", "planted_known_bug", "eager, except that a program with tanh does not convert (planted)",
                    _convert, lambda model, args, kwargs: model(*args, **kwargs), limitations=(PLANTED_BUG,),
                    default=False))
