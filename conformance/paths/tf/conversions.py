"""The TensorFlow conversions, as the campaign runs them and a standalone ``repro.py`` copies them.

Standalone (see :mod:`conformance.paths.standalone`): this module imports only the standard library, numpy,
TensorFlow and conformance's standalone modules, and a conversion reads only the plain-data fields of its
context (``model``, ``args``, ``kwargs``, ``device``, ``workdir``, ``tensor_names``, ``dynamic_axes``,
``kwarg_sets``), so the same functions run in a reproducer whose context is a ``types.SimpleNamespace``.

Most traced paths are given the ``input_signature`` a user writes by hand for the model
(:func:`input_signature`): nested lists, tuples and dicts of ``tf.TensorSpec``, ``None`` on the dynamic
(batch) dims. Non-tensor arguments are bound as Python values at trace time (``functools.partial``), as
AutoGraph users bind them: each kwargs value gets a traced function of its own. The per-call paths
(:class:`PerCall`) call ``tf.function`` as most users do: no signature, the Python arguments passed on
every call, a new trace per new Python value, dtype or shape.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import tempfile
from pathlib import Path

import numpy as np
import tensorflow as tf

from conformance.paths.onnx_opset import check_loadable, lower_ir_version
from conformance.paths.ort import OrtModel, UnknownGraphInputs

# ------------------------------------------------------------------ the framework: devices, calls, numpy


def device_scope(device: str):
    """The ``tf.device`` scope of ``cpu`` or ``cuda``."""
    return tf.device("/GPU:0" if device == "cuda" else "/CPU:0")


def device_of(args) -> str:
    """Where the (nested) tensor arguments live: the device a call runs on."""
    leaves = tf.nest.flatten(args)
    return "cuda" if leaves and "GPU" in getattr(leaves[0], "device", "") else "cpu"


def prepare(model, device: str, fp64: bool):
    """A fresh model ready to run: its weights are already ``tf.Variable``s in the rendered dtype (float64 in
    the fp64 variant), placed where they are used, so there is nothing to move."""
    return model


def call(model, args, kwargs):
    """Run a model, or a converted one, on the device of its arguments."""
    with device_scope(device_of(args)):
        return model(*args, **kwargs)


def to_numpy(x):
    """An output (a tensor, a variable, or a nest of them) as numpy arrays, copied."""
    if isinstance(x, (tf.Tensor, tf.Variable)):
        return np.array(x.numpy())  # a copy, and an array where a 0-d tensor gives a numpy scalar
    if isinstance(x, (list, tuple)):
        return type(x)(to_numpy(i) for i in x)
    if isinstance(x, dict):
        return {k: to_numpy(v) for k, v in x.items()}
    if isinstance(x, (bool, int, float)):  # a Python number stays one: the oracle judges it as a Python value
        return x
    return np.asarray(x)


def run(artifact, args, kwargs):
    """Run what a conversion returned (every artifact here is called like the model)."""
    return artifact(*args, **kwargs)


# ------------------------------------------------------------------ the input signature


def input_signature(args, tensor_names: list, dynamic_axes: dict) -> list:
    """The ``input_signature`` a user writes for the model's ``__call__``, one entry per positional input.

    Each tensor of the example ``args`` becomes a ``tf.TensorSpec`` of its dtype and shape, with ``None`` on
    the axes ``dynamic_axes`` lists for its flat name (``tensor_names``, in ``tf.nest`` order of a list of
    inputs; tf2onnx keeps the name as the ONNX input name), nested in lists, tuples and dicts as the input is.
    """
    names = iter(tensor_names)

    def spec(value):
        if isinstance(value, dict):
            return {k: spec(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return type(value)(spec(v) for v in value)
        if value is None or isinstance(value, (bool, int, float, str)):
            return value  # a constant of the call: TensorFlow says whether a signature may hold it
        name = next(names)
        dynamic = dynamic_axes.get(name, ())
        shape = [None if axis in dynamic else size for axis, size in enumerate(value.shape)]
        return tf.TensorSpec(shape, value.dtype, name=name)

    return [spec(a) for a in args]


def kwargs_key(kwargs: dict) -> tuple:
    """A hashable key of a kwargs value (``True`` and ``1`` apart)."""
    return tuple(sorted((k, type(v).__name__, repr(v)) for k, v in kwargs.items()))


# ------------------------------------------------------------------ eager, tf.function, XLA


def eager_model(ctx):
    """The reference: the eager ``tf.Module`` itself."""
    return ctx.model


class Traced:
    """``tf.function`` of a model with an input signature, one per kwargs value it is called with.

    The Python keyword arguments are bound at trace time (``functools.partial``), as AutoGraph users bind
    them: a new kwargs value makes a new function, which traces once; calls with other tensor values or batch
    sizes reuse it (the signature has ``None`` for the batch).
    """

    def __init__(self, model, signature: list, device: str, jit_compile: bool):
        self.model = model
        self.signature = signature
        self.device = device
        self.jit_compile = jit_compile
        self.functions: dict = {}

    def function(self, kwargs: dict):
        key = kwargs_key(kwargs)
        if key not in self.functions:
            self.functions[key] = tf.function(functools.partial(self.model.__call__, **kwargs),
                                              input_signature=self.signature, jit_compile=self.jit_compile)
        return self.functions[key]

    def __call__(self, *args, **kwargs):
        with device_scope(self.device):
            return self.function(kwargs)(*args)

    def counters(self) -> dict:
        """``traces``: traces over all functions; ``functions``: kwargs values seen (one trace each is expected)."""
        return {"traces": sum(f.experimental_get_tracing_count() for f in self.functions.values()),
                "functions": len(self.functions)}


def trace(ctx, jit_compile: bool):
    """``tf.function`` (``jit_compile``: compiled by XLA), traced on the example now, so that AutoGraph's and
    XLA's errors are conversion errors."""
    traced = Traced(ctx.model, input_signature(ctx.args, ctx.tensor_names, ctx.dynamic_axes), ctx.device,
                    jit_compile)
    traced(*ctx.args, **ctx.kwargs)
    return traced


class PerCall:
    """``tf.function`` of a model as most users call it: no ``input_signature``, the Python keyword arguments
    passed on every call.

    TensorFlow keeps one trace per call signature it has seen (each Python value, input structure, dtype and
    shape) and traces again for a new one; with ``reduce_retracing`` it traces a shape it has seen vary once
    more with that dim generalised to ``None``, and reuses that trace for later sizes. A call must reuse the
    trace of its own Python values and never one traced for others.
    """

    def __init__(self, model, device: str, jit_compile: bool, reduce_retracing: bool):
        self.function = tf.function(model.__call__, jit_compile=jit_compile, reduce_retracing=reduce_retracing)
        self.device = device
        self.seen: set = set()  # (kwargs key, input shapes) of each call

    def __call__(self, *args, **kwargs):
        # a constant among the positional inputs (None for an optional one) is part of the call signature as it is
        shapes = tuple(tuple(t.shape) if hasattr(t, "shape") else repr(t) for t in tf.nest.flatten(list(args)))
        self.seen.add((kwargs_key(kwargs), shapes))
        with device_scope(self.device):
            return self.function(*args, **kwargs)

    def counters(self) -> dict:
        """``traces``: how often the function traced; ``kwargs_values`` and ``call_signatures``: the distinct
        kwargs values and (kwargs value, input shapes) pairs it was called with (without ``reduce_retracing``,
        one trace each is expected)."""
        return {"traces": self.function.experimental_get_tracing_count(),
                "kwargs_values": len({key for key, _ in self.seen}), "call_signatures": len(self.seen)}


def trace_per_call(ctx, jit_compile: bool, reduce_retracing: bool = False):
    """``tf.function`` without a signature (``jit_compile``: compiled by XLA), called on the example now, so that
    AutoGraph's and XLA's errors on it are conversion errors; later calls bring their own kwargs."""
    function = PerCall(ctx.model, ctx.device, jit_compile, reduce_retracing)
    function(*ctx.args, **ctx.kwargs)
    return function


# ------------------------------------------------------------------ SavedModel


class Loaded:
    """A model loaded with ``tf.saved_model.load``: ``serve`` dispatches on the Python kwargs to the concrete
    function traced for them before saving. (A loaded model returns dicts with their keys sorted.)"""

    def __init__(self, loaded, device: str, traces: int):
        self.loaded = loaded
        self.device = device
        self.traces = traces

    def __call__(self, *args, **kwargs):
        with device_scope(self.device):
            return self.loaded.serve(*args, **kwargs)

    def counters(self) -> dict:
        """``traces``: concrete functions traced before saving (one per kwargs value of the case)."""
        return {"traces": self.traces}


def save_and_load(ctx):
    """Save with one concrete function per kwargs value of the case (a user saves the signatures they serve),
    then load the SavedModel from disk into a fresh object."""
    signature = input_signature(ctx.args, ctx.tensor_names, ctx.dynamic_axes)
    serve = tf.function(ctx.model.__call__)
    for kwargs in ctx.kwarg_sets or [ctx.kwargs]:
        serve.get_concrete_function(*signature, **kwargs)
    traces = serve.experimental_get_tracing_count()
    holder = tf.Module()
    holder.model = ctx.model
    holder.serve = serve
    # a folder of its own: another worker may convert the same program at the same time
    with device_scope(ctx.device), tempfile.TemporaryDirectory(prefix="saved_model-", dir=ctx.workdir) as path:
        tf.saved_model.save(holder, path)  # traces each concrete function once more, to save it
        return Loaded(tf.saved_model.load(path), ctx.device, traces)  # load reads the variables now


# ------------------------------------------------------------------ tf2onnx on onnxruntime


class OnnxNested:
    """An ONNX model exported by tf2onnx, returning the function's own output structure.

    tf2onnx orders the outputs as ``tf.nest.flatten`` does (dict keys sorted), so they are packed back into the
    traced function's ``structured_outputs``. Keyword arguments were bound at export.
    """

    def __init__(self, folder: tempfile.TemporaryDirectory, device: str, names: list, structure, runtime=None):
        self.folder = folder  # removed with the artifact
        self.path = Path(folder.name) / "model.onnx"
        # ``runtime(path)``: another runtime for the file (OpenVINO's), which then never meets onnxruntime
        self.session = OrtModel(self.path, device, names, to_numpy) if runtime is None else runtime(self.path)
        self.structure = structure

    def __call__(self, *args, **kwargs):
        return self.repack(list(self.session(*args)))

    def repack(self, flat: list):
        """The ONNX file's flat outputs (``tf.nest.flatten`` order) in the function's output structure."""
        return tf.nest.pack_sequence_as(self.structure, list(flat))


def write_onnx(ctx) -> tuple:
    """``tf2onnx.convert.from_function`` of the ``tf.function`` with the example's kwargs bound, at the opset asked
    for (``--onnx-opset``; else tf2onnx's default): ``model.onnx`` in a folder of its own (removed when the folder
    object goes), and the function's output structure."""
    import tf2onnx

    signature = input_signature(ctx.args, ctx.tensor_names, ctx.dynamic_axes)
    fn = tf.function(functools.partial(ctx.model.__call__, **ctx.kwargs), input_signature=signature)
    folder = tempfile.TemporaryDirectory(prefix="onnx-", dir=ctx.workdir)  # another worker may convert it too
    path = Path(folder.name) / "model.onnx"
    opset = getattr(ctx, "onnx_opset", None)
    tf2onnx.convert.from_function(fn, input_signature=signature, opset=opset, output_path=str(path))
    if opset is not None:
        lower_ir_version(path)  # the lowest IR version the opset needs
    return folder, fn.get_concrete_function().structured_outputs


def export_onnx(ctx):
    """The ONNX file of :func:`write_onnx` on onnxruntime."""
    folder, structure = write_onnx(ctx)
    try:
        return OnnxNested(folder, ctx.device, ctx.tensor_names, structure)
    except UnknownGraphInputs:
        raise
    except Exception:
        check_loadable(Path(folder.name) / "model.onnx")  # a runtime too old for the opset: a configuration error
        raise


# ------------------------------------------------------------------ TF1 graph in a Session


class NoGraphBuilder(TypeError):
    """The model's module defines no ``build_graph(model, *inputs, **kwargs)``, the TF1 graph tf.session runs."""


class GraphNotExpressed(NotImplementedError):
    """The model's ``build_graph`` itself raised ``NotImplementedError``: it declines to write this model as a
    TF1 graph (conformance's renderer does so for what its TF1 graphs do not express)."""


def raised_in(error: BaseException, function) -> bool:
    """Whether ``error`` was raised by ``function``'s own code, not by something it called."""
    frame = error.__traceback__
    while frame is not None and frame.tb_next is not None:
        frame = frame.tb_next
    return frame is not None and frame.tb_frame.f_code is function.__code__


@contextlib.contextmanager
def tf1_control_flow():
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

    The graph is what ``build_graph(model, *inputs, **kwargs)`` of the model's module builds (the TF1 port of the
    model that conformance renders beside ``Model``): it is called in a fresh ``tf.Graph`` on placeholders with
    ``None`` for the dynamic dims, with a new ``Model`` made in that graph, and with TF1's control flow
    (:func:`tf1_control_flow`). The weights are that model's ``tf.Variable``s, initialised in the session by
    ``global_variables_initializer`` from the same seeded numpy draws as the eager model's. Non-tensor arguments
    are fixed when the graph is built; a call feeds the tensors and fetches the outputs, nested as
    ``build_graph`` returns them.
    """

    def __init__(self, model, signature: list, kwargs: dict, device: str):
        build = getattr(inspect.getmodule(type(model)), "build_graph", None)
        if build is None:
            raise NoGraphBuilder(f"the module of {type(model).__name__} defines no build_graph(model, *inputs, "
                                 f"**kwargs), the TF1 graph of the model that tf.session runs")
        self.graph = tf.Graph()
        self.device = device
        with tf1_control_flow(), self.graph.as_default(), device_scope(device):
            self.inputs = tf.nest.map_structure(
                lambda spec: tf.compat.v1.placeholder(spec.dtype, spec.shape, name=spec.name), signature)
            self.model = type(model)()
            if hasattr(model, "training"):  # train() or eval(): a Python value when the graph is built
                self.model.training = model.training
            try:
                self.outputs = build(self.model, *self.inputs, **kwargs)
            except NotImplementedError as e:
                if raised_in(e, build):
                    raise GraphNotExpressed(str(e)) from e
                raise
            init = tf.compat.v1.global_variables_initializer()
        self.session = tf.compat.v1.Session(graph=self.graph, config=tf.compat.v1.ConfigProto(
            intra_op_parallelism_threads=1, inter_op_parallelism_threads=1))
        self.session.run(init)

    def feed(self, args) -> dict:
        """The placeholders' feed for a call's (nested) tensor arguments."""
        return dict(zip(tf.nest.flatten(self.inputs), (np.asarray(a) for a in tf.nest.flatten(list(args)))))

    def __call__(self, *args, **kwargs):
        return tf.nest.pack_sequence_as(self.outputs, self.session.run(tf.nest.flatten(self.outputs), self.feed(args)))


def build_session(ctx):
    """The model's TF1 graph (its module's ``build_graph``) with the example's kwargs, in a session."""
    return Session(ctx.model, input_signature(ctx.args, ctx.tensor_names, ctx.dynamic_axes), ctx.kwargs,
                   ctx.device)
