"""The Paddle spelling of ``pad_negative`` (constant padding with negative pads, which crop) runs in dygraph and
crops like torch's ``F.pad``: Paddle's ``F.pad`` crops with negative pads given for the spatial dims of
``[N, C, ...]`` but refuses a negative pad given for every dim ("The element of 'paddings' should >= 0"), so for
other ranks the emitter crops by slicing first (campaign seed 0, case 8dad40929260: the full-length spelling sat in a
branch dygraph never ran, and to_static, which builds both branches, failed on it)."""

import numpy as np
import pytest

from conformance.program.ir import TensorType
from conformance.program.ops import OPS

paddle = pytest.importorskip("paddle")
F = paddle.nn.functional


def _numpy_pad(x: np.ndarray, pads, value: float) -> np.ndarray:
    lead = x.ndim - len(pads)
    crop = tuple([slice(None)] * lead + [slice(max(0, -b), n + min(0, e))
                                         for n, (b, e) in zip(x.shape[lead:], pads)])
    grow = [(0, 0)] * lead + [(max(0, b), max(0, e)) for b, e in pads]
    return np.pad(x[crop], grow, constant_values=value)


@pytest.mark.parametrize("shape,pads", [((1, 5, 1), ((-1, 1), (0, 2))), ((2, 3, 4), ((0, -2),)),
                                        ((2, 3, 4, 5), ((-2, -1), (1, -2), (0, 0))), ((3, 4), ((1, 2),)),
                                        ((2, 3, 4, 5), ((-1, 2), (1, -2))),
                                        ((1, 2, 3, 4, 5), ((1, -1), (0, 0), (-2, 1)))])
def test_paddle_pad_negative_runs_and_crops(shape, pads):
    record = OPS["pad_negative"]
    attrs = {"pads": pads, "value": 1.5}
    fields = record.template_fields([TensorType(shape, "float32")], attrs)
    line = record.emit["paddle"].format("x", **attrs, **fields)
    x = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    got = eval(line, {"F": F, "paddle": paddle}, {"x": paddle.to_tensor(x)}).numpy()
    np.testing.assert_array_equal(got, _numpy_pad(x, pads, 1.5))


def test_paddle_crops_with_its_own_negative_pads_where_it_takes_them():
    """Spatial pads of an [N, C, H, W] input are Paddle's own negative padding, not a slice."""
    fields = OPS["pad_negative"].template_fields([TensorType((2, 3, 4, 5), "float32")],
                                                 {"pads": ((-1, 2), (1, -2)), "value": 0.0})
    assert fields["paddle_crop"] == "" and fields["paddle_grow"] == [1, -2, -1, 2]
