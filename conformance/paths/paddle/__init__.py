"""PaddlePaddle conversion paths: dygraph (the reference), ``paddle.jit.to_static`` (AST transcription,
also with a ``BuildStrategy``, under ``paddle.amp.auto_cast``, or with an ``input_spec`` taken from the
example tensors; and SOT bytecode translation), ``paddle.jit.save`` then ``paddle.jit.load`` (of a
layer's ``forward``, of a second method of it, of a plain function), a Paddle Inference predictor on the
saved model (with oneDNN and without), and ``paddle.onnx.export`` (paddle2onnx) run on onnxruntime.

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
from dataclasses import replace
from types import SimpleNamespace
from typing import Optional

os.environ.setdefault("GLOG_minloglevel", "1")  # Paddle's C++ INFO lines would crowd the captured output

import numpy as np  # noqa: E402
import paddle  # noqa: E402

from conformance.paths.ort import OrtModel  # noqa: E402
from conformance.paths.records import (  # noqa: E402
    FRAMEWORKS,
    Autograd,
    ConvertContext,
    FlatOutputs,
    Framework,
    Limitation,
    PathRecord,
    loss_terms,
    module_versions,
    register,
)
from conformance.program.case import flatten, map_tree, unflatten  # noqa: E402
from conformance.program.ir import DYNAMIC, DictSpec, Out, OutDict, OutSeq, SeqSpec, Spec, TensorSpec  # noqa: E402
from conformance.program.program import Program


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
    return {"paddle": paddle.__version__, **module_versions("paddle2onnx", "onnxruntime", "onnx")}


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


def _to_static(full_graph: bool, build_strategy=None, spec=None):
    """``paddle.jit.to_static`` of the model: AST (``full_graph``) with the hand-written :func:`input_spec`, or
    ``spec(ctx)``'s; or SOT. ``build_strategy``: makes the ``BuildStrategy`` to convert with (None: Paddle's)."""
    def convert(ctx: ConvertContext):
        # SOT ignores input_spec (it warns so) and guards on what it sees instead: given only to AST.
        if full_graph:
            specs = spec(ctx) if spec else input_spec(ctx.program, ctx.kwargs, ctx.tensor_names)
        else:
            specs = None
            _clear_sot_cache()
        static = paddle.jit.to_static(ctx.model, input_spec=specs, full_graph=full_graph,
                                      build_strategy=build_strategy() if build_strategy else None)
        _call(static, ctx.args, ctx.kwargs)  # convert now: transcription errors are conversion errors
        return static
    return convert


def _fusing_strategy():
    """A ``BuildStrategy`` that fuses an elementwise add with the activation after it and accumulates
    gradients in place (``addto``). Paddle 3's PIR runner of to_static keeps the strategy but applies
    neither (only the legacy-IR runner did: ``add_build_strategy_for`` in dy2static/partial_program.py)."""
    strategy = paddle.static.BuildStrategy()
    strategy.fuse_elewise_add_act_ops = True
    strategy.enable_addto = True
    return strategy


def spec_from_examples(ctx: ConvertContext) -> list:
    """The ``input_spec`` taken from the example inputs: ``InputSpec.from_tensor`` for a tensor argument,
    ``InputSpec.from_numpy`` of its values for a tensor nested in a list, tuple or dict; the example's
    shapes, batch included, are fixed. Non-tensor arguments are their values, as in :func:`input_spec`."""
    names = iter(ctx.tensor_names)

    def spec(value, nested: bool):
        if isinstance(value, paddle.Tensor):
            name = next(names)
            return (paddle.static.InputSpec.from_numpy(value.numpy(), name=name) if nested
                    else paddle.static.InputSpec.from_tensor(value, name=name))
        if isinstance(value, dict):
            return {k: spec(v, True) for k, v in value.items()}
        return type(value)(spec(v, True) for v in value)

    return [spec(a, False) for a in ctx.args] + [ctx.kwargs[k.name] for k in ctx.program.kwargs]


def _programs(static) -> dict:
    """How many programs a to_static layer has built (one per call signature its input_spec does not cover)."""
    return {"programs": len(static.forward.program_cache)}


# ------------------------------------------------------------------ callers of the model (AMP, a plain function)

#: What ``paddle.to_static_amp`` computes in: ``paddle.amp.auto_cast``'s O1 (white-listed operators such as
#: matmul in bfloat16, the rest in float32) with bfloat16, the reduced dtype Paddle supports on the CPU.
AMP = {"level": "O1", "dtype": "bfloat16"}

_CALLERS = '''"""Callers of a model with forward's parameters spelled out, as to_static needs them (it refuses
``*args`` with an input_spec, and reads the source from a file); written by conformance."""

import paddle


class AutoCast(paddle.nn.Layer):
    """The model called under paddle.amp.auto_cast inside the converted forward, where Paddle builds the
    reduced-precision program on every device (around a call, on the CPU, it does nothing but warn)."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, {params}):
        with paddle.amp.auto_cast(level={level!r}, dtype={dtype!r}):
            out = self.model({params})
        return out


def function_of(model):
    """A plain function of the model's inputs that calls it: the layer is a closure variable."""
    def apply({params}):
        return model({params})
    return apply
'''


def _callers_source(params: str) -> str:
    return _CALLERS.format(params=params, **AMP)


def _callers(program: Program):
    """The module of :data:`_CALLERS` for ``program``'s forward (its input names, then its kwarg names)."""
    from conformance.render.source import cache_dir, load_source

    params = ", ".join([i.name for i in program.inputs] + [k.name for k in program.kwargs])
    return load_source(_callers_source(params), cache_dir() / "paddle" / program.id / "callers.py",
                       f"conformance_paddle_callers_{program.id}")


def _float32(out):
    """Float outputs cast to float32, as a user compares a reduced-precision model's with an fp32 one's."""
    return map_tree(lambda t: t.astype("float32") if isinstance(t, paddle.Tensor) and t.is_floating_point() else t,
                    out)


def amp_static(ctx: ConvertContext):
    """The model under :data:`AMP` auto_cast converted by AST to_static with its input_spec, the program built
    (not run)."""
    static = paddle.jit.to_static(_callers(ctx.program).AutoCast(ctx.model),
                                  input_spec=input_spec(ctx.program, ctx.kwargs, ctx.tensor_names), full_graph=True)
    static.forward.concrete_program  # noqa: B018 - builds the program: transcription errors are conversion errors
    return static


def _to_static_amp(ctx: ConvertContext):
    static = amp_static(ctx)
    if ctx.device == "cpu" and not paddle.base.core.supports_bfloat16():
        raise RuntimeError("this CPU has no oneDNN bfloat16 support (paddle.base.core.supports_bfloat16() is False): "
                           "running the bfloat16 program would abort the process")
    _call(static, ctx.args, ctx.kwargs)
    return lambda *args, **kwargs: _float32(static(*args, **kwargs))


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


def _structure(out: Out):
    """The nest of ``forward``'s outputs (None for each tensor), to rebuild it from a flat list."""
    if isinstance(out, OutSeq):
        items = [_structure(i) for i in out.items]
        return items if out.kind == "list" else tuple(items)
    if isinstance(out, OutDict):
        return {k: _structure(v) for k, v in out.items}
    return None


class _FineTuned:
    """A loaded layer being fine-tuned (``grad`` and ``train`` modes): flat tensors in, the outputs as tensors in
    ``forward``'s nest (for the loss head), and its own copies of the parameters and buffers, which
    :mod:`conformance.training` finds in :attr:`own_state` by the program's names."""

    def __init__(self, layer, ctx: ConvertContext):
        self.layer = layer
        self.structure = _structure(ctx.program.output)
        #: the loaded tensor of each program parameter and buffer, by the name of the saved one (a tensor the
        #: program does not use was not saved: the eager model's, which no gradient or step reaches either)
        loaded = {name: getattr(layer, attr) for name, attr in layer._persistable_var_name_dict.items()}
        eager = {q.name: getattr(ctx.model, q.name) for q in ctx.program.params}
        self.own_state = SimpleNamespace(**{n: loaded.get(t.name, t) for n, t in eager.items()})
        #: the program's parameters and buffers that were not saved
        self.unsaved = [n for n, t in eager.items() if t.name not in loaded]

    def __call__(self, *args, **kwargs):
        out = self.layer(*flatten(list(args)))
        return unflatten(self.structure, list(out) if isinstance(out, (list, tuple)) else [out])


_IS_TEST = re.compile(r'"(pd_op\.\w+)" \(.*is_test:true')


def _jit_load(ctx: ConvertContext):
    """The saved model loaded; in ``grad`` and ``train`` modes put in ``train()`` to be fine-tuned (in ``eval()`` a
    loaded layer runs its program without a backward)."""
    layer = paddle.jit.load(_save(ctx))
    if ctx.mode == "infer":
        return _Flat(layer)
    layer.train()
    tuned = _FineTuned(layer, ctx)
    if ctx.model.training:
        inference_ops = sorted(set(_IS_TEST.findall(str(layer.program()))))
        if inference_ops:
            raise RuntimeError(f"the layer loaded in train() runs {', '.join(inference_ops)} with is_test=true: "
                               f"jit.save wrote them for inference although the model was saved in train()")
        buffers = sorted(set(tuned.unsaved) & {q.name for q in ctx.program.params if not q.trainable})
        if buffers and ctx.mode == "train":  # compared after the steps
            raise RuntimeError(f"the saved program does not update buffers {', '.join(buffers)} in train(): no "
                               f"output needs the operator that updates them, so jit.save dropped it")
    return tuned


#: The second method of ``paddle.jit_save_methods``.
METHOD = "infer"


def _with_method(ctx: ConvertContext, spec: list):
    """A copy of the model whose class has a second to_static method, :data:`METHOD`: forward's own function
    under another name, converted with the same input_spec."""
    cls = type(ctx.model)
    both = type(cls.__name__, (cls,), {METHOD: paddle.jit.to_static(cls.forward, input_spec=spec, full_graph=True)})
    model = _prepare(both(), ctx.device, False)
    model.set_state_dict(ctx.model.state_dict())
    _set_training(model, ctx.model.training)
    return model


def load_with_method(ctx: ConvertContext):
    """One ``paddle.jit.save`` of a layer with ``forward`` and :data:`METHOD` (files ``model.json`` and
    ``model.infer.json``), loaded."""
    spec = input_spec(ctx.program, ctx.kwargs, ctx.tensor_names)
    model = _with_method(ctx, spec)
    prefix = str(ctx.workdir / "model")
    paddle.jit.save(paddle.jit.to_static(model, input_spec=spec, full_graph=True), prefix)
    return paddle.jit.load(prefix)


def _jit_load_method(ctx: ConvertContext):
    return _Flat(getattr(load_with_method(ctx), METHOD))


def _jit_load_function(ctx: ConvertContext):
    """``paddle.jit.save`` of a to_static plain function of the inputs that calls the layer (a closure), loaded."""
    spec = input_spec(ctx.program, ctx.kwargs, ctx.tensor_names)
    prefix = str(ctx.workdir / "function")
    paddle.jit.save(paddle.jit.to_static(_callers(ctx.program).function_of(ctx.model), input_spec=spec,
                                         full_graph=True), prefix)
    return _Flat(paddle.jit.load(prefix))


def _inference(onednn: bool):
    """A Paddle Inference predictor on the saved model; on the CPU with oneDNN (Paddle Inference's default) or
    without (Paddle's own CPU kernels)."""
    def convert(ctx: ConvertContext):
        prefix = _save(ctx)
        config = paddle.inference.Config(prefix + ".json", prefix + ".pdiparams")
        if ctx.device == "cuda":
            config.enable_use_gpu(256, 0)
        else:
            config.disable_gpu()
            config.set_cpu_math_library_num_threads(1)
            config.enable_onednn() if onednn else config.disable_onednn()
        config.disable_glog_info()
        return _Predictor(paddle.inference.create_predictor(config), ctx.tensor_names)
    return convert


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
    (:mod:`conformance.paths.paddle.paddle2onnx_server`), because paddle2onnx ends its process on an error:
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
        self.proc = subprocess.Popen([sys.executable, "-m", "conformance.paths.paddle.paddle2onnx_server", self.startup_log],
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

_REPRO_BUILD_STRATEGY = _REPRO_INPUT_SPEC + '''

def convert(model, args, kwargs):
    strategy = paddle.static.BuildStrategy()
    strategy.fuse_elewise_add_act_ops = True
    strategy.enable_addto = True
    static = paddle.jit.to_static(model, input_spec=input_spec(args, kwargs), build_strategy=strategy,
                                  full_graph=True)
    call(static, args, kwargs)  # convert now
    return static
'''

_REPRO_SPEC_FROM_TENSOR = '''
def input_spec(args, kwargs):
    """InputSpec.from_tensor for a tensor argument, InputSpec.from_numpy for a nested one (fixed shapes),
    then the non-tensor arguments as values."""
    names = iter(LEAF_NAMES)

    def spec(value, nested):
        if isinstance(value, paddle.Tensor):
            name = next(names)
            if nested:
                return paddle.static.InputSpec.from_numpy(value.numpy(), name=name)
            return paddle.static.InputSpec.from_tensor(value, name=name)
        if isinstance(value, dict):
            return {k: spec(v, True) for k, v in value.items()}
        return type(value)(spec(v, True) for v in value)

    return [spec(a, False) for a in args] + list(kwargs.values())


def convert(model, args, kwargs):
    static = paddle.jit.to_static(model, input_spec=input_spec(args, kwargs), full_graph=True)
    call(static, args, kwargs)  # convert now
    return static
'''

_REPRO_CALLERS = _REPRO_INPUT_SPEC + """

CALLERS = '''""" + _callers_source("{params}") + """'''


def callers(kwargs):
    \"\"\"The callers of the model with forward's parameters spelled out, written beside this file and imported
    (to_static refuses *args with an input_spec, and reads the source from a file).\"\"\"
    import importlib.util

    path = os.path.join(HERE, "callers.py")
    with open(path, "w") as f:
        f.write(CALLERS.format(params=", ".join(ARG_NAMES + list(kwargs))))
    spec = importlib.util.spec_from_file_location("callers", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
"""

_REPRO_AMP = _REPRO_CALLERS + '''

def convert(model, args, kwargs):
    static = paddle.jit.to_static(callers(kwargs).AutoCast(model), input_spec=input_spec(args, kwargs),
                                  full_graph=True)

    def run(*args, **kwargs):  # float outputs cast to float32
        return [t.astype("float32") if t.is_floating_point() else t for t in flatten(static(*args, *kwargs.values()))]
    return run
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

_REPRO_JIT_LOAD_METHOD = _REPRO_INPUT_SPEC + '''

def convert(model, args, kwargs):
    spec = input_spec(args, kwargs)
    method = paddle.jit.to_static(Model.forward, input_spec=spec, full_graph=True)  # forward under another name
    both = type("Model", (Model,), {{"{method}": method}})()
    both.set_state_dict(model.state_dict())
    both.eval()
    prefix = os.path.join(HERE, "saved", "model")
    # one save, two programs: model.json and model.{method}.json
    paddle.jit.save(paddle.jit.to_static(both, input_spec=spec, full_graph=True), prefix)
    loaded = paddle.jit.load(prefix)
    return lambda *args, **kwargs: loaded.{method}(*flatten(list(args)))  # flat tensors; kwargs fixed when saving
'''.format(method=METHOD)

_REPRO_JIT_LOAD_FUNCTION = _REPRO_CALLERS + '''

def convert(model, args, kwargs):
    prefix = os.path.join(HERE, "saved", "function")
    paddle.jit.save(paddle.jit.to_static(callers(kwargs).function_of(model), input_spec=input_spec(args, kwargs),
                                         full_graph=True), prefix)
    loaded = paddle.jit.load(prefix)
    return lambda *args, **kwargs: loaded(*flatten(list(args)))  # flat tensors; kwargs fixed when saving
'''


_REPRO_PREDICTOR = '''

def convert(model, args, kwargs):
    prefix = save(model, args, kwargs)
    config = paddle.inference.Config(prefix + ".json", prefix + ".pdiparams")
    config.disable_gpu()
    config.{onednn}()
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



def _repro_inference(onednn: bool) -> str:
    return _REPRO_SAVE + _REPRO_PREDICTOR.format(onednn="enable_onednn" if onednn else "disable_onednn")


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
_ALIAS_LOOP_READ_AFTER = Limitation(
    "known bug: `a = x + x; acc = a; while i < 3 and acc.max() < 0: acc = concat([acc, x], 3)`, then `a` read "
    "again (`b = concat([a, a], 1)`): the converted program's first run fails, 'Tensor holds no memory' (the "
    "variable the loop's carried variable was assigned from is empty after the loop, as in the early-return case)",
    r"Tensor holds no memory", outcome=None, versions=">=3.0",
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

_INPLACE_ON_VIEW = Limitation(
    "to_static refuses an in-place operator (x.multiply_(y), F.relu_) on a tensor that is a view in dygraph "
    "(of a strided API such as unsqueeze or a slice): static graphs have no views, so it asks for a paddle.assign() "
    "copy first", r"output variable is a viewed Tensor in dygraph", versions=">=3.0",
    reference="paddle/utils/inplace_utils.py (the refusal's own message)")
#: Every path through AST to_static.
_STATIC = (_SELF_NAME, _LOOP_BREAK_ON_TENSOR, _ALIAS_LOOP_EMPTY_OUTPUT, _ALIAS_LOOP_READ_AFTER, _INPLACE_ON_VIEW)
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
_EARLY_RETURN_BEFORE_WHILE = Limitation(
    "known bug: `if x.mean() < -0.5: return x`, then `while i < 1 and x.max() > 0.5: i += 1`, `return x`: an AST "
    "to_static program run with autograd (train(), an input that needs a gradient) fails in its forward "
    "('DenseTensor shouldn't be null', in pd_op.if); SOT and dygraph run it",
    r"DenseTensor shouldn't be null.*pd_op\.if", phase="run", outcome=None, versions=">=3.0",
    reference="found by conformance 2026-11-21 (paddle 3.3.1), grad mode")
_LOADED_WHILE_BACKWARD = Limitation(
    "known bug: the backward of a loaded layer (jit.load, train()) through a while loop on a tensor condition "
    "fails to build: ir_backward passes a None gradient to cf_yield(), e.g. `while i < 1 and y.sum() > -1.5: "
    "i += 1; z = y + x; y = -y` (to_static fails on the same loop with 'The variable middle_0 should exist')",
    r"cf_yield\(\): incompatible function arguments", phase="run", outcome=None, versions=">=3.0",
    reference="found by conformance 2026-11-21 (paddle 3.3.1), grad mode")
#: What autograd through an AST to_static program meets (SOT builds its programs otherwise).
_AST_TRAINING = _STATIC_TRAINING + (_EARLY_RETURN_BEFORE_WHILE,)
_SAVED = _STATIC + (_UNUSED_INPUT,)  # ... and every path through jit.save
_ONNX = _SAVED + (_P2O_UNSUPPORTED_OP, _P2O_FULL_MEAN, _P2O_SOFTPLUS, _P2O_WHILE_COND_RANK)

_AMP_NO_CPU_BF16 = Limitation(
    "Paddle computes bfloat16 on the CPU only with oneDNN's bf16 kernels, which need AVX512 "
    "(paddle.base.core.supports_bfloat16()); on a CPU without them every bf16 operator of the program aborts the "
    "process (onednn_op raises dnnl::error, then std::terminate), so the path refuses before running it",
    r"this CPU has no oneDNN bfloat16 support", versions=">=3.0",
    reference="found by conformance 2026-11-21 (paddle 3.3.1); paddle/amp/auto_cast.py: amp on the CPU is off")
_FUNCTION_PARAMETERS = Limitation(
    "jit.save of a function saves its program, not the parameters it reads (documented: save the Layer instead); "
    "with parameters, paddle 3 (PIR) fails with an UnboundLocalError on `state_var_dict` instead",
    r"UnboundLocalError: cannot access local variable 'state_var_dict'", versions=">=3.0",
    reference="https://www.paddlepaddle.org.cn/documentation/docs/en/api/paddle/jit/save_en.html (Note); "
              "paddle/jit/api.py save(); found by conformance 2026-11-21 (paddle 3.3.1)")
_UNUSED_STATISTICS = Limitation(
    "a saved program keeps only what its outputs need: a batch norm whose output no output uses is dropped, and with "
    "it the update of its running statistics, which a loaded layer in train() then never makes",
    r"the saved program does not update buffers", versions=">=2.0",
    reference="paddle/static/pir_io.py (normalize_program); PaddlePaddle docs: paddle.jit.save")
_LOADED_TRAINS_AS_INFERENCE = Limitation(
    "known bug: a layer loaded with paddle.jit.load and put in train() runs the saved inference program: batch norm "
    "on its running statistics (is_test=true) and dropout off, though the model was saved in train() and the "
    "TranslatedLayer docs say it trains like a Layer; the legacy TranslatedLayer switched is_test off for "
    "training (_change_is_test_status), paddle 3's PIR one does not. The path refuses rather than compare",
    r"with is_test=true: jit\.save wrote them for inference", outcome=None, versions=">=3.0",
    reference="paddle/jit/pir_translated_layer.py; found by conformance 2026-11-21 (paddle 3.3.1), grad and train "
              "modes")

_STATIC_NOTE = "(AST, the hand-written input_spec) " + _SAVE_NOTE

register(
    PathRecord("paddle", "eager", "dygraph paddle.nn.Layer (the reference, on the chosen device)", _eager, _call,
               reference=True, modes=_AUTOGRAD_MODES),
    PathRecord("paddle", "to_static", "paddle.jit.to_static(full_graph=True, input_spec=...) (AST) " + _SAVE_NOTE,
               _to_static(True), _call, specializes=frozenset({"kwargs"}), limitations=_STATIC + _AST_TRAINING,
               repro=_REPRO_AST, modes=_AUTOGRAD_MODES),
    PathRecord("paddle", "to_static_sot", "paddle.jit.to_static(full_graph=False) (SOT bytecode translation)",
               _to_static(False), _call, limitations=(_SELF_NAME,) + _STATIC_TRAINING, repro=_REPRO_SOT,
               modes=_AUTOGRAD_MODES),
    PathRecord("paddle", "to_static_build_strategy", "paddle.jit.to_static(build_strategy=BuildStrategy("
               "fuse_elewise_add_act_ops=True, enable_addto=True)) " + _STATIC_NOTE + "; paddle 3's PIR runner applies "
               "neither option, so there it checks what to_static does",
               _to_static(True, build_strategy=_fusing_strategy), _call, specializes=frozenset({"kwargs"}),
               limitations=_STATIC + _AST_TRAINING, repro=_REPRO_BUILD_STRATEGY, modes=_AUTOGRAD_MODES),
    PathRecord("paddle", "to_static_amp", f"paddle.amp.auto_cast(level={AMP['level']!r}, dtype={AMP['dtype']!r}) "
               "inside a forward converted by to_static " + _STATIC_NOTE + ", outputs cast to float32; judged against fp32 "
               "eager with the bfloat16 tolerance rule", _to_static_amp, _call, specializes=frozenset({"kwargs"}),
               limitations=_STATIC + (_AMP_NO_CPU_BF16,), repro=_REPRO_AMP, precision=AMP["dtype"]),
    PathRecord("paddle", "to_static_spec_from_tensor", "paddle.jit.to_static(full_graph=True) with the input_spec "
               "InputSpec.from_tensor(example) (from_numpy for a tensor in a list or dict): the example's shapes, "
               "batch included, fixed; a call with other shapes builds a program for them (counter: programs) "
               + _SAVE_NOTE, _to_static(True, spec=spec_from_examples), _call, specializes=frozenset({"kwargs"}),
               # a call with a new shape converts again: a refusal can come while running
               limitations=_STATIC + (replace(_INPLACE_ON_VIEW, phase="run"),), repro=_REPRO_SPEC_FROM_TENSOR,
               counters=_programs),
    PathRecord("paddle", "jit_save", "paddle.jit.save, then paddle.jit.load (flat tensors in, flat list out; in grad "
               "and train modes the loaded layer is fine-tuned in train(), its own parameters) " + _SAVE_NOTE,
               _jit_load, _run, specializes=frozenset({"kwargs"}),
               limitations=_SAVED + _AST_TRAINING + (_LOADED_WHILE_BACKWARD, _LOADED_TRAINS_AS_INFERENCE,
                                                     _UNUSED_STATISTICS),
               repro=_REPRO_JIT_LOAD,
               modes=_AUTOGRAD_MODES),
    PathRecord("paddle", "jit_save_methods", f"one paddle.jit.save of a Layer with forward and a second to_static "
               f"method {METHOD!r} (forward's function under another name), then the loaded layer's {METHOD} (its own "
               f"file, model.{METHOD}.json); the loaded forward is what jit_save checks " + _SAVE_NOTE,
               _jit_load_method, _run, specializes=frozenset({"kwargs"}), limitations=_SAVED,
               repro=_REPRO_JIT_LOAD_METHOD),
    PathRecord("paddle", "jit_save_function", "paddle.jit.save of a to_static plain function of the inputs that calls "
               "the layer (a closure), then paddle.jit.load " + _SAVE_NOTE, _jit_load_function, _run,
               specializes=frozenset({"kwargs"}), limitations=_SAVED + (_FUNCTION_PARAMETERS,),
               repro=_REPRO_JIT_LOAD_FUNCTION),
    PathRecord("paddle", "inference", "Paddle Inference predictor on the jit.save'd model (on the CPU with oneDNN, "
               "Paddle Inference's default) " + _SAVE_NOTE, _inference(True), _run, specializes=frozenset({"kwargs"}),
               limitations=_SAVED + (_PREDICTOR_INPUT_AS_OUTPUT, _ALIAS_LOOP_NO_MEMORY, _PREDICTOR_REORDER),
               repro=_repro_inference(True)),
    PathRecord("paddle", "inference_no_onednn", "Paddle Inference predictor on the jit.save'd model, on the CPU with "
               "oneDNN off (config.disable_onednn(): Paddle's own CPU kernels) " + _SAVE_NOTE, _inference(False), _run,
               specializes=frozenset({"kwargs"}),
               limitations=_SAVED + (_PREDICTOR_INPUT_AS_OUTPUT, _ALIAS_LOOP_NO_MEMORY),
               repro=_repro_inference(False), devices=("cpu",)),
    PathRecord("paddle", "onnx", "paddle.onnx.export (jit.save, then paddle2onnx in a process of its own) on onnxruntime "
               + _SAVE_NOTE, _onnx, _run, specializes=frozenset({"kwargs"}), limitations=_ONNX,
               requires=("paddle2onnx", "onnx", "onnxruntime", "onnx_graphsurgeon", "polygraphy"), repro=_REPRO_ONNX),
)
