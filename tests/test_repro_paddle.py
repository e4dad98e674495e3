"""A PaddlePaddle reproducer is the code the campaign ran: each path's conversion, copied out of its standalone
module (:mod:`conformance.paths.standalone`) with the framework's ``prepare``, ``call`` and ``to_numpy`` and the
rendered model, converts a small program on its own and agrees with eager.

The reproducer is assembled as ``conformance triage`` assembles it: the rendered model, the framework's
functions, the path's ``convert`` and ``run``, and the data a conversion reads (``HERE``, ``LEAF_NAMES``,
``DYNAMIC_AXES``); it is written to a file and imported (to_static reads the model's source from its file),
and the files a path reads beside its module (``PathRecord.files``) are copied beside it.
"""

import functools
import importlib.util
import inspect
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

pytest.importorskip("paddle")

from conformance.paths.paddle import adapter, conversions  # noqa: E402
from conformance.paths.records import FRAMEWORKS, select_paths  # noqa: E402
from conformance.paths.standalone import standalone_source  # noqa: E402
from conformance.program.case import InputSet, map_tree, materialize  # noqa: E402
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
    SeqSpec,
    TensorCond,
    TensorSpec,
)
from conformance.program.program import Program, dynamic_axes  # noqa: E402
from conformance.program.trees import flatten  # noqa: E402
from conformance.render.source import render  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PADDLE_PATHS = {p.name: p for p in select_paths(["paddle"])}
#: Paths whose reproducer runs in a process of its own: paddle2onnx ends the process it fails in.
OWN_PROCESS = {"onnx": "paddle2onnx runs in the reproducer's process and ends it on an error"}


def _program() -> Program:
    """A list input and a dict input with a dynamic dim, a kwarg, a branch on a tensor, a nested output; no
    parameters (a saved function keeps none), every input used (jit.save refuses an unused one)."""
    b3 = TensorSpec(("B", 3))
    body = (Get("v0", "xs", (0,)), Get("v1", "xs", (1,)), Get("v4", "d", ("a",)), OpStmt("v2", "mul", ("v0", "v1")),
            If(KwargCond("use_act", "truth"), (OpStmt("v2", "tanh", ("v2",)),)),
            If(TensorCond("v2", "sum", ">", 0.0), (OpStmt("v2", "neg", ("v2",)),)),
            OpStmt("v3", "sigmoid", ("v0",)), OpStmt("v5", "add", ("v3", "v4")))
    return Program(seed=4, inputs=(Input("xs", SeqSpec("list", (b3, b3))), Input("d", DictSpec((("a", b3),)))),
                   kwargs=(Kwarg("use_act", "bool", True, (True, False)),), params=(), body=body,
                   output=OutSeq("tuple", (OutVar("v2"), OutDict((("sum", OutVar("v5")),)))))


#: The example (the conversion's inputs) and another batch size.
INPUTS = (InputSet("example", 2, 0, (("use_act", True),)), InputSet("batch", 4, 1, (("use_act", True),)))


def reproducer_source(path, program: Program) -> str:
    """The reproducer's code: the rendered model, the framework's functions, the path's, and the data they read."""
    fw = FRAMEWORKS["paddle"]
    axes = dynamic_axes(program)
    data = (f"HERE = os.path.dirname(os.path.abspath(__file__))\n"
            f"LEAF_NAMES = {list(axes)!r}\n"
            f"DYNAMIC_AXES = {axes!r}\n")
    return "\n\n\n".join([render(program, "paddle"), standalone_source(fw.prepare, fw.call, fw.to_numpy),
                          standalone_source(path.convert, path.run, names=("convert", "run")), "import os\n\n" + data])


def write_reproducer(name: str, folder: Path) -> Path:
    path = PADDLE_PATHS[name]
    folder.mkdir(parents=True, exist_ok=True)
    for file in path.files:
        shutil.copy(file, folder)
    file = folder / "repro.py"
    file.write_text(reproducer_source(path, _program()))
    return file


def check_reproducer(file: str, name: str) -> None:
    """Import the reproducer ``file``, convert the program's model on the example and compare the converted model
    with eager on every input set (raises AssertionError where they differ)."""
    spec = importlib.util.spec_from_file_location(f"paddle_repro_{name}", file)
    repro = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(repro)
    program = _program()

    def inputs(which: InputSet):
        args, kwargs = materialize(program, which)
        return map_tree(repro.paddle.to_tensor, args), kwargs

    args, kwargs = inputs(INPUTS[0])
    ctx = SimpleNamespace(model=repro.prepare(repro.Model(), "cpu", False), args=args, kwargs=kwargs, device="cpu",
                          workdir=repro.HERE, tensor_names=repro.LEAF_NAMES, arg_names=repro.ARG_NAMES,
                          dynamic_axes=repro.DYNAMIC_AXES, kwarg_sets=[kwargs], mode="infer")
    artifact = repro.convert(ctx)
    eager = repro.prepare(repro.Model(), "cpu", False)
    tolerance = {"rtol": 2e-2, "atol": 2e-2} if name == "to_static_amp" else {"rtol": 1e-5, "atol": 1e-6}
    for which in INPUTS:
        want = flatten(repro.to_numpy(repro.call(eager, *inputs(which))))
        got = flatten(repro.to_numpy(repro.run(artifact, *inputs(which))))
        assert len(got) == len(want), (which.role, got, want)
        for g, w in zip(got, want):
            np.testing.assert_allclose(g, w, err_msg=f"{name} on the {which.role} inputs", **tolerance)


def test_the_framework_functions_are_the_standalone_ones():
    fw = FRAMEWORKS["paddle"]
    assert (fw.prepare, fw.call, fw.to_numpy) == (conversions.prepare, conversions.call, conversions.to_numpy)
    assert fw.to_tensor is adapter.to_tensor
    source = standalone_source(fw.prepare, fw.call, fw.to_numpy)
    assert all(inspect.getsource(fn) in source for fn in (fw.prepare, fw.call, fw.to_numpy))


@pytest.mark.parametrize("name", sorted(PADDLE_PATHS))
def test_the_reproducer_copies_the_conversion_verbatim(name):
    path = PADDLE_PATHS[name]
    source = standalone_source(path.convert, path.run, names=("convert", "run"))
    for fn in (path.convert, path.run):
        target = fn.func if isinstance(fn, functools.partial) else fn
        assert inspect.getsource(target) in source, target.__qualname__
    assert "import conformance" not in source and "from conformance" not in source
    if isinstance(path.convert, functools.partial):  # the variant's arguments are bound as the campaign binds them
        assert f"convert = functools.partial({path.convert.func.__name__}, " in source


@pytest.mark.parametrize("name", sorted(PADDLE_PATHS))
def test_the_reproducer_converts_and_agrees_with_eager(name, tmp_path):
    import paddle

    if name == "to_static_amp" and not paddle.base.core.supports_bfloat16():
        pytest.skip("the bfloat16 program would abort on this CPU (no oneDNN bf16 support)")
    if name == "openvino":
        pytest.skip("OpenVINO 2026.4 reads only the old .pdmodel format: the path refuses every Paddle 3 model "
                    "(its limitation record), so there is no result to agree with eager")
    file = write_reproducer(name, tmp_path / name)
    if name not in OWN_PROCESS:
        check_reproducer(str(file), name)
        return
    # polygraphy's auto-install off, as in conformance's paddle2onnx server: nothing is installed by a test
    code = ("import polygraphy.config; polygraphy.config.AUTOINSTALL_DEPS = False; "
            f"from tests.test_repro_paddle import check_reproducer; check_reproducer({str(file)!r}, {name!r})")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "GLOG_minloglevel": "2"})
    assert proc.returncode == 0, f"{OWN_PROCESS[name]}; it exited with {proc.returncode}:\n{proc.stderr[-3000:]}"
