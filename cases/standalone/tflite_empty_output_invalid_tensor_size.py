"""Our process or LiteRT's? tf.tflite / tf.tflite_select_tf_ops runtime errors "ValueError: Invalid tensor size." on the
example inputs (the TensorFlow deployment campaign of 2026-11-28, seed 0: 164 findings, e.g. cases 5d978c09f45b,
e2d2c479f86c; every one a program with a zero-size tensor).

Needs only numpy and tensorflow (2.21.0 here; ai_edge_litert 2.3.0 is tried too where installed). The interpreter runs
the model: what fails is reading an output back. The Python wrapper's get_tensor (which the signature runner calls too)
refuses any tensor of 0 bytes (CheckGetTensorArgs in interpreter_wrapper.cc: `if (tensor->bytes == 0) "Invalid
tensor size."`), and an op's zero-size output in a model of static shapes has 0 bytes; an output that is an input,
or one of a dim resized at run time (a None in the input signature), is read. Inputs go in as the documented
resize_tensor_input / allocate_tensors / set_tensor sequence asks; the same error comes from the signature runner.
Reported upstream as tensorflow/tensorflow#57084 (closed as stale). Known bug TFLITE_EMPTY_OUTPUT
(conformance/paths/tf/deployment_records.py).

Run: python tflite_empty_output_invalid_tensor_size.py   (exit status 1 while an empty output cannot be read)
"""

import sys

import numpy as np
import tensorflow as tf


def interpreters(flatbuffer: bytes):
    yield "tf.lite.Interpreter", tf.lite.Interpreter(model_content=flatbuffer, num_threads=1)
    try:
        from ai_edge_litert.interpreter import Interpreter
    except ImportError:
        return
    yield "ai_edge_litert", Interpreter(model_content=flatbuffer, num_threads=1)


def main() -> bool:
    print("tensorflow", tf.__version__)
    x = np.zeros((2, 0, 3), np.float32)
    function = tf.function(lambda x: tf.abs(x), input_signature=[tf.TensorSpec(x.shape, tf.float32, name="x")])
    print(f"eager: tf.abs of a {x.shape} tensor is {tuple(function(x).shape)}")
    flatbuffer = tf.lite.TFLiteConverter.from_concrete_functions([function.get_concrete_function()]).convert()
    failed = False
    for name, interpreter in interpreters(flatbuffer):
        index = interpreter.get_input_details()[0]["index"]
        interpreter.resize_tensor_input(index, x.shape)
        interpreter.allocate_tensors()
        interpreter.set_tensor(index, x)
        interpreter.invoke()
        output = interpreter.get_output_details()[0]
        print(f"{name}: invoke ran; the output's details say shape {[int(d) for d in output['shape']]}")
        try:
            value = interpreter.get_tensor(output["index"])
            print(f"  get_tensor: {value.shape}")
        except ValueError as e:
            print(f"  get_tensor: ValueError: {e}")
            failed = True
    print("BUG: TensorFlow Lite's Python API cannot read a zero-size output" if failed else
          "FIXED: every interpreter returns the empty output")
    return failed


if __name__ == "__main__":
    sys.exit(1 if main() else 0)
