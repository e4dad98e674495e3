"""The conversion of the planted triage paths (:mod:`tests.planted_triage`): it rewrites the model's own
source. Standalone (see :mod:`conformance.paths.standalone`), so a generated ``repro.py`` copies it and
shows the same faults with nothing but torch and numpy."""

import inspect
import re


def rewrite_source(ctx, faults: tuple):
    """A copy of ``ctx.model`` built from its class's source with ``faults`` planted: ``while`` (every
    ``while`` loop stops after two iterations), ``sigmoid`` (``torch.sigmoid`` 1% too large), ``dict`` (a
    dict input is refused with an error that names the input and an address)."""
    model = ctx.model
    source = inspect.getsource(type(model))
    for name, value in zip(ctx.arg_names, ctx.args):
        if "dict" in faults and isinstance(value, dict):
            raise TypeError(f"cannot convert {type(model).__name__} at {hex(id(model))}: input {name!r} is a dict")
    if "while" in faults:
        source = re.sub(r"while (\w+) < (\d+) and", r"while \1 < min(\2, 2) and", source)
    if "sigmoid" in faults:
        source = source.replace("torch.sigmoid(", "1.01 * torch.sigmoid(")
    namespace = dict(vars(inspect.getmodule(type(model))))
    exec(compile(source, "<planted>", "exec"), namespace)
    converted = namespace[type(model).__name__]()
    converted.load_state_dict(model.state_dict())
    return converted.eval()
