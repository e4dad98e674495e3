"""The TensorFlow adapter: tensors in and out, threads and logs, devices, versions, and autograd for the ``grad``
and ``train`` modes (``tf.GradientTape``; ``tf.compat.v1.gradients`` in the TF1 graph of tf.session).

``prepare``, ``call`` and ``to_numpy`` are the standalone functions of
:mod:`~conformance.paths.tf.conversions`, which reproducers copy.
"""

from __future__ import annotations

import logging
import weakref

import numpy as np
import tensorflow as tf

from conformance.paths.records import Autograd, Framework, loss_terms, module_versions
from conformance.paths.tf.conversions import Session, call, device_scope, prepare, tf1_control_flow, to_numpy
from conformance.program.trees import flatten

_threads_set = False


def setup() -> None:
    """One intra-op and one inter-op thread (a campaign runs one worker per core), quiet logs."""
    global _threads_set
    if not _threads_set:
        _threads_set = True
        try:
            tf.config.threading.set_intra_op_parallelism_threads(1)
            tf.config.threading.set_inter_op_parallelism_threads(1)
        except RuntimeError:  # TensorFlow already ran something in this process: its pools are fixed
            pass
        tf.get_logger().setLevel(logging.ERROR)
        tf.autograph.set_verbosity(0)
        logging.getLogger("tf2onnx").setLevel(logging.ERROR)


def to_tensor(a: np.ndarray, device: str, fp64: bool):
    if fp64 and a.dtype.kind == "f":
        a = a.astype(np.float64)
    with device_scope(device):
        return tf.constant(a)  # a copy of the array (TensorFlow tensors are immutable anyway)


def devices() -> list[str]:
    return ["cpu"] + (["cuda"] if tf.config.list_physical_devices("GPU") else [])


def versions() -> dict:
    return {"tensorflow": tf.__version__, **module_versions("tf2onnx", "onnxruntime", "onnx")}


def onnx_default_opset() -> int:
    """The opset tf2onnx writes when none is asked for."""
    from tf2onnx import constants

    return constants.PREFERRED_OPSET


def counters(artifact) -> dict:
    """What a traced artifact counts (:class:`~conformance.paths.tf.conversions.Traced`, ``Loaded``)."""
    return artifact.counters()


# ------------------------------------------------------------------ autograd (grad and train modes)


def set_training(model, training: bool) -> None:
    model.training = training  # what the rendered dropout and batch-norm helpers read (render's TF training_init)


def backward(forward, args, kwargs, weights, params):
    """See :class:`~conformance.paths.records.Autograd`: ``tf.GradientTape`` over the loss head, None for a tensor
    the loss does not reach (a TF1 graph in a session differentiates itself: :func:`session_backward`)."""
    if isinstance(forward, Session):
        return session_backward(forward, args, weights, params)
    wrt = [a for a in flatten(list(args)) if isinstance(a, tf.Tensor) and a.dtype.is_floating]
    with tf.GradientTape() as tape:
        tape.watch(wrt)
        outputs = forward(*args, **kwargs)
        terms = [_term(o, tf.constant(w)) for o, w in loss_terms(outputs, weights)
                 if isinstance(o, tf.Tensor) and o.dtype.is_floating]
        loss = tf.add_n(terms) if terms else None
    targets = wrt + list(params)
    grads = [_dense(g) for g in tape.gradient(loss, targets)] if loss is not None and targets else [None] * len(targets)
    return outputs, loss, grads[:len(wrt)], grads[len(wrt):]


def _dense(gradient):
    """A gradient as a dense tensor: TensorFlow gives ``tf.IndexedSlices`` for what a gather reads (None stays
    None)."""
    return tf.convert_to_tensor(gradient) if isinstance(gradient, tf.IndexedSlices) else gradient


def _term(output, weight):
    """One term of the loss head, ``sum(output * weight)`` in float64 (``add_n`` takes one dtype: outputs of
    mixed float dtypes add up)."""
    return tf.reduce_sum(tf.cast(output, tf.float64) * tf.cast(weight, tf.float64))


#: Per session, the loss heads built in its graph, by output leaves and parameters (a graph grows with each).
_loss_heads: "weakref.WeakKeyDictionary[Session, dict]" = weakref.WeakKeyDictionary()


def session_backward(session: Session, args, weights, params):
    """``backward`` in the TF1 graph: the loss head ``sum(out * w)`` over :func:`loss_terms` (``w`` fed to
    placeholders), and ``tf.compat.v1.gradients`` of it with respect to the float input placeholders and the
    graph's variables named as ``params`` are."""
    feed = session.feed(args)
    flat = [np.array(a) for a in session.session.run(tf.nest.flatten(session.outputs), feed)]  # distinct arrays
    outputs = tf.nest.pack_sequence_as(session.outputs, flat)
    terms = loss_terms(outputs, weights)
    inputs = [t for t in flatten(session.inputs) if t.dtype.is_floating]
    if not terms:
        return outputs, None, [None] * len(inputs), [None] * len(params)
    position = {id(a): k for k, a in enumerate(flat)}
    leaves = tuple(position[id(o)] for o, _ in terms)
    key = (leaves, tuple(v.name for v in params))
    heads = _loss_heads.setdefault(session, {})
    if key not in heads:
        heads[key] = loss_head(session, leaves, inputs, params)
    loss, placeholders, grads = heads[key]
    feed.update(zip(placeholders, (w for _, w in terms)))
    values = session.session.run([loss] + [g for g in grads if g is not None], feed)
    found = iter(values[1:])
    grads = [None if g is None else next(found) for g in grads]
    return outputs, values[0], grads[:len(inputs)], grads[len(inputs):]


def loss_head(session: Session, leaves: tuple, inputs: list, params: list) -> tuple:
    """``(loss, weight placeholders, gradients)`` built in the session's graph for the output leaves at
    ``leaves`` (positions in ``tf.nest.flatten`` order); ``params`` are matched to the graph's variables by
    name."""
    outputs = tf.nest.flatten(session.outputs)
    variables = {v.name: v for v in session.model.variables}
    with tf1_control_flow(), session.graph.as_default(), device_scope(session.device):
        placeholders = [tf.compat.v1.placeholder(outputs[k].dtype, name=f"loss_weight_{k}") for k in leaves]
        loss = tf.add_n([_term(outputs[k], w) for k, w in zip(leaves, placeholders)])
        grads = [_dense(g) for g in tf.compat.v1.gradients(loss, inputs + [variables[v.name] for v in params])]
    return loss, placeholders, grads


def optimizer(kind: str, params: list, lr: float):
    import keras

    opt = {"sgd": keras.optimizers.SGD, "adam": keras.optimizers.Adam}[kind](lr)
    opt.build(params)

    def step(grads):
        pairs = [(g, v) for g, v in zip(grads, params) if g is not None]
        if pairs:  # keras refuses an empty list
            opt.apply_gradients(pairs)
    return step


def assign(variable, array) -> None:
    variable.assign(np.asarray(array).astype(variable.dtype.as_numpy_dtype))


AUTOGRAD = Autograd(set_training=set_training, backward=backward, optimizer=optimizer, assign=assign,
                    seed=tf.random.set_seed)

FRAMEWORK = Framework(name="tf", version=lambda: tf.__version__, to_tensor=to_tensor, to_numpy=to_numpy,
                      prepare=prepare, call=call, devices=devices, setup=setup, versions=versions,
                      autograd=AUTOGRAD)
