"""PaddlePaddle conversion paths: dygraph (the reference), ``paddle.jit.to_static`` (AST transcription
and SOT bytecode translation), ``paddle.jit.save`` then ``paddle.jit.load``, a Paddle Inference
predictor on the saved model, and ``paddle.onnx.export`` (paddle2onnx) run on onnxruntime.

Every path that builds a static program is given the ``input_spec`` a user writes by hand for the
model (:func:`input_spec`): nested lists, tuples and dicts of ``InputSpec``, ``None`` for the dynamic
(batch) dim, and the non-tensor arguments as plain values. Paddle then builds the program for those
values: a static program, a saved model, a predictor and an ONNX graph all run with the example's
non-tensor arguments whatever a later call passes (``specializes={"kwargs"}``). The saved model,
the predictor and the ONNX graph take the tensors flattened and return a flat list of outputs.
"""

from __future__ import annotations

import atexit
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
from typing import Optional

os.environ.setdefault("GLOG_minloglevel", "1")  # Paddle's C++ INFO lines would crowd the captured output

import numpy as np  # noqa: E402
import paddle  # noqa: E402

from ..case import flatten, map_tree  # noqa: E402
from ..ir import DYNAMIC, DictSpec, Program, SeqSpec, Spec, TensorSpec  # noqa: E402
from . import FRAMEWORKS, Autograd, ConvertContext, FlatOutputs, Framework, Limitation, PathRecord, register  # noqa: E402
from .ort import OrtModel  # noqa: E402


def _place(device: str):
    return paddle.CUDAPlace(0) if device == "cuda" else paddle.CPUPlace()


def _setup() -> None:
    """Once per case: CPU for the reference, dygraph mode, and Paddle's executor cache emptied.

    Paddle keeps the executor of every static program it ran (with its thread pool: five threads
    per to_static conversion here) in a global cache, even after the converted layer is freed. A
    worker converting hundreds of models would run out of threads and address space (cases hang or
    segfault); :func:`paddle.base.core.clear_executor_cache` frees them, and no converted model of
    an earlier case is alive when the next case starts.
    """
    paddle.set_device("cpu")  # converted models are placed explicitly; the reference runs on the CPU
    paddle.disable_static()
    paddle.base.core.clear_executor_cache()


def _to_tensor(a: np.ndarray, device: str, fp64: bool):
    a = np.array(a, copy=True)  # a copy: a path that writes into its inputs must not change the saved ones
    if fp64 and a.dtype.kind == "f":
        a = a.astype(np.float64)
    return paddle.to_tensor(a, place=_place(device))


def _to_numpy(x):
    if isinstance(x, paddle.Tensor):
        return x.numpy().copy()
    if isinstance(x, (list, tuple)):
        return type(x)(_to_numpy(i) for i in x)
    if isinstance(x, dict):
        return {k: _to_numpy(v) for k, v in x.items()}
    return np.asarray(x)


def _prepare(model, device: str, fp64: bool):
    model.eval()
    model.to(device=_place(device), dtype="float64" if fp64 else None)
    return model


def _call(model, args, kwargs):
    with paddle.no_grad():
        return model(*args, **kwargs)


def _devices() -> list[str]:
    gpu = paddle.device.is_compiled_with_cuda() and paddle.device.cuda.device_count() > 0
    return ["cpu"] + (["cuda"] if gpu else [])


def _versions() -> dict:
    out = {"paddle": paddle.__version__}
    for mod in ("paddle2onnx", "onnxruntime", "onnx"):
        try:
            out[mod] = __import__(mod).__version__
        except ImportError:
            pass
    return out


_REPRO_FRAMEWORK = '''
def make_model():
    model = Model()
    model.eval()
    return model


def call(fn, args, kwargs):
    with paddle.no_grad():
        return fn(*args, **kwargs)


def to_numpy(x):
    return x.numpy() if isinstance(x, paddle.Tensor) else np.asarray(x)
'''

# ------------------------------------------------------------------ autograd (grad and train modes)


def _set_training(model, training: bool) -> None:
    model.train() if training else model.eval()


def _backward(forward, args, kwargs, weights, params):
    """See :class:`~conformance.paths.Autograd`: ``paddle.grad`` of the loss head, None for a tensor the
    loss does not reach."""
    from ..training import loss_terms

    wrt = []

    def leaf(a):
        if isinstance(a, paddle.Tensor) and a.is_floating_point():
            a = a.detach()
            a.stop_gradient = False
            wrt.append(a)
        return a

    args = map_tree(leaf, args)
    outputs = forward(*args, **kwargs)
    terms = [(o * paddle.to_tensor(w, dtype=o.dtype, place=o.place)).sum()
             for o, w in loss_terms(outputs, weights) if isinstance(o, paddle.Tensor) and o.is_floating_point()]
    loss = sum(terms[1:], terms[0]) if terms else None
    targets = wrt + list(params)
    if loss is not None and not loss.stop_gradient and targets:
        grads = list(paddle.grad([loss], targets, allow_unused=True))
    else:
        grads = [None] * len(targets)
    return outputs, None if loss is None else loss.detach(), grads[:len(wrt)], grads[len(wrt):]


def _optimizer(kind: str, params: list, lr: float):
    make = {"sgd": paddle.optimizer.SGD, "adam": paddle.optimizer.Adam}[kind]
    opt = make(learning_rate=lr, parameters=params) if params else None

    def step(grads):
        for p, g in zip(params, grads):
            p.clear_gradient(False)  # no gradient: the optimizer skips the parameter
            if g is not None:
                p._set_grad_ivar(g)
        if opt is not None:
            opt.step()
    return step


def _assign(t, a) -> None:
    t.set_value(np.asarray(a).astype("float64" if t.dtype == paddle.float64 else "float32"))


AUTOGRAD = Autograd(_set_training, _backward, _optimizer, _assign, paddle.seed)

FRAMEWORKS["paddle"] = Framework("paddle", lambda: paddle.__version__, _to_tensor, _to_numpy, _prepare, _call,
                                 _devices, _setup, _versions, repro=_REPRO_FRAMEWORK, autograd=AUTOGRAD)


# ------------------------------------------------------------------ InputSpec


def input_spec(program: Program, kwargs: dict, names: list[str]) -> list:
    """The ``input_spec`` a user writes for ``program``'s ``forward``, in its parameter order.

    Each tensor input becomes an ``InputSpec`` (``None`` for the dynamic dim, the leaf's dtype, its
    flat name from ``names``), nested in lists, tuples and dicts as the input is; each non-tensor
    argument is its value in ``kwargs``.
    """
    flat = iter(names)

    def spec(s: Spec):
        if isinstance(s, TensorSpec):
            shape = [None if d == DYNAMIC else d for d in s.shape]
            return paddle.static.InputSpec(shape, s.dtype, name=next(flat))
        if isinstance(s, SeqSpec):
            items = [spec(i) for i in s.items]
            return items if s.kind == "list" else tuple(items)
        if isinstance(s, DictSpec):
            return {k: spec(v) for k, v in s.items}
        raise TypeError(f"not an input spec: {s!r}")

    return [spec(i.spec) for i in program.inputs] + [kwargs[k.name] for k in program.kwargs]


# ------------------------------------------------------------------ dygraph, to_static


def _eager(ctx: ConvertContext):
    return ctx.model


def _clear_sot_cache() -> None:
    """Forget SOT's translations, as a fresh process would (Paddle's own SOT tests do the same).

    SOT caches translated bytecode by code-object *equality*: a model whose ``forward`` compiles to
    the same bytecode as one converted earlier in the process (another generated module, differing
    only in weights or default values) would run that module's translation and fail with a
    ``NameError`` on its generated globals. Clearing keeps every case independent and replayable.
    """
    from paddle.jit.sot.opcode_translator.executor.executor_cache import OpcodeExecutorCache

    OpcodeExecutorCache().clear()


def _to_static(full_graph: bool):
    def convert(ctx: ConvertContext):
        # SOT ignores input_spec (it warns so) and guards on what it sees instead: given only to AST.
        spec = input_spec(ctx.program, ctx.kwargs, ctx.tensor_names) if full_graph else None
        if not full_graph:
            _clear_sot_cache()
        static = paddle.jit.to_static(ctx.model, input_spec=spec, full_graph=full_graph)
        _call(static, ctx.args, ctx.kwargs)  # convert now: transcription errors are conversion errors
        return static
    return convert


# ------------------------------------------------------------------ jit.save, Paddle Inference, paddle2onnx


def _save(ctx: ConvertContext) -> str:
    """``paddle.jit.save`` of the model converted with its input_spec; returns the path prefix."""
    spec = input_spec(ctx.program, ctx.kwargs, ctx.tensor_names)
    static = paddle.jit.to_static(ctx.model, input_spec=spec, full_graph=True)
    prefix = str(ctx.workdir / "model")
    paddle.jit.save(static, prefix)
    return prefix


class _Flat:
    """A converted model that takes the tensors flattened (kwargs were fixed when saving) and
    returns a flat list of outputs."""

    def __init__(self, fn):
        self.fn = fn

    def __call__(self, *args, **kwargs):
        out = self.fn(*flatten(list(args)))
        return FlatOutputs(_to_numpy(t) for t in (out if isinstance(out, (list, tuple)) else [out]))


def _jit_load(ctx: ConvertContext):
    return _Flat(paddle.jit.load(_save(ctx)))


def _inference(ctx: ConvertContext):
    prefix = _save(ctx)
    config = paddle.inference.Config(prefix + ".json", prefix + ".pdiparams")
    if ctx.device == "cuda":
        config.enable_use_gpu(256, 0)
    else:
        config.disable_gpu()
        config.set_cpu_math_library_num_threads(1)
    config.disable_glog_info()
    return _Predictor(paddle.inference.create_predictor(config), ctx.tensor_names)


class _Predictor:
    """A Paddle Inference predictor fed by input name (numpy in, numpy out)."""

    def __init__(self, predictor, names: list[str]):
        self.predictor = predictor
        self.names = names
        unknown = set(predictor.get_input_names()) - set(names)
        if unknown:
            raise RuntimeError(f"the predictor has inputs {sorted(unknown)} that are not model inputs {names}")

    def __call__(self, *args, **kwargs):
        leaves = dict(zip(self.names, (_to_numpy(t) for t in flatten(list(args)))))
        for name in self.predictor.get_input_names():
            handle = self.predictor.get_input_handle(name)
            handle.reshape(leaves[name].shape)
            handle.copy_from_cpu(np.ascontiguousarray(leaves[name]))
        self.predictor.run()
        return FlatOutputs(self.predictor.get_output_handle(n).copy_to_cpu() for n in self.predictor.get_output_names())


def _onnx(ctx: ConvertContext):
    """What ``paddle.onnx.export(model, prefix, input_spec)`` does, in its two steps: ``paddle.jit.save``
    here, then ``paddle2onnx.export`` of the saved model (opset 9, its defaults) in a process of its own
    (:mod:`conformance.paths.paddle2onnx_server`), because paddle2onnx ends its process on an error:
    ``sys.exit(-1)`` after logging, or ``abort()`` for an operator it cannot convert. Such an end
    becomes an error naming what paddle2onnx logged."""
    spec = input_spec(ctx.program, ctx.kwargs, ctx.tensor_names)
    saved, onnx_file = ctx.workdir / "saved" / "model", ctx.workdir / "model.onnx"
    paddle.jit.save(ctx.model, str(saved), input_spec=spec)
    onnx_file.unlink(missing_ok=True)
    status, log = PADDLE2ONNX.export(str(saved) + ".json", str(saved) + ".pdiparams", str(onnx_file))
    if status != 0 or not onnx_file.exists():
        how = f"was killed by {signal.Signals(-status).name}" if status < 0 else f"exited with status {status}"
        errors = [line.strip() for line in log.splitlines() if re.search(r"\[ERROR\]|Error:", line)]
        raise RuntimeError(f"paddle2onnx.export {how}" + (": " + " | ".join(errors[:4]) if errors else
                                                          ", and wrote no ONNX model"))
    return OrtModel(onnx_file, ctx.device, ctx.tensor_names, _to_numpy)


class Paddle2OnnxServer:
    """``paddle2onnx.export`` in a process of its own: started on the first export, reused, and
    started again after an export that ended it. Its environment is this process's at start."""

    def __init__(self):
        self.proc: Optional[subprocess.Popen] = None
        self.startup_log = ""

    def export(self, model: str, params: str, out: str, opset: int = 9) -> tuple[int, str]:
        """(status: 0, an exit status, or minus the signal that ended the server; what it printed).
        What it printed also goes to this process's fd 1, where the runner captures framework output."""
        if self.proc is None or self.proc.poll() is not None:
            self.start()
        fd, log_path = tempfile.mkstemp(prefix="paddle2onnx-", suffix=".log")
        os.close(fd)
        try:
            self.proc.stdin.write(json.dumps({"model": model, "params": params, "out": out, "opset": opset,
                                              "log": log_path}) + "\n")
            self.proc.stdin.flush()
            reply = self.proc.stdout.readline()
        except BrokenPipeError:
            reply = ""
        with open(log_path, errors="replace") as f:
            log = f.read()
        os.unlink(log_path)
        if reply:
            status = json.loads(reply)["status"]
        else:  # the export (or the server's start) ended the process
            status = self.proc.wait()
            with open(self.startup_log, errors="replace") as f:
                log = f.read()[-2000:] + log
            self.close()
            if status < 0:  # an abort or a crash: its successor imports paddle2onnx while other paths run
                self.start()
        log = _ANSI.sub("", log)
        os.write(1, log.encode())
        return status, log

    def start(self) -> None:
        """Start a server (it imports paddle2onnx in the background; requests wait for it)."""
        self.startup_log = tempfile.mkstemp(prefix="paddle2onnx-server-", suffix=".log")[1]
        self.proc = subprocess.Popen([sys.executable, "-m", "conformance.paths.paddle2onnx_server", self.startup_log],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def close(self) -> None:
        """End the server (the next export starts a new one, e.g. with another environment)."""
        if self.proc is not None:
            try:
                self.proc.stdin.close()
            except BrokenPipeError:  # it has ended already
                pass
            self.proc.wait()
            self.proc.stdout.close()
            self.proc = None
            os.unlink(self.startup_log)


PADDLE2ONNX = Paddle2OnnxServer()
atexit.register(PADDLE2ONNX.close)


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _run(artifact, args, kwargs):
    return artifact(*args, **kwargs)


# ------------------------------------------------------------------ reproducer snippets (conformance triage)
# Each is the conversion above written for a standalone script (see PathRecord.repro); they use the
# model file's imports and the reproducer's LEAF_NAMES, DYNAMIC_AXES, HERE, call and flatten.

_REPRO_INPUT_SPEC = '''
def input_spec(args, kwargs):
    """The input_spec a user writes: InputSpecs nested as the inputs are (None for the dynamic dim),
    then the non-tensor arguments as values."""
    names = iter(LEAF_NAMES)

    def spec(value):
        if isinstance(value, paddle.Tensor):
            name = next(names)
            shape = [None if axis in DYNAMIC_AXES[name] else n for axis, n in enumerate(value.shape)]
            return paddle.static.InputSpec(shape, value.dtype, name=name)
        if isinstance(value, dict):
            return {k: spec(v) for k, v in value.items()}
        return type(value)(spec(v) for v in value)

    return [spec(a) for a in args] + list(kwargs.values())
'''

_REPRO_SAVE = _REPRO_INPUT_SPEC + '''

def save(model, args, kwargs):
    prefix = os.path.join(HERE, "saved", "model")
    paddle.jit.save(paddle.jit.to_static(model, input_spec=input_spec(args, kwargs), full_graph=True), prefix)
    return prefix
'''

_REPRO_AST = _REPRO_INPUT_SPEC + '''

def convert(model, args, kwargs):
    static = paddle.jit.to_static(model, input_spec=input_spec(args, kwargs), full_graph=True)
    call(static, args, kwargs)  # convert now
    return static
'''

_REPRO_SOT = '''
def convert(model, args, kwargs):
    static = paddle.jit.to_static(model, full_graph=False)
    call(static, args, kwargs)  # convert now
    return static
'''

_REPRO_JIT_LOAD = _REPRO_SAVE + '''

def convert(model, args, kwargs):
    loaded = paddle.jit.load(save(model, args, kwargs))
    return lambda *args, **kwargs: loaded(*flatten(list(args)))  # flat tensors; kwargs were fixed when saving
'''

_REPRO_INFERENCE = _REPRO_SAVE + '''

def convert(model, args, kwargs):
    prefix = save(model, args, kwargs)
    config = paddle.inference.Config(prefix + ".json", prefix + ".pdiparams")
    config.disable_gpu()
    predictor = paddle.inference.create_predictor(config)

    def run(*args, **kwargs):  # fed by input name; kwargs were fixed when saving
        feed = dict(zip(LEAF_NAMES, flatten(list(args))))
        for name in predictor.get_input_names():
            value = feed[name].numpy()
            handle = predictor.get_input_handle(name)
            handle.reshape(value.shape)
            handle.copy_from_cpu(value)
        predictor.run()
        return [predictor.get_output_handle(name).copy_to_cpu() for name in predictor.get_output_names()]
    return run
'''

_REPRO_ONNX = _REPRO_INPUT_SPEC + '''

def convert(model, args, kwargs):
    import onnxruntime

    prefix = os.path.join(HERE, "model")
    paddle.onnx.export(model, prefix, input_spec=input_spec(args, kwargs))
    session = onnxruntime.InferenceSession(prefix + ".onnx", providers=["CPUExecutionProvider"])
    wanted = [i.name for i in session.get_inputs()]

    def run(*args, **kwargs):  # ONNX takes the flat tensors by name and returns a flat list
        feed = dict(zip(LEAF_NAMES, (to_numpy(t) for t in flatten(list(args)))))
        return session.run(None, {name: feed[name] for name in wanted})
    return run
'''


# ------------------------------------------------------------------ the records

_SAVE_NOTE = "(non-tensor arguments are fixed to the example's, as given in the input_spec)"
_UNUSED_INPUT = Limitation(
    "a saved program keeps only what its outputs need: jit.save refuses an input that no output uses "
    "(and does not say which)", r"is not involved in the target_vars calculation", versions=">=2.0",
    reference="paddle/static/pir_io.py (normalize_program); PaddlePaddle docs: paddle.jit.save")
_SELF_NAME = Limitation(
    "to_static takes forward's first parameter for the layer only when it is named `self`: with another name "
    "the first input is bound to it, reported as a missing input (to_static) or an extra argument (jit.save)",
    r"`forward\(\)` requires `\w+` arguments, but not found in input `args`"
    r"|forward\(\) takes (from \d+ to )?\d+ positional arguments? but \d+ were given", versions=">=2.0",
    reference="paddle/jit/dy2static/utils.py (parse_arg_and_kwargs drops a first argument named self)")
_LOOP_BREAK_ON_TENSOR = Limitation(
    "known bug: AST to_static refuses a Python loop (for over range of an int) whose break or continue "
    "depends on a tensor ('python while pred change from bool to variable'), though its grammar guide "
    "lists break/continue anywhere in a loop as supported", r"python while pred change from bool to variable",
    outcome=None, versions=">=2.0",
    reference="https://www.paddlepaddle.org.cn/documentation/docs/en/guides/jit/grammar_list_en.html; "
              "https://github.com/PaddlePaddle/Paddle/pull/68508")
_ALIAS_LOOP_EARLY_RETURN = (
    "known bug: `a = x + x; acc = a; while i < 3 and acc.min() < t: acc = acc + 1`, then `if acc.max() < u: "
    "return a`: the converted program returns an empty tensor for `a` (the variable the loop's carried "
    "variable was assigned from) where dygraph returns `a`; a Paddle Inference predictor fails on it")
_ALIAS_LOOP_EMPTY_OUTPUT = Limitation(
    _ALIAS_LOOP_EARLY_RETURN, r"shape \[0\] != eager \[", phase="compare", outcome=None, versions=">=3.0",
    reference="found by conformance 2026-11-21 (paddle 3.3.1)")
_ALIAS_LOOP_NO_MEMORY = Limitation(
    _ALIAS_LOOP_EARLY_RETURN, r"Tensor holds no memory", phase="run", outcome=None, versions=">=3.0",
    reference="found by conformance 2026-11-21 (paddle 3.3.1)")
_PREDICTOR_REORDER = Limitation(
    "known bug: a Paddle Inference predictor (CPU, oneDNN) cannot run `y = x + x; if x.min() < 1.5: pass; "
    "else: y = -y; return y, paddle.unsqueeze(y, 1)`: 'could not create a primitive descriptor for a reorder "
    "primitive'; paddle.jit.load runs it", r"could not create a primitive descriptor for a reorder primitive",
    phase="run", outcome=None, versions=">=3.0", reference="found by conformance 2026-11-21 (paddle 3.3.1)")
_P2O_UNSUPPORTED_OP = Limitation(
    "paddle2onnx has no converter for some Paddle operators (pd_op.amax, pd_op.amin among this suite's ops): "
    "it aborts the process without naming them", r"Due to the unsupported operators, the conversion is aborted",
    versions=">=2.0", package="paddle2onnx",
    reference="https://github.com/PaddlePaddle/Paddle2ONNX/blob/develop/docs/zh/op_list.md")
_P2O_FULL_MEAN = Limitation(
    "known bug: paddle2onnx cannot convert a mean over all elements (x.mean(), pd_op.mean without an axis): "
    "it aborts the process with 'Can not get input axis(dim) value'", r"Can not get input 'axis\(dim\)' value",
    outcome=None, versions=">=2.1", package="paddle2onnx", reference="found by conformance 2026-11-21 (paddle2onnx 2.1.0)")
_P2O_SOFTPLUS = Limitation(
    "known bug: paddle2onnx refuses every softplus, also F.softplus(x) with the defaults it names as supported "
    "('Only support softplus with beta == 1.0 and threshold == 20.0'), and aborts the process",
    r"Only support softplus with beta == 1\.0 and threshold == 20\.0", outcome=None, versions=">=2.1",
    package="paddle2onnx", reference="found by conformance 2026-11-21 (paddle2onnx 2.1.0)")
_P2O_WHILE_COND_RANK = Limitation(
    "known bug: for `while i < n and x.max() < t:` paddle2onnx writes a Loop whose condition output is declared "
    "rank 0 but computed rank 1; onnxruntime refuses to load the model",
    r"Op \(Loop\) \[TypeInferenceError\].*Mismatch between number of inferred and declared dimensions",
    outcome=None, versions=">=2.1", package="paddle2onnx",
    reference="found by conformance 2026-11-21 (paddle2onnx 2.1.0, onnxruntime 1.31)")
_PREDICTOR_INPUT_AS_OUTPUT = Limitation(
    "known bug: a saved model that returns one of its inputs unchanged cannot be run by a Paddle Inference "
    "predictor ('More than one shadow output named with x'); paddle.jit.load runs it",
    r"More than one shadow output named with \S+ found", phase="run", outcome=None, versions=">=3.0",
    reference="found by conformance 2026-11-21 (paddle 3.3.1)")

_STATIC = (_SELF_NAME, _LOOP_BREAK_ON_TENSOR, _ALIAS_LOOP_EMPTY_OUTPUT)  # every path through AST to_static
#: The modes of a path that autograd differentiates (see conformance.training).
_AUTOGRAD_MODES = frozenset({"infer", "grad", "train"})
# What the grad and train modes found (paddle 3.3.1): known bugs, named on the records; outcomes unchanged.
_EVAL_NO_GRADIENTS = Limitation(
    "known divergence: a layer converted in eval() runs an inference program with no backward, so every "
    "gradient is silently None where dygraph gives one (dy2static's infer program)",
    r"no gradient \(None\) where eager has one", phase="compare", outcome=None, versions=">=3.0",
    reference="found by conformance 2026-11-21 (paddle 3.3.1), grad mode; PaddlePaddle/Paddle#58588")
_UNUSED_INPUT_ZERO_GRADIENT = Limitation(
    "known divergence: through a converted program, an input that does not reach the loss, or a parameter "
    "used only in a branch that did not run, gets a zero gradient where dygraph gives None",
    r"a gradient where eager has none", phase="compare", outcome=None,
    versions=">=3.0", reference="found by conformance 2026-11-21 (paddle 3.3.1), grad mode")
_WHILE_BACKWARD = Limitation(
    "known bug: the backward pass through a while loop on a tensor condition fails ('The variable middle_0 "
    "should exist'): `while i < 3 and y.sum() < 3.0: y = F.sigmoid(y)`, then paddle.grad",
    r"The variable middle_\d+ should exist", phase="run", outcome=None, versions=">=3.0",
    reference="found by conformance 2026-11-21 (paddle 3.3.1), grad mode")
_CSE_UNREGISTERED_OP = Limitation(
    "known bug: with autograd on, PIR's common-subexpression pass fails on a comparison op of the program "
    "('pd_op.less_than is not registered in the table'); seen in programs with a break inside a while "
    "loop (not minimised)", r"pd_op\.\w+ is not registered in the table", phase="run", outcome=None,
    versions=">=3.0", reference="found by conformance 2026-11-21 (paddle 3.3.1), grad and train modes")
_STATIC_TRAINING = (_EVAL_NO_GRADIENTS, _UNUSED_INPUT_ZERO_GRADIENT, _WHILE_BACKWARD, _CSE_UNREGISTERED_OP)
_SAVED = _STATIC + (_UNUSED_INPUT,)  # ... and every path through jit.save
_ONNX = _SAVED + (_P2O_UNSUPPORTED_OP, _P2O_FULL_MEAN, _P2O_SOFTPLUS, _P2O_WHILE_COND_RANK)

register(
    PathRecord("paddle", "eager", "dygraph paddle.nn.Layer (the reference, on the chosen device)", _eager, _call,
               reference=True, modes=_AUTOGRAD_MODES),
    PathRecord("paddle", "to_static", "paddle.jit.to_static(full_graph=True, input_spec=...) (AST) " + _SAVE_NOTE,
               _to_static(True), _call, specializes=frozenset({"kwargs"}), limitations=_STATIC + _STATIC_TRAINING,
               repro=_REPRO_AST, modes=_AUTOGRAD_MODES),
    PathRecord("paddle", "to_static_sot", "paddle.jit.to_static(full_graph=False) (SOT bytecode translation)",
               _to_static(False), _call, limitations=(_SELF_NAME,) + _STATIC_TRAINING, repro=_REPRO_SOT,
               modes=_AUTOGRAD_MODES),
    PathRecord("paddle", "jit_save", "paddle.jit.save, then paddle.jit.load (flat tensors in, flat list out) "
               + _SAVE_NOTE, _jit_load, _run, specializes=frozenset({"kwargs"}), limitations=_SAVED,
               repro=_REPRO_JIT_LOAD),
    PathRecord("paddle", "inference", "Paddle Inference predictor on the jit.save'd model " + _SAVE_NOTE,
               _inference, _run, specializes=frozenset({"kwargs"}), limitations=_SAVED + (_PREDICTOR_INPUT_AS_OUTPUT, _ALIAS_LOOP_NO_MEMORY, _PREDICTOR_REORDER),
               repro=_REPRO_INFERENCE),
    PathRecord("paddle", "onnx", "paddle.onnx.export (jit.save, then paddle2onnx in a process of its own) on onnxruntime "
               + _SAVE_NOTE, _onnx, _run, specializes=frozenset({"kwargs"}), limitations=_ONNX,
               requires=("paddle2onnx", "onnx", "onnxruntime", "onnx_graphsurgeon", "polygraphy"), repro=_REPRO_ONNX),
)
