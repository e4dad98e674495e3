"""Programs that mutate, alias, keep state and change type: what the generator draws for them, and what a program
of them asks of the runner.

The statements are op records of :mod:`conformance.program.ops.effects`. A program opts in to them by naming
their constructs (``programs(constructs=CONSTRUCTS + EFFECT_CONSTRUCTS)``):

* ``mutation``: views written through or read after a write to their base, slice and mask assignment, and,
  right after the inputs are read (before anything can alias them), in-place writes to input tensors;
* ``module_state``: buffers updated in forward and flags the caller changes between calls (not inside loops);
* ``dynamism``: Python-level dynamism (see the op records).

A program that writes to an input (:func:`mutates_inputs`) is judged on its inputs after each call as well as on
its outputs; a program with state (:func:`stateful`) is called on one model, input set after input set, and
judged after each call (:mod:`conformance.judge.effects`).
"""

from __future__ import annotations

from typing import Optional

from conformance.program.ir import Get, OpStmt
from conformance.program.ops import OPS
from conformance.program.ops.effects import FAMILIES
from conformance.program.ops.record import may_be_empty, strategies

#: Opt-in constructs: ``programs(constructs=CONSTRUCTS + EFFECT_CONSTRUCTS)``.
EFFECT_CONSTRUCTS = tuple(FAMILIES.values())
#: The constructs of the effect statements (the op names, as ``Program.constructs()`` counts them).
EFFECT_OPS = tuple(name for name, rec in OPS.items() if rec.family in FAMILIES)
#: Where a program has an in-place write to an input, how often the generator draws one (one in this many).
INPUT_WRITE_EVERY = 2


def op_constructs(op: str) -> frozenset:
    """The constructs an op statement of ``op`` exercises (``Program.constructs()``): an effect op's own name and
    its family's construct, ``inplace`` for an in-place op, ``train_layer`` for a layer train() changes."""
    rec = OPS.get(op)
    if rec is None:
        return frozenset()
    return frozenset(({op, FAMILIES[rec.family]} if rec.family in FAMILIES else set())
                     | ({"inplace"} if rec.inplace else set()) | ({"train_layer"} if rec.train_layer else set()))


def mutates_inputs(program) -> bool:
    """Whether the program writes into an input tensor in place (the caller sees it)."""
    gets = {s.out for s in program.walk() if isinstance(s, Get)}
    return any(isinstance(s, OpStmt) and s.op == "input_inplace" and s.out in gets for s in program.walk())


def stateful(program) -> bool:
    """Whether the program keeps state between calls (buffers it updates, flags the caller changes)."""
    return any(isinstance(s, OpStmt) and s.op in OPS and OPS[s.op].family == "state" for s in program.walk())


class EffectDrawing:
    """The generator's statements of the effect families (mixed into the generator, like ``OpDrawing``)."""

    def _family(self, scope, family: str) -> Optional[list]:
        """One statement of ``family``, its op drawn among those that fit here."""
        pool = [rec for rec in self.ops if rec.family == family and rec.name != "input_inplace"
                and self.usable(rec, scope)]
        if not pool:
            return None
        return self.op(scope, [pool[self.draw(strategies().integers(0, len(pool) - 1))]])

    def mutation(self, scope) -> Optional[list]:
        return self._family(scope, "mutation")

    def module_state(self, scope) -> Optional[list]:
        return None if scope.loops else self._family(scope, "state")

    def dynamism(self, scope) -> Optional[list]:
        return self._family(scope, "dynamism")

    def input_writes(self, scope, inputs: list) -> list:
        """In-place writes to input tensors, drawn right after the inputs are read (``inputs``: the variables
        holding them), so nothing aliases the tensor written yet."""
        rec = self.by_name.get("input_inplace")
        if (rec is None or "mutation" not in self.constructs
                or self.draw(strategies().integers(0, INPUT_WRITE_EVERY - 1))):
            return []
        targets = [n for n in inputs if scope.env[n].type.dtype == "float32" and scope.env[n].type.rank >= 1
                   and not scope.env[n].edge and (rec.empty_ok or not may_be_empty(scope.env[n].type))]
        if not targets:
            return []
        target = self.draw(strategies().sampled_from(targets))
        var = scope.env[target]
        attrs = rec.attrs(self.draw, [var.type])
        var.iv = rec.bound([var.iv], attrs, [var.type])
        self.recent.append(target)
        return [OpStmt(target, rec.name, (target,), tuple(sorted(attrs.items())))]
