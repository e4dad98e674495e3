"""Running a converted model on OpenVINO's CPU runtime, shared by every framework's OpenVINO paths.

OpenVINO reads PyTorch modules (by tracing them), TensorFlow SavedModels, PaddlePaddle inference models and ONNX
files into one kind of model, which its CPU plugin compiles. A compiled model takes the model's tensors flattened
(by name where the reader kept the names, else in order) and returns a flat list, as an ONNX graph does: the
runner rebuilds eager's output structure from it (:class:`~conformance.program.trees.FlatOutputs`).

Precision: on a CPU with bfloat16 instructions (AVX512_BF16, AMX) the CPU plugin computes in bfloat16 unless told
otherwise (its documented ``INFERENCE_PRECISION_HINT`` default; here a float32 model is off by about 1e-2): the
paths ask for ``f32``, what a user comparing with the framework does. (The default is not a path: conformance
judges reduced precision with a guard that replays the model's control-flow probes along the path, and a compiled
OpenVINO model runs no Python probes.)

Standalone (see :mod:`conformance.paths.standalone`): reproducers copy this code.
"""

from __future__ import annotations

import re
from typing import Any, Callable

import numpy as np

from conformance.program.trees import FlatOutputs, flatten

#: The compile options of the parity paths: one thread (as every path here), float32 arithmetic.
F32 = {"INFERENCE_NUM_THREADS": 1, "INFERENCE_PRECISION_HINT": "f32"}
#: The CPU plugin has no float64 arithmetic: it narrows a float64 model's tensors to float32 (its documented
#: inference data types), so the OpenVINO paths' float64 outputs are judged with float32's tolerance rule
#: (``PathRecord.float64_as``; 4-ulp differences of `log(exp(x))` in float64).
FLOAT64_AS = "float32"


class UnmatchedInputs(RuntimeError):
    """The OpenVINO model's inputs are neither named after the model's tensor inputs nor as many as they are."""


class OpenVinoModel:
    """An OpenVINO model compiled for the CPU, fed the model's (nested) tensor arguments; returns the flat list of
    outputs.

    :param model: an ``openvino.Model`` (from ``openvino.convert_model`` or ``Core.read_model``).
    :param names: the flat tensor input names, in the order the model's inputs flatten.
    :param to_numpy: the framework's tensor -> numpy conversion, for the arguments of a call.
    :param config: the CPU plugin's compile options (:data:`F32`).

    Inputs go by name when every input of the OpenVINO model carries one of ``names`` (readers of ONNX,
    SavedModels and Paddle models keep them; a model without inputs takes none), else by position when there are
    as many as ``names`` (the PyTorch reader names nested inputs by number). Outputs come in the model's order, or
    by the number in their names where they are called ``output_N`` (a SavedModel signature's outputs, which the
    reader sorts by name).
    """

    def __init__(self, model, names: list[str], to_numpy: Callable[[Any], Any], config: dict = F32):
        import openvino as ov

        self.names = list(names)
        self.to_numpy = to_numpy
        self.compiled = ov.Core().compile_model(model, "CPU", dict(config))
        inputs = [set(i.get_names()) for i in self.compiled.inputs]
        # no inputs: nothing to feed (OpenVINO's ONNX reader folds a 1-d input of static shape [0], which holds no
        # values, into a constant; a model of only such inputs has none)
        if all(i & set(self.names) for i in inputs):
            self.feed = [sorted(i & set(self.names))[0] for i in inputs]
        elif len(inputs) == len(self.names):
            self.feed = list(self.names)
        else:
            raise UnmatchedInputs(f"the OpenVINO model has inputs {[sorted(i) for i in inputs]}, neither named after "
                                  f"nor as many as the model's tensor inputs {self.names}")
        self.outputs = list(self.compiled.outputs)
        # a SavedModel signature's outputs, by the number in their names; one output may carry several names (an
        # output returned twice), so each name counts
        numbered = {int(m.group(1)): o for o in self.outputs for name in o.get_names()
                    for m in [re.fullmatch(r"output_(\d+)", name)] if m}
        if numbered and sorted(numbered) == list(range(len(numbered))):
            self.outputs = [numbered[i] for i in range(len(numbered))]

    def __call__(self, *args, **kwargs):
        """Run on the model's (nested) tensor arguments; keyword arguments and constants were fixed at conversion."""
        # np.require keeps a 0-d array 0-d (np.ascontiguousarray makes it 1-d)
        tensors = [t for t in flatten(list(args)) if not isinstance(t, (type(None), bool, int, float, str))]
        leaves = dict(zip(self.names, (np.require(self.to_numpy(t), requirements="C") for t in tensors)))
        request = self.compiled.create_infer_request()
        results = request.infer({i: leaves[name] for i, name in enumerate(self.feed)})
        return FlatOutputs(np.array(results[o], copy=True) for o in self.outputs)


def read_onnx(path: str, names: list[str], to_numpy: Callable[[Any], Any]) -> OpenVinoModel:
    """An ONNX file read by OpenVINO's ONNX reader (``Core.read_model``), compiled for the CPU in float32."""
    import openvino as ov

    return OpenVinoModel(ov.Core().read_model(str(path)), names, to_numpy)


def onnx_file_of(runtime) -> str:
    """The ONNX file an onnxruntime-backed artifact of an ONNX path was loaded from: its ``path``, else the file
    its onnxruntime session read (``InferenceSession._model_path``)."""
    path = getattr(runtime, "path", None)
    if path is None:
        path = runtime.session._model_path
    return str(path)


def onnx_on_openvino(artifact, names: list[str], to_numpy: Callable[[Any], Any]):
    """What an ONNX path built (an onnxruntime model, or an object holding one as ``session``), with the same ONNX
    file run on OpenVINO instead: the model file is the one the ONNX path exported, so the two runtimes are
    judged on the same graph."""
    if hasattr(artifact, "session") and not hasattr(artifact.session, "run"):  # holds a conformance ONNX runner
        artifact.session = read_onnx(onnx_file_of(artifact.session), names, to_numpy)
        return artifact
    return read_onnx(onnx_file_of(artifact), names, to_numpy)
