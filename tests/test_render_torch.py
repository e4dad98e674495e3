"""Rendered torch sources: readable, scriptable, and runnable standalone with torch and numpy."""

import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings

torch = pytest.importorskip("torch")

from conformance.program.case import map_tree, materialize, save_inputs  # noqa: E402
from conformance.program.strategies import cases  # noqa: E402
from conformance.program.trees import flatten  # noqa: E402
from conformance.render.source import load_model_module, render  # noqa: E402


@settings(max_examples=15, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(cases())
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

    case = find(cases(), lambda c: c.program.has_data_dependent_control_flow() and c.program.kwargs,
                settings=settings(database=None, suppress_health_check=list(HealthCheck)))
    model = tmp_path / "model.py"
    model.write_text(render(case.program))
    save_inputs(tmp_path / "inputs.npz", case.program, case.example)
    out = subprocess.run([sys.executable, str(model), str(tmp_path / "inputs.npz")], capture_output=True, text=True,
                         cwd=tmp_path, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "tensor(" in out.stdout
