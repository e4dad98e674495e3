"""The TFLite converter writes a broadcasting tf.math.atan2 as tfl.atan2, which takes operands of one shape only:
"'tfl.atan2' op requires the same type for all operands and results" (ConverterError). Found by conformance 2026-11-29
(tensorflow 2.21.0), the tf campaign seed 0 (case 7c5806907506, tf.tflite conversion_error).

Needs only TensorFlow (2.21.0 here). atan2 of a [2, 3] and a [3] tensor (TensorFlow broadcasts them) fails to
convert; the same with equal shapes, or shapes the converter cannot tell apart ([None, 3] twice), converts.

Run: python tflite_atan2_broadcast.py   (exit status 1 while the conversion fails)
"""

import sys

import tensorflow as tf


def converts(x_shape, y_shape) -> bool:
    @tf.function(input_signature=[tf.TensorSpec(x_shape, tf.float32), tf.TensorSpec(y_shape, tf.float32)])
    def f(x, y):
        return tf.math.atan2(x, y)

    try:
        tf.lite.TFLiteConverter.from_concrete_functions([f.get_concrete_function()], f).convert()
    except Exception as e:  # noqa: BLE001 - the converter's refusal is what this script looks for
        line = next((ln for ln in str(e).splitlines() if "error:" in ln), str(e)[:200])
        print(f"  {type(e).__name__}: ...{line[line.find('error:'):]}")
        return False
    return True


def main() -> bool:
    print("tensorflow", tf.__version__)
    broadcast = converts([2, 3], [3])
    print(f"atan2 of [2, 3] and [3]: {'converts' if broadcast else 'REFUSED'}")
    same = converts([2, 3], [2, 3])
    print(f"atan2 of [2, 3] and [2, 3]: {'converts' if same else 'REFUSED'}")
    wrong = same and not broadcast
    print("verdict:", "TFLite's converter does not broadcast atan2's operands" if wrong else "not reproduced")
    return wrong


if __name__ == "__main__":
    sys.exit(1 if main() else 0)
