"""The client of :mod:`conformance.paths.paddle.paddle2onnx_server`: ``paddle2onnx.export`` in a process of its
own, because paddle2onnx ends the process it runs in when it fails (``sys.exit(-1)`` after logging, or
``abort()`` for an operator it cannot convert). The ``onnx`` path exports through :data:`PADDLE2ONNX`.
"""

from __future__ import annotations

import atexit
import json
import os
import re
import subprocess
import sys
import tempfile
from typing import Optional

_ANSI = re.compile(r"\x1b\[[0-9;]*m")


class Paddle2OnnxServer:
    """``paddle2onnx.export`` in a process of its own: started on the first export, reused, and
    started again after an export that ended it. Its environment is this process's at start."""

    def __init__(self):
        self.proc: Optional[subprocess.Popen] = None
        self.startup_log = ""

    def export(self, model: str, params: str, out: str, opset: int = 9) -> tuple[int, str]:
        """(status: 0, an exit status, or minus the signal that ended the server; what it printed).
        What it printed also goes to this process's fd 1, where the runner captures framework output."""
        if self.proc is None or self.proc.poll() is not None:
            self.start()
        fd, log_path = tempfile.mkstemp(prefix="paddle2onnx-", suffix=".log")
        os.close(fd)
        try:
            self.proc.stdin.write(json.dumps({"model": model, "params": params, "out": out, "opset": opset,
                                              "log": log_path}) + "\n")
            self.proc.stdin.flush()
            reply = self.proc.stdout.readline()
        except BrokenPipeError:
            reply = ""
        with open(log_path, errors="replace") as f:
            log = f.read()
        os.unlink(log_path)
        if reply:
            status = json.loads(reply)["status"]
        else:  # the export (or the server's start) ended the process
            status = self.proc.wait()
            with open(self.startup_log, errors="replace") as f:
                log = f.read()[-2000:] + log
            self.close()
            if status < 0:  # an abort or a crash: its successor imports paddle2onnx while other paths run
                self.start()
        log = _ANSI.sub("", log)
        os.write(1, log.encode())
        return status, log

    def start(self) -> None:
        """Start a server (it imports paddle2onnx in the background; requests wait for it)."""
        self.startup_log = tempfile.mkstemp(prefix="paddle2onnx-server-", suffix=".log")[1]
        self.proc = subprocess.Popen([sys.executable, "-m", "conformance.paths.paddle.paddle2onnx_server",
                                      self.startup_log], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def close(self) -> None:
        """End the server (the next export starts a new one, e.g. with another environment)."""
        if self.proc is not None:
            try:
                self.proc.stdin.close()
            except BrokenPipeError:  # it has ended already
                pass
            self.proc.wait()
            self.proc.stdout.close()
            self.proc = None
            os.unlink(self.startup_log)


PADDLE2ONNX = Paddle2OnnxServer()
atexit.register(PADDLE2ONNX.close)
