"""The ways one ONNX file can be run, each leaving out one more component: onnxruntime with its graph
optimisations (what an ONNX path runs), onnxruntime without them (``ORT_DISABLE_ALL``: its kernels on the
graph as written), and the ONNX reference evaluator (``onnx.reference.ReferenceEvaluator``: the operators'
specification in numpy, no runtime at all). :mod:`conformance.judge.blame` compares them to tell which
component a wrong result or an error comes from.

Each takes a feed (input name -> numpy array) and returns the graph's outputs as a flat list of numpy
arrays. Standalone (see :mod:`conformance.paths.standalone`): a runtime reproducer copies this code and
needs nothing but the ``.onnx`` file, its inputs and the runtime.
"""

from __future__ import annotations

import os

import numpy as np


class ReferenceCannotRun(RuntimeError):
    """The ONNX reference evaluator has no implementation of something the graph uses (an operator, a
    domain, an attribute): it cannot judge this graph, which says nothing about the graph."""


def onnxruntime_session(path, optimise: bool, providers=("CPUExecutionProvider",)):
    """An onnxruntime session on the file, one thread, with every graph optimisation (``ORT_ENABLE_ALL``,
    onnxruntime's default and what the ONNX paths run) or none (``ORT_DISABLE_ALL``)."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    level = onnxruntime.GraphOptimizationLevel
    options.graph_optimization_level = level.ORT_ENABLE_ALL if optimise else level.ORT_DISABLE_ALL
    return onnxruntime.InferenceSession(str(path), options, providers=list(providers))


def run_session(session, feed: dict) -> list:
    """Run an onnxruntime session on the inputs it names (a graph may drop an input it does not use)."""
    wanted = [i.name for i in session.get_inputs()]
    return [np.asarray(out) for out in session.run(None, {name: feed[name] for name in wanted})]


def reference_evaluator(path):
    """The ONNX reference evaluator on the file; :class:`ReferenceCannotRun` where it lacks an operator."""
    from onnx.reference import ReferenceEvaluator

    try:
        return ReferenceEvaluator(str(path))
    except (NotImplementedError, KeyError) as e:
        raise ReferenceCannotRun(f"{type(e).__name__}: {e}") from e
    except RuntimeError as e:
        if "not implemented" in str(e).lower() or "no implementation" in str(e).lower():
            raise ReferenceCannotRun(f"{type(e).__name__}: {e}") from e
        raise


def run_reference(evaluator, feed: dict, output_types: list) -> list:
    """Run the reference evaluator; each output as the graph declares its type (the evaluator computes some
    operators in another numpy type than the one the graph declares)."""
    try:
        outs = evaluator.run(None, {name: feed[name] for name in evaluator.input_names})
    except NotImplementedError as e:
        raise ReferenceCannotRun(f"{type(e).__name__}: {e}") from e
    return [np.asarray(out, dtype=dtype) if dtype is not None else np.asarray(out)
            for out, dtype in zip(outs, list(output_types) + [None] * len(outs))]


def output_types(path) -> list:
    """The numpy type each graph output declares (None where it declares none)."""
    import onnx
    from onnx import helper

    model = onnx.load(str(path), load_external_data=False)
    types = []
    for out in model.graph.output:
        elem = out.type.tensor_type.elem_type if out.type.HasField("tensor_type") else 0
        types.append(np.dtype(helper.tensor_dtype_to_np_dtype(elem)) if elem else None)
    return types


def graph_inputs(path) -> list:
    """The names of the graph's inputs that are not initializers (what a feed must hold)."""
    import onnx

    graph = onnx.load(str(path), load_external_data=False).graph
    initialized = {init.name for init in graph.initializer}
    return [i.name for i in graph.input if i.name not in initialized]


def check_model(path) -> None:
    """``onnx.checker`` with full shape inference: raises when the file is not a valid ONNX model."""
    import onnx

    onnx.checker.check_model(str(path), full_check=True)


#: How close a reproducer wants a runtime's outputs to eager's (the bug it shows is larger than this).
REPRO_RTOL = 1e-3
REPRO_ATOL = 1e-5


def reproduce(directory, component) -> int:
    """Run ``model.onnx`` on ``inputs.npz`` with onnxruntime (graph optimisations on and off) and on the ONNX
    reference evaluator, print how far each is from eager's outputs (``expected.npz``), and return 1 while
    ``component`` (``onnxruntime.optimizer``, ``onnxruntime.kernel`` or ``exporter``) is still to blame, else 0."""
    path = os.path.join(directory, "model.onnx")
    feed = dict(np.load(os.path.join(directory, "inputs.npz")))
    with np.load(os.path.join(directory, "expected.npz")) as saved:
        expected = [saved[f"arr_{i}"] for i in range(len(saved.files))]
    ways = {
        "onnxruntime ORT_ENABLE_ALL": lambda: run_session(onnxruntime_session(path, True), feed),
        "onnxruntime ORT_DISABLE_ALL": lambda: run_session(onnxruntime_session(path, False), feed),
        "onnx.reference": lambda: run_reference(reference_evaluator(path), feed, output_types(path)),
    }
    wrong = {}
    for name, run in ways.items():
        try:
            outputs = run()
        except Exception as e:  # noqa: BLE001 - a failure is what this way does
            print(f"{name}: fails: {type(e).__name__}: {e}")
            wrong[name] = True
            continue
        same = len(outputs) == len(expected) and all(
            o.shape == e.shape and np.allclose(o, e, rtol=REPRO_RTOL, atol=REPRO_ATOL, equal_nan=True)
            for o, e in zip(outputs, expected))
        worst = max((float(np.max(np.abs(o.astype(np.float64) - e.astype(np.float64))))
                     for o, e in zip(outputs, expected) if o.shape == e.shape and o.size), default=0.0)
        print(f"{name}: {'agrees with' if same else 'differs from'} eager (largest difference {worst:.3g})")
        wrong[name] = not same
    optimised, plain, reference = (wrong[k] for k in ways)
    still = {"onnxruntime.optimizer": optimised and not plain, "onnxruntime.kernel": plain and not reference,
             "exporter": reference and (optimised or plain)}
    return int(still.get(component, optimised))
