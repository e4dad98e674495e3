"""Functions an emitter calls where a framework has no single function for an op (TensorFlow's cumulative
max, pooling with torch's ``ceil_mode`` rules, replicate padding...).

They are real, linted code: :func:`source` copies a function's source into every model module that uses
the op (``OpRecord.helpers``), where the framework's module (``tf``, ``paddle``, ``torch``) is a global of
the model module. Each function is self-contained (it calls only the framework, ``np`` and builtins) and
is named after its framework, so the copies of several ops never clash with each other or with a model's
variables. They are not called here: importing this module imports no framework.
"""

from __future__ import annotations

import functools
import inspect
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the model module's globals, where these functions run
    import tensorflow as tf


@functools.lru_cache(maxsize=None)
def source(function) -> str:
    """The source of one of this module's functions, as a model module's helper."""
    return "\n" + inspect.getsource(function)


# ---------------------------------------------------------------- cumulative


def tf_cumulative(x, axis, combine):
    """``combine`` (tf.maximum, tf.minimum) accumulated along ``axis``: tf.scan over that axis moved first."""
    rank = len(x.shape)
    axis = axis % rank
    perm = [axis] + [i for i in range(rank) if i != axis]
    inverse = [perm.index(i) for i in range(rank)]
    return tf.transpose(tf.scan(combine, tf.transpose(x, perm)), inverse)
