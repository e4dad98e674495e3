"""Op records: one declarative record per op.

Each :class:`OpRecord` holds what the generator, the type checker and the renderers need:

* ``infer``: the shape and dtype rule (raises :class:`~conformance.ir.ProgramError` when the
  arguments do not fit);
* ``domain``: which argument value ranges are valid (``log`` needs positive inputs, ``exp``
  bounded ones), and ``bound``: the value range of the result — together they keep generated
  programs free of NaN and overflow by construction;
* ``attrs``: how the generator draws the op's attributes; ``params``: the weights it needs;
* ``emit``: one source template per framework (``{0}`` is the first argument, ``{p0}`` the first
  weight, ``{float}`` the float dtype, other names are attributes). A framework without a template
  cannot render the op yet;
* ``probe``: the result jumps at a threshold (``cmp``: a comparison of two operands; ``int``: a cast
  to int), so the oracle's branch-flip guard watches how close the operands come to it;
* ``view`` / ``inplace``: the result may alias the first argument / the op writes into it. The
  generator applies in-place ops only to variables that nothing else aliases (never an input, a
  view, or a variable a view was taken of), so the program means the same in a framework without
  in-place ops;
* ``tolerance``: notes on numerical behaviour, shown in the generated ops table;
* ``differs``: per framework, why its eager result differs from the other frameworks' by design (a
  rounding mode, integer division); the cross-framework check (``tests/test_cross_framework.py``)
  leaves that framework out on programs using the op, and ``conformance ops`` shows it;
* ``train_layer``: the op means something else in ``train()`` and ``eval()`` or under autograd (dropout,
  batch norm, detach); the generator draws it only for programs with the ``train_layers`` construct
  (gradient and training-step campaigns), so the default case stream is unchanged;
* ``helpers``: per framework, module-level source the emitter calls (rendered once into the model file
  of a program that uses the op), for ops a framework has no single function for.

``OPS`` maps names to records; ``conformance ops`` prints the table.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Optional, Sequence

from conformance.program.ir import DYNAMIC, ProgramError, TensorType

Interval = tuple[float, float]

#: Largest batch size a dynamic dimension takes; used for value bounds of reductions over it.
MAX_BATCH = 6
#: Generated values stay within this magnitude (keeps fp32 far from overflow).
MAX_ABS = 1e4
#: Float keyword arguments take values in this range.
FLOAT_KWARG_RANGE = (-2.0, 2.0)


def _hull(*xs: float) -> Interval:
    return (min(xs), max(xs))


def _size(d) -> int:
    return MAX_BATCH if d == DYNAMIC else d


def _need(ok: bool, msg: str) -> None:
    if not ok:
        raise ProgramError(msg)


def broadcast(a: tuple, b: tuple) -> tuple:
    """NumPy broadcasting of two shapes with the dynamic dim as a symbol; raises if they do not fit."""
    out = []
    for i in range(1, max(len(a), len(b)) + 1):
        x = a[-i] if i <= len(a) else 1
        y = b[-i] if i <= len(b) else 1
        if x == y or y == 1:
            out.append(x)
        elif x == 1:
            out.append(y)
        else:
            raise ProgramError(f"shapes {list(a)} and {list(b)} do not broadcast")
    return tuple(reversed(out))


def _axis(t: TensorType, attrs: Mapping) -> int:
    d = attrs["dim"]
    _need(-t.rank <= d < t.rank, f"dim {d} out of range for {t}")
    return d % t.rank


@dataclass(frozen=True)
class OpRecord:
    name: str
    family: str
    arity: int
    doc: str
    infer: Callable[[Sequence[TensorType], Mapping], TensorType]
    bound: Callable[[Sequence[Interval], Mapping, Sequence[TensorType]], Interval]
    emit: Mapping[str, str]
    domain: Callable[[Sequence[Interval], Sequence[TensorType]], bool] = lambda ivs, ts: True
    attrs: Optional[Callable[[Any, Sequence[TensorType]], dict]] = None  # (draw, types) -> attrs
    params: Callable[[Sequence[TensorType], Mapping], list[tuple[tuple[int, ...], float]]] = lambda ts, a: []
    arg_dtypes: tuple[str, ...] = ("float32",)
    probe: Optional[str] = None  # "cmp" (two operands) or "int" (one): the result jumps at a threshold
    view: bool = False  # the result may share memory with the first argument (reshape, slicing...)
    inplace: bool = False  # writes into its first argument, which is also the statement's target
    tolerance: str = ""
    differs: Mapping[str, str] = field(default_factory=dict)
    train_layer: bool = False
    helpers: Mapping[str, str] = field(default_factory=dict)
    frameworks: tuple[str, ...] = field(init=False, default=())

    def __post_init__(self):
        object.__setattr__(self, "frameworks", tuple(sorted(self.emit)))

    @property
    def discontinuous(self) -> bool:
        return self.probe is not None

    def check(self, types: Sequence[TensorType], attrs: Mapping) -> TensorType:
        _need(len(types) == self.arity, f"{self.name} takes {self.arity} arguments, got {len(types)}")
        for i, (t, want) in enumerate(zip(types, self.arg_dtypes * self.arity)):
            if want != "any":
                _need(t.dtype == want, f"{self.name} argument {i} must be {want}, got {t}")
        return self.infer(types, attrs)


OPS: dict[str, OpRecord] = {}


def op(**kw) -> OpRecord:
    rec = OpRecord(**kw)
    OPS[rec.name] = rec
    return rec


class Weight(tuple):
    """What ``OpRecord.params`` returns per weight: the pair ``(shape, scale)`` (so it unpacks as one),
    with ``offset`` (values uniform in offset ± scale) and ``trainable`` (False: state such as batch-norm
    running statistics, a buffer that optimizers leave alone) as attributes."""

    def __new__(cls, shape, scale: float, offset: float = 0.0, trainable: bool = True):
        self = super().__new__(cls, (tuple(shape), scale))
        self.offset, self.trainable = offset, trainable
        return self


def _fw(torch: str, paddle: str, tf: str) -> dict:
    """Emitters of one op for torch, paddle and tensorflow."""
    return {"torch": torch, "paddle": paddle, "tf": tf}


def _every(tpl: str) -> dict:
    """An emitter written the same way in every framework (Python operators, indexing)."""
    return _fw(tpl, tpl, tpl)


_TF_REDUCE = {"sum": "sum", "mean": "mean", "amax": "max", "amin": "min"}


def _same(ts, a):
    return ts[0]


def _mono(f):
    """Bound of a monotone increasing elementwise function."""
    return lambda ivs, a, ts: (f(ivs[0][0]), f(ivs[0][1]))


def _within(lo=-math.inf, hi=math.inf):
    return lambda ivs, ts: lo <= ivs[0][0] and ivs[0][1] <= hi


def _st():
    import hypothesis.strategies as st

    return st


def _sigmoid(x):
    if x < 0:
        e = math.exp(x)
        return e / (1 + e)
    return 1 / (1 + math.exp(-x))


def _softplus(x):
    return math.log1p(math.exp(-abs(x))) + max(x, 0.0)


# ---------------------------------------------------------------- unary elementwise


def unary(name, family, emit, bound, doc, domain=None, tolerance="", **kw):
    return op(name=name, family=family, arity=1, doc=doc, infer=_same, bound=bound,
              emit=emit, domain=domain or (lambda ivs, ts: True), tolerance=tolerance, **kw)


unary("neg", "elementwise", _every("-{0}"), lambda ivs, a, ts: (-ivs[0][1], -ivs[0][0]), "negation")
unary("abs", "elementwise", _fw("torch.abs({0})", "paddle.abs({0})", "tf.abs({0})"),
      lambda ivs, a, ts: (0.0 if ivs[0][0] <= 0 <= ivs[0][1] else min(map(abs, ivs[0])), max(map(abs, ivs[0]))),
      "absolute value")
unary("square", "elementwise", _every("{0} * {0}"),
      lambda ivs, a, ts: (0.0 if ivs[0][0] <= 0 <= ivs[0][1] else min(x * x for x in ivs[0]),
                          max(x * x for x in ivs[0])), "x * x")
unary("exp", "elementwise", _fw("torch.exp({0})", "paddle.exp({0})", "tf.exp({0})"), _mono(math.exp), "exponential",
      domain=_within(hi=6.0), tolerance="vectorised exp differs by ~1 ulp between kernels")
unary("log", "elementwise", _fw("torch.log({0})", "paddle.log({0})", "tf.math.log({0})"), _mono(math.log), "natural log", domain=_within(lo=0.05))
unary("sqrt", "elementwise", _fw("torch.sqrt({0})", "paddle.sqrt({0})", "tf.sqrt({0})"), _mono(math.sqrt), "square root (inputs >= 0.05: the slope at 0 is "
      "infinite and would amplify rounding without bound)", domain=_within(lo=0.05))
unary("sin", "elementwise", _fw("torch.sin({0})", "paddle.sin({0})", "tf.sin({0})"), lambda ivs, a, ts: (-1.0, 1.0), "sine", domain=_within(-100, 100))
unary("cos", "elementwise", _fw("torch.cos({0})", "paddle.cos({0})", "tf.cos({0})"), lambda ivs, a, ts: (-1.0, 1.0), "cosine", domain=_within(-100, 100))
unary("relu", "activation", _fw("torch.relu({0})", "F.relu({0})", "tf.nn.relu({0})"), _mono(lambda x: max(x, 0.0)), "rectified linear unit")
unary("sigmoid", "activation", _fw("torch.sigmoid({0})", "F.sigmoid({0})", "tf.sigmoid({0})"), _mono(_sigmoid), "logistic sigmoid")
unary("tanh", "activation", _fw("torch.tanh({0})", "paddle.tanh({0})", "tf.tanh({0})"), _mono(math.tanh), "hyperbolic tangent")
unary("gelu", "activation", _fw("F.gelu({0})", "F.gelu({0})", "tf.nn.gelu({0}, approximate=False)"), lambda ivs, a, ts: (-0.17, max(ivs[0][1], 0.0)),
      "GELU (erf form)", tolerance="erf approximations differ by a few ulp")
unary("silu", "activation", _fw("F.silu({0})", "F.silu({0})", "tf.nn.silu({0})"), lambda ivs, a, ts: (-0.28, max(ivs[0][1], 0.0)), "SiLU / swish")
unary("softplus", "activation", _fw("F.softplus({0})", "F.softplus({0})", "tf.nn.softplus({0})"), _mono(_softplus), "log(1 + exp(x))", domain=_within(hi=50))
unary("leaky_relu", "activation",
      _fw("F.leaky_relu({0}, {slope})", "F.leaky_relu({0}, {slope})", "tf.nn.leaky_relu({0}, alpha={slope})"),
      lambda ivs, a, ts: tuple(x if x > 0 else x * a["slope"] for x in ivs[0]), "leaky ReLU",
      attrs=lambda draw, ts: {"slope": draw(_st().sampled_from([0.1, 0.01, 0.2]))})
unary("clamp", "elementwise",
      _fw("torch.clamp({0}, {lo}, {hi})", "paddle.clip({0}, {lo}, {hi})", "tf.clip_by_value({0}, {lo}, {hi})"),
      lambda ivs, a, ts: (min(max(ivs[0][0], a["lo"]), a["hi"]), max(min(ivs[0][1], a["hi"]), a["lo"])),
      "clamp to [lo, hi]",
      attrs=lambda draw, ts: dict(zip(("lo", "hi"), draw(_st().sampled_from([(-1.0, 1.0), (0.0, 1.0),
                                                                            (-0.5, 2.0), (0.0, 6.0)])))))
unary("add_scalar", "elementwise", _every("{0} + {c}"), lambda ivs, a, ts: (ivs[0][0] + a["c"], ivs[0][1] + a["c"]),
      "add a constant", attrs=lambda draw, ts: {"c": draw(_st().sampled_from([1.0, -0.5, 0.25, 2.0, -1.5]))})
unary("mul_scalar", "elementwise", _every("{0} * {c}"), lambda ivs, a, ts: _hull(ivs[0][0] * a["c"], ivs[0][1] * a["c"]),
      "multiply by a constant", attrs=lambda draw, ts: {"c": draw(_st().sampled_from([2.0, 0.5, -1.0, 3.0, -0.25]))})
# mul_kwarg is drawn by the generator only when the program has a float kwarg (it names the kwarg).
unary("mul_kwarg", "elementwise", _every("{0} * {kwarg}"),
      lambda ivs, a, ts: _hull(*(x * c for x in ivs[0] for c in FLOAT_KWARG_RANGE)),
      "multiply by a float keyword argument")

# ---------------------------------------------------------------- binary elementwise


def _binary_infer(ts, a):
    return TensorType(broadcast(ts[0].shape, ts[1].shape), ts[0].dtype)


def _interval_mul(x, y):
    return _hull(x[0] * y[0], x[0] * y[1], x[1] * y[0], x[1] * y[1])


def binary(name, emit, bound, doc, domain=None, **kw):
    return op(name=name, family="elementwise", arity=2, doc=doc, infer=_binary_infer, bound=bound,
              emit=emit, domain=domain or (lambda ivs, ts: True), **kw)


binary("add", _every("{0} + {1}"), lambda ivs, a, ts: (ivs[0][0] + ivs[1][0], ivs[0][1] + ivs[1][1]), "addition (broadcasting)")
binary("sub", _every("{0} - {1}"), lambda ivs, a, ts: (ivs[0][0] - ivs[1][1], ivs[0][1] - ivs[1][0]), "subtraction (broadcasting)")
binary("mul", _every("{0} * {1}"), lambda ivs, a, ts: _interval_mul(ivs[0], ivs[1]), "multiplication (broadcasting)")
binary("div", _every("{0} / {1}"), lambda ivs, a, ts: _interval_mul(ivs[0], (1 / ivs[1][1], 1 / ivs[1][0])),
       "true division (broadcasting); the divisor stays away from zero",
       domain=lambda ivs, ts: ivs[1][0] >= 0.1 or ivs[1][1] <= -0.1)
binary("maximum", _fw("torch.maximum({0}, {1})", "paddle.maximum({0}, {1})", "tf.maximum({0}, {1})"),
       lambda ivs, a, ts: (max(ivs[0][0], ivs[1][0]), max(ivs[0][1], ivs[1][1])),
       "elementwise maximum")
binary("minimum", _fw("torch.minimum({0}, {1})", "paddle.minimum({0}, {1})", "tf.minimum({0}, {1})"),
       lambda ivs, a, ts: (min(ivs[0][0], ivs[1][0]), min(ivs[0][1], ivs[1][1])),
       "elementwise minimum")

# ---------------------------------------------------------------- reductions


def _reduce_infer(ts, a):
    t = ts[0]
    d = _axis(t, a)
    shape = list(t.shape)
    if a["keepdim"]:
        shape[d] = 1
    else:
        del shape[d]
    return TensorType(tuple(shape), t.dtype)


def _reduce_attrs(draw, ts):
    st = _st()
    return {"dim": draw(st.integers(-ts[0].rank, ts[0].rank - 1)), "keepdim": draw(st.booleans())}


def reduction(name, bound, doc, tolerance=""):
    emit = _fw(f"torch.{name}({{0}}, dim={{dim}}, keepdim={{keepdim}})",
               f"paddle.{name}({{0}}, axis={{dim}}, keepdim={{keepdim}})",
               f"tf.reduce_{_TF_REDUCE[name]}({{0}}, axis={{dim}}, keepdims={{keepdim}})")
    return op(name=name, family="reduction", arity=1, doc=doc, infer=_reduce_infer, bound=bound,
              emit=emit, attrs=_reduce_attrs, tolerance=tolerance,
              domain=lambda ivs, ts: ts[0].rank >= 1)


def _reduced(ts, a):
    return _size(ts[0].shape[_axis(ts[0], a)])


reduction("sum", lambda ivs, a, ts: (min(0, ivs[0][0]) * _reduced(ts, a), max(0, ivs[0][1]) * _reduced(ts, a)),
          "sum over one dim", tolerance="reduction order differs between kernels: judged against fp64")
reduction("mean", lambda ivs, a, ts: ivs[0], "mean over one dim",
          tolerance="reduction order differs between kernels: judged against fp64")
reduction("amax", lambda ivs, a, ts: ivs[0], "max over one dim")
reduction("amin", lambda ivs, a, ts: ivs[0], "min over one dim")


def _dim_attr(draw, ts):
    return {"dim": draw(_st().integers(-ts[0].rank, ts[0].rank - 1))}


op(name="softmax", family="activation", arity=1, doc="softmax over one dim",
   emit=_fw("torch.softmax({0}, dim={dim})", "F.softmax({0}, axis={dim})", "tf.nn.softmax({0}, axis={dim})"),
   infer=lambda ts, a: (_axis(ts[0], a), ts[0])[1], bound=lambda ivs, a, ts: (0.0, 1.0), attrs=_dim_attr,
   domain=lambda ivs, ts: ts[0].rank >= 1)
op(name="log_softmax", family="activation", arity=1, doc="log-softmax over one dim",
   emit=_fw("torch.log_softmax({0}, dim={dim})", "F.log_softmax({0}, axis={dim})",
            "tf.nn.log_softmax({0}, axis={dim})"), infer=lambda ts, a: (_axis(ts[0], a), ts[0])[1],
   bound=lambda ivs, a, ts: (-(ivs[0][1] - ivs[0][0]) - math.log(_reduced(ts, a)) - 1, 0.0), attrs=_dim_attr,
   domain=lambda ivs, ts: ts[0].rank >= 1)

# ---------------------------------------------------------------- linear algebra


def _static_last(ts):
    return ts[0].rank >= 1 and isinstance(ts[0].shape[-1], int)


def _linear_infer(ts, a):
    t = ts[0]
    _need(t.rank >= 1 and isinstance(t.shape[-1], int), f"linear needs a static last dim, got {t}")
    return TensorType(t.shape[:-1] + (a["out_features"],), t.dtype)


op(name="linear", family="linalg", arity=1, doc="x @ W.T + b with a weight W[out, in] and a bias b[out]",
   emit=_fw("F.linear({0}, {p0}, {p1})", "paddle.matmul({0}, {p0}, transpose_y=True) + {p1}",
            "tf.einsum('...i,oi->...o', {0}, {p0}) + {p1}"), infer=_linear_infer,
   domain=lambda ivs, ts: _static_last(ts),
   attrs=lambda draw, ts: {"out_features": draw(_st().integers(1, 6))},
   params=lambda ts, a: [((a["out_features"], ts[0].shape[-1]), 0.5), ((a["out_features"],), 0.5)],
   bound=lambda ivs, a, ts: _hull(*(s * (ts[0].shape[-1] * max(map(abs, ivs[0])) * 0.5 + 0.5) for s in (-1, 1))),
   tolerance="blocked matmul sums in a different order: judged against fp64")


def _matmul_infer(ts, a):
    x, y = ts
    _need(x == y and x.rank >= 2, f"matmul here multiplies x by y transposed, same shapes of rank >= 2; got {x}, {y}")
    return TensorType(x.shape[:-1] + (x.shape[-2],), x.dtype)


op(name="matmul", family="linalg", arity=2, doc="x @ y.transpose(-2, -1) (attention scores)",
   emit=_fw("torch.matmul({0}, {1}.transpose(-2, -1))", "paddle.matmul({0}, {1}, transpose_y=True)",
            "tf.matmul({0}, {1}, transpose_b=True)"), infer=_matmul_infer,
   domain=lambda ivs, ts: ts[0] == ts[1] and ts[0].rank >= 2,
   bound=lambda ivs, a, ts: _hull(*(s * _size(ts[0].shape[-1]) * max(map(abs, ivs[0])) * max(map(abs, ivs[1]))
                                    for s in (-1, 1))),
   tolerance="blocked matmul sums in a different order: judged against fp64")


def _conv_infer(ts, a):
    t = ts[0]
    _need(t.rank == 4 and all(isinstance(d, int) for d in t.shape[1:]), f"conv2d needs [N, C, H, W], got {t}")
    k, p = a["kernel"], a["padding"]
    h, w = t.shape[2] + 2 * p - k + 1, t.shape[3] + 2 * p - k + 1
    _need(h >= 1 and w >= 1, f"conv2d kernel {k} does not fit {t} with padding {p}")
    return TensorType((t.shape[0], a["out_channels"], h, w), t.dtype)


def _conv_domain(ivs, ts):
    t = ts[0]
    return t.rank == 4 and all(isinstance(d, int) for d in t.shape[1:]) and min(t.shape[2:]) >= 1


def _conv_attrs(draw, ts):
    st = _st()
    k = draw(st.sampled_from([1, 3, 2]))
    smallest = min(ts[0].shape[2:])
    min_pad = max(0, -(-(k - smallest) // 2))  # output size h + 2p - k + 1 >= 1
    return {"out_channels": draw(st.integers(1, 4)), "kernel": k,
            "padding": draw(st.integers(min_pad, max(min_pad, k // 2)))}


op(name="conv2d", family="linalg", arity=1, doc="2-D convolution with a weight [out, in, k, k] and a bias",
   emit=_fw("F.conv2d({0}, {p0}, {p1}, padding={padding})", "F.conv2d({0}, {p0}, {p1}, padding={padding})",
            # TensorFlow's CPU kernels want NHWC and a [k, k, in, out] filter
            "tf.transpose(tf.nn.conv2d(tf.transpose({0}, [0, 2, 3, 1]), tf.transpose({p0}, [2, 3, 1, 0]), 1, "
            "[[0, 0], [{padding}, {padding}], [{padding}, {padding}], [0, 0]]) + {p1}, [0, 3, 1, 2])"), infer=_conv_infer, domain=_conv_domain,
   attrs=_conv_attrs,
   params=lambda ts, a: [((a["out_channels"], ts[0].shape[1], a["kernel"], a["kernel"]), 0.5),
                         ((a["out_channels"],), 0.5)],
   bound=lambda ivs, a, ts: _hull(*(s * (ts[0].shape[1] * a["kernel"] ** 2 * max(map(abs, ivs[0])) * 0.5 + 0.5)
                                    for s in (-1, 1))),
   tolerance="convolution algorithms sum in different orders: judged against fp64")


def _ln_infer(ts, a):
    _need(_static_last(ts), f"layer_norm needs a static last dim, got {ts[0]}")
    return ts[0]


op(name="layer_norm", family="linalg", arity=1, doc="layer norm over the last dim, with weight and bias",
   # paddle's layer_norm refuses a 1-D input (begin_norm_axis must be > 0, paddle 3.3): add a leading dim
   emit=_fw("F.layer_norm({0}, [{n}], {p0}, {p1})", "F.layer_norm({0}.unsqueeze(0), [{n}], {p0}, {p1}).squeeze(0)",
            "tf.nn.batch_normalization({0}, tf.reduce_mean({0}, -1, keepdims=True), "
            "tf.math.reduce_variance({0}, -1, keepdims=True), {p1}, {p0}, 1e-5)"), infer=_ln_infer,
   domain=lambda ivs, ts: _static_last(ts) and ts[0].shape[-1] >= 2 and ivs[0][1] - ivs[0][0] > 0,
   attrs=lambda draw, ts: {"n": ts[0].shape[-1]},
   params=lambda ts, a: [((a["n"],), 0.5), ((a["n"],), 0.5)],
   bound=lambda ivs, a, ts: (-(math.sqrt(a["n"]) * 0.5 + 0.5), math.sqrt(a["n"]) * 0.5 + 0.5),
   tolerance="near-constant rows amplify rounding; the fp64 reference decides")

# ---------------------------------------------------------------- shapes and indexing


def _flatten_infer(ts, a):
    t = ts[0]
    _need(t.rank >= 3 and all(isinstance(d, int) for d in t.shape[1:]), f"flatten(x, 1) here needs rank >= 3 with static trailing dims, got {t}")
    return TensorType((t.shape[0], math.prod(t.shape[1:])), t.dtype)


def _keep(ivs, a, ts):
    return ivs[0]


op(name="flatten", family="shape", arity=1, view=True, doc="flatten all dims after the first", arg_dtypes=("any",),
   emit=_fw("torch.flatten({0}, 1)", "paddle.flatten({0}, 1)", "tf.reshape({0}, [tf.shape({0})[0], -1])"),
   infer=_flatten_infer, bound=_keep,
   domain=lambda ivs, ts: ts[0].rank >= 3 and all(isinstance(d, int) for d in ts[0].shape[1:]))


def _reshape_infer(ts, a):
    t = ts[0]
    new = tuple(a["shape"])
    _need(all(isinstance(d, int) for d in t.shape), f"reshape needs static shapes, got {t}")
    _need(math.prod(new) == math.prod(t.shape), f"cannot reshape {t} to {list(new)}")
    return TensorType(new, t.dtype)


def _reshape_attrs(draw, ts):
    n = math.prod(ts[0].shape)
    divs = [d for d in range(1, n + 1) if n % d == 0]
    first = draw(_st().sampled_from(divs))
    rest = n // first
    return {"shape": draw(_st().sampled_from([(first, rest), (rest, first), (n,), (first, 1, rest)]))}


op(name="reshape", family="shape", arity=1, view=True, doc="reshape to a static shape", arg_dtypes=("any",),
   emit=_fw("{0}.reshape({shape_args})", "paddle.reshape({0}, [{shape_args}])", "tf.reshape({0}, [{shape_args}])"),
   infer=_reshape_infer, bound=_keep, attrs=_reshape_attrs,
   domain=lambda ivs, ts: ts[0].rank >= 1 and all(isinstance(d, int) for d in ts[0].shape))


def _unsqueeze_infer(ts, a):
    t = ts[0]
    d = a["dim"]
    _need(0 <= d <= t.rank, f"unsqueeze dim {d} out of range for {t}")
    return TensorType(t.shape[:d] + (1,) + t.shape[d:], t.dtype)


op(name="unsqueeze", family="shape", arity=1, view=True, doc="insert a dim of size 1", arg_dtypes=("any",),
   emit=_fw("torch.unsqueeze({0}, {dim})", "paddle.unsqueeze({0}, {dim})", "tf.expand_dims({0}, {dim})"),
   infer=_unsqueeze_infer, bound=_keep,
   attrs=lambda draw, ts: {"dim": draw(_st().integers(0, ts[0].rank))}, domain=lambda ivs, ts: ts[0].rank <= 3)


def _transpose_infer(ts, a):
    t = ts[0]
    d0, d1 = a["dims"]
    _need(0 <= d0 < t.rank and 0 <= d1 < t.rank, f"transpose dims {a['dims']} out of range for {t}")
    shape = list(t.shape)
    shape[d0], shape[d1] = shape[d1], shape[d0]
    return TensorType(tuple(shape), t.dtype)


op(name="transpose", family="shape", arity=1, view=True, doc="swap two dims", arg_dtypes=("any",),
   emit=_fw("torch.transpose({0}, {dims[0]}, {dims[1]})", "paddle.transpose({0}, {perm})", "tf.transpose({0}, {perm})"),
   infer=_transpose_infer, bound=_keep,
   attrs=lambda draw, ts: {"dims": tuple(draw(_st().lists(_st().integers(0, ts[0].rank - 1), min_size=2, max_size=2,
                                                          unique=True)))},
   domain=lambda ivs, ts: ts[0].rank >= 2)


def _concat_infer(ts, a):
    x, y = ts
    d = _axis(x, a)
    _need(x == y and isinstance(x.shape[d], int), f"concat here joins two equal types along a static dim, got {x}, {y}")
    shape = list(x.shape)
    shape[d] *= 2
    return TensorType(tuple(shape), x.dtype)


op(name="concat", family="shape", arity=2, doc="concatenate two tensors of the same shape along a static dim",
   emit=_fw("torch.cat([{0}, {1}], dim={dim})", "paddle.concat([{0}, {1}], axis={dim})", "tf.concat([{0}, {1}], axis={dim})"),
   infer=_concat_infer,
   bound=lambda ivs, a, ts: (min(ivs[0][0], ivs[1][0]), max(ivs[0][1], ivs[1][1])),
   domain=lambda ivs, ts: ts[0] == ts[1] and any(isinstance(d, int) for d in ts[0].shape),
   attrs=lambda draw, ts: {"dim": draw(_st().sampled_from([i for i, d in enumerate(ts[0].shape) if isinstance(d, int)]))})


def _static_dims(t: TensorType, min_size=1):
    return [i for i, d in enumerate(t.shape) if isinstance(d, int) and d >= min_size]


def _slice_infer(ts, a):
    t = ts[0]
    d, start, stop = a["dim"], a["start"], a["stop"]
    _need(0 <= d < t.rank and isinstance(t.shape[d], int) and 0 <= start < stop <= t.shape[d],
          f"slice {start}:{stop} on dim {d} does not fit {t}")
    shape = list(t.shape)
    shape[d] = stop - start
    return TensorType(tuple(shape), t.dtype)


def _slice_attrs(draw, ts):
    st = _st()
    t = ts[0]
    d = draw(st.sampled_from(_static_dims(t, 2)))
    start = draw(st.integers(0, t.shape[d] - 1))
    stop = draw(st.integers(start + 1, t.shape[d]))
    return {"dim": d, "start": start, "stop": stop}


op(name="slice", family="shape", arity=1, view=True, doc="basic slicing x[..., start:stop] along a static dim",
   arg_dtypes=("any",), emit=_every("{0}[{index_prefix}{start}:{stop}]"), infer=_slice_infer, bound=_keep,
   attrs=_slice_attrs, domain=lambda ivs, ts: bool(_static_dims(ts[0], 2)))


def _index_infer(ts, a):
    t = ts[0]
    d, i = a["dim"], a["index"]
    _need(0 <= d < t.rank and isinstance(t.shape[d], int) and 0 <= i < t.shape[d], f"index {i} on dim {d} does not fit {t}")
    return TensorType(t.shape[:d] + t.shape[d + 1:], t.dtype)


def _index_attrs(draw, ts):
    d = draw(_st().sampled_from(_static_dims(ts[0])))
    return {"dim": d, "index": draw(_st().integers(0, ts[0].shape[d] - 1))}


op(name="index", family="shape", arity=1, view=True, doc="integer indexing x[..., i], dropping the dim", arg_dtypes=("any",),
   emit=_every("{0}[{index_prefix}{index}]"), infer=_index_infer, bound=_keep, attrs=_index_attrs,
   domain=lambda ivs, ts: ts[0].rank >= 2 and bool(_static_dims(ts[0])))

# ---------------------------------------------------------------- comparisons, where, casts


def _cmp_infer(ts, a):
    return TensorType(broadcast(ts[0].shape, ts[1].shape), "bool")


op(name="gt", family="comparison", arity=2, doc="x > y (broadcasting), a bool tensor", emit=_every("{0} > {1}"),
   infer=_cmp_infer, bound=lambda ivs, a, ts: (0.0, 1.0), probe="cmp",
   tolerance="flips where x is within rounding of y: watched by the branch-flip guard")
op(name="lt", family="comparison", arity=2, doc="x < y (broadcasting), a bool tensor", emit=_every("{0} < {1}"),
   infer=_cmp_infer, bound=lambda ivs, a, ts: (0.0, 1.0), probe="cmp",
   tolerance="flips where x is within rounding of y: watched by the branch-flip guard")


def _where_infer(ts, a):
    c, x, y = ts
    _need(c.dtype == "bool" and x.dtype == y.dtype == "float32", f"where(cond, x, y) needs bool, float, float; got {c}, {x}, {y}")
    return TensorType(broadcast(broadcast(c.shape, x.shape), y.shape), x.dtype)


op(name="where", family="comparison", arity=3, doc="torch.where(cond, x, y)", arg_dtypes=("any",),
   emit=_fw("torch.where({0}, {1}, {2})", "paddle.where({0}, {1}, {2})", "tf.where({0}, {1}, {2})"),
   infer=_where_infer,
   bound=lambda ivs, a, ts: (min(ivs[1][0], ivs[2][0]), max(ivs[1][1], ivs[2][1])))


def _cast_infer(dtype, src):
    def infer(ts, a):
        _need(ts[0].dtype in src, f"cast to {dtype} takes {' or '.join(src)}, got {ts[0]}")
        return TensorType(ts[0].shape, dtype)
    return infer


op(name="to_int", family="cast", arity=1, doc="cast float to int64 (truncation toward zero)",
   emit=_fw("{0}.to(torch.int64)", "paddle.cast({0}, paddle.int64)", "tf.cast({0}, tf.int64)"),
   infer=_cast_infer("int64", ("float32",)),
   bound=lambda ivs, a, ts: (float(math.trunc(ivs[0][0])), float(math.trunc(ivs[0][1]))), probe="int",
   tolerance="jumps at integers: watched by the branch-flip guard")
op(name="to_float", family="cast", arity=1, doc="cast int64 or bool to float", arg_dtypes=("any",),
   emit=_fw("{0}.to({float})", "paddle.cast({0}, {float})", "tf.cast({0}, {float})"),
   infer=_cast_infer("float32", ("int64", "bool")), bound=_keep,
   domain=lambda ivs, ts: ts[0].dtype in ("int64", "bool"))


# ---------------------------------------------------------------- in-place updates


def _inplace_infer(ts, a):
    _need(broadcast(ts[0].shape, ts[1].shape) == ts[0].shape, f"in-place result must keep the shape of {ts[0]}, "
                                                               f"got {ts[1]} broadcast into it")
    return ts[0]


op(name="add_", family="inplace", arity=2, inplace=True, doc="x.add_(y): in-place addition (y broadcasts into x)",
   emit=_fw("{0}.add_({1})", "{0}.add_({1})", "{0} + {1}"), infer=_inplace_infer,
   bound=lambda ivs, a, ts: (ivs[0][0] + ivs[1][0], ivs[0][1] + ivs[1][1]))
op(name="mul_", family="inplace", arity=2, inplace=True, doc="x.mul_(y): in-place multiplication",
   emit=_fw("{0}.mul_({1})", "{0}.multiply_({1})", "{0} * {1}"), infer=_inplace_infer, bound=lambda ivs, a, ts: _interval_mul(ivs[0], ivs[1]))
op(name="clamp_", family="inplace", arity=1, inplace=True, doc="x.clamp_(lo, hi): in-place clamp",
   emit=_fw("{0}.clamp_({lo}, {hi})", "{0}.clip_({lo}, {hi})", "tf.clip_by_value({0}, {lo}, {hi})"),
   infer=_same, bound=OPS["clamp"].bound, attrs=OPS["clamp"].attrs)
op(name="relu_", family="inplace", arity=1, inplace=True, doc="x.relu_(): in-place ReLU",
   emit=_fw("{0}.relu_()", "F.relu_({0})", "tf.nn.relu({0})"), infer=_same, bound=OPS["relu"].bound)


# ---------------------------------------------------------------- train/eval-dependent layers and autograd
# Drawn only for programs with the ``train_layers`` construct (see OpRecord.train_layer).

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


op(name="dropout", family="train", arity=1, train_layer=True, view=True,  # eval() returns its argument itself
   doc="dropout with probability p in train() (identity in eval()); p = 0, or a seeded generator",
   emit=_fw("F.dropout({0}, p={p}, training=self.training)", "F.dropout({0}, p={p}, training=self.training)",
            "_dropout({0}, {p}, {key}, self.training)"),
   helpers={"tf": _TF_DROPOUT}, infer=_same, bound=_dropout_bound,
   attrs=lambda draw, ts: {"p": draw(_st().sampled_from([0.0, 0.5, 0.25])), "key": draw(_st().integers(0, 999))},
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
    _need(2 <= t.rank <= 4 and isinstance(t.shape[1], int), f"batch_norm needs [N, C, ...] with a static C, got {t}")
    _need(_bn_count(t, 2) >= 2, f"batch_norm in train() needs more than one value per channel, got {t}")
    return t


def _bn_bound(ivs, a, ts):
    train = 0.5 * math.sqrt(_bn_count(ts[0], MAX_BATCH) - 1) + 0.5  # |x - mean| <= sqrt(n - 1) * std
    evaluate = (max(map(abs, ivs[0])) + 0.5) / math.sqrt(0.75) * 0.5 + 0.5  # running var >= 0.75
    return (-max(train, evaluate), max(train, evaluate))


op(name="batch_norm", family="train", arity=1, train_layer=True,
   doc="batch norm over every dim but dim 1, with weight, bias and running statistics (momentum 0.1 in "
       "torch's convention, Paddle's 0.9; eps 1e-5)",
   emit=_fw("F.batch_norm({0}, {p2}, {p3}, {p0}, {p1}, training=self.training, momentum=0.1, eps=1e-05)",
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

op(name="detach", family="train", arity=1, train_layer=True, view=True,
   doc="the same values, cut from autograd (no gradient flows back through it)",
   emit=_fw("{0}.detach()", "{0}.detach()", "tf.stop_gradient({0})"), infer=_same, bound=_keep)


def check_op(name: str) -> OpRecord:
    try:
        return OPS[name]
    except KeyError:
        raise ProgramError(f"unknown op {name!r}; known ops: {', '.join(sorted(OPS))}") from None
