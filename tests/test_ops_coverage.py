"""The generator uses every op record: a draw of the campaign stream counts each op's statements.

``-m slow`` draws 2,000 programs (seed 0, every op of every framework; and 2,000 with every opt-in construct on) and
requires each op at least 5 times; the default run draws 300 and requires nine in ten ops drawn at least
once. Both print the counts, least drawn first (``pytest -s``). The records' families and the gaps the
records declare are checked here too, and the table ``conformance ops`` prints.
"""

from __future__ import annotations

import collections
import itertools
import json

import pytest

from conformance.program.edges import EDGE_CONSTRUCTS
from conformance.program.effects import EFFECT_CONSTRUCTS
from conformance.program.ops import OPS
from conformance.program.ops.table import family_counts, gaps, op_coverage, table
from conformance.program.strategies import CONSTRUCTS, TRAIN_CONSTRUCTS

#: the op families issue 16 asks for, each with at least a few records
FAMILIES = ("pooling", "padding", "resize", "convolution", "indexing", "sorting", "reduction", "cumulative",
            "elementwise", "activation", "logical", "shape", "linalg", "normalization", "attention", "recurrent")


def draw_counts(n: int, seed: int = 0) -> collections.Counter:
    """How many statements of each op ``n`` programs of the campaign stream of ``seed`` hold, plus ``n`` of the
    stream with every opt-in construct on (the ops only such programs use, ``OpRecord.construct``), over every op;
    each case must load again from its JSON (type-checked: valid by construction)."""
    from conformance.program.case import Case
    from conformance.run.stream import generate_cases

    counts: collections.Counter = collections.Counter()
    for opt_in in ((), EDGE_CONSTRUCTS + EFFECT_CONSTRUCTS):
        stream = generate_cases(seed, frameworks=(), constructs=CONSTRUCTS + TRAIN_CONSTRUCTS + opt_in)
        for case in itertools.islice(stream, n):
            assert Case.from_dict(json.loads(json.dumps(case.to_dict()))) == case
            counts.update(case.program.ops())
    return counts


def _report(counts: collections.Counter) -> None:
    print("\nop statements per op, least drawn first:")
    for name in sorted(OPS, key=lambda o: (counts[o], o)):
        print(f"  {name:30s} {counts[name]}")


def test_at_least_150_records_over_the_families():
    assert len(OPS) >= 150
    have = family_counts()
    assert all(have.get(f, 0) >= 2 for f in FAMILIES), {f: have.get(f, 0) for f in FAMILIES}


def test_a_short_draw_uses_most_ops():
    counts = draw_counts(150)  # the steered stream's focus statements reach 269 of 271 ops in 150 programs
    _report(counts)
    drawn = sum(1 for name in OPS if counts[name])
    assert drawn >= 0.9 * len(OPS), f"only {drawn} of {len(OPS)} ops drawn in 150 programs"


@pytest.mark.slow
def test_2000_programs_use_every_op_5_times():
    counts = draw_counts(2000)
    _report(counts)
    rare = {name: counts[name] for name in OPS if counts[name] < 5}
    assert not rare, f"ops drawn fewer than 5 times in 2,000 programs: {rare}"


def test_every_gap_has_a_reason_and_the_table_shows_it():
    title, headings, rows = table()
    assert f"{len(OPS)} op records" in title and len(rows) == len(OPS)
    for fw, missing in gaps().items():
        for name, why in missing.items():
            assert why.strip() and fw not in OPS[name].emit
            row = next(r for r in rows if r[0] == name)
            assert f"no {fw}: {why}" in row[headings.index("frameworks")]


def test_coverage_counts_outcomes_per_op_and_path():
    results = [(["relu", "add"], "torch.script", "pass"), (["relu"], "torch.script", "mismatch"),
               (["relu", "relu"], "tf.function", "pass")]
    coverage = op_coverage(results)
    assert coverage["relu"]["torch.script"] == {"pass": 1, "mismatch": 1}
    assert coverage["relu"]["tf.function"]["pass"] == 1 and coverage["add"] == {"torch.script": {"pass": 1}}
    _, headings, rows = table(coverage)
    cell = next(r for r in rows if r[0] == "relu")[headings.index("coverage")]
    assert "torch.script 2: 1 pass, 1 mismatch" in cell and "tf.function 1: 1 pass" in cell
    assert next(r for r in rows if r[0] == "neg")[headings.index("coverage")] == "not drawn"
