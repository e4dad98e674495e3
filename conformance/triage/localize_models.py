"""Where a model of your own first goes wrong along a path: the first submodule whose output differs.

``conformance check`` finds that a path disagrees with eager on a user's model; a user's model has no IR
to cut, but it has submodules. :func:`localize_model` runs eager once with forward hooks on every submodule
(torch ``register_forward_hook``, Paddle ``register_forward_post_hook``), recording what each one gets and
returns on its first call, then:

* for a path that writes an ONNX file, converts the whole model once, marks the output of every node of
  the file as a graph output, runs it, and names the first submodule (in the order they return) whose
  output differs: the output of the last node in its scope where the exporter names nodes after their
  submodules (the TorchScript exporter: ``/blocks.1/act/Tanh``), else "no tensor of the file holds it";
* for the other paths (and where the ONNX file holds every value), converts submodules alone along the
  path, on the inputs eager gave them, and compares each with eager (fp64 reference, nudged-input noise,
  the same oracle): the children of the model first, in the order they are called, then the children of
  the first one that differs, and so on. The deepest submodule that differs while its own children agree
  is named. At most ``max_conversions`` conversions.

Where no submodule differs alone, the answer says so: the divergence is in the model's own ``forward`` code
around its submodules, or arises only when they are converted together (a fusion across them).
TensorFlow models have no forward hooks: not available there.
"""

from __future__ import annotations

import copy
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Optional

import numpy as np

from conformance.judge.oracle import diagnose
from conformance.paths.records import ConvertContext, FlatOutputs, PathRecord, load_framework
from conformance.program.trees import flatten, map_tree, unflatten


@dataclass
class SubmoduleVerdict:
    name: str  # the submodule's qualified name (``encoder.layer1``)
    verdict: str  # agree, differs, fails (cannot be converted or run alone), skipped
    message: str = ""
    max_abs_err: Optional[float] = None
    max_rel_err: Optional[float] = None


@dataclass
class ModuleLocalisation:
    status: str  # found, none (no submodule differs alone), unavailable
    message: str
    submodule: Optional[str] = None
    method: str = ""  # onnx (intermediate outputs of the file) or alone (submodules converted alone)
    nodes: list = field(default_factory=list)  # ONNX: the file's nodes in the submodule's scope
    max_abs_err: Optional[float] = None
    max_rel_err: Optional[float] = None
    conversions: int = 0
    seconds: float = 0.0
    verdicts: list = field(default_factory=list)

    def to_dict(self) -> dict:
        return asdict(self)

    def summary(self) -> str:
        if self.status == "found":
            return f"submodule {self.submodule!r} ({self.method}): {self.message}"
        return f"{self.status}: {self.message}"


@dataclass
class _Call:
    name: str
    module: object
    args: tuple
    kwargs: dict
    output: object
    order: int  # when it returned (children before their parent)


def _to_numpy(fw, x):
    if isinstance(x, (list, tuple, dict)):
        return map_tree(lambda leaf: _to_numpy(fw, leaf), x)
    if x is None or isinstance(x, (bool, int, float, str)):
        return x
    return np.asarray(fw.to_numpy(x))


def _is_tensor_tree(x) -> bool:
    return all(isinstance(leaf, np.ndarray) for leaf in flatten(x))


def record_calls(framework: str, model, args: list, kwargs: dict) -> list[_Call]:
    """Run ``model`` eagerly with hooks on every submodule: each submodule's first call, in call order."""
    fw = load_framework(framework)
    calls: dict[str, _Call] = {}
    handles = []
    if framework == "torch":
        for name, module in model.named_modules():
            if name:
                def hook(mod, a, kw, out, name=name):
                    if name not in calls:
                        calls[name] = _Call(name, mod, _to_numpy(fw, tuple(a)), _to_numpy(fw, dict(kw)),
                                            _to_numpy(fw, out), len(calls))
                handles.append(module.register_forward_hook(hook, with_kwargs=True))
    elif framework == "paddle":
        for name, layer in model.named_sublayers():
            def post(layer, a, out, name=name):
                if name not in calls:
                    calls[name] = _Call(name, layer, _to_numpy(fw, tuple(a)), {}, _to_numpy(fw, out), len(calls))
            handles.append(layer.register_forward_post_hook(post))
    else:
        raise NotImplementedError(f"{framework} models have no forward hooks")
    try:
        fw.call(model, map_tree(lambda a: fw.to_tensor(a, "cpu", False), args), kwargs)
    finally:
        for h in handles:
            h.remove()
    return list(calls.values())


def _children(name: str, names: list[str]) -> list[str]:
    """The called submodules right below ``name`` (a container that is never called itself, like a
    ``ModuleList``, is looked through)."""
    below = [n for n in names if not name or n.startswith(name + ".")]
    return [n for n in below if not any(n.startswith(m + ".") for m in below if m != n)]


def localize_model(model, args: list, kwargs: dict, path: PathRecord, *, device: str = "cpu",
                   max_conversions: int = 20, workdir=None) -> ModuleLocalisation:
    """Localise a disagreement of ``path`` with eager on a user's model (see the module docstring). ``args``:
    the positional inputs as numpy arrays (nested as ``forward`` takes them), ``kwargs`` the keyword ones."""
    if workdir is None:  # the files converted on the way are the caller's only where it names a folder
        with tempfile.TemporaryDirectory(prefix="conformance-localize-") as scratch:
            return localize_model(model, args, kwargs, path, device=device, max_conversions=max_conversions,
                                  workdir=scratch)
    t0 = time.monotonic()
    framework = path.framework
    if framework not in ("torch", "paddle"):
        return ModuleLocalisation("unavailable", f"{framework} models have no forward hooks to localise with")
    fw = load_framework(framework)
    eager = fw.prepare(copy.deepcopy(model), "cpu", False)
    calls = record_calls(framework, eager, args, kwargs)
    if not calls:
        return ModuleLocalisation("unavailable", "the model has no submodules to localise in")
    workdir = Path(workdir)
    result = None
    if getattr(path, "default_onnx_opset", None) is not None:
        result = _by_onnx_outputs(fw, model, args, kwargs, path, calls, device, workdir)
    if result is None or result.status != "found":
        alone = _alone(fw, calls, path, device, workdir, max_conversions - (result.conversions if result else 0))
        if result is not None:
            alone.conversions += result.conversions
            alone.verdicts = result.verdicts + alone.verdicts
            if alone.status != "found":
                alone.message = f"{result.message}; {alone.message}"
        result = alone
    result.seconds = round(time.monotonic() - t0, 3)
    return result


def _reference(fw, framework: str, module, call: _Call, device: str):
    """The fp64 output of ``module`` on the call's inputs (None where it cannot be cast) and the fp32 output on
    inputs nudged by one ulp."""
    from conformance.run.runner import nudge

    rng = np.random.default_rng(0)

    def run(mod, values, fp64):
        return _to_numpy(fw, fw.call(mod, map_tree(lambda a: fw.to_tensor(a, device, fp64), list(values)),
                                     call.kwargs))
    try:
        m64 = copy.deepcopy(module)
        if framework == "torch":
            m64 = m64.double()
        else:
            m64.to(dtype="float64")
        reference = run(m64, call.args, True)
    except Exception:  # noqa: BLE001 - a module that cannot run in fp64: judged against fp32 eager alone
        reference = None
    noise = run(module, map_tree(lambda a: nudge(a, rng) if isinstance(a, np.ndarray) else a, call.args), False)
    return reference, noise


def _alone(fw, calls: list[_Call], path: PathRecord, device: str, workdir: Path, budget: int) -> ModuleLocalisation:
    by_name = {c.name: c for c in calls}
    order = sorted(by_name, key=lambda n: next(i for i, c in enumerate(calls) if c.name == n))
    verdicts: list[SubmoduleVerdict] = []
    conversions = 0
    parent, found = "", None
    while conversions < budget:
        level = _children(parent, order)
        differing = None
        for name in level:
            if conversions >= budget:
                break
            verdict = _check_alone(fw, by_name[name], path, device, workdir / name.replace(".", "_"))
            conversions += verdict.verdict in ("agree", "differs", "fails")
            verdicts.append(verdict)
            if verdict.verdict == "differs":
                differing = verdict
                break
        if differing is None:
            break
        found, parent = differing, differing.name
    if found is None:
        return ModuleLocalisation("none", f"no submodule differs from eager when converted alone along {path.id}: the "
                                          f"divergence is in the model's own forward code around them, or arises "
                                          f"only when they are converted together", method="alone",
                                  conversions=conversions, verdicts=[asdict(v) for v in verdicts])
    children = [v for v in verdicts if v.name.startswith(found.name + ".")]
    inner = " (its own submodules agree alone: the divergence is in its own forward code)" if children else ""
    return ModuleLocalisation("found", f"{found.name} converted alone along {path.id} differs from eager on the inputs "
                                       f"eager gave it{inner}: {found.message}", found.name, "alone",
                              max_abs_err=found.max_abs_err, max_rel_err=found.max_rel_err, conversions=conversions,
                              verdicts=[asdict(v) for v in verdicts])


def _check_alone(fw, call: _Call, path: PathRecord, device: str, workdir: Path) -> SubmoduleVerdict:
    if not _is_tensor_tree(list(call.args)) or not _is_tensor_tree(call.output):
        return SubmoduleVerdict(call.name, "skipped", "takes or returns something other than tensors")
    from conformance.run.runner import error_text

    framework = path.framework
    module = fw.prepare(copy.deepcopy(call.module), "cpu", False)
    names = [f"x{i}" for i in range(len(call.args))]
    leaf_names = [f"{n}{suffix}" for n, a in zip(names, call.args) for suffix in _leaf_suffixes(a)]
    workdir.mkdir(parents=True, exist_ok=True)
    try:
        reference, noise = _reference(fw, framework, module, call, "cpu")
        converted = fw.prepare(copy.deepcopy(call.module), device, False)
        targs = map_tree(lambda a: fw.to_tensor(a, device, False), list(call.args))
        ctx = ConvertContext(converted, targs, dict(call.kwargs), None, device, workdir, leaf_names,
                             [dict(call.kwargs)], arg_names=names, dynamic_axes={n: [] for n in leaf_names},
                             output_structure=map_tree(lambda a: None, call.output))
        artifact = path.convert(ctx)
        out = path.run(artifact, targs, dict(call.kwargs))
        out = list(out) if isinstance(out, FlatOutputs) else out
        out = _to_numpy(fw, out)
        if isinstance(out, list) and not isinstance(call.output, list):
            out = unflatten(call.output, flatten(out))
    except Exception as e:  # noqa: BLE001 - a submodule that cannot be converted alone is not the answer
        return SubmoduleVerdict(call.name, "fails", error_text(e)[:300])
    report = diagnose(out, call.output, reference, noise=noise)
    if report.ok:
        return SubmoduleVerdict(call.name, "agree", "", report.max_abs_err, report.max_rel_err)
    return SubmoduleVerdict(call.name, "differs", report.summary()[:300], report.max_abs_err, report.max_rel_err)


def _leaf_suffixes(tree, prefix: str = "") -> list[str]:
    if isinstance(tree, (list, tuple)):
        return [s for i, item in enumerate(tree) for s in _leaf_suffixes(item, f"{prefix}.{i}")]
    if isinstance(tree, dict):
        return [s for k, item in tree.items() for s in _leaf_suffixes(item, f"{prefix}.{k}")]
    return [prefix]


def _by_onnx_outputs(fw, model, args, kwargs, path: PathRecord, calls: list[_Call], device: str,
                     workdir: Path) -> Optional[ModuleLocalisation]:
    """The whole model converted once; the first submodule (in the order they return) whose eager output no
    tensor of the file (every node output marked) holds."""
    from conformance.judge.blame import onnx_file_of
    from conformance.paths.onnx_runtimes import onnxruntime_session
    from conformance.run.runner import error_text
    from conformance.triage.intermediates import mark_every_output

    names = [f"x{i}" for i in range(len(args))]
    leaf_names = [f"{n}{suffix}" for n, a in zip(names, args) for suffix in _leaf_suffixes(a)]
    started = time.time()
    try:
        converted = fw.prepare(copy.deepcopy(model), device, False)
        targs = map_tree(lambda a: fw.to_tensor(a, device, False), list(args))
        ctx = ConvertContext(converted, targs, dict(kwargs), None, device, workdir, leaf_names, [dict(kwargs)],
                             arg_names=names, dynamic_axes={n: [] for n in leaf_names})
        artifact = path.convert(ctx)
        source = onnx_file_of(artifact, workdir, since=started - 1)
        marked, added, _ = mark_every_output(source, workdir / "every_output.onnx")
        session = onnxruntime_session(marked, True)
        feed = dict(zip(leaf_names, (np.asarray(a) for a in flatten(list(args)))))
        wanted = [i.name for i in session.get_inputs()]
        if not set(wanted) <= set(feed):
            feed = dict(zip(wanted, feed.values()))
        produced = [o.name for o in session.get_outputs()]
        tensors = dict(zip(produced, session.run(None, {n: feed[n] for n in wanted})))
        import onnx

        nodes = [(n.name, list(n.output)) for n in onnx.load(str(source)).graph.node]
    except Exception as e:  # noqa: BLE001 - then submodules alone will tell
        return ModuleLocalisation("none", f"the ONNX file's intermediate outputs are not available: "
                                          f"{error_text(e)[:200]}", method="onnx", conversions=1)
    # the TorchScript exporter names a node after the submodules it comes from: /blocks.1/act/Tanh
    scoped = [(node.rsplit("/", 1)[0].strip("/").replace("/", "."), node, outputs) for node, outputs in nodes
              if node.startswith("/") and outputs]
    verdicts = []
    for call in sorted(calls, key=lambda c: c.order):
        if not _is_tensor_tree(call.output):
            continue
        leaves = flatten(call.output)
        mine = [(node, outputs) for scope, node, outputs in scoped if scope == call.name or
                scope.startswith(call.name + ".")]
        if mine and len(leaves) == 1:  # the submodule's output: the last node of its scope
            node, outputs = mine[-1]
            value = np.asarray(tensors.get(outputs[0]))
            held = value.shape == leaves[0].shape and diagnose(value.astype(leaves[0].dtype), leaves[0]).ok
            where = f"the output of node {node}"
        else:
            held = all(any(np.asarray(v).shape == leaf.shape and diagnose(np.asarray(v).astype(leaf.dtype), leaf).ok
                           for v in tensors.values()) for leaf in leaves)
            node, where = None, "no tensor of the file"
        verdicts.append(asdict(SubmoduleVerdict(call.name, "agree" if held else "differs",
                                                "" if held else f"{where} differs from eager's output")))
        if not held:
            return ModuleLocalisation("found", f"{where} (every node output marked) differs from eager's output of "
                                               f"{call.name}; the submodules that return before it agree",
                                      call.name, "onnx", nodes=[n for n, _ in mine][:20], conversions=1,
                                      verdicts=verdicts)
    return ModuleLocalisation("none", "every submodule's output is held by the ONNX file with every node output "
                                      "marked (marking outputs may hide a bug in a fusion)", method="onnx",
                              conversions=1, verdicts=verdicts)
