"""What a call of a model does besides returning its outputs: writes into its inputs, and state it keeps.

A program that writes into an input tensor in place (:func:`~conformance.program.effects.mutates_inputs`) is
judged on what the caller sees after the call: the *observed* result of a call is then
``{"outputs": <outputs>, "inputs": [<the input tensors after the call>]}``. A program with state
(:func:`~conformance.program.effects.stateful`: buffers updated in forward, flags the caller changes between
calls) is called on one model, input set after input set in order, as a user calls it; its observed result
adds ``"state"``: ``{buffer name: value after the call}``, read from the converted artifact where it exposes the
buffers as attributes (a module: eager, ``torch.compile``, TorchScript, ``to_static``), and left out of the
comparison where it does not (an ONNX session, a saved function): there the outputs of the later calls show
what the state did. Before each call the caller changes the model's flags with the module's
``before_call(model, index)``, on the model it converted. The calls a conversion makes itself (tracing on the
example, checking the trace, a warm-up call) are not the caller's: the model's state is put back as it was
before converting (in place, so an artifact that shares the buffers sees it too).

Eager runs the same sequence on its own models (fp32, fp64, and fp32 on the nudged inputs, each its own
instance), so a reference is never recomputed afterwards: a path that specialises cannot be judged against a
replay of eager (it is judged as a model without probes is), a mismatch is not rerun, and once an input set
is discarded by the branch-flip guard, the later ones are too (the converted model did not make that call).
"""

from __future__ import annotations

import dataclasses
from typing import Optional

from conformance.program.effects import mutates_inputs, stateful
from conformance.program.trees import FlatOutputs, flatten, unflatten

#: The keys of an observed result (see the module docstring).
OUTPUTS, INPUTS, STATE = "outputs", "inputs", "state"


def observes(program) -> bool:
    """Whether calls of ``program`` are judged on more than their outputs."""
    return program is not None and (mutates_inputs(program) or stateful(program))


def effects_unsupported(program, mode: str) -> str:
    """Why ``program`` is not checked in ``mode`` ("" if it is): a program with effects is checked in ``infer`` mode
    only (its calls are made once, in order, and an input it writes cannot be a leaf autograd differentiates)."""
    if mode == "infer" or not observes(program):
        return ""
    return f"a program that writes its inputs or keeps state is checked in infer mode only, not {mode}"


def buffers(program) -> list[str]:
    """The names of the program's buffers (its params that are not trained)."""
    return [q.name for q in program.params if not q.trainable]


def state_of(program, holder):
    """``{buffer: value}`` read from ``holder`` (a model or converted artifact), or None where it does not expose
    every buffer as an attribute."""
    names = buffers(program)
    try:
        return {name: getattr(holder, name) for name in names}
    except AttributeError:
        return None


def observe(program, holder, args, outputs):
    """The observed result of one call of ``program`` (see the module docstring): ``outputs`` alone for a
    program without effects. ``args``: the input tensors the call was given (now as the call left them)."""
    if not observes(program):
        return outputs
    seen = {OUTPUTS: outputs}
    if mutates_inputs(program):
        seen[INPUTS] = list(args)
    if stateful(program):
        state = state_of(program, holder)
        if state is not None:
            seen[STATE] = state
    return seen


def align(out, eager, *more):
    """``out`` (an observed result of a converted artifact) and eager's results (``eager`` and ``more``: its fp64
    and noise runs) in one structure where they have effects: flat ONNX outputs rebuilt in eager's structure, and
    the state left out of eager's where the artifact does not expose it. Other results come back unchanged."""
    refs = (eager, *more)
    if not (isinstance(eager, dict) and isinstance(out, dict) and OUTPUTS in eager and OUTPUTS in out):
        return (out, *refs)
    if isinstance(out[OUTPUTS], FlatOutputs) and len(out[OUTPUTS]) == len(flatten(eager[OUTPUTS])):
        out = dict(out, **{OUTPUTS: unflatten(eager[OUTPUTS], list(out[OUTPUTS]))})
    if STATE not in out:
        refs = tuple({k: v for k, v in r.items() if k != STATE} if isinstance(r, dict) else r for r in refs)
    return (out, *refs)


def state_kept(program, fw, model) -> Optional[dict]:
    """``{buffer: numpy value}`` of ``model`` before a conversion, to put back after it (:func:`put_back`); None for a
    program without state."""
    if program is None or not stateful(program) or fw.autograd is None:
        return None
    return {name: fw.to_numpy(value) for name, value in (state_of(program, model) or {}).items()}


def put_back(fw, model, kept: Optional[dict]) -> None:
    """The state ``model`` had before the conversion: the calls a conversion makes on the example (tracing it,
    checking the trace, a warm-up call) are not the caller's calls, which the judged ones are."""
    for name, value in (kept or {}).items():
        fw.autograd.assign(getattr(model, name), value)


def before_call(module, model, index: int) -> None:
    """The caller's changes to ``model``'s flags before call ``index`` (the model module's ``before_call``)."""
    hook = getattr(module, "before_call", None)
    if hook is not None:
        hook(model, index)


def discard_after_unstable(runs) -> None:
    """A stateful program's input sets after the first one the branch-flip guard discards are discarded too: the
    converted model does not make the discarded call, so its state no longer follows eager's."""
    reason = ""
    for run in runs:
        if reason and run.stability.stable:
            run.stability = dataclasses.replace(run.stability, stable=False, reason=reason)
        elif not run.stability.stable and not reason:
            reason = f"an earlier call of this stateful model was discarded ({run.stability.reason})"
