"""Campaign cases started from the corpus: the IR cases of ``cases/`` mutated by the generator's own strategies, so
a campaign also explores the neighbourhood of every bug already found (``conformance fuzz --corpus cases/``).

A neighbour of a corpus case is its program, or a prefix of it (cut at a top-level statement by
:func:`~conformance.program.truncate.truncate`, returning what is live there), with new weights (another program
seed) or the same, run on input sets drawn afresh by :func:`~conformance.program.strategies.input_sets` (other
values, another batch, other kwargs values). Hypothesis draws all of it, so a campaign stays deterministic: the
same seed and the same corpus give the same cases.

Why not Hypothesis's example database: it stores the *choice sequences* Hypothesis made while drawing, keyed by
test, and replays (then mutates) those. A corpus program was written by hand or reduced by triage, never drawn,
so it has no choice sequence, and Hypothesis 6 has no inverse that would find one for a composite strategy; and
campaigns draw with the generate phase alone (``database=None``), so that case ``i`` of seed ``s`` is the same on
every machine. Drawing neighbours inside the strategy keeps both.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Iterable, Optional, Sequence, Union

import hypothesis.strategies as st

from conformance.program.case import Case
from conformance.program.flow import cuts
from conformance.program.ir import OpStmt, ProgramError
from conformance.program.ops import OPS
from conformance.program.ops.effects import FAMILIES
from conformance.program.ops.record import FRAMEWORKS
from conformance.program.strategies import DEFAULT_CONSTRUCTS, cases, input_sets
from conformance.program.truncate import truncate
from conformance.program.typecheck import op_arg_types

#: The share of a campaign's cases started from the corpus when one is given.
CORPUS_SHARE = 0.25
#: The share of a multi-framework campaign's programs drawn for the frameworks that have a construct some others
#: lack (:func:`construct_subsets`: mutation, which TensorFlow has not); the others skip those cases.
SUBSET_SHARE = 0.25


def corpus_cases(folder: Union[str, Path], frameworks: Optional[Iterable[str]] = None) -> list[Case]:
    """The IR cases of a corpus folder (files with a ``"case"``; hand-written models and files that do not parse
    are left out), in file-name order, keeping those whose every op renders for each of ``frameworks``."""
    out = []
    for file in sorted(Path(folder).glob("*.json")):
        try:
            doc = json.loads(file.read_text())
            case = Case.from_dict(doc["case"])
        except (OSError, ValueError, KeyError, TypeError, ProgramError):
            continue
        if renders_for(case, frameworks or ()):
            out.append(case)
    return out


def without_emitter(case: Case, framework: str) -> list[str]:
    """The ops of the case's program that ``framework`` has no emitter for (sorted; empty: it renders)."""
    return sorted({op for op in case.program.ops() if op not in OPS or framework not in OPS[op].emit})


def renders_for(case: Case, frameworks: Iterable[str]) -> bool:
    """Whether every op of the case's program has an emitter for each of ``frameworks``."""
    return not any(without_emitter(case, fw) for fw in frameworks)


def unrenderable(case: Case, framework: str) -> Optional[str]:
    """Why ``framework`` cannot run the case (an op it has no emitter for, an argument dtype its kernels refuse, or
    an argument rank past what its kernel takes), or None: it can."""
    missing = without_emitter(case, framework)
    if missing:
        rec = OPS.get(missing[0])
        why = rec.missing.get(framework, "no emitter") if rec is not None else "unknown op"
        return f"no {framework} emitter for {', '.join(missing)}: {why}"
    if any(OPS[op].refuses.get(framework) or framework in OPS[op].max_rank for op in case.program.ops()):
        arg_types = op_arg_types(case.program)
        for s in case.program.walk():
            if not isinstance(s, OpStmt):
                continue
            rec, types = OPS[s.op], arg_types[id(s)]
            refused = sorted({t.dtype for t in types} & set(rec.refuses.get(framework, ())))
            if refused:
                return f"{framework}'s {s.op} refuses {', '.join(refused)}"
            top = rec.rank_limit((framework,))
            if top is not None and any(t.rank > top for t in types):
                return f"{framework}'s {s.op} takes a rank of {top} at most"
    return None


def construct_subsets(frameworks: Sequence[str], constructs: Iterable[str],
                      ops: Optional[Iterable[str]] = None) -> list[tuple[str, tuple]]:
    """``(construct, frameworks)`` for each effect construct of ``constructs`` that some of ``frameworks`` (two or
    more) have no statement for: the frameworks that have one (among ``ops``, where the ops drawn are named). A
    campaign over all of ``frameworks`` draws only what every one renders, so it would never draw that construct;
    :func:`campaign_cases` draws a share of its programs for each such subset."""
    frameworks, named = tuple(frameworks), None if ops is None else set(ops)
    out = []
    for family, construct in FAMILIES.items():
        having = tuple(fw for fw in frameworks if any(rec.family == family and fw in rec.emit for rec in OPS.values()
                                                      if named is None or rec.name in named))
        if construct in constructs and len(frameworks) > 1 and having and having != frameworks:
            out.append((construct, having))
    return out


@st.composite
def neighbours(draw, case: Case) -> Case:
    """A case near ``case`` (see the module docstring): the whole program or a prefix, its weights or new ones,
    fresh input sets."""
    program = case.program
    prefixes = [c for c in cuts(program) if not c.block and 0 < c.index < len(program.body)]
    if prefixes and draw(st.booleans()):
        try:
            program = truncate(program, draw(st.sampled_from(prefixes)), markers=False).program
        except ProgramError:  # a cut the truncation cannot make: the whole program stays
            pass
    if draw(st.booleans()):
        program = dataclasses.replace(program, seed=draw(st.integers(0, 2**31 - 1)))
    return Case(program, draw(input_sets(program)))


def campaign_cases(corpus: Union[None, str, Path, Sequence[Case]] = None, corpus_share: float = CORPUS_SHARE,
                   subset_share: float = SUBSET_SHARE, **options):
    """The strategy a campaign draws from: :func:`~conformance.program.strategies.cases` (with ``options``); over
    several ``frameworks``, a ``subset_share`` of the programs drawn for the frameworks that have a construct the
    others lack (:func:`construct_subsets`; the subset is a seeded draw, and the others skip those cases:
    :func:`unrenderable`); and with a ``corpus`` (a folder of case files, or cases), a ``corpus_share`` of the cases
    drawn as :func:`neighbours` of its IR cases (those the campaign's ``frameworks`` can all render)."""
    fresh = cases(**options)
    subsets = construct_subsets(options.get("frameworks") or FRAMEWORKS, options.get("constructs", DEFAULT_CONSTRUCTS),
                                options.get("ops"))
    if subsets and subset_share > 0:
        whole, partial = fresh, [cases(**{**options, "frameworks": fws}) for _, fws in subsets]
        # one draw of 0 .. every-1: the last value takes a subset (Hypothesis starts a chunk at 0, the whole set)
        every = max(1, round(1 / subset_share))
        fresh = st.integers(0, every * len(partial) - 1).flatmap(
            lambda n: partial[n - (every - 1) * len(partial)] if n >= (every - 1) * len(partial) else whole)
    if isinstance(corpus, (str, Path)):
        corpus = corpus_cases(corpus, options.get("frameworks"))
    if not corpus or corpus_share <= 0:
        return fresh
    near = st.sampled_from(list(corpus)).flatmap(neighbours)
    # a Random seeded by one draw: Hypothesis's integers lean to small values (0 first), which would skew the share
    return st.randoms(use_true_random=True).flatmap(lambda r: near if r.random() < corpus_share else fresh)
