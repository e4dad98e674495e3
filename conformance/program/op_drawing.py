"""How the program generator draws an op statement: which op, on which arguments, with which attributes.

:class:`OpDrawing` is the part of the generator (``conformance.program.strategies``) that applies op records:
an op is drawn by the records' weights (:func:`spread`), its arguments among the variables in scope whose
types and value ranges fit the record's rules, its attributes by the record's strategy; an op that takes bool
or int64 arguments where there are none gets one made first (:data:`ENABLERS`). The generator class mixes it
in and provides the scope, the variables and the weights (``fresh``, ``assign``, ``variable``, ``params``).
"""

from __future__ import annotations

import bisect
import dataclasses
import itertools
import math
from typing import Callable, Iterable, Iterator, Optional

import hypothesis.strategies as st
from hypothesis import assume

from conformance.program.coverage import (
    CHOICES,
    FOCUS_CHOICES,
    FOCUS_STATEMENTS,
    Steering,
    features,
    pairs,
    spread,
    weighted,
)
from conformance.program.edges import MAX_RANK, focus_bins, focus_leaf, possible
from conformance.program.ir import Get, Input, OpStmt, OutDict, OutSeq, OutVar, Param, ProgramError, out_leaves
from conformance.program.ops import MAX_ABS, OPS, OpRecord, broadcast
from conformance.program.ops.record import dtype_fits, may_be_empty, name_data_dim

#: How many ops the generator draws for a statement before it takes the next op that fits: many ops fit only
#: some arguments (a rank, static dims, a value range), and the next one after a run of those would be drawn
#: far more often than the others.
DRAWS = 8
#: The value range of a variable that carries edge values (``Variable.edge``): nothing is known of it.
EDGE_RANGE = (-math.inf, math.inf)
#: Ops that make a variable of a dtype other ops take and programs otherwise seldom have.
ENABLERS = {"bool": ("gt", "lt", "ge", "le", "ne", "to_bool"), "int64": ("to_int", "argmax", "argmin", "argsort")}
#: The op that copies a focus op's fresh input, for an in-place op to write into or as a second argument of its shape
#: (``OpDrawing.enable``).
FOCUS_COPY = "neg"


@dataclasses.dataclass(frozen=True)
class Avoid:
    """What a campaign's generator leaves out: the programs that use one of ``ops`` (where it names any) and exercise
    one of ``constructs`` (where it names any), with a zero-size input where ``zero_size`` (the selector of a known
    bug that the campaign's steering skips on every task: :meth:`~conformance.run.plan.Planner.avoided`)."""

    ops: frozenset = frozenset()
    constructs: frozenset = frozenset()
    zero_size: bool = False


class OpDrawing:
    """Op statements, for the generator that mixes this in (see the module docstring)."""

    frameworks: tuple = ()  # the frameworks the program is rendered for (an op's ``refuses`` applies to them)
    steering: Optional[Steering] = None  # pairwise coverage to steer by (conformance.program.coverage)
    drawn_pairs: dict  # per op, the attribute pairs this program drew (with steering)
    focus_inputs: tuple = ()  # the inputs focus op statements made (with steering)
    focus_outs: tuple = ()  # the variables focus op statements assigned, in order

    def _weigh(self, recs: list) -> None:
        """Draw from the ops ``recs``, each by its weight (raised while it has unseen pairs)."""
        self.ops = recs
        self.by_name = {rec.name: rec for rec in recs}
        # the ops' weights as cumulative integer shares (a draw of an integer below the total picks one)
        weights = [rec.weight if self.steering is None else self.steering.weight(rec.name, rec.weight) for rec in recs]
        self.cumulative = list(itertools.accumulate(max(1, round(w * 4)) for w in weights))

    def leave_out(self, avoid: Iterable[Avoid]) -> None:
        """From here on, draw nothing that meets one of ``avoid``: none of the ops it names, or where it names none,
        neither the ops that exercise its constructs (an in-place write into an input) nor the statement kinds they
        name (a data-dependent ``if``). What other statements may still exercise (a ``break`` on a tensor in a loop,
        a Python value's scene) the campaign's steering still skips. Where that would leave no op at all, the ops
        stay."""
        from conformance.program.effects import op_constructs

        ops: set = set()
        constructs: set = set()
        for a in avoid:
            ops |= a.ops or {rec.name for rec in self.ops if op_constructs(rec.name) & a.constructs}
            constructs |= set() if a.ops else a.constructs
        kept = [rec for rec in self.ops if rec.name not in ops]
        if kept and len(kept) < len(self.ops):
            self._weigh(kept)
            self.renderable = tuple(o for o in self.renderable if o not in ops)
        self.constructs = self.constructs - constructs
        self.left_out |= constructs

    def train_layers(self, scope) -> Optional[list]:
        """One op that depends on train()/eval() or autograd, where one fits (else a plain op)."""
        layers = [rec for rec in self.ops if rec.train_layer]
        return self.op(scope, layers) if layers else None

    def focus_statements(self, scope, inputs: int, ranges: tuple) -> list:
        """With steering: up to :data:`~conformance.program.coverage.FOCUS_STATEMENTS` *focus* op statements (where the
        body begins; the program has ``inputs`` inputs so far), each an op drawn by its count of unseen reachable pairs
        applied to a fresh input (``focus_inputs``; float ones in one of ``ranges``) drawn for the op's missing pairs
        (see :meth:`focus_statement`)."""
        if self.steering is None:
            return []
        names = tuple(rec.name for rec in self.ops)
        weights = self.steering.focus_weights(names)
        made: list = []
        for _ in range(self.draw(st.integers(0, FOCUS_STATEMENTS))):
            made += self.focus_statement(self.by_name[weighted(self.draw, names, weights)], scope, inputs, ranges)
        return made

    def focus_statement(self, rec: OpRecord, scope, inputs: int, ranges: tuple) -> list:
        """``rec`` applied to a fresh input whose argument features (dtype, rank, a dim of size 0, edge values, the
        dynamic dim) are drawn by how many of the op's missing pairs they hold (``Steering.fitting_inputs``), with
        the best of :data:`~conformance.program.coverage.FOCUS_CHOICES` attribute choices; its result noted for
        the outputs (:meth:`focus_output`). Where no such input fits the op, it is applied to the variables in scope;
        nothing where none fits."""
        fits = self.steering.fitting_inputs(rec.name, focus_bins(self.constructs, rec),
                                            self.drawn_pairs.get(rec.name, ()), possible)
        first, made = None, []
        if fits:
            feats = weighted(self.draw, tuple(f for f, _ in fits), [score ** 2 for _, score in fits])
            for spec in focus_leaf(self.draw, feats, ranges):  # the first value range the op takes
                name, source = self.fresh(), f"x{inputs + len(self.focus_inputs)}"
                scope.env[name] = self.variable(spec.type, (spec.low, spec.high), bool(spec.edge))
                takes = not rec.inplace and self.takes_first(rec, scope, name)
                enabled = [] if takes else self.enable(rec, scope, name)
                if takes or enabled:  # what uses it keeps it
                    scope.local.add(name)
                    self.aliased.add(name)
                    self.focus_inputs += (Input(source, spec),)
                    first, made = name, [Get(name, source, ()), *enabled]
                    if rec.inplace and enabled:  # it writes into the copy of the input
                        first = enabled[-1].out
                    break
                del scope.env[name]
                self.counter -= 1
        if first is None and not self.usable(rec, scope):
            return []
        stmts = self.op(scope, [rec], first=first, choices=FOCUS_CHOICES)
        if not stmts:
            return made
        self.focus_outs += (stmts[-1].out,)
        scope.local.discard(stmts[-1].out)  # no later statement reassigns it: the output holds the focus op's result
        return made + stmts

    def takes_first(self, rec: OpRecord, scope, name: str) -> bool:
        """Whether ``rec`` takes the variable ``name`` as its first argument here."""
        return any(args[0] == name for args in self.iter_candidates(rec, scope))

    def enable(self, rec: OpRecord, scope, first: str) -> list:
        """Statements that make, from the fresh input ``first``, what ``rec`` needs to take it (where it does not
        take ``first`` with the variables in scope): for an in-place op, a copy to write into (:data:`FOCUS_COPY`:
        an input is not written in place, that is the ``input_inplace`` construct); else another argument beside
        it: its record's enabler (the targets of ``in_top_k``), a bool or int64 of ``first``'s shape
        (:data:`ENABLERS`: the mask of ``masked_fill``), or else a copy of it (the source of ``scatter_reduce``). So
        the fresh input and its pairs reach the op; none where no maker takes ``first``."""
        if rec.inplace:
            makers = [self.by_name[FOCUS_COPY]] if FOCUS_COPY in self.by_name else []
        elif rec.enabler:
            maker = self.by_name.get(rec.enabler.op)
            return (self.op(scope, [maker], rec.enabler.attrs, first=first) or []) if maker else []
        else:  # a bool or int64 of its shape where the op takes one, else a float of its shape (scatter's source)
            missing = [t for t in rec.arg_dtypes[1:] if t in ENABLERS]
            names = ENABLERS[missing[0]] if missing else (FOCUS_COPY,) if rec.arity >= 2 else ()
            makers = [self.by_name[n] for n in names if n in self.by_name]
        makers = [m for m in makers if self.takes_first(m, scope, first)]
        return (self.op(scope, makers, first=first) or []) if makers else []

    def focus_output(self, output, scope):
        """``output`` with the variables the focus op statements assigned added (those still in ``scope``, the
        body's, and not outputs already): a converter's fault on a focus op then reaches what is compared."""
        have = set(out_leaves(output))
        extra = [v for v in dict.fromkeys(reversed(self.focus_outs)) if v in scope.env and v not in have]
        for leaf in map(OutVar, extra):
            if isinstance(output, OutSeq):
                output = OutSeq(output.kind, output.items + (leaf,))
            elif isinstance(output, OutDict):
                output = OutDict(output.items + ((f"out{len(output.items)}", leaf),))
            else:
                output = OutSeq("tuple", (output, leaf))
        return output

    def candidates(self, rec: OpRecord, scope, limit: int = 64) -> list[tuple[str, ...]]:
        """Argument tuples ``rec`` accepts here (types and value ranges), most recent variables first."""
        return list(itertools.islice(self.iter_candidates(rec, scope), limit))

    def iter_candidates(self, rec: OpRecord, scope) -> Iterator[tuple[str, ...]]:
        env = scope.env
        names = sorted(env, key=lambda n: (int(n[1:]) if n[1:].isdigit() else 0, n), reverse=True)
        refused = {d for fw in self.frameworks for d in rec.refuses.get(fw, ())}
        top = rec.rank_limit(self.frameworks)
        wants = rec.arg_dtypes * rec.arity

        def ok(args):
            ts = [env[a].type for a in args]
            try:
                for t, want in zip(ts, wants):
                    if not dtype_fits(t.dtype, want) or t.dtype in refused:
                        return False
                edge = any(env[a].edge for a in args)
                if edge and (not rec.edge_ok or rec.inplace):
                    return False
                if rec.inplace and rec.arity == 2:
                    rec.check(ts, {})  # the second argument must broadcast into the first
                elif rec.arity >= 2 and rec.arg_shapes == "broadcast":
                    broadcast(ts[0].shape, ts[1].shape)
                if not rec.empty_ok and any(may_be_empty(t) for t in ts):
                    return False
                if top is not None and any(t.rank > top for t in ts):
                    return False
                if not edge and not rec.domain([env[a].iv for a in args], ts):
                    return False
            except ProgramError:
                return False
            try:  # the shape rule's own checks, where they do not need the attributes
                rec.check(ts, {})
            except ProgramError:
                return False
            except (KeyError, TypeError):
                pass  # the rule needs attributes, which are drawn for arguments that fit the domain
            return True

        firsts, seconds = names, names
        if rec.inplace:  # the target must be unaliased and reassignable in this scope
            firsts = [n for n in names if n not in self.aliased and scope.may_write_in_place(n)]
            seconds = sorted(env)
        if rec.arity == 1:
            yield from ((a,) for a in firsts if ok((a,)))
        elif rec.arity == 2:
            yield from ((a, b) for a in firsts for b in seconds if not (rec.inplace and a == b) and ok((a, b)))
        else:  # where(cond, x, y)
            takes = [n for n in names if rec.edge_ok or not env[n].edge]
            bools = [n for n in takes if env[n].type.dtype == "bool"]
            floats = [n for n in takes if env[n].type.dtype == "float32"]
            for c, a, b in itertools.product(bools, floats, floats):
                try:
                    rec.check([env[c].type, env[a].type, env[b].type], {})
                except ProgramError:
                    continue
                yield (c, a, b)

    def usable(self, rec: OpRecord, scope) -> bool:
        """Whether ``rec`` can be applied here: arguments that fit it, a float kwarg for ``mul_kwarg``, and no
        loop around an op whose result size depends on the data."""
        return ((rec.name != "mul_kwarg" or any(k.type == "float" for k in self.kwargs))
                and not (rec.data_dependent and scope.loops)
                and next(self.iter_candidates(rec, scope), None) is not None)

    def pick(self, scope) -> tuple[list, OpRecord]:
        """An op that fits here, and the statements made first to fit it: drawn by the ops' weights, up to
        :data:`DRAWS` draws; an op that takes bool or int64 arguments where there are none gets one made for it
        first (a comparison, a cast, an argmax: such arguments are rare otherwise, and so are the ops that take
        them); then the next op that fits after the last one drawn (checking every op at every statement would make
        drawing slow with many ops)."""
        d = self.draw
        made: list = []  # kept even where the op still does not fit: the scope has their variables now
        for attempt in range(DRAWS):
            unit = spread(d(st.integers(0, 2**32 - 1)), d(st.integers(0, 2**32 - 1)), self.cumulative[-1])
            i = bisect.bisect_right(self.cumulative, unit)
            rec = self.ops[i]
            if self.usable(rec, scope):
                return made, rec
            if not made:
                made = self.argument_for(rec, scope)
                if made and self.usable(rec, scope):
                    return made, rec
        for step in range(1, len(self.ops) + 1):
            rec = self.ops[(i + step) % len(self.ops)]
            if self.usable(rec, scope):
                return made, rec
        # only variables no drawn op takes (integers, float16, edge values, empty tensors): a cast fits them
        if self.usable(OPS["cast"], scope):
            return made, OPS["cast"]
        raise ProgramError("no op fits the variables in scope")

    def choose(self, rec: OpRecord, scope, candidates: list, choices: int = CHOICES) -> tuple[tuple, list, dict]:
        """The arguments of an op statement, their types and its attributes: drawn once, or with ``steering``
        (:class:`~conformance.program.coverage.Steering`) ``choices`` times, taking the choice with the most
        attribute pairs not seen yet (the first of equals)."""
        d = self.draw
        best = None
        for _ in range(1 if self.steering is None else choices):
            args = d(st.sampled_from(candidates))
            types = [scope.env[a].type for a in args]
            attrs = rec.attrs(d, types) if rec.attrs else {}
            if self.steering is None:
                return args, types, attrs
            feats = features(rec.name, types, attrs, any(scope.env[a].edge for a in args))
            score = self.steering.novelty(rec.name, feats, self.drawn_pairs.get(rec.name, ()))
            if best is None or score > best[0]:
                best = (score, args, types, attrs, feats)
        self.drawn_pairs.setdefault(rec.name, set()).update(pairs(best[4]))
        return best[1:4]

    def argument_for(self, rec: OpRecord, scope) -> list:
        """A statement that makes an argument ``rec`` takes: its record's :class:`~conformance.program.ops.record.
        Enabler`, or one that makes a variable of a dtype ``rec`` takes and no variable here has (none if none is
        missing, or no op makes one here)."""
        if rec.data_dependent and scope.loops:
            return []
        if rec.enabler:
            maker = self.by_name.get(rec.enabler.op)
            return (self.op(scope, [maker], rec.enabler.attrs) or []) if maker else []
        have = {v.type.dtype for v in scope.env.values()}
        missing = [t for t in rec.arg_dtypes if t in ENABLERS and t not in have]
        if not missing:
            return []
        makers = [self.by_name[name] for name in ENABLERS[missing[0]] if name in self.by_name]
        return (self.op(scope, makers) or []) if makers else []

    def op(self, scope, pool: Optional[list] = None, fixed: Optional[Callable] = None, first: Optional[str] = None,
           choices: int = CHOICES) -> Optional[list]:
        """An op statement (and any statements made first to fit it): drawn by the weights, or from ``pool``;
        ``fixed`` (an enabler's ``attrs``) picks the arguments it returns attributes for, and those attributes;
        ``first``: the variable its first argument is; ``choices``: see :meth:`choose`."""
        d = self.draw
        before: list = []  # statements that make an argument the op needs
        if pool is None:
            before, rec = self.pick(scope)
        else:
            usable = [rec for rec in pool if self.usable(rec, scope)]
            if not usable:
                return None
            rec = d(st.sampled_from(usable))
        candidates = self.candidates(rec, scope)
        if first is not None:
            candidates = [args for args in candidates if args[0] == first] or candidates
        if fixed:
            candidates = [args for args in candidates if fixed([scope.env[a].type for a in args]) is not None]
            if not candidates:
                return None
        if fixed:
            args = d(st.sampled_from(candidates))
            types = [scope.env[a].type for a in args]
            attrs = fixed(types)
        else:
            args, types, attrs = self.choose(rec, scope, candidates, choices)
        if rec.name == "mul_kwarg":
            attrs = {"kwarg": d(st.sampled_from([k.name for k in self.kwargs if k.type == "float"]))}
        out_t = rec.check(types, attrs)
        if out_t.rank > MAX_RANK:  # too high a rank: another op where this one was picked (what was made first stays)
            again = self.op(scope) if pool is None else None
            return before + again if again is not None else before or None
        edge = any(scope.env[a].edge for a in args)
        if edge:  # NaN, infinities or values past the op's domain: no value range holds (see OpRecord.edge_ok)
            iv = EDGE_RANGE
        else:
            iv = rec.bound([scope.env[a].iv for a in args], attrs, types)
            if not iv[0] <= iv[1]:  # a record's bug: the ops drawn next would take the inverted interval for values
                raise ValueError(f"op record {rec.name}: value bound {iv} of arguments {types} is inverted")
            assume(all(math.isfinite(x) and abs(x) <= MAX_ABS for x in iv))
        params = []
        for weight in rec.params(types, attrs):
            params.append(f"p{len(self.params)}")
            self.params.append(Param(params[-1], *weight, getattr(weight, "offset", 0.0),
                                     getattr(weight, "trainable", True)))
        stmt = OpStmt("", rec.name, tuple(args), tuple(sorted(attrs.items())), tuple(params))
        if rec.inplace:
            target = args[0]
            assume(scope.may_assign(target, out_t, iv))  # e.g. a loop-carried variable must stay in range
            if target not in scope.local:
                scope.reassigned.add(target)
            scope.env[target] = self.variable(out_t, iv, edge)
            self.recent.append(target)
            return before + [dataclasses.replace(stmt, out=target)]
        if rec.data_dependent:  # a new variable, its data-dependent dim named after it (see OpRecord)
            name = self.fresh()
            scope.local.add(name)
            scope.env[name] = self.variable(name_data_dim(out_t, name), iv, edge)
            self.recent.append(name)
            made = dataclasses.replace(stmt, out=name)
        else:
            made = self.assign(scope, stmt, out_t, iv, edge)
        if rec.view:
            self.aliased.update((made.out, args[0]))
        return before + [made]
