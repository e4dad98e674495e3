"""TensorFlow conversion paths: eager (the reference), ``tf.function`` (AutoGraph) with the input signature,
``tf.function(jit_compile=True)`` (XLA), both also as most users call them (no signature, Python arguments passed
on every call; and with ``reduce_retracing``), a SavedModel round trip, tf2onnx run on onnxruntime, and a TensorFlow 1
graph run in a ``tf.compat.v1.Session`` (the static-graph baseline).

The conversions are in :mod:`~conformance.paths.tf.conversions` (standalone: reproducers copy them), the adapter
in :mod:`~conformance.paths.tf.adapter`; what each path gets wrong or refuses is in the catalogue
(:mod:`conformance.paths.known`), by the components a path lists; this module registers the paths.

A ``tf.function`` with an input signature refuses any other value of a Python argument than its default, so
non-tensor arguments are bound at trace time: every kwargs value a case runs with gets its own traced function,
and each must give the eager answer. The SavedModel keeps one concrete function per kwargs value of the case and
the loaded model must dispatch each call to the right one; the ONNX graph is exported for the example's kwargs.
The TF1 graph is not traced from the model: it is the same program written as TF1 users wrote models by hand, the
rendered module's ``build_graph`` (see :mod:`conformance.render.source`), called on placeholders with ``None`` for
the dynamic dims; its kwargs are fixed when the graph is built.

How often each ``tf.function`` traced is recorded in ``detail.counters`` (after conversion) and
``detail.inputs[].counters`` (after each input set): a new kwargs value traces once more, a new batch size within
the signature never does. The per-call paths (``tf.function_per_call``, ``tf.xla_per_call``,
``tf.function_reduce_retracing``) are given the kwargs of each input set on its call, so a trace reused for
another Python value shows as a mismatch; they count their traces beside the distinct kwargs values and call
signatures they saw.
"""

from __future__ import annotations

import importlib
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")  # C++ INFO and WARNING lines would crowd the captured output


def _load_paddle_first() -> None:
    """paddle 3.3 segfaults importing its core once TensorFlow's libraries are loaded in the process. Where
    paddle is installed and TensorFlow is not imported yet, load paddle's adapter first, so both frameworks
    can be checked in one process (the pytest suite, ``--frameworks tf,paddle``); it costs about 2 s and
    250 MB. (Where TensorFlow came first, paddle cannot be loaded in that process.)"""
    from conformance.paths.records import FRAMEWORK_MODULES

    if "tensorflow" in sys.modules or importlib.util.find_spec("paddle") is None:
        return
    try:
        importlib.import_module(FRAMEWORK_MODULES["paddle"])
    except Exception:  # noqa: BLE001 - a broken paddle install must not break TensorFlow
        pass


_load_paddle_first()

from functools import partial  # noqa: E402

from conformance.paths.ort import cuda_provider_missing  # noqa: E402
from conformance.paths.records import FRAMEWORKS, PathRecord, register  # noqa: E402
from conformance.paths.tf import conversions as conv  # noqa: E402
from conformance.paths.tf.adapter import FRAMEWORK, counters, onnx_default_opset  # noqa: E402
from conformance.paths.tf.deployment_records import DEPLOYMENT_PATHS  # noqa: E402

FRAMEWORKS["tf"] = FRAMEWORK

BOUND_NOTE = "non-tensor arguments bound at trace time, one traced function per kwargs value"
#: The modes of a path that autograd differentiates (see conformance.judge.training): GradientTape through it.
PER_CALL_NOTE = "non-tensor arguments passed on every call, a trace per new Python value, dtype or shape"
AUTOGRAD_MODES = frozenset({"infer", "grad", "train"})

register(
    PathRecord("tf", "eager", "eager tf.Module (the reference, on the chosen device)", conv.eager_model, conv.call,
               components=("tf_eager",), reference=True, modes=AUTOGRAD_MODES),
    PathRecord("tf", "function", f"tf.function(input_signature=...) (AutoGraph); {BOUND_NOTE}",
               partial(conv.trace, jit_compile=False), conv.run,
               components=("tf_eager", "python_state", "autograph"), counters=counters,
               modes=AUTOGRAD_MODES),
    PathRecord("tf", "xla", f"tf.function(input_signature=..., jit_compile=True) (XLA); {BOUND_NOTE}",
               partial(conv.trace, jit_compile=True), conv.run,
               components=("tf_eager", "python_state", "autograph", "xla"), counters=counters,
               modes=AUTOGRAD_MODES),
    PathRecord("tf", "function_per_call", f"tf.function(model.__call__) without a signature; {PER_CALL_NOTE}",
               partial(conv.trace_per_call, jit_compile=False), conv.run,
               components=("tf_eager", "python_state", "autograph"), counters=counters, modes=AUTOGRAD_MODES),
    PathRecord("tf", "xla_per_call", f"tf.function(model.__call__, jit_compile=True) (XLA) without a signature; "
               f"{PER_CALL_NOTE}", partial(conv.trace_per_call, jit_compile=True), conv.run,
               components=("tf_eager", "python_state", "autograph", "xla"),
               counters=counters, modes=AUTOGRAD_MODES),
    PathRecord("tf", "function_reduce_retracing", "tf.function(model.__call__, reduce_retracing=True) without a "
               f"signature (a shape seen to vary is traced once more as None); {PER_CALL_NOTE}",
               partial(conv.trace_per_call, jit_compile=False, reduce_retracing=True), conv.run,
               components=("tf_eager", "python_state", "autograph"), counters=counters, modes=AUTOGRAD_MODES),
    PathRecord("tf", "saved_model", "tf.saved_model.save (one concrete function per kwargs value of the case), "
               "then tf.saved_model.load", conv.save_and_load, conv.run,
               components=("tf_eager", "python_state", "autograph"), counters=counters, dict_order=False),
    PathRecord("tf", "onnx", "tf2onnx.convert.from_function on onnxruntime (non-tensor arguments fixed at export)",
               conv.export_onnx, conv.run,
               components=("tf_eager", "python_state", "autograph", "tf_freeze", "tf2onnx", "onnx", "onnxruntime"),
               specializes=frozenset({"kwargs"}),
               requires=("tf2onnx", "onnx", "onnxruntime"), unavailable_on=cuda_provider_missing,
               default_onnx_opset=onnx_default_opset),
    PathRecord("tf", "session", "TF1 graph: the module's build_graph on tf.compat.v1.placeholders (tf.cond, "
               "tf.while_loop, TF1 control flow) run in a tf.compat.v1.Session (non-tensor arguments fixed when the "
               "graph is built)", conv.build_session, conv.run, components=("tf_eager", "autograph", "tf1_graph"),
               specializes=frozenset({"kwargs"}), modes=frozenset({"infer", "grad"})),
)

# the paths people deploy with (conversions in deployment.py)
register(*DEPLOYMENT_PATHS)
