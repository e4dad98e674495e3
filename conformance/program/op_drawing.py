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
from typing import Callable, Iterator, Optional

import hypothesis.strategies as st
from hypothesis import assume

from conformance.program.coverage import CHOICES, FOCUS_EXTRA, FOCUS_OUTPUTS, FOCUS_SHARE, Steering, features, pairs
from conformance.program.ir import OpStmt, OutDict, OutSeq, OutVar, Param, ProgramError, out_leaves
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


def spread(first: int, second: int, n: int) -> int:
    """Two drawn 32-bit values as one of ``n`` choices, about evenly: Hypothesis draws small integers far more
    often than large ones (one draw below ``n`` would favour the first ops of the table several times over),
    so each is scattered by a multiplicative hash (Knuth's) and the two are added (one hashed value would still
    favour the few choices that 1, 2, 3 land on). 0 and 0 give 0, where shrinking goes."""
    return ((first * 2654435761) % 2**32 + (second * 2654435761 * 7) % 2**32) % n


def weighted(draw, choices: tuple, weights) -> object:
    """One of ``choices`` drawn by ``weights`` (positive numbers; None: evenly), from two drawn 32-bit values as
    :func:`spread` scatters them; 0 and 0 give the first choice, where shrinking goes."""
    shares = [max(1, round(w * 1024)) for w in weights] if weights is not None else [1] * len(choices)
    unit = spread(draw(st.integers(0, 2**32 - 1)), draw(st.integers(0, 2**32 - 1)), sum(shares))
    return choices[bisect.bisect_right(list(itertools.accumulate(shares)), unit)]


class OpDrawing:
    """Op statements, for the generator that mixes this in (see the module docstring)."""

    frameworks: tuple = ()  # the frameworks the program is rendered for (an op's ``refuses`` applies to them)
    steering: Optional[Steering] = None  # pairwise coverage to steer by (conformance.program.coverage)
    drawn_pairs: dict  # per op, the attribute pairs this program drew (with steering)
    focus_outs: tuple = ()  # the variables focus op statements assigned, in order (op)

    def focus(self) -> Optional[Steering]:
        """With ``steering``: focus it on one of this program's ops, drawn by their unseen pairs
        (:meth:`~conformance.program.coverage.Steering.focus_weights`), and return it (none without steering)."""
        if self.steering is not None:
            names = tuple(rec.name for rec in self.ops)
            self.steering = self.steering.at(weighted(self.draw, names, self.steering.focus_weights(names)))
        return self.steering

    def focus_statements(self, scope) -> list:
        """With steering: up to :data:`~conformance.program.coverage.FOCUS_EXTRA` applications of the program's focus
        op at the end of its body (most often in its output, so a converter's fault on it shows), while it fits."""
        rec = self.by_name.get(self.steering.focus) if self.steering is not None else None
        made: list = []
        for _ in range(self.draw(st.integers(0, FOCUS_EXTRA)) if rec is not None else 0):
            if not self.usable(rec, scope):
                made += self.argument_for(rec, scope)
            stmts = self.op(scope, [rec])
            if stmts is None:
                break
            made += stmts
        return made

    def focus_output(self, output, scope):
        """``output`` with the variables the last :data:`~conformance.program.coverage.FOCUS_OUTPUTS` focus op
        statements assigned added (those still in ``scope``, the body's, and not outputs already): a converter's
        fault on the focus op then reaches what is compared, not dead code."""
        have = set(out_leaves(output))
        extra = [v for v in dict.fromkeys(reversed(self.focus_outs)) if v in scope.env and v not in have]
        for leaf in map(OutVar, extra[:FOCUS_OUTPUTS]):
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

        def ok(args):
            ts = [env[a].type for a in args]
            try:
                refused = {d for fw in self.frameworks for d in rec.refuses.get(fw, ())}
                for t, want in zip(ts, rec.arg_dtypes * rec.arity):
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
            bools = [n for n in names if env[n].type.dtype == "bool"]
            floats = [n for n in names if env[n].type.dtype == "float32"]
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
        """An op that fits here, and the statements made first to fit it: with steering, now and then the program's
        focus op (:data:`~conformance.program.coverage.FOCUS_SHARE`, where it fits); else drawn by the ops' weights,
        up to :data:`DRAWS` draws; an op that takes bool or int64 arguments where there are none gets one made for it
        first (a comparison, a cast, an argmax: such arguments are rare otherwise, and so are the ops that take
        them); then the next op that fits after the last one drawn (checking every op at every statement would make
        drawing slow with many ops)."""
        d = self.draw
        made: list = []  # kept even where the op still does not fit: the scope has their variables now
        focus = self.by_name.get(self.steering.focus) if self.steering is not None else None
        if focus is not None and weighted(d, (False, True), FOCUS_SHARE):  # the program's focus op, where it fits
            if self.usable(focus, scope):
                return made, focus
            made = self.argument_for(focus, scope)
            if made and self.usable(focus, scope):
                return made, focus
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

    def choose(self, rec: OpRecord, scope, candidates: list) -> tuple[tuple, list, dict]:
        """The arguments of an op statement, their types and its attributes: drawn once, or with ``steering``
        (:class:`~conformance.program.coverage.Steering`) :data:`~conformance.program.coverage.CHOICES` times,
        taking the choice with the most attribute pairs not seen yet (the first of equals)."""
        d = self.draw
        best = None
        for _ in range(1 if self.steering is None else CHOICES):
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

    def op(self, scope, pool: Optional[list] = None, fixed: Optional[Callable] = None) -> Optional[list]:
        """An op statement (and any statements made first to fit it): drawn by the weights, or from ``pool``;
        ``fixed`` (an enabler's ``attrs``) picks the arguments it returns attributes for, and those attributes."""
        d = self.draw
        first: list = []  # statements that make an argument the op needs
        if pool is None:
            first, rec = self.pick(scope)
        else:
            usable = [rec for rec in pool if self.usable(rec, scope)]
            if not usable:
                return None
            rec = d(st.sampled_from(usable))
        candidates = self.candidates(rec, scope)
        if fixed:
            candidates = [args for args in candidates if fixed([scope.env[a].type for a in args]) is not None]
            if not candidates:
                return None
        if fixed:
            args = d(st.sampled_from(candidates))
            types = [scope.env[a].type for a in args]
            attrs = fixed(types)
        else:
            args, types, attrs = self.choose(rec, scope, candidates)
        if rec.name == "mul_kwarg":
            attrs = {"kwarg": d(st.sampled_from([k.name for k in self.kwargs if k.type == "float"]))}
        out_t = rec.check(types, attrs)
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
            return first + [self.note_focus(rec, dataclasses.replace(stmt, out=target))]
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
        return first + [self.note_focus(rec, made)]

    def note_focus(self, rec: OpRecord, stmt: OpStmt) -> OpStmt:
        """``stmt``, an application of ``rec``; its variable noted where ``rec`` is the program's focus op."""
        if self.steering is not None and rec.name == self.steering.focus:
            self.focus_outs += (stmt.out,)
        return stmt
