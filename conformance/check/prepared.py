"""The eager side of a check: a user's model run in fp32, fp64 (where it can be cast) and on nudged inputs, with
the constants of the call passed through to every path as they are."""

from __future__ import annotations

import copy
import dataclasses

from conformance.check.calls import is_constant, same_arrays
from conformance.judge.modes import Prepared, ReplayUnavailable
from conformance.judge.oracle import Stability
from conformance.paths.records import Framework
from conformance.program.case import map_tree


def passing_constants(fw: Framework) -> Framework:
    """``fw`` whose ``to_tensor`` leaves a constant of the call (None, a bool, an int, a str) as it is: the
    model gets it as the user passed it, in eager mode and along every path."""
    to_tensor = fw.to_tensor
    return dataclasses.replace(fw, to_tensor=lambda a, device, fp64: a if is_constant(a) else
                               to_tensor(a, device, fp64))


def fresh_copy(framework: str, model):
    """A copy of ``model`` (a torch or Paddle conversion may change the model it is given). A TensorFlow model that
    cannot be deep-copied (a Keras model whose class is not registered for serialisation) is shared: TensorFlow's
    paths wrap a model, never change it."""
    try:
        return copy.deepcopy(model)
    except Exception:  # noqa: BLE001 - Keras copies a model through its config
        if framework == "tf":
            return model
        raise


def to_fp64(framework: str, model):
    """An fp64 copy of ``model`` for the reference, or None where the framework cannot cast a model."""
    if framework == "torch":
        return copy.deepcopy(model).double()
    if framework == "paddle":
        model = copy.deepcopy(model)
        model.to(dtype="float64")
        return model
    return None  # a tf.Module's variables have fixed dtypes


class UserPrepared(Prepared):
    """Eager runs of a user's model: fp32, fp64 (where the model can be cast) and fp32 on nudged inputs.

    A user's model has no probes, so the branch-flip guard cannot see its decisions, and eager cannot
    replay the example's control flow on other inputs (:class:`~conformance.judge.modes.ReplayUnavailable`)."""

    def __init__(self, fw: Framework, model, model64, runs=None):
        super().__init__(passing_constants(fw), None, list(runs or []), 0.0, ())
        self.model, self.model64 = model, model64

    def new_model(self):
        return fresh_copy(self.framework.name, self.model)

    def eager(self, args, nudged, kwargs, force=None, forward=None):
        example = self.runs[0] if self.runs else None
        if force is not None and not (example and kwargs == example.kwargs and same_arrays(args, example.args)):
            # (on the example's own inputs and kwargs, the example's control flow is just eager's)
            raise ReplayUnavailable("a user model has no probes to replay control flow with")
        fw = self.framework
        run = lambda model, values, fp64: fw.to_numpy(fw.call(model, map_tree(  # noqa: E731
            lambda a: fw.to_tensor(a, "cpu", fp64), values), kwargs))
        eager = run(self.model, args, False)
        reference = run(self.model64, args, True) if self.model64 is not None else eager
        return (eager, reference, run(self.model, nudged, False)), Stability(True)
