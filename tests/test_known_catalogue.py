"""The catalogue of known limitations (conformance.paths.known): every record matches the failure it names (its
``example``) and wins there over every other record of every path that carries it (the most specific applies; a tie
fails here); the failures the frameworks were seen to raise keep their names (``tests/data/known_failures.json``);
and the catalogue stays data: one-sentence reasons, no phase clones, no history in comments, no module-global state
in ``conformance/paths`` that a conversion could use to talk to a record."""

from __future__ import annotations

import ast
import io
import json
import re
import tokenize
from collections import Counter
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import pytest

from conformance.paths import known
from conformance.paths.known import COMPONENTS, all_records
from conformance.paths.records import (
    FRAMEWORK_MODULES,
    FRAMEWORKS,
    PATHS,
    PHASES,
    REASON_MAX,
    Failure,
    framework_available,
    load_framework,
)

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "conformance"
RECORDS = all_records()
KNOWN_FAILURES = json.loads((Path(__file__).parent / "data" / "known_failures.json").read_text())


def _carriers():
    """{record name: [paths that carry it]} over the installed frameworks' built-in paths."""
    out = {}
    for fw in FRAMEWORK_MODULES:
        if framework_available(fw):
            load_framework(fw)
    for p in PATHS.values():
        for rec in p.records:
            out.setdefault(rec.name, []).append(p)
    return out


@pytest.fixture(scope="module")
def carriers():
    return _carriers()


def _why_not_here(rec, framework: str):
    """Why this machine cannot judge ``rec`` on a path of ``framework`` (a package or version it lacks), or None."""
    if rec.package:
        try:
            version(rec.package)
        except PackageNotFoundError:
            return f"{rec.package} is not installed"
    return None


@pytest.mark.parametrize("rec", RECORDS, ids=[r.name for r in RECORDS])
def test_every_record_matches_its_example_and_wins_on_every_path_that_carries_it(rec, carriers):
    assert rec.example is not None, f"{rec.name}: no example (the recorded failure it names)"
    paths = carriers.get(rec.name)
    if not paths:
        pytest.skip(f"{rec.name}: no installed framework has a path through {rec.name.split('.')[0]}")
    judged = 0
    for p in paths:
        why = _why_not_here(rec, p.framework)
        if why:
            continue
        installed = FRAMEWORKS[p.framework].version()
        if not rec.applies(rec.example, installed):
            assert rec.versions, f"{rec.name}: does not match its own example on {p.id}"
            continue  # recorded for other versions than the installed one
        applying = [r for r in p.records if r.applies(rec.example, installed)]
        rivals = [r.name for r in applying if r is not rec and r.specificity >= rec.specificity]
        assert not rivals, (f"{rec.name} (specificity {rec.specificity}) does not win its example on {p.id}: "
                            f"{', '.join(rivals)} apply as specifically; make one of them more specific")
        assert p.limitation_for(rec.example, installed) is rec
        judged += 1
    if not judged:
        pytest.skip(f"{rec.name}: recorded for a package or version this machine lacks")


@pytest.mark.parametrize("entry", KNOWN_FAILURES, ids=[f"{e['path']}-{i}" for i, e in enumerate(KNOWN_FAILURES)])
def test_the_failures_seen_keep_their_names(entry):
    """What the frameworks raised and the oracle found (in campaigns and in the path tests) is named by the record
    it was named by, and a failure no record named stays unnamed."""
    framework = entry["path"].split(".")[0]
    if not framework_available(framework):
        pytest.skip(f"{framework} is not installed")
    load_framework(framework)
    fields = dict(entry["failure"])
    fields["divergences"] = tuple(tuple(d) for d in fields.get("divergences", ()))
    failure = Failure(**{k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()})
    lim = PATHS[entry["path"]].limitation_for(failure, FRAMEWORKS[framework].version())
    want = entry["record"]
    if want and known.record(want).package and _why_not_here(known.record(want), framework):
        pytest.skip(f"{want}: {_why_not_here(known.record(want), framework)}")
    assert (lim.name if lim else None) == want


def test_every_record_is_named_after_its_component_once_and_selects_on_known_paths():
    names = [r.name for r in RECORDS]
    assert len(names) == len(set(names)), sorted({n for n in names if names.count(n) > 1})
    for component in COMPONENTS:
        for rec in known.component_records(component):
            assert rec.name.startswith(f"{component}."), f"{rec.name} is in the module {component}"
            assert set(rec.phases) <= set(PHASES)
    every_path = set(_carriers()) and {p.id for p in PATHS.values()}
    unknown = {(r.name, p) for r in RECORDS for p in r.paths
               if framework_available(p.split(".")[0]) and p not in every_path}
    assert not unknown, f"records naming paths that do not exist: {sorted(unknown)}"


def test_reasons_are_one_sentence_and_the_rest_is_in_details():
    long = [(r.name, len(r.reason)) for r in RECORDS if len(r.reason) > REASON_MAX]
    assert not long, f"reasons over {REASON_MAX} characters (move the rest to details=): {long}"
    several = [r.name for r in RECORDS if re.search(r"[.;]\s+[A-Z]", r.reason) or "\n" in r.reason]
    assert not several, f"reasons of more than one sentence: {several}"
    assert all(r.details for r in RECORDS), [r.name for r in RECORDS if not r.details]


def test_every_path_lists_components_that_exist():
    _carriers()
    for p in PATHS.values():
        assert set(p.components) <= set(COMPONENTS), (p.id, set(p.components) - set(COMPONENTS))


# ---------------------------------------------------------------------------------------------------- the code's shape

#: Module-level mutable objects of conformance/paths that are allowed, each with why it is not a channel between a
#: conversion and a record: the registry of paths and frameworks (filled once per process when a framework's module
#: is imported), the plug-ins loaded and their errors, a memo of a pure function of the modules' sources, and
#: TensorFlow's thread pools (configurable once per process).
ALLOWED_STATE = {("records", "PATHS"), ("records", "FRAMEWORKS"), ("records", "PLUGIN_ERRORS"),
                 ("records", "_PLUGINS_LOADED"), ("standalone", "_PROBLEMS"), ("tf.adapter", "_threads_set")}
MUTATORS = {"append", "extend", "insert", "remove", "pop", "popitem", "clear", "update", "setdefault", "add",
            "discard"}
CONTAINERS = (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)


def _mutable_module_state(path: Path, module: str) -> list[str]:
    """Module-level dicts, lists and sets of ``path`` (module ``module`` of conformance.paths) that its code mutates,
    and the names it rebinds with ``global``."""
    tree = ast.parse(path.read_text())
    containers = set()
    for node in tree.body:
        value = getattr(node, "value", None)
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) \
            else []
        made = isinstance(value, CONTAINERS) or (isinstance(value, ast.Call) and getattr(
            value.func, "id", getattr(value.func, "attr", "")) in ("dict", "list", "set", "defaultdict", "Counter"))
        containers |= {t.id for t in targets if isinstance(t, ast.Name) and made}
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Global):
            found |= set(node.names)
        for target in getattr(node, "targets", []) + [getattr(node, "target", None)]:
            if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) \
                    and target.value.id in containers:
                found.add(target.value.id)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS \
                and isinstance(node.func.value, ast.Name) and node.func.value.id in containers:
            found.add(node.func.value.id)
    return [f"{module}.{name}" for name in sorted(found) if (module, name) not in ALLOWED_STATE]


def test_no_module_global_mutable_state_in_paths():
    found = [hit for path in sorted((PACKAGE / "paths").rglob("*.py")) for hit in _mutable_module_state(
        path, ".".join(path.relative_to(PACKAGE / "paths").with_suffix("").parts).removesuffix(".__init__"))]
    assert not found, ("module-level state that code mutates (pass it on the ConvertContext or the Failure): "
                       + ", ".join(found))


def test_the_state_check_catches_a_hidden_channel(tmp_path):
    planted = tmp_path / "conversions.py"
    planted.write_text("FACTS = {}\nWATCH = False\n\ndef note(key):\n    FACTS['_current'] = key\n\n\n"
                       "def watch():\n    global WATCH\n    WATCH = True\n")
    assert _mutable_module_state(planted, "conversions") == ["conversions.FACTS", "conversions.WATCH"]


def _comments(path: Path):
    for tok in tokenize.generate_tokens(io.StringIO(path.read_text()).readline):
        if tok.type == tokenize.COMMENT:
            yield tok.start[0], tok.string


def test_no_phase_clones_and_no_history_in_the_package():
    clones = [str(p.relative_to(ROOT)) for p in PACKAGE.rglob("*.py")
              if re.search(r"replace\([^()]*\bphase=", p.read_text())]
    assert not clones, f"records cloned per phase (give the record phases=(...)): {clones}"
    history = re.compile(r"\bissues? \d+|\bwas once\b|\b20\d\d-\d\d-\d\d\b", re.I)
    hits = [f"{p.relative_to(ROOT)}:{line}: {text.strip()}" for p in sorted(PACKAGE.rglob("*.py"))
            for line, text in _comments(p) if history.search(text)]
    tracker = [str(p.relative_to(ROOT)) for p in sorted(PACKAGE.rglob("*.py"))
               if re.search(r"\bissues? \d+\b", p.read_text())]
    assert not hits + tracker, "comments say why, not when:\n" + "\n".join(hits + tracker)


def test_the_records_of_a_path_have_distinct_reasons():
    """A refusal is named in a result by its reason (``detail.limitation``): two records of one path with the same
    reason could not be told apart there."""
    same = [(p.id, reason) for p in _carriers_paths() for reason, n in Counter(r.reason for r in p.records).items()
            if n > 1]
    assert not same, same


def _carriers_paths():
    _carriers()
    return list(PATHS.values())


def test_what_the_example_inputs_tell_selects_a_record_only_where_it_holds():
    """``int64_beyond_int32`` holds only for an int64 value outside int32's range (not at its ends, nor for another
    dtype), and names OpenVINO's int32 arithmetic only there: another value mismatch on the path stays unnamed."""
    import numpy as np

    from conformance.paths.records import example_facts

    beyond = [np.array([1, 2**31], np.int64), {"k": [np.zeros((2, 0), np.float32)]}]
    assert example_facts(beyond) == {"zero_size_input": True, "int64_beyond_int32": True}
    within = [np.array([2**31 - 1, -2**31], np.int64), np.array([2.0**40]), np.array([], np.int64)]
    assert example_facts(within) == {"zero_size_input": True, "int64_beyond_int32": False}
    if not framework_available("tf"):
        pytest.skip("tf is not installed")
    load_framework("tf")
    path = PATHS["tf.onnx_openvino"]
    wrapped = Failure("compare", divergences=(("value", "[0]"),), facts=("int64_beyond_int32",))
    assert path.limitation_for(wrapped, FRAMEWORKS["tf"].version()).name == "openvino.int64_computed_as_int32"
    assert path.limitation_for(Failure("compare", divergences=(("value", "[0]"),)), FRAMEWORKS["tf"].version()) is None


def test_a_gradient_tensorflow_eager_lacks_is_named_and_judges_no_path():
    """A refusal of eager's gradient (no TruncateMod gradient) is ``unsupported`` naming its record; eager's known bug
    (sorting a zero-size dim has no gradient) a ``discarded`` record that names it; the same sort of a full tensor
    passes."""
    pytest.importorskip("tensorflow")
    from conformance.program.case import Case, InputSet
    from conformance.program.ir import Get, Input, OpStmt, OutVar, TensorSpec
    from conformance.program.program import Program
    from conformance.run.runner import check

    load_framework("tf")

    def case(op, attrs, shape):
        program = Program(seed=5, inputs=(Input("x", TensorSpec(shape)),), kwargs=(), params=(),
                          body=(Get("v0", "x", ()), OpStmt("v1", op, ("v0",), attrs)), output=OutVar("v1"))
        return Case(program, (InputSet("example", 2, 1, ()),))

    function = PATHS["tf.function"]
    refused = check(case("fmod_scalar", (("c", 1.5),), (2, 3)), function, mode="grad")
    assert refused.outcome == "unsupported" and "TruncateMod" in refused.detail.limitation, refused.detail.message
    sort = (("dim", 1), ("descending", False))
    empty = check(case("sort", sort, (2, 0)), function, mode="grad")
    assert empty.outcome == "discarded", empty.detail.message
    assert empty.detail.known_issue.startswith("tf_eager.sort_empty_gradient"), empty.detail.known_issue
    assert check(case("sort", sort, (2, 3)), function, mode="grad").outcome == "pass"
