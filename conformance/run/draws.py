"""A draw that raises does not stop a campaign: it becomes a ``harness_error`` record and the campaign goes on.

An exception raised while the generator draws a case is this project's bug (never a framework's finding). The
campaign's strategy is wrapped by :func:`guarded`, which turns such an exception into a :class:`DrawError` in place
of the case, with the draw's traceback; Hypothesis's own control exceptions (an example rejected, data run out)
pass through. The stream goes on with the next example of the same chunk, so the cases after it keep their
positions, and :func:`draw_error_records` writes one ``harness_error`` record per framework of the campaign (on its
eager path, the task every case has) at the case's position, so ``--resume`` skips it too.
"""

from __future__ import annotations

import traceback
from dataclasses import dataclass, replace

import hypothesis.strategies as st
from hypothesis.errors import HypothesisException


@dataclass(frozen=True)
class DrawError:
    """What stands in a campaign's stream for a case whose draw raised: ``id`` names it (its chunk and place in
    it), ``error`` the exception, ``traceback`` the draw's traceback."""

    error: str
    traceback: str
    id: str = "draw-error"

    def named(self, seed: int, chunk: int, place: int) -> "DrawError":
        """This error named by the campaign ``seed``, the Hypothesis ``chunk`` and its ``place`` in the chunk."""
        return replace(self, id=f"draw-error-{seed}-{chunk}-{place}")


@st.composite
def guarded(draw, strategy):
    """``strategy``'s value, or a :class:`DrawError` where drawing it raised an exception of its own."""
    try:
        return draw(strategy)
    except HypothesisException:
        raise
    except Exception as e:  # noqa: BLE001 - whatever the generator raises is recorded, the campaign goes on
        return DrawError(f"{type(e).__name__}: {e}", traceback.format_exc()[-4000:])


def draw_error_records(error: DrawError, paths: list, modes, device: str, seed: int, index: int) -> list:
    """The ``harness_error`` records of a draw that raised at ``index`` of campaign ``seed``: one per framework of
    ``paths`` (on its eager path, in the first of ``modes`` it has)."""
    import platform

    from conformance.run.records import ResultRecord
    from conformance.version import __version__

    out = []
    for path in paths:
        if not path.reference or any(r.framework == path.framework for r in out):
            continue
        mode = next((m for m in modes if m in path.modes), "infer")
        record = ResultRecord(error.id, path.framework, path.name, device, mode,
                              versions={"conformance": __version__, "python": platform.python_version()})
        record.detail.traceback = error.traceback
        record.detail.extra["draw"] = {"seed": seed, "index": index, "case": error.id}
        out.append(record.finish("harness_error", f"this project's code raised {error.error[:600]} while drawing "
                                                  f"case {index} of campaign seed {seed} (no case to judge)"))
    return out
