"""What a case checks along a path: the eager side of a case (:class:`Prepared`: its input sets with eager's
outputs and the branch-flip guard's verdict) and the :class:`Mode` that runs and compares a converted artifact.

``infer`` (:data:`INFER`, here) compares outputs; ``grad`` and ``train`` (:mod:`conformance.judge.training`)
compare gradients and optimizer steps with the same conversion, error handling, oracle and guard.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from conformance.judge.effects import align, before_call, observe, observes
from conformance.judge.oracle import LeafReport, Report, Stability, branch_stability, diagnose
from conformance.paths.records import ConvertContext, FlatOutputs, Framework, PathRecord
from conformance.program.case import flatten, map_tree, unflatten
from conformance.program.program import Program


@dataclass
class InputRun:
    """One input set with its eager outputs (fp32, fp64, fp32 on inputs nudged by one ulp) and the
    branch-flip guard's verdict."""

    index: int
    role: str
    args: list
    nudged: list
    kwargs: dict
    batch: int
    eager: object
    reference: object
    noise: object
    stability: Stability
    #: Eager raised on this input set (a call of a hand-written model that must fail): the converted model
    #: must raise too. None: eager returned ``eager``.
    eager_error: Optional[str] = None


class ReplayUnavailable(Exception):
    """Eager cannot replay the example's control-flow decisions or kwargs: a model rendered without probes, or
    (``stateful``) one with state, whose eager calls run once, in order."""

    def __init__(self, why: str, stateful: bool = False):
        super().__init__(why)
        self.stateful = stateful


#: The seed of the framework's generator before every forward of a model in ``train()`` (dropout).
FORWARD_SEED = 0


@dataclass
class Prepared:
    """The eager side of a case, for the runner's convert, run and judge loop: the case's input sets with eager's
    outputs. This one is a rendered program's (its probed models give the branch-flip guard and replays of the
    example's control flow); ``conformance check`` and the corpus's hand-written models subclass it."""

    framework: Framework
    module: object
    runs: list[InputRun]
    prepare_s: float
    probed: tuple  # ((probed fp32 module, model), (probed fp64 module, model))
    training: bool = False  # the program's models run in train() (Program.training)
    program: Optional[Program] = None  # the case's program (None for a user's model: `conformance check`)
    cache: dict = field(default_factory=dict)  # per mode: its eager references, computed once per case
    #: A stateful program's model for the nudged inputs (its own instance: each eager model makes its calls in
    #: order), and whether its eager calls are all made (:mod:`conformance.judge.effects`): no replay then.
    noise_model: object = None
    sealed: bool = False

    #: On a mismatch, run the converted model once more on the same inputs to tell a nondeterministic path
    #: (False where a second call is not the same call: a hand-written model may keep state between calls).
    reruns_mismatches = True

    def new_model(self):
        """A fresh eager model for one path to convert (some conversions change the model in place)."""
        return self.module.Model()

    def before_run(self, model, run: InputRun) -> None:
        """Called before the converted ``model`` runs on ``run``: the flags a program's caller changes between
        calls (a hand-written model's ``before_call``)."""
        if self.program is not None:
            before_call(self.module, model, run.index)

    def label(self, run: InputRun) -> str:
        """How a record's message names the input set it is about."""
        return f"{run.role} inputs"

    def differences(self, run: InputRun, example: InputRun) -> set:
        """What ``run`` changes from the example among :data:`~conformance.paths.records.SPECIALISATIONS`: a
        path that specialises on it is judged against eager replayed with the example's choices."""
        found = set()
        if run.kwargs != example.kwargs:
            found.add("kwargs")
        if run.stability.decisions != example.stability.decisions:
            found.add("control_flow")
        if run.batch != example.batch:
            found.add("shapes")
        return found

    def seed_forward(self, seed: int = FORWARD_SEED) -> None:
        """Seed the framework's generator before a forward of a model in ``train()``: dropout draws from it."""
        if self.training:
            self.framework.autograd.seed(seed)

    def eager(self, args, nudged, kwargs, force=None, forward=None) -> tuple[tuple, Stability]:
        """Eager fp32, fp64 and fp32-on-``nudged`` outputs, and the guard's verdict on them.

        ``force``: a list of (probe id, decision) to replay instead of deciding (see render.py).
        ``forward(module, model, fp64, values, kwargs)``: what to run and return instead of the model's
        outputs (numpy), e.g. gradients; the guard watches every forward it makes.
        """
        if self.sealed:
            raise ReplayUnavailable("a model with state makes its eager calls once, in order", stateful=True)
        (m32, model32), (m64, model64) = self.probed
        outs, probes = [], []
        for module, model, fp64, values in ((m32, model32, False, args), (m64, model64, True, args),
                                            (m32, self.noise_model or model32, False, nudged)):
            module.PROBES.clear()
            module.FORCE = list(force) if force is not None else None
            try:
                if forward is not None:
                    outs.append(forward(module, model, fp64, values, kwargs))
                else:
                    targs = map_tree(lambda a: self.framework.to_tensor(a, "cpu", fp64), values)
                    self.seed_forward()
                    out = self.framework.call(model, targs, kwargs)
                    outs.append(self.framework.to_numpy(observe(self.program, model, targs, out)))
            finally:
                module.FORCE = None
            probes.append(list(module.PROBES))
        return tuple(outs), branch_stability(*probes)


def set_training(fw: Framework, model, training: bool):
    """Put ``model`` in ``train()`` or ``eval()`` as the program says (``eval()`` is how models are prepared)."""
    if training:
        if fw.autograd is None:
            raise RuntimeError(f"the {fw.name} adapter cannot put a model in train() (it has no Autograd)")
        fw.autograd.set_training(model, True)
    return model


@dataclass
class Judged:
    """One input set as a mode judges it: eager's result in fp32, fp64 and fp32 on nudged inputs, and the
    guard's verdict (for ``infer``, the :class:`InputRun`'s own outputs)."""

    run: InputRun
    eager: object
    reference: object
    noise: object
    stability: Stability


class Mode:
    """How a case is checked along a path: the input sets judged, eager's reference for each, how a
    converted artifact is run, and how its result is compared. This one is ``infer``: the outputs of every
    input set. ``grad`` and ``train`` are in :mod:`conformance.judge.training`."""

    name = "infer"

    def unsupported(self, path: PathRecord, fw: Framework) -> str:
        """Why ``path`` cannot run in this mode ("" if it can)."""
        return "" if self.name in path.modes else f"{path.id} does not support mode {self.name!r}"

    def judged(self, prep: Prepared) -> list[Judged]:
        return [Judged(r, r.eager, r.reference, r.noise, r.stability) for r in prep.runs]

    def limitation_for(self, failure):
        """The documented refusal of eager itself in this mode that ``failure`` (phase ``eager``) is, or None."""
        return None

    def reference(self, prep: Prepared, run: InputRun, kwargs: dict, force) -> tuple[tuple, Stability]:
        """Eager on ``run``'s inputs with ``kwargs`` and the forced decisions (for paths that specialise)."""
        return prep.eager(run.args, run.nudged, kwargs, force)

    def execute(self, path: PathRecord, artifact, ctx: ConvertContext, prep: Prepared, run: InputRun, to_dev):
        """Run the converted artifact on ``run``'s inputs: numpy outputs (or :class:`FlatOutputs`)."""
        prep.seed_forward()
        args = map_tree(to_dev, run.args)
        out = path.run(artifact, args, dict(run.kwargs))
        if observes(prep.program):  # its inputs after the call, its state (conformance.judge.effects)
            return prep.framework.to_numpy(observe(prep.program, artifact, args, out))
        return out if isinstance(out, FlatOutputs) else prep.framework.to_numpy(out)

    def compare(self, path: PathRecord, out, eager, reference, noise) -> Report:
        out, eager, reference, noise = align(out, eager, reference, noise)
        if isinstance(out, FlatOutputs):
            if len(out) != len(flatten(eager)):
                return structure_failure(f"{len(out)} outputs, eager has {len(flatten(eager))}")
            out = unflatten(eager, list(out))
        if not path.dict_order:
            out = _in_eager_order(out, eager)
        if path.precision:
            from conformance.judge.precision import judge

            return judge(out, eager, reference, noise, path.precision)
        return diagnose(out, eager, reference, noise=noise, float64_as=path.float64_as)

    def guard(self, path: PathRecord, ctx: ConvertContext, prep: Prepared, run: InputRun) -> str:
        """Why ``run`` is not judged along ``path`` beyond the branch-flip guard ("" if it is): a path that
        computes in reduced precision and there decides a branch otherwise. A model without probes (a user's
        model, a hand-written one) cannot show its decisions: there it is judged without this guard."""
        if not path.precision or not prep.probed:
            return ""
        from conformance.judge.precision import decision_flip

        return decision_flip(path, ctx, prep, run)


def _in_eager_order(out, eager):
    """``out`` with each dict's keys in the order of eager's dict at the same place (when they are the same keys)."""
    if isinstance(out, dict) and isinstance(eager, dict) and set(out) == set(eager):
        return {k: _in_eager_order(out[k], eager[k]) for k in eager}
    if isinstance(out, (list, tuple)) and isinstance(eager, (list, tuple)) and len(out) == len(eager):
        return type(out)(_in_eager_order(o, e) for o, e in zip(out, eager))
    return out


INFER = Mode()


def structure_failure(message: str) -> Report:
    return Report([LeafReport("", False, "structure", message)])


