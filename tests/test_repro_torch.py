"""Reproducers of the PyTorch paths run the very code the campaign ran.

A ``repro.py`` is assembled from the standalone conversion module (:mod:`conformance.paths.torch.conversions`):
the framework's ``prepare``/``call``/``to_numpy`` and each path's ``convert``/``run``, copied by
:func:`~conformance.paths.standalone.standalone_source`, next to the rendered model. Here each path's copy
contains its conversion function verbatim, and the assembled source, run on its own, converts a small
program (a dynamic batch, a dict input, a bool keyword argument in a branch) and agrees with eager.
"""

import inspect
import types

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import conformance.paths.torch  # noqa: E402, F401 - registers the torch paths
from conformance.paths.records import FRAMEWORKS, PATHS, missing_requirements  # noqa: E402
from conformance.paths.standalone import standalone_source  # noqa: E402
from conformance.paths.torch import conversions  # noqa: E402
from conformance.program.case import Case, InputSet, materialize  # noqa: E402
from conformance.program.ir import (  # noqa: E402
    DYNAMIC,
    DictSpec,
    Get,
    If,
    Input,
    Kwarg,
    KwargCond,
    OpStmt,
    OutSeq,
    OutVar,
    TensorSpec,
)
from conformance.program.ops import MAX_BATCH  # noqa: E402
from conformance.program.program import Program, dynamic_axes, tensor_names  # noqa: E402
from conformance.program.trees import flatten, map_tree  # noqa: E402
from conformance.render.source import load_source, render  # noqa: E402


def _conversion(fn):
    return getattr(fn, "func", fn)  # a functools.partial's function


TORCH_PATHS = sorted(p.id for p in PATHS.values()
                     if p.framework == "torch" and _conversion(p.convert).__module__ == conversions.__name__)

#: Paths whose conversion is too slow for this test on two cores (inductor compiles C++ for every
#: graph); the campaign and the parity suites run them, and their code is copied like the others'.
SLOW = {"torch.compile", "torch.compile_dynamic", "torch.compile_reduce_overhead"}
#: The tolerance of a comparison with eager: fp32 paths within rounding, autocast within bfloat16's.
TOLERANCE = {"torch.autocast_bf16": dict(rtol=3e-2, atol=3e-2)}


def test_every_real_torch_path_is_listed():
    assert {"torch.eager", "torch.script", "torch.trace", "torch.export", "torch.onnx_dynamo"} <= set(TORCH_PATHS)


def test_the_adapter_runs_models_with_the_standalone_functions():
    fw = FRAMEWORKS["torch"]
    assert (fw.prepare, fw.call, fw.to_numpy) == (conversions.prepare, conversions.call, conversions.to_numpy)


def test_exports_dynamic_dim_reaches_the_largest_batch():
    assert conversions.MAX_DYNAMIC_SIZE == MAX_BATCH * 16


@pytest.mark.parametrize("path_id", TORCH_PATHS)
def test_the_reproducer_copies_the_conversion_verbatim(path_id):
    path = PATHS[path_id]
    source = standalone_source(path.convert, path.run, names=("convert", "run"))
    assert inspect.getsource(_conversion(path.convert)) in source
    assert inspect.getsource(_conversion(path.run)) in source
    assert "import conformance" not in source and "from conformance" not in source  # copied, never imported
    compile(source, "repro.py", "exec")


def _program() -> Program:
    """x0 (B, 3) and {"k0": (B, 3)}; relu or neg of their sum by a bool kwarg; two outputs."""
    batch_rows = TensorSpec((DYNAMIC, 3))
    return Program(
        seed=3, inputs=(Input("x0", batch_rows), Input("x1", DictSpec((("k0", batch_rows),)))),
        kwargs=(Kwarg("flag", "bool", True, (True, False)),), params=(),
        body=(Get("v0", "x0"), Get("v1", "x1", ("k0",)), OpStmt("v2", "add", ("v0", "v1")),
              If(KwargCond("flag", "truth"), (OpStmt("v2", "relu", ("v2",)),), (OpStmt("v2", "neg", ("v2",)),)),
              OpStmt("v3", "mul", ("v2", "v0"))),
        output=OutSeq("tuple", (OutVar("v2"), OutVar("v3"))))


def _repro_namespace(path, model_module) -> dict:
    """The assembled reproducer (framework functions, then the path's), run with the model in scope."""
    fw = FRAMEWORKS["torch"]
    source = (standalone_source(fw.prepare, fw.call, fw.to_numpy)
              + standalone_source(path.convert, path.run, names=("convert", "run")))
    namespace = {"Model": model_module.Model, "__name__": "repro"}
    exec(compile(source, "repro.py", "exec"), namespace)
    return namespace


@pytest.mark.parametrize("path_id", TORCH_PATHS)
def test_the_reproducer_converts_runs_and_agrees_with_eager(path_id, tmp_path):
    path = PATHS[path_id]
    if path_id in SLOW:
        pytest.skip(f"{path_id} compiles with inductor: too slow here (its code is copied like the others')")
    if "cpu" not in path.devices:
        pytest.skip(f"{path_id} runs on {', '.join(path.devices)} only")
    if missing_requirements(path):
        pytest.skip(f"{path_id} needs {', '.join(missing_requirements(path))}")
    program = _program()
    case = Case(program, (InputSet("example", 4, 1),))
    model_module = load_source(render(program, "torch"), tmp_path / "model.py", f"repro_model_{path.name}")
    repro = _repro_namespace(path, model_module)
    numpy_args, kwargs = materialize(program, case.example)
    args = map_tree(torch.from_numpy, numpy_args)
    ctx = types.SimpleNamespace(
        model=repro["prepare"](repro["Model"](), "cpu", False), args=args, kwargs=kwargs, device="cpu",
        workdir=str(tmp_path), tensor_names=tensor_names(program), arg_names=[i.name for i in program.inputs],
        dynamic_axes=dynamic_axes(program), kwarg_sets=[kwargs], mode="infer")
    artifact = repro["convert"](ctx)
    out = repro["run"](artifact, args, kwargs)
    eager = repro["call"](repro["prepare"](repro["Model"](), "cpu", False), args, kwargs)
    got, want = flatten(repro["to_numpy"](out)), flatten(repro["to_numpy"](eager))
    assert len(got) == len(want) == 2
    for g, w in zip(got, want):
        np.testing.assert_allclose(np.asarray(g), w, **TOLERANCE.get(path_id, dict(rtol=1e-5, atol=1e-6)))
