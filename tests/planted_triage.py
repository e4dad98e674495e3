"""Deliberately wrong torch paths for the triage self-tests
(``conformance fuzz --load tests.planted_triage --paths planted_faults,planted_while``).

A conversion here rewrites the model's own source, and that conversion is also the path's
reproducer snippet, so a generated ``repro.py`` shows the same faults with nothing but torch and
numpy. ``planted_faults`` has three distinct faults, ``planted_while`` the first alone:

* every ``while`` loop stops after two iterations (wrong only where a loop runs more than twice);
* ``torch.sigmoid`` comes out 1% too large;
* a model with a ``dict`` input is refused with an error that names the input and an address.
"""

import conformance.paths.torch  # noqa: F401 - registers the real torch paths first
from conformance.paths.records import PathRecord, register

REPRO = '''
import inspect
import re


def convert(model, args, kwargs):
    source = inspect.getsource(type(model))
    for name, value in zip(ARG_NAMES, args):
        if "dict" in FAULTS and isinstance(value, dict):
            raise TypeError(f"cannot convert {type(model).__name__} at {hex(id(model))}: input {name!r} is a dict")
    if "while" in FAULTS:
        source = re.sub(r"while (\\w+) < (\\d+) and", r"while \\1 < min(\\2, 2) and", source)
    if "sigmoid" in FAULTS:
        source = source.replace("torch.sigmoid(", "1.01 * torch.sigmoid(")
    namespace = dict(vars(inspect.getmodule(type(model))))
    exec(compile(source, "<planted>", "exec"), namespace)
    converted = namespace[type(model).__name__]()
    converted.load_state_dict(model.state_dict())
    return converted.eval()
'''


def _planted(name: str, faults: tuple, description: str) -> PathRecord:
    snippet = f"FAULTS = {faults!r}\n" + REPRO

    def convert(ctx):
        namespace = {"ARG_NAMES": [i.name for i in ctx.program.inputs]}
        exec(snippet, namespace)
        return namespace["convert"](ctx.model, ctx.args, ctx.kwargs)
    return PathRecord("torch", name, description, convert, conformance.paths.torch._call, default=False,
                      repro=snippet)


register(_planted("planted_faults", ("while", "sigmoid", "dict"),
                  "caps while loops at 2 iterations, sigmoid 1% off, refuses dict inputs"),
         _planted("planted_while", ("while",), "caps while loops at 2 iterations"))
