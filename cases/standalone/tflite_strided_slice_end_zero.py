"""Our process or TensorFlow Lite? A slice that ends at 0 (`y[:0]`, `y[:, :0]`) comes back whole from a model with a
dynamic batch (found by conformance 2026-11-28 while triaging the TensorFlow deployment campaign's empty-output
findings, issue 18; tensorflow 2.21.0, ai-edge-litert 2.3.0).

Needs only numpy, tensorflow (the converter) and ai-edge-litert (the interpreter). A tf.function of `y[:0] * 2.0`
with input_signature [None, 3], converted by tf.lite.TFLiteConverter (float32, builtins) and run by LiteRT's
interpreter on a [4, 3] input: TensorFlow returns shape (0, 3); the interpreter returns all of `y * 2`, shape (4, 3).
`y[:, :0]` likewise gives (4, 3) for (4, 0); `y[1:1]` is right (0, 3), and so is `y[:1]`. With a static [4, 3]
signature the empty output cannot be read at all ('Invalid tensor size.', the known get_tensor refusal).

Run: python tflite_strided_slice_end_zero.py   (exit status 1 while the bug is present)
"""

import sys

import numpy as np
import tensorflow as tf
from ai_edge_litert.interpreter import Interpreter


def tflite_shape(fn, x):
    f = tf.function(fn, input_signature=[tf.TensorSpec([None, x.shape[1]], tf.float32)])
    model = tf.lite.TFLiteConverter.from_concrete_functions([f.get_concrete_function()], f).convert()
    interpreter = Interpreter(model_content=model)
    inp = interpreter.get_input_details()[0]
    interpreter.resize_tensor_input(inp["index"], x.shape)
    interpreter.allocate_tensors()
    interpreter.set_tensor(inp["index"], x)
    interpreter.invoke()
    return interpreter.get_tensor(interpreter.get_output_details()[0]["index"]).shape, tuple(f(x).shape)


def rows_to_zero(y):
    return y[:0] * 2.0


def columns_to_zero(y):
    return y[:, :0] * 2.0


def rows_one_to_one(y):
    return y[1:1] * 2.0


x = np.arange(12, dtype=np.float32).reshape(4, 3)
wrong = 0
for name, fn in (("y[:0] * 2", rows_to_zero), ("y[:, :0] * 2", columns_to_zero), ("y[1:1] * 2", rows_one_to_one)):
    lite, eager = tflite_shape(fn, x)
    print(f"{name}: TensorFlow Lite {lite}, TensorFlow {eager}")
    wrong += lite != eager
print("verdict:", "TensorFlow Lite returns the whole dim for a slice ending at 0" if wrong else "agrees (fixed?)")
sys.exit(1 if wrong else 0)
