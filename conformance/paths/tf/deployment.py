"""The TensorFlow conversions people deploy with: TensorFlow Lite (LiteRT) and OpenVINO, and tf2onnx's file read by
OpenVINO's ONNX reader.

``tflite``: ``tf.lite.TFLiteConverter.from_concrete_functions`` of the ``tf.function`` traced with the input
signature (the example's kwargs bound), float32, TensorFlow Lite's builtin operators only, run by LiteRT's
interpreter (``ai_edge_litert``, the runtime TensorFlow's docs point to); with ``select_tf_ops`` the converter may
also keep TensorFlow operators (``SELECT_TF_OPS``), which only TensorFlow's own ``tf.lite.Interpreter`` runs (it
links the Flex delegate). ``openvino``: a SavedModel whose serving signature takes and returns the tensors flat (a
signature cannot take or return nests), read by ``openvino.convert_model`` and compiled for the CPU.

Standalone (see :mod:`conformance.paths.standalone`): reproducers copy this code.
"""

from __future__ import annotations

import functools
import os
import re
import tempfile

import numpy as np
import tensorflow as tf

from conformance.paths.openvino import F32, OpenVinoModel, read_onnx
from conformance.paths.tf.conversions import OnnxNested, input_signature, to_numpy, write_onnx

# ------------------------------------------------------------------ TensorFlow Lite


class UninitialisedVariables(RuntimeError):
    """The converted model reads resource variables and has no initialiser for them (no CALL_ONCE): every call would
    read uninitialised memory, so it is refused before running."""


def check_variables_initialised(interpreter) -> None:
    """Raise :class:`UninitialisedVariables` where the flatbuffer reads resource variables (VAR_HANDLE, READ_VARIABLE)
    it never initialises: the converter kept the model's variables as variables and wrote no initialiser for them."""
    ops = [op["op_name"] for op in interpreter._get_ops_details()]  # the interpreter's one listing of its ops
    if "READ_VARIABLE" in ops and "CALL_ONCE" not in ops:
        raise UninitialisedVariables(f"the converted model reads {ops.count('VAR_HANDLE')} resource variable(s) "
                                     "(VAR_HANDLE, READ_VARIABLE) and has no initialiser for them (no CALL_ONCE)")


class LiteModel:
    """A TensorFlow Lite flatbuffer in an interpreter, called like the model's traced function; keyword arguments were
    bound at conversion. The outputs come back in the function's own structure (``structure``).

    Where the converter wrote a signature (``serving_default``), the tensors go in by the input signature's names and
    the outputs come out by the signature's names (``output_0`` ...), in the function's flat order: the subgraph's
    own output list need not be in that order (an output that is an input keeps the input's place); a returned dict's
    outputs are named by its keys. Without one,
    inputs go by the names of the tensors (the input signature's), else in order, and outputs by the names of the
    function's output tensors (``Identity_N``), else in order. Inputs are resized to each call's shapes (the signature
    has ``None`` on the batch)."""

    def __init__(self, interpreter, signature: list, structure, output_names: list):
        self.interpreter = interpreter
        self.names = [spec.name for spec in tf.nest.flatten(signature)]
        self.structure = structure
        signatures = interpreter.get_signature_list()
        self.runner = None
        if len(signatures) == 1:
            key, io = next(iter(signatures.items()))
            if sorted(io["inputs"]) == sorted(self.names):
                self.runner = interpreter.get_signature_runner(key)
                self.outputs = signature_order(io["outputs"])
                return
        inputs = {d["name"]: d["index"] for d in interpreter.get_input_details()}
        self.inputs = [inputs.get(name) for name in self.names]
        if None in self.inputs:
            self.inputs = [d["index"] for d in interpreter.get_input_details()]
        outputs = {d["name"]: d["index"] for d in interpreter.get_output_details()}
        self.outputs = [outputs.get(name) for name in output_names]
        if None in self.outputs:
            self.outputs = [d["index"] for d in interpreter.get_output_details()]
        self.shapes = None

    def __call__(self, *args, **kwargs):
        values = [np.require(to_numpy(t), requirements="C") for t in tf.nest.flatten(list(args))]  # 0-d stays 0-d
        if self.runner is not None:
            results = self.runner(**dict(zip(self.names, values)))
            flat = [np.array(results[name], copy=True) for name in self.outputs]
            return tf.nest.pack_sequence_as(self.structure, flat)
        shapes = [v.shape for v in values]
        if shapes != self.shapes:
            for index, value in zip(self.inputs, values):
                self.interpreter.resize_tensor_input(index, value.shape)
            self.interpreter.allocate_tensors()
            self.shapes = shapes
        for index, value in zip(self.inputs, values):
            self.interpreter.set_tensor(index, value)
        self.interpreter.invoke()
        flat = [np.array(self.interpreter.get_tensor(index), copy=True) for index in self.outputs]
        return tf.nest.pack_sequence_as(self.structure, flat)


def signature_order(names: list) -> list:
    """A signature's output names in the function's flat order: ``output_N`` by number (a returned sequence), else
    sorted (a returned dict's keys, which ``tf.nest`` flattens sorted)."""
    numbered = [re.fullmatch(r"output_(\d+)", name) for name in names]
    if all(numbered):
        return [name for _, name in sorted((int(m.group(1)), name) for m, name in zip(numbered, names))]
    return sorted(names)


def tflite(ctx, select_tf_ops: bool = False):
    """``TFLiteConverter.from_concrete_functions`` of the traced function (float32, no optimisations), run in LiteRT's
    interpreter (builtin operators only) or, with ``select_tf_ops``, in ``tf.lite.Interpreter``."""
    signature = input_signature(ctx.args, ctx.tensor_names, ctx.dynamic_axes)
    function = tf.function(functools.partial(ctx.model.__call__, **ctx.kwargs), input_signature=signature)
    concrete = function.get_concrete_function()
    converter = tf.lite.TFLiteConverter.from_concrete_functions([concrete], ctx.model)
    converter.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS]
    if select_tf_ops:
        converter.target_spec.supported_ops.append(tf.lite.OpsSet.SELECT_TF_OPS)
    flatbuffer = converter.convert()
    with open(os.path.join(ctx.workdir, "model.tflite"), "wb") as f:
        f.write(flatbuffer)
    if select_tf_ops:
        interpreter = tf.lite.Interpreter(model_content=flatbuffer, num_threads=1)
    else:
        from ai_edge_litert.interpreter import Interpreter

        interpreter = Interpreter(model_content=flatbuffer, num_threads=1)
    check_variables_initialised(interpreter)
    output_names = [t.name.split(":")[0] for t in concrete.outputs]
    return LiteModel(interpreter, signature, concrete.structured_outputs, output_names)


# ------------------------------------------------------------------ OpenVINO


class Packed:
    """A runtime that returns the outputs flat, its outputs packed into the model's output structure."""

    def __init__(self, runtime, structure):
        self.runtime = runtime
        self.structure = structure

    def __call__(self, *args, **kwargs):
        return tf.nest.pack_sequence_as(self.structure, list(self.runtime(*args)))


def flat_saved_model(ctx, path: str):
    """A SavedModel of the model whose ``serving_default`` signature takes the tensors flat, named as in the input
    signature, and returns the outputs flat, keyed ``output_00000``, ``output_00001`` ... (a dict: for a returned list
    TensorFlow names them ``output_0`` ..., and OpenVINO's reader gives each such output of a model with more than
    ten also the name of another, ``output_6`` on ``output_8``: the tf campaign of 2026-11-28, case dd6ff2025f38);
    the example's kwargs bound. Returns the model's output structure (of symbolic tensors) for packing the flat
    outputs."""
    signature = input_signature(ctx.args, ctx.tensor_names, ctx.dynamic_axes)
    structure = []

    def serve(*flat):
        outputs = ctx.model(*tf.nest.pack_sequence_as(signature, list(flat)), **ctx.kwargs)
        structure.append(outputs)
        return {f"output_{i:05d}": t for i, t in enumerate(tf.nest.flatten(outputs))}

    function = tf.function(serve, input_signature=tf.nest.flatten(signature))
    holder = tf.Module()
    holder.model = ctx.model
    tf.saved_model.save(holder, path, signatures=function.get_concrete_function())
    return structure[0]


def openvino_model(ctx):
    """``openvino.convert_model`` of the SavedModel (:func:`flat_saved_model`), compiled for the CPU in float32."""
    import openvino as ov

    # a folder of its own: another worker may convert the same program at the same time
    with tempfile.TemporaryDirectory(prefix="saved_model-", dir=ctx.workdir) as path:
        structure = flat_saved_model(ctx, path)
        model = ov.convert_model(path)
    return Packed(OpenVinoModel(model, ctx.tensor_names, to_numpy, F32), structure)


def onnx_openvino(ctx):
    """The ONNX file of ``tf2onnx.convert.from_function`` (as the ONNX path writes it) read by OpenVINO's ONNX
    reader. onnxruntime never loads it: what onnxruntime refuses (a type its kernels lack) is not OpenVINO's."""
    folder, structure = write_onnx(ctx)
    return OnnxNested(folder, ctx.device, ctx.tensor_names, structure,
                      runtime=functools.partial(read_onnx, names=ctx.tensor_names, to_numpy=to_numpy))
