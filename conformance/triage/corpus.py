"""The regression corpus: one case per JSON file in ``cases/`` (format: ``cases/README.md``).

A case file holds either

* ``"case"``: a program of the IR and its input sets (what campaigns find and ``conformance triage
  --save`` writes), replayed with :func:`conformance.run.runner.check` — the branch-flip guard and the
  fp64 oracle included; or
* ``"model"``: a small hand-written model, for bugs the IR cannot express (module state, slice
  assignment, dtype promotion...). Its ``source`` (a string or a list of lines) defines ``Model``
  (``Model()`` builds a fresh model, the same weights every time) and ``INPUTS``: the calls to make,
  each ``(args, kwargs)`` with numpy arrays as tensors (nested in lists, tuples and dicts as the model
  takes them) and plain Python keyword arguments. The first call is the example the path converts
  with. Optional: ``before_call(model, index)``, run before each call on the eager model and on the
  model that was converted (to change a Python attribute between calls), and ``DYNAMIC_AXES``
  (``{"x": [0]}``: per flat input name, the dims exported as dynamic).

and, for both kinds, ``summary``, ``source`` (the upstream issue address, or "found by conformance"
with date and versions) and ``expected``: per path id, the outcome, gated by a PEP 440 specifier on
the framework's version and optionally on a CPU feature flag (one expectation or a list of them; the first
that matches applies).

A hand-written model is judged plainly: eager runs a fresh ``Model()`` on every call in order, the path
converts another fresh one on the example and runs every call in order, and each output is compared
with eager's (``torch.testing.assert_close`` tolerances, no fp64 reference and no branch-flip guard:
write the case so the bug shows by a clear margin). Where eager raises on a call, the converted model
must raise too; returning a result there is a ``mismatch`` (the path accepts what eager rejects).

Loading a file (:func:`load_case_file`) never runs its code: a malformed file raises
:class:`CaseFileError` naming the file and the field. Only replaying runs the model source.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import inspect
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Union

import numpy as np

from conformance.judge.modes import InputRun, Prepared
from conformance.judge.oracle import Stability
from conformance.paths.records import FRAMEWORK_MODULES, PathRecord, load_framework
from conformance.program.case import Case, InputSet, map_tree
from conformance.program.ir import (
    DYNAMIC,
    DictSpec,
    Input,
    Kwarg,
    OutVar,
    ProgramError,
    SeqSpec,
    TensorSpec,
)
from conformance.program.program import Program
from conformance.render.source import cache_dir, load_source
from conformance.run.records import FINDINGS, OUTCOMES, ResultRecord, results_line
from conformance.run.runner import check, error_text, run_path

#: Outcomes a case may expect: not ``harness_error`` (this project's own bug, never a fact about a path).
#: ``discarded`` is one where the guard declines to judge the case along that path (a reduced-precision path whose
#: rounding may decide a branch otherwise): replayed, it must still be discarded.
EXPECTABLE = tuple(o for o in OUTCOMES if o != "harness_error")
_KEYS = {"summary", "source", "case", "model", "expected", "signature"}
_PATH_ID = re.compile(r"^([A-Za-z_]\w*)\.([A-Za-z_]\w*)$")


class CaseFileError(ValueError):
    """A case file is malformed; the message names the file and the field."""


@dataclass(frozen=True)
class Expectation:
    outcome: str
    #: A PEP 440 specifier on the framework version, or a requirement on another installed distribution
    #: (``onnxruntime>=1.17,<1.32``, as ``conformance bisect --write`` writes it); empty: every version.
    versions: str = ""
    #: A CPU feature flag as ``/proc/cpuinfo`` names it (``avx512bw``), or ``!flag`` for its absence: the outcome
    #: depends on the kernels the framework picks for this CPU (oneDNN's bfloat16 and AVX-512 kernels); empty: any CPU.
    cpu: str = ""

    def applies(self, version: str) -> bool:
        if self.cpu and (self.cpu.lstrip("!") in cpu_flags()) == self.cpu.startswith("!"):
            return False
        if not self.versions:
            return True
        from packaging.specifiers import SpecifierSet
        from packaging.version import Version

        specifier = SpecifierSet(self.versions) if self.versions[0] in "<>=!~" else None
        if specifier is None:
            from importlib.metadata import PackageNotFoundError
            from importlib.metadata import version as installed_version

            from packaging.requirements import Requirement

            requirement = Requirement(self.versions)
            specifier = requirement.specifier
            try:
                version = installed_version(requirement.name)
            except PackageNotFoundError:
                return False
        return specifier.contains(Version(version.split("+")[0]), prereleases=True)

    def to_dict(self) -> dict:
        return {"outcome": self.outcome, **({"versions": self.versions} if self.versions else {}),
                **({"cpu": self.cpu} if self.cpu else {})}


@functools.lru_cache(maxsize=1)
def cpu_flags() -> frozenset:
    """This machine's CPU feature flags (``/proc/cpuinfo``'s ``flags``; empty where there is none to read)."""
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return frozenset()
    line = next((ln for ln in text.splitlines() if ln.startswith(("flags", "Features"))), "")
    return frozenset(line.partition(":")[2].split())


@dataclass(frozen=True)
class ModelSource:
    """A hand-written model: its framework and Python source (see the module docstring)."""

    framework: str
    source: str

    def load(self):
        """Write the source to a file (script-like paths read it) and import it."""
        digest = hashlib.sha256(f"{self.framework}\n{self.source}".encode()).hexdigest()[:12]
        path = cache_dir() / "corpus" / digest / "model.py"
        return load_source(self.source, path, f"conformance_corpus_{digest}")


@dataclass(frozen=True)
class CaseFile:
    """One file of the corpus, validated."""

    file: Path
    summary: str
    source: str
    expected: dict  # path id -> tuple[Expectation, ...]
    case: Optional[Case] = None
    model: Optional[ModelSource] = None
    signature: Optional[dict] = None  # written by ``conformance triage --save``: the finding's signature

    def expectation(self, path_id: str, version: str) -> Optional[Expectation]:
        """The expectation for ``path_id`` that applies to framework ``version`` (None: none applies)."""
        return next((e for e in self.expected.get(path_id, ()) if e.applies(version)), None)

    def to_dict(self) -> dict:
        out = {"summary": self.summary, "source": self.source}
        if self.case is not None:
            out["case"] = self.case.to_dict()
        else:
            out["model"] = {"framework": self.model.framework, "source": self.model.source.splitlines()}
        out["expected"] = {pid: es[0].to_dict() if len(es) == 1 else [e.to_dict() for e in es]
                           for pid, es in self.expected.items()}
        if self.signature:
            out["signature"] = self.signature
        return out


def load_case_file(file: Union[str, Path]) -> CaseFile:
    """Read and validate one case file without running any of its code; raises :class:`CaseFileError`."""
    file = Path(file)
    try:
        doc = json.loads(file.read_text())
    except OSError as e:
        raise CaseFileError(f"{file}: cannot read it: {e.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise CaseFileError(f"{file}: not valid JSON: {e}") from None
    return parse_case(doc, file)


def parse_case(doc, file: Union[str, Path] = "<case>") -> CaseFile:
    """Validate a case file's parsed JSON (see :func:`load_case_file`)."""
    where = Path(file)

    def fail(field: str, what: str):
        raise CaseFileError(f"{where}: {field}: {what}")

    if not isinstance(doc, dict):
        fail("(top level)", f"a case file is a JSON object, got {type(doc).__name__}")
    unknown = set(doc) - _KEYS
    if unknown:
        fail(sorted(unknown)[0], f"unknown field; a case file has {', '.join(sorted(_KEYS))}")
    for key in ("summary", "source"):
        if not isinstance(doc.get(key), str) or not doc[key].strip():
            fail(key, "missing or empty (a string)")
    if ("case" in doc) == ("model" in doc):
        fail("case/model", "a case file has exactly one of 'case' (an IR program) and 'model' (hand-written)")
    case = model = None
    if "case" in doc:
        try:
            case = Case.from_dict(doc["case"])
        except ProgramError as e:
            fail("case", str(e))
    else:
        model = _parse_model(doc["model"], fail)
    expected = _parse_expected(doc.get("expected"), model, fail)
    signature = doc.get("signature")
    if signature is not None and not isinstance(signature, dict):
        fail("signature", "an object (as conformance triage writes it)")
    return CaseFile(where, doc["summary"].strip(), doc["source"].strip(), expected, case, model, signature)


def _parse_model(m, fail) -> ModelSource:
    if not isinstance(m, dict) or set(m) != {"framework", "source"}:
        fail("model", "an object with 'framework' and 'source' (a string or a list of lines)")
    if m["framework"] not in FRAMEWORK_MODULES:
        fail("model.framework", f"unknown framework {m['framework']!r}; known: {', '.join(FRAMEWORK_MODULES)}")
    src = m["source"]
    if isinstance(src, list) and all(isinstance(line, str) for line in src):
        src = "\n".join(src) + "\n"
    if not isinstance(src, str) or not src.strip():
        fail("model.source", "a non-empty string or list of lines")
    try:
        tree = ast.parse(src)
    except SyntaxError as e:
        fail("model.source", f"line {e.lineno}: {e.msg}")
    defined = {n.name for n in tree.body if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
    defined |= {t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
    for name in ("Model", "INPUTS"):
        if name not in defined:
            fail("model.source", f"defines no top-level {name!r} (see cases/README.md)")
    return ModelSource(m["framework"], src)


def _parse_expected(expected, model: Optional[ModelSource], fail) -> dict:
    from packaging.requirements import InvalidRequirement, Requirement
    from packaging.specifiers import InvalidSpecifier, SpecifierSet

    if not isinstance(expected, dict) or not expected:
        fail("expected", "an object mapping path ids (like 'torch.script') to expected outcomes")
    out = {}
    for pid, wants in expected.items():
        field = f"expected[{pid!r}]"
        m = _PATH_ID.match(pid)
        if not m or m.group(1) not in FRAMEWORK_MODULES:
            fail(field, f"not a path id of a known framework ({', '.join(FRAMEWORK_MODULES)}), like 'torch.script'")
        if model is not None and m.group(1) != model.framework:
            fail(field, f"the model is a {model.framework} model")
        items = wants if isinstance(wants, list) else [wants]
        parsed = []
        for i, w in enumerate(items):
            f = field if not isinstance(wants, list) else f"{field}[{i}]"
            if not isinstance(w, dict) or not set(w) <= {"outcome", "versions", "cpu"}:
                fail(f, "an object with 'outcome' and optional 'versions' and 'cpu'")
            if w.get("outcome") not in EXPECTABLE:
                fail(f"{f}.outcome", f"{w.get('outcome')!r} is not one of {', '.join(EXPECTABLE)}")
            versions = w.get("versions", "")
            try:
                if versions and versions[0] not in "<>=!~" and not Requirement(versions).specifier:
                    raise InvalidRequirement(f"{versions!r} names no version")  # a bare name gates nothing
                SpecifierSet(versions) if not versions or versions[0] in "<>=!~" else None
            except (InvalidSpecifier, InvalidRequirement, TypeError):
                fail(f"{f}.versions", f"{versions!r} is not a version specifier like '>=2.13' (the framework's) "
                                      "or a requirement like 'onnxruntime>=1.17'")
            cpu = w.get("cpu", "")
            if not isinstance(cpu, str) or (cpu and not re.fullmatch(r"!?[a-z0-9_]+", cpu)):
                fail(f"{f}.cpu", f"{cpu!r} is not a CPU flag as /proc/cpuinfo names it, like 'avx512bw' or '!avx512bw'")
            parsed.append(Expectation(w["outcome"], versions, cpu))
        if not parsed:
            fail(field, "no expectation")
        out[pid] = tuple(parsed)
    return out


def write_case_file(file: Union[str, Path], case_file: CaseFile) -> Path:
    """Write a case file (validated by reading it back)."""
    file = Path(file)
    text = json.dumps(case_file.to_dict(), indent=1) + "\n"
    parse_case(json.loads(text), file)
    file.write_text(text)
    return file


def corpus(folder: Union[str, Path]) -> list[CaseFile]:
    """Every case file of a folder (raises :class:`CaseFileError` on the first malformed one)."""
    return [load_case_file(f) for f in sorted(Path(folder).glob("*.json"))]


# ------------------------------------------------------------------ replay


def replay(case_file: CaseFile, path: PathRecord, device: str = "cpu") -> ResultRecord:
    """Run a case file along ``path``: the record (``outcome``, ``detail.message`` ...)."""
    if case_file.case is not None:
        return check(case_file.case, path, device)
    try:
        return check_model(case_file.model, path, device)
    except CaseFileError as e:
        raise CaseFileError(f"{case_file.file}: {e}") from None


def replay_fresh(file: Path, path_id: str) -> ResultRecord:
    """:func:`replay` of the case file ``file`` along ``path_id`` in a fresh interpreter (spawned, so nothing of this
    process's earlier conversions is in it: Paddle's program caches and freed programs, which a long-lived process
    collects and which now and then change what a conversion does)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return pool.submit(_replay_file, str(file), path_id).result()


def _replay_file(file: str, path_id: str) -> ResultRecord:
    from conformance.paths.records import PATHS

    load_framework(path_id.split(".")[0])
    return replay(load_case_file(Path(file)), PATHS[path_id])


def _program_for(module, framework: str, args: list, kwargs: dict) -> Program:
    """An input signature for a hand-written model (paths that export need one): shapes of the example,
    with ``DYNAMIC_AXES`` of the module made dynamic. Not a program to render: its body is empty."""
    model_cls = module.Model
    fn = model_cls.__call__ if framework == "tf" else model_cls.forward
    params = [p.name for p in inspect.signature(fn).parameters.values()
              if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)][1:]
    names = params[:len(args)] + [f"arg{i}" for i in range(len(params), len(args))]
    dynamic = getattr(module, "DYNAMIC_AXES", {})

    def spec(value, name):
        if isinstance(value, dict):
            return DictSpec(tuple((k, spec(v, f"{name}.{k}")) for k, v in value.items()))
        if isinstance(value, (list, tuple)):
            return SeqSpec("list" if isinstance(value, list) else "tuple",
                           tuple(spec(v, f"{name}.{i}") for i, v in enumerate(value)))
        value = np.asarray(value)
        axes = dynamic.get(name, ())
        return TensorSpec(tuple(DYNAMIC if i in axes else d for i, d in enumerate(value.shape)), str(value.dtype))

    return Program(seed=0, inputs=tuple(Input(n, spec(a, n)) for n, a in zip(names, args)),
                   kwargs=tuple(Kwarg(k, type(v).__name__, v, (v,)) for k, v in kwargs.items()),
                   params=(), body=(), output=OutVar("output"))


def _calls(module) -> list[tuple[list, dict]]:
    calls = getattr(module, "INPUTS", None)
    ok = isinstance(calls, (list, tuple)) and calls and all(
        isinstance(c, (list, tuple)) and len(c) == 2 and isinstance(c[0], (list, tuple)) and isinstance(c[1], dict)
        for c in calls)
    if not ok:
        raise CaseFileError("model.source: INPUTS must be a non-empty list of (args list, kwargs dict) calls")
    return [(list(a), dict(k)) for a, k in calls]


class HandWrittenPrepared(Prepared):
    """The eager side of a hand-written model (see the module docstring), for the runner's loop: a fresh
    ``Model()`` makes every call in order (``before_call`` first), and each call is judged plainly: no
    fp64 reference, no branch-flip guard, no replay of what a path specialises on, no rerun of a mismatch
    (the model may keep state between calls). A call on which eager raises must raise along the path."""

    reruns_mismatches = False

    def __init__(self, fw, module, calls: list[tuple[list, dict]]):
        super().__init__(fw, module, [], 0.0, ())
        self.before_call = getattr(module, "before_call", None)
        eager_model = fw.prepare(module.Model(), "cpu", False)
        for i, (args, kwargs) in enumerate(calls):
            args = map_tree(np.asarray, args)
            if self.before_call:
                self.before_call(eager_model, i)
            output = error = None
            try:
                output = fw.to_numpy(fw.call(eager_model, map_tree(lambda a: fw.to_tensor(a, "cpu", False), args),
                                             dict(kwargs)))
            except Exception as e:  # noqa: BLE001 - eager rejecting a call is part of what is expected
                error = error_text(e)
            self.runs.append(InputRun(i, "example" if i == 0 else "call", args, args, dict(kwargs), 1, output, None,
                                      None, Stability(True), eager_error=error))

    def before_run(self, model, run: InputRun) -> None:
        if self.before_call:
            self.before_call(model, run.index)

    def label(self, run: InputRun) -> str:
        return f"call {run.index}"

    def differences(self, run: InputRun, example: InputRun) -> set:
        return set()  # judged plainly: a hand-written case pins what the path does on each call


def check_model(model: ModelSource, path: PathRecord, device: str = "cpu") -> ResultRecord:
    """Run a hand-written model along ``path`` (see the module docstring): the runner's record."""
    fw = load_framework(model.framework)
    fw.setup()
    module = model.load()
    calls = _calls(module)
    program = _program_for(module, model.framework, *calls[0])
    prep = HandWrittenPrepared(fw, module, calls)
    case = Case(program, tuple(InputSet(run.role, 1, run.index, tuple(sorted(run.kwargs.items())))
                               for run in prep.runs))
    example_error = prep.runs[0].eager_error
    if example_error is not None:
        record = ResultRecord.for_case(case, path.framework, path.name, device, fw.versions())
        record.case = None
        return record.finish("runtime_error", f"eager fails on the example: {example_error[:600]}")
    record = run_path(case, prep, path, device, fw.versions())
    record.case = None  # the calls' arrays are in the model's source, not in the case
    return record


def is_model_file(file: Path) -> bool:
    """Is this a case file with a hand-written model (``conformance replay`` hands those to
    :func:`replay_model_file`)? False for anything else, including files that do not parse."""
    if file.suffix != ".json":
        return False
    try:
        doc = json.loads(file.read_text())
    except (OSError, ValueError):
        return False
    return isinstance(doc, dict) and "model" in doc


def replay_model_file(file: Path, paths: list, device: str, console, out: Optional[str] = None) -> int:
    """``conformance replay`` of a hand-written model case: one line per path, the records written to ``out`` (a
    ``.jsonl``) if given; exit status 1 on findings."""
    try:
        case_file = load_case_file(file)
    except CaseFileError as e:
        raise SystemExit(f"conformance: {e}")
    framework = case_file.model.framework
    chosen = [p for p in paths if p.framework == framework and not p.reference]
    if not chosen:
        raise SystemExit(f"conformance: {file} is a {framework} model: choose {framework} paths "
                         f"(--frameworks {framework})")
    records = []
    for path in chosen:
        record = replay(case_file, path, device)
        records.append(record)
        msg = record.detail.message.strip().splitlines()
        console.print(f"{file.stem}  {path.id:<24} {record.outcome:<20} {msg[0][:160] if msg else ''}",
                      markup=False, highlight=False)
    if out:
        Path(out).write_text("".join(results_line(r) for r in records))
    return 1 if any(r.outcome in FINDINGS for r in records) else 0
