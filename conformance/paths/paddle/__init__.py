"""PaddlePaddle conversion paths: dygraph (the reference), ``paddle.jit.to_static`` (AST transcription,
also with a ``BuildStrategy``, under ``paddle.amp.auto_cast``, or with an ``input_spec`` taken from the
example tensors; and SOT bytecode translation), ``paddle.jit.save`` then ``paddle.jit.load`` (of a
layer's ``forward``, of a second method of it, of a plain function), a Paddle Inference predictor on the
saved model (with oneDNN and without), and ``paddle.onnx.export`` (paddle2onnx) run on onnxruntime.

The conversions are in :mod:`~conformance.paths.paddle.conversions` and :mod:`~conformance.paths.paddle.saved`
(standalone: reproducers copy them), the adapter in :mod:`~conformance.paths.paddle.adapter`; what each path
gets wrong or refuses is in the catalogue (:mod:`conformance.paths.known`), by the components a path lists; this
module registers the paths.

Every path that builds a static program is given the ``input_spec`` a user writes by hand for the model
(:func:`~conformance.paths.paddle.conversions.input_spec`). Paddle then builds the program for the
example's non-tensor arguments: a static program, a saved model, a predictor and an ONNX graph all run
with them whatever a later call passes (``specializes={"kwargs"}``).
"""

import functools
import os

os.environ.setdefault("GLOG_minloglevel", "1")  # Paddle's C++ INFO lines would crowd the captured output

from conformance.paths.paddle import saved  # noqa: E402
from conformance.paths.paddle.adapter import FRAMEWORK, build_strategy_ignored, onnx_default_opset  # noqa: E402
from conformance.paths.paddle.conversions import (  # noqa: E402
    AMP,
    CALLERS_TEMPLATE,
    call,
    eager,
    no_cpu_bfloat16,
    run,
    to_static,
    to_static_amp,
    to_static_per_call,
    to_static_sot,
)
from conformance.paths.paddle.deployment_records import DEPLOYMENT_PATHS  # noqa: E402
from conformance.paths.paddle.paddle2onnx_client import PADDLE2ONNX  # noqa: E402
from conformance.paths.records import FRAMEWORKS, PathRecord, register  # noqa: E402

FRAMEWORKS["paddle"] = FRAMEWORK
#: paddle2onnx ends the process it runs in when it fails: a campaign exports in a server process.
saved.ONNX_EXPORTER = PADDLE2ONNX.export


def programs(static) -> dict:
    """How many programs a to_static layer has built (one per call signature its input_spec does not cover)."""
    return {"programs": len(static.forward.program_cache)}


#: The modes of a path that autograd differentiates (see conformance.judge.training).
AUTOGRAD_MODES = frozenset({"infer", "grad", "train"})
KWARGS = frozenset({"kwargs"})
_SAVE_NOTE = "(non-tensor arguments are fixed to the example's, as given in the input_spec)"
_STATIC_NOTE = "(AST, the hand-written input_spec) " + _SAVE_NOTE

register(
    PathRecord("paddle", "eager", "dygraph paddle.nn.Layer (the reference, on the chosen device)", eager, call,
               reference=True, modes=AUTOGRAD_MODES, components=("paddle_eager",)),
    PathRecord("paddle", "to_static", "paddle.jit.to_static(full_graph=True, input_spec=...) (AST) " + _SAVE_NOTE,
               to_static, call, specializes=KWARGS, components=("paddle_eager", "python_state", "pir_ast"),
               modes=AUTOGRAD_MODES),
    PathRecord("paddle", "to_static_sot", "paddle.jit.to_static(full_graph=False) (SOT bytecode translation)",
               to_static_sot, call, components=("paddle_eager", "pir_ast", "sot"), modes=AUTOGRAD_MODES),
    PathRecord("paddle", "to_static_per_call", "paddle.jit.to_static(full_graph=True) (AST) without an input_spec, "
               "non-tensor arguments passed on every call (a program per new Python value or input shape: counter "
               "programs)", to_static_per_call, call, components=("paddle_eager", "python_state", "pir_ast"),
               counters=programs, modes=AUTOGRAD_MODES),
    PathRecord("paddle", "to_static_build_strategy", "paddle.jit.to_static(build_strategy=BuildStrategy("
               "fuse_elewise_add_act_ops=True, enable_addto=True)) " + _STATIC_NOTE + "; paddle 3's PIR runner applies "
               "neither option, so there it checks what to_static does",
               functools.partial(to_static, fuse=True), call, specializes=KWARGS,
               components=("paddle_eager", "python_state", "pir_ast"), modes=AUTOGRAD_MODES,
               same_code_as=build_strategy_ignored),
    PathRecord("paddle", "to_static_amp", f"paddle.amp.auto_cast(level={AMP['level']!r}, dtype={AMP['dtype']!r}) "
               "inside a forward converted by to_static " + _STATIC_NOTE + ", outputs cast to float32; judged against "
               "fp32 eager with the bfloat16 tolerance rule", to_static_amp, call, specializes=KWARGS,
               components=("paddle_eager", "python_state", "pir_ast", "paddle_amp"), precision=AMP["dtype"],
               files=(CALLERS_TEMPLATE,), unavailable_on=no_cpu_bfloat16),
    PathRecord("paddle", "to_static_spec_from_tensor", "paddle.jit.to_static(full_graph=True) with the input_spec "
               "InputSpec.from_tensor(example) (from_numpy for a tensor in a list or dict): the example's shapes, "
               "batch included, fixed; a call with other shapes builds a program for them (counter: programs) "
               + _SAVE_NOTE, functools.partial(to_static, spec_from_tensor=True), call, specializes=KWARGS,
               components=("paddle_eager", "python_state", "pir_ast"), counters=programs),
    PathRecord("paddle", "jit_save", "paddle.jit.save, then paddle.jit.load (flat tensors in, flat list out; in grad "
               "and train modes the loaded layer is fine-tuned in train(), its own parameters) " + _SAVE_NOTE,
               saved.jit_load, run, specializes=KWARGS,
               components=("paddle_eager", "python_state", "pir_ast", "paddle_jit_save"), modes=AUTOGRAD_MODES),
    PathRecord("paddle", "jit_save_methods", f"one paddle.jit.save of a Layer with forward and a second to_static "
               f"method {saved.METHOD!r} (forward's function under another name), then the loaded layer's "
               f"{saved.METHOD} (its own file, model.{saved.METHOD}.json); the loaded forward is what jit_save checks "
               + _SAVE_NOTE, saved.jit_load_method, run, specializes=KWARGS,
               components=("paddle_eager", "python_state", "pir_ast", "paddle_jit_save")),
    PathRecord("paddle", "jit_save_function", "paddle.jit.save of a to_static plain function of the inputs that calls "
               "the layer (a closure), then paddle.jit.load " + _SAVE_NOTE, saved.jit_load_function, run,
               specializes=KWARGS,
               components=("paddle_eager", "python_state", "pir_ast", "paddle_jit_save"), files=(CALLERS_TEMPLATE,)),
    PathRecord("paddle", "inference", "Paddle Inference predictor on the jit.save'd model (on the CPU with oneDNN, "
               "Paddle Inference's default) " + _SAVE_NOTE, saved.inference, run, specializes=KWARGS,
               components=("paddle_eager", "python_state", "pir_ast", "paddle_jit_save", "paddle_inference")),
    PathRecord("paddle", "inference_no_onednn", "Paddle Inference predictor on the jit.save'd model, on the CPU with "
               "oneDNN off (config.disable_onednn(): Paddle's own CPU kernels) " + _SAVE_NOTE,
               functools.partial(saved.inference, onednn=False), run, specializes=KWARGS,
               components=("paddle_eager", "python_state", "pir_ast", "paddle_jit_save", "paddle_inference"),
               devices=("cpu",)),
    PathRecord("paddle", "onnx", "paddle.onnx.export (jit.save, then paddle2onnx in a process of its own) on "
               "onnxruntime " + _SAVE_NOTE, saved.to_onnx, run, specializes=KWARGS,
               components=("paddle_eager", "python_state", "pir_ast", "paddle_jit_save", "paddle2onnx", "onnxruntime"),
               requires=("paddle2onnx", "onnx", "onnxruntime", "onnx_graphsurgeon", "polygraphy"),
               default_onnx_opset=onnx_default_opset),
)

# the paths people deploy with (conversions in deployment.py)
register(*DEPLOYMENT_PATHS)

