"""OpenVINO (TensorFlow reader): a grouped convolution with a dilation (tf.nn.convolution of a [1, 7, 7, 4] input
with filters [2, 2, 2, 4], i.e. 2 groups, and dilations=2; TensorFlow writes it as SpaceToBatchND, Conv2D,
BatchToSpaceND) is read as a plain Convolution and refused: 'Data batch channel count (4) does not match filter input
channel count (2)'. The same convolution without the dilation converts and agrees with TensorFlow.

Found by conformance 2026-11-29 (tensorflow 2.21.0, openvino 2026.4.1), the tf campaign rerun (seed 0, case
2890188824e1: torch's conv2d with groups=2, dilation=2); case cases/tf-openvino-dilated-grouped-conv.json. Needs
numpy, tensorflow, openvino. Prints a verdict; exits 1 while the bug is present.
"""

import sys
import tempfile

import numpy as np
import openvino as ov
import tensorflow as tf


def through_openvino(dilation, filters, x):
    """TensorFlow's and OpenVINO's result of the convolution, or the error OpenVINO refuses it with."""
    module = tf.Module()
    module.f = tf.function(lambda t: tf.nn.convolution(t, filters, padding="VALID", dilations=dilation),
                           input_signature=[tf.TensorSpec(x.shape, tf.float32)])
    want = module.f(tf.constant(x)).numpy()
    with tempfile.TemporaryDirectory() as folder:
        tf.saved_model.save(module, folder, signatures=module.f.get_concrete_function())
        try:
            compiled = ov.Core().compile_model(ov.convert_model(folder), "CPU")
        except Exception as error:  # OpenVINO refuses the model
            return want, "refused: " + str(error).strip().splitlines()[-1][:100]
    return want, np.asarray(compiled([x])[0])


def main() -> int:
    rng = np.random.default_rng(0)
    filters = tf.constant(rng.uniform(-0.5, 0.5, (2, 2, 2, 4)).astype(np.float32))  # 2 input channels per group
    x = rng.uniform(-1, 1, (1, 7, 7, 4)).astype(np.float32)
    bad = False
    for dilation in (1, 2):
        want, got = through_openvino(dilation, filters, x)
        ok = isinstance(got, np.ndarray) and got.shape == want.shape and np.allclose(got, want, rtol=1e-5, atol=1e-5)
        bad |= not ok
        print(f"groups 2, dilation {dilation}: {'ok' if ok else got}")
    print("BUG PRESENT: OpenVINO refuses a dilated grouped convolution" if bad else "OK: OpenVINO agrees")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
