"""Run one case along conversion paths and judge each with the oracle.

For each framework the case is rendered and imported once; eager runs the probed model in fp32 and
fp64 on the CPU for every input set (the reference outputs and the branch-flip guard). Then each path
converts a fresh model on the example input set and runs the result on every input set; the oracle
compares each output with eager's. One :class:`~conformance.run.records.ResultRecord` (the JSON Lines
schema of ``reports/README.md``) comes out per (case, path, mode).

What is run and compared is the *mode* (:class:`Mode`): ``infer`` (here) compares outputs; ``grad`` and
``train`` (:mod:`conformance.judge.training`) compare gradients and optimizer steps, with the same conversion,
error handling, oracle, guard and record.
"""

from __future__ import annotations

import os
import re
import time
import traceback
import warnings
from typing import Iterator, Optional

import numpy as np

from conformance.judge.effects import before_call, discard_after_unstable, effects_unsupported, put_back, state_kept
from conformance.judge.modes import INFER, InputRun, Judged, Mode, Prepared, ReplayUnavailable, set_training
from conformance.judge.oracle import finite_or_none
from conformance.paths.records import (
    MODES,
    ConvertContext,
    Failure,
    Framework,
    PathRecord,
    example_facts,
    load_framework,
    missing_requirements,
)
from conformance.program.case import Case, map_tree, materialize
from conformance.program.effects import stateful
from conformance.program.program import tensor_names
from conformance.render.source import cache_dir, load_model_module
from conformance.run.errors import (
    captured_output,
    eager_refusal,
    error_text,
    harness_error,
    harness_fault,
    out_of_memory,
    short,
)
from conformance.run.onnx_checks import RuntimeCannotLoad, blame_error, blame_mismatch, is_onnx, onnx_detail
from conformance.run.records import FINDINGS, OUTCOMES, SEVERITY, InputResult, ResultDetail, ResultRecord

__all__ = ["FINDINGS", "OUTCOMES", "RECORD_HOOKS", "captured_output", "check", "convert_context", "error_text",
           "get_mode", "harness_fault", "nudge", "path_workdir", "prepare", "run_case", "run_path", "split_task_key",
           "task_key", "tasks_of"]

#: Warnings by which a conversion says it froze a value or a branch of the example it ran on.
_FREEZING_WARNING = re.compile(r"TracerWarning|might not generali[sz]e|treated as a constant|"
                               r"cause the trace to be incorrect", re.I)


def get_mode(name: str) -> Mode:
    """The :class:`Mode` called ``name`` (one of :data:`~conformance.paths.MODES`)."""
    if name not in MODES:
        raise ValueError(f"unknown mode {name!r}; known: {', '.join(MODES)}")
    if name == "infer":
        return INFER
    from conformance.judge.training import TRAINING_MODES  # noqa: F401

    return TRAINING_MODES[name]


def prepare(case: Case, framework: str) -> Prepared:
    """Render and import the case's model and run eager (fp32, fp64, nudged) on every input set."""
    t0 = time.perf_counter()
    fw = load_framework(framework)
    fw.setup()
    program = case.program
    module = load_model_module(program, framework)
    probed32 = load_model_module(program, framework, probed=True, float_dtype="float32")
    probed64 = load_model_module(program, framework, probed=True, float_dtype="float64")
    training = program.training
    prep = Prepared(fw, module, [], 0.0,
                    ((probed32, set_training(fw, fw.prepare(probed32.Model(), "cpu", False), training)),
                     (probed64, set_training(fw, fw.prepare(probed64.Model(), "cpu", True), training))),
                    training, program)
    with_state = stateful(program)  # one model per eager run, making every call in order
    # the noise run's own model, its weights nudged too: a sum of products with the weights that cancels (a
    # linear layer) moves as much as its terms' rounding, which nudging the inputs alone may not show
    prep.noise_model = set_training(fw, fw.prepare(probed32.Model(), "cpu", False), training)
    nudge_weights(fw, prep.noise_model, program, np.random.default_rng([program.seed, 3]))
    if with_state:
        prep.reruns_mismatches = False
    for i, inputs in enumerate(case.inputs):
        args, kwargs = materialize(program, inputs)
        rng = np.random.default_rng([program.seed, 2, inputs.seed])
        nudged = map_tree(lambda a: nudge(a, rng), args)
        for _, model in prep.probed if with_state else ():
            before_call(module, model, i)
        if with_state:
            before_call(module, prep.noise_model, i)
        (eager, ref, noise), stability = prep.eager(args, nudged, kwargs)
        prep.runs.append(InputRun(i, inputs.role, args, nudged, kwargs, inputs.batch, eager, ref, noise, stability))
    if with_state:
        discard_after_unstable(prep.runs)
        prep.sealed = True
    prep.prepare_s = time.perf_counter() - t0
    return prep


def nudge(a: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Move every float element one ulp up or down at random (ints and bools stay)."""
    if a.dtype.kind != "f":
        return a
    return np.nextafter(a, np.where(rng.random(a.shape) < 0.5, -np.inf, np.inf).astype(a.dtype))


def nudge_weights(fw: Framework, model, program, rng: np.random.Generator) -> None:
    """:func:`nudge` the float32 and float64 parameters and buffers of ``model`` (by the program's names), in
    place; weights of a reduced dtype stay (one float32 ulp rounds back to them)."""
    if fw.autograd is None:
        return
    for q in program.params:
        weight = getattr(model, q.name)
        values = fw.to_numpy(weight)
        if values.dtype in (np.float32, np.float64):
            fw.autograd.assign(weight, nudge(values, rng))


def path_workdir(case: Case, framework: str, path: PathRecord) -> "os.PathLike":
    """The folder a path's conversion of ``case`` writes its files into (created)."""
    workdir = cache_dir() / framework / case.program.id / path.name
    workdir.mkdir(parents=True, exist_ok=True)
    return workdir


def convert_context(case: Case, prep: Prepared, path: PathRecord, device: str, mode: str, workdir) -> ConvertContext:
    """What ``path.convert`` gets: a fresh model of the case (in the mode's train()/eval()) and the example
    input set on ``device``. ``--onnx-opset`` reaches it through :data:`~conformance.paths.onnx_opset.OPSET_ENV`."""
    fw = prep.framework
    example = prep.runs[0]
    model = set_training(fw, fw.prepare(prep.new_model(), device, False), prep.training)
    return ConvertContext(model, map_tree(lambda a: fw.to_tensor(a, device, False), example.args),
                          dict(example.kwargs), case.program, device, workdir, tensor_names(case.program),
                          _distinct_kwargs(prep.runs), mode, facts=example_facts(example.args))


def run_path(case: Case, prep: Prepared, path: PathRecord, device: str = "cpu",
             versions: Optional[dict] = None, mode: str = "infer") -> ResultRecord:
    """Convert with ``path`` on the example inputs, run on every input set, and judge: one record.

    The one convert, run and judge loop: campaigns, ``runner.check``, the reducer, the corpus and
    ``conformance check`` all come here, with the :class:`Prepared` of a rendered program or of a model
    of their own. ``mode``: what is run and compared (:data:`~conformance.paths.MODES`; see :class:`Mode`)."""
    fw = prep.framework
    version = fw.version()
    record = ResultRecord.for_case(case, path.framework, path.name, device, versions or fw.versions(), mode)
    detail = record.detail
    record.timings.prepare_s = round(prep.prepare_s, 6)
    example = prep.runs[0]
    if not example.stability.stable:
        return record.finish("discarded", f"branch-flip guard: {example.stability.reason}")
    missing = missing_requirements(path)
    if missing:
        return record.finish("unsupported", f"not installed: {', '.join(missing)}")
    if device not in path.devices or device not in fw.devices():
        return record.finish("unsupported", f"device {device!r} is not available for {path.id}")
    rules = get_mode(mode)  # what is run and compared
    why_not = rules.unsupported(path, fw) or effects_unsupported(prep.program, mode)
    if why_not:
        return record.finish("unsupported", why_not)
    t0 = time.perf_counter()
    try:
        judged = rules.judged(prep)
    except Exception as e:  # noqa: BLE001 - eager itself fails in this mode: no path can be judged
        where = harness_fault(e)
        if where:
            return harness_error(record, e, where, f"the eager {mode} reference")
        text = error_text(e)
        failure = Failure.of_exception(e, "eager", mode)
        # the mode's own rules, else a record of the framework's eager (its component: a gradient it has no kernel
        # for is a refusal; one it gets wrong a known bug, and the record is still discarded: nothing to judge by)
        lim = rules.limitation_for(failure) or path.limitation_for(failure.of_program(prep.program), fw.version())
        if lim and lim.outcome:
            detail.traceback = short(traceback.format_exc(), 4000)
            detail.limitation = lim.reason
            return record.finish(lim.outcome, f"eager {mode} reference: {short(text, 600)}")
        if lim:
            detail.known_issue = lim.text
        return eager_refusal(record, e, f"its {mode} reference")
    record.timings.prepare_s = round(prep.prepare_s + time.perf_counter() - t0, 6)
    workdir = path_workdir(case, fw.name, path)
    to_dev = lambda a: fw.to_tensor(a, device, False)  # noqa: E731
    onnx = is_onnx(path)  # an ONNX path: its record names the opset, its findings the component to blame
    blamed = onnx and mode == "infer"
    t0 = time.perf_counter()
    started = time.time()  # an ONNX file written since then is this conversion's
    ctx = None
    try:
        with warnings.catch_warnings(record=True) as caught, captured_output(detail):
            warnings.simplefilter("always")
            ctx = convert_context(case, prep, path, device, mode, workdir)
            prep.seed_forward()
            kept = state_kept(prep.program, fw, ctx.model)
            artifact = path.convert(ctx)
            put_back(fw, ctx.model, kept)
    except (Exception, SystemExit) as e:  # noqa: BLE001 - every failure of the framework is a result (sys.exit too:
        # a framework that ends the process on an error must not end a replay or a campaign's worker)
        record.timings.convert_s = round(time.perf_counter() - t0, 6)
        where = harness_fault(e)
        if where:
            return harness_error(record, e, where, "converting")
        text = error_text(e)
        if out_of_memory(e):
            return record.finish("crash", f"out of memory while converting (the worker's limit): {short(text, 300)}")
        if onnx and ctx is not None:
            detail.onnx = onnx_detail(ctx, None, started)
        if isinstance(e, RuntimeCannotLoad):  # the installed runtime, not the model: a run says it once
            detail.configuration = True
            return record.finish("unsupported", f"configuration error: {short(str(e), 600)}")
        lim = path.limitation_for(Failure.of_exception(e, "convert", mode).of_program(prep.program).of_context(ctx),
                                  version)
        if lim and lim.outcome:
            detail.limitation = lim.reason
            return record.finish(lim.outcome, short(text, 600))
        if lim:
            detail.known_issue = lim.text
        detail.traceback = short(traceback.format_exc(), 4000)
        if blamed and ctx is not None:
            detail.blame = _blame(blame_error, ctx, example.args, example.eager, example.reference, example.noise,
                                  since=started, error=e)
        return record.finish("conversion_error", short(text))
    record.timings.convert_s = round(time.perf_counter() - t0, 6)
    if onnx:
        detail.onnx = onnx_detail(ctx, artifact, started)
    detail.warnings = sorted({f"{w.category.__name__}: {str(w.message)[:160]}" for w in caught})[:8]
    if path.counters:
        detail.counters = path.counters(artifact)
    detail.inputs = []
    run_s = compare_s = 0.0
    for ref in judged:
        run = ref.run
        entry = InputResult(run.role, run.index)
        detail.inputs.append(entry)
        if not ref.stability.stable:
            entry.outcome, entry.message = "discarded", f"branch-flip guard: {ref.stability.reason}"
            continue
        t1 = time.perf_counter()
        try:
            with captured_output(detail):
                unjudged = rules.guard(path, ctx, prep, run)
                if not unjudged:
                    prep.before_run(ctx.model, run)
                    out = rules.execute(path, artifact, ctx, prep, run, to_dev)
            if path.counters:
                entry.counters = path.counters(artifact)
        except (Exception, SystemExit) as e:  # noqa: BLE001 - as in the conversion
            run_s += time.perf_counter() - t1
            text = error_text(e)
            where = harness_fault(e)
            if where:
                entry.outcome, entry.message = "harness_error", f"this project's code raised {text[:400]} at {where}"
                detail.traceback = short(traceback.format_exc(), 4000)
                continue
            if run.eager_error is not None:  # where eager raises, the path must raise too
                entry.outcome, entry.message = "pass", f"raises like eager: {text[:200]}"
                continue
            if out_of_memory(e):
                entry.outcome, entry.message = "crash", f"out of memory (the worker's limit): {short(text, 300)}"
                continue
            lim = path.limitation_for(Failure.of_exception(e, "run", mode).of_program(prep.program).of_context(ctx),
                                      version)
            entry.outcome, entry.message = (lim and lim.outcome) or "runtime_error", short(text, 600)
            if lim and lim.outcome:
                entry.limitation = lim.text
            elif lim:
                entry.known_issue = lim.text
            if blamed and not (lim and lim.outcome):
                entry.blame = _blame(blame_error, ctx, run.args, ref.eager, ref.reference, ref.noise, since=started,
                                     error=e, artifact=artifact, compare=_comparer(rules, path, ref))
            continue
        t2 = time.perf_counter()
        run_s += t2 - t1
        if unjudged:
            entry.outcome, entry.message = "discarded", unjudged
            continue
        if run.eager_error is not None:
            entry.outcome = "mismatch"
            entry.message = f"returns a result where eager raises {run.eager_error[:300]}"
            continue
        _judge(entry, out, ref, prep, rules, path, artifact, ctx, example, to_dev, detail.warnings, version, mode)
        compare_s += time.perf_counter() - t2
    record.timings.run_s, record.timings.compare_s = round(run_s, 6), round(compare_s, 6)
    judged_entries = [e for e in detail.inputs if e.outcome != "discarded"]
    # null where nothing finite was measured
    record.max_abs_err = max((e.max_abs_err for e in judged_entries if e.max_abs_err is not None), default=None)
    record.max_rel_err = max((e.max_rel_err for e in judged_entries if e.max_rel_err is not None), default=None)
    if not judged_entries:  # every input set was discarded (here the example is stable: by a mode's guard)
        return record.finish("discarded", detail.inputs[0].message if detail.inputs else "")
    outcome = next(o for o in SEVERITY if any(e.outcome == o for e in judged_entries) or o == "pass")
    first = next((e for e in judged_entries if e.outcome == outcome), None)
    labels = {run.index: prep.label(run) for run in prep.runs}
    message = f"{labels[first.index]}: {first.message}" if first and first.message else ""
    if first:
        detail.limitation = first.limitation or detail.limitation
        detail.known_issue = first.known_issue or detail.known_issue
        detail.blame = first.blame or detail.blame
    return record.finish(outcome, message)


def _comparer(rules: Mode, path: PathRecord, ref: Judged):
    """How the mode judges what the converted model returns on ``ref``'s input set (for blame's ladder)."""
    return lambda out: rules.compare(path, out, ref.eager, ref.reference, ref.noise)


def _blame(how, *args, **kwargs) -> Optional[dict]:
    """``detail.blame`` by ``how`` (:func:`~conformance.run.onnx_checks.blame_error` or ``blame_mismatch``); a
    ladder that itself fails says so in the verdict instead of taking the record down."""
    try:
        return how(*args, **kwargs)
    except Exception as e:  # noqa: BLE001 - blame is a diagnosis: the finding stands without it
        return {"component": None, "reason": f"blame failed: {error_text(e)[:400]}", "rungs": []}


def _judge(entry: InputResult, out, ref: Judged, prep: Prepared, rules: Mode, path: PathRecord, artifact,
           ctx: ConvertContext, example: InputRun, to_dev, warned: list, version: str, mode: str) -> None:
    """Compare the converted model's ``out`` on one input set with eager's: the entry's outcome and message."""
    run = ref.run
    report = rules.compare(path, out, ref.eager, ref.reference, ref.noise)
    entry.compared = True
    entry.max_abs_err, entry.max_rel_err = finite_or_none(report.max_abs_err), finite_or_none(report.max_rel_err)
    if report.ok:
        entry.outcome = "pass"
        return
    entry.report = report.to_dict()
    why = prep.differences(run, example) & path.specializes
    if why:
        outcome, message, frozen = _judge_specialised(prep, rules, path, run, example, out, why, warned)
        if frozen is not None:
            report, replayed = frozen
            entry.frozen_report = report.to_dict()
            if is_onnx(path) and mode == "infer":  # blamed against eager replayed on the example's path
                entry.blame = _blame(blame_mismatch, ctx, artifact, run.args,
                                     lambda flat: rules.compare(path, flat, *replayed))
        entry.outcome, entry.message = outcome, message
    else:
        entry.outcome, entry.message = "mismatch", report.summary()
        if prep.reruns_mismatches:  # nondeterministic, or wrong every time?
            entry.flaky = _rerun_agrees(rules, path, artifact, ctx, prep, ref, to_dev)
            if entry.flaky:
                entry.message = "flaky (a rerun agreed with eager): " + entry.message
    if entry.outcome == "mismatch":  # a known bug: still a mismatch, named (the pytest suites xfail it)
        divergences = tuple((leaf.kind, leaf.path) for leaf in report.failures)
        lim = path.mismatch_named_by(Failure("compare", mode, divergences=divergences).of_program(prep.program)
                                     .of_context(ctx), version)
        if lim and lim.outcome == "expected_divergence":  # the path's documented behaviour, not a bug
            entry.outcome, entry.limitation = lim.outcome, lim.text
            entry.message = f"{entry.message} ({lim.reason})"
        elif lim:
            entry.known_issue = lim.text
    if entry.outcome == "mismatch" and not why and not entry.flaky and is_onnx(path) and mode == "infer":
        # which component is to blame (a documented divergence has none: blame's ladder is seconds on a Resize)
        entry.blame = _blame(blame_mismatch, ctx, artifact, run.args, _comparer(rules, path, ref))


def _distinct_kwargs(runs: list[InputRun]) -> list[dict]:
    """The kwargs of the input sets, each value once, in order (the example's first)."""
    out: list[dict] = []
    for run in runs:
        if run.kwargs not in out:
            out.append(dict(run.kwargs))
    return out


def _rerun_agrees(rules: Mode, path: PathRecord, artifact, ctx: ConvertContext, prep: Prepared, ref: Judged,
                  to_dev) -> bool:
    """Run a mismatching path once more on the same inputs: does the rerun agree with eager?"""
    try:
        with captured_output(ResultDetail()):
            again = rules.execute(path, artifact, ctx, prep, ref.run, to_dev)
        return rules.compare(path, again, ref.eager, ref.reference, ref.noise).ok
    except Exception:  # noqa: BLE001 - the first run already told what is wrong
        return False


def _judge_specialised(prep: Prepared, rules: Mode, path: PathRecord, run: InputRun, example: InputRun, out, why: set,
                       warned: list) -> tuple[str, str, Optional[tuple]]:
    """A path that specialises (trace freezes control flow and kwargs) differs on these inputs:
    is it exactly the documented specialisation? Eager is replayed on these inputs with the example's
    kwargs and control-flow decisions; the converted model must match that replay (same oracle,
    same guard), else it is a mismatch. A replay that cannot run is not judged; nor is a model with state (its eager
    calls ran once, in order: none is left to replay).

    A model without probes (``conformance check`` on a user's model) cannot replay control flow: there
    the divergence is expected only if the conversion warned (``warned``: its warnings) about it.

    Returns the outcome, the message, and where the converted model differs from the replay, the oracle's report
    against it with the replay's ``(fp32, fp64, noise)`` outputs."""
    kwargs = example.kwargs if "kwargs" in path.specializes else run.kwargs
    force = example.stability.decisions if "control_flow" in path.specializes else None
    what = f"differs from the example in {', '.join(sorted(why))}, which {path.id} specialises on"
    try:
        (frozen32, frozen64, frozen_noise), stability = rules.reference(prep, run, kwargs, force)
    except ReplayUnavailable as e:
        if e.stateful:  # the documented specialisation or a bug: only a replay could tell, and there is none
            return "discarded", f"{what}; eager cannot replay it: {e}", None
        frozen_warnings = [w for w in warned if _FREEZING_WARNING.search(w)]
        if frozen_warnings:
            return "expected_divergence", f"{what}; the conversion warned: {frozen_warnings[0]}", None
        return "mismatch", f"{what}, silently: the conversion gave no warning", None
    except Exception as e:  # noqa: BLE001 - e.g. the example's loop count does not fit these inputs
        return ("discarded", f"{what}; eager could not replay the example's path here: {error_text(e)[:300]}",
                None)
    if not stability.stable:
        return "discarded", f"{what}; the replay is unstable: {stability.reason}", None
    frozen = rules.compare(path, out, frozen32, frozen64, frozen_noise)
    if frozen.ok:
        return ("expected_divergence",
                f"{what}, and matches eager replayed with the example's kwargs and control flow", None)
    return ("mismatch", f"differs even from eager replayed with the example's kwargs and control flow: "
                        f"{frozen.summary()}", (frozen, (frozen32, frozen64, frozen_noise)))


def task_key(pid: str, mode: str) -> str:
    """The name of running path ``pid`` in ``mode``: ``"torch.script@grad"`` (what campaigns track and
    resume by, and what ``run_case``'s ``on_path_start`` is given)."""
    return f"{pid}@{mode}"


def split_task_key(key: str) -> tuple[str, str]:
    """``(path id, mode)`` of a :func:`task_key`."""
    pid, _, mode = key.partition("@")
    return pid, mode or "infer"


#: Where a :func:`harness_error` record says the fault is when :func:`probes_at_fault`.
PROBES_AT_FAULT = "the probes the branch-flip guard renders into the model (the model without them runs)"


def probes_at_fault(case: Case, framework: str) -> bool:
    """Whether the model rendered without the branch-flip guard's probes runs every input set in fp32 and fp64, where
    the probed one raised: then this project's probe code refused the program, not eager (a probe that computed a
    float16 gap with a kernel the framework lacks discarded every such case as "eager refuses the program")."""
    try:
        fw = load_framework(framework)
        program = case.program
        with_state = stateful(program)  # one model per dtype, making every call in order
        for dtype, fp64 in (("float32", False), ("float64", True)):
            module = load_model_module(program, framework, float_dtype=dtype)
            model = set_training(fw, fw.prepare(module.Model(), "cpu", fp64), program.training)
            for i, inputs in enumerate(case.inputs):
                args, kwargs = materialize(program, inputs)
                if with_state:
                    before_call(module, model, i)
                fw.call(model, map_tree(lambda a: fw.to_tensor(a, "cpu", fp64), args), kwargs)
    except Exception:  # noqa: BLE001 - it raises without the probes too: eager refuses the program
        return False
    return True


def run_case(case: Case, tasks: list[tuple[PathRecord, str]], device: str = "cpu",
             on_path_start=None) -> Iterator[ResultRecord]:
    """Yield one record per task, a ``(path, mode)`` pair (see :class:`Mode`). Each framework's eager
    reference is prepared once for all its tasks. ``on_path_start(what)`` is called before each
    framework's eager reference runs (``"prepare:<framework>"``) and before each task (its
    :func:`task_key`)."""
    by_fw: dict[str, list[tuple[PathRecord, str]]] = {}
    for p, mode in tasks:
        by_fw.setdefault(p.framework, []).append((p, mode))
    for fw_name, fw_tasks in by_fw.items():
        if on_path_start:
            on_path_start(f"prepare:{fw_name}")
        try:
            prep = prepare(case, fw_name)
        except Exception as e:  # noqa: BLE001 - a broken eager run is the harness's problem: say so
            where = harness_fault(e) or (PROBES_AT_FAULT if probes_at_fault(case, fw_name) else None)
            for p, mode in fw_tasks:
                record = ResultRecord.for_case(case, p.framework, p.name, device, {}, mode)
                if where:
                    yield harness_error(record, e, where, "rendering the case or running its eager reference")
                    continue
                yield eager_refusal(record, e)
            continue
        versions = prep.framework.versions()
        for p, mode in fw_tasks:
            if on_path_start:
                on_path_start(task_key(p.id, mode))
            try:
                yield run_path(case, prep, p, device, versions, mode)
            except Exception as e:  # noqa: BLE001 - what run_path does not catch is this project's own failure
                record = ResultRecord.for_case(case, p.framework, p.name, device, versions, mode)
                yield harness_error(record, e, harness_fault(e) or "run_path", "judging")


def tasks_of(paths: list[PathRecord], modes) -> list[tuple[PathRecord, str]]:
    """Every ``(path, mode)`` pair of ``paths`` in ``modes`` that the path supports, mode by mode."""
    return [(p, m) for m in modes for p in paths if m in p.modes]


#: Callables given every record :func:`check` returns (the pytest plugin's ``--conformance-results``
#: collects the records of each test through this).
RECORD_HOOKS: list = []


def check(case: Case, path: PathRecord, device: str = "cpu", mode: str = "infer") -> ResultRecord:
    """Run one case along one path in this process: the record (what the pytest suite asserts on). An eager
    reference that raises is a ``discarded`` record ("eager refuses ..."), as in campaigns."""
    (record,) = run_case(case, [(path, mode)], device)
    for hook in RECORD_HOOKS:
        hook(record)
    return record
