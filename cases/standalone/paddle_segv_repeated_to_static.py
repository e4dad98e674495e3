"""Our process or Paddle? The SIGSEGV in campaigns (issue 20, item 5: "after to_static_sot -> jit_save ->
jit_save_methods -> jit_save_function in one process", case 8cb4a7598773 of the seed-0 paddle campaign).

Needs only numpy and paddle (3.3.1 here): the model below is that case's generated model, unchanged. The script
converts it with paddle.jit.to_static (AST, the hand-written input_spec) and calls it once, again and again, in
one process: no SOT, no jit.save, nothing of conformance. Paddle segfaults after a few to tens of conversions
(here: 4 runs of 40 conversions, 4 crashed; the same sequence in conformance's order crashes about 40% of runs).
gdb (`gdb -ex "set disable-randomization off" -ex run -ex bt --args python this.py`) shows the crash in PIR's
program construction:

    #0 pir::detail::OpOperandImpl::InsertToUdChain()
    #1 pir::detail::OpOperandImpl::OpOperandImpl(pir::Value, pir::Operation*)
    #2 pir::Operation::Create(...)
    #5 pir::Builder::Build<pir::YieldOp, std::vector<pir::Value>&>   (cf.yield of a while/if block)

a use of a freed pir::Value: memory corruption inside Paddle, which a Python caller cannot cause. It depends on
the heap layout (gdb with address randomization off, or faulthandler installed after import, hides it), which is
why it showed up only after particular sequences of paths. Removing the batch_norm inside the last while loop
makes it go away (0 of 3 runs); cutting the model further did too, so it is not minimised.

Run: python paddle_segv_repeated_to_static.py [conversions]   (exit status 139 while the bug is present)
"""

import sys
from typing import List

import numpy as np
import paddle
import paddle.nn.functional as F


SEED = 1000000001


def _weight(index, shape, scale):
    """Weight number `index`: uniform in [-scale, scale], the same values in every framework."""
    rng = np.random.default_rng([SEED, 0, index])
    return rng.uniform(-scale, scale, size=shape).astype(np.float32)


class Model(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.p0 = self.create_parameter(_weight(0, (2,), 0.5).shape, dtype='float32', default_initializer=paddle.nn.initializer.Assign(_weight(0, (2,), 0.5).astype('float32')))
        self.p1 = self.create_parameter(_weight(1, (2,), 0.5).shape, dtype='float32', default_initializer=paddle.nn.initializer.Assign(_weight(1, (2,), 0.5).astype('float32')))
        self.register_buffer('p2', paddle.to_tensor(_weight(2, (2,), 0.5).astype('float32')))
        self.register_buffer('p3', paddle.to_tensor((_weight(3, (2,), 0.25) + np.float32(1.0)).astype('float32')))
        self.p4 = self.create_parameter(_weight(4, (2,), 0.5).shape, dtype='float32', default_initializer=paddle.nn.initializer.Assign(_weight(4, (2,), 0.5).astype('float32')))
        self.p5 = self.create_parameter(_weight(5, (2,), 0.5).shape, dtype='float32', default_initializer=paddle.nn.initializer.Assign(_weight(5, (2,), 0.5).astype('float32')))
        self.register_buffer('p6', paddle.to_tensor(_weight(6, (2,), 0.5).astype('float32')))
        self.register_buffer('p7', paddle.to_tensor((_weight(7, (2,), 0.25) + np.float32(1.0)).astype('float32')))
        self.p8 = self.create_parameter(_weight(8, (1,), 0.5).shape, dtype='float32', default_initializer=paddle.nn.initializer.Assign(_weight(8, (1,), 0.5).astype('float32')))
        self.p9 = self.create_parameter(_weight(9, (1,), 0.5).shape, dtype='float32', default_initializer=paddle.nn.initializer.Assign(_weight(9, (1,), 0.5).astype('float32')))
        self.register_buffer('p10', paddle.to_tensor(_weight(10, (1,), 0.5).astype('float32')))
        self.register_buffer('p11', paddle.to_tensor((_weight(11, (1,), 0.25) + np.float32(1.0)).astype('float32')))

    def forward(self, x0: List[paddle.Tensor], x1: List[paddle.Tensor], flag0: bool = False, flag1: bool = False):
        v0 = x0[0]
        v1 = x0[1]
        v2 = x1[0]
        v3 = x1[1]
        v4 = x1[2]
        v11 = paddle.tanh(v3)
        v12 = paddle.tanh(v4)
        v5 = F.batch_norm(v2, self.p2, self.p3, self.p0, self.p1, training=self.training, momentum=0.9, epsilon=1e-05)
        v6 = v2
        for it0 in range(1):
            v6 = paddle.concat([v6, v2], axis=2)
        v6 = paddle.mean(v6, axis=2, keepdim=True)
        if flag1:
            it1 = 0
            while it1 < 4 and v6.max() > 1.0:
                it1 += 1
                v7 = F.batch_norm(v2, self.p6, self.p7, self.p4, self.p5, training=self.training, momentum=0.9, epsilon=1e-05)
                if v3.sum() > 0.0:
                    break
                v7 = F.relu_(v7)
                v6 = F.sigmoid(v6)
            v1 = paddle.tanh(v1)
        else:
            it2 = 0
            while it2 < 1 and v3.mean() > 1.5:
                it2 += 1
                if v3.min() > 1.5:
                    continue
                v3 = paddle.tanh(v4)
        it3 = 0
        while it3 < 1 and v6.sum() < 1.75:
            it3 += 1
            v8 = v5 < v6
            if v0.min() > -1.5:
                continue
            v6 = paddle.tanh(v6)
        if v0.min() < -1.5:
            return ({'out0': v2, 'out1': v0}, v11, v12)
        it4 = 0
        while it4 < 1 and v5.sum() < 0.0:
            it4 += 1
            v9 = F.batch_norm(v0, self.p10, self.p11, self.p8, self.p9, training=self.training, momentum=0.9, epsilon=1e-05)
            v10 = paddle.sum(v5, axis=1, keepdim=True)
            v5 = paddle.tanh(v1)
        v4 = paddle.log(v2)
        return ({'out0': v1, 'out1': v0}, v11, v12)



def main(conversions: int) -> None:
    rng = np.random.default_rng(0)
    x0 = [paddle.to_tensor(rng.uniform(-3, 3, (2, 1)).astype("float32")),
          paddle.to_tensor(rng.uniform(-3, 3, (1, 2, 5)).astype("float32"))]
    x1 = [paddle.to_tensor(rng.uniform(0.1, 2, (1, 2, 5)).astype("float32")),
          paddle.to_tensor(rng.uniform(-3, 3, (1, 2, 5)).astype("float32")),
          paddle.to_tensor(rng.uniform(-1, 1, (1, 2, 5)).astype("float32"))]
    S = paddle.static.InputSpec
    spec = [[S([None, 1], "float32", "x0.0"), S([1, 2, 5], "float32", "x0.1")],
            [S([1, 2, 5], "float32", "x1.0"), S([1, 2, 5], "float32", "x1.1"), S([1, 2, 5], "float32", "x1.2")],
            False, False]
    for i in range(conversions):
        model = Model()
        model.eval()
        static = paddle.jit.to_static(model, input_spec=spec, full_graph=True)
        with paddle.no_grad():
            static(x0, x1, False, False)
        print(f"conversion {i + 1} ok", flush=True)
    print(f"{conversions} conversions without a crash (it depends on the heap layout: run again)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 40)
