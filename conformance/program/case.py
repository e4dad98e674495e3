"""A case: a program plus the input sets it is run on, and how to make concrete inputs.

An :class:`InputSet` is small data (batch size, a value seed, keyword-argument values); the arrays
themselves are made from it deterministically by :func:`materialize`, so a case file stays small and
still names exact inputs. The first input set is the *example* a path converts with; the others are
*fresh* inputs that test generalisation: other values (which may take the other branch), another
size along the dynamic dim, other kwarg values.
"""

from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import dataclass
from typing import Any

import numpy as np

from conformance.program.dtypes import leaf_array
from conformance.program.ir import DictSpec, ProgramError, SeqSpec, Spec, TensorSpec
from conformance.program.program import Program
from conformance.program.trees import flatten, map_tree, unflatten  # noqa: F401 - re-exported

ROLES = ("example", "values", "batch", "kwargs")
#: The largest batch a case file may ask for (generated cases stay within ``ops.MAX_BATCH``).
MAX_CASE_BATCH = 64


@dataclass(frozen=True)
class InputSet:
    role: str
    batch: int
    seed: int
    kwargs: tuple[tuple[str, Any], ...] = ()

    def to_dict(self) -> dict:
        return {"role": self.role, "batch": self.batch, "seed": self.seed, "kwargs": dict(self.kwargs)}

    @classmethod
    def from_dict(cls, d: dict) -> "InputSet":
        return cls(d["role"], int(d["batch"]), int(d["seed"]), tuple(sorted(d.get("kwargs", {}).items())))


@dataclass(frozen=True)
class Case:
    program: Program
    inputs: tuple[InputSet, ...]

    @functools.cached_property  # a case never changes: its hash is computed once
    def id(self) -> str:
        h = hashlib.sha256(json.dumps(self.to_dict(), sort_keys=True).encode()).hexdigest()
        return h[:12]

    @property
    def example(self) -> InputSet:
        return self.inputs[0]

    def to_dict(self) -> dict:
        return {"program": self.program.to_dict(), "inputs": [i.to_dict() for i in self.inputs]}

    @classmethod
    def from_dict(cls, d: Any) -> "Case":
        if not isinstance(d, dict) or "program" not in d or "inputs" not in d:
            raise ProgramError("a case is a JSON object with 'program' and 'inputs'")
        program = Program.from_dict(d["program"])
        try:
            inputs = tuple(InputSet.from_dict(i) for i in d["inputs"])
        except (KeyError, TypeError, ValueError) as e:
            raise ProgramError(f"malformed input set: {type(e).__name__}: {e}") from None
        if not inputs:
            raise ProgramError("a case needs at least one input set")
        from conformance.program.typecheck import check_kwarg_value

        for s in inputs:
            if s.role not in ROLES:
                raise ProgramError(f"unknown input-set role {s.role!r}; known: {', '.join(ROLES)}")
            if not 1 <= s.batch <= MAX_CASE_BATCH:
                raise ProgramError(f"batch must be in 1..{MAX_CASE_BATCH}, got {s.batch}")
            for name, value in s.kwargs:
                check_kwarg_value(program, name, value)
        return cls(program, inputs)


def _build(spec: Spec, batch: int, rng: np.random.Generator):
    if isinstance(spec, TensorSpec):
        return leaf_array(spec, spec.type.concrete(batch), rng)
    if isinstance(spec, SeqSpec):
        items = [_build(i, batch, rng) for i in spec.items]
        return items if spec.kind == "list" else tuple(items)
    if isinstance(spec, DictSpec):
        return {k: _build(v, batch, rng) for k, v in spec.items}
    raise ProgramError(f"not an input spec: {spec!r}")


def materialize(program: Program, inputs: InputSet) -> tuple[list, dict]:
    """Concrete numpy inputs: (positional args as nested list/tuple/dict trees, kwargs)."""
    rng = np.random.default_rng([program.seed, inputs.seed])
    args = [_build(i.spec, inputs.batch, rng) for i in program.inputs]
    kwargs = {k.name: k.default for k in program.kwargs}
    kwargs.update(dict(inputs.kwargs))
    return args, kwargs


def save_inputs(path, program: Program, inputs: InputSet) -> None:
    """Write concrete inputs to an ``.npz`` (leaf paths as keys, kwargs as JSON) for reproducers."""
    args, kwargs = materialize(program, inputs)
    arrays = {}
    for inp, value in zip(program.inputs, args):
        _collect(arrays, inp.name, value)
    arrays["__kwargs__"] = np.array(json.dumps(kwargs))
    np.savez(path, **arrays)


def _collect(out: dict, prefix: str, value) -> None:
    if isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            _collect(out, f"{prefix}.{i}", v)
    elif isinstance(value, dict):
        for k, v in value.items():
            _collect(out, f"{prefix}.{k}", v)
    else:
        out[prefix] = value
