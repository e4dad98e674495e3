"""Intermediate outputs of a converted ONNX file, where truncating the program changes the bug.

:func:`onnx_intermediates` converts the finding's own program along its ONNX path, marks the output of every
node of the file's main graph as a graph output (Polygraphy's "mark all outputs"), runs it on onnxruntime on
the failing input set, and looks, statement by statement in the order eager first runs them, for a tensor
of the file that holds the value eager computes there (judged by the same oracle). The first statement whose
value no tensor of the file holds is named.

Caveats, said in the answer: marking outputs keeps onnxruntime from fusing the nodes it marks, which may hide
a bug that lives in a fusion; values computed inside an ONNX ``Loop``/``If``/``Scan`` are in subgraphs and
not exposed (a traced export unrolls loops, so there they are); an exporter may never materialise a value
(a fused or folded op), so a miss followed by matches is only a hint.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from conformance.judge.oracle import diagnose
from conformance.program.case import Case
from conformance.program.flow import executed, follow, statement_at, statement_text
from conformance.program.ir import Grow, OpStmt
from conformance.program.truncate import truncate
from conformance.render.lines import statement_lines

#: Statements whose eager values are computed at most (each one renders and runs a truncated program).
MAX_STATEMENTS = 60


def eager_values(case: Case, framework: str, index: int, prep=None) -> list:
    """``(cut, statement, eager fp32, fp64, fp32 on nudged inputs)`` for each op statement eager reaches on input
    set ``index``, in the order it first reaches them (the value of its result right after it)."""
    from conformance.run.runner import prepare

    program = case.program
    prep = prep or prepare(case, framework)
    run = prep.runs[index]
    inputs = (case.inputs[0],) + ((case.inputs[index],) if index else ())
    out = []
    reached = follow(program, run.stability.decisions, run.kwargs)
    for cut in reached:
        s = statement_at(program.body, cut.statement) if cut.statement else None
        if not isinstance(s, (OpStmt, Grow)):
            continue
        trunc = truncate(program, cut, ran=executed(reached))
        k = next((i for i, o in enumerate(trunc.outputs) if o.role == "value" and o.var == s.out), None)
        if k is None:
            continue
        eager = prepare(Case(trunc.program, inputs), framework).runs[-1]
        out.append((cut, s, eager.eager[k], eager.reference[k], eager.noise[k]))
        if len(out) >= MAX_STATEMENTS:
            break
    return out


def mark_every_output(path: Path, into: Path) -> tuple[Path, int, bool]:
    """A copy of the file whose graph outputs every node output of its main graph; how many, and whether the
    graph has subgraphs (control-flow nodes)."""
    import onnx

    model = onnx.load(str(path))
    graph = model.graph
    existing = {o.name for o in graph.output}
    added = 0
    for node in graph.node:
        for name in node.output:
            if name and name not in existing:
                graph.output.append(onnx.helper.make_empty_tensor_value_info(name))
                existing.add(name)
                added += 1
    subgraphs = any(a.type in (onnx.AttributeProto.GRAPH, onnx.AttributeProto.GRAPHS)
                    for node in graph.node for a in node.attribute)
    into.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(into))
    return into, added, subgraphs


def _holds(value, eager, reference, noise) -> bool:
    value, eager = np.asarray(value), np.asarray(eager)
    if value.shape != eager.shape:
        return False
    try:
        value = value.astype(eager.dtype)
    except (TypeError, ValueError):
        return False
    return diagnose(value, eager, reference, noise=noise).ok


def onnx_intermediates(case: Case, pid: str, index: int, device: str = "cpu") -> dict:
    """Localise by the intermediate outputs of the ONNX file the path ``pid`` writes for ``case`` (see the module
    docstring). Returns a dict with ``method``, ``message`` and, where a statement is named, ``location``,
    ``statement``, ``line``, ``source``, ``value``; also ``checked``/``matched`` counts and ``graph_outputs``."""
    from conformance.judge.blame import onnx_feed, onnx_file_of
    from conformance.paths.onnx_runtimes import onnxruntime_session
    from conformance.paths.records import PATHS, load_framework
    from conformance.program.program import tensor_names
    from conformance.run.onnx_checks import is_onnx
    from conformance.run.runner import convert_context, path_workdir, prepare

    framework = pid.split(".")[0]
    load_framework(framework)
    path = PATHS[pid]
    if not is_onnx(path):
        return {"method": "none", "message": f"{pid} writes no ONNX file, and a generated model has no submodules "
                                             f"to hook: no intermediate outputs to compare"}
    program = case.program
    prep = prepare(case, framework)
    workdir = Path(path_workdir(case, framework, path)) / "intermediates"
    workdir.mkdir(parents=True, exist_ok=True)
    started = time.time()
    artifact = path.convert(convert_context(case, prep, path, device, "infer", workdir))
    source = onnx_file_of(artifact, workdir, since=started - 1)
    if source is None:
        return {"method": "onnx", "message": f"{pid} converted, but no ONNX file was found to mark outputs in"}
    marked, added, subgraphs = mark_every_output(source, workdir / "every_output.onnx")
    session = onnxruntime_session(marked, True)
    run = prep.runs[index]
    feed = onnx_feed(tensor_names(program), run.args)
    wanted = [i.name for i in session.get_inputs()]
    if not set(wanted) <= set(feed):  # a converter that names the inputs itself: in order
        feed = dict(zip(wanted, feed.values()))
    names = [o.name for o in session.get_outputs()]
    tensors = dict(zip(names, session.run(None, {n: feed[n] for n in wanted})))
    tensors.update(feed)
    lines = statement_lines(program, framework)
    seen = []  # (location, statement, held by a tensor of the file)
    for cut, s, eager, reference, noise in eager_values(case, framework, index, prep):
        if subgraphs and cut.block:
            continue  # inside a loop or branch: its values live in a subgraph, not exposed
        seen.append((cut.statement, s, any(_holds(v, eager, reference, noise) for v in tensors.values())))
    checked, matched = len(seen), sum(held for _, _, held in seen)
    result = {"method": "onnx", "file": str(source), "graph_outputs": added, "checked": checked,
              "matched": matched, "subgraphs": subgraphs, "conversions": 1}
    first = next((k for k, (_, _, held) in enumerate(seen) if not held), None)
    if first is None:
        result["message"] = (f"every one of the {checked} values checked is held by a tensor of the file with every "
                             f"node output marked: marking outputs hides the bug (a fusion?)"
                             + ("; values inside ONNX subgraphs are not exposed" if subgraphs else ""))
        return result
    loc, s, _ = seen[first]
    line, text = lines.get(loc, (None, ""))
    later = sum(held for _, _, held in seen[first + 1:])
    result.update(location=list(loc), statement=statement_text(s), line=line, source=text, value=s.out,
                  message=f"no tensor of the ONNX file (every node output marked) holds eager's value of {s.out} "
                          f"after line {line} (`{text}`); {matched} of {checked} values checked are held"
                          + (f", {later} of them later: a value the exporter never materialises (fused or folded) "
                             f"is only a hint" if later else ""))
    return result
