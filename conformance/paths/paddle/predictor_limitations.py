"""Paddle Inference's known bugs on any CPU configuration (oneDNN on or off, IR optimisation on or off), as
:class:`~conformance.paths.records.Limitation` selectors: :mod:`conformance.paths.paddle.limitations` adds
:data:`PREDICTOR_ANY` to every predictor's records."""

from conformance.paths.records import Limitation

PREDICTOR_DUPLICATE_COMPUTATION_FETCH = Limitation(
    reason="known bug: a saved model returning two equal computations (`a = x * x; b = x * x; return {'out0': b, "
           "'out1': a}`: jit.save merges them into one value) gives a predictor two fetch names of which it fills "
           "one: run() fails, 'The variable named fetch_name_0 is not found in the scope of the executor' (with "
           "oneDNN or not, IR optimisation on or off); paddle.jit.load runs it",
    phase="run", errors=("RuntimeError",),
    message=r"The variable named fetch_name_\d+ is not found in the scope of the executor", outcome=None,
    versions=">=3.0",
    reference="found by conformance 2026-11-28 (paddlepaddle 3.3.1), deployment campaign seed 0, cases fcd669655593, "
              "4648a56f9445, cef9d57faa8b; cases/standalone/paddle_inference_duplicate_computation_fetch.py")

#: Every predictor's.
PREDICTOR_ANY = (PREDICTOR_DUPLICATE_COMPUTATION_FETCH,)
