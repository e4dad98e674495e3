"""Planted faults at a known statement, for the localisation self-tests (``--load tests.planted_localize``).

A planted path wraps a real conversion (``torch.script``, ``torch.compile_aot_eager``, ``torch.compile``,
``torch.onnx_torchscript``; ``tf.function`` and ``paddle.to_static`` in ``tests.planted_localize_tf`` and
``tests.planted_localize_paddle``) and converts
a faulty copy of the model instead of the model: the program the runner hands it (``ctx.program``, a
truncated program during localisation) with one fault applied at a known statement, named in the
program's ``meta`` (``planted``) so that every truncation carries it:

* ``perturb``: the op statement equal to the target computes its value times 1.01 plus 0.01;
* ``branch``: the ``if`` whose condition equals the target decides the other way (``>`` and ``<`` swapped);
* ``short``: the loop whose variable or counter is the target runs one iteration less.

:func:`planted_cases` draws the known programs: ten per fault category, in straight-line code and inside
loop bodies, each with the location and the kind of divergence a localisation must report.
"""

from __future__ import annotations

import json
import os
import random
from dataclasses import dataclass, replace
from typing import Optional

from conformance.paths.records import FRAMEWORKS, PATHS, PathRecord, load_framework, register
from conformance.program.case import Case, InputSet, materialize
from conformance.program.ir import For, Get, If, Input, OpStmt, OutVar, TensorCond, TensorSpec, While
from conformance.program.program import Program
from conformance.program.truncate import BLOCKS, locations
from conformance.render.source import load_model_module

#: The real paths the planted faults wrap (each where its framework imports).
WRAPPED = ("torch.script", "torch.compile_aot_eager", "torch.compile", "torch.onnx_torchscript", "tf.function",
           "paddle.to_static")
PREFIX = "planted_loc_"

# ------------------------------------------------------------------ the faults


def fault_of(program: Program) -> Optional[dict]:
    text = dict(program.meta).get("planted")
    return json.loads(text) if text else None


def _with_fault(stmts: tuple, fault: dict, seen: list) -> tuple:
    """``seen``: how many statements equal to a perturbed one came before (depth first), in a list."""
    out = []
    for s in stmts:
        kind = fault["kind"]
        if kind == "branch" and isinstance(s, If) and isinstance(s.cond, TensorCond) and \
                [s.cond.var, s.cond.reduce, s.cond.cmp, s.cond.value] == fault["cond"]:
            s = replace(s, cond=replace(s.cond, cmp="<" if s.cond.cmp == ">" else ">"))
        elif kind == "short" and isinstance(s, For) and s.var == fault["name"] and isinstance(s.count, int):
            s = replace(s, count=max(s.count - 1, 0))
        elif kind == "short" and isinstance(s, While) and s.counter == fault["name"]:
            s = replace(s, max_iter=max(s.max_iter - 1, 0))
        perturbed = kind == "perturb" and isinstance(s, OpStmt) and _key(s) == fault["stmt"]
        if perturbed:
            seen[0] += 1
        if type(s) in BLOCKS:
            s = replace(s, **{f: _with_fault(getattr(s, f), fault, seen) for f in BLOCKS[type(s)]})
        out.append(s)
        if perturbed and seen[0] - 1 == fault["nth"]:
            out += [OpStmt(s.out, "mul_scalar", (s.out,), (("c", 1.01),)),
                    OpStmt(s.out, "add_scalar", (s.out,), (("c", 0.01),))]
    return tuple(out)


def _key(s: OpStmt) -> list:
    """An op statement as a planted fault names it (as JSON reads it back: tuples as lists)."""
    return json.loads(json.dumps([s.out, s.op, list(s.args), [list(a) for a in s.attrs]]))


def faulty(program: Program) -> Program:
    """The program with its planted fault applied (itself where it has none)."""
    fault = fault_of(program)
    return replace(program, body=_with_fault(program.body, fault, [0])) if fault else program


def _planted_convert(real: PathRecord):
    def convert(ctx):
        program = faulty(ctx.program)
        fw = FRAMEWORKS[real.framework]
        model = fw.prepare(load_model_module(program, real.framework).Model(), ctx.device, False)
        if program.training and fw.autograd is not None:
            fw.autograd.set_training(model, True)
        return real.convert(replace(ctx, model=model))
    return convert


def register_planted(framework: str) -> list[str]:
    """Register the planted variant of each wrapped path of ``framework``; returns their ids."""
    load_framework(framework)
    done = []
    for pid in WRAPPED:
        real = PATHS.get(pid)
        if real is None or real.framework != framework:
            continue
        register(replace(real, name=PREFIX + real.name, convert=_planted_convert(real), default=False,
                         description=f"{real.description}, converting the model with a planted fault"))
        done.append(f"{framework}.{PREFIX}{real.name}")
    return done


#: torch's here; ``tests.planted_localize_tf`` and ``tests.planted_localize_paddle`` register the others
PLANTED_PATHS = register_planted("torch")


def planted_module(pid: str) -> str:
    """The module that registers the planted path ``pid`` (to import, or to ``--load`` in a worker)."""
    return {"tf": "tests.planted_localize_tf", "paddle": "tests.planted_localize_paddle"}.get(
        pid.split(".")[0], "tests.planted_localize")


# ------------------------------------------------------------------ the known programs

_SMOOTH = ("tanh", "sin", "sigmoid", "cos")
_SCALAR = (("mul_scalar", 1.5), ("mul_scalar", -0.75), ("add_scalar", 0.5), ("add_scalar", -0.25))
CATEGORIES = ("perturb_straight", "perturb_loop", "branch_straight", "branch_loop", "short_straight",
              "short_loop")


@dataclass(frozen=True)
class Planted:
    """A case with a planted fault: where it is, and what a localisation must report."""

    case: Case
    category: str
    location: tuple
    kind: str  # value, branch or iterations


class _Draw:
    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.n = 0

    def op(self, out: str, arg: str) -> OpStmt:
        roll = self.rng.random()
        if roll < 0.2 and out != "w":
            return OpStmt(out, self.rng.choice(("add", "mul")), (arg, "w"))
        if roll < 0.65:
            return OpStmt(out, self.rng.choice(_SMOOTH), (arg,))
        name, c = self.rng.choice(_SCALAR)
        return OpStmt(out, name, (arg,), (("c", c),))

    def chain(self, var: str, n: int) -> list:
        return [self.op(var, var) for _ in range(n)]

    def loop(self, body: tuple, name: str) -> object:
        if self.rng.random() < 0.5:
            return For(name, self.rng.choice((3, 4)), body)
        return While(TensorCond("v", "sum", ">", -1000.0 - self.n), 3, name, body)

    def branch(self, var: str) -> If:
        self.n += 1
        a, b = self.rng.sample(_SMOOTH, 2)
        return If(TensorCond(var, "sum", ">", -1000.0 - self.n), (OpStmt(var, a, (var,)),),
                  (OpStmt(var, b, (var,)), self.op(var, var)))


def planted_case(category: str, seed: int) -> Planted:
    """The known program ``seed`` of ``category``: ``v`` and ``w`` read the input (of a dynamic batch for odd
    seeds), chains of ops update them, and the construct of the category holds the faulty statement."""
    d = _Draw(seed * 7919 + CATEGORIES.index(category))
    head = [Get("v", "x0"), Get("w", "x0")] + d.chain("w", d.rng.randint(1, 2))
    pre = d.chain("v", d.rng.randint(1, 3))
    post = d.chain("v", d.rng.randint(1, 2))
    at = len(head) + len(pre)  # where the construct of the category goes
    if category == "perturb_straight":
        rest = [d.loop(tuple(d.chain("v", 2)), "i0")] + d.chain("v", 3)
        k = d.rng.randint(1, 3)
        target, location, kind = rest[k], (at + k,), "value"
    elif category == "perturb_loop":
        inner = d.chain("v", 3)
        k = d.rng.randint(0, 2)
        rest = [d.loop(tuple(inner), "i0")]
        target, location, kind = inner[k], (at, "body", k), "value"
    elif category == "branch_straight":
        target = d.branch("v")
        rest = [target] + d.chain("v", 1) + [d.loop(tuple(d.chain("v", 1)), "i0")]
        location, kind = (at,), "branch"
    elif category == "branch_loop":
        target = d.branch("v")
        first = d.chain("v", d.rng.randint(0, 1))
        rest = [d.loop(tuple(first + [target] + d.chain("v", 1)), "i0")]
        location, kind = (at, "body", len(first)), "branch"
    elif category == "short_straight":
        target = d.loop(tuple(d.chain("v", 2)), "i0")
        rest = [d.branch("v"), target]
        location, kind = (at + 1,), "iterations"
    else:
        target = d.loop(tuple(d.chain("v", 1)), "i1")
        rest = [For("i0", 2, tuple(d.chain("v", 1) + [target] + d.chain("v", 1)))]
        location, kind = (at, "body", 1), "iterations"
    body = tuple(head + pre + rest + post)
    if isinstance(target, OpStmt):
        fault = {"kind": "perturb", "stmt": _key(target), "nth": _nth(body, target, location)}
    elif isinstance(target, If):
        c = target.cond
        fault = {"kind": "branch", "cond": [c.var, c.reduce, c.cmp, c.value]}
    else:
        fault = {"kind": "short", "name": target.var if isinstance(target, For) else target.counter}
    shape = ("B", 4) if seed % 2 else (3, 4)
    program = Program(seed, (Input("x0", TensorSpec(shape)),), (), (), body, OutVar("v"),
                      meta=(("planted", json.dumps(fault)),))
    assert dict(locations(program.body))[location] == target, (category, seed)
    return Planted(Case(program, (InputSet("example", 3, seed),)), category, location, kind)


def planted_cases(category: str, n: int = 10, start: int = 0) -> list[Planted]:
    return [planted_case(category, seed) for seed in range(start, start + n)]


# ------------------------------------------------------------------ a fault that truncation hides


def _onnx_whole_model_fault(ctx):
    """torch's TorchScript ONNX export, with the first ``Sin`` node of the file computing ``Cos`` where the
    graph has a single output: a bug of the whole model (like a fusion) that the tuples of outputs of
    truncated programs never show, and that the file itself holds (so its intermediate outputs show it)."""
    import onnx

    from conformance.paths.ort import OrtModel
    from conformance.paths.torch import conversions

    real = conversions.onnx_export(ctx, dynamo=False)
    path = os.path.join(ctx.workdir, "model_torchscript.onnx")
    model = onnx.load(path)
    if len(model.graph.output) == 1:
        node = next((n for n in model.graph.node if n.op_type == "Sin"), None)
        if node is not None:
            node.op_type = "Cos"
        path = os.path.join(ctx.workdir, "model_whole_fault.onnx")
        onnx.save(model, path)
        return OrtModel(path, ctx.device, ctx.tensor_names, conversions.to_numpy)
    return real


def whole_model_case(seed: int = 0) -> Case:
    """A straight-line program with one ``sin`` (the statement at location (3,)) and a single output."""
    body = (Get("v", "x0"), OpStmt("v", "tanh", ("v",)), OpStmt("v", "mul_scalar", ("v",), (("c", 1.5),)),
            OpStmt("v", "sin", ("v",)), OpStmt("v", "add_scalar", ("v",), (("c", 0.5),)))
    return Case(Program(seed, (Input("x0", TensorSpec((3, 4))),), (), (), body, OutVar("v")),
                (InputSet("example", 3, seed),))


register(replace(PATHS["torch.onnx_torchscript"], name="planted_loc_whole_model", convert=_onnx_whole_model_fault,
                 default=False, description="TorchScript ONNX export whose first Sin computes Cos in a "
                                            "single-output graph"))


def _refuses_sigmoid(ctx):
    """torch.jit.script that refuses a model using sigmoid (a conversion error a statement brings in)."""
    if any(isinstance(s, OpStmt) and s.op == "sigmoid" for s in ctx.program.walk()):
        raise NotImplementedError("planted: sigmoid cannot be converted")
    return PATHS["torch.script"].convert(ctx)


register(replace(PATHS["torch.script"], name="planted_loc_refuse_sigmoid", convert=_refuses_sigmoid, default=False,
                 description="torch.jit.script that refuses sigmoid"))


def localise_planted(pid: str, category: str, n: int = 10, runner=None) -> list:
    """Localise the ``n`` known programs of ``category`` along the planted variant ``pid``: per case, ``(hit,
    Localisation)`` where ``hit`` says it names the planted statement with the planted kind."""
    from conformance.triage.localize import localize
    from conformance.triage.localize_workers import InProcess

    runner = runner or InProcess()
    out = []
    for p in planted_cases(category, n):
        record = runner(p.case, pid)
        if record["outcome"] != "mismatch":  # the fault must show at the end for there to be a finding
            raise AssertionError(f"{category} seed {p.case.program.seed}: {pid} gives {record['outcome']}: "
                                 f"{record['detail']['message'][:300]}")
        loc = localize(p.case, record, runner)
        hit = loc.status == "found" and tuple(loc.location or ()) == p.location and loc.kind == p.kind
        out.append((hit, loc))
    return out


# ------------------------------------------------------------------ faults planted in drawn programs


def _nth(body, target, location) -> int:
    return [loc for loc, s in locations(body) if s == target].index(location)


def drawn_planted(seed: int, count: int, runner, pid: str = "torch.planted_loc_script") -> list[Planted]:
    """Faults planted at a random statement that eager runs, in programs a campaign of seed ``seed`` draws: a
    perturbed float op, a flipped tensor ``if``, a constant-count ``for`` or a ``while`` one iteration short.
    Only plantings that make the program fail along ``pid`` are kept (a fault whose effect is dead, or a branch
    whose two sides compute the same, is no finding), up to ``count``."""
    import itertools

    from conformance.program.flow import executed, follow
    from conformance.program.ops import OPS
    from conformance.program.strategies import CONSTRUCTS
    from conformance.program.typecheck import TypeChecker
    from conformance.run.stream import generate_cases

    rng = random.Random(seed)
    ops = [name for name, rec in OPS.items() if not getattr(rec, "data_dependent", False)]
    out = []
    for case in itertools.islice(generate_cases(seed, ops=ops, constructs=CONSTRUCTS), 400):
        if len(out) >= count:
            break
        program = replace(case.program, meta=())
        case = Case(program, case.inputs[:1])
        try:
            reached = follow(program, runner.decisions(case, pid.split(".")[0])[0],
                             materialize(program, case.inputs[0])[1])
        except Exception:  # noqa: BLE001 - eager fails or cannot be followed: not a program to plant in
            continue
        ran = executed(reached)
        checker = TypeChecker(program)
        checker.run()
        kinds = {"perturb": [], "branch": [], "short": []}
        for loc, s in locations(program.body):
            if loc not in ran:
                continue
            if isinstance(s, OpStmt) and not OPS[s.op].inplace and \
                    all(t.dtype == "float32" for t in checker.arg_types.get(id(s), [])) and \
                    OPS[s.op].check(checker.arg_types[id(s)], s.attr).dtype == "float32":
                kinds["perturb"].append((loc, s))
            elif isinstance(s, If) and isinstance(s.cond, TensorCond):
                kinds["branch"].append((loc, s))
            elif (isinstance(s, For) and isinstance(s.count, int) and s.count > 0) or \
                    (isinstance(s, While) and (loc + ("body", 0)) in ran):
                kinds["short"].append((loc, s))
        available = [k for k, items in kinds.items() if items]
        if not available:
            continue
        kind = rng.choice(available)  # each kind as often as the program has one
        loc, target = rng.choice(kinds[kind])
        if kind == "perturb":
            fault = {"kind": "perturb", "stmt": _key(target), "nth": _nth(program.body, target, loc)}
        elif kind == "branch":
            if sum(1 for _, s in locations(program.body) if isinstance(s, If) and s.cond == target.cond) > 1:
                continue
            c = target.cond
            fault = {"kind": "branch", "cond": [c.var, c.reduce, c.cmp, c.value]}
        else:
            fault = {"kind": "short", "name": target.var if isinstance(target, For) else target.counter}
        planted = Case(replace(program, meta=(("planted", json.dumps(fault)),)), case.inputs)
        record = runner(planted, pid)
        if record["outcome"] != "mismatch":
            continue
        out.append(Planted(planted, f"drawn_{kind}", loc,
                           {"perturb": "value", "branch": "branch", "short": "iterations"}[kind]))
    return out
