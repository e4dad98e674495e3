"""Loaded into a campaign's workers by ``tests/test_crash_site.py``: on import, a handler of SIGSEGV that never
returns, as a framework installs one (Paddle's, which waits forever for the allocator's lock on a heap a crash
left corrupt). A worker must die of the signal all the same, and its record be a ``crash``, not a ``timeout``."""

from __future__ import annotations

import signal
import time


def _hang(signum, frame):
    while True:
        time.sleep(1)


signal.signal(signal.SIGSEGV, _hang)
