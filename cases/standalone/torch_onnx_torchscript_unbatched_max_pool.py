"""PyTorch's TorchScript ONNX exporter (torch.onnx.export(dynamo=False)): max pooling of an unbatched input
(F.max_pool3d of (C, D, H, W), F.max_pool2d of (C, H, W), F.max_pool1d of (C, L), all of which torch accepts) is
written as an ONNX MaxPool over that input as it is, which ONNX reads as (N, C, one spatial dim fewer): the
kernel, strides and dilations have one dim too many, and onnxruntime refuses the file ('Attribute dilations has
incorrect size'; 1-d: 'Input tensor must have at least 3 dimensions'). The batched input exports right.

Found by conformance 2026-11-29 (torch 2.13.0, onnxruntime 1.31.1), the torch campaign (seed 0, case
401c31e9a1fd); case cases/torch-onnx-torchscript-unbatched-max-pool3d.json. Needs numpy, torch, onnxruntime.
Prints a verdict; exits 1 while the bug is present.
"""

import io
import sys
import warnings

import numpy as np
import onnxruntime as ort
import torch
import torch.nn.functional as F  # noqa: N812 - torch's own name


class Pool(torch.nn.Module):
    def __init__(self, pool):
        super().__init__()
        self.pool = pool

    def forward(self, x):
        return self.pool(x, 2)


def exported(model, x):
    """onnxruntime's result of the exported model, or the error it refuses the file with."""
    buffer = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the exporter's deprecation warning
        torch.onnx.export(model, (x,), buffer, dynamo=False)
    try:
        session = ort.InferenceSession(buffer.getvalue(), providers=["CPUExecutionProvider"])
    except Exception as e:  # onnxruntime refuses the file
        return f"refused: {str(e).splitlines()[0][-90:]}"
    return session.run(None, {session.get_inputs()[0].name: x.numpy()})[0]


def main() -> int:
    torch.manual_seed(0)
    bad = False
    for pool, shape in ((F.max_pool3d, (2, 4, 4, 4)), (F.max_pool2d, (3, 4, 4)), (F.max_pool1d, (3, 4)),
                        (F.max_pool3d, (1, 2, 4, 4, 4))):
        x = torch.randn(*shape)
        want = Pool(pool)(x).numpy()
        got = exported(Pool(pool), x)
        ok = isinstance(got, np.ndarray) and got.shape == want.shape and np.allclose(got, want)
        bad |= not ok
        print(f"{pool.__name__} of {shape}: {'ok' if ok else got}")
    print("BUG PRESENT: the TorchScript exporter writes max pooling of an unbatched input as an invalid MaxPool" if bad
          else "OK: every export agrees with torch")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
