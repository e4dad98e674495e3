"""TensorFlow models as users write them: ``tf.cond`` and ``tf.while_loop`` with closures, Python ``if`` and
``while`` on tensors (AutoGraph), dynamic-shape guards, pytree and dict inputs, keyword and optional inputs,
attribute mutation, lists and dicts built in loops, ``range(tensor)``, int32 and scalar inputs, Keras layers
(see :mod:`tests.user_models`)."""

from __future__ import annotations

import numpy as np
import tensorflow as tf


def _randn(*shape, seed: int = 0) -> tf.Tensor:
    return tf.constant(np.random.default_rng(seed).standard_normal(shape).astype("float32"))


def _weight(*shape, seed: int = 0) -> tf.Variable:
    return tf.Variable(np.random.default_rng(100 + seed).uniform(-0.5, 0.5, shape).astype("float32"))


class Dense(tf.Module):
    def __init__(self):
        super().__init__()
        self.w1, self.w2 = _weight(6, 8), _weight(8, 3, seed=1)

    def __call__(self, x):
        return tf.matmul(tf.nn.relu(tf.matmul(x, self.w1)), self.w2)


class CondClosure(tf.Module):
    def __init__(self):
        super().__init__()
        self.scale = tf.Variable(1.5)

    def __call__(self, x):
        offset = tf.reduce_mean(x)
        return tf.cond(tf.reduce_sum(x) > 0, lambda: x * self.scale + offset, lambda: x - offset)


class IfTensor(tf.Module):
    def __call__(self, x):
        if tf.reduce_sum(x) > 0:
            y = x * 2
        else:
            y = x - 1
        return y


class ShapeGuard(tf.Module):
    def __call__(self, x):
        if tf.shape(x)[0] > 4:
            return x[:4] * 2
        return x + 1


class DictInput(tf.Module):
    def __call__(self, batch):
        return tf.reduce_mean(batch["image"], -1) + batch["bias"]


class Pytree(tf.Module):
    def __call__(self, inputs):
        a, b = inputs["pair"]
        return {"sum": a + b, "rest": [t * 2 for t in inputs["rest"]]}


class KeywordTensor(tf.Module):
    def __call__(self, x, mask=None):
        if mask is not None:
            x = x * mask
        return tf.reduce_sum(x, -1)


class OptionalOmitted(tf.Module):
    def __call__(self, x, bias=None):
        if bias is None:
            return x * 3
        return x * 3 + bias


class OptionalMiddle(tf.Module):
    def __call__(self, x, mask=None, y=None):
        out = x
        if mask is not None:
            out = out * mask
        if y is not None:
            out = out + y
        return out


class IntArgument(tf.Module):
    def __call__(self, x, repeats: int):
        for _ in range(repeats):
            x = tf.tanh(x)
        return x


class FloatKeyword(tf.Module):
    def __call__(self, x, scale: float = 1.0):
        return x * scale + 1


class FloatPositional(tf.Module):
    def __call__(self, x, scale):
        return x * scale + 1


class StringMode(tf.Module):
    def __call__(self, x, reduction: str = "sum"):
        if reduction == "max":
            return tf.reduce_max(x, -1)
        return tf.reduce_sum(x, -1)


class ZeroDimTensor(tf.Module):
    def __call__(self, x, temperature):
        return tf.nn.softmax(x / temperature, -1)


class Int32Index(tf.Module):
    def __call__(self, x, idx):
        return tf.gather(x, idx) * 2


class Int32Scalar(tf.Module):
    def __call__(self, x, k):
        return x[:k] + tf.cast(k, tf.float32)


class AttributeMutation(tf.Module):
    def __init__(self):
        super().__init__()
        self.calls = 0

    def __call__(self, x):
        self.calls += 1
        return tf.nn.relu(x) + 1


class IfBoolInput(tf.Module):
    def __call__(self, x, flag):
        if flag:
            return x + 1
        return x - 1


class ListInLoop(tf.Module):
    def __call__(self, x):
        outs = []
        for i in range(3):
            outs.append(x * (i + 1))
        return tf.stack(outs, 0)


class DictInLoop(tf.Module):
    def __call__(self, x):
        stats = {}
        for name in ["mean", "max"]:
            stats[name] = tf.reduce_mean(x, 0) if name == "mean" else tf.reduce_max(x, 0)
        stats["range"] = stats["max"] - stats["mean"]
        return stats


class RangeOfTensor(tf.Module):
    def __call__(self, x, steps):
        for _ in tf.range(steps):
            x = x * 0.5 + 1
        return x


class WhileNorm(tf.Module):
    def __call__(self, x):
        i = 0
        while tf.norm(x) > 1 and i < 10:
            x = x / 2
            i += 1
        return x


class WhileLoopApi(tf.Module):
    def __call__(self, x):
        limit = tf.reduce_sum(tf.abs(x))
        _, acc = tf.while_loop(lambda i, acc: tf.reduce_sum(acc) < limit * 2.5, lambda i, acc: (i + 1, acc + tf.abs(x)),
                               [tf.constant(0), tf.zeros_like(x)])
        return acc


class EarlyReturn(tf.Module):
    def __call__(self, x):
        if tf.reduce_mean(x) > 0:
            return tf.exp(x)
        return tf.sqrt(x * x)


class KerasConv(tf.keras.Model):
    def __init__(self):
        super().__init__()
        tf.keras.utils.set_random_seed(0)
        self.conv = tf.keras.layers.Conv2D(4, 3, padding="same", activation="relu")
        self.pool = tf.keras.layers.MaxPool2D(2)
        self.flat = tf.keras.layers.Flatten()
        self.head = tf.keras.layers.Dense(5)

    def call(self, x):
        return self.head(self.flat(self.pool(self.conv(x))))


class KerasRecurrent(tf.keras.Model):
    def __init__(self):
        super().__init__()
        tf.keras.utils.set_random_seed(0)
        self.rnn = tf.keras.layers.GRU(6, return_state=True)

    def call(self, x):
        out, h = self.rnn(x)
        return out + h


class KerasEmbedding(tf.keras.Model):
    def __init__(self):
        super().__init__()
        tf.keras.utils.set_random_seed(0)
        self.emb = tf.keras.layers.Embedding(10, 4)

    def call(self, tokens):
        return tf.reduce_mean(self.emb(tokens), 1)


class KerasAttention(tf.keras.Model):
    def __init__(self):
        super().__init__()
        tf.keras.utils.set_random_seed(0)
        self.attn = tf.keras.layers.MultiHeadAttention(2, 4)
        self.norm = tf.keras.layers.LayerNormalization()

    def call(self, x):
        return self.norm(x + tf.nn.gelu(self.attn(x, x)))


class BoolFlag(tf.Module):
    def __call__(self, x, normalize: bool = False):
        if normalize:
            x = x / tf.norm(x, axis=-1, keepdims=True)
        return x + 1


class IntegerOutputs(tf.Module):
    def __call__(self, x):
        return tf.argmax(x, -1), x > 0


class ListOfTensors(tf.Module):
    def __call__(self, xs):
        return tf.reduce_sum(tf.concat(xs, -1), -1)


class MaskedFill(tf.Module):
    def __call__(self, scores, lengths):
        mask = tf.sequence_mask(lengths, tf.shape(scores)[1])
        return tf.nn.softmax(tf.where(mask, scores, -1e9), -1)


class TensorArrayLoop(tf.Module):
    def __call__(self, x):
        ta = tf.TensorArray(tf.float32, size=tf.shape(x)[0])
        for i in tf.range(tf.shape(x)[0]):
            ta = ta.write(i, tf.reduce_sum(x[i]))
        return ta.stack()


def _x(seed=0):
    return _randn(4, 6, seed=seed)


MODELS = {
    "dense": (Dense, lambda: ([_x()], {})),
    "cond_closure": (CondClosure, lambda: ([_x()], {})),
    "if_tensor": (IfTensor, lambda: ([_x()], {})),
    "shape_guard": (ShapeGuard, lambda: ([_randn(6, 3)], {})),
    "dict_input": (DictInput, lambda: ([{"image": _randn(2, 3, 5), "bias": _randn(2, 3, seed=1)}], {})),
    "pytree": (Pytree, lambda: ([{"pair": [_x(), _x(1)], "rest": [_x(2), _x(3)]}], {})),
    "keyword_tensor": (KeywordTensor, lambda: ([_x()], {"mask": tf.cast(_x(1) > 0, tf.float32)})),
    "optional_omitted": (OptionalOmitted, lambda: ([_x()], {})),
    "optional_middle": (OptionalMiddle, lambda: ([_x(), None, _x(1)], {})),
    "int_argument": (IntArgument, lambda: ([_x(), 3], {})),
    "float_keyword": (FloatKeyword, lambda: ([_x()], {"scale": 0.5})),
    "float_positional": (FloatPositional, lambda: ([_x(), 0.5], {})),
    "string_mode": (StringMode, lambda: ([_x(), "max"], {})),
    "zero_dim_tensor": (ZeroDimTensor, lambda: ([_x(), tf.constant(2.0)], {})),
    "int32_index": (Int32Index, lambda: ([_x(), tf.constant([3, 0, 1], tf.int32)], {})),
    "int32_scalar": (Int32Scalar, lambda: ([_x(), tf.constant(2, tf.int32)], {})),
    "attribute_mutation": (AttributeMutation, lambda: ([_x()], {})),
    "if_bool_input": (IfBoolInput, lambda: ([_x(), tf.constant(True)], {})),
    "list_in_loop": (ListInLoop, lambda: ([_x()], {})),
    "dict_in_loop": (DictInLoop, lambda: ([_x()], {})),
    "range_of_tensor": (RangeOfTensor, lambda: ([_x(), tf.constant(3)], {})),
    "while_norm": (WhileNorm, lambda: ([_x() * 3], {})),
    "while_loop_api": (WhileLoopApi, lambda: ([_x()], {})),
    "early_return": (EarlyReturn, lambda: ([_x()], {})),
    "keras_conv": (KerasConv, lambda: ([_randn(2, 8, 8, 3)], {})),
    "keras_recurrent": (KerasRecurrent, lambda: ([_randn(2, 5, 4)], {})),
    "keras_embedding": (KerasEmbedding, lambda: ([tf.constant([[1, 2, 3], [4, 5, 9]])], {})),
    "keras_attention": (KerasAttention, lambda: ([_randn(2, 5, 8)], {})),
    "bool_flag": (BoolFlag, lambda: ([_x()], {"normalize": True})),
    "integer_outputs": (IntegerOutputs, lambda: ([_x()], {})),
    "list_of_tensors": (ListOfTensors, lambda: ([[_x(), _x(1)]], {})),
    "masked_fill": (MaskedFill, lambda: ([_randn(3, 5), tf.constant([2, 5, 3])], {})),
    "tensor_array_loop": (TensorArrayLoop, lambda: ([_x()], {})),
}
