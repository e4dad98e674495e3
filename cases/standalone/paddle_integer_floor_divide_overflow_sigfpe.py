"""Our process or Paddle? paddle eager SIGFPE (clean campaign seed 5 of 2026-11-28, issue 20, case ffdc14d424bf: the
worker died of SIGFPE running the eager reference, in phi::FloorDivideRawKernel<long, phi::CPUContext>).

Needs only numpy and paddle (3.3.1 here). `x // y` (paddle.floor_divide) and `x % y` (paddle.remainder) of int64
tensors with x = -2**63 (the type's minimum, an edge value inputs may carry) and y = -1: dygraph kills the process with
SIGFPE (the quotient 2**63 overflows; x86's integer division traps), where numpy wraps to -2**63 and Python gives
2**63. Paddle checks a zero divisor ('Integer division by zero encountered in (floor/trunc) divide'), not this
overflow. Each operation runs in a child process, so this script reports the crash.

Run: python paddle_integer_floor_divide_overflow_sigfpe.py   (exit status 136 while the bug is present)
"""

import signal
import subprocess
import sys

CHILD = r'''
import sys
import numpy as np, paddle
x = paddle.to_tensor(np.array([np.iinfo(np.int64).min, 7], np.int64))
y = paddle.to_tensor(np.array([-1, 2], np.int64))
out = x // y if sys.argv[1] == "floor_divide" else x % y
print(sys.argv[1], out.numpy().tolist(), flush=True)
'''


def child(op: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", CHILD, op], capture_output=True, text=True, timeout=120)


if __name__ == "__main__":
    import numpy as np

    with np.errstate(over="ignore"):
        print("numpy      ", (np.array([np.iinfo(np.int64).min]) // np.array([-1])).tolist(), "(wraps)")
    died = False
    for op in ("floor_divide", "remainder"):
        done = child(op)
        killed = done.returncode == -signal.SIGFPE
        died = died or killed
        shown = "" if killed else done.stdout.strip()  # Paddle prints its C++ stack on stdout when it dies
        print(f"{op:12s} exit status {done.returncode}{' (SIGFPE)' if killed else ''} {shown}")
    print("verdict:", "Paddle: integer floor_divide / remainder of the minimum by -1 dies of SIGFPE" if died
          else "not reproduced")
    sys.exit(136 if died else 0)
