"""The oracle: is a converted model's output the eager output, up to rounding?

Rules, in order (anchors: ``torch.testing.assert_close``, TorchDynamo's ``same()``, Polygraphy,
tf2onnx's harness):

1. **Structure** (tuple / list / dict and their keys), then **shape** and **dtype**, compared exactly.
2. **Non-finite values**: the candidate's NaN/+Inf/-Inf must sit exactly where eager's do. NaN where
   eager is finite is a mismatch, and so is a finite value where eager overflowed.
3. **Values** (floats): an element passes if it is close to eager (``|c - e| <= atol + rtol*|e|``,
   ``assert_close``'s per-dtype defaults), or, given an fp64 reference ``r``, if its error against
   ``r`` is within ``multiplier`` times the rounding noise expected at that element, plus the same
   tolerance: ``|c - r| <= m * noise + atol + rtol*|r|``. The noise at an element is the largest of
   eager's own error there ``|e - r|``, how far eager moves when its inputs and weights are nudged by one
   ulp (``noise``, when given: it measures cancellation that eager happened to get right), and eager's
   worst error in the tensor scaled by the element's magnitude relative to the tensor's largest. So
   reordered sums and fused kernels are not reported, while a value of magnitude ~1 off by 1e-4
   relative is, also beside much larger values. ``ptol`` allows a fraction of failing elements, rounded up
   (default 0; any ``ptol > 0`` allows one element of a small leaf). Ints and bools must be equal.
4. **Python values** (a returned ``int``, ``float`` or ``bool``, as a path returns it or as a 0-d tensor): the
   kind must be eager's (a Python ``int`` where eager has a ``float`` is a mismatch, and so is a float where eager
   has an int); ints and bools exactly, floats by rule 3 with float32's tolerances (a Python float computed from
   the model's tensors carries their rounding). A path may return a 0-d tensor where eager returns a Python
   number of the same kind (a graph has no Python values), and the other way round.
5. **Dict keys** in eager's order: a dict built in ``forward`` keeps insertion order, and a path that returns its
   keys in another order (sorted) returns another dict to a caller that iterates it.

:func:`diagnose` returns a :class:`Report` (max abs/rel error, worst index, mismatch fraction, the
smallest atol and rtol that would pass, as Polygraphy prints them); :func:`assert_parity` raises
:class:`ParityError` with that report. :func:`branch_stability` is the branch-flip guard: it compares
the decisions and threshold distances recorded by the probed fp32 and fp64 eager runs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Optional

import numpy as np

#: (rtol, atol) per dtype: ``torch.testing.assert_close`` defaults.
TOLERANCES = {
    "float16": (1e-3, 1e-5),
    "bfloat16": (1.6e-2, 1e-5),
    "float32": (1.3e-6, 1e-5),
    "float64": (1e-7, 1e-7),
}
#: How many times eager's own error against fp64 a candidate may have (TorchDynamo's ``same()``).
MULTIPLIER = {"float16": 3.0, "bfloat16": 3.0, "float32": 2.0, "float64": 2.0}


@dataclass
class LeafReport:
    """The verdict for one output tensor (``path`` like ``[1]['out0']``)."""

    path: str
    ok: bool
    kind: Optional[str] = None  # one of conformance.paths.records.DIVERGENCES
    message: str = ""
    max_abs_err: float = 0.0
    max_rel_err: float = 0.0
    worst_index: Optional[tuple] = None
    mismatch_fraction: float = 0.0
    required_atol: float = 0.0
    required_rtol: float = 0.0


@dataclass
class Report:
    """The oracle's verdict for one output tree. ``ok`` is the gate; the rest is diagnosis."""

    leaves: list[LeafReport] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(leaf.ok for leaf in self.leaves)

    @property
    def failures(self) -> list[LeafReport]:
        return [leaf for leaf in self.leaves if not leaf.ok]

    @property
    def kind(self) -> Optional[str]:
        """What the first failure is about (structure, shape, dtype, nonfinite, value) or None."""
        return self.failures[0].kind if self.failures else None

    @property
    def max_abs_err(self) -> float:
        return max((leaf.max_abs_err for leaf in self.leaves), default=0.0)

    @property
    def max_rel_err(self) -> float:
        return max((leaf.max_rel_err for leaf in self.leaves), default=0.0)

    def summary(self) -> str:
        if self.ok:
            return f"pass (max abs err {self.max_abs_err:.3g}, max rel err {self.max_rel_err:.3g})"
        return "; ".join(f"{f.path or 'output'}: {f.message}" for f in self.failures)

    def __str__(self) -> str:
        rows = [f"{'output':<16} {'verdict':<10} {'max abs':>10} {'max rel':>10} {'mismatch':>9} "
                f"{'need atol':>10} {'need rtol':>10}  worst index / message"]
        for leaf in self.leaves:
            rows.append(f"{leaf.path or 'output':<16} {'ok' if leaf.ok else leaf.kind:<10} {leaf.max_abs_err:>10.3g} "
                        f"{leaf.max_rel_err:>10.3g} {leaf.mismatch_fraction:>9.2%} {leaf.required_atol:>10.3g} "
                        f"{leaf.required_rtol:>10.3g}  {leaf.worst_index if leaf.ok else leaf.message}")
        return "\n".join(rows)

    def to_dict(self) -> dict:
        """JSON-ready (non-finite numbers become null)."""
        return {"ok": self.ok, "kind": self.kind, "max_abs_err": finite_or_none(self.max_abs_err),
                "max_rel_err": finite_or_none(self.max_rel_err),
                "failures": [{"path": f.path, "kind": f.kind, "message": f.message,
                              "mismatch_fraction": f.mismatch_fraction,
                              "worst_index": list(f.worst_index) if f.worst_index is not None else None,
                              "required_atol": finite_or_none(f.required_atol),
                              "required_rtol": finite_or_none(f.required_rtol)}
                             for f in self.failures]}


def finite_or_none(x: float) -> Optional[float]:
    return float(x) if x is not None and np.isfinite(x) else None


class ParityError(AssertionError):
    """Raised by :func:`assert_parity`; ``.report`` holds the full :class:`Report`."""

    def __init__(self, report: Report):
        super().__init__(f"outputs differ from eager:\n{report}")
        self.report = report


def _as_array(x) -> Any:
    if isinstance(x, np.ndarray):
        return x
    if isinstance(x, (bool, int, float, np.generic)):
        return np.asarray(x)
    return x


def _allowed_failures(ptol: float, size: int) -> int:
    """How many of ``size`` elements may fail: the fraction ``ptol`` of them, rounded up."""
    return math.ceil(round(ptol * size, 9))  # round: 0.02 * 50 is 1.0000000000000002


def _compare_leaf(path: str, c, e, r, n, rtol, atol, multiplier, ptol, float64_as, tail) -> LeafReport:
    c, e = _as_array(c), _as_array(e)
    if not isinstance(c, np.ndarray) or not isinstance(e, np.ndarray):
        return LeafReport(path, False, "structure", f"expected an array, got {type(c).__name__}")
    if c.shape != e.shape:
        return LeafReport(path, False, "shape", f"shape {list(c.shape)} != eager {list(e.shape)}")
    if c.dtype != e.dtype:
        return LeafReport(path, False, "dtype", f"dtype {c.dtype} != eager {e.dtype}")
    if c.dtype.kind not in "fc":
        bad = c != e
        frac = float(bad.mean()) if bad.size else 0.0
        worst = tuple(int(i) for i in np.unravel_index(np.argmax(bad), bad.shape)) if bad.any() else None
        ok = int(bad.sum()) <= _allowed_failures(ptol, bad.size)
        return LeafReport(path, ok, None if ok else "value",
                          "" if ok else f"{int(bad.sum())} of {bad.size} values differ, first at {worst}",
                          worst_index=worst, mismatch_fraction=frac,
                          max_abs_err=float(np.abs(c.astype(np.float64) - e.astype(np.float64)).max())
                          if c.size else 0.0)
    name = float64_as if float64_as and e.dtype == np.float64 else str(e.dtype)
    d_rtol, d_atol = TOLERANCES.get(name, TOLERANCES["float32"])
    rtol = d_rtol if rtol is None else rtol
    atol = d_atol if atol is None else atol
    m = MULTIPLIER.get(name, 2.0) if multiplier is None else multiplier
    c64, e64 = c.astype(np.float64), e.astype(np.float64)
    fin_c, fin_e = np.isfinite(c64), np.isfinite(e64)
    same_nonfinite = (~fin_c & ~fin_e) & ((np.isnan(c64) & np.isnan(e64)) | (c64 == e64))
    bad_nonfinite = (fin_c != fin_e) | (~fin_c & ~fin_e & ~same_nonfinite)
    if bad_nonfinite.any():
        idx = tuple(int(i) for i in np.unravel_index(np.argmax(bad_nonfinite), c.shape))
        what = "NaN/Inf where eager is finite" if (~fin_c & fin_e).any() else "finite where eager is NaN/Inf"
        return LeafReport(path, False, "nonfinite", f"{what} at {idx} (candidate {c[idx]}, eager {e[idx]})",
                          worst_index=idx, mismatch_fraction=float(bad_nonfinite.mean()),
                          max_abs_err=float("inf"), max_rel_err=float("inf"),
                          required_atol=float("inf"), required_rtol=float("inf"))
    both = fin_c & fin_e
    with np.errstate(invalid="ignore"):
        diff = np.where(both, np.abs(c64 - e64), 0.0)
    allowed = atol + rtol * np.abs(e64)
    ok_elem = diff <= allowed
    if r is not None:
        r64 = np.asarray(r, dtype=np.float64)
        fin_r = np.isfinite(r64) & both
        with np.errstate(invalid="ignore"):
            err_e = np.where(fin_r, np.abs(e64 - r64), 0.0)
            err_c = np.where(fin_r, np.abs(c64 - r64), np.inf)
        mag = np.abs(np.where(fin_r, r64, 0.0))
        worst, largest = (float(err_e.max()), float(mag.max())) if err_e.size else (0.0, 0.0)
        noise = np.maximum(err_e, worst * mag / largest if largest > 0 else 0.0)
        if n is not None:
            with np.errstate(invalid="ignore"):
                nudged = np.where(fin_r, np.abs(np.asarray(n, np.float64) - e64), 0.0)
            noise = np.maximum(noise, np.where(np.isfinite(nudged), nudged, 0.0))
        scaled = m * noise if tail == 1.0 else np.minimum(tail * m * noise, m * (noise.max() if noise.size else 0.0))
        allowed_r = scaled + atol + rtol * mag
        ok_elem |= err_c <= allowed_r
        allowed = np.maximum(allowed, np.where(fin_r, allowed_r, 0.0))
    ok_elem |= ~both
    size = c.size
    frac = float((~ok_elem).mean()) if size else 0.0
    excess = np.where(both, diff - allowed, -np.inf)  # a NaN or Inf that eager has too is never the worst element
    worst = tuple(int(i) for i in np.unravel_index(np.argmax(excess), c.shape)) if size else None
    rel = diff / np.maximum(np.abs(e64), np.finfo(np.float64).tiny)
    max_abs = float(diff.max()) if size else 0.0
    max_rel = float(np.where(diff > 0, rel, 0.0).max()) if size else 0.0
    ok = int((~ok_elem).sum()) <= _allowed_failures(ptol, size)
    msg = "" if ok else (f"{int((~ok_elem).sum())} of {size} values differ; worst at {worst}: candidate {c[worst]!r}, "
                         f"eager {e[worst]!r}" + (f", fp64 {np.asarray(r)[worst]!r}" if r is not None else ""))
    return LeafReport(path, ok, None if ok else "value", msg, max_abs, max_rel, worst, frac, max_abs, max_rel)


_PY = (bool, int, float)


def _is_python(x) -> bool:
    """A Python number (a numpy scalar such as ``np.float64``, a subclass of ``float``, is an array's element)."""
    return isinstance(x, _PY) and not isinstance(x, np.generic)


def _kind(x) -> Optional[str]:
    """``bool``, ``int`` or ``float`` for a Python number or a 0-d array of one (else None)."""
    if _is_python(x):
        return type(x).__name__
    a = np.asarray(x) if isinstance(x, np.generic) else x
    if isinstance(a, np.ndarray) and a.shape == () and a.dtype.kind in "biuf":
        return {"b": "bool", "f": "float"}.get(a.dtype.kind, "int")
    return None


def _compare_python(path: str, c, e, r, n, opts) -> LeafReport:
    """Rule 4: a Python number of eager's (or the candidate's) against the other side."""
    want, got = _kind(e), _kind(c)
    if got is None:
        return LeafReport(path, False, "structure", f"{type(c).__name__} where eager returns a Python {want}")
    if want != got:
        return LeafReport(path, False, "dtype", f"a {got} ({c!r}) where eager returns a {want} ({e!r})")
    if want != "float":
        ok = bool(np.asarray(c) == np.asarray(e))
        return LeafReport(path, ok, None if ok else "value", "" if ok else f"{c!r} != eager {e!r}",
                          max_abs_err=abs(float(np.asarray(c, np.float64)) - float(np.asarray(e, np.float64))))
    as64 = lambda x: None if x is None else np.asarray(x, np.float64)  # noqa: E731
    rtol, atol, multiplier, ptol, _, tail = opts
    return _compare_leaf(path, as64(c), as64(e), as64(r), as64(n), rtol, atol, multiplier, ptol, "float32", tail)


def _walk(path: str, c, e, r, n, out: list, opts) -> None:
    sub = lambda tree, key: None if tree is None else tree[key]  # noqa: E731
    if isinstance(e, (list, tuple)):
        if type(c) is not type(e) or len(c) != len(e):
            out.append(LeafReport(path, False, "structure",
                                  f"{type(c).__name__} of {len(c) if hasattr(c, '__len__') else '?'} != eager "
                                  f"{type(e).__name__} of {len(e)}"))
            return
        for i, (ci, ei) in enumerate(zip(c, e)):
            _walk(f"{path}[{i}]", ci, ei, sub(r, i), sub(n, i), out, opts)
    elif isinstance(e, dict):
        if not isinstance(c, dict) or set(c) != set(e):
            keys = sorted(c) if isinstance(c, dict) else type(c).__name__
            out.append(LeafReport(path, False, "structure", f"{keys} != eager keys {sorted(e)}"))
            return
        if list(c) != list(e):
            out.append(LeafReport(path, False, "key_order", f"keys in the order {list(c)} != eager's order {list(e)}"))
            return
        for k in e:
            _walk(f"{path}[{k!r}]", c[k], e[k], sub(r, k), sub(n, k), out, opts)
    else:
        if isinstance(c, (list, tuple, dict)):
            out.append(LeafReport(path, False, "structure", f"{type(c).__name__} != eager tensor"))
            return
        if _is_python(e) or _is_python(c):
            out.append(_compare_python(path, c, e, r, n, opts))
            return
        out.append(_compare_leaf(path, c, e, r, n, *opts))


def diagnose(candidate, eager, reference=None, *, noise=None, rtol: Optional[float] = None,
             atol: Optional[float] = None, multiplier: Optional[float] = None, ptol: float = 0.0,
             float64_as: Optional[str] = None, tail: float = 1.0) -> Report:
    """Compare a candidate output tree with eager's (numpy arrays in nested tuple/list/dict).

    :param reference: eager's output computed in float64 (same structure), or None.
    :param noise: eager's output with inputs and weights nudged by one ulp (same structure), or None: a per-element
        measure of rounding sensitivity, used with ``reference``.
    :param rtol, atol: override the per-dtype defaults of :data:`TOLERANCES`.
    :param multiplier: how many times the expected rounding noise the candidate may have.
    :param ptol: the fraction of elements allowed to fail, rounded up to a whole element (so one in any leaf where
        it is above 0).
    :param float64_as: the float dtype whose tolerance rule judges float64 leaves (a candidate that computes float64
        in float32: ``PathRecord.float64_as``), or None.
    :param tail: how many times its own rounding noise an element may have, never more than the leaf's noisiest
        element may (:mod:`conformance.judge.precision`'s tail); 1: its own.
    """
    out: list[LeafReport] = []
    _walk("", candidate, eager, reference, noise, out, (rtol, atol, multiplier, ptol, float64_as, tail))
    return Report(out)


def assert_parity(candidate, eager, reference=None, **options) -> Report:
    """Like :func:`diagnose`, but raise :class:`ParityError` when the outputs differ."""
    report = diagnose(candidate, eager, reference, **options)
    if not report.ok:
        raise ParityError(report)
    return report


# ------------------------------------------------------------------ branch-flip guard

#: A data-dependent threshold closer than this (relative to the operands) makes a case unstable.
GUARD_RTOL = 1e-4
#: ...or closer than this many times the fp32-vs-fp64 difference at that point.
GUARD_NOISE = 10.0
GUARD_ATOL = 1e-6


@dataclass
class Stability:
    stable: bool
    reason: str = ""
    decisions: tuple = ()  # ((probe id, bool), ...) in execution order: the control-flow path taken


def _near(m64, m32, scale, elementwise: bool = False) -> np.ndarray:
    """Elements whose distance to a threshold is within rounding noise (exact ties excluded). A NaN or an infinity
    is near, except, for an ``elementwise`` comparison or cast, where both runs have the same one: NaN compares
    false and casts alike every time, so the decision there is the same in both (a control-flow predicate on NaN
    stays unstable)."""
    noise = np.abs(m32 - m64)
    exact_tie = (m64 == 0) & (m32 == 0)
    with np.errstate(invalid="ignore"):
        near = (np.abs(m64) <= np.maximum(GUARD_NOISE * noise, GUARD_RTOL * scale + GUARD_ATOL)) & ~exact_tie
    nonfinite = ~np.isfinite(m64) | ~np.isfinite(m32)
    if elementwise:
        nonfinite &= ~((np.isnan(m64) & np.isnan(m32)) | (np.isinf(m64) & (m64 == m32)))
    return (near & ~nonfinite if elementwise else near) | nonfinite


def _differ(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Elements where two runs decided differently (NaN in both is the same decision)."""
    return (a != b) & ~(np.isnan(a) & np.isnan(b))


def discrete(probes: list) -> list:
    """What the probes decided: control-flow decisions, comparison signs, int truncations."""
    out = []
    for kind, k, value, decision in probes:
        with np.errstate(invalid="ignore"):
            if kind == "cmp":
                a, b = value
                decision = np.sign(np.asarray(a, np.float64) - np.asarray(b, np.float64))
            elif kind == "int":
                decision = np.trunc(np.asarray(value, np.float64))
        if kind in ("cmp", "int"):  # NaN decides alike each time (it compares false): 0.5, which no sign or trunc is
            decision = np.where(np.isnan(decision), 0.5, decision).tolist()
        out.append((kind, k, decision))
    return out


def branch_stability(probes32: list, probes64: list, nudged: Optional[list] = None) -> Stability:
    """The branch-flip guard: compare probe records of the fp32 and fp64 eager runs.

    Each record is ``(kind, probe_id, value, decision)`` as written by the probed model:
    ``cond`` (value = (lhs, rhs) of a data-dependent predicate), ``static`` (a kwarg/shape/loop-index
    decision), ``cmp`` (value = (a, b) of an elementwise comparison) and ``int`` (value = the input
    of a cast to int). Unstable: the two runs decide differently, a threshold sits within rounding
    noise of the value compared with it, or (``nudged``: the fp32 run on inputs moved by one ulp)
    a one-ulp change of the inputs changes a decision.
    """
    decisions = tuple((p[1], p[3]) for p in probes64 if p[0] in ("cond", "static"))
    if [(p[0], p[1], p[3]) for p in probes32] != [(p[0], p[1], p[3]) for p in probes64]:
        return Stability(False, "fp32 and fp64 eager runs take different control-flow paths", decisions)
    if nudged is not None and discrete(nudged) != discrete(probes32):
        return Stability(False, "nudging the inputs by one ulp changes a decision", decisions)
    for p32, p64 in zip(probes32, probes64):
        kind, k = p64[0], p64[1]
        if kind == "cond":
            (l32, r), (l64, _) = p32[2], p64[2]
            l32, l64 = float(np.asarray(l32)), float(np.asarray(l64))
            if _near(np.float64(l64 - r), np.float64(l32 - r), abs(l64) + abs(r)):
                return Stability(False, f"predicate {k}: {l64!r} is within rounding of threshold {r!r}", decisions)
        elif kind == "cmp":
            (a32, b32), (a64, b64) = p32[2], p64[2]
            m64 = np.asarray(a64, np.float64) - np.asarray(b64, np.float64)
            m32 = np.asarray(a32, np.float64) - np.asarray(b32, np.float64)
            flip = _differ(np.sign(m32), np.sign(m64))
            if flip.any() or _near(m64, m32, np.abs(np.asarray(a64)) + np.abs(np.asarray(b64)), True).any():
                return Stability(False, f"comparison {k}: operands within rounding of each other", decisions)
        elif kind == "int":
            x32, x64 = np.asarray(p32[2], np.float64), np.asarray(p64[2], np.float64)
            if _differ(np.trunc(x32), np.trunc(x64)).any():
                return Stability(False, f"int cast {k}: fp32 and fp64 truncate differently", decisions)
            with np.errstate(invalid="ignore"):  # an infinity in both runs: inf - inf
                m64 = x64 - np.round(x64)
                m32 = x32 - np.round(x64)
            if _near(m64, m32, np.abs(x64), True).any():
                return Stability(False, f"int cast {k}: a value is within rounding of an integer", decisions)
    return Stability(True, "", decisions)
