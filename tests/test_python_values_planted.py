"""Planted faults in Python values, each caught as a mismatch (by one check, and by a campaign within two minutes),
and clean runs of eager and TorchScript that flag no rounding noise."""

import pytest

from conformance.program.ir import OpStmt, OutSeq, OutVar, TensorCond, While

from .test_python_values import GROWN, GROWN_OUT, program_of, py

pytest.importorskip("torch")

from conformance.paths.records import PATHS, load_framework  # noqa: E402
from conformance.program.case import Case, InputSet  # noqa: E402
from conformance.run.runner import check  # noqa: E402

from . import planted_python_values  # noqa: E402,F401

load_framework("torch")

#: A Python int counted in a tensor-conditioned while and returned; a .item() fed back into the tensor returned.
COUNT = (py("v1", "const", value=0),
         While(TensorCond("v0", "mean", ">", -0.9), 3, "it0", (py("v1", "add_const", "v1", c=1),
                                                                OpStmt("v0", "sigmoid", ("v0",)))))
ITEM = (py("v1", "item", "v0", reduce="mean"), py("v2", "scale_by", "v1", "v0"))


def _case(program):
    return Case(program, (InputSet("example", 1, 1, ()), InputSet("values", 1, 2, ())))


@pytest.mark.parametrize("path,body,output,where", [
    ("planted_int_to_float", COUNT, OutSeq("tuple", (OutVar("v0"), OutVar("v1"))), "a float (3.0) where eager returns"),
    ("planted_stale_item", ITEM, OutVar("v2"), "values inputs"),
    ("planted_drops_last_append", GROWN, GROWN_OUT, "[1]: 1 != eager 2"),
    ("planted_sorted_dict_keys", GROWN, GROWN_OUT, "keys in the order ['k8', 'k9', 'z'] != eager's order"),
])
def test_planted_python_value_faults_are_mismatches_and_eager_and_script_pass(path, body, output, where):
    case = _case(program_of(*body, output=output))
    for clean in ("torch.eager", "torch.script"):
        assert check(case, PATHS[clean]).outcome == "pass", clean
    found = check(case, PATHS[f"torch.{path}"])
    assert found.outcome == "mismatch" and where in found.detail.message, found.detail.message


def _campaign(tmp_path, path, max_cases):
    import json
    import time

    from conformance.run.campaign import Campaign, CampaignOptions

    opts = CampaignOptions(seed=0, budget=120, max_cases=max_cases, paths=[PATHS[path]], workers=1, out=tmp_path,
                           modules=["tests.planted_python_values"], generator={"frameworks": ("torch",)})
    started = time.monotonic()
    Campaign(opts).run()
    records = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    return records, time.monotonic() - started


@pytest.mark.slow
@pytest.mark.parametrize("path", ["planted_int_to_float", "planted_stale_item", "planted_drops_last_append",
                                  "planted_sorted_dict_keys"])
def test_planted_python_value_faults_are_caught_by_a_campaign_within_two_minutes(tmp_path, path):
    records, took = _campaign(tmp_path, f"torch.{path}", 400)  # cases are drawn for 120 s (the budget)
    assert any(r["outcome"] == "mismatch" for r in records), \
        (took, [r["detail"]["message"] for r in records][:20])


@pytest.mark.slow
def test_eager_is_clean_on_the_default_stream(tmp_path):
    """The default stream, Python values included, along eager itself: no rounding noise flagged."""
    records, _ = _campaign(tmp_path, "torch.eager", 60)
    assert {r["outcome"] for r in records} <= {"pass", "discarded", "unsupported"}, \
        [r["detail"]["message"] for r in records if r["outcome"] not in ("pass", "discarded")]
