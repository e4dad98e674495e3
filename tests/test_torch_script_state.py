"""torch.jit.script's outcome on a model does not depend on what was scripted before it in the process."""

import types

import pytest

torch = pytest.importorskip("torch")

from conformance.paths.torch import conversions, deployment  # noqa: E402

NONE_THEN_TENSOR = "previously had type NoneType but is now being assigned to a value of type Tensor"


class OptionalUnannotated(torch.nn.Module):
    """Eager Python runs it; TorchScript refuses it (``y`` needs ``Optional[Tensor]``)."""

    def forward(self, x):
        y = None
        if x.sum() > 0:
            y = torch.tanh(x)
        return x if y is None else y


class Plain(torch.nn.Module):
    def forward(self, x):
        return torch.tanh(x) * 2


def _ctx(model, tmp_path):
    return types.SimpleNamespace(model=model, workdir=str(tmp_path), device="cpu")


def _script_error(convert, ctx) -> str:
    with pytest.raises(RuntimeError) as info:
        convert(ctx)
    return str(info.value)


def test_a_failed_script_leaves_the_next_attempt_its_own_error(tmp_path):
    # without clearing TorchScript's state, the second and third attempts fail with "Can't redefine method: forward"
    for convert in (conversions.script, deployment.script_saved, conversions.script):
        message = _script_error(convert, _ctx(OptionalUnannotated(), tmp_path))
        assert NONE_THEN_TENSOR in message and "redefine" not in message, message


def test_scripting_still_works_after_a_failure(tmp_path):
    _script_error(conversions.script, _ctx(OptionalUnannotated(), tmp_path))
    x = torch.randn(3)
    for convert in (conversions.script, deployment.script_saved):
        scripted = convert(_ctx(Plain(), tmp_path))
        torch.testing.assert_close(scripted(x), Plain()(x))
