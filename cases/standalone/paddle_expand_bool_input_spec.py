"""Paddle: jit.save builds the program from the InputSpec, which leaves a bool input needing a gradient, and static
paddle.expand refuses that bool.

``forward(m, x): return paddle.expand(m, [2, 3]), tanh(x)`` with ``m`` a bool tensor: dygraph runs it, and so does
AST ``to_static`` called on tensors (a bool tensor does not need a gradient); ``jit.save`` builds the program from the
``InputSpec`` (``stop_gradient`` False by default, for the bool too), and static ``paddle.expand`` refuses it:
``ValueError: When the data type of input 'x' for expand is bool, you must set its stop_gradient to be False by
some_var.stop_gradient = True`` (sic). ``InputSpec(..., stop_gradient=True)`` saves. Found by jit.save (deployment
campaign seed 0, cases aca1b4271a2c, c91e97fae24a; campaign seed 0, 300 s, case f2343ae19b76); known bug
``paddle_jit_save.expand_bool_input_spec``, case ``cases/paddle-jit-save-expand-bool-input-spec.json``. Needs numpy
and paddlepaddle; exits 1 while the bug is present.
"""

import os
import sys
import tempfile

import numpy as np
import paddle


class Model(paddle.nn.Layer):
    def forward(self, m, x):
        return paddle.expand(m, [2, 3]), paddle.tanh(x)


m = paddle.to_tensor(np.array([[True, False, True]]))
x = paddle.to_tensor(np.linspace(-1.0, 1.0, 3, dtype=np.float32))
eager = Model()(m, x)


def spec(stop_gradient):
    given = {} if stop_gradient is None else {"stop_gradient": stop_gradient}  # None: the InputSpec's default
    return [paddle.static.InputSpec([1, 3], "bool", "m", **given), paddle.static.InputSpec([3], "float32", "x")]


def to_static_train(stop_gradient):
    model = Model()
    model.train()
    return paddle.jit.to_static(model, input_spec=spec(stop_gradient), full_graph=True)(m, x)


def saved(stop_gradient):
    model = Model()
    model.eval()
    prefix = os.path.join(tempfile.mkdtemp(), "model")
    paddle.jit.save(paddle.jit.to_static(model, input_spec=spec(stop_gradient), full_graph=True), prefix)
    return paddle.jit.load(prefix)(m, x)


ok = True
for how, run in (("to_static called on tensors, train()", to_static_train), ("jit.save + jit.load", saved)):
    for stop_gradient in (None, True):
        try:
            out = run(stop_gradient)
            same = all(np.array_equal(a.numpy(), b.numpy()) for a, b in zip(out, eager))
            got = "the same outputs" if same else "other outputs"
        except ValueError as e:
            same, got = False, next((line.strip() for line in str(e).splitlines() if "When the data type" in line),
                                    str(e).strip().splitlines()[-1])
        label = "InputSpec default" if stop_gradient is None else "InputSpec stop_gradient=True"
        print(f"{how}, {label}: eager runs, converted: {got}", "" if same else "<- differs")
        ok &= same
print("paddle", paddle.__version__, "verdict:", "agrees with eager" if ok else
      "static paddle.expand refuses a bool input the InputSpec leaves needing a gradient")
sys.exit(0 if ok else 1)
