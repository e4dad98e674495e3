"""In-place updates: the op writes into its first argument (``add_``, ``mul_``, ``clamp_``, ``relu_``)."""

from __future__ import annotations

from conformance.program.ops.elementwise import CLAMP, RELU
from conformance.program.ops.record import broadcast, interval_mul, need, per_framework, register, same_type


def _inplace_infer(ts, a):
    need(broadcast(ts[0].shape, ts[1].shape) == ts[0].shape, f"in-place result must keep the shape of {ts[0]}, "
                                                               f"got {ts[1]} broadcast into it")
    return ts[0]


register(name="add_", family="inplace", arity=2, inplace=True, weight=3.0,
         doc="x.add_(y): in-place addition (y broadcasts into x)",
         emit=per_framework("{0}.add_({1})", "{0}.add_({1})", "{0} + {1}"), infer=_inplace_infer,
         bound=lambda ivs, a, ts: (ivs[0][0] + ivs[1][0], ivs[0][1] + ivs[1][1]))
register(name="mul_", family="inplace", arity=2, inplace=True, weight=3.0, doc="x.mul_(y): in-place multiplication",
         emit=per_framework("{0}.mul_({1})", "{0}.multiply_({1})", "{0} * {1}"), infer=_inplace_infer,
         bound=lambda ivs, a, ts: interval_mul(ivs[0], ivs[1]))
register(name="clamp_", family="inplace", arity=1, inplace=True, weight=3.0, doc="x.clamp_(lo, hi): in-place clamp",
         emit=per_framework("{0}.clamp_({lo}, {hi})", "{0}.clip_({lo}, {hi})", "tf.clip_by_value({0}, {lo}, {hi})"),
         infer=same_type, bound=CLAMP.bound, attrs=CLAMP.attrs)
register(name="relu_", family="inplace", arity=1, inplace=True, weight=3.0, doc="x.relu_(): in-place ReLU",
         emit=per_framework("{0}.relu_()", "F.relu_({0})", "tf.nn.relu({0})"), infer=same_type, bound=RELU.bound)
