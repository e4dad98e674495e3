"""In campaign workers only: the eager reference segfaults on programs with an odd seed."""

import multiprocessing
import os
import signal

import conformance.run.runner as runner

if multiprocessing.parent_process() is not None:
    _real_prepare = runner.prepare

    def _prepare(case, framework):
        if case.program.seed % 2:
            os.kill(os.getpid(), signal.SIGSEGV)
        return _real_prepare(case, framework)

    runner.prepare = _prepare
