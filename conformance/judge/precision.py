"""Reduced precision: how a path that computes in bfloat16 or float16 (``torch.autocast``) is judged
against the fp32 eager reference.

**The tolerance rule.** To first order, rounding errors scale with the unit roundoff ``u`` of the dtype
computed in (``u = 2**-8`` for bfloat16, ``2**-11`` for float16, ``2**-24`` for float32). So a model run in
a reduced dtype ``D`` is expected to be off from the exact (fp64) result by about ``u_D / u_fp32`` times
what fp32 eager is off. Per element, with ``e`` the fp32 eager output, ``r`` the fp64 one, and ``noise``
the oracle's per-element fp32 rounding noise (the largest of ``|e - r|``, how far eager moves when its
inputs and weights are nudged by one ulp, and the tensor's worst error scaled by the element's magnitude; see
:mod:`conformance.judge.oracle`), a candidate ``c`` passes where

    ``|c - e| <= atol_D + rtol_D * |e|``   or   ``|c - r| <= m * (u_D / u_fp32) * noise + atol_D + rtol_D * |r|``

with ``torch.testing.assert_close``'s tolerances for ``D`` (bfloat16: rtol 1.6e-2, atol 1e-5; float16:
rtol 1e-3, atol 1e-5) and TorchDynamo's multiplier for reduced precision, ``m = 3``. Cancellation is
covered where fp32 eager is sensitive to it (the nudged run): that sensitivity is scaled by the same ratio.
:func:`tolerance` gives the numbers, :func:`judge` applies them.

**The tail.** Both sides of the rule are random: fp32 eager's error at an element where a sum cancels may be
far below its usual size by luck (seen: 1.3e-7 where the nudged run moved 1.2e-7, on a matmul element of
0.31 whose terms add up to 36 in magnitude), while the reduced-precision error there is its usual size. So
a few elements (:data:`TAIL_FRACTION` of a leaf, rounded up: one in a leaf of up to ``1 / TAIL_FRACTION``; seen: a
circular-padded 3x3 convolution's element of 0.0295 whose nine terms and bias add up to about 0.5 in magnitude, 1
of 45, where the nudged run moved eager by 2 ulps) may exceed the rule, within :data:`TAIL_FACTOR` times their
scaled noise but never beyond what the rule allows the leaf's noisiest element: the largest elements get no tail,
so a 10% error there stays a mismatch however large the BLAS's fp32 error. An element beyond that, or more
elements, is a mismatch (TorchDynamo's ``same()`` judges reduced precision by the RMSE of the whole tensor instead,
which a single wrong element of a large tensor passes).

**The guard.** Reduced precision moves values by far more than fp32 rounding, so it can flip a
data-dependent branch, an elementwise comparison or an int cast that fp32 eager decides stably: the
output then jumps, by design of the program and not by a fault of the path. :func:`decision_flip` decides
which input sets are ``discarded``, not judged, in one of two ways:

* **observed** (a path whose artifact runs the model's Python code at every call, e.g. ``torch.autocast``
  around an eager model): the *probed* fp32 model is run along the path (so in reduced precision) and every
  decision is compared with fp32 eager's; an input set where one differs is discarded.
* **margin** (a path that builds a graph from the Python code once, e.g. ``paddle.jit.to_static`` under
  ``paddle.amp.auto_cast``: the probes would run on the tracer's placeholders, not on each call's values;
  mark its conversion function with ``builds_graph = True``, see :func:`builds_graph`): the decisions cannot be
  seen, so an input set is discarded where a probe of fp32 eager sits within the reduced precision's reach of
  its threshold (:func:`near_threshold`: the fp32 guard's rule with the noise scaled by ``u_D / u_fp32`` and
  the dtype's ``rtol``). Also used where running the probed model along an observed path raises (the probes
  are this project's code: their failure is never the path's finding; the clean model's run is judged as usual).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from conformance.judge.oracle import GUARD_NOISE, MULTIPLIER, TOLERANCES, Report, diagnose, discrete
from conformance.program.case import map_tree

#: Unit roundoff (half the machine epsilon) per dtype.
UNIT_ROUNDOFF = {"float32": 2.0**-24, "bfloat16": 2.0**-8, "float16": 2.0**-11}
#: The share of a leaf's elements that may have up to :data:`TAIL_FACTOR` times the rule's noise (see the module).
TAIL_FRACTION = 0.02
TAIL_FACTOR = 4.0


def tolerance(dtype: str) -> dict:
    """``rtol``, ``atol`` and ``multiplier`` (of the fp32 noise) for outputs computed in ``dtype``, as
    :func:`~conformance.judge.oracle.diagnose` takes them."""
    if dtype not in UNIT_ROUNDOFF or dtype == "float32":
        raise ValueError(f"no reduced-precision rule for {dtype!r}; known: bfloat16, float16")
    rtol, atol = TOLERANCES[dtype]
    return {"rtol": rtol, "atol": atol,
            "multiplier": MULTIPLIER[dtype] * UNIT_ROUNDOFF[dtype] / UNIT_ROUNDOFF["float32"]}


def judge(candidate, eager, reference, noise, dtype: str) -> Report:
    """The oracle's verdict on ``candidate`` (computed in ``dtype``) against fp32 ``eager``, its fp64 ``reference``
    and ``noise`` (eager on nudged inputs), with :func:`tolerance`. A float output comes back from such a path in
    float32 (numpy has no bfloat16): it is compared in eager's float dtype (a program's own float16 or float64
    output stays one in eager)."""
    candidate = _in_eager_dtypes(candidate, eager)
    rule = tolerance(dtype)
    report = diagnose(candidate, eager, reference, noise=noise, ptol=TAIL_FRACTION, **rule)
    if not report.ok:
        return report
    return diagnose(candidate, eager, reference, noise=noise, tail=TAIL_FACTOR, **rule)


def _in_eager_dtypes(candidate, eager):
    """``candidate``'s float arrays cast to the float dtype of eager's at the same place (the rest as it is)."""
    if isinstance(eager, (list, tuple)) and isinstance(candidate, type(eager)) and len(candidate) == len(eager):
        return type(candidate)(_in_eager_dtypes(c, e) for c, e in zip(candidate, eager))
    if isinstance(eager, dict) and isinstance(candidate, dict) and set(candidate) == set(eager):
        return {k: _in_eager_dtypes(candidate[k], eager[k]) for k in candidate}
    if isinstance(candidate, np.ndarray) and isinstance(eager, np.ndarray) and \
            candidate.dtype.kind == eager.dtype.kind == "f":
        return candidate.astype(eager.dtype)
    return candidate


def builds_graph(path) -> bool:
    """Whether ``path``'s artifact runs a graph built once from the model's Python code (its conversion function
    says so with ``builds_graph = True``): there a probed model's probes cannot record each call's decisions."""
    return bool(getattr(path.convert, "builds_graph", False))


def decision_flip(path, ctx, prep, run) -> str:
    """Why ``run`` is not judged along the reduced-precision ``path`` ("" if it is): the probed fp32 model
    converted by ``path`` decides a branch, a comparison or an int cast otherwise than fp32 eager (observed),
    or, where the decisions cannot be observed (:func:`builds_graph`), one of eager's sits within the reduced
    precision's reach of its threshold (:func:`near_threshold`)."""
    if builds_graph(path):
        return _margin_flip(path, prep, run, "it builds a graph from the model's code once")
    try:
        decisions = _observed(path, ctx, prep, run)
    except Exception as e:  # noqa: BLE001 - the probes are ours: never the path's finding
        why = f"{type(e).__name__}: {str(e).splitlines()[0][:160] if str(e) else ''}"
        return _margin_flip(path, prep, run, f"the probed model did not run along it: {why}")
    fp32, reduced = decisions
    if fp32 == reduced:
        return ""
    at = next((i for i, (a, b) in enumerate(zip(fp32, reduced)) if a != b), min(len(fp32), len(reduced)))
    kind, probe = (fp32 if at < len(fp32) else reduced)[at][:2]
    return (f"{path.precision} rounding decides {kind} probe {probe} otherwise than fp32 eager: the output jumps "
            f"by design of the program, not judged")


def _observed(path, ctx, prep, run) -> tuple[list, list]:
    """fp32 eager's decisions on ``run`` and those of the probed model converted along ``path``."""
    fw = prep.framework
    module, model = prep.probed[0]
    key = ("precision", path.id)
    if key not in prep.cache:  # the probed model converted once per case (or its failure, once)
        try:
            probed = fw.prepare(module.Model(), ctx.device, False)
            if prep.training:
                fw.autograd.set_training(probed, True)
            prep.cache[key] = path.convert(replace(ctx, model=probed))
        except Exception as e:  # noqa: BLE001
            prep.cache[key] = _Failed(e)
    if isinstance(prep.cache[key], _Failed):
        raise prep.cache[key].error
    decisions = []
    try:
        for fn, device, runner in ((model, "cpu", fw.call), (prep.cache[key], ctx.device, path.run)):
            module.PROBES.clear()
            prep.seed_forward()
            runner(fn, map_tree(lambda a: fw.to_tensor(a, device, False), run.args), dict(run.kwargs))
            decisions.append(discrete(module.PROBES))
    finally:
        module.PROBES.clear()
    return decisions[0], decisions[1]


class _Failed:
    def __init__(self, error: Exception):
        self.error = error


def _eager_probes(prep, run) -> list[list]:
    """The probes of fp32 eager, fp64 eager and fp32 eager on the nudged inputs, on ``run``."""
    fw = prep.framework
    (m32, model32), (m64, model64) = prep.probed
    out = []
    for module, model, fp64, values in ((m32, model32, False, run.args), (m64, model64, True, run.args),
                                        (m32, model32, False, run.nudged)):
        module.PROBES.clear()
        try:
            prep.seed_forward()
            fw.call(model, map_tree(lambda a: fw.to_tensor(a, "cpu", fp64), values), dict(run.kwargs))
            out.append(list(module.PROBES))
        finally:
            module.PROBES.clear()
    return out


def near_threshold(m64, m32, mn, scale, dtype: str) -> np.ndarray:
    """Elements whose distance ``m64`` (fp64 eager) to a threshold is within what computing in ``dtype`` may move
    it: the fp32 guard's rule (:func:`conformance.judge.oracle.branch_stability`) with fp32's noise (the
    distance in fp32 eager ``m32`` and on nudged inputs ``mn`` against fp64's) scaled by ``u_D / u_fp32``, and
    ``dtype``'s ``rtol`` and ``atol`` of ``scale`` (the operands' magnitude). An exact tie in every run (a value
    compared with itself) is not near: no rounding moves it."""
    m64, m32, mn = (np.asarray(m, np.float64) for m in (m64, m32, mn))
    rtol, atol = TOLERANCES[dtype]
    ratio = UNIT_ROUNDOFF[dtype] / UNIT_ROUNDOFF["float32"]
    noise = np.maximum(np.abs(m32 - m64), np.abs(mn - m32))
    exact_tie = (m64 == 0) & (m32 == 0) & (mn == 0)
    near = np.abs(m64) <= np.maximum(GUARD_NOISE * ratio * noise, rtol * np.asarray(scale, np.float64) + atol)
    return (near & ~exact_tie) | ~np.isfinite(m64) | ~np.isfinite(m32)


def _margin_flip(path, prep, run, note: str) -> str:
    """The margin guard (decisions not observable): the first probe of fp32 eager within the reduced precision's
    reach of its threshold, as the reason ``run`` is not judged; "" where none is."""
    p32, p64, pn = _eager_probes(prep, run)
    if [(p[0], p[1]) for p in p32] != [(p[0], p[1]) for p in p64] or len(p32) != len(pn):
        return (f"{path.precision}: eager's probes differ between its fp32, fp64 and nudged runs and the path's "
                f"decisions cannot be seen ({note}): not judged")
    for a, b, n in zip(p32, p64, pn):
        kind, k = b[0], b[1]
        if kind == "cond":
            r = b[2][1]
            l32, l64, ln = (float(np.asarray(p[2][0], np.float64)) for p in (a, b, n))
            near = near_threshold(l64 - r, l32 - r, ln - r, abs(l64) + abs(r), path.precision)
        elif kind == "cmp":
            (a32, b32), (a64, b64), (an, bn) = (tuple(np.asarray(v, np.float64) for v in p[2]) for p in (a, b, n))
            near = near_threshold(a64 - b64, a32 - b32, an - bn, np.abs(a64) + np.abs(b64), path.precision)
        elif kind == "int":
            x32, x64, xn = (np.asarray(p[2], np.float64) for p in (a, b, n))
            whole = np.round(x64)
            near = near_threshold(x64 - whole, x32 - whole, xn - whole, np.abs(x64), path.precision)
        else:  # "static": kwargs, shapes, loop indices: no rounding decides them
            continue
        if np.any(near):
            return (f"{path.precision} rounding may decide {kind} probe {k} otherwise than fp32 eager: fp32 eager's "
                    f"is within {path.precision}'s reach of the threshold and the path's decisions cannot be seen "
                    f"({note}): not judged")
    return ""
