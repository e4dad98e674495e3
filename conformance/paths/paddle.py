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

import contextlib
import os
import re
import signal
import sys
import tempfile
import traceback

os.environ.setdefault("GLOG_minloglevel", "1")  # Paddle's C++ INFO lines would crowd the captured output

import numpy as np  # noqa: E402
import paddle  # noqa: E402

from ..case import flatten  # noqa: E402
from ..ir import DYNAMIC, DictSpec, Program, SeqSpec, Spec, TensorSpec  # noqa: E402
from . import FRAMEWORKS, ConvertContext, FlatOutputs, Framework, Limitation, PathRecord, register  # noqa: E402
from .ort import OrtModel  # noqa: E402


def _place(device: str):
    return paddle.CUDAPlace(0) if device == "cuda" else paddle.CPUPlace()


def _setup() -> None:
    paddle.set_device("cpu")  # converted models are placed explicitly; the reference runs on the CPU
    paddle.disable_static()


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

FRAMEWORKS["paddle"] = Framework("paddle", lambda: paddle.__version__, _to_tensor, _to_numpy, _prepare, _call,
                                 _devices, _setup, _versions, repro=_REPRO_FRAMEWORK)


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


@contextlib.contextmanager
def _no_installs():
    """paddle2onnx folds constants with Polygraphy and switches on its auto-install of missing
    modules (a pip install at run time). Keep it off: a missing module is an error, not a download."""
    try:
        import polygraphy.config
    except ImportError:
        yield
        return
    saved = polygraphy.config.AUTOINSTALL_DEPS
    polygraphy.config.AUTOINSTALL_DEPS = False
    try:
        yield
    finally:
        polygraphy.config.AUTOINSTALL_DEPS = saved


def _onnx(ctx: ConvertContext):
    """What ``paddle.onnx.export(model, prefix, input_spec)`` does, in its two steps: ``paddle.jit.save``
    here, then ``paddle2onnx.export`` of the saved model (opset 9, its defaults) in a forked child,
    because paddle2onnx ends its process on an error: ``sys.exit(-1)`` after logging, or ``abort()``
    for an operator it cannot convert. The child's end becomes an error naming what it logged."""
    import paddle2onnx

    spec = input_spec(ctx.program, ctx.kwargs, ctx.tensor_names)
    saved, onnx_file = ctx.workdir / "saved" / "model", ctx.workdir / "model.onnx"
    paddle.jit.save(ctx.model, str(saved), input_spec=spec)
    onnx_file.unlink(missing_ok=True)
    status, log = _in_child(lambda: paddle2onnx.export(str(saved) + ".json", str(saved) + ".pdiparams",
                                                       str(onnx_file), 9))
    if status != 0 or not onnx_file.exists():
        how = f"was killed by {signal.Signals(-status).name}" if status < 0 else f"exited with status {status}"
        errors = [line.strip() for line in log.splitlines() if re.search(r"\[ERROR\]|Error:", line)]
        raise RuntimeError(f"paddle2onnx.export {how}" + (": " + " | ".join(errors[:4]) if errors else
                                                          ", and wrote no ONNX model"))
    return OrtModel(onnx_file, ctx.device, ctx.tensor_names, _to_numpy)


def _in_child(fn) -> tuple[int, str]:
    """Run ``fn()`` in a forked child process: (its exit status, negative for a signal; what it printed).

    What the child prints also goes to this process's stdout, so the record's captured output has it.
    """
    with tempfile.TemporaryFile() as out:
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the child: run, and never return into the caller's code
            code = 1
            try:
                os.dup2(out.fileno(), 1)
                os.dup2(out.fileno(), 2)
                with _no_installs():
                    fn()
                code = 0
            except SystemExit as e:
                code = e.code if isinstance(e.code, int) else 1
            except BaseException:  # noqa: BLE001 - reported through the exit status and the log
                traceback.print_exc()
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code & 0xFF)
        _, status = os.waitpid(pid, 0)
        out.seek(0)
        log = _ANSI.sub("", out.read().decode(errors="replace"))
    sys.stdout.write(log)
    return os.waitstatus_to_exitcode(status), log


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _run(artifact, args, kwargs):
    return artifact(*args, **kwargs)


# ------------------------------------------------------------------ the records

_SAVE_NOTE = "(non-tensor arguments are fixed to the example's, as given in the input_spec)"
_UNUSED_INPUT = Limitation(
    "a saved program keeps only what its outputs need: jit.save refuses an input that no output uses "
    "(and does not say which)", r"is not involved in the target_vars calculation", versions=">=2.0",
    reference="paddle/static/pir_io.py (normalize_program); PaddlePaddle docs: paddle.jit.save")
_LOOP_BREAK_ON_TENSOR = Limitation(
    "known bug: AST to_static refuses a Python loop (for over range of an int) whose break or continue "
    "depends on a tensor ('python while pred change from bool to variable'), though its grammar guide "
    "lists break/continue anywhere in a loop as supported", r"python while pred change from bool to variable",
    outcome=None, versions=">=2.0",
    reference="https://www.paddlepaddle.org.cn/documentation/docs/en/guides/jit/grammar_list_en.html; "
              "https://github.com/PaddlePaddle/Paddle/pull/68508")
_P2O_UNSUPPORTED_OP = Limitation(
    "paddle2onnx has no converter for some Paddle operators (pd_op.amax, pd_op.amin among this suite's ops): "
    "it aborts the process without naming them", r"Due to the unsupported operators, the conversion is aborted",
    versions=">=2.0", package="paddle2onnx",
    reference="https://github.com/PaddlePaddle/Paddle2ONNX/blob/develop/docs/zh/op_list.md")
_PREDICTOR_INPUT_AS_OUTPUT = Limitation(
    "known bug: a saved model that returns one of its inputs unchanged cannot be run by a Paddle Inference "
    "predictor ('More than one shadow output named with x'); paddle.jit.load runs it",
    r"More than one shadow output named with \S+ found", phase="run", outcome=None, versions=">=3.0",
    reference="found by conformance 2026-11-21 (paddle 3.3.1)")

_STATIC = (_LOOP_BREAK_ON_TENSOR,)  # what every path through AST to_static shares
_SAVED = _STATIC + (_UNUSED_INPUT,)  # ... and every path through jit.save

register(
    PathRecord("paddle", "eager", "dygraph paddle.nn.Layer (the reference, on the chosen device)", _eager, _call,
               reference=True),
    PathRecord("paddle", "to_static", "paddle.jit.to_static(full_graph=True, input_spec=...) (AST) " + _SAVE_NOTE,
               _to_static(True), _call, specializes=frozenset({"kwargs"}), limitations=_STATIC),
    PathRecord("paddle", "to_static_sot", "paddle.jit.to_static(full_graph=False) (SOT bytecode translation)",
               _to_static(False), _call),
    PathRecord("paddle", "jit_save", "paddle.jit.save, then paddle.jit.load (flat tensors in, flat list out) "
               + _SAVE_NOTE, _jit_load, _run, specializes=frozenset({"kwargs"}), limitations=_SAVED),
    PathRecord("paddle", "inference", "Paddle Inference predictor on the jit.save'd model " + _SAVE_NOTE,
               _inference, _run, specializes=frozenset({"kwargs"}), limitations=_SAVED + (_PREDICTOR_INPUT_AS_OUTPUT,)),
    PathRecord("paddle", "onnx", "paddle.onnx.export (jit.save, then paddle2onnx in a child process) on onnxruntime "
               + _SAVE_NOTE, _onnx, _run, specializes=frozenset({"kwargs"}), limitations=_SAVED + (_P2O_UNSUPPORTED_OP,),
               requires=("paddle2onnx", "onnx", "onnxruntime", "onnx_graphsurgeon", "polygraphy")),
)
