"""Reproducers of the TensorFlow paths run the conversion code the campaign ran, copied (issue 14).

A ``repro.py`` is assembled as ``standalone_source(fw.prepare, fw.call, fw.to_numpy)`` +
``standalone_source(path.convert, path.run, names=("convert", "run"))`` + the rendered model, and converts with a
``types.SimpleNamespace`` holding the plain-data fields of a ConvertContext. For every TensorFlow path: the copy
contains the path's own functions verbatim, imports nothing of conformance, and, written to a file beside a
rendered model and imported (AutoGraph and tf.session read the model's source), converts and runs a small program
(nested inputs, a kwarg of another value than its default, weights, a while loop, a dict output whose keys are not
sorted) and agrees with eager.
"""

import importlib.util
import inspect
import sys
import types

import numpy as np
import pytest

pytest.importorskip("conformance.paths.tf", reason="tensorflow is not installed")

from conformance.paths.records import PATHS, load_framework, missing_requirements  # noqa: E402
from conformance.paths.standalone import standalone_source  # noqa: E402
from conformance.paths.tf import conversions  # noqa: E402
from conformance.program.case import Case, InputSet, save_inputs  # noqa: E402
from conformance.program.ir import (  # noqa: E402
    DictSpec,
    Get,
    If,
    Input,
    Kwarg,
    KwargCond,
    OpStmt,
    OutDict,
    OutSeq,
    OutVar,
    Param,
    SeqSpec,
    TensorCond,
    TensorSpec,
    While,
)
from conformance.program.program import Program, dynamic_axes, tensor_names  # noqa: E402
from conformance.render.source import render  # noqa: E402

FRAMEWORK = load_framework("tf")
#: Every TensorFlow path whose conversion is conformance's own (the planted test doubles are not).
TF_PATHS = sorted(p.id for p in PATHS.values() if p.framework == "tf"
                  and getattr(p.convert, "func", p.convert).__module__.startswith("conformance.paths.tf."))


def _program() -> Program:
    """x: [B, 3] list of two, y: {k1: [2], k0: [B, 2]}, flag: bool; relu under the kwarg, a while loop on a
    tensor that runs its three iterations, a linear layer; the output a tuple holding a dict whose keys are not
    sorted."""
    return Program(
        seed=21,
        inputs=(Input("x", SeqSpec("list", (TensorSpec(("B", 3)), TensorSpec(("B", 3))))),
                Input("y", DictSpec((("k1", TensorSpec((2,))), ("k0", TensorSpec(("B", 2))))))),
        kwargs=(Kwarg("flag", "bool", True, (True, False)),),
        params=(Param("p0", (2, 3)), Param("p1", (2,))),
        body=(Get("v0", "x", (0,)), Get("v1", "x", (1,)), Get("v2", "y", ("k1",)), Get("v3", "y", ("k0",)),
              OpStmt("v4", "add", ("v0", "v1")),
              If(KwargCond("flag", "truth"), (OpStmt("v4", "relu", ("v4",)),)),
              While(TensorCond("v4", "amax", ">", -100.0), 3, "it0",
                    (OpStmt("v4", "mul_scalar", ("v4",), (("c", 0.5),)),)),
              OpStmt("v5", "exp", ("v3",)),
              OpStmt("v6", "linear", ("v4",), (("out_features", 2),), ("p0", "p1"))),
        output=OutSeq("tuple", (OutDict((("zeta", OutVar("v4")), ("alpha", OutVar("v5")))), OutVar("v2"),
                                OutVar("v6"))))


CASE = Case(_program(), (InputSet("example", 2, 1, (("flag", False),)),))


def _function_of(fn):
    return getattr(fn, "func", fn)  # the module-level function behind a functools.partial


def test_the_adapter_calls_the_standalone_functions_reproducers_copy():
    assert (FRAMEWORK.prepare, FRAMEWORK.call, FRAMEWORK.to_numpy) == (
        conversions.prepare, conversions.call, conversions.to_numpy)
    assert set(TF_PATHS) >= {"tf.eager", "tf.function", "tf.xla", "tf.saved_model", "tf.onnx", "tf.session"}


@pytest.mark.parametrize("path_id", TF_PATHS)
def test_the_reproducer_holds_the_conversion_verbatim(path_id):
    path = PATHS[path_id]
    framework_source = standalone_source(FRAMEWORK.prepare, FRAMEWORK.call, FRAMEWORK.to_numpy)
    path_source = standalone_source(path.convert, path.run, names=("convert", "run"))
    for fn in (FRAMEWORK.prepare, FRAMEWORK.call, FRAMEWORK.to_numpy):
        assert inspect.getsource(fn) in framework_source
    for fn in (path.convert, path.run):
        assert inspect.getsource(_function_of(fn)) in path_source
    for source in (framework_source, path_source):
        assert "import conformance" not in source and "from conformance" not in source


def _assemble(path, folder) -> types.ModuleType:
    """repro.py's pieces for ``path`` and the rendered model, in one file, imported."""
    program = CASE.program
    data = (f"HERE = {str(folder)!r}\n"
            f"LEAF_NAMES = {tensor_names(program)!r}\n"
            f"DYNAMIC_AXES = {dynamic_axes(program)!r}\n")
    source = "\n\n".join([standalone_source(FRAMEWORK.prepare, FRAMEWORK.call, FRAMEWORK.to_numpy),
                          standalone_source(path.convert, path.run, names=("convert", "run")),
                          render(program, "tf"), data])
    name = f"repro_{path.framework}_{path.name}_{program.id}"
    file = folder / f"{name}.py"
    file.write_text(source)
    spec = importlib.util.spec_from_file_location(name, file)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # inspect.getmodule (tf.session's build_graph) looks the model's module up there
    spec.loader.exec_module(module)
    return module


def _assert_same(got, want, where: str = "outputs") -> None:
    """Nested outputs equal within float32 rounding; dicts by key (a loaded SavedModel sorts them)."""
    if isinstance(want, dict):
        assert isinstance(got, dict) and sorted(got) == sorted(want), (where, got, want)
        for key in want:
            _assert_same(got[key], want[key], f"{where}[{key!r}]")
    elif isinstance(want, (list, tuple)):
        assert isinstance(got, (list, tuple)) and len(got) == len(want), (where, got, want)
        for i, (g, w) in enumerate(zip(got, want)):
            _assert_same(g, w, f"{where}[{i}]")
    else:
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6, err_msg=where)


@pytest.mark.parametrize("path_id", TF_PATHS)
def test_the_assembled_reproducer_converts_and_agrees_with_eager(path_id, tmp_path):
    path = PATHS[path_id]
    missing = missing_requirements(path)
    if missing:
        pytest.skip(f"{path_id} needs {', '.join(missing)}")
    repro = _assemble(path, tmp_path)
    try:
        save_inputs(tmp_path / "example.npz", CASE.program, CASE.inputs[0])
        args, kwargs = repro.load_inputs(tmp_path / "example.npz")
        assert kwargs == {"flag": False}
        ctx = types.SimpleNamespace(model=repro.prepare(repro.Model(), "cpu", False), args=args, kwargs=kwargs,
                                    device="cpu", workdir=repro.HERE, tensor_names=repro.LEAF_NAMES,
                                    arg_names=repro.ARG_NAMES, dynamic_axes=repro.DYNAMIC_AXES, kwarg_sets=[kwargs],
                                    mode="infer")
        artifact = repro.convert(ctx)
        got = repro.to_numpy(repro.run(artifact, args, kwargs))
        want = repro.to_numpy(repro.call(repro.prepare(repro.Model(), "cpu", False), args, kwargs))
    finally:
        sys.modules.pop(repro.__name__, None)
    _assert_same(got, want)
