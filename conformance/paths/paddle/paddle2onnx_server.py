"""Runs ``paddle2onnx.export`` for :mod:`conformance.paths.paddle` (its client:
:mod:`~conformance.paths.paddle.paddle2onnx_client`), in a process of its own.

paddle2onnx ends the process it runs in when it fails (``sys.exit(-1)`` after logging, or ``abort()``
for an operator it cannot convert), and its native code crashes in a process that also loaded
TensorFlow. So the paddle ``onnx`` path hands each export to this server: a fresh interpreter that
imports paddle2onnx once, answers one JSON line per request on stdout, and writes what the export
prints to the request's log file. It exits when its parent does.

Polygraphy's auto-install, which paddle2onnx switches on, is kept off: a missing module makes the
export skip constant folding; nothing is downloaded while a check runs.

Protocol: ``python -m conformance.paths.paddle.paddle2onnx_server STARTUP_LOG``; requests
``{"model": ..., "params": ..., "out": ..., "opset": 9, "log": ...}``; replies ``{"status": int}``.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
import traceback


def _exit_with_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(0)


def _redirect(fd_target: int) -> None:
    sys.stdout.flush()
    sys.stderr.flush()
    os.dup2(fd_target, 1)
    os.dup2(fd_target, 2)


def main() -> None:
    replies = os.fdopen(os.dup(1), "w", buffering=1)  # the real stdout, before fd 1 goes to logs
    with open(sys.argv[1], "ab") as startup:
        _redirect(startup.fileno())
        threading.Thread(target=_exit_with_parent, args=(os.getppid(),), daemon=True).start()
        import polygraphy.config

        polygraphy.config.AUTOINSTALL_DEPS = False  # paddle2onnx sets the environment variable; too late now
        import paddle2onnx  # noqa: F401 - imported once, before the first request

        from conformance.paths.paddle.saved import paddle2onnx_export  # the export a reproducer runs too

        try:  # what constant folding uses, imported once instead of per export
            import onnxruntime  # noqa: F401
            from polygraphy.backend.onnx import fold_constants  # noqa: F401
        except ImportError:
            pass
    for line in sys.stdin:
        request = json.loads(line)
        with open(request["log"], "ab") as log:
            _redirect(log.fileno())
            status = 0
            try:
                paddle2onnx_export(request["model"], request["params"], request["out"], request["opset"])
            except SystemExit as e:  # the status the process would have exited with (sys.exit(-1): 255), never
                # a negative one, which the client reads as the signal that ended the server
                status = exit_status(e)
            except Exception:  # noqa: BLE001 - reported through the status and the log
                traceback.print_exc()
                status = 1
            sys.stdout.flush()
            sys.stderr.flush()
        replies.write(json.dumps({"status": status}) + "\n")


def exit_status(e: SystemExit) -> int:
    """What the interpreter exits with on ``e``: its code modulo 256, 0 for None, 1 for a message (printed)."""
    if e.code is None or isinstance(e.code, int):
        return (e.code or 0) & 0xFF
    print(e.code, file=sys.stderr)
    return 1


if __name__ == "__main__":
    main()
