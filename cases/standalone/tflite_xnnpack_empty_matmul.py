"""Our process or TensorFlow Lite? tf.tflite runtime errors "XNNPack delegate failed to reshape runtime ... failed to
prepare" (TensorFlow deployment campaign rerun of 2026-11-28, issue 18, cases 293775035b85, 9204c5dd04ca).

Needs only numpy, tensorflow (the converter) and ai-edge-litert (the interpreter; 2.3.0 here). A tf.function of
`reduce_sum(matmul(a, b, transpose_b=True), axis=-2)` with a and b of shape [None, 5, 3, 0] (an empty contraction
dim), converted by tf.lite.TFLiteConverter (float32, builtins): LiteRT's interpreter with its default XNNPack delegate
fails to prepare the model once the batch is resized; the same model without the default delegates returns the
empty sums' zeros, shape (2, 5, 1, 3), as TensorFlow does.

Run: python tflite_xnnpack_empty_matmul.py   (exit status 1 while the bug is present)
"""

import sys

import numpy as np
import tensorflow as tf
from ai_edge_litert.interpreter import Interpreter, OpResolverType

SPEC = tf.TensorSpec([None, 5, 3, 0], tf.float32)


@tf.function(input_signature=[SPEC, SPEC])
def f(a, b):
    return tf.reduce_sum(tf.matmul(a, b, transpose_b=True), axis=-2, keepdims=True)


model = tf.lite.TFLiteConverter.from_concrete_functions([f.get_concrete_function()], f).convert()
a = np.zeros((2, 5, 3, 0), np.float32)
results = {}
for kind in (OpResolverType.AUTO, OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES):
    interpreter = Interpreter(model_content=model, experimental_op_resolver_type=kind)
    inputs = interpreter.get_input_details()
    try:
        for d in inputs:
            interpreter.resize_tensor_input(d["index"], a.shape)
        interpreter.allocate_tensors()
        for d in inputs:
            interpreter.set_tensor(d["index"], a)
        interpreter.invoke()
        results[kind.name] = interpreter.get_tensor(interpreter.get_output_details()[0]["index"]).shape
    except RuntimeError as e:
        results[kind.name] = f"RuntimeError: {str(e)[:120]}"
    print(f"{kind.name}: {results[kind.name]}")
print(f"TensorFlow: {tuple(f(a, a).shape)}")
broken = results["AUTO"] != tuple(f(a, a).shape)
print("verdict:", "LiteRT's XNNPack delegate cannot prepare a batch matmul over an empty dim" if broken
      else "agrees (fixed?)")
sys.exit(1 if broken else 0)
