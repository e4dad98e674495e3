"""Deliberately wrong TensorFlow paths, registered for the self-tests (``--load tests.planted_tf``).

Each builds on a real TensorFlow path and breaks it in one way a converter could, so the tests can
prove the oracle notices: a ``tf.function`` that does not retrace for a new kwargs value, a loaded
SavedModel that reuses the first traced kwargs value, an XLA result off by 1e-4 relative, an ONNX
model whose loops run one iteration short, a TF1 graph whose ``tf.cond`` branches are swapped. None is
selected by default.
"""

import inspect
import re

import numpy as np
import onnx
import onnxruntime as ort
import tensorflow as tf
from onnx import TensorProto, helper

from conformance.paths.records import PathRecord, register
from conformance.paths.tf import conversions as conv
from conformance.program.case import flatten
from conformance.render.source import load_source


class _StaleKwargs(conv.Traced):
    """Traces for the first kwargs value and reuses that function for every other value."""

    def function(self, kwargs):
        return next(iter(self.functions.values())) if self.functions else super().function(kwargs)


def _stale_function(ctx):
    traced = _StaleKwargs(ctx.model, conv.input_signature(ctx.args, ctx.tensor_names, ctx.dynamic_axes), ctx.device,
                          False)
    traced(*ctx.args, **ctx.kwargs)
    return traced


def _saved_model_first_kwargs(ctx):
    loaded = conv.save_and_load(ctx)
    first = dict(ctx.kwargs)
    return lambda *args, **kwargs: loaded(*args, **first)


def _xla_perturbed(ctx):
    traced = conv.trace(ctx, jit_compile=True)

    def run(*args, **kwargs):
        out = traced(*args, **kwargs)
        flat = [t.numpy().copy() for t in tf.nest.flatten(out)]
        t = next((a for a in flat if a.dtype.kind == "f" and a.size), None)
        if t is not None:
            i = np.unravel_index(np.abs(t).argmax(), t.shape)
            t[i] = t[i] * (1 + 1e-4) + (1e-4 if t[i] == 0 else 0.0)
        return tf.nest.pack_sequence_as(out, flat)
    return run


class _ShortLoops:
    """The tf2onnx model with every top-level ``Loop`` run one iteration short.

    One session counts each loop's iterations (a scan output of the iteration number); a second runs
    the model with each loop's trip count capped one below that.
    """

    def __init__(self, path, names: list[str], structure):
        model = onnx.load(str(path))
        self.counting, self.short = onnx.ModelProto(), onnx.ModelProto()
        self.counting.CopyFrom(model)
        self.short.CopyFrom(model)
        self.loops = 0
        for k, node in enumerate(n for n in self.counting.graph.node if n.op_type == "Loop"):
            body = next(a.g for a in node.attribute if a.name == "body")
            body.node.append(helper.make_node("Identity", [body.input[0].name], [f"planted_iter_{k}"]))
            body.output.append(helper.make_tensor_value_info(f"planted_iter_{k}", TensorProto.INT64, []))
            node.output.append(f"planted_trips_{k}")
            self.counting.graph.output.append(helper.make_tensor_value_info(f"planted_trips_{k}", TensorProto.INT64,
                                                                            [None]))
            self.loops += 1
        for k, node in enumerate(n for n in self.short.graph.node if n.op_type == "Loop"):
            node.input[0] = f"planted_max_{k}"
            self.short.graph.input.append(helper.make_tensor_value_info(f"planted_max_{k}", TensorProto.INT64, []))
        self.sessions = [ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
                         for m in (self.counting, self.short)]
        self.names = names
        self.structure = structure

    def __call__(self, *args, **kwargs):
        leaves = dict(zip(self.names, (np.asarray(t) for t in flatten(list(args)))))
        counting, short = self.sessions
        feed = {i.name: leaves[i.name] for i in counting.get_inputs()}
        outs = counting.run(None, feed)
        for k, trips in enumerate(outs[len(outs) - self.loops:]):
            feed[f"planted_max_{k}"] = np.array(max(len(trips) - 1, 0), np.int64)
        return tf.nest.pack_sequence_as(self.structure, short.run(None, feed))


def _onnx_short_loops(ctx):
    real = conv.export_onnx(ctx)
    return _ShortLoops(real.path, ctx.tensor_names, real.structure)


#: the two branches of a tf.cond call in a rendered build_graph (``lambda: _then_3(v0)`` or ``_then_3``)
_BRANCHES = re.compile(r"((?:lambda: )?_then_\d+(?:\([^)]*\))?), ((?:lambda: )?_else_\d+(?:\([^)]*\))?)\)")


def _session_swapped_cond(ctx):
    """tf.session on the model's module with every ``tf.cond(pred, then, else)`` of build_graph written
    ``tf.cond(pred, else, then)``."""
    module = inspect.getmodule(type(ctx.model))
    source = _BRANCHES.sub(r"\2, \1)", inspect.getsource(module))
    swapped = load_source(source, ctx.workdir / "swapped_cond.py", module.__name__ + "_swapped_cond")
    return conv.Session(swapped.Model(), conv.input_signature(ctx.args, ctx.tensor_names, ctx.dynamic_axes),
                        ctx.kwargs, ctx.device)


def _planted(name, description, convert, **kw):
    # default=False: selected only by name, never by a plain "all tf paths"
    return PathRecord("tf", name, description, convert, conv.run, default=False, **kw)


register(
    _planted("planted_stale_kwargs", "tf.function that reuses the first kwargs value's trace for every value",
             _stale_function),
    _planted("planted_saved_first_kwargs", "SavedModel whose loaded model always runs the first traced kwargs value",
             _saved_model_first_kwargs),
    _planted("planted_xla_perturb", "XLA, one output element off by 1e-4 relative", _xla_perturbed),
    _planted("planted_onnx_short_loop", "tf2onnx model whose loops run one iteration short", _onnx_short_loops,
             specializes=frozenset({"kwargs"})),
    _planted("planted_session_swapped_cond", "TF1 graph in a session with the branches of every tf.cond swapped",
             _session_swapped_cond, specializes=frozenset({"kwargs"})),
)
