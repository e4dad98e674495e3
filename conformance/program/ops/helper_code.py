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
    import numpy as np
    import paddle
    import paddle.nn.functional as F  # noqa: N812 - the model module's name
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


# ---------------------------------------------------------------- pooling with torch's rules


def tf_pool(x, kind, kernel, stride, padding, dilation, ceil_mode, count_include_pad, spatial):
    """Max or average pooling of the last ``spatial`` dims of a channels-first ``x`` by torch's rules: the same
    kernel, stride, padding and dilation along each of those dims; with ``ceil_mode`` the output rounds up, but
    a window must start inside the input or its left padding; an average counts the padding (not the part of
    the last window past it) with ``count_include_pad``, else only the input's elements."""
    rank = len(x.shape)
    first = rank - spatial
    span = dilation * (kernel - 1) + 1
    outs, rights, counts = [], [], []
    for i in range(spatial):
        size = x.shape[first + i]
        total = size + 2 * padding - span
        out = (-(-total // stride) if ceil_mode else total // stride) + 1
        if ceil_mode and (out - 1) * stride >= size + padding:
            out -= 1
        outs.append(out)
        rights.append(max(0, (out - 1) * stride + span - size - padding))
        starts = [o * stride - padding for o in range(out)]
        if count_include_pad:
            counts.append([min(s + kernel, size + padding) - s for s in starts])
        else:
            counts.append([min(s + kernel, size) - max(s, 0) for s in starts])
    fill = float("-inf") if kind == "max" else 0.0
    padded = tf.pad(x, [[0, 0]] * first + [[padding, right] for right in rights], constant_values=fill)
    offsets = [[]]
    for _ in range(spatial):
        offsets = [o + [j] for o in offsets for j in range(kernel)]
    result = None
    for offset in offsets:
        index = [slice(None)] * first + [slice(j * dilation, j * dilation + (o - 1) * stride + 1, stride)
                                         for j, o in zip(offset, outs)]
        window = padded[tuple(index)]
        if result is None:
            result = window
        elif kind == "max":
            result = tf.maximum(result, window)
        else:
            result = result + window
    if kind == "max":
        return result
    divisor = np.ones([1] * first, dtype=np.float64)
    for count in counts:
        divisor = np.multiply.outer(divisor, np.array(count, dtype=np.float64))
    return result / tf.constant(divisor, dtype=x.dtype)


def tf_adaptive_pool(x, sizes, kind):
    """Adaptive max or average pooling of the last ``len(sizes)`` dims of ``x`` to ``sizes``: output ``i`` of a
    dim of size ``n`` pools elements ``floor(i * n / out)`` to ``ceil((i + 1) * n / out)`` (torch's bins), one
    dim after the other (max and mean over a box are both separable)."""
    first = len(x.shape) - len(sizes)
    result = x
    for i, out in enumerate(sizes):
        axis = first + i
        n = x.shape[axis]
        pieces = []
        for j in range(out):
            start, end = (j * n) // out, -(-((j + 1) * n) // out)
            piece = tf.gather(result, tf.range(start, end), axis=axis)
            if kind == "max":
                pieces.append(tf.reduce_max(piece, axis=axis, keepdims=True))
            else:
                pieces.append(tf.reduce_mean(piece, axis=axis, keepdims=True))
        result = tf.concat(pieces, axis)
    return result


# ---------------------------------------------------------------- resizing with torch's rules


def tf_resize(x, sizes, mode, align_corners):
    """Resize the last ``len(sizes)`` dims of ``x`` by torch's rules, one dim after the other: ``nearest``
    reads ``floor(i * n / out)``; ``linear`` interpolates between two neighbours at ``(i + 0.5) * n / out - 0.5``
    (clamped at 0), or at ``i * (n - 1) / (out - 1)`` with ``align_corners`` (bilinear and trilinear are linear
    along each dim in turn). Gathers and weights in x's own dtype: tf.image.resize computes in float32."""
    first = len(x.shape) - len(sizes)
    result = x
    for i, out in enumerate(sizes):
        axis = first + i
        n = x.shape[axis]
        if mode == "nearest":
            result = tf.gather(result, np.minimum(np.floor(np.arange(out) * (n / out)), n - 1).astype(np.int64),
                               axis=axis)
            continue
        if align_corners:
            source = np.arange(out) * ((n - 1) / (out - 1)) if out > 1 else np.zeros(out)
        else:
            source = np.maximum((np.arange(out) + 0.5) * (n / out) - 0.5, 0.0)
        low = np.minimum(np.floor(source), n - 1).astype(np.int64)
        high = np.minimum(low + 1, n - 1)
        shape = [1] * len(x.shape)
        shape[axis] = out
        weight = tf.constant((source - low).reshape(shape), dtype=x.dtype)
        result = tf.gather(result, low, axis=axis) * (1 - weight) + tf.gather(result, high, axis=axis) * weight
    return result


# ---------------------------------------------------------------- scatter


def tf_scatter_along(x, dim, index, src, reduce, include_self):
    """torch's ``scatter`` / ``scatter_reduce`` along ``dim`` with a constant ``index`` (an int list): element
    ``i`` of ``src`` (cropped to the index's shape) goes to the position of ``i`` with coordinate ``dim``
    replaced by ``index[i]``; ``reduce`` is ``assign``, ``sum``, ``amax``, ``amin`` or ``mean``, and without
    ``include_self`` the positions written start from the reduction's identity instead of ``x``."""
    index = np.asarray(index, dtype=np.int64)
    rank = len(x.shape)
    dim = dim % rank
    grids = np.indices(index.shape)
    coords = np.stack([index if d == dim else grids[d] for d in range(rank)], axis=-1).reshape(-1, rank)
    updates = tf.reshape(src[tuple(slice(0, n) for n in index.shape)], [-1])
    if reduce == "assign":
        return tf.tensor_scatter_nd_update(x, coords, updates)
    touched = tf.tensor_scatter_nd_update(tf.zeros_like(x), coords, tf.ones_like(updates)) > 0
    start = x
    if not include_self:
        identity = {"sum": 0.0, "mean": 0.0, "amax": float("-inf"), "amin": float("inf")}[reduce]
        start = tf.where(touched, tf.constant(identity, x.dtype), x)
    if reduce == "amax":
        return tf.tensor_scatter_nd_max(start, coords, updates)
    if reduce == "amin":
        return tf.tensor_scatter_nd_min(start, coords, updates)
    total = tf.tensor_scatter_nd_add(start, coords, updates)
    if reduce == "sum":
        return total
    counts = tf.tensor_scatter_nd_add(tf.zeros_like(x), coords, tf.ones_like(updates))
    counts = counts + (1.0 if include_self else 0.0)
    return tf.where(touched, total / tf.maximum(counts, 1.0), x)


def tf_index_add(x, dim, index, src):
    """torch's ``index_add``: ``src``'s slice ``i`` along ``dim`` added to ``x``'s slice ``index[i]``."""
    rank = len(x.shape)
    dim = dim % rank
    perm = [dim] + [d for d in range(rank) if d != dim]
    inverse = [perm.index(d) for d in range(rank)]
    moved = tf.tensor_scatter_nd_add(tf.transpose(x, perm), np.asarray(index, dtype=np.int64)[:, None],
                                     tf.transpose(src, perm))
    return tf.transpose(moved, inverse)


# ---------------------------------------------------------------- sorting and selection


def tf_topk(x, k, dim, largest):
    """torch's ``topk`` values along ``dim``: the ``k`` largest (or smallest) in order (tf.math.top_k works on
    the last dim and takes the largest: move ``dim`` last, negate for the smallest)."""
    rank = len(x.shape)
    dim = dim % rank
    perm = [d for d in range(rank) if d != dim] + [dim]
    inverse = [perm.index(d) for d in range(rank)]
    moved = tf.transpose(x, perm)
    values = tf.math.top_k(moved if largest else -moved, k).values
    return tf.transpose(values if largest else -values, inverse)


# ---------------------------------------------------------------- padding


def tf_pad_edges(x, pads, mode):
    """torch's ``replicate`` or ``circular`` padding of the last ``len(pads)`` dims of ``x`` (``pads``: a
    ``(before, after)`` pair per dim, in dim order); tf.pad has neither (its SYMMETRIC mode repeats the edge
    and its neighbours)."""
    first = len(x.shape) - len(pads)
    for i, (before, after) in enumerate(pads):
        axis = first + i
        n = x.shape[axis]
        if mode == "replicate":
            left, right = [0] * before, [n - 1] * after
        else:  # circular
            left, right = list(range(n - before, n)), list(range(after))
        parts = ([tf.gather(x, left, axis=axis)] if left else []) + [x] + \
            ([tf.gather(x, right, axis=axis)] if right else [])
        x = tf.concat(parts, axis)
    return x


# ---------------------------------------------------------------- convolution


def tf_conv(x, weight, bias, stride, padding, dilation, spatial, mode):
    """torch's ``conv{spatial}d`` of a channels-first ``x`` (``[N, C, *spatial]``, or one unbatched sample
    ``[C, *spatial]``) with a torch weight ``[out, in / groups, *kernel]``: padded by ``padding`` in ``mode``
    (zeros, reflect, replicate, circular) or ``"same"``, then tf.nn.convolution, which is channels last and
    takes the weight as ``[*kernel, in / groups, out]`` (the groups follow from the weight's shape) and a
    stride or a dilation, not both (with both: every stride-th output of the stride-1 convolution)."""
    batched = x if len(x.shape) == spatial + 2 else tf.expand_dims(x, 0)
    y = tf.transpose(batched, [0] + list(range(2, spatial + 2)) + [1])
    if padding == "same":
        how = "SAME"
    else:
        how = "VALID"
        pairs = [[0, 0]] + [[padding, padding]] * spatial + [[0, 0]]
        if mode in ("zeros", "reflect"):
            y = tf.pad(y, pairs, mode="CONSTANT" if mode == "zeros" else "REFLECT")
        elif padding:
            for axis in range(1, spatial + 1):
                n = y.shape[axis]
                left = [0] * padding if mode == "replicate" else list(range(n - padding, n))
                right = [n - 1] * padding if mode == "replicate" else list(range(padding))
                y = tf.concat([tf.gather(y, left, axis=axis), y, tf.gather(y, right, axis=axis)], axis)
    filters = tf.transpose(weight, list(range(2, spatial + 2)) + [1, 0])
    if stride > 1 and dilation > 1:  # tf.nn.convolution takes one or the other: every stride-th output of stride 1
        y = tf.nn.convolution(y, filters, padding=how, dilations=dilation)
        y = y[tuple([slice(None)] + [slice(None, None, stride)] * spatial + [slice(None)])]
    else:
        y = tf.nn.convolution(y, filters, strides=stride, padding=how, dilations=dilation)
    y = tf.transpose(y, [0, spatial + 1] + list(range(1, spatial + 1))) + tf.reshape(bias, [1, -1] + [1] * spatial)
    return y if len(x.shape) == spatial + 2 else y[0]


def tf_conv_transpose(x, weight, bias, stride, padding, output_padding, spatial):
    """torch's ``conv_transpose{spatial}d`` (one group, no dilation) of a channels-first ``x`` (batched or
    one sample) with a torch weight ``[in, out, *kernel]``: tf.nn.conv_transpose to the full size
    ``(n - 1) * stride + kernel``, then the first ``padding`` and the last ``padding - output_padding`` of
    each dim cut off (zeros where ``output_padding`` reaches past the full size)."""
    batched = x if len(x.shape) == spatial + 2 else tf.expand_dims(x, 0)
    y = tf.transpose(batched, [0] + list(range(2, spatial + 2)) + [1])
    kernel = weight.shape[2:]
    full = [(y.shape[1 + i] - 1) * stride + kernel[i] for i in range(spatial)]
    filters = tf.transpose(weight, list(range(2, spatial + 2)) + [1, 0])
    shape = tf.stack([tf.shape(y)[0]] + full + [weight.shape[1]])
    y = tf.nn.conv_transpose(y, filters, shape, strides=stride, padding="VALID")
    extra = max(0, output_padding - padding)
    y = tf.pad(y, [[0, 0]] + [[0, extra]] * spatial + [[0, 0]])
    index = [slice(None)] + [slice(padding, padding + f - 2 * padding + output_padding) for f in full]
    y = y[tuple(index) + (slice(None),)]
    y = tf.transpose(y, [0, spatial + 1] + list(range(1, spatial + 1))) + tf.reshape(bias, [1, -1] + [1] * spatial)
    return y if len(x.shape) == spatial + 2 else y[0]


# ---------------------------------------------------------------- normalization and attention


def tf_group_norm(x, groups, weight, bias, eps):
    """torch's ``group_norm`` of a channels-first ``x`` (static channels and spatial dims): statistics over each
    group of channels and the spatial dims, then a scale and shift per channel."""
    shape = x.shape
    grouped = tf.reshape(x, [-1, groups] + [shape[1] // groups] + list(shape[2:]))
    axes = list(range(2, len(shape) + 1))
    mean, var = tf.nn.moments(grouped, axes, keepdims=True)
    normal = tf.reshape((grouped - mean) * tf.math.rsqrt(var + eps), tf.shape(x))
    per_channel = [1, -1] + [1] * (len(shape) - 2)
    return normal * tf.reshape(weight, per_channel) + tf.reshape(bias, per_channel)


def torch_attention(x, w_in, b_in, w_out, b_out, heads: int, causal: bool):
    """Multi-head self-attention of ``x`` [N, L, E] as nn.MultiheadAttention computes it: one input projection
    to queries, keys and values, ``heads`` heads, scaled dot-product attention (causal or not), an output
    projection. (Annotated and indexed so that TorchScript compiles it.)"""
    length, embed = x.size(1), x.size(2)
    qkv = F.linear(x, w_in, b_in)
    q = qkv[:, :, :embed].reshape(-1, length, heads, embed // heads).transpose(1, 2)
    k = qkv[:, :, embed:2 * embed].reshape(-1, length, heads, embed // heads).transpose(1, 2)
    v = qkv[:, :, 2 * embed:].reshape(-1, length, heads, embed // heads).transpose(1, 2)
    out = F.scaled_dot_product_attention(q, k, v, is_causal=causal)
    return F.linear(out.transpose(1, 2).reshape(-1, length, embed), w_out, b_out)


def paddle_attention(x, w_in, b_in, w_out, b_out, heads, causal):
    """``torch_attention`` in Paddle, written out: projections, per-head scores, softmax, weighted values."""
    length, embed = x.shape[1], x.shape[2]
    q, k, v = paddle.split(paddle.matmul(x, w_in, transpose_y=True) + b_in, 3, axis=-1)
    q, k, v = [t.reshape([-1, length, heads, embed // heads]).transpose([0, 2, 1, 3]) for t in (q, k, v)]
    scores = paddle.matmul(q, k, transpose_y=True) / float(embed // heads) ** 0.5
    if causal:
        scores = scores + paddle.triu(paddle.full([length, length], float("-inf"), scores.dtype), 1)
    out = paddle.matmul(F.softmax(scores, axis=-1), v).transpose([0, 2, 1, 3]).reshape([-1, length, embed])
    return paddle.matmul(out, w_out, transpose_y=True) + b_out


def tf_attention(x, w_in, b_in, w_out, b_out, heads, causal):
    """``torch_attention`` in TensorFlow, written out with einsum."""
    length, embed = x.shape[1], x.shape[2]
    q, k, v = tf.split(tf.einsum("nle,fe->nlf", x, w_in) + b_in, 3, axis=-1)
    q, k, v = [tf.transpose(tf.reshape(t, [-1, length, heads, embed // heads]), [0, 2, 1, 3]) for t in (q, k, v)]
    scores = tf.einsum("nhqd,nhkd->nhqk", q, k) / float(embed // heads) ** 0.5
    if causal:
        scores = scores + tf.constant(np.triu(np.full([length, length], -np.inf), 1), scores.dtype)
    out = tf.einsum("nhqk,nhkd->nhqd", tf.nn.softmax(scores, axis=-1), v)
    out = tf.reshape(tf.transpose(out, [0, 2, 1, 3]), [-1, length, embed])
    return tf.einsum("nle,fe->nlf", out, w_out) + b_out


# ---------------------------------------------------------------- recurrent layers


def paddle_rnn(x, weights, cell, bidirectional):
    """A one-layer LSTM or GRU over ``x`` [T, N, E] (time first; T may vary from call to call) with torch's
    weights and gate order (per direction: w_ih, w_hh, b_ih, b_hh), written as a loop over time steps."""
    outputs = []
    for direction in range(2 if bidirectional else 1):
        w_ih, w_hh, b_ih, b_hh = weights[4 * direction:4 * direction + 4]
        hidden = w_hh.shape[1]
        h = paddle.zeros([x.shape[1], hidden], x.dtype)
        c = paddle.zeros([x.shape[1], hidden], x.dtype)
        steps = []
        for t in range(x.shape[0]):
            step = x[x.shape[0] - 1 - t] if direction else x[t]
            gates_x = paddle.matmul(step, w_ih, transpose_y=True) + b_ih
            gates_h = paddle.matmul(h, w_hh, transpose_y=True) + b_hh
            if cell == "lstm":
                i, f, g, o = paddle.split(gates_x + gates_h, 4, axis=-1)
                c = F.sigmoid(f) * c + F.sigmoid(i) * paddle.tanh(g)
                h = F.sigmoid(o) * paddle.tanh(c)
            else:
                xr, xz, xn = paddle.split(gates_x, 3, axis=-1)
                hr, hz, hn = paddle.split(gates_h, 3, axis=-1)
                r, z = F.sigmoid(xr + hr), F.sigmoid(xz + hz)
                h = (1 - z) * paddle.tanh(xn + r * hn) + z * h
            steps.append(h)
        if direction:
            steps = steps[::-1]
        outputs.append(paddle.stack(steps, 0))
    return paddle.concat(outputs, -1)


def tf_rnn(x, weights, cell, bidirectional):
    """``paddle_rnn`` in TensorFlow: tf.scan over the time steps (T may vary from call to call)."""
    outputs = []
    for direction in range(2 if bidirectional else 1):
        w_ih, w_hh, b_ih, b_hh = weights[4 * direction:4 * direction + 4]
        hidden = w_hh.shape[1]
        zeros = tf.zeros(tf.stack([tf.shape(x)[1], hidden]), x.dtype)

        def step(state, x_t, w_ih=w_ih, w_hh=w_hh, b_ih=b_ih, b_hh=b_hh):
            h, c = state
            gates_x = tf.matmul(x_t, w_ih, transpose_b=True) + b_ih
            gates_h = tf.matmul(h, w_hh, transpose_b=True) + b_hh
            if cell == "lstm":
                i, f, g, o = tf.split(gates_x + gates_h, 4, axis=-1)
                c = tf.sigmoid(f) * c + tf.sigmoid(i) * tf.tanh(g)
                return tf.sigmoid(o) * tf.tanh(c), c
            xr, xz, xn = tf.split(gates_x, 3, axis=-1)
            hr, hz, hn = tf.split(gates_h, 3, axis=-1)
            r, z = tf.sigmoid(xr + hr), tf.sigmoid(xz + hz)
            return (1 - z) * tf.tanh(xn + r * hn) + z * h, c

        sequence = tf.reverse(x, [0]) if direction else x
        hs, _ = tf.scan(step, sequence, initializer=(zeros, zeros))
        outputs.append(tf.reverse(hs, [0]) if direction else hs)
    return tf.concat(outputs, -1)
