"""One program, three frameworks: the same weights, and eager outputs that agree within the oracle.

A program rendered for torch, paddle and tf with the same seed must hold bit-identical weights, and
each framework's eager fp32 outputs must pass the oracle against torch's eager fp32 with torch's fp64
reference and rounding noise (the rule that judges every conversion path); the fp64 references must
agree to fp64 tolerance (to fp32 where an op's record says a framework computes part of its float64 run
in float32: ``OpRecord.fp32_in_fp64``). An op whose result differs between frameworks by design names the framework
and the reason in its record (``OpRecord.differs``, shown by ``conformance ops``); that framework's
outputs are not compared on programs using it. Frameworks that are not installed are left out (two
are needed). ``-m slow`` runs the 50-program sample; the default run draws a few.
"""

import importlib.util

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from conformance.judge.oracle import diagnose
from conformance.program.ops import OPS
from conformance.program.strategies import CONSTRUCTS, cases
from conformance.run.runner import prepare

FRAMEWORKS = [fw for fw, module in (("torch", "torch"), ("paddle", "paddle"), ("tf", "tensorflow"))
              if importlib.util.find_spec(module)]
if len(FRAMEWORKS) < 2 or FRAMEWORKS[0] != "torch":
    pytest.skip(f"needs torch and another framework; installed: {FRAMEWORKS}", allow_module_level=True)

_QUICK, _SAMPLE = 6, 50


def _weights(prep, program) -> dict:
    """Each weight of the (fp32) rendered model as a numpy array, by the program's param name."""
    model = prep.module.Model()
    return {q.name: prep.framework.to_numpy(getattr(model, q.name)) for q in program.params}


def _compared(program, framework: str) -> bool:
    """False where an op of the program differs in ``framework`` by design."""
    return not any(framework in OPS[name].differs for name in program.ops())


def _fp64_compared(program, framework: str) -> bool:
    """False where an op of the program computes part of its float64 run in float32 in ``framework`` or in torch
    (``OpRecord.fp32_in_fp64``): the fp64 references then agree only to float32 precision."""
    return not any({framework, "torch"} & set(OPS[name].fp32_in_fp64) for name in program.ops())


def check_agreement(case) -> None:
    preps = {fw: prepare(case, fw) for fw in FRAMEWORKS}
    ref = preps["torch"]
    want = _weights(ref, case.program)
    for fw in FRAMEWORKS[1:]:
        got = _weights(preps[fw], case.program)
        assert got.keys() == want.keys()
        for name in want:
            np.testing.assert_array_equal(got[name], want[name], err_msg=f"{fw} weight {name}")
        if not _compared(case.program, fw):
            continue
        for base, other in zip(ref.runs, preps[fw].runs):
            if not (base.stability.stable and other.stability.stable):
                continue  # a predicate within rounding of its threshold: not judged (the branch-flip guard)
            where = f"{fw} vs torch, {base.role} inputs"
            assert other.stability.decisions == base.stability.decisions, f"{where}: control flow differs"
            if _fp64_compared(case.program, fw):
                fp64 = diagnose(other.reference, base.reference, base.reference)
                assert fp64.ok, f"{where}, fp64 reference:\n{fp64.summary()}"
            fp32 = diagnose(other.eager, base.eager, base.reference, noise=base.noise)
            assert fp32.ok, f"{where}, fp32 eager:\n{fp32.summary()}"


_settings = dict(deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))


@settings(max_examples=_QUICK, **_settings)
@given(cases(constructs=CONSTRUCTS))
def test_frameworks_agree_on_a_few_programs(case):
    check_agreement(case)


@pytest.mark.slow
@settings(max_examples=_SAMPLE, **_settings)
@given(cases(max_statements=8, constructs=CONSTRUCTS))
def test_frameworks_agree_on_a_sample_of_programs(case):
    check_agreement(case)


def test_an_op_that_differs_by_design_leaves_its_framework_out(monkeypatch):
    from dataclasses import replace

    from conformance.program.ir import Get, Input, OpStmt, OutVar, TensorSpec
    from conformance.program.program import Program

    program = Program(seed=0, inputs=(Input("x", TensorSpec((2,))),), kwargs=(), params=(),
                      body=(Get("v0", "x"), OpStmt("v1", "neg", ("v0",))), output=OutVar("v1"))
    assert _compared(program, "tf")
    monkeypatch.setitem(OPS, "neg", replace(OPS["neg"], differs={"tf": "a planted difference"}))
    assert not _compared(program, "tf") and _compared(program, "paddle")


def test_by_design_differences_name_known_frameworks_and_a_reason():
    for rec in OPS.values():
        for fw, why in rec.differs.items():
            assert fw in rec.frameworks and why.strip(), (rec.name, fw)
