"""Check a model of your own: which conversion paths give the same answer as eager mode, on your inputs?

    >>> import conformance
    >>> report = conformance.check(model, [x, {"mask": m}], {"use_act": True})
    >>> print(report)                 # one row per path: outcome, max errors, tolerance that would pass, time
    >>> report.raise_on_mismatch()    # inside your own tests

:func:`check` takes a ``torch.nn.Module``, a ``paddle.nn.Layer`` or a ``tf.Module`` (a Keras model is
one), finds its framework, and runs every conversion path of that framework the fuzzer runs, with the
same oracle: outputs are judged against an fp64 eager reference where the model can be cast to fp64,
with a per-element rounding allowance measured by running eager on inputs nudged by one ulp; NaN where
eager is finite is a mismatch.

Besides your example, each path runs on *derived* input sets that test whether the conversion
generalises: other values (floats negated and redrawn, ints permuted, bools inverted) that may take the
other branch of a data-dependent ``if``; another size along the dynamic dims (rows resampled); and each
bool keyword argument flipped. Input sets you pass as ``extra_inputs`` are used as well. A derived set
on which eager itself fails is dropped with a note.

Paths documented to specialise (``torch.jit.trace`` freezes control flow and non-tensor arguments) that
differ only on inputs they specialise on are ``expected_divergence`` when the conversion warned about
it, and ``mismatch`` when it did not.

The model may be defined anywhere eager mode can run it: a module, a script, a notebook cell, a module loaded by
file path, a factory or a closure (it reaches each path's process by value where that process cannot import it).
The paths that read source (TorchScript's ``script``, Paddle's AST ``to_static``, TensorFlow's AutoGraph) read a
notebook cell's; where there is none (``exec``, a plain REPL) a path that fails for want of it is ``unsupported``,
saying so, and the other paths run.

Each path runs in a process of its own with a time limit (``isolate``, ``timeout``): a path that hangs is a
``timeout``, one that kills its process a ``crash``, and the next path runs anyway. An exception raised by this
project's own code is a ``harness_error``, never a framework's finding. On a mismatch the report names the first
submodule whose output differs (torch and Paddle models; ``localize``).

The package: :mod:`~conformance.check.calls` (your call bound to the model's signature),
:mod:`~conformance.check.prepared` (eager's side), :mod:`~conformance.check.isolated` (a process per path),
:mod:`~conformance.check.shipped` (how the model and its source reach that process),
:mod:`~conformance.check.core` (:func:`check`), :mod:`~conformance.check.report` (what it returns).
"""

from conformance.check.calls import CheckError
from conformance.check.core import assert_conforms, check, detect_framework
from conformance.check.report import CheckReport, ConformanceMismatch, PathResult

__all__ = ["check", "assert_conforms", "CheckError", "CheckReport", "ConformanceMismatch", "PathResult",
           "detect_framework"]
