"""PyTorch models as users write them: closures under ``torch.cond``, dynamic-shape guards, pytree and dict
inputs, keyword and optional inputs, attribute mutation, ``if tensor:``, lists and dicts built in loops,
``range(tensor)``, int and scalar inputs (see :mod:`tests.user_models`)."""

from __future__ import annotations

from typing import Dict, List, Optional

import torch
from torch import nn


def _randn(*shape, seed: int = 0) -> torch.Tensor:
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.net = nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 3))

    def forward(self, x):
        return self.net(x)


class CondClosure(nn.Module):
    """``torch.cond`` whose branches close over a module attribute and a local tensor."""

    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.tensor(1.5))

    def forward(self, x):
        offset = x.mean()

        def then(x):
            return x * self.scale + offset

        def orelse(x):
            return x - offset

        return torch.cond(x.sum() > 0, then, orelse, (x,))


class CondOperands(nn.Module):
    def forward(self, x, y):
        return torch.cond(x.max() > y.max(), lambda a, b: a + b, lambda a, b: a - b, (x, y))


class CheckIsSize(nn.Module):
    """``.item()`` of a tensor fed to a slice, guarded with ``torch._check`` as export's docs advise."""

    def forward(self, x, n):
        k = n.item()
        torch._check_is_size(k)
        torch._check(k <= x.shape[0])
        return x[:k].sum(0)


class ShapeGuard(nn.Module):
    def forward(self, x):
        if x.shape[0] > 4:
            return x[:4] * 2
        return x + 1


class DictInput(nn.Module):
    def forward(self, batch: Dict[str, torch.Tensor]):
        return batch["image"].mean(-1) + batch["bias"]


class IntKeyedDict(nn.Module):
    def forward(self, feats: Dict[int, torch.Tensor]):
        return feats[0] * 2 + feats[1]


class Pytree(nn.Module):
    def forward(self, inputs: Dict[str, List[torch.Tensor]]):
        a, b = inputs["pair"]
        return {"sum": a + b, "rest": [t * 2 for t in inputs["rest"]]}


class KeywordTensor(nn.Module):
    def forward(self, x, mask=None):
        if mask is not None:
            x = x * mask
        return x.sum(-1)


class OptionalOmitted(nn.Module):
    def forward(self, x, bias: Optional[torch.Tensor] = None):
        if bias is None:
            return x * 3
        return x * 3 + bias


class OptionalMiddle(nn.Module):
    def forward(self, x, mask: Optional[torch.Tensor] = None, y: Optional[torch.Tensor] = None):
        out = x
        if mask is not None:
            out = out * mask
        if y is not None:
            out = out + y
        return out


class IntArgument(nn.Module):
    def forward(self, x, repeats: int):
        for _ in range(repeats):
            x = torch.tanh(x)
        return x


class FloatKeyword(nn.Module):
    def forward(self, x, scale: float = 1.0):
        return x * scale + 1


class StringMode(nn.Module):
    def forward(self, x, reduction: str = "sum"):
        if reduction == "max":
            return x.max(-1).values
        return x.sum(-1)


class ZeroDimTensor(nn.Module):
    def forward(self, x, temperature):
        return torch.softmax(x / temperature, -1)


class Int32Index(nn.Module):
    def forward(self, x, idx):
        return x.index_select(0, idx) * 2


class AttributeMutation(nn.Module):
    """Writes attributes in ``forward`` (a cache of the last input's shape and a call counter)."""

    def __init__(self):
        super().__init__()
        self.calls = 0
        self.last_shape = None

    def forward(self, x):
        self.calls += 1
        self.last_shape = x.shape
        return x.relu() + 1


class IfTensor(nn.Module):
    def forward(self, x):
        if (x > 1).any():
            x = x.clamp(max=1)
        return x * 2


class IfBoolInput(nn.Module):
    def forward(self, x, flag):
        if flag:
            return x + 1
        return x - 1


class ListInLoop(nn.Module):
    def forward(self, x):
        outs = []
        for i in range(3):
            outs.append(x * (i + 1))
        return torch.stack(outs, 0)


class DictInLoop(nn.Module):
    def forward(self, x):
        stats = {}
        for name in ["mean", "max"]:
            stats[name] = x.mean(0) if name == "mean" else x.max(0).values
        stats["range"] = stats["max"] - stats["mean"]
        return stats


class RangeOfTensor(nn.Module):
    def forward(self, x, steps):
        for _ in range(int(steps)):
            x = x * 0.5 + 1
        return x


class WhileNorm(nn.Module):
    def forward(self, x):
        i = 0
        while x.norm() > 1 and i < 10:
            x = x / 2
            i += 1
        return x


class EarlyReturn(nn.Module):
    def forward(self, x):
        if x.mean() > 0:
            return x.exp()
        y = x * x
        return y.sqrt()


class ConvBlock(nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.features = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(),
                                      nn.MaxPool2d(2))
        self.head = nn.Linear(4 * 4 * 4, 5)

    def forward(self, x):
        return self.head(self.features(x).flatten(1))


class Recurrent(nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.rnn = nn.GRU(4, 6, batch_first=True)

    def forward(self, x):
        out, h = self.rnn(x)
        return out[:, -1] + h[0]


class Embedding(nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.emb = nn.Embedding(10, 4)

    def forward(self, tokens):
        return self.emb(tokens).mean(1)


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.attn = nn.MultiheadAttention(8, 2, batch_first=True)
        self.norm = nn.LayerNorm(8)

    def forward(self, x):
        out, _ = self.attn(x, x, x, need_weights=False)
        return self.norm(x + nn.functional.gelu(out))


class ModuleDictChoice(nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.heads = nn.ModuleDict({"a": nn.Linear(4, 2), "b": nn.Linear(4, 3)})

    def forward(self, x, head: str = "a"):
        return self.heads[head](x)


class BoolFlag(nn.Module):
    def forward(self, x, normalize: bool = False):
        if normalize:
            x = x / x.norm(dim=-1, keepdim=True)
        return x + 1


class VarArgs(nn.Module):
    def forward(self, *xs):
        total = xs[0]
        for x in xs[1:]:
            total = total + x
        return total


class InPlaceOnInput(nn.Module):
    def forward(self, x):
        x.mul_(2)
        x[:, 0] = 0
        return x + 1


class IntegerOutputs(nn.Module):
    def forward(self, x):
        return x.argmax(-1), x > 0


class ListOfTensors(nn.Module):
    def forward(self, xs: List[torch.Tensor]):
        return torch.cat(xs, -1).sum(-1)


class MaskedFill(nn.Module):
    def forward(self, scores, lengths):
        positions = torch.arange(scores.shape[1]).unsqueeze(0)
        mask = positions >= lengths.unsqueeze(1)
        return scores.masked_fill(mask, float("-inf")).softmax(-1)


def _x(seed=0):
    return _randn(4, 6, seed=seed)


MODELS = {
    "mlp": (MLP, lambda: ([_x()], {})),
    "cond_closure": (CondClosure, lambda: ([_x()], {})),
    "cond_operands": (CondOperands, lambda: ([_x(), _x(1)], {})),
    "check_is_size": (CheckIsSize, lambda: ([_x(), torch.tensor(2)], {})),
    "shape_guard": (ShapeGuard, lambda: ([_randn(6, 3)], {})),
    "dict_input": (DictInput, lambda: ([{"image": _randn(2, 3, 5), "bias": _randn(2, 3, seed=1)}], {})),
    "int_keyed_dict": (IntKeyedDict, lambda: ([{0: _x(), 1: _x(1)}], {})),
    "pytree": (Pytree, lambda: ([{"pair": [_x(), _x(1)], "rest": [_x(2), _x(3)]}], {})),
    "keyword_tensor": (KeywordTensor, lambda: ([_x()], {"mask": (_x(1) > 0).float()})),
    "optional_omitted": (OptionalOmitted, lambda: ([_x()], {})),
    "optional_middle": (OptionalMiddle, lambda: ([_x(), None, _x(1)], {})),
    "int_argument": (IntArgument, lambda: ([_x(), 3], {})),
    "float_keyword": (FloatKeyword, lambda: ([_x()], {"scale": 0.5})),
    "string_mode": (StringMode, lambda: ([_x(), "max"], {})),
    "zero_dim_tensor": (ZeroDimTensor, lambda: ([_x(), torch.tensor(2.0)], {})),
    "int32_index": (Int32Index, lambda: ([_x(), torch.tensor([3, 0, 1], dtype=torch.int32)], {})),
    "attribute_mutation": (AttributeMutation, lambda: ([_x()], {})),
    "if_tensor": (IfTensor, lambda: ([_x() * 2], {})),
    "if_bool_input": (IfBoolInput, lambda: ([_x(), torch.tensor(True)], {})),
    "list_in_loop": (ListInLoop, lambda: ([_x()], {})),
    "dict_in_loop": (DictInLoop, lambda: ([_x()], {})),
    "range_of_tensor": (RangeOfTensor, lambda: ([_x(), torch.tensor(3)], {})),
    "while_norm": (WhileNorm, lambda: ([_x() * 3], {})),
    "early_return": (EarlyReturn, lambda: ([_x()], {})),
    "conv_block": (ConvBlock, lambda: ([_randn(2, 3, 8, 8)], {})),
    "recurrent": (Recurrent, lambda: ([_randn(2, 5, 4)], {})),
    "embedding": (Embedding, lambda: ([torch.tensor([[1, 2, 3], [4, 5, 9]])], {})),
    "attention": (Attention, lambda: ([_randn(2, 5, 8)], {})),
    "module_dict_choice": (ModuleDictChoice, lambda: ([_randn(3, 4)], {"head": "b"})),
    "bool_flag": (BoolFlag, lambda: ([_x()], {"normalize": True})),
    "var_args": (VarArgs, lambda: ([_x(), _x(1), _x(2)], {})),
    "in_place_on_input": (InPlaceOnInput, lambda: ([_x()], {})),
    "integer_outputs": (IntegerOutputs, lambda: ([_x()], {})),
    "list_of_tensors": (ListOfTensors, lambda: ([[_x(), _x(1)]], {})),
    "masked_fill": (MaskedFill, lambda: ([_randn(3, 5), torch.tensor([2, 5, 3])], {})),
}
