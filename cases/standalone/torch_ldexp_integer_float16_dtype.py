"""Our process or PyTorch? torch.compile / torch.compile_dynamic mismatch "dtype float32 != eager float16" and
torch.onnx_dynamo conversion error "Type parameter (T) of Optype (Mul) bound to different types (tensor(float16) and
tensor(float))" (clean torch campaign of 2026-11-28, seed 9, infer mode, case d4a84b8aba7b: torch.ldexp of an int32
tensor by a float16 one). Minimised by hand.

Needs torch (2.13.0 here; onnxscript and onnxruntime for the ONNX part). Eager torch.ldexp(a, b) of an int32 a and a
float16 b is float16 (torch.export keeps aten.ldexp, and its module agrees); aten.ldexp's decomposition
(torch/_decomp/decompositions.py: `self * torch.pow(two, other)` with a float32 `two` for an integer self) gives
float32 under inductor, and the dynamo ONNX exporter writes a Mul of float16 and float32, which onnxruntime refuses.

Run: python torch_ldexp_integer_float16_dtype.py   (exit status 1 while the bug is present)
"""

import io
import sys
import warnings


def main() -> int:
    import torch

    class Ldexp(torch.nn.Module):
        def forward(self, a, b):
            return torch.ldexp(a, b)

    a = torch.ones(2, 2, dtype=torch.int32)
    b = torch.ones(2, 2, dtype=torch.float16)
    eager = Ldexp()(a, b).dtype
    compiled = torch.compile(Ldexp(), backend="inductor")(a, b).dtype
    print(f"eager: {eager}; torch.compile (inductor): {compiled}")
    wrong = compiled != eager
    try:
        import onnxruntime as ort

        buf = io.BytesIO()
        torch.onnx.export(Ldexp(), (a, b), buf, dynamo=True, input_names=["a", "b"], verbose=False)
        out = ort.InferenceSession(buf.getvalue()).run(None, {"a": a.numpy(), "b": b.numpy()})[0]
        print(f"torch.onnx.export(dynamo=True) on onnxruntime: {out.dtype}")
        wrong |= str(out.dtype) != "float16"
    except ImportError:
        print("onnxruntime or onnxscript not installed: the ONNX part is skipped")
    except Exception as e:  # noqa: BLE001 - the refusal is what this script reports
        wrong = True
        print(f"torch.onnx.export(dynamo=True) on onnxruntime: {type(e).__name__}: {str(e).splitlines()[0][-160:]}")
    print("verdict:", "PyTorch: aten.ldexp's decomposition changes the dtype" if wrong else "not reproduced")
    return 1 if wrong else 0


if __name__ == "__main__":
    warnings.simplefilter("ignore")
    sys.exit(main())
