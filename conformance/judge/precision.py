"""Reduced precision: how a path that computes in bfloat16 or float16 (``torch.autocast``) is judged
against the fp32 eager reference.

**The tolerance rule.** To first order, rounding errors scale with the unit roundoff ``u`` of the dtype
computed in (``u = 2**-8`` for bfloat16, ``2**-11`` for float16, ``2**-24`` for float32). So a model run in
a reduced dtype ``D`` is expected to be off from the exact (fp64) result by about ``u_D / u_fp32`` times
what fp32 eager is off. Per element, with ``e`` the fp32 eager output, ``r`` the fp64 one, and ``noise``
the oracle's per-element fp32 rounding noise (the largest of ``|e - r|``, how far eager moves when its
inputs are nudged by one ulp, and the tensor's worst error scaled by the element's magnitude; see
:mod:`conformance.oracle`), a candidate ``c`` passes where

    ``|c - e| <= atol_D + rtol_D * |e|``   or   ``|c - r| <= m * (u_D / u_fp32) * noise + atol_D + rtol_D * |r|``

with ``torch.testing.assert_close``'s tolerances for ``D`` (bfloat16: rtol 1.6e-2, atol 1e-5; float16:
rtol 1e-3, atol 1e-5) and TorchDynamo's multiplier for reduced precision, ``m = 3``. Cancellation is
covered where fp32 eager is sensitive to it (the nudged run): that sensitivity is scaled by the same ratio.
:func:`tolerance` gives the numbers, :func:`judge` applies them.

**The guard.** Reduced precision moves values by far more than fp32 rounding, so it can flip a
data-dependent branch, an elementwise comparison or an int cast that fp32 eager decides stably: the
output then jumps, by design of the program and not by a fault of the path. :func:`decision_flip` runs
the *probed* fp32 model along the path (so in reduced precision) and compares every decision with fp32
eager's; an input set where one differs is ``discarded``, not judged.
"""

from __future__ import annotations

from dataclasses import replace

from conformance.judge.oracle import MULTIPLIER, TOLERANCES, Report, diagnose, discrete
from conformance.program.case import map_tree

#: Unit roundoff (half the machine epsilon) per dtype.
UNIT_ROUNDOFF = {"float32": 2.0**-24, "bfloat16": 2.0**-8, "float16": 2.0**-11}


def tolerance(dtype: str) -> dict:
    """``rtol``, ``atol`` and ``multiplier`` (of the fp32 noise) for outputs computed in ``dtype``, as
    :func:`~conformance.oracle.diagnose` takes them."""
    if dtype not in UNIT_ROUNDOFF or dtype == "float32":
        raise ValueError(f"no reduced-precision rule for {dtype!r}; known: bfloat16, float16")
    rtol, atol = TOLERANCES[dtype]
    return {"rtol": rtol, "atol": atol,
            "multiplier": MULTIPLIER[dtype] * UNIT_ROUNDOFF[dtype] / UNIT_ROUNDOFF["float32"]}


def judge(candidate, eager, reference, noise, dtype: str) -> Report:
    """The oracle's verdict on ``candidate`` (computed in ``dtype``, cast back to eager's dtype) against
    fp32 ``eager``, its fp64 ``reference`` and ``noise`` (eager on nudged inputs), with :func:`tolerance`."""
    return diagnose(candidate, eager, reference, noise=noise, **tolerance(dtype))


def decision_flip(path, ctx, prep, run) -> str:
    """Why ``run`` is not judged along the reduced-precision ``path`` ("" if it is): the probed fp32 model
    converted by ``path`` decides a branch, a comparison or an int cast otherwise than fp32 eager."""
    fw = prep.framework
    module, model = prep.probed[0]
    key = ("precision", path.id)
    if key not in prep.cache:  # the probed model converted once per case
        probed = fw.prepare(module.Model(), ctx.device, False)
        if prep.training:
            fw.autograd.set_training(probed, True)
        prep.cache[key] = path.convert(replace(ctx, model=probed))
    decisions = []
    for fn, device, runner in ((model, "cpu", fw.call), (prep.cache[key], ctx.device, path.run)):
        module.PROBES.clear()
        prep.seed_forward()
        runner(fn, map_tree(lambda a: fw.to_tensor(a, device, False), run.args), dict(run.kwargs))
        decisions.append(discrete(module.PROBES))
    module.PROBES.clear()
    fp32, reduced = decisions
    if fp32 == reduced:
        return ""
    at = next((i for i, (a, b) in enumerate(zip(fp32, reduced)) if a != b), min(len(fp32), len(reduced)))
    kind, probe = (fp32 if at < len(fp32) else reduced)[at][:2]
    return (f"{path.precision} rounding decides {kind} probe {probe} otherwise than fp32 eager: the output jumps "
            f"by design of the program, not judged")
