"""Paddle AST to_static: a list grown in a converted loop (a tensor array) returned as an output.

``n = int(x.abs().sum() * 2.0) % 4; l = [tanh(x)]; for i in range(n): l.append(tanh(x) * 2.0); return l``: dygraph
returns the list; the converted layer fails at its first call, ``(InvalidArgument) dst_tensor `output_0` shall be
defined`` (the layer in eval(), or under no_grad), or, in train() with an input that needs a gradient, ``(Unimplemented)
Only support paddle::dialect::DenseTensorType or paddle::dialect::AllocatedDenseTensorType``; the same list stacked
into a tensor before returning runs. Campaign seed 1, 600 s, cases 26c4c0f6b943, c2d01cebb94d; case
``paddle-to-static-tensor-array-output.json``; known bug ``pir_ast.tensor_array_output``. Needs numpy and
paddlepaddle; exits 1 while the bug is present.
"""

import sys

import numpy as np
import paddle


class Model(paddle.nn.Layer):
    def forward(self, x):
        n = int(x.abs().sum() * 2.0) % 4
        steps = [paddle.tanh(x)]
        for _ in range(n):
            steps.append(paddle.tanh(x) * 2.0)
        return steps


xn = np.random.default_rng(1).uniform(-1, 1, (2, 3)).astype(np.float32)
spec = [paddle.static.InputSpec([None, 3], "float32")]
eager = [t.numpy() for t in Model()(paddle.to_tensor(xn))]
ok = True
for training, no_grad in ((False, True), (True, False)):
    model = Model()
    model.train() if training else model.eval()
    static = paddle.jit.to_static(model, input_spec=spec, full_graph=True)
    x = paddle.to_tensor(xn, stop_gradient=not training)
    try:
        if no_grad:
            with paddle.no_grad():
                out = static(x)
        else:
            out = static(x)
        same = len(out) == len(eager) and all(np.allclose(o.numpy(), e) for o, e in zip(out, eager))
        got = f"a list of {len(out)}"
    except (ValueError, NotImplementedError) as e:
        same, got = False, next(line.strip() for line in str(e).splitlines() if "Error:" in line or "shall be" in line)
    print(f"{'train()' if training else 'eval()'}, {'no_grad' if no_grad else 'autograd on'}: eager a list of "
          f"{len(eager)}, to_static {got}", "" if same else "<- differs")
    ok &= same
print("paddle", paddle.__version__, "verdict:", "agrees with eager" if ok else
      "a list grown in a converted loop cannot be returned")
sys.exit(0 if ok else 1)
