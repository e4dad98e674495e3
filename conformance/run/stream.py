"""The stream of a campaign's cases: endless, deterministic, steered towards the attribute pairs not judged yet
(:mod:`conformance.program.coverage`).

Case ``i`` of seed ``s`` is the same on every run and machine with the same Hypothesis version, whatever the number
of workers: cases are drawn in fixed chunks, each under ``hypothesis.seed``.
"""

from __future__ import annotations

from collections import deque
from typing import Callable, Iterator, Optional

from conformance.program.case import Case
from conformance.run.draws import DrawError

#: Cases drawn per chunk of the stream.
CHUNK = 25
#: How many chunks the stream draws ahead of the last one it knows what was judged of (``counted``: each case
#: decided and its records in): their statements count as drawn. Two (50 cases) keep a cluster's workers busy while
#: the cases of the oldest chunk still run.
AHEAD = 2


class _NotReady:
    def __repr__(self) -> str:
        return "NOT_READY"


#: What :func:`generate_cases` yields while a decision its next chunk steers by is not made yet (the campaign runs
#: what it has and asks again).
NOT_READY = _NotReady()


def every_statement(op: str, features: dict) -> bool:
    return True


def no_statement(op: str, features: dict) -> bool:
    return False


def generate_cases(seed: int, chunk_size: int = CHUNK,
                   counted: Callable[[int], Optional[Callable]] = lambda position: every_statement,
                   avoided: Callable[[int], tuple] = lambda position: (), **options) -> Iterator[Case]:
    """An endless, deterministic stream of cases for campaign seed ``seed``: the same cases on every
    run, machine and worker count (with the same Hypothesis version), whatever else is imported.
    ``options`` are :func:`~conformance.run.neighbours.campaign_cases`' (``corpus``: a share of the cases
    are neighbours of the corpus's IR cases). Each chunk steers towards the attribute pairs the chunks before it did
    not draw (:mod:`conformance.program.coverage`): the coverage state evolves in draw order alone (``steer=False``:
    the plain stream). ``chunk_size``: cases drawn per chunk (another size draws another stream; a small one gives
    the first cases sooner, for a look at a few programs).

    ``counted``: a campaign's decisions and what they judged (:meth:`~conformance.run.plan.Planner.counted`): for
    the case at a position of the stream, which of its op statements count as seen, a predicate on
    ``(op, features)`` (every statement of a case a task judged; of a case every task discarded, none; of a case
    steered away from every task by known bugs, those the bugs select, since drawing them again would be steered
    away too; of a case no task takes, none), or None while undecided or running. A pair drawn only in programs
    nothing judged is drawn again. A chunk counts the cases of the :data:`AHEAD` chunks before it as drawn, and
    those of earlier chunks as ``counted`` says, waiting for it (the stream yields :data:`NOT_READY` meanwhile): so
    the same seed, options and decisions draw the same cases. By default every case drawn counts.

    ``avoided``: for a decided case, what the generator leaves out from then on
    (:class:`~conformance.program.op_drawing.Avoid`; :meth:`~conformance.run.plan.Planner.avoided`: the selectors of
    the known bugs that steered it away from every task), read with ``counted``, in the same order."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hseed

    from conformance.program.coverage import Coverage, reach, statement_features
    from conformance.program.ops.record import FRAMEWORKS
    from conformance.program.strategies import seed_alone
    from conformance.run.draws import guarded
    from conformance.run.neighbours import campaign_cases

    seen: set[str] = set()
    chunk = position = 0
    decided, reachable = Coverage(), reach(options.get("frameworks") or FRAMEWORKS)
    pending: deque = deque()  # per chunk drawn and not counted in ``decided`` yet: [(position, statements)]
    avoid: dict = {}  # what the generator leaves out (Avoid: None), in the order the decisions named it
    steer = options.pop("steer", True)
    while True:
        while len(pending) > AHEAD:  # the oldest chunk drawn, once each of its cases is counted
            if any(counted(at) is None for at, _ in pending[0]):
                yield NOT_READY
                continue
            for at, statements in pending.popleft():
                keep = counted(at)
                decided.add_statements(st for st in statements if keep(*st))
                avoid.update(dict.fromkeys(avoided(at)))
        coverage = decided.copy()
        for drawn_before in pending:
            for _, statements in drawn_before:
                coverage.add_statements(statements)
        drawn: list[Case] = []

        @hseed(seed * 1_000_003 + chunk)
        @settings(max_examples=chunk_size, database=None, deadline=None, phases=[Phase.generate],
                  suppress_health_check=list(HealthCheck), derandomize=False)
        @given(guarded(campaign_cases(steering=coverage.steering(reachable) if steer else None, avoid=tuple(avoid),
                                      **options)))
        def draw(case):
            drawn.append(case)

        with seed_alone():
            draw()
        statements_of: list = []
        for place, case in enumerate(drawn):
            case = case.named(seed, chunk, place) if isinstance(case, DrawError) else case  # a harness_error record
            if case.id not in seen:  # Hypothesis starts each chunk with its simplest example
                seen.add(case.id)
                if not isinstance(case, DrawError):
                    statements_of.append((position, tuple(statement_features(case.program))))
                yield case
                position += 1
        pending.append(statements_of)
        chunk += 1
