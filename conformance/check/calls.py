"""How a user's call of their model becomes a case: the arguments bound to ``forward``'s signature, tensors
anywhere in them as numpy leaves, everything else a constant passed through as it is, and the input sets derived
from the example."""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Optional

import numpy as np

from conformance.program.case import map_tree
from conformance.program.ir import DTYPES, DYNAMIC, DictSpec, SeqSpec, TensorSpec, spec_leaves
from conformance.program.trees import flatten


class CheckError(ValueError):
    """The model or its inputs cannot be checked; the message says what is wrong and what to do."""


#: The Python values a model may take besides tensors, passed through to every path as they are.
CONSTANTS = (type(None), bool, int, float, str)


def is_constant(x) -> bool:
    return isinstance(x, CONSTANTS)


def holds_tensor(tree) -> bool:
    return any(isinstance(leaf, np.ndarray) for leaf in flatten(tree))


def leaf_to_numpy(x):
    """A tensor of any framework (or a numpy array or scalar) as a numpy array; a constant as it is."""
    if is_constant(x) or isinstance(x, np.ndarray):
        return x
    if isinstance(x, np.generic):
        return np.asarray(x)
    if hasattr(x, "detach"):  # torch
        return x.detach().cpu().numpy()
    if hasattr(x, "numpy"):  # paddle, tensorflow
        return np.asarray(x.numpy())
    raise CheckError(f"an input of type {type(x).__name__} is neither a tensor nor a constant (None, bool, int, "
                     f"float, str): conformance check cannot pass it to a converted model")


def forward_of(model, framework: str):
    """The function whose signature the model's inputs bind to: ``forward``, a Keras model's ``call``, a
    ``tf.Module``'s ``__call__``."""
    if framework != "tf":
        return model.forward
    call = getattr(model, "call", None)
    return call if callable(call) else model.__call__


@dataclass
class BoundCall:
    """A user's call of their model as every path is given it: ``args`` positional (trees of numpy arrays, with
    constants where the model takes them), ``kwargs`` the constants passed by keyword; ``names`` one per
    positional argument."""

    names: list
    args: list
    kwargs: dict


def bind_call(model, framework: str, args: list, kwargs: dict) -> BoundCall:
    """Bind the user's ``args`` and ``kwargs`` to the model's signature. Tensors go positionally (a tensor passed
    by keyword to a positional-or-keyword parameter included, with the defaults of the parameters skipped before
    it); constants after the last tensor go by keyword; raises :class:`CheckError` where they do not fit."""
    fn = forward_of(model, framework)
    signature = inspect.signature(fn)
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError as e:
        raise CheckError(f"the inputs do not match {type(model).__name__}.{fn.__name__}{signature}: {e}") from None
    P = inspect.Parameter
    positional: list = []  # (parameter, name, value)
    keywords: dict = {}
    skipped: list = []
    for p in signature.parameters.values():
        if p.name not in bound.arguments:
            if p.kind in (P.POSITIONAL_ONLY, P.POSITIONAL_OR_KEYWORD):
                skipped.append(p)
            if p.default is None and p.kind in (P.POSITIONAL_OR_KEYWORD, P.KEYWORD_ONLY):
                keywords[p.name] = None  # an optional input left out: None, said explicitly (FX's concrete_args)
            continue
        value = bound.arguments[p.name]
        if p.kind in (P.POSITIONAL_ONLY, P.POSITIONAL_OR_KEYWORD, P.VAR_POSITIONAL):
            positional += [(q, q.name, q.default) for q in skipped]
            for q in skipped:
                keywords.pop(q.name, None)
            skipped = []
        if p.kind == P.VAR_POSITIONAL:
            positional += [(p, f"{p.name}{i}", v) for i, v in enumerate(value)]
        elif p.kind == P.VAR_KEYWORD:
            keywords.update(value)
        elif p.kind == P.KEYWORD_ONLY:
            keywords[p.name] = value
        else:
            positional.append((p, p.name, value))
    while positional and positional[-1][0].kind == P.POSITIONAL_OR_KEYWORD and not holds_tensor(positional[-1][2]):
        p, name, value = positional.pop()
        keywords = {name: value, **keywords}
    for k, v in keywords.items():
        if holds_tensor(v):
            raise CheckError(f"keyword-only argument {k!r} is a tensor: the conversion paths take tensors "
                             f"positionally; make {k!r} a positional-or-keyword parameter of "
                             f"{type(model).__name__}.{fn.__name__}")
        if not is_constant(v):
            raise CheckError(f"keyword argument {k!r} is a {type(v).__name__}: only bool, int, float, str and None "
                             f"keyword arguments are supported")
    return BoundCall([name for _, name, _ in positional], [v for _, _, v in positional], keywords)


# ------------------------------------------------------------------ the IR signature


def _spec_of(value: np.ndarray, shape_spec) -> TensorSpec:
    shape = tuple(DYNAMIC if d is None else int(v) for d, v in zip(shape_spec, value.shape)) \
        if shape_spec is not None else tuple(value.shape)
    dtype = str(value.dtype)
    if dtype not in DTYPES:
        raise CheckError(f"input of dtype {value.dtype} is not supported (supported: {', '.join(DTYPES)})")
    finite = value[np.isfinite(value)] if value.dtype.kind == "f" else value
    lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 0.0)
    return TensorSpec(shape, dtype, lo, hi)


def _leaf_shape_spec(s):
    """The shape of one input_spec leaf: a tuple/list of ints and None, or an object with ``.shape``
    (``paddle.static.InputSpec``, ``tf.TensorSpec``, ``torch.Size``)."""
    shape = getattr(s, "shape", s)
    shape = list(shape.as_list() if hasattr(shape, "as_list") else shape)
    return [None if d is None or (isinstance(d, int) and d < 0) else int(d) for d in shape]


def _is_spec_leaf(s) -> bool:
    return hasattr(s, "shape") or (isinstance(s, (list, tuple)) and all(d is None or isinstance(d, int) for d in s))


#: The IR spec of a constant inside the positional inputs: it holds no tensor, so the tensor names (and the
#: ONNX and ``InputSpec`` inputs named after them) skip it.
NO_TENSOR = SeqSpec("tuple", ())


def signature_of(value, spec, where: str):
    """The IR spec of one positional input (``spec``: its part of the user's ``input_spec``, or None)."""
    if is_constant(value):
        return NO_TENSOR
    if isinstance(value, np.ndarray):
        shape_spec = _leaf_shape_spec(spec) if spec is not None else None
        if shape_spec is not None and len(shape_spec) != value.ndim:
            raise CheckError(f"input_spec for {where} has rank {len(shape_spec)}, the input has shape "
                             f"{list(value.shape)}")
        return _spec_of(value, shape_spec)
    if spec is not None and _is_spec_leaf(spec):
        raise CheckError(f"input_spec for {where} is a tensor spec, the input is a {type(value).__name__}")
    if isinstance(value, dict):
        sub = spec or {}
        return DictSpec(tuple((str(k), signature_of(v, sub.get(k), f"{where}[{k!r}]")) for k, v in value.items()))
    sub = spec or [None] * len(value)
    if len(sub) != len(value):
        raise CheckError(f"input_spec for {where} has {len(sub)} items, the input has {len(value)}")
    return SeqSpec("list" if isinstance(value, list) else "tuple",
                   tuple(signature_of(v, s, f"{where}[{i}]") for i, (v, s) in enumerate(zip(value, sub))))


def default_dynamic(args) -> Optional[list]:
    """Without an input_spec: dim 0 of every tensor is dynamic when all tensors share its size (a batch)."""
    leaves = [leaf for leaf in arrays(args) if leaf.ndim >= 1]
    if leaves and len({leaf.shape[0] for leaf in leaves}) == 1:
        return map_tree(lambda a: ([None] + list(a.shape[1:]) if a.ndim else [])
                        if isinstance(a, np.ndarray) else None, args)
    return None


def arrays(tree) -> list:
    """The numpy leaves of an input tree (constants left out)."""
    return [leaf for leaf in flatten(tree) if isinstance(leaf, np.ndarray)]


def spec_arrays(specs) -> list[TensorSpec]:
    return [leaf for s in specs for _, leaf in spec_leaves(s)]


# ------------------------------------------------------------------ derived input sets


def derive(args: list, kwargs: dict, dynamic: bool, rng: np.random.Generator) -> list[tuple[str, list, dict]]:
    """Input sets that test generalisation, made from the example (see :func:`conformance.check.check`)."""

    def values(a, redraw: bool):
        if not isinstance(a, np.ndarray):
            return a
        if a.dtype.kind == "f":
            if redraw:
                finite = a[np.isfinite(a)]
                mean, std = (float(finite.mean()), float(finite.std())) if finite.size else (0.0, 1.0)
                return rng.normal(mean, std or 1.0, a.shape).astype(a.dtype)
            return -a
        if a.dtype.kind == "b":
            return rng.random(a.shape) < 0.5 if redraw else ~a
        return rng.permutation(a.reshape(-1)).reshape(a.shape)

    sets = [("values", map_tree(lambda a: values(a, False), args), dict(kwargs)),
            ("values", map_tree(lambda a: values(a, True), args), dict(kwargs))]
    if dynamic:
        size = next(a for a in arrays(args) if a.ndim).shape[0]
        rows = rng.integers(0, size, size + 1)
        sets.append(("batch", map_tree(lambda a: a[rows] if isinstance(a, np.ndarray) and a.ndim else a, args),
                     dict(kwargs)))
    for name, v in kwargs.items():
        if isinstance(v, bool):
            sets.append(("kwargs", args, {**kwargs, name: not v}))
    return sets


def same_arrays(a, b) -> bool:
    x, y = flatten(a), flatten(b)
    return len(x) == len(y) and all(
        (u.shape == v.shape and np.array_equal(u, v)) if isinstance(u, np.ndarray) and isinstance(v, np.ndarray)
        else (type(u) is type(v) and u == v) for u, v in zip(x, y))
