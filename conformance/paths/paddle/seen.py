"""Known-bug records that need a fact of the conversion to be told apart (:class:`Seen`), and :func:`seen_by`, which
binds them to the path whose facts they read (:mod:`conformance.paths.paddle` binds every Paddle path's)."""

from dataclasses import dataclass, replace

from conformance.paths.paddle.conversions import FACTS
from conformance.paths.records import Limitation


@dataclass(frozen=True)
class Seen(Limitation):
    """A known bug that a failure's kind alone cannot tell from another: it applies only where the latest conversion
    or run of the path showed ``fact`` (:data:`~conformance.paths.paddle.conversions.FACTS`, by the path's workdir
    name, ``path``)."""

    fact: str = ""
    path: str = ""

    def applies(self, failure, version: str) -> bool:
        return bool(FACTS.get(self.path, {}).get(self.fact)) and super().applies(failure, version)


def seen_by(path: str, limitations: tuple) -> tuple:
    """``limitations`` with each :class:`Seen` one bound to ``path`` (the path's name, its workdir's)."""
    return tuple(replace(lim, path=path) if isinstance(lim, Seen) else lim for lim in limitations)
