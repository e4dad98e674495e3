"""A user's test module, run by ``tests/test_check_anywhere.py`` with ``pytest --import-mode=importlib`` (which
loads it under a name no other process can import): ``assert_conforms`` on models defined here."""

import torch

import conformance


class Gate(torch.nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.lin = torch.nn.Linear(4, 4)

    def forward(self, x):
        h = self.lin(x)
        if h.sum() > 0:
            return h * 2
        return h - 1


def test_gate_conforms():
    report = conformance.assert_conforms(Gate(), [torch.randn(3, 4)], paths=["eager", "script", "trace"],
                                         fail_on=("mismatch", "conversion_error", "runtime_error", "harness_error"))
    assert report["script"].outcome == "pass"


def test_a_model_made_in_the_test_conforms():
    class Twice(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.gate = Gate()

        def forward(self, x):
            return self.gate(x) * 2

    report = conformance.assert_conforms(Twice(), [torch.randn(3, 4)], paths=["eager", "script"],
                                         fail_on=("mismatch", "conversion_error", "runtime_error", "harness_error"))
    assert {r.outcome for r in report.results} == {"pass"}, str(report)
