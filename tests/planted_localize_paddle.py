"""The planted localisation faults of :mod:`tests.planted_localize` on the paddle paths
(``--load tests.planted_localize_paddle``).

The planted paths build their static programs without PIR's inplace pass. With it, Paddle's executor may run an
op made in-place (``v = cos(v)`` as ``cos_``) before another op has read ``v`` (the capture of a truncated
program reads it inside the same loop body): a known Paddle bug (``limitations.INPLACE_WRITES_INPUT``,
``cases/standalone/paddle_inplace_pass_flaky_read_before_loop.py``) that makes a truncation's values change from
one run to the next, which a localisation rightly calls inconclusive. These paths test the localisation of the
planted fault, not that bug; the flag is off only while a planted path converts (the program is built then).
"""

from dataclasses import replace

from conformance.paths.records import PATHS, register
from tests.planted_localize import register_planted

FLAG = "FLAGS_pir_apply_inplace_pass"


def _without_inplace_pass(convert):
    def wrapped(ctx):
        import paddle

        saved = paddle.get_flags([FLAG])[FLAG]
        paddle.set_flags({FLAG: False})
        try:
            return convert(ctx)
        finally:
            paddle.set_flags({FLAG: saved})
    return wrapped


PLANTED_PATHS = register_planted("paddle")
register(*(replace(PATHS[pid], convert=_without_inplace_pass(PATHS[pid].convert)) for pid in PLANTED_PATHS))
