"""Running an exported ONNX model on onnxruntime, shared by every framework's ONNX paths.

An ONNX graph takes the model's tensors flattened and by name, and returns a flat list: the
runner rebuilds eager's output structure from it (:class:`~conformance.program.trees.FlatOutputs`).
Standalone (see :mod:`conformance.paths.standalone`): reproducers copy this code.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from conformance.program.trees import FlatOutputs, flatten


class UnknownGraphInputs(RuntimeError):
    """The exported graph has inputs that are none of the model's tensor inputs."""


def cuda_provider_missing(device: str) -> Optional[str]:
    """Why onnxruntime cannot run a model on ``device`` here (no CUDA execution provider), or None
    (:attr:`~conformance.paths.records.PathRecord.unavailable_on` of the paths that run on onnxruntime)."""
    if device != "cuda":
        return None
    import onnxruntime as ort

    if "CUDAExecutionProvider" in ort.get_available_providers():
        return None
    return f"onnxruntime {ort.__version__} has no CUDAExecutionProvider here (install onnxruntime-gpu)"


class OrtModel:
    """An onnxruntime session fed by input name; returns the flat list of outputs.

    :param path: the ``.onnx`` file.
    :param device: ``cpu`` or ``cuda`` (the CUDA execution provider; an error where it is missing).
    :param names: the flat tensor input names, in the order the model's inputs flatten
        (:attr:`~conformance.paths.ConvertContext.tensor_names` or the names the exporter was given).
    :param to_numpy: the framework's tensor -> numpy conversion, for the arguments of a call.
    """

    def __init__(self, path, device: str, names: list[str], to_numpy: Callable[[Any], Any]):
        import onnxruntime as ort

        providers = ["CUDAExecutionProvider"] if device == "cuda" else ["CPUExecutionProvider"]
        if device == "cuda" and "CUDAExecutionProvider" not in ort.get_available_providers():
            raise RuntimeError("onnxruntime has no CUDAExecutionProvider here")
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = 1
        opts.inter_op_num_threads = 1
        self.session = ort.InferenceSession(str(path), opts, providers=providers)
        self.names = names
        self.to_numpy = to_numpy
        self.wanted = [i.name for i in self.session.get_inputs()]
        unknown = set(self.wanted) - set(names)
        if unknown:
            raise UnknownGraphInputs(f"ONNX graph has inputs {sorted(unknown)} that are not model inputs {names}")

    def __call__(self, *args, **kwargs):
        """Run on the model's (nested) tensor arguments; keyword arguments and constants were fixed at export."""
        tensors = [t for t in flatten(list(args)) if not isinstance(t, (type(None), bool, int, float, str))]
        leaves = dict(zip(self.names, (self.to_numpy(t) for t in tensors)))  # constants were fixed at export
        return FlatOutputs(self.session.run(None, {n: leaves[n] for n in self.wanted}))
