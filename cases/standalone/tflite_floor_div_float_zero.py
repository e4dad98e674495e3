"""Our process or TensorFlow Lite's? tf.tflite / tf.tflite_select_tf_ops runtime errors "Division by 0 Node number N
(FLOOR_DIV) failed to invoke." (the TensorFlow deployment campaign of 2026-11-28, seed 0: 15 findings, e.g. cases
5bb527277308, 264a83b826ba; minimised by conformance triage to `x // x` of a float32 tensor holding 0, case
14c34a10a10d).

Needs only numpy and tensorflow (2.21.0 here; ai_edge_litert 2.3.0 is tried too where installed). TensorFlow's
FloorDiv of floats follows IEEE 754 (0 // 0 is NaN, 1 // 0 is inf); TensorFlow Lite's FLOOR_DIV kernel checks every
divisor for zero, whatever the type, and fails the whole invoke. Known bug TFLITE_FLOOR_DIV_ZERO
(conformance/paths/tf/deployment_records.py).

Run: python tflite_floor_div_float_zero.py   (exit status 1 while the float division by zero is refused)
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
    x = np.array([0.0, 1.5, -2.0], np.float32)
    y = np.array([0.0, 0.0, 1.0], np.float32)
    spec = tf.TensorSpec([3], tf.float32)
    function = tf.function(lambda x, y: tf.math.floordiv(x, y), input_signature=[spec, spec])
    eager = function(x, y).numpy()
    print(f"x = {x}, y = {y}\n  TensorFlow x // y: {eager}")
    flatbuffer = tf.lite.TFLiteConverter.from_concrete_functions([function.get_concrete_function()]).convert()
    failed = False
    for name, interpreter in interpreters(flatbuffer):
        interpreter.allocate_tensors()
        for detail, value in zip(interpreter.get_input_details(), (x, y)):
            interpreter.set_tensor(detail["index"], value)
        try:
            interpreter.invoke()
            out = interpreter.get_tensor(interpreter.get_output_details()[0]["index"])
            print(f"  {name}: {out}")
            failed |= not np.array_equal(out, eager, equal_nan=True)
        except RuntimeError as e:
            print(f"  {name}: RuntimeError: {' '.join(str(e).split())}")
            failed = True
    print("BUG: TensorFlow Lite's FLOOR_DIV refuses a float division by zero" if failed else
          "FIXED: TensorFlow Lite floors like TensorFlow")
    return failed


if __name__ == "__main__":
    sys.exit(1 if main() else 0)
