"""Gradient and training-step parity: the ``grad`` and ``train`` modes of the runner.

Conversion is not only for inference: users train ``torch.jit.script``-ed and ``torch.compile``-d
modules, Paddle recommends ``to_static`` training, a loaded model can be fine-tuned. Each can silently
train differently from eager mode. These modes reuse everything the ``infer`` mode has (conversion,
error handling, limitations, the branch-flip guard, the oracle, the record); only what is run and
compared differs.

**The loss head** stays outside ``forward``: ``L = sum over float output leaves of sum(out * w)``, with
fixed weights ``w`` drawn from the program's seed and scaled by the leaf's size (a weighted mean, so
gradients stay O(1) whatever the shapes). Leaves that are not float are left out.

``grad`` — on every input set: the outputs, and the gradients of ``L`` with respect to every float input
leaf and every trainable parameter, compared with eager's. Same rule as outputs: eager in fp64 is the
reference, eager in fp32 and on inputs nudged by one ulp give the rounding noise. One more rule: a
gradient eager does not produce (``None``: the input or parameter does not reach the loss, or only through
``detach``) must be ``None`` along the path too, and the other way round.

``train`` — on the example input set (a fixed batch), from the program's initial weights: :data:`STEPS`
steps of SGD, then, from the initial weights again, :data:`STEPS` steps of Adam. Compared: the loss of
every step, the final parameters and the final buffers (batch-norm running statistics). Eager runs the
same steps in fp32, fp64 and fp32 on nudged inputs, and the branch-flip guard watches every step's
forward. Before every forward the framework's generator is seeded (step ``i``: seed ``i``), so dropout
draws the same mask in eager and along the path.

A path opts in with ``PathRecord.modes``; its framework's adapter provides the
:class:`~conformance.paths.Autograd` primitives; this module holds the framework-neutral loops.
"""

from __future__ import annotations

from typing import Callable, Optional

import numpy as np

from conformance.judge.modes import InputRun, Judged, Mode, Prepared
from conformance.judge.oracle import LeafReport, Report, diagnose
from conformance.paths.records import ConvertContext, Failure, Framework, Limitation, PathRecord
from conformance.program.case import map_tree
from conformance.program.dtypes import is_float
from conformance.program.program import Program, tensor_names

#: Optimizer steps per optimizer in ``train`` mode.
STEPS = 3
#: The optimizers of ``train`` mode and their learning rates (their other settings are the framework's defaults).
OPTIMIZERS = {"sgd": 0.1, "adam": 0.01}

#: Eager refusals in ``grad`` and ``train`` modes: no path can be judged, every record is ``unsupported``.
EAGER_LIMITATIONS = (
    Limitation("eager autograd refuses the program: an in-place update overwrites a tensor saved for the "
               "backward pass", phases=("eager",), message=r"modified by an inplace operation"),
)


def loss_weights(program: Program, outputs):
    """The loss head's weights for eager's ``outputs`` (numpy), in their structure: per leaf, float32
    values in [-1, 1] divided by the leaf's size, or None for a leaf that is not float."""
    rng = np.random.default_rng([program.seed, 3])
    return map_tree(lambda o: (rng.uniform(-1.0, 1.0, np.shape(o)) / max(1, np.size(o))).astype(np.float32)
                    if np.asarray(o).dtype.kind == "f" else None, outputs)


def _state_names(program: Program) -> tuple[list[str], list[str]]:
    """Names of the trainable parameters and of the buffers (non-trainable state)."""
    return ([q.name for q in program.params if q.trainable], [q.name for q in program.params if not q.trainable])


def _numpy(fw: Framework, t):
    return None if t is None else fw.to_numpy(t)


def state_owner(artifact, model):
    """What the parameters and buffers ``artifact`` computes with are found on, by the program's names: the
    ``model`` it was converted from, whose tensors most artifacts share, or the ``own_state`` of an artifact
    with copies of its own (a loaded saved model)."""
    return getattr(artifact, "own_state", model)


def gradients(fw: Framework, forward: Callable, model, program: Program, args, kwargs: dict,
              weights: list) -> dict:
    """Outputs and gradients of the loss head: ``{"outputs", "input_grads": {leaf name: grad or None},
    "param_grads": {param name: grad or None}}`` as numpy. ``forward`` is called as
    ``forward(*args, **kwargs)``; the parameters are ``model``'s attributes (see :func:`state_owner`)."""
    names, _ = _state_names(program)
    params = [getattr(model, n) for n in names]
    outputs, _, input_grads, param_grads = fw.autograd.backward(forward, args, kwargs, weights, params)
    # every floating input is an autograd leaf (float16 and float64 too), in input order
    floats = [n for n, leaf in zip(tensor_names(program), program.input_leaves()) if is_float(leaf.dtype)]
    return {"outputs": fw.to_numpy(outputs),
            "input_grads": {n: _numpy(fw, g) for n, g in zip(floats, input_grads)},
            "param_grads": {n: _numpy(fw, g) for n, g in zip(names, param_grads)}}


def train_steps(fw: Framework, forward: Callable, model, program: Program, args, kwargs: dict, weights: list,
                initial: dict, seed_forward: Callable[[int], None],
                optimizer: Optional[Callable[[Callable], Callable]] = None) -> dict:
    """:data:`STEPS` steps of each of :data:`OPTIMIZERS`, each from the ``initial`` state (numpy values by
    parameter and buffer name, written into ``model``'s tensors; see :func:`state_owner`): ``{optimizer:
    {"losses", "params", "buffers"}}`` as numpy. ``optimizer`` wraps each step function (a path's
    :attr:`PathRecord.optimizer`).
    ``model`` is left in its initial state."""
    ag = fw.autograd
    names, buffer_names = _state_names(program)
    tensors = {n: getattr(model, n) for n in names + buffer_names}
    results = {}
    try:
        for kind, lr in OPTIMIZERS.items():
            for n, t in tensors.items():
                ag.assign(t, initial[n])
            params = [tensors[n] for n in names]
            step = ag.optimizer(kind, params, lr)
            step = optimizer(step) if optimizer else step
            losses = []
            for i in range(STEPS):
                seed_forward(i)
                _, loss, _, grads = ag.backward(forward, args, kwargs, weights, params)
                losses.append(None if loss is None else fw.to_numpy(loss))
                step(list(grads))
            # None: no output reached the loss head (none floating, or none of eager's shape), so nothing trained
            results[kind] = {"losses": None if any(x is None for x in losses) else np.stack(losses),
                             "params": {n: fw.to_numpy(tensors[n]) for n in names},
                             "buffers": {n: fw.to_numpy(tensors[n]) for n in buffer_names}}
    finally:
        for n, t in tensors.items():
            ag.assign(t, initial[n])
    return results


def compare(candidate, eager, reference=None, noise=None) -> Report:
    """:func:`~conformance.judge.oracle.diagnose` with one more rule for gradients: where eager has no gradient
    (None) the candidate must have none, and where eager has one the candidate must have one too."""
    missing: list[LeafReport] = []
    pruned = _prune_none(candidate, eager, reference, noise, "", missing)
    report = diagnose(*pruned[:3], noise=pruned[3])
    return Report(missing + report.leaves)


#: What a path's missing loss means (``missing_gradient`` of ``['losses']``).
NO_LOSS = ("no loss where eager has one: none of the path's outputs reached the loss head (no floating output, or none "
           "of eager's shape and structure)")


def _prune_none(c, e, r, n, path: str, out: list) -> tuple:
    """The four trees without the dict entries where eager or the candidate is None (a report in ``out``
    for each where only one of them is)."""
    if not (isinstance(e, dict) and isinstance(c, dict)):
        return c, e, r, n
    trees = ({}, {}, {}, {})
    sub = lambda tree, k: None if tree is None else tree[k]  # noqa: E731
    for k in e:
        where = f"{path}[{k!r}]"
        if k in c and (e[k] is None or c[k] is None):
            if e[k] is None and c[k] is not None:
                out.append(LeafReport(where, False, "extra_gradient", "a gradient where eager has none (None)"))
            elif e[k] is not None:
                out.append(LeafReport(where, False, "missing_gradient", NO_LOSS if k == "losses" else
                                      "no gradient (None) where eager has one"))
            continue
        if k not in c:
            continue
        for tree, value in zip(trees, _prune_none(c[k], e[k], sub(r, k), sub(n, k), where, out)):
            tree[k] = value
    trees[0].update({k: v for k, v in c.items() if k not in e})  # extra keys: a structure failure
    return trees[0], trees[1], (trees[2] if r is not None else None), (trees[3] if n is not None else None)


class _AutogradMode(Mode):
    """What ``grad`` and ``train`` share: the paths and frameworks they need, eager's refusals, the
    comparison with the None rule, the loss head's weights per input set."""

    def unsupported(self, path: PathRecord, fw: Framework) -> str:
        if fw.autograd is None:
            return f"the {fw.name} adapter has no autograd support (Framework.autograd) for mode {self.name!r}"
        return super().unsupported(path, fw)

    def limitation_for(self, failure: Failure) -> Optional[Limitation]:
        return next((lim for lim in EAGER_LIMITATIONS if lim.applies(failure, "")), None)

    def compare(self, path: PathRecord, out, eager, reference, noise) -> Report:
        return compare(out, eager, reference, noise)

    def guard(self, path, ctx, prep, run) -> str:
        return ""

    def weights(self, prep: Prepared, run: InputRun) -> list:
        return loss_weights(prep.program, run.eager)

    def judged(self, prep: Prepared) -> list[Judged]:
        """Eager's result for each input set judged, computed once per case (every path shares it)."""
        if self.name not in prep.cache:
            judged = []
            for run in self.runs(prep):
                (eager, reference, noise), stability = self.reference(prep, run, run.kwargs, None)
                judged.append(Judged(run, eager, reference, noise, stability))
            prep.cache[self.name] = judged
        return prep.cache[self.name]

    def runs(self, prep: Prepared) -> list[InputRun]:
        return prep.runs


class GradMode(_AutogradMode):
    """``grad``: outputs and gradients on every input set (see the module docstring)."""

    name = "grad"

    def reference(self, prep: Prepared, run: InputRun, kwargs: dict, force):
        fw, weights = prep.framework, self.weights(prep, run)

        def forward(module, model, fp64, values, kwargs):
            prep.seed_forward()
            args = map_tree(lambda a: fw.to_tensor(a, "cpu", fp64), values)
            return gradients(fw, model, model, prep.program, args, kwargs, weights)
        return prep.eager(run.args, run.nudged, kwargs, force, forward=forward)

    def execute(self, path: PathRecord, artifact, ctx: ConvertContext, prep: Prepared, run: InputRun, to_dev):
        prep.seed_forward()
        return gradients(prep.framework, artifact, state_owner(artifact, ctx.model), ctx.program,
                         map_tree(to_dev, run.args), dict(run.kwargs), self.weights(prep, run))


class TrainMode(_AutogradMode):
    """``train``: a few SGD and Adam steps on the example input set (see the module docstring)."""

    name = "train"

    def runs(self, prep: Prepared) -> list[InputRun]:
        return prep.runs[:1]

    def initial(self, prep: Prepared) -> dict:
        """The program's initial parameters and buffers (numpy, by name), from a fresh model."""
        key = "train:initial"
        if key not in prep.cache:
            fresh, fw = prep.new_model(), prep.framework
            prep.cache[key] = {q.name: fw.to_numpy(getattr(fresh, q.name)) for q in prep.program.params}
        return prep.cache[key]

    def reference(self, prep: Prepared, run: InputRun, kwargs: dict, force):
        fw, weights, initial = prep.framework, self.weights(prep, run), self.initial(prep)

        def forward(module, model, fp64, values, kwargs):
            args = map_tree(lambda a: fw.to_tensor(a, "cpu", fp64), values)
            return train_steps(fw, model, model, prep.program, args, kwargs, weights, initial, prep.seed_forward)
        return prep.eager(run.args, run.nudged, kwargs, force, forward=forward)

    def execute(self, path: PathRecord, artifact, ctx: ConvertContext, prep: Prepared, run: InputRun, to_dev):
        return train_steps(prep.framework, artifact, state_owner(artifact, ctx.model), ctx.program,
                           map_tree(to_dev, run.args), dict(run.kwargs), self.weights(prep, run), self.initial(prep),
                           prep.seed_forward, path.optimizer)


#: The modes of this module, by name (the runner's :func:`~conformance.runner.get_mode` looks them up here).
TRAINING_MODES = {m.name: m for m in (GradMode(), TrainMode())}
