"""PaddlePaddle models as users write them: data-dependent ``if`` and ``while`` (to_static turns them into
``cond`` and ``while_loop``), closures, dynamic-shape guards, pytree and dict inputs, keyword and optional
inputs, attribute mutation, ``if tensor:``, lists and dicts built in loops, ``range(tensor)``, int32 and
scalar inputs (see :mod:`tests.user_models`)."""

from __future__ import annotations

import numpy as np
import paddle
from paddle import nn


def _randn(*shape, seed: int = 0) -> paddle.Tensor:
    return paddle.to_tensor(np.random.default_rng(seed).standard_normal(shape).astype("float32"))


class _Seeded(nn.Layer):
    def __init__(self):
        super().__init__()
        paddle.seed(0)


class MLP(_Seeded):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 3))

    def forward(self, x):
        return self.net(x)


class CondClosure(_Seeded):
    """``paddle.static.nn.cond`` whose branches close over a parameter and a local tensor."""

    def __init__(self):
        super().__init__()
        self.scale = self.create_parameter([1], default_initializer=nn.initializer.Constant(1.5))

    def forward(self, x):
        offset = x.mean()
        return paddle.static.nn.cond(x.sum() > 0, lambda: x * self.scale + offset, lambda: x - offset)


class IfTensor(nn.Layer):
    def forward(self, x):
        if x.sum() > 0:
            y = x * 2
        else:
            y = x - 1
        return y


class ShapeGuard(nn.Layer):
    def forward(self, x):
        if x.shape[0] > 4:
            return x[:4] * 2
        return x + 1


class DictInput(nn.Layer):
    def forward(self, batch):
        return batch["image"].mean(-1) + batch["bias"]


class Pytree(nn.Layer):
    def forward(self, inputs):
        a, b = inputs["pair"]
        return {"sum": a + b, "rest": [t * 2 for t in inputs["rest"]]}


class KeywordTensor(nn.Layer):
    def forward(self, x, mask=None):
        if mask is not None:
            x = x * mask
        return x.sum(-1)


class OptionalOmitted(nn.Layer):
    def forward(self, x, bias=None):
        if bias is None:
            return x * 3
        return x * 3 + bias


class OptionalMiddle(nn.Layer):
    def forward(self, x, mask=None, y=None):
        out = x
        if mask is not None:
            out = out * mask
        if y is not None:
            out = out + y
        return out


class IntArgument(nn.Layer):
    def forward(self, x, repeats: int):
        for _ in range(repeats):
            x = paddle.tanh(x)
        return x


class FloatKeyword(nn.Layer):
    def forward(self, x, scale: float = 1.0):
        return x * scale + 1


class StringMode(nn.Layer):
    def forward(self, x, reduction: str = "sum"):
        if reduction == "max":
            return x.max(-1)
        return x.sum(-1)


class ZeroDimTensor(nn.Layer):
    def forward(self, x, temperature):
        return nn.functional.softmax(x / temperature, -1)


class Int32Index(nn.Layer):
    def forward(self, x, idx):
        return paddle.index_select(x, idx, axis=0) * 2


class Int32Arithmetic(nn.Layer):
    def forward(self, x, counts):
        return x * counts.astype("float32").unsqueeze(-1) + counts.sum().astype("float32")


class Int32Slice(nn.Layer):
    def forward(self, x, k):
        return x[:k] + k.astype("float32")


class AttributeMutation(nn.Layer):
    def __init__(self):
        super().__init__()
        self.calls = 0

    def forward(self, x):
        self.calls += 1
        return nn.functional.relu(x) + 1


class IfBoolInput(nn.Layer):
    def forward(self, x, flag):
        if flag:
            return x + 1
        return x - 1


class ListInLoop(nn.Layer):
    def forward(self, x):
        outs = []
        for i in range(3):
            outs.append(x * (i + 1))
        return paddle.stack(outs, 0)


class DictInLoop(nn.Layer):
    def forward(self, x):
        stats = {}
        for name in ["mean", "max"]:
            stats[name] = x.mean(0) if name == "mean" else x.max(0)
        stats["range"] = stats["max"] - stats["mean"]
        return stats


class RangeOfTensor(nn.Layer):
    def forward(self, x, steps):
        for _ in range(steps):
            x = x * 0.5 + 1
        return x


class WhileNorm(nn.Layer):
    def forward(self, x):
        i = 0
        while x.norm() > 1 and i < 10:
            x = x / 2
            i += 1
        return x


class EarlyReturn(nn.Layer):
    def forward(self, x):
        if x.mean() > 0:
            return paddle.exp(x)
        y = x * x
        return paddle.sqrt(y)


class ConvBlock(_Seeded):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2D(3, 4, 3, padding=1), nn.BatchNorm2D(4), nn.ReLU(), nn.MaxPool2D(2))
        self.head = nn.Linear(4 * 4 * 4, 5)

    def forward(self, x):
        return self.head(self.features(x).flatten(1))


class Recurrent(_Seeded):
    def __init__(self):
        super().__init__()
        self.rnn = nn.GRU(4, 6)

    def forward(self, x):
        out, h = self.rnn(x)
        return out[:, -1] + h[0]


class Embedding(_Seeded):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 4)

    def forward(self, tokens):
        return self.emb(tokens).mean(1)


class Attention(_Seeded):
    def __init__(self):
        super().__init__()
        self.attn = nn.MultiHeadAttention(8, 2)
        self.norm = nn.LayerNorm(8)

    def forward(self, x):
        return self.norm(x + nn.functional.gelu(self.attn(x, x, x)))


class LayerDictChoice(_Seeded):
    def __init__(self):
        super().__init__()
        self.heads = nn.LayerDict({"a": nn.Linear(4, 2), "b": nn.Linear(4, 3)})

    def forward(self, x, head: str = "a"):
        return self.heads[head](x)


class BoolFlag(nn.Layer):
    def forward(self, x, normalize: bool = False):
        if normalize:
            x = x / x.norm(axis=-1, keepdim=True)
        return x + 1


class IntegerOutputs(nn.Layer):
    def forward(self, x):
        return x.argmax(-1), x > 0


class ListOfTensors(nn.Layer):
    def forward(self, xs):
        return paddle.concat(xs, -1).sum(-1)


class MaskedFill(nn.Layer):
    def forward(self, scores, lengths):
        positions = paddle.arange(scores.shape[1]).unsqueeze(0)
        mask = positions >= lengths.unsqueeze(1)
        return nn.functional.softmax(paddle.where(mask, paddle.full_like(scores, -1e9), scores), -1)


class WhileLoopApi(nn.Layer):
    """``paddle.static.nn.while_loop`` with a closure over the input."""

    def forward(self, x):
        limit = x.abs().sum()

        def cond(i, acc):
            return acc.sum() < limit * 2.5  # three iterations, well clear of rounding

        def body(i, acc):
            return i + 1, acc + x.abs()

        _, acc = paddle.static.nn.while_loop(cond, body, [paddle.zeros([1], "int64"), paddle.zeros_like(x)])
        return acc


class ScalarTensorAdd(nn.Layer):
    def forward(self, x, shift):
        return x + shift * 2


def _x(seed=0):
    return _randn(4, 6, seed=seed)


MODELS = {
    "mlp": (MLP, lambda: ([_x()], {})),
    "cond_closure": (CondClosure, lambda: ([_x()], {})),
    "if_tensor": (IfTensor, lambda: ([_x()], {})),
    "shape_guard": (ShapeGuard, lambda: ([_randn(6, 3)], {})),
    "dict_input": (DictInput, lambda: ([{"image": _randn(2, 3, 5), "bias": _randn(2, 3, seed=1)}], {})),
    "pytree": (Pytree, lambda: ([{"pair": [_x(), _x(1)], "rest": [_x(2), _x(3)]}], {})),
    "keyword_tensor": (KeywordTensor, lambda: ([_x()], {"mask": (_x(1) > 0).astype("float32")})),
    "optional_omitted": (OptionalOmitted, lambda: ([_x()], {})),
    "optional_middle": (OptionalMiddle, lambda: ([_x(), None, _x(1)], {})),
    "int_argument": (IntArgument, lambda: ([_x(), 3], {})),
    "float_keyword": (FloatKeyword, lambda: ([_x()], {"scale": 0.5})),
    "string_mode": (StringMode, lambda: ([_x(), "max"], {})),
    "zero_dim_tensor": (ZeroDimTensor, lambda: ([_x(), paddle.to_tensor(2.0)], {})),
    "int32_index": (Int32Index, lambda: ([_x(), paddle.to_tensor([3, 0, 1], dtype="int32")], {})),
    "int32_arithmetic": (Int32Arithmetic, lambda: ([_x(), paddle.to_tensor([1, 2, 3, 4], dtype="int32")], {})),
    "int32_slice": (Int32Slice, lambda: ([_x(), paddle.to_tensor(2, dtype="int32")], {})),
    "attribute_mutation": (AttributeMutation, lambda: ([_x()], {})),
    "if_bool_input": (IfBoolInput, lambda: ([_x(), paddle.to_tensor(True)], {})),
    "list_in_loop": (ListInLoop, lambda: ([_x()], {})),
    "dict_in_loop": (DictInLoop, lambda: ([_x()], {})),
    "range_of_tensor": (RangeOfTensor, lambda: ([_x(), paddle.to_tensor(3)], {})),
    "while_norm": (WhileNorm, lambda: ([_x() * 3], {})),
    "early_return": (EarlyReturn, lambda: ([_x()], {})),
    "conv_block": (ConvBlock, lambda: ([_randn(2, 3, 8, 8)], {})),
    "recurrent": (Recurrent, lambda: ([_randn(2, 5, 4)], {})),
    "embedding": (Embedding, lambda: ([paddle.to_tensor([[1, 2, 3], [4, 5, 9]])], {})),
    "attention": (Attention, lambda: ([_randn(2, 5, 8)], {})),
    "layer_dict_choice": (LayerDictChoice, lambda: ([_randn(3, 4)], {"head": "b"})),
    "bool_flag": (BoolFlag, lambda: ([_x()], {"normalize": True})),
    "integer_outputs": (IntegerOutputs, lambda: ([_x()], {})),
    "list_of_tensors": (ListOfTensors, lambda: ([[_x(), _x(1)]], {})),
    "masked_fill": (MaskedFill, lambda: ([_randn(3, 5), paddle.to_tensor([2, 5, 3])], {})),
    "while_loop_api": (WhileLoopApi, lambda: ([_x()], {})),
    "scalar_tensor_add": (ScalarTensorAdd, lambda: ([_x(), paddle.to_tensor(0.5)], {})),
}
