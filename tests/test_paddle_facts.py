"""What Paddle's conversions observe about themselves reaches ``ctx.facts`` (and from there ``Failure.facts``, which
the fact-keyed records select on): paddle2onnx's file repeating an If branch's output is read from the real ONNX
file, and a zero-size example input is noted by every conversion."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("paddle")

from conformance.paths.records import FRAMEWORKS, PATHS, ConvertContext, Failure, example_facts, load_framework  # noqa: E402
from conformance.program.case import Case, map_tree, materialize  # noqa: E402

CASES = Path(__file__).resolve().parent.parent / "cases"


def _ctx(case: Case, tmp_path) -> ConvertContext:
    """What a path's convert gets for ``case``'s example inputs (a fresh model, on the CPU), as the runner builds it."""
    from conformance.paths.paddle.adapter import to_tensor
    from conformance.paths.paddle.conversions import prepare
    from conformance.render.source import load_model_module
    from conformance.run.runner import tensor_names

    args, kwargs = materialize(case.program, case.inputs[0])
    model = prepare(load_model_module(case.program, "paddle").Model(), "cpu", False)
    return ConvertContext(model, map_tree(lambda a: to_tensor(a, "cpu", False), args), kwargs, case.program, "cpu",
                          tmp_path, tensor_names(case.program), facts=example_facts(args))


def _corpus_case(name: str) -> Case:
    return Case.from_dict(json.loads((CASES / name).read_text())["case"])


def _without_rebinding(case: Case) -> Case:
    """``case`` (an early return of v0, then ``v0 = -v0; v1 = -v1; return v0``) without ``v0 = -v0``: the same If,
    whose branch no longer yields the rebound v0 twice."""
    d = case.to_dict()
    body = d["program"]["body"]
    body.remove(next(s for s in body if s.get("kind") == "op" and s["out"] == "v0" and s["args"] == ["v0"]))
    return Case.from_dict(d)


@pytest.fixture(scope="module")
def onnx_path():
    pytest.importorskip("paddle2onnx")
    pytest.importorskip("onnxruntime")
    load_framework("paddle")
    return PATHS["paddle.onnx"]


def test_an_if_branch_repeating_an_output_is_read_from_the_onnx_file(onnx_path, tmp_path):
    case = _corpus_case("paddle-onnx-if-branch-repeated-output.json")
    ctx = _ctx(case, tmp_path / "repeats")
    onnx_path.convert(ctx)
    assert ctx.facts.get("branch_repeats_output") is True
    failure = Failure("compare", divergences=(("value", "[0]"),)).of_context(ctx)
    assert "branch_repeats_output" in failure.facts
    lim = onnx_path.limitation_for(failure, FRAMEWORKS["paddle"].version())
    assert lim.name == "onnxruntime.if_branch_repeats_output"

    other = _without_rebinding(case)
    assert "early_return" in other.program.constructs()
    ctx = _ctx(other, tmp_path / "distinct")
    onnx_path.convert(ctx)
    assert ctx.facts.get("branch_repeats_output") is False
    failure = Failure("compare", divergences=(("value", "[0]"),)).of_context(ctx)
    assert "branch_repeats_output" not in failure.facts
    lim = onnx_path.limitation_for(failure, FRAMEWORKS["paddle"].version())
    assert lim is None or lim.name != "onnxruntime.if_branch_repeats_output"


def test_a_zero_size_input_is_noted_for_the_conversion(tmp_path):
    load_framework("paddle")
    path = PATHS["paddle.to_static"]
    case = _corpus_case("paddle-to-static-if-zero-size-flattened.json")
    assert any(0 in leaf.shape for leaf in case.program.input_leaves())
    ctx = _ctx(case, tmp_path / "zero")
    path.convert(ctx)
    assert ctx.facts.get("zero_size_input") is True
    flattened = Failure("compare", divergences=(("shape", "[0]"),)).of_program(case.program).of_context(ctx)
    assert "zero_size_input" in flattened.facts
    assert path.limitation_for(flattened, FRAMEWORKS["paddle"].version()).name == "pir_ast.if_zero_size_output_shape"

    d = case.to_dict()  # the same program, every dim of 0 made 1
    for spec in (d["program"]["inputs"][0]["spec"]["items"][0], d["program"]["inputs"][1]["spec"]):
        spec["shape"] = [1 if n == 0 else n for n in spec["shape"]]
    full = Case.from_dict(d)
    assert not any(0 in leaf.shape for leaf in full.program.input_leaves())
    ctx = _ctx(full, tmp_path / "full")
    path.convert(ctx)
    assert ctx.facts.get("zero_size_input") is False
    flattened = Failure("compare", divergences=(("shape", "[0]"),)).of_program(full.program).of_context(ctx)
    assert "zero_size_input" not in flattened.facts
    lim = path.limitation_for(flattened, FRAMEWORKS["paddle"].version())
    assert lim is None or lim.name != "pir_ast.if_zero_size_output_shape"
