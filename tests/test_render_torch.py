"""Rendered torch sources: readable, scriptable, and runnable standalone with torch and numpy."""

import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings

torch = pytest.importorskip("torch")

from conformance.program.case import map_tree, materialize, save_inputs  # noqa: E402
from conformance.program.strategies import CONSTRUCTS, cases  # noqa: E402
from conformance.program.trees import flatten  # noqa: E402
from conformance.render.source import load_model_module, render  # noqa: E402


@settings(max_examples=15, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(cases(constructs=CONSTRUCTS))
def test_clean_and_probed_renderings_agree(case):
    src = render(case.program)
    compile(src, "model.py", "exec")
    assert "_cond(" not in src and "PROBES" not in src  # what users convert carries no probes
    clean = load_model_module(case.program).Model()
    probed = load_model_module(case.program, probed=True).Model()
    args, kwargs = materialize(case.program, case.example)
    with torch.no_grad():
        a = clean(*map_tree(torch.from_numpy, args), **kwargs)
        b = probed(*map_tree(torch.from_numpy, args), **kwargs)
    assert all(torch.equal(x, y) for x, y in zip(flatten(a), flatten(b)))


def test_model_file_is_a_standalone_reproducer(tmp_path):
    from hypothesis import find

    case = find(cases(constructs=CONSTRUCTS),
                lambda c: c.program.has_data_dependent_control_flow() and c.program.kwargs,
                settings=settings(database=None, suppress_health_check=list(HealthCheck)))
    model = tmp_path / "model.py"
    model.write_text(render(case.program))
    save_inputs(tmp_path / "inputs.npz", case.program, case.example)
    out = subprocess.run([sys.executable, str(model), str(tmp_path / "inputs.npz")], capture_output=True, text=True,
                         cwd=tmp_path, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "tensor(" in out.stdout


@pytest.mark.parametrize("op, attrs", [
    ("gather", (("dim", 1), ("index", ((0, 2), (1, 1))))),
    ("index_select", (("dim", 1), ("index", (2, 0)))),
    ("shape_arange", ()),
    ("full_shape", (("scale", 2.0),)),
])
def test_tensors_a_model_makes_follow_its_inputs_device(op, attrs):
    """A tensor the model builds (a constant index, an arange) lives on its input's device: run on torch's
    ``meta`` device (no data), an index left on the CPU fails as it does on CUDA ("Expected all tensors to be on
    the same device")."""
    from conformance.program.ir import Get, Input, OpStmt, OutVar, TensorSpec
    from conformance.program.program import Program

    program = Program(seed=1, inputs=(Input("x", TensorSpec((2, 3))),), kwargs=(), params=(),
                      body=(Get("v0", "x"), OpStmt("v1", op, ("v0",), attrs)), output=OutVar("v1"))
    from torch.utils._python_dispatch import TorchDispatchMode

    class OneDevice(TorchDispatchMode):
        """Fails an op whose tensors are on several devices (meta kernels do not check it themselves)."""

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            devices = {t.device.type for t in flatten([list(args), list(kwargs.values())])
                       if isinstance(t, torch.Tensor) and t.dim() > 0}
            assert len(devices) <= 1, f"{func} mixes devices {devices}"
            return func(*args, **kwargs)

    model = load_model_module(program).Model().to("meta")
    with OneDevice():
        assert model(torch.zeros(2, 3, device="meta")).device.type == "meta"
