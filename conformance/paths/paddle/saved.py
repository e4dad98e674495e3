"""PaddlePaddle's conversions through a saved model: ``paddle.jit.save`` then ``paddle.jit.load`` (of a layer's
``forward``, of a second method of it, of a plain function), a Paddle Inference predictor on the saved model,
and ``paddle.onnx.export`` (paddle2onnx) run on onnxruntime.

Standalone, like :mod:`conformance.paths.paddle.conversions` (whose functions these use): reproducers copy
this code. Every conversion here saves the model converted with the hand-written ``input_spec``, so the saved
model, the predictor and the ONNX graph run with the example's non-tensor arguments whatever a later call
passes; they take the tensors flattened and return a flat list of outputs.
"""

from __future__ import annotations

import os
import re
import signal
from types import SimpleNamespace

import numpy as np
import paddle

from conformance.paths.onnx_opset import check_loadable, lower_ir_version
from conformance.paths.ort import OrtModel
from conformance.paths.paddle.conversions import callers, input_spec, note, prepare, to_numpy, watched
from conformance.program.trees import FlatOutputs, flatten, unflatten

# ------------------------------------------------------------------ jit.save, jit.load


def save(ctx) -> str:
    """``paddle.jit.save`` of the model converted with its input_spec; returns the path prefix."""
    return save_static(ctx)[0]


def save_static(ctx) -> tuple:
    """:func:`save`, and the to_static layer saved."""
    static = paddle.jit.to_static(ctx.model, input_spec=input_spec(ctx), full_graph=True)
    prefix = os.path.join(ctx.workdir, "model")
    paddle.jit.save(static, prefix)
    return prefix, static


# ------------------------------------------------------------------ Paddle's flat order


def paddle_flatten(tree) -> list:
    """The leaves of a nest in Paddle's order (``paddle.utils.flatten``: a dict's values by *sorted* key, as
    ``tf.nest``), the order of a saved program's inputs and outputs; :func:`~conformance.program.trees.flatten`
    takes a dict's values in insertion order."""
    return list(paddle.utils.flatten(tree)) if isinstance(tree, (list, tuple, dict)) else [tree]


def output_order(structure) -> list[int]:
    """For each flat output of a saved model, in Paddle's order (:func:`paddle_flatten`), its index in the insertion
    order of ``structure`` (forward's output nest, see ``ConvertContext.output_structure``)."""
    return paddle_flatten(unflatten(structure, list(range(len(flatten(structure))))))


def in_insertion_order(outputs: list, order) -> list:
    """A saved model's flat ``outputs`` (Paddle's order) in the insertion order of forward's output nest, the order
    the runner rebuilds the nest in; as they are where their number is not the nest's (the runner reports that)."""
    if order is None or len(outputs) != len(order):
        return list(outputs)
    ordered = [None] * len(order)
    for value, index in zip(outputs, order):
        ordered[index] = value
    return ordered


def program_nest(static):
    """The output nest of the program a to_static layer or function saves, as forward returns it (its values in
    place of the tensors): ``concrete_program.outputs``, which is a returned list or tuple of two or more items
    itself, and anything else wrapped in a list of one (ConcreteProgram.from_func_spec)."""
    outputs = getattr(static, "forward", static).concrete_program.outputs
    return outputs[0] if len(outputs) == 1 else outputs


def program_order(static) -> list[int]:
    """:func:`output_order` of the program a to_static layer or function saves (:func:`program_nest`)."""
    return output_order(program_nest(static))


#: An operator of a saved model (its ``.json``) written for inference: ``is_test`` true.
SAVED_IS_TEST = re.compile(r'"D":true\},"N":"is_test"')


def saved_facts(static, loaded_program: str = "", prefix: str = "", training=None) -> dict:
    """What saving did to forward's outputs that a comparison alone cannot say: ``duplicate_outputs`` (forward
    returns one tensor twice: the saved program returns it once); ``python_outputs`` (forward returns a Python
    value the program holds as a constant, not a value of the program: the saved program leaves it out);
    ``undefined_outputs`` (the AST transcription returns an ``UndefinedVar`` where forward returns a value: the
    saved program leaves it out);
    ``saved_for_inference`` (the layer is in train(),
    ``training``, None: ``static``'s own mode, and the saved model, the loaded program's text or else ``prefix``'s
    files, runs an operator with ``is_test`` true: batch norm on its running statistics, dropout off); and, given
    the loaded program's text, ``output_is_input`` (the loaded program returns more of its inputs, unchanged, than
    forward does: an output computed from an input was replaced by the input)."""
    from paddle.jit.dy2static.utils import UndefinedVar

    leaves = paddle_flatten(program_nest(static))
    values = [v for v in leaves if isinstance(v, paddle.pir.Value)]
    facts = {"duplicate_outputs": len({v.id for v in values}) < len(values),
             "python_outputs": any(isinstance(v, (bool, int, float)) for v in leaves),
             "undefined_outputs": any(isinstance(v, UndefinedVar) for v in leaves)}
    if getattr(static, "training", False) if training is None else training:
        if loaded_program:
            facts["saved_for_inference"] = bool(IS_TEST.search(loaded_program))
        elif prefix and os.path.exists(prefix + ".json"):
            with open(prefix + ".json") as f:
                facts["saved_for_inference"] = bool(SAVED_IS_TEST.search(f.read()))
    if loaded_program:
        inputs = set(re.findall(r'\((%\d+)\) = "pd_op\.data"', loaded_program))
        returned = re.findall(r'"builtin\.shadow_output" \((%\d+)\)', loaded_program)
        expected = sum(v.get_defining_op().name() == "pd_op.data" for v in values)
        facts["output_is_input"] = sum(r in inputs for r in returned) > expected
    return facts


class Flat:
    """A converted model that takes the tensors flattened (kwargs were fixed when saving) and returns a flat list
    of outputs. A saved model takes and returns them in Paddle's order (:func:`paddle_flatten`: dict values by sorted
    key); the outputs come back in forward's insertion order (``order``: :func:`output_order`)."""

    def __init__(self, fn, order=None):
        self.fn = fn
        self.order = order

    def __call__(self, *args, **kwargs):
        out = self.fn(*paddle_flatten(list(args)))
        out = [to_numpy(t) for t in (out if isinstance(out, (list, tuple)) else [out])]
        return FlatOutputs(in_insertion_order(out, self.order))


class FineTuned:
    """A loaded layer being fine-tuned (``grad`` and ``train`` modes): flat tensors in, the outputs as tensors in
    ``forward``'s nest (``nest``: :func:`program_nest`, for the loss head; a saved model returns them in Paddle's
    order, which ``paddle.utils.pack_sequence_as`` follows), and its own copies of the parameters and buffers,
    which conformance's training loop finds in :attr:`own_state` by the eager model's names."""

    def __init__(self, layer, model, nest):
        self.layer = layer
        self.nest = nest
        #: the loaded tensor of each parameter and buffer, by the name of the saved one (a tensor the program does
        #: not use was not saved: the eager model's, which no gradient or step reaches either)
        loaded = {name: getattr(layer, attr) for name, attr in layer._persistable_var_name_dict.items()}
        eager = dict(model.named_parameters(include_sublayers=False))
        self.buffer_names = [name for name, _ in model.named_buffers(include_sublayers=False)]
        eager.update(model.named_buffers(include_sublayers=False))
        self.own_state = SimpleNamespace(**{n: loaded.get(t.name, t) for n, t in eager.items()})
        #: the model's parameters and buffers that were not saved
        self.unsaved = [n for n, t in eager.items() if t.name not in loaded]

    def __call__(self, *args, **kwargs):
        out = self.layer(*paddle_flatten(list(args)))
        out = list(out) if isinstance(out, (list, tuple)) else [out]
        if len(out) != len(paddle_flatten(self.nest)):  # saving dropped outputs: returned flat, the oracle says so
            return out
        return paddle.utils.pack_sequence_as(self.nest, out)


class LoadedForInference(RuntimeError):
    """A layer loaded in train() runs operators that jit.save wrote for inference (``is_test=true``)."""


class UnsavedBufferUpdates(RuntimeError):
    """A loaded layer in train() would not update buffers: the saved program dropped their update."""


IS_TEST = re.compile(r'"(pd_op\.\w+)" \(.*is_test:true')


def jit_load(ctx):
    """The saved model loaded; in ``grad`` and ``train`` modes put in ``train()`` to be fine-tuned (in ``eval()`` a
    loaded layer runs its program without a backward)."""
    prefix, static = save_static(ctx)
    layer = paddle.jit.load(prefix)
    note(ctx, **saved_facts(static, str(layer.program())))
    if ctx.mode == "infer":
        return watched(ctx, Flat(layer, program_order(static)))
    layer.train()
    tuned = FineTuned(layer, ctx.model, program_nest(static))
    if ctx.model.training:
        inference_ops = sorted(set(IS_TEST.findall(str(layer.program()))))
        if inference_ops:
            raise LoadedForInference(f"the layer loaded in train() runs {', '.join(inference_ops)} with is_test=true: "
                                     f"jit.save wrote them for inference although the model was saved in train()")
        buffers = sorted(set(tuned.unsaved) & set(tuned.buffer_names))
        if buffers and ctx.mode == "train":  # compared after the steps
            raise UnsavedBufferUpdates(f"the saved program does not update buffers {', '.join(buffers)} in train(): "
                                       f"no output needs the operator that updates them, so jit.save dropped it")
    return watched(ctx, tuned)


#: The second method of ``paddle.jit_save_methods``.
METHOD = "infer"


def with_method(ctx, spec: list):
    """A copy of the model whose class has a second to_static method, :data:`METHOD`: forward's own function
    under another name, converted with the same input_spec."""
    cls = type(ctx.model)
    both = type(cls.__name__, (cls,), {METHOD: paddle.jit.to_static(cls.forward, input_spec=spec, full_graph=True)})
    model = prepare(both(), ctx.device, False)
    model.set_state_dict(ctx.model.state_dict())
    model.train() if ctx.model.training else model.eval()
    return model


def load_with_method(ctx):
    """One ``paddle.jit.save`` of a layer with ``forward`` and :data:`METHOD` (files ``model.json`` and
    ``model.infer.json``), loaded."""
    return load_with_method_static(ctx)[0]


def load_with_method_static(ctx) -> tuple:
    """:func:`load_with_method`, and the to_static layer saved."""
    spec = input_spec(ctx)
    model = with_method(ctx, spec)
    prefix = os.path.join(ctx.workdir, "model")
    static = paddle.jit.to_static(model, input_spec=spec, full_graph=True)
    paddle.jit.save(static, prefix)
    return paddle.jit.load(prefix), static


def jit_load_method(ctx):
    """The loaded :data:`METHOD` of :func:`load_with_method`."""
    layer, static = load_with_method_static(ctx)
    note(ctx, **saved_facts(static, str(layer.program(METHOD))))
    return watched(ctx, Flat(getattr(layer, METHOD), program_order(static)))


def jit_load_function(ctx):
    """``paddle.jit.save`` of a to_static plain function of the inputs that calls the layer (a closure), loaded."""
    prefix = os.path.join(ctx.workdir, "function")
    function = callers(ctx).function_of(ctx.model)
    static = paddle.jit.to_static(function, input_spec=input_spec(ctx), full_graph=True)
    paddle.jit.save(static, prefix)
    layer = paddle.jit.load(prefix)
    note(ctx, **saved_facts(static, str(layer.program()), training=ctx.model.training))
    return watched(ctx, Flat(layer, program_order(static)))


# ------------------------------------------------------------------ Paddle Inference


class UnknownPredictorInputs(RuntimeError):
    """The predictor has inputs that are none of the model's tensor inputs."""


class Predictor:
    """A Paddle Inference predictor fed by input name (numpy in, numpy out); its outputs (in Paddle's order) come
    back in forward's insertion order (``order``: :func:`output_order`)."""

    def __init__(self, predictor, names: list[str], order=None):
        self.predictor = predictor
        self.names = names
        self.order = order
        unknown = set(predictor.get_input_names()) - set(names)
        if unknown:
            raise UnknownPredictorInputs(f"the predictor has inputs {sorted(unknown)} that are not model inputs "
                                         f"{names}")

    def __call__(self, *args, **kwargs):
        tensors = [t for t in flatten(list(args)) if not isinstance(t, (type(None), bool, int, float, str))]
        leaves = dict(zip(self.names, (to_numpy(t) for t in tensors)))  # constants were fixed when saved
        for name in self.predictor.get_input_names():
            handle = self.predictor.get_input_handle(name)
            value = np.asarray(leaves[name], order="C")  # np.ascontiguousarray would make a 0-d input 1-d
            handle.reshape(value.shape)
            handle.copy_from_cpu(value)
        self.predictor.run()
        out = [self.predictor.get_output_handle(n).copy_to_cpu() for n in self.predictor.get_output_names()]
        return FlatOutputs(in_insertion_order(out, self.order))


def inference(ctx, onednn: bool = True):
    """A Paddle Inference predictor on the saved model; on the CPU with oneDNN (Paddle Inference's default) or
    without (Paddle's own CPU kernels)."""
    prefix, static = save_static(ctx)
    note(ctx, **saved_facts(static, prefix=prefix))
    order = program_order(static)
    config = paddle.inference.Config(prefix + ".json", prefix + ".pdiparams")
    if ctx.device == "cuda":
        config.enable_use_gpu(256, 0)
    else:
        config.disable_gpu()
        config.set_cpu_math_library_num_threads(1)
        config.enable_onednn() if onednn else config.disable_onednn()
    config.disable_glog_info()
    return watched(ctx, Predictor(paddle.inference.create_predictor(config), ctx.tensor_names, order))


# ------------------------------------------------------------------ paddle2onnx


def paddle2onnx_export(model_file: str, params_file: str, onnx_file: str, opset: int = 9) -> tuple[int, str]:
    """``paddle2onnx.export`` of a saved model (opset 9, its defaults), in this process: ``(0, "")`` when it
    returns, the ``(status, log)`` of :func:`to_onnx`'s exporter. paddle2onnx ends the process on an error
    (``sys.exit(-1)`` after logging, ``abort()`` for an operator it cannot convert): a reproducer calls this
    (that end is its report); conformance calls it in a process of its own, its paddle2onnx server."""
    import paddle2onnx

    paddle2onnx.export(model_file, params_file, onnx_file, opset)
    return 0, ""


#: What runs :func:`paddle2onnx_export` for :func:`to_onnx`: that function here, in a reproducer; conformance
#: puts its paddle2onnx server's ``export`` in its place (a campaign outlives paddle2onnx ending a process).
ONNX_EXPORTER = paddle2onnx_export


class Paddle2OnnxFailed(RuntimeError):
    """paddle2onnx ended its process, or wrote no ONNX model; the message quotes the errors it logged."""


def to_onnx(ctx):
    """What ``paddle.onnx.export(model, prefix, input_spec)`` does, in its two steps: ``paddle.jit.save``, then
    ``paddle2onnx.export`` of the saved model (by :data:`ONNX_EXPORTER`); on onnxruntime. An export that ended
    its process is an error naming what paddle2onnx logged."""
    saved, onnx_file = os.path.join(ctx.workdir, "saved", "model"), os.path.join(ctx.workdir, "model.onnx")
    static = paddle.jit.to_static(ctx.model, input_spec=input_spec(ctx), full_graph=True)
    paddle.jit.save(static, saved)  # what paddle.jit.save(model, saved, input_spec) does
    facts = saved_facts(static, str(paddle.jit.load(saved).program()))
    note(ctx, **facts)
    if os.path.exists(onnx_file):
        os.remove(onnx_file)
    opset = getattr(ctx, "onnx_opset", None)  # --onnx-opset; None: paddle2onnx_export's default
    status, log = ONNX_EXPORTER(saved + ".json", saved + ".pdiparams", onnx_file, *(() if opset is None else (opset,)))
    if status != 0 or not os.path.exists(onnx_file):
        how = f"was killed by {signal.Signals(-status).name}" if status < 0 else f"exited with status {status}"
        errors = [line.strip() for line in log.splitlines() if re.search(r"\[ERROR\]|Error:", line)]
        raise Paddle2OnnxFailed(f"paddle2onnx.export {how}" + (": " + " | ".join(errors[:4]) if errors else
                                                                ", and wrote no ONNX model"))
    if opset is not None:
        lower_ir_version(onnx_file)  # the lowest IR version the opset needs, as the other ONNX exporters' files
    check_loadable(onnx_file)  # a runtime too old for the file's opset is a configuration error, not a finding
    note(ctx, **facts, branch_repeats_output=branch_repeats_output(onnx_file))
    return watched(ctx, PaddleOrtModel(onnx_file, ctx.device, ctx.tensor_names, to_numpy, program_order(static)))


def branch_repeats_output(onnx_file: str) -> bool:
    """Whether a subgraph of the ONNX file (an If's branch, a Loop's body) lists one value twice among its outputs, as
    paddle2onnx writes a value that a pd_op.if yields twice (onnxruntime computes one of the If's outputs wrongly)."""
    import onnx

    def subgraphs(graph):
        for node in graph.node:
            for attr in node.attribute:
                for sub in ([attr.g] if attr.HasField("g") else []) + list(attr.graphs):
                    yield sub
                    yield from subgraphs(sub)

    return any(len({o.name for o in g.output}) < len(g.output) for g in subgraphs(onnx.load(onnx_file).graph))


class PaddleOrtModel(OrtModel):
    """An onnxruntime session of paddle2onnx's file, whose outputs (in Paddle's order) come back in forward's
    insertion order (``order``: :func:`output_order`)."""

    def __init__(self, path, device: str, names: list[str], to_numpy, order=None):
        super().__init__(path, device, names, to_numpy)
        self.order = order

    def __call__(self, *args, **kwargs):
        return FlatOutputs(in_insertion_order(super().__call__(*args, **kwargs), self.order))
