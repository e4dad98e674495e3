"""TensorFlow eager itself: what every TensorFlow path meets because eager does it (its gradients, on the CPU).
"""

from conformance.paths.known.factories import Failure, known_bug, refuses_with

RECORDS = (
    refuses_with(
        "tf_eager.truncatemod_no_gradient",
        reason=("TensorFlow registers no gradient for TruncateMod (tf.truncatemod, what torch.fmod is written as), "
                "so eager cannot differentiate it"),
        phases=('eager',),
        errors=('LookupError',),
        message="gradient registry has no entry for: TruncateMod",
        modes=frozenset({'grad', 'train'}),
        reference="https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/ops/math_grad.py",
        details=("TensorFlow registers no gradient for TruncateMod (tf.truncatemod, what torch.fmod is written as; "
                 "FloorMod has one): eager's GradientTape raises 'gradient registry has no entry for: TruncateMod', "
                 "so no path is judged on the program in grad and train mode. Provenance: "
                 "https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/ops/math_grad.py (no "
                 "RegisterGradient('TruncateMod')); seen in the tf campaign seed 0 of 2026-11-29 (cases "
                 "23554a7637dd, acb411e6bcc1)."),
        example=Failure('eager', mode="grad", error_types=('LookupError', 'Exception'),
                        message="gradient registry has no entry for: TruncateMod", ops=('fmod_scalar',)),
    ),
    refuses_with(
        "tf_eager.grouped_conv_cpu_gradient",
        reason="TensorFlow has no CPU kernel for the gradient of a grouped convolution (groups > 1, depthwise too)",
        phases=('eager',),
        errors=('InvalidArgumentError',),
        message="Gradients for grouped convolutions are not supported on CPU",
        modes=frozenset({'grad', 'train'}),
        reference="https://github.com/tensorflow/tensorflow/blob/master/tensorflow/core/kernels/conv_grad_input_ops.h",
        details=("TensorFlow has no CPU kernel for the gradient of a grouped convolution (tf.nn.convolution whose "
                 "filter has fewer input channels than the input: groups > 1, a depthwise convolution written so "
                 "too): eager's Conv2DBackpropInput raises 'Gradients for grouped convolutions are not supported on "
                 "CPU', so no path is judged on the program in grad and train mode on the CPU. Provenance: "
                 "https://github.com/tensorflow/tensorflow/blob/master/tensorflow/core/kernels/conv_grad_input_ops.h; "
                 "seen in the tf campaign seed 0 of 2026-11-29 (cases 41f476a8ec19, ef80ceef8de0)."),
        example=Failure('eager', mode="grad", error_types=('InvalidArgumentError', 'OpError', 'Exception'),
                        message=("{{function_node __wrapped__Conv2DBackpropInput_device_/job:localhost/replica:0/task:"
                                 "0/device:CPU:0}} Gradients for grouped convolutions are not supported on CPU."),
                        ops=('conv2d_depthwise',)),
    ),
    known_bug(
        "tf_eager.conv3d_gradient_data_format",
        reason=("TensorFlow's gradient of a 3-d tf.nn.convolution without a dilation fails in eager: 'NoneType' "
                "object has no attribute 'decode'"),
        phases=('eager',),
        errors=('AttributeError',),
        message=r"'NoneType' object has no attribute 'decode'",
        modes=frozenset({'grad', 'train'}),
        ops=('conv3d',),
        versions=">=2.21",
        script="tf_conv3d_gradient_data_format.py",
        found="2026-11-29 (tensorflow 2.21.0)",
        details=("known bug: the gradient of tf.nn.convolution of a 5-d input without a dilation (what torch's conv3d "
                 "is written as) fails in eager with \"AttributeError: 'NoneType' object has no attribute 'decode'\": "
                 "nn_grad.py's _Conv3DGrad reads the op's data_format, which the Conv3D op tf.nn.convolution makes "
                 "does not carry; with a dilation, tf.nn.conv3d itself, and in 2-d the gradient works. So a program "
                 "with a conv3d has no eager gradient and no path is judged on it in grad and train mode. "
                 "Provenance: found by conformance 2026-11-29 (tensorflow 2.21.0), the tf campaign seed 0 (case "
                 "fa2fd65a9539); cases/standalone/tf_conv3d_gradient_data_format.py."),
        example=Failure('eager', mode="grad", error_types=('AttributeError', 'Exception'),
                        message="'NoneType' object has no attribute 'decode'", ops=('conv3d', 'tanh')),
    ),
    known_bug(
        "tf_eager.sort_empty_gradient",
        reason=("TensorFlow's gradient of top_k (tf.sort, tf.math.top_k) along a dim of size 0 builds a Range with "
                "step 0 and fails"),
        phases=('eager',),
        errors=('InvalidArgumentError',),
        message=r"Requires delta != 0",
        modes=frozenset({'grad', 'train'}),
        ops=('sort', 'topk', 'kthvalue', 'median'),
        versions=">=2.21",
        found="2026-11-29 (tensorflow 2.21.0)",
        details=("known bug: TensorFlow's gradient of TopKV2 (tf.math.top_k, and tf.sort, which is top_k) on a "
                 "tensor whose sorted dim has size 0 computes the index stride as that size and builds "
                 "tf.range(0, n, 0): 'Requires delta != 0' (nn_grad.py _TopKGrad); the forward returns the empty "
                 "result. So a program that sorts a zero-size tensor has no gradient in eager, and no path is judged "
                 "on it in grad and train mode. Provenance: found by conformance 2026-11-29 (tensorflow 2.21.0), the "
                 "tf campaign seed 0 (cases 75269099c23e, 9d1ae882c3b8: a tf.sort of a concat of empty tensors)."),
        example=Failure('eager', mode="grad", error_types=('InvalidArgumentError', 'OpError', 'Exception'),
                        message=("{{function_node __wrapped__Range_device_/job:localhost/replica:0/task:0/device:CPU:"
                                 "0}} Requires delta != 0: 0 [Op:Range] name: "),
                        ops=('sort', 'concat_empty')),
    ),
)
