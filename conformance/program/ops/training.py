"""Ops whose meaning depends on train()/eval() or autograd (dropout, batch norm, detach).

Drawn only for programs with the ``train_layers`` construct (see ``OpRecord.train_layer``).
"""

from __future__ import annotations

import math

from conformance.program.ir import DYNAMIC, TensorType
from conformance.program.ops.record import (
    MAX_BATCH,
    Weight,
    everywhere,
    keep_bound,
    need,
    per_framework,
    register,
    same_type,
    strategies,
)

_TF_DROPOUT = '''
def _dropout(x, rate, key, training):
    """Dropout with a stateless seeded mask: the same mask in float32 and float64, eagerly and traced."""
    if not training or rate == 0.0:
        return x
    keep = tf.random.stateless_uniform(tf.shape(x), seed=[SEED % 2**31, key]) >= rate
    return tf.where(keep, x / (1.0 - rate), tf.zeros_like(x))
'''


def _dropout_bound(ivs, a, ts):
    lo, hi = ivs[0]
    scale = 1.0 / (1.0 - a["p"])
    return (min(lo * scale, 0.0), max(hi * scale, 0.0)) if a["p"] else (lo, hi)


register(name="dropout", family="train", arity=1, train_layer=True, view=True,  # eval() returns its argument itself
         doc="dropout with probability p in train() (identity in eval()); p = 0, or a seeded generator",
         emit={**everywhere("F.dropout({0}, p={p}, training=self.training)"),
               "tf": "_dropout({0}, {p}, {key}, self.training)"},
         helpers={"tf": _TF_DROPOUT}, infer=same_type, bound=_dropout_bound,
         attrs=lambda draw, ts: {"p": draw(strategies().sampled_from([0.0, 0.5, 0.25])),
                                 "key": draw(strategies().integers(0, 999))},
         tolerance="p > 0: the mask comes from the framework's generator, seeded before every forward (torch, paddle) "
                   "or a stateless seed (tf); masks differ between frameworks")

_TF_BATCH_NORM = '''
def _batch_norm(x, running_mean, running_var, weight, bias, training, momentum=0.1, eps=1e-5):
    """Batch norm over every dim but dim 1, updating the running statistics as torch does: running =
    (1 - momentum) * running + momentum * batch statistic, with the unbiased batch variance."""
    axes = [0] + list(range(2, len(x.shape)))
    shape = [1, -1] + [1] * (len(x.shape) - 2)
    if training:
        mean, var = tf.nn.moments(x, axes)
        n = tf.cast(tf.size(x) // tf.shape(x)[1], x.dtype)
        running_mean.assign(running_mean * (1 - momentum) + mean * momentum)
        running_var.assign(running_var * (1 - momentum) + var * (n / (n - 1)) * momentum)
    else:
        mean, var = running_mean, running_var
    return ((x - tf.reshape(mean, shape)) * tf.math.rsqrt(tf.reshape(var, shape) + eps) * tf.reshape(weight, shape)
            + tf.reshape(bias, shape))
'''


def _bn_count(t: TensorType, batch: int) -> int:
    """How many values batch norm averages per channel, with the dynamic dim of size ``batch``."""
    return math.prod(batch if d == DYNAMIC else d for i, d in enumerate(t.shape) if i != 1)


def _bn_domain(ivs, ts):
    t = ts[0]
    return (2 <= t.rank <= 4 and isinstance(t.shape[1], int) and _bn_count(t, 2) >= 2
            and ivs[0][1] - ivs[0][0] > 0)


def _bn_infer(ts, a):
    t = ts[0]
    need(2 <= t.rank <= 4 and isinstance(t.shape[1], int), f"batch_norm needs [N, C, ...] with a static C, got {t}")
    need(_bn_count(t, 2) >= 2, f"batch_norm in train() needs more than one value per channel, got {t}")
    return t


def _bn_bound(ivs, a, ts):
    train = 0.5 * math.sqrt(_bn_count(ts[0], MAX_BATCH) - 1) + 0.5  # |x - mean| <= sqrt(n - 1) * std
    evaluate = (max(map(abs, ivs[0])) + 0.5) / math.sqrt(0.75) * 0.5 + 0.5  # running var >= 0.75
    return (-max(train, evaluate), max(train, evaluate))


register(name="batch_norm", family="train", arity=1, train_layer=True,
         doc="batch norm over every dim but dim 1, with weight, bias and running statistics (momentum 0.1 in "
             "torch's convention, Paddle's 0.9; eps 1e-5)",
         emit=per_framework(
             "F.batch_norm({0}, {p2}, {p3}, {p0}, {p1}, training=self.training, momentum=0.1, eps=1e-05)",
                  # Paddle's momentum is the weight of the old statistic: 0.9 here is torch's 0.1
                  "F.batch_norm({0}, {p2}, {p3}, {p0}, {p1}, training=self.training, momentum=0.9, epsilon=1e-05)",
                  "_batch_norm({0}, {p2}, {p3}, {p0}, {p1}, self.training)"),
         helpers={"tf": _TF_BATCH_NORM}, infer=_bn_infer, domain=_bn_domain, bound=_bn_bound,
         params=lambda ts, a: [Weight((ts[0].shape[1],), 0.5), Weight((ts[0].shape[1],), 0.5),
                               Weight((ts[0].shape[1],), 0.5, trainable=False),
                               Weight((ts[0].shape[1],), 0.25, offset=1.0, trainable=False)],
         tolerance="train(): near-constant channels amplify rounding (the fp64 reference decides); Paddle updates "
                   "the running variance with the biased batch variance (÷n), torch and this tf emitter with the "
                   "unbiased one (÷(n-1))")

register(name="detach", family="train", arity=1, train_layer=True, view=True,
         doc="the same values, cut from autograd (no gradient flows back through it)",
         emit=per_framework("{0}.detach()", "{0}.detach()", "tf.stop_gradient({0})"), infer=same_type, bound=keep_bound)
