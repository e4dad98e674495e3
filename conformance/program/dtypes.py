"""Dtypes and edge values: which IR dtypes are floats or integers, how inputs of each are made, and the edge
values a program's inputs may carry (NaN, infinities, -0.0, huge and tiny magnitudes, ties).

The IR's ``float32`` is *the model's float*: the fp64 reference renders it as float64, and renders ``float16``
and ``bfloat16`` as float64 too, so a program computing in reduced precision is judged against the exact
result (the oracle's per-dtype tolerances and its rounding-noise rule, :mod:`conformance.judge.oracle`).
Integers and bools are the same in both runs: integer results are compared exactly, wrapping included.
"""

from __future__ import annotations

from typing import Optional

import numpy as np

from conformance.program.ir import DTYPES, ProgramError, TensorSpec

FLOATS = ("float32", "float16", "bfloat16", "float64")
INTS = ("int64", "int8", "uint8", "int32")
#: Dtypes an input may have (numpy has no bfloat16: it is reached by a cast inside the program).
INPUT_DTYPES = tuple(d for d in DTYPES if d != "bfloat16")
#: Input dtypes in the order the generator draws them: the safe box (float32) first, where shrinking goes.
DRAWN_DTYPES = ("float32", "float16", "float64", "int64", "int32", "int8", "uint8", "bool")
#: Edge-value kinds an input may carry (``TensorSpec.edge``), simplest first.
EDGE_KINDS = ("zero", "tie", "huge", "tiny", "nan", "inf")
#: Edge kinds that make a float non-finite somewhere (NaN or infinity): the oracle's NaN/Inf policy judges them.
NONFINITE = ("nan", "inf")
#: Value ranges of integer inputs per dtype: small ones, and ones reaching the ends of the type (overflow).
INT_RANGES = {"int8": (-128, 127), "uint8": (0, 255), "int32": (-2**31, 2**31 - 1), "int64": (-2**40, 2**40)}


def is_float(dtype: str) -> bool:
    return dtype in FLOATS


def is_int(dtype: str) -> bool:
    return dtype in INTS


def numpy_dtype(dtype: str) -> np.dtype:
    if dtype not in INPUT_DTYPES:
        raise ProgramError(f"no input of dtype {dtype!r}: inputs are one of {', '.join(INPUT_DTYPES)}")
    return np.dtype(dtype)


def edge_values(kind: str, dtype: str) -> np.ndarray:
    """The values an input of ``dtype`` with edge ``kind`` mixes in (one or more; ints have no NaN, infinity or
    subnormals: for them ``huge`` is the ends of the type, ``tiny`` and ``zero`` are 0, ``nan``/``inf`` none)."""
    if dtype == "bool":
        return np.array([False, True])
    if is_int(dtype):
        info = np.iinfo(dtype)
        return np.array({"zero": [0], "tie": [2, 2, 3], "huge": [info.min, info.max, info.max - 1]}
                        .get(kind, [0]), dtype=dtype).astype(dtype)
    info = np.finfo(dtype)
    values = {"zero": [0.0, -0.0], "tie": [0.5, 1.5, -0.5, 2.5, 1.0, 1.0], "huge": [info.max / 4, -info.max / 4],
              "tiny": [info.smallest_subnormal, -info.smallest_subnormal, info.tiny],
              "nan": [np.nan], "inf": [np.inf, -np.inf]}[kind]
    return np.array(values, dtype=dtype)


def literal(values, dtype: str) -> np.ndarray:
    """A ``TensorSpec.values`` tuple as a flat numpy array of ``dtype`` (``"nan"``, ``"inf"`` as strings)."""
    return np.array([float(v) if isinstance(v, str) else v for v in values]).astype(numpy_dtype(dtype))


def leaf_array(spec: TensorSpec, shape: tuple, rng: np.random.Generator) -> np.ndarray:
    """The values of one input leaf of ``shape``: its literal ``values``, else drawn from ``[low, high]`` with
    about a quarter of them (at least one) replaced by ``edge`` values."""
    dt = numpy_dtype(spec.dtype)
    if spec.values is not None:
        flat = literal(spec.values, spec.dtype)
        if flat.size != int(np.prod(shape)):
            raise ProgramError(f"{flat.size} values for a tensor of shape {list(shape)}")
        return flat.reshape(shape)
    if spec.dtype == "bool":
        return rng.random(size=shape) < 0.5
    if is_int(spec.dtype):
        info = np.iinfo(dt)
        lo, hi = max(int(spec.low), int(info.min)), min(int(spec.high), int(info.max))
        out = rng.integers(lo, hi, size=shape, endpoint=True, dtype=np.int64).astype(dt)
    else:
        out = rng.uniform(spec.low, spec.high, size=shape).astype(dt)
    if spec.edge and out.size:
        mixed = edge_values(spec.edge, spec.dtype)
        flat = out.reshape(-1)
        where = rng.random(flat.size) < 0.25
        where[rng.integers(flat.size)] = True
        flat[where] = rng.choice(mixed, size=int(where.sum()))
        if spec.edge == "tie":  # ties between neighbours too (argmax, sort): duplicate a drawn value
            flat[-1] = flat[0]
    return out


def check_spec(spec: TensorSpec, where: str) -> Optional[str]:
    """Why ``spec``'s dtype, edge or values are not usable (None when they are)."""
    if spec.dtype not in INPUT_DTYPES:
        return f"{where}: an input cannot be {spec.dtype} (no numpy dtype: cast to it inside the program)"
    if spec.edge and spec.edge not in EDGE_KINDS:
        return f"{where}: unknown edge kind {spec.edge!r}; known: {', '.join(EDGE_KINDS)}"
    if is_int(spec.dtype) and spec.values is None:
        info = np.iinfo(spec.dtype)
        if spec.high < info.min or spec.low > info.max:
            return f"{where}: values in [{spec.low}, {spec.high}] are outside {spec.dtype}"
    if spec.values is not None:
        if not all(isinstance(v, (int, float)) and not isinstance(v, bool) or v in ("nan", "inf", "-inf")
                   or isinstance(v, bool) for v in spec.values):
            return f"{where}: values are numbers, booleans, or 'nan', 'inf', '-inf'"
        static = all(isinstance(d, int) for d in spec.shape)
        if not static or len(spec.values) != int(np.prod(spec.shape)):
            return f"{where}: {len(spec.values)} values for shape {list(spec.shape)} (literal values need static dims)"
    return None
