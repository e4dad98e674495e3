"""TensorFlow conversion paths: eager (the reference), ``tf.function`` (AutoGraph) with the input
signature, ``tf.function(jit_compile=True)`` (XLA), a SavedModel round trip, tf2onnx run on
onnxruntime, and a TensorFlow 1 graph run in a ``tf.compat.v1.Session`` (the static-graph baseline).

Every traced path is given the ``input_signature`` a user writes by hand for the model
(:func:`input_signature`): nested lists, tuples and dicts of ``tf.TensorSpec``, ``None`` for the
dynamic (batch) dim. A ``tf.function`` with an input signature refuses any other value of a Python
argument than its default, so non-tensor arguments are bound as Python values at trace time, as
AutoGraph users bind them (``functools.partial``): every kwargs value a case runs with gets its own
traced function, and each must give the eager answer. The SavedModel keeps one concrete function per
kwargs value of the case and the loaded model must dispatch each call to the right one; the ONNX
graph is exported for the example's kwargs (``specializes={"kwargs"}``).

The TF1 graph is not traced from the model: it is the same program written as TF1 users wrote models by hand,
the rendered module's ``build_graph`` (see :mod:`conformance.render`), called on ``tf.compat.v1.placeholder``s
with ``None`` for the dynamic dims; its kwargs are fixed when the graph is built (``specializes={"kwargs"}``).

How often each ``tf.function`` traced is recorded in ``detail.counters`` (after conversion) and
``detail.inputs[].counters`` (after each input set): a new kwargs value traces once more, a new batch
size within the signature never does.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import inspect
import logging
import os
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

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

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

from conformance.paths.ort import OrtModel  # noqa: E402
from conformance.paths.records import (  # noqa: E402
    FRAMEWORKS,
    Autograd,
    ConvertContext,
    Framework,
    Limitation,
    PathRecord,
    loss_terms,
    module_versions,
    register,
)
from conformance.program.case import flatten  # noqa: E402
from conformance.program.ir import DYNAMIC, DictSpec, SeqSpec, Spec, TensorSpec  # noqa: E402
from conformance.program.program import Program  # noqa: E402

_DTYPES = {"float32": tf.float32, "int64": tf.int64, "bool": tf.bool}
_threads_set = False


def _setup() -> None:
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


def _device(device: str):
    return tf.device("/GPU:0" if device == "cuda" else "/CPU:0")


def _device_of(args) -> str:
    """Where the (nested) tensor arguments live: the device a call runs on."""
    leaves = tf.nest.flatten(args)
    return "cuda" if leaves and "GPU" in getattr(leaves[0], "device", "") else "cpu"


def _to_tensor(a: np.ndarray, device: str, fp64: bool):
    if fp64 and a.dtype.kind == "f":
        a = a.astype(np.float64)
    with _device(device):
        return tf.constant(a)  # a copy of the array (TensorFlow tensors are immutable anyway)


def _to_numpy(x):
    if isinstance(x, (tf.Tensor, tf.Variable)):
        return x.numpy().copy()
    if isinstance(x, (list, tuple)):
        return type(x)(_to_numpy(i) for i in x)
    if isinstance(x, dict):
        return {k: _to_numpy(v) for k, v in x.items()}
    return np.asarray(x)


def _prepare(model, device: str, fp64: bool):
    # weights are tf.Variables in the rendered dtype (float64 in the fp64 variant); nothing to move
    return model


def _call(model, args, kwargs):
    with _device(_device_of(args)):
        return model(*args, **kwargs)


def _devices() -> list[str]:
    return ["cpu"] + (["cuda"] if tf.config.list_physical_devices("GPU") else [])


def _versions() -> dict:
    return {"tensorflow": tf.__version__, **module_versions("tf2onnx", "onnxruntime", "onnx")}


_REPRO_FRAMEWORK = '''
def make_model():
    return Model()


def call(fn, args, kwargs):
    return fn(*args, **kwargs)


def to_numpy(x):
    return x.numpy() if isinstance(x, (tf.Tensor, tf.Variable)) else np.asarray(x)


def signature(args):
    """The input_signature of args: nested tf.TensorSpec, None on the dynamic axes (the batch)."""
    names = iter(LEAF_NAMES)

    def spec(value):
        if isinstance(value, dict):
            return {k: spec(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return type(value)(spec(v) for v in value)
        name = next(names)
        shape = [None if axis in DYNAMIC_AXES.get(name, ()) else d for axis, d in enumerate(value.shape)]
        return tf.TensorSpec(shape, value.dtype, name=name)

    return [spec(a) for a in args]
'''

# ------------------------------------------------------------------ autograd (grad and train modes)


def _set_training(model, training: bool) -> None:
    model.training = training  # what the rendered dropout and batch-norm helpers read (render.TF.training_init)


def _backward(forward, args, kwargs, weights, params):
    """See :class:`~conformance.paths.Autograd`: ``tf.GradientTape`` over the loss head, None for a tensor
    the loss does not reach (a TF1 graph in a session differentiates itself: :meth:`Session.backward`)."""

    if isinstance(forward, Session):
        return forward.backward(args, weights, params)
    wrt = [a for a in flatten(list(args)) if isinstance(a, tf.Tensor) and a.dtype.is_floating]
    with tf.GradientTape() as tape:
        tape.watch(wrt)
        outputs = forward(*args, **kwargs)
        terms = [tf.reduce_sum(o * tf.constant(w, dtype=o.dtype)) for o, w in loss_terms(outputs, weights)
                 if isinstance(o, tf.Tensor) and o.dtype.is_floating]
        loss = tf.add_n(terms) if terms else None
    targets = wrt + list(params)
    grads = list(tape.gradient(loss, targets)) if loss is not None and targets else [None] * len(targets)
    return outputs, loss, grads[:len(wrt)], grads[len(wrt):]


def _optimizer(kind: str, params: list, lr: float):
    import keras

    opt = {"sgd": keras.optimizers.SGD, "adam": keras.optimizers.Adam}[kind](lr)
    opt.build(params)

    def step(grads):
        pairs = [(g, v) for g, v in zip(grads, params) if g is not None]
        if pairs:  # keras refuses an empty list
            opt.apply_gradients(pairs)
    return step


def _assign(t, a) -> None:
    t.assign(np.asarray(a).astype(t.dtype.as_numpy_dtype))


AUTOGRAD = Autograd(_set_training, _backward, _optimizer, _assign, tf.random.set_seed)

FRAMEWORKS["tf"] = Framework("tf", lambda: tf.__version__, _to_tensor, _to_numpy, _prepare, _call, _devices,
                             _setup, _versions, repro=_REPRO_FRAMEWORK, autograd=AUTOGRAD)


# ------------------------------------------------------------------ the input signature


def input_signature(program: Program, names: list[str]) -> list:
    """The ``input_signature`` a user writes for ``program``'s ``__call__``, one entry per tensor input.

    Each tensor leaf becomes a ``tf.TensorSpec`` (``None`` for the dynamic dim, the leaf's dtype, its
    flat name from ``names``, which tf2onnx keeps as the ONNX input name), nested in lists, tuples and
    dicts as the input is.
    """
    flat = iter(names)

    def spec(s: Spec):
        if isinstance(s, TensorSpec):
            return tf.TensorSpec([None if d == DYNAMIC else d for d in s.shape], _DTYPES[s.dtype], name=next(flat))
        if isinstance(s, SeqSpec):
            items = [spec(i) for i in s.items]
            return items if s.kind == "list" else tuple(items)
        if isinstance(s, DictSpec):
            return {k: spec(v) for k, v in s.items}
        raise TypeError(f"not an input spec: {s!r}")

    return [spec(i.spec) for i in program.inputs]


def _kwargs_key(kwargs: dict) -> tuple:
    return tuple(sorted((k, type(v).__name__, repr(v)) for k, v in kwargs.items()))


# ------------------------------------------------------------------ eager, tf.function, XLA


def _eager(ctx: ConvertContext):
    return ctx.model


class Traced:
    """``tf.function`` of a model with an input signature, one per kwargs value it is called with.

    The Python keyword arguments are bound at trace time (``functools.partial``), as AutoGraph users
    bind them: a new kwargs value makes a new function, which traces once; calls with other tensor
    values or batch sizes reuse it (the signature has ``None`` for the batch).
    """

    def __init__(self, model, signature: list, device: str, jit_compile: bool):
        self.model = model
        self.signature = signature
        self.device = device
        self.jit_compile = jit_compile
        self.functions: dict = {}

    def function(self, kwargs: dict):
        key = _kwargs_key(kwargs)
        if key not in self.functions:
            self.functions[key] = tf.function(functools.partial(self.model.__call__, **kwargs),
                                              input_signature=self.signature, jit_compile=self.jit_compile)
        return self.functions[key]

    def __call__(self, *args, **kwargs):
        with _device(self.device):
            return self.function(kwargs)(*args)

    def counters(self) -> dict:
        """``traces``: traces over all functions; ``functions``: kwargs values seen (one trace each is expected)."""
        return {"traces": sum(f.experimental_get_tracing_count() for f in self.functions.values()),
                "functions": len(self.functions)}


def _function(jit_compile: bool):
    def convert(ctx: ConvertContext):
        traced = Traced(ctx.model, input_signature(ctx.program, ctx.tensor_names), ctx.device, jit_compile)
        traced(*ctx.args, **ctx.kwargs)  # trace (and compile) now: AutoGraph and XLA errors are conversion errors
        return traced
    return convert


def _run(artifact, args, kwargs):
    return artifact(*args, **kwargs)


def _counters(artifact) -> dict:
    return artifact.counters()


_REPRO_TRACED = '''
def convert(model, args, kwargs, jit_compile={jit}):
    import functools

    functions = {{}}  # kwargs value -> tf.function with those Python values bound at trace time

    def run(*args, **kwargs):
        key = repr(sorted(kwargs.items()))
        if key not in functions:
            functions[key] = tf.function(functools.partial(model.__call__, **kwargs),
                                         input_signature=signature(args), jit_compile=jit_compile)
        return functions[key](*args)
    run(*args, **kwargs)  # trace now
    return run
'''


# ------------------------------------------------------------------ SavedModel


class Loaded:
    """A model loaded with ``tf.saved_model.load``: ``serve`` dispatches on the Python kwargs to the
    concrete function traced for them before saving."""

    def __init__(self, loaded, device: str, traces: int):
        self.loaded = loaded
        self.device = device
        self.traces = traces

    def __call__(self, *args, **kwargs):
        with _device(self.device):
            return self.loaded.serve(*args, **kwargs)

    def counters(self) -> dict:
        """``traces``: concrete functions traced before saving (one per kwargs value of the case)."""
        return {"traces": self.traces}


def _saved_model(ctx: ConvertContext):
    """Save with one concrete function per kwargs value of the case (a user saves the signatures they
    serve), then load the SavedModel from disk into a fresh object."""
    signature = input_signature(ctx.program, ctx.tensor_names)
    serve = tf.function(ctx.model.__call__)
    for kwargs in ctx.kwarg_sets or [ctx.kwargs]:
        serve.get_concrete_function(*signature, **kwargs)
    traces = serve.experimental_get_tracing_count()
    holder = tf.Module()
    holder.model = ctx.model
    holder.serve = serve
    # a folder of its own: another worker may convert the same program at the same time
    with _device(ctx.device), tempfile.TemporaryDirectory(prefix="saved_model-", dir=ctx.workdir) as path:
        tf.saved_model.save(holder, path)  # traces each concrete function once more, to save it
        return Loaded(tf.saved_model.load(path), ctx.device, traces)  # load reads the variables now


_REPRO_SAVED_MODEL = '''
def convert(model, args, kwargs):
    serve = tf.function(model.__call__)
    for name in RUN_ON:  # one concrete function per kwargs value the model will serve
        serve.get_concrete_function(*signature(args), **load_inputs(os.path.join(HERE, name))[1])
    holder = tf.Module()
    holder.model, holder.serve = model, serve
    path = os.path.join(HERE, "saved_model")
    tf.saved_model.save(holder, path)
    loaded = tf.saved_model.load(path).serve
    structure = call(model, args, kwargs)  # a loaded model returns dicts with sorted keys: give eager's order

    def run(*args, **kwargs):
        return tf.nest.pack_sequence_as(structure, tf.nest.flatten(loaded(*args, **kwargs)))
    return run
'''


# ------------------------------------------------------------------ tf2onnx on onnxruntime


class OnnxNested:
    """An ONNX model exported by tf2onnx, returning the function's own output structure.

    tf2onnx orders the outputs as ``tf.nest.flatten`` does (dict keys sorted), so they are packed back
    into the traced function's ``structured_outputs``. Keyword arguments were bound at export.
    """

    def __init__(self, folder: tempfile.TemporaryDirectory, device: str, names: list[str], structure):
        self.folder = folder  # removed with the artifact
        self.path = Path(folder.name) / "model.onnx"
        self.session = OrtModel(self.path, device, names, _to_numpy)
        self.structure = structure

    def __call__(self, *args, **kwargs):
        return tf.nest.pack_sequence_as(self.structure, list(self.session(*args)))


def _onnx(ctx: ConvertContext):
    import tf2onnx

    signature = input_signature(ctx.program, ctx.tensor_names)
    fn = tf.function(functools.partial(ctx.model.__call__, **ctx.kwargs), input_signature=signature)
    folder = tempfile.TemporaryDirectory(prefix="onnx-", dir=ctx.workdir)  # another worker may convert it too
    tf2onnx.convert.from_function(fn, input_signature=signature, output_path=str(Path(folder.name) / "model.onnx"))
    return OnnxNested(folder, ctx.device, ctx.tensor_names, fn.get_concrete_function().structured_outputs)


_REPRO_ONNX = '''
def convert(model, args, kwargs):
    import functools

    import onnxruntime
    import tf2onnx

    spec = signature(args)
    fn = tf.function(functools.partial(model.__call__, **kwargs), input_signature=spec)
    path = os.path.join(HERE, "model.onnx")
    tf2onnx.convert.from_function(fn, input_signature=spec, output_path=path)
    session = onnxruntime.InferenceSession(path, providers=["CPUExecutionProvider"])
    wanted = [i.name for i in session.get_inputs()]
    structure = fn.get_concrete_function().structured_outputs

    def run(*args, **kwargs):  # the flat tensors by name in, tf.nest's flat order out; kwargs were bound
        feed = dict(zip(LEAF_NAMES, (to_numpy(t) for t in flatten(list(args)))))
        return tf.nest.pack_sequence_as(structure, session.run(None, {name: feed[name] for name in wanted}))
    return run
'''


# ------------------------------------------------------------------ TF1 graph in a Session


@contextlib.contextmanager
def _tf1_control_flow():
    """Build ``tf.cond`` and ``tf.while_loop`` as TF1 did (``Switch``/``Merge``, ``Enter``/``Exit``; their gradients
    too) while this lasts: TensorFlow 2 builds functional ``If``/``While`` ops in a graph otherwise."""
    control_flow_v2 = tf.compat.v1.control_flow_v2_enabled()
    tf.compat.v1.disable_control_flow_v2()
    try:
        yield
    finally:
        if control_flow_v2:
            tf.compat.v1.enable_control_flow_v2()


class Session:
    """The model as a TensorFlow 1 graph, run in a ``tf.compat.v1.Session``.

    The graph is what ``build_graph(model, *inputs, **kwargs)`` of the model's module builds (the TF1 port of
    the model that conformance renders beside ``Model``): it is called in a fresh ``tf.Graph`` on placeholders
    with ``None`` for the dynamic dims, with a new ``Model`` made in that graph, and with TF1's control flow
    (``tf.compat.v1.disable_control_flow_v2`` while it builds: ``Switch``/``Merge`` and ``Enter``/``Exit``, as TF1
    ran). The weights are that model's ``tf.Variable``s, initialised in the session by
    ``global_variables_initializer`` from the same seeded numpy draws as the eager model's. Non-tensor arguments
    are fixed when the graph is built; a call feeds the tensors and fetches the outputs, nested as
    ``build_graph`` returns them.
    """

    def __init__(self, model, signature: list, kwargs: dict, device: str):
        build = getattr(inspect.getmodule(type(model)), "build_graph", None)
        if build is None:
            raise TypeError(f"the module of {type(model).__name__} defines no build_graph(model, *inputs, **kwargs), "
                            f"the TF1 graph of the model that tf.session runs")
        self.graph = tf.Graph()
        self.device = device
        with _tf1_control_flow(), self.graph.as_default(), _device(device):
            self.inputs = tf.nest.map_structure(
                lambda spec: tf.compat.v1.placeholder(spec.dtype, spec.shape, name=spec.name), signature)
            self.model = type(model)()
            if hasattr(model, "training"):  # train() or eval(): a Python value when the graph is built
                self.model.training = model.training
            self.outputs = build(self.model, *self.inputs, **kwargs)
            init = tf.compat.v1.global_variables_initializer()
        self.session = tf.compat.v1.Session(graph=self.graph, config=tf.compat.v1.ConfigProto(
            intra_op_parallelism_threads=1, inter_op_parallelism_threads=1))
        self.session.run(init)
        self.losses: dict = {}  # the loss heads built for grad mode, by output leaves and parameters

    def feed(self, args) -> dict:
        return dict(zip(tf.nest.flatten(self.inputs), (np.asarray(a) for a in tf.nest.flatten(list(args)))))

    def __call__(self, *args, **kwargs):
        return tf.nest.pack_sequence_as(self.outputs, self.session.run(tf.nest.flatten(self.outputs), self.feed(args)))

    def backward(self, args, weights, params):
        """:class:`~conformance.paths.Autograd`'s ``backward`` in the graph: the loss head ``sum(out * w)`` over
        :func:`~conformance.paths.records.loss_terms` (``w`` fed to placeholders), and ``tf.compat.v1.gradients`` of it
        with respect to the float input placeholders and the graph's variables named as ``params`` are."""

        feed = self.feed(args)
        flat = [np.array(a) for a in self.session.run(tf.nest.flatten(self.outputs), feed)]  # distinct arrays
        outputs = tf.nest.pack_sequence_as(self.outputs, flat)
        terms = loss_terms(outputs, weights)
        inputs = [t for t in flatten(self.inputs) if t.dtype.is_floating]
        if not terms:
            return outputs, None, [None] * len(inputs), [None] * len(params)
        position = {id(a): k for k, a in enumerate(flat)}
        leaves = tuple(position[id(o)] for o, _ in terms)
        key = (leaves, tuple(v.name for v in params))
        if key not in self.losses:
            self.losses[key] = self.loss_head(leaves, inputs, params)
        loss, placeholders, grads = self.losses[key]
        feed.update(zip(placeholders, (w for _, w in terms)))
        values = self.session.run([loss] + [g for g in grads if g is not None], feed)
        found = iter(values[1:])
        grads = [None if g is None else next(found) for g in grads]
        return outputs, values[0], grads[:len(inputs)], grads[len(inputs):]

    def loss_head(self, leaves: tuple, inputs: list, params: list) -> tuple:
        """``(loss, weight placeholders, gradients)`` built in the graph for the output leaves at ``leaves``
        (positions in ``tf.nest.flatten`` order); ``params`` are matched to the graph's variables by name."""
        outputs = tf.nest.flatten(self.outputs)
        variables = {v.name: v for v in self.model.variables}
        with _tf1_control_flow(), self.graph.as_default(), _device(self.device):
            placeholders = [tf.compat.v1.placeholder(outputs[k].dtype, name=f"loss_weight_{k}") for k in leaves]
            loss = tf.add_n([tf.reduce_sum(outputs[k] * w) for k, w in zip(leaves, placeholders)])
            grads = tf.compat.v1.gradients(loss, inputs + [variables[v.name] for v in params])
        return loss, placeholders, grads


def _session(ctx: ConvertContext):
    return Session(ctx.model, input_signature(ctx.program, ctx.tensor_names), ctx.kwargs, ctx.device)


_REPRO_SESSION = '''
def convert(model, args, kwargs):
    graph = tf.Graph()
    tf.compat.v1.disable_control_flow_v2()  # TF1's control flow (Switch/Merge, Enter/Exit)
    with graph.as_default():
        inputs = tf.nest.map_structure(lambda s: tf.compat.v1.placeholder(s.dtype, s.shape, name=s.name),
                                       signature(args))
        graph_model = Model()  # its tf.Variables, in this graph
        if hasattr(model, "training"):
            graph_model.training = model.training
        outputs = build_graph(graph_model, *inputs, **kwargs)  # kwargs are fixed in the graph
        init = tf.compat.v1.global_variables_initializer()
    session = tf.compat.v1.Session(graph=graph)
    session.run(init)

    def run(*args, **kwargs):
        feed = dict(zip(tf.nest.flatten(inputs), (to_numpy(a) for a in tf.nest.flatten(list(args)))))
        return tf.nest.pack_sequence_as(outputs, session.run(tf.nest.flatten(outputs), feed))
    return run
'''


# ------------------------------------------------------------------ the records

_SHAPE_NONE = Limitation(
    "a Python comparison of x.shape[i] for the dim that is None in the input_signature: the static shape is "
    "unknown while tracing, so it raises (TensorFlow documents tf.shape(x) for dynamic dims, which generated "
    "models use; a model of your own may not)",
    r"TypeError: .*not supported between instances of '(NoneType' and 'int|int' and 'NoneType)'",
    reference="https://www.tensorflow.org/api_docs/python/tf/shape")
_PYTHON_LOOP_BREAK = Limitation(
    "AutoGraph keeps a loop over a Python range a Python loop, and refuses a break or return in it that "
    "depends on a tensor", r"break and return statements which depend on a TF condition are not supported "
    r"in Python for loops", reference="https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/"
    "autograph/g3doc/reference/limitations.md#consistency-of-control-flow-types")
_FREEZE_DUPLICATE_FUNCTION = Limitation(
    "known bug: freezing variables (convert_variables_to_constants_v2, lower_control_flow=False, as tf2onnx "
    "does) registers a rewritten while-loop condition under a fixed name, so a second model with such a loop "
    "in the same process fails with 'duplicate function'",
    r"Attempting to add a duplicate function with name: while_cond_function(_\d+)? where the previous and "
    r"current definitions differ", outcome=None, versions=">=2.21",
    reference="found by conformance 2026-11-21 (tensorflow 2.21.0)")
_ONNX_COND_REPEATED_OUTPUT = Limitation(
    "known bug (tf2onnx): a tf.cond branch that returns the same tensor twice, e.g. an early `return y, y` "
    "under a tensor condition, fails with 'Cannot find node with output cond:0'",
    r"make_sure failure: Cannot find node with output '[^']*cond[^']*:\d+'", outcome=None, versions=">=1.17",
    package="tf2onnx", reference="found by conformance 2026-11-21 (tf2onnx 1.17.0, tensorflow 2.21.0)")
_ONNX_ERFC = Limitation(
    "tf2onnx has no conversion for TensorFlow's Erfc (tf.nn.gelu(approximate=False) computes it): it logs "
    "'Tensorflow op [Erfc] is not supported', keeps the op, and onnxruntime refuses the model",
    r"No Op registered for Erfc", versions=">=1.17", package="tf2onnx",
    reference="https://github.com/onnx/tensorflow-onnx/blob/main/support_status.md")
_ONNX_LOOP_COUNTER_SHAPE = Limitation(
    "known bug (tf2onnx): when a branch of a tf.cond in a while body computes something unused from a tensor "
    "defined outside the loop (an `else` branch, or the code after a `continue`), the Loop body's iteration-count "
    "input gets no shape and onnxruntime refuses to run it", r"Loop subgraph input 0 has unknown shape",
    phase="run", outcome=None, versions=">=1.17", package="tf2onnx",
    reference="found by conformance 2026-11-21 (tf2onnx 1.17.0, tensorflow 2.21.0)")

_LOOP_SHAPE_INVARIANT = Limitation(
    "a tensor that changes shape from one iteration of a while loop on a tensor condition to the next (a concat "
    "that grows it) needs shape invariants (tf.autograph.experimental.set_loop_options, which generated models "
    "declare; a model of your own may not); AutoGraph refuses it without",
    r"has shape \(.*\) before the loop, but shape \(.*\) after one iteration",
    reference="https://www.tensorflow.org/api_docs/python/tf/autograph/experimental/set_loop_options")

_XLA_LOOP_SHAPES = Limitation(
    "XLA compiles a while loop only when its loop variables keep their shapes: a tensor grown across "
    "iterations (a shape invariant in tf.function) is refused", r"Input and output shapes of loop body do not match",
    reference="https://www.tensorflow.org/xla/known_issues")

_TRACED_LIMITATIONS = (_SHAPE_NONE, _PYTHON_LOOP_BREAK, _LOOP_SHAPE_INVARIANT)
_NO_GRAPH_BUILDER = Limitation(
    "tf.session runs the model's TF1 graph, which the model's module builds in build_graph(model, *inputs, **kwargs): "
    "generated models have one, a model of your own needs one written beside it", r"defines no build_graph")
_TF1_COND_X_PLUS_X = Limitation(
    "known bug: in a TF1 graph (TF1 control flow, Switch/Merge), grappler's arithmetic optimizer, on by default in a "
    "session, breaks a tf.cond branch that adds a tensor from outside the branch to itself (`lambda: x + x`, also "
    "tf.add_n([x, x])): where that branch is taken the cond's output is dead and the session fails with 'Retval[0] "
    "does not have value' (control flow v2, or rewrite_options.arithmetic_optimization OFF, avoids it)",
    r"Retval\[\d+\] does not have value", phase="run", outcome=None, versions=">=2.21",
    reference="found by conformance 2026-11-21 (tensorflow 2.21.0)")
_GRAPH_RETURN_IN_LOOP = Limitation(
    "the TF1 graph conformance writes does not express a return inside a loop that runs as a tf.while_loop (a while "
    "on a tensor, or a for with a break, continue or return under a tensor condition); AutoGraph does, with flags "
    "and an undefined return value", r"NotImplementedError: build_graph: a return inside a loop")
#: tf.function and XLA trace again when a call brings a new kwargs value: the same refusals at run time
_RETRACED_LIMITATIONS = _TRACED_LIMITATIONS + tuple(replace(lim, phase="run") for lim in _TRACED_LIMITATIONS)
_ONNX_LIMITATIONS = _TRACED_LIMITATIONS + (_ONNX_ERFC, _FREEZE_DUPLICATE_FUNCTION, _ONNX_COND_REPEATED_OUTPUT,
                                           _ONNX_LOOP_COUNTER_SHAPE)
_BOUND_NOTE = "non-tensor arguments bound at trace time, one traced function per kwargs value"
#: The modes of a path that autograd differentiates (see conformance.training): GradientTape through it.
_AUTOGRAD_MODES = frozenset({"infer", "grad", "train"})
# What the grad and train modes found (tensorflow 2.21.0)
_GRAPH_ZERO_GRADIENT = Limitation(
    "known divergence: in a graph (traced, or built as TF1), a variable or input used only in a branch or loop body "
    "that did not run (or not at all) gets a zero gradient where eager gives None (the graph holds the untaken branch)",
    r"a gradient where eager has none", phase="compare", outcome=None, versions=">=2.0",
    reference="found by conformance 2026-11-21 (tensorflow 2.21.0), grad mode")
_XLA_COND_LOG_SOFTMAX_GRADIENT = Limitation(
    "known bug: XLA fails to differentiate `if tf.reduce_sum(x) > 0: return x` followed by "
    "`return tf.nn.log_softmax(x, axis=0)` ('0 is duplicated in the input'; axis=-1 works)",
    r"\d+ is duplicated in the input", phase="run", outcome=None, versions=">=2.0",
    reference="found by conformance 2026-11-21 (tensorflow 2.21.0), grad mode")
_XLA_COND_GRADIENT_GRAPH = Limitation(
    "known bug: differentiating a tf.cond with an early return under jit_compile trips an internal assertion "
    "of cond_v2's gradient (`assert t.graph == cond_graph` in _resolve_grad_inputs), a bare AssertionError",
    r"AssertionError: \(raised at cond_v2\.py:\d+ in _resolve_grad_inputs", phase="run", outcome=None,
    versions=">=2.0", reference="found by conformance 2026-11-21 (tensorflow 2.21.0), grad mode")
_XLA_WHILE_GRADIENT = Limitation(
    "XLA differentiates a while loop only with maximum_iterations set; AutoGraph's `while` on a tensor "
    "condition has none (TensorFlow's documented requirement, named in the error)",
    r"XLA compilation requires a fixed tensor list size", phase="run", versions=">=2.0",
    reference="https://www.tensorflow.org/api_docs/python/tf/while_loop")

register(
    PathRecord("tf", "eager", "eager tf.Module (the reference, on the chosen device)", _eager, _call, reference=True,
               modes=_AUTOGRAD_MODES),
    PathRecord("tf", "function", f"tf.function(input_signature=...) (AutoGraph); {_BOUND_NOTE}", _function(False),
               _run, limitations=_RETRACED_LIMITATIONS + (_GRAPH_ZERO_GRADIENT,), counters=_counters,
               repro=_REPRO_TRACED.format(jit=False), modes=_AUTOGRAD_MODES),
    PathRecord("tf", "xla", f"tf.function(input_signature=..., jit_compile=True) (XLA); {_BOUND_NOTE}",
               _function(True), _run, limitations=_RETRACED_LIMITATIONS + (
                   _XLA_LOOP_SHAPES, replace(_XLA_LOOP_SHAPES, phase="run"), _GRAPH_ZERO_GRADIENT, _XLA_WHILE_GRADIENT,
                   _XLA_COND_LOG_SOFTMAX_GRADIENT, _XLA_COND_GRADIENT_GRAPH),
               counters=_counters, repro=_REPRO_TRACED.format(jit=True), modes=_AUTOGRAD_MODES),
    PathRecord("tf", "saved_model", "tf.saved_model.save (one concrete function per kwargs value of the case), "
               "then tf.saved_model.load", _saved_model, _run, limitations=_TRACED_LIMITATIONS, counters=_counters,
               repro=_REPRO_SAVED_MODEL),
    PathRecord("tf", "onnx", "tf2onnx.convert.from_function on onnxruntime (non-tensor arguments fixed at export)",
               _onnx, _run, limitations=_ONNX_LIMITATIONS, specializes=frozenset({"kwargs"}),
               requires=("tf2onnx", "onnx", "onnxruntime"), repro=_REPRO_ONNX),
    PathRecord("tf", "session", "TF1 graph: the module's build_graph on tf.compat.v1.placeholders (tf.cond, "
               "tf.while_loop, TF1 control flow) run in a tf.compat.v1.Session (non-tensor arguments fixed when the "
               "graph is built)", _session, _run,
               limitations=(_NO_GRAPH_BUILDER, _GRAPH_RETURN_IN_LOOP, _TF1_COND_X_PLUS_X, _GRAPH_ZERO_GRADIENT),
               specializes=frozenset({"kwargs"}), repro=_REPRO_SESSION, modes=frozenset({"infer", "grad"})),
)
