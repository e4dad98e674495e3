"""The PyTorch conversions people deploy with: the files they ship and the runtimes that run them.

``torch.export.save`` / ``load``; ``torch.jit.save`` / ``load`` of a scripted or a traced module; AOTInductor
(``aoti_compile_and_package`` / ``aoti_load_package``); ExecuTorch (export, ``to_edge``, ``to_executorch``, run by
its Python runtime); OpenVINO (``openvino.convert_model`` of the module, compiled for the CPU); and the ONNX
exporters' files read by OpenVINO's ONNX reader.

Standalone (see :mod:`conformance.paths.standalone`): this module imports only the standard library, numpy, torch,
its optional runtimes (inside the functions that use them) and standalone conformance modules, so reproducers copy
these functions. A conversion takes a context with plain-data fields only (see
:class:`~conformance.paths.records.ConvertContext`).
"""

from __future__ import annotations

import os

import torch

from conformance.paths.openvino import F32, OpenVinoModel, onnx_on_openvino
from conformance.paths.torch.conversions import (
    KwargsFixed,
    TensorsOnly,
    dynamic_shapes,
    jit_script,
    onnx_export,
    to_numpy,
)

# ------------------------------------------------------------------ files: torch.export.save, torch.jit.save


def exported(ctx):
    """``torch.export.export`` of the model with the example's kwargs, the batch dynamic."""
    return torch.export.export(ctx.model, tuple(ctx.args), dict(ctx.kwargs), dynamic_shapes=dynamic_shapes(ctx))


def export_saved(ctx):
    """``torch.export.save`` of the exported program to a ``.pt2`` file, ``torch.export.load`` of it, run as a
    module (``ExportedProgram.module()``)."""
    path = os.path.join(ctx.workdir, "exported.pt2")
    torch.export.save(exported(ctx), path)
    return torch.export.load(path).module()


def script_saved(ctx):
    """``torch.jit.save`` of ``torch.jit.script(model)``, then ``torch.jit.load`` of the file."""
    path = os.path.join(ctx.workdir, "scripted.pt")
    torch.jit.save(jit_script(ctx.model), path)
    return torch.jit.load(path, map_location=ctx.device)


def trace_saved(ctx):
    """``torch.jit.save`` of ``torch.jit.trace`` (the example's kwargs bound, as trace takes tensors only), then
    ``torch.jit.load`` of the file."""
    path = os.path.join(ctx.workdir, "traced.pt")
    torch.jit.save(torch.jit.trace(KwargsFixed(ctx.model, ctx.kwargs), tuple(ctx.args), strict=False), path)
    return TensorsOnly(torch.jit.load(path, map_location=ctx.device))


# ------------------------------------------------------------------ AOTInductor


def aoti(ctx):
    """AOTInductor: the exported program compiled ahead of time into a ``.pt2`` package (a shared library and its
    weights; inductor writes and compiles C++), then ``aoti_load_package``: a callable taking the model's inputs."""
    import torch._inductor

    package = torch._inductor.aoti_compile_and_package(exported(ctx),
                                                       package_path=os.path.join(ctx.workdir, "aoti.pt2"))
    return torch._inductor.aoti_load_package(package)


# ------------------------------------------------------------------ ExecuTorch


class ExecuTorchMethod:
    """The ``forward`` method of an ExecuTorch program, run by ExecuTorch's Python runtime: it takes the exported
    program's inputs flattened (tensors and the non-tensor arguments, bound at export) and returns its outputs
    flat, put back into the exported program's output structure here. The values forward writes into its inputs
    come first among the outputs (``mutated``: the flat input positions they belong to); they are written back
    into the caller's tensors, as eager's in-place writes are."""

    def __init__(self, method, in_spec, out_spec, kwargs: dict, mutated: tuple = ()):
        self.method = method
        self.in_spec = in_spec
        self.out_spec = out_spec
        self.kwargs = dict(kwargs)
        self.mutated = tuple(mutated)

    def __call__(self, *args, **kwargs):
        import torch.fx._pytree as fx_pytree
        import torch.utils._pytree as pytree

        inputs = fx_pytree.tree_flatten_spec((tuple(args), self.kwargs), self.in_spec)
        outputs = list(self.method.execute(inputs))
        for position, value in zip(self.mutated, outputs):
            inputs[position].copy_(value)
        return pytree.tree_unflatten(outputs[len(self.mutated):], self.out_spec)


def _mutated_inputs(program) -> tuple:
    """The flat input positions of the user inputs an exported program writes into, in its output order."""
    from torch.export.graph_signature import InputKind, OutputKind

    users = [s.arg.name for s in program.graph_signature.input_specs if s.kind == InputKind.USER_INPUT]
    return tuple(users.index(s.target) for s in program.graph_signature.output_specs
                 if s.kind == OutputKind.USER_INPUT_MUTATION)


def executorch_program(ctx):
    """ExecuTorch's documented flow: ``torch.export``, ``executorch.exir.to_edge`` (the Edge dialect),
    ``to_executorch`` (the portable kernels, no delegate), the program's bytes loaded by
    ``executorch.runtime.Runtime``."""
    from executorch.exir import to_edge
    from executorch.runtime import Runtime

    program = exported(ctx)
    final = to_edge(program).to_executorch()
    buffer = final.buffer
    path = os.path.join(ctx.workdir, "model.pte")
    with open(path, "wb") as f:
        f.write(buffer)
    method = Runtime.get().load_program(path).load_method("forward")
    return ExecuTorchMethod(method, program.call_spec.in_spec, program.call_spec.out_spec, ctx.kwargs,
                            _mutated_inputs(final.exported_program()))


# ------------------------------------------------------------------ OpenVINO


def openvino_model(ctx, config: dict = F32):
    """``openvino.convert_model`` of the module with the example as ``example_input`` (OpenVINO's PyTorch reader
    traces it with ``torch.jit.trace``; the non-tensor kwargs bound first, as for trace), compiled for the CPU."""
    import openvino as ov

    model = ov.convert_model(KwargsFixed(ctx.model, ctx.kwargs), example_input=tuple(ctx.args))
    return OpenVinoModel(model, ctx.tensor_names, to_numpy, config)


def onnx_openvino(ctx, dynamo: bool):
    """The ONNX file of ``torch.onnx.export`` (as the ONNX path writes it) read by OpenVINO's ONNX reader."""
    return onnx_on_openvino(onnx_export(ctx, dynamo), ctx.tensor_names, to_numpy)
