"""The driver of a standalone reproducer (``repro.py``, written by ``conformance triage``).

:mod:`conformance.triage.repro` copies this module's source, unchanged but for the data lines marked below,
to the end of a ``repro.py`` that defines above it: the model (``Model``, ``load_inputs``), the framework's
``prepare``, ``call`` and ``to_numpy``, and the path's ``convert`` and ``run``, all copied from the code the
campaign ran. So this module is standalone too: it imports only the standard library and numpy.

It converts the model on ``example.npz`` as the campaign did (a context with the conversion's plain-data
fields), runs eager and the converted model on every file of ``RUN_ON``, prints both and what differs, and
exits with status 1 while the bug is there.
"""

import os
import pathlib
import sys
import traceback
import types

import numpy as np

# -- data: conformance triage writes these lines for each bucket
PATH = "framework.path"
RUN_ON = ["example.npz"]
HERE = pathlib.Path(__file__).resolve().parent
LEAF_NAMES = []
ARG_NAMES = []
DYNAMIC_AXES = {}
ONNX_OPSET = None  # the ONNX opset the campaign asked the exporter for (--onnx-opset); None: its default
DEVICE = "cpu"  # where the campaign ran the model (--device)
# -- end of data

CONVERT_WITH = "example.npz"
RTOL, ATOL = 1.3e-6, 1e-5  # torch.testing.assert_close's float32 defaults
#: What repro.py defines above this driver, and the driver calls.
PIECES = ("Model", "load_inputs", "prepare", "call", "to_numpy", "convert", "run")


def output_leaves(tree):
    """The arrays of a nested list/tuple/dict output, in order."""
    if isinstance(tree, (list, tuple)):
        return [leaf for item in tree for leaf in output_leaves(item)]
    if isinstance(tree, dict):
        return [leaf for item in tree.values() for leaf in output_leaves(item)]
    return [tree]


def aligned_leaves(got, want):
    """The converted model's output leaves in the order of eager's (``want``): by key where both are dicts (a
    loaded SavedModel sorts dict keys), by position otherwise; outputs returned flat (an ONNX runtime) are
    compared with eager's leaves in order."""
    if isinstance(want, dict) and isinstance(got, dict) and set(got) == set(want):
        return [leaf for key in want for leaf in aligned_leaves(got[key], want[key])]
    if isinstance(want, (list, tuple)) and isinstance(got, (list, tuple)) and len(got) == len(want):
        return [leaf for g, w in zip(got, want) for leaf in aligned_leaves(g, w)]
    return output_leaves(got)


def differences(got, want):
    """What differs between the converted model's outputs and eager's (flat lists of arrays)."""
    if len(got) != len(want):
        return [f"{len(got)} outputs, eager has {len(want)}"]
    found = []
    for i, (g, w) in enumerate(zip(got, want)):
        if g.shape != w.shape or g.dtype != w.dtype:
            found.append(f"output {i}: {g.dtype}{list(g.shape)}, eager {w.dtype}{list(w.shape)}")
            continue
        if w.dtype.kind in "fc":
            bad = ~np.isclose(g, w, rtol=RTOL, atol=ATOL, equal_nan=True)
        else:
            bad = g != w
        if bad.any():
            first = tuple(int(j) for j in np.unravel_index(np.argmax(bad), bad.shape))
            with np.errstate(invalid="ignore"):
                diff = np.abs(g.astype(np.float64) - w.astype(np.float64))
            found.append(f"output {i}: {int(bad.sum())} of {bad.size} values differ, max abs difference "
                         f"{np.nanmax(diff):.6g}; first at {first}: converted {g[first]!r}, eager {w[first]!r}")
    return found


def reproduce(Model, load_inputs, prepare, call, to_numpy, convert, run):
    """Convert, run on every input file, compare with eager: the exit status (1 while the bug is there)."""
    np.set_printoptions(precision=6, threshold=40, edgeitems=3)
    args, kwargs = load_inputs(os.path.join(HERE, CONVERT_WITH), DEVICE)
    ctx = types.SimpleNamespace(model=prepare(Model(), DEVICE, False), args=args, kwargs=kwargs, device=DEVICE,
                                workdir=HERE, tensor_names=LEAF_NAMES, arg_names=ARG_NAMES,
                                dynamic_axes=DYNAMIC_AXES, kwarg_sets=[kwargs], mode="infer", onnx_opset=ONNX_OPSET)
    try:
        artifact = convert(ctx)
    except Exception:
        traceback.print_exc()
        print(f"\nFAILED: {PATH} raised while converting")
        return 1
    eager_model = prepare(Model(), DEVICE, False)
    failed = False
    for name in RUN_ON:
        args, kwargs = load_inputs(os.path.join(HERE, name), DEVICE)
        eager = call(eager_model, args, kwargs)
        want = [np.asarray(to_numpy(leaf)) for leaf in output_leaves(eager)]
        print(f"== {name} (kwargs {kwargs})\neager:     {want}")
        args, kwargs = load_inputs(os.path.join(HERE, name), DEVICE)  # afresh: a path may write into its inputs
        try:
            got = [np.asarray(to_numpy(leaf)) for leaf in aligned_leaves(run(artifact, args, kwargs), eager)]
        except Exception:
            traceback.print_exc()
            print(f"FAILED: the {PATH} model raised on {name}")
            failed = True
            continue
        print(f"converted: {got}")
        for line in differences(got, want):
            print("difference:", line)
            failed = True
    print(f"\nFAILED: {PATH} differs from eager" if failed else f"\nOK: {PATH} agrees with eager")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(reproduce(*(globals()[name] for name in PIECES)))
