"""Our process or TensorFlow Lite? A tf.tflite conversion_error "ConverterError: <string>:1:1: error: operand #0 does
not dominate this use" (the 2026-11-29 tf campaign, seed 0, 300 s, case ee10d88cc149), minimised by conformance
triage to a tf.TensorArray of size 1 written in a one-iteration loop with a value computed from the input
(cases/tflite-tensor-array-write-does-not-dominate.json).

Needs only numpy and TensorFlow (2.21.0 here). tf.function runs both functions below; TFLiteConverter
.from_concrete_functions (builtin operators) converts the one that writes the input itself, and fails in its own
MLIR passes with an invalid IR ("operand #0 does not dominate this use") on the one that writes `x * 2` (any op on
the input: reduce_mean, stack, expand_dims fail alike).
Known bug `tflite.operand_does_not_dominate` (conformance/paths/known/tflite.py).

Run: python tflite_tensor_array_write_does_not_dominate.py   (exit status 1 while the conversion fails)
"""

import sys

import numpy as np
import tensorflow as tf

SPEC = [tf.TensorSpec([2, 3], tf.float32)]


class Model(tf.Module):
    @tf.function(input_signature=SPEC)
    def write_computed(self, x):
        rows = tf.TensorArray(tf.float32, size=1)
        for i in range(1):
            rows = rows.write(i, x * 2.0)
        return rows.stack()

    @tf.function(input_signature=SPEC)
    def write_input(self, x):
        rows = tf.TensorArray(tf.float32, size=1)
        for i in range(1):
            rows = rows.write(i, x)
        return rows.stack()


def convert(model, function) -> str:
    """The converter's error ("" where it converts)."""
    converter = tf.lite.TFLiteConverter.from_concrete_functions([function.get_concrete_function()], model)
    converter.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS]
    try:
        converter.convert()
        return ""
    except Exception as e:  # noqa: BLE001 - the converter's error is what this script reports
        return f"{type(e).__name__}: {str(e).splitlines()[0]}"


def main() -> bool:
    print("tensorflow", tf.__version__)
    model = Model()
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    print("tf.function write_computed:", model.write_computed(x).numpy().tolist())
    errors = {name: convert(model, getattr(model, name)) for name in ("write_computed", "write_input")}
    for name, error in errors.items():
        print(f"TFLite conversion of {name}: {error or 'converts'}")
    failed = "does not dominate this use" in errors["write_computed"]
    print("verdict:", "TFLite's converter writes an invalid IR for a TensorArray written with a computed value"
          if failed else "not reproduced")
    return failed


if __name__ == "__main__":
    sys.exit(1 if main() else 0)
