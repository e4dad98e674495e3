"""The pytest plugin (entry point ``pytest11: conformance``).

Options::

    --conformance-frameworks torch        frameworks to check (default: every installed one)
    --conformance-paths script,trace      paths to check (default: all of those frameworks)
    --conformance-device cpu|cuda         where converted models run (cuda skips without a GPU)
    --conformance-shard I/N               run only shard I of N (CI jobs split the suite once)
    --conformance-results PATH            write the record of every check() the tests make to PATH
    --conformance-database URL            share failing examples between machines (redis://HOST:PORT or a
                                          directory), beside the local example database
    --conformance-onnx-opset N            the ONNX opset every ONNX exporter is asked for (default: each
                                          exporter's own), e.g. one an older onnxruntime loads
    --conformance-with SPEC               run the session with this release (repeatable: onnxruntime==1.18.1),
                                          in an environment built with uv and cached (conformance.run.releases)

Tests that take a ``conformance_path`` argument are parametrised over the selected path records
(ids like ``torch.script``); paths whose framework or packages are missing, or whose framework has
no such device here (a CPU-only TensorFlow with ``--conformance-device cuda``), are skipped with the
reason. ``conformance_device`` is the chosen device. ONNX paths whose opset (``--conformance-onnx-opset``, else their
exporter's default) the installed onnxruntime cannot load are skipped with that configuration error, and
the report header says which opset is asked for and what the runtime loads. A test module marked
``pytest.mark.conformance_frameworks("tf")`` gets only that framework's paths (the per-framework
parity suites in ``oracles/``).

``--conformance-results PATH`` writes one JSON Lines record (the ``results.jsonl`` format of
``reports/README.md``, with the test's node id in ``test``) for every :func:`conformance.run.runner.check`
a test makes, each Hypothesis example included, so a CI run of the suite feeds ``conformance report``.
Under pytest-xdist (``-n auto``) the records travel to the controller attached to each test's report,
as Hypothesis sends its statistics; only the controller writes the file, no worker shares it.

Hypothesis profiles, registered for any project and loaded only where the project opts in with
``conformance_profiles = true`` in its pytest ini options (this repository does), so other test
suites in the same environment keep their own Hypothesis settings. Then the default is ``ci`` when
``CI`` is set and ``dev`` otherwise; choose another with ``--hypothesis-profile`` or
``HYPOTHESIS_PROFILE``:

* ``dev`` (default locally): 10 examples per test, local example database, random.
* ``ci`` (default when ``CI`` is set; replaces Hypothesis's built-in ``ci``): 6 examples, derandomised
  and without a database, so a red CI run is a regression in the code under test, never a new draw
  of luck, and every run checks the same cases; ``print_blob`` so a failure can be replayed. No
  shrinking phase: each shrink step converts a model again, which would let one failure eat CI's
  time budget; shrink locally with the ``dev`` profile.
* ``nightly``: 200 examples, random, with the local database — the profile that finds new bugs.

In such a project the draws of a seed do not depend on what the process imported before
(:func:`conformance.program.strategies.seed_alone`): a derandomised test gets the same cases whichever
tests its pytest-xdist worker ran first.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, Phase, settings

if TYPE_CHECKING:
    from conformance.run.records import ResultRecord

_SLOW_OK = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]

settings.register_profile("dev", max_examples=10, deadline=None, suppress_health_check=_SLOW_OK)
settings.register_profile("ci", max_examples=6, deadline=None, derandomize=True, database=None, print_blob=True,
                          suppress_health_check=_SLOW_OK, phases=[Phase.explicit, Phase.reuse, Phase.generate])
settings.register_profile("nightly", max_examples=200, deadline=None, print_blob=True,
                          suppress_health_check=_SLOW_OK)


#: What a parity test accepts: the path agrees with eager, refuses as documented, or differs only where it
#: documents that it specialises.
ACCEPTED = frozenset({"pass", "unsupported", "expected_divergence"})


def judge(record: ResultRecord, case, known_bugs: str = "xfail") -> None:
    """Judge a record of :func:`conformance.run.runner.check` inside a Hypothesis test (the parity suites'
    property). A ``discarded`` record (the branch-flip guard) is rejected with ``assume``; a record
    outside :data:`ACCEPTED` fails the test with its message and a replay command (the case JSON is in the
    Hypothesis note), unless it matches a known-bug record of the path: then the test xfails naming the bug
    (``known_bugs="xfail"``) or counts it as a Hypothesis event and passes (``"event"``: the test goes on
    with its other examples, for a framework with several common known bugs)."""
    from hypothesis import assume, event, note

    assume(record.outcome != "discarded")  # too close to a threshold to judge
    note(json.dumps(case.to_dict()))
    known_issue, mode = record.detail.known_issue, record.mode
    if record.outcome not in ACCEPTED and known_issue is not None:
        if known_bugs == "event":
            event(f"{record.path_id}: {known_issue[:120]}")
            return
        pytest.xfail(known_issue)
    where = record.path_id + ("" if mode == "infer" else f" ({mode})")
    assert record.outcome in ACCEPTED, (
        f"{where}: {record.outcome}: {record.detail.message}\n"
        f"replay with: conformance replay case.json --frameworks {record.framework}"
        + ("" if mode == "infer" else f" --mode {mode}") + "  (the case JSON is in the Hypothesis note above)")


def pytest_addoption(parser):
    group = parser.getgroup("conformance")
    group.addoption("--conformance-frameworks", default=None,
                    help="frameworks to check, comma separated (default: every installed one)")
    group.addoption("--conformance-paths", default=None, help="paths to check, e.g. script,torch.trace")
    group.addoption("--conformance-device", default="cpu", choices=("cpu", "cuda"),
                    help="device converted models run on")
    group.addoption("--conformance-shard", default=None, metavar="I/N",
                    help="run only shard I of N (0-based): each test lands in one shard, by a hash of its id")
    group.addoption("--conformance-results", default=None, metavar="PATH",
                    help="write a JSON Lines record per check() the tests make to PATH (input of `conformance report`)")
    group.addoption("--conformance-database", default=None, metavar="URL",
                    help="share failing examples between machines: redis://HOST:PORT or a shared directory")
    group.addoption("--conformance-onnx-opset", default=None, metavar="N",
                    help="the ONNX opset every ONNX exporter is asked for (default: $CONFORMANCE_ONNX_OPSET if set, "
                         "else each exporter's own); ONNX paths the installed onnxruntime cannot load are skipped")
    group.addoption("--conformance-with", action="append", default=None, metavar="SPEC",
                    help="run the whole session with this release (pip requirement syntax, repeatable) and everything "
                         "else as installed, in an environment built with uv and cached")
    parser.addini("conformance_profiles", type="bool", default=False,
                  help="load conformance's Hypothesis profile (ci when CI is set, else dev)")


_seed_alone_key = pytest.StashKey[contextlib.AbstractContextManager]()


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config):
    """``--conformance-with``: the whole session again (less that option) with the release environment's Python,
    its exit status this one's; a set that cannot be built or imported is one usage error, before any test."""
    specs = config.getoption("conformance_with")
    if not specs:
        return None
    import subprocess
    import sys

    from conformance.run.releases import WITH_ENV, ReleaseError, environment

    try:
        env = environment(list(specs), modules=("conformance", "pytest"), say=lambda s: print(s, file=sys.stderr))
    except ReleaseError as e:
        raise pytest.UsageError(f"--conformance-with: {e}") from None
    args, skip = [], False
    for arg in config.invocation_params.args:
        if not skip and arg.split("=", 1)[0] != "--conformance-with":
            args.append(arg)
        skip = arg == "--conformance-with" and not skip
    print(f"conformance: running the session with {env.describe()}", file=sys.stderr)
    return subprocess.call([str(env.python), "-m", "pytest", *args], cwd=config.invocation_params.dir,
                           env={**os.environ, WITH_ENV: " ".join(specs)})


@pytest.hookimpl(trylast=True)  # after Hypothesis's own plugin has loaded --hypothesis-profile
def pytest_configure(config):
    config.addinivalue_line("markers", "conformance_frameworks(*names): give the conformance_path argument only "
                                       "these frameworks' paths")
    opset = config.getoption("conformance_onnx_opset")
    if opset is not None:  # every ConvertContext reads it; xdist workers and exporters' processes inherit it
        from conformance.paths.onnx_opset import OPSET_ENV, requested_opset

        try:
            os.environ[OPSET_ENV] = str(requested_opset(opset))
        except ValueError as e:
            raise pytest.UsageError(f"--conformance-onnx-opset: {e}") from None
    results = config.getoption("conformance_results")
    if results and not hasattr(config, "workerinput"):  # under xdist only the controller writes
        config.pluginmanager.register(_ResultsWriter(Path(results)), "conformance-results")
    if config.getini("conformance_profiles"):
        from conformance.program.strategies import seed_alone

        # a derandomised test draws the same cases whichever tests its xdist worker ran before
        config.stash[_seed_alone_key] = seed_alone()
        config.stash[_seed_alone_key].__enter__()
        if "HYPOTHESIS_PROFILE" in os.environ:
            settings.load_profile(os.environ["HYPOTHESIS_PROFILE"])
        elif config.getoption("hypothesis_profile", None) is None:
            settings.load_profile("ci" if os.environ.get("CI") else "dev")
    url = config.getoption("conformance_database")
    if url:
        _share_examples(url)


def pytest_unconfigure(config):
    if _seed_alone_key in config.stash:
        config.stash[_seed_alone_key].__exit__(None, None, None)


def _share_examples(url: str) -> None:
    """Make the shared database ``url`` part of the active profile's example database: Hypothesis saves
    each failing example there and replays the ones saved by any machine before it generates."""
    from hypothesis.database import MultiplexedDatabase

    from conformance.run.database import DatabaseError, open_database

    try:
        shared = open_database(url)
    except DatabaseError as e:
        raise pytest.UsageError(f"--conformance-database: {e}") from None
    local = settings.default.database
    settings.register_profile("conformance-shared", parent=settings.default,
                              database=MultiplexedDatabase(local, shared) if local is not None else shared)
    settings.load_profile("conformance-shared")


def pytest_report_header(config):
    """One line: the ONNX opset the ONNX paths ask for, and what the installed onnxruntime loads."""
    import importlib.util

    from conformance.paths.onnx_opset import requested_opset

    try:
        opset = requested_opset()
    except ValueError:
        opset = None
    asked = f"ONNX opset {opset}" if opset is not None else "ONNX opset: each exporter's default"
    if importlib.util.find_spec("onnxruntime") is None or importlib.util.find_spec("onnx") is None:
        return f"conformance: {asked} (onnxruntime is not installed)"
    from conformance.paths.onnx_opset import newest_opset, runtime_version

    try:
        loads = f"onnxruntime {runtime_version()} loads opsets up to {newest_opset()}"
    except Exception as e:  # noqa: BLE001 - a broken runtime install: say so, the tests will too
        loads = f"onnxruntime cannot be asked ({type(e).__name__}: {e})"
    return f"conformance: {asked}; {loads}"


def _refused_onnx_paths(config, paths: list) -> dict:
    """``{path id: configuration error}`` for the ONNX paths the installed onnxruntime cannot load (once per
    session and path)."""
    from conformance.paths.onnx_opset import requested_opset
    from conformance.run.onnx_checks import is_onnx, refused_paths

    cache = config.stash.setdefault(_refused_key, {})
    new = [p for p in paths if is_onnx(p) and p.id not in cache]
    if new:
        refused = refused_paths(new, requested_opset())
        cache.update({p.id: refused.get(p.id, "") for p in new})
    return {pid: why for pid, why in cache.items() if why}


_refused_key = pytest.StashKey[dict]()


def pytest_generate_tests(metafunc):
    if "conformance_path" not in metafunc.fixturenames:
        return
    from conformance.paths.records import (
        FRAMEWORK_MODULES,
        UnknownPathError,
        duplicate_work,
        framework_available,
        load_framework,
        missing_requirements,
        select_paths,
        split_names,
        unavailable_reason,
    )

    cfg = metafunc.config
    frameworks = split_names(cfg.getoption("conformance_frameworks")) or list(FRAMEWORK_MODULES)
    unknown = [fw for fw in frameworks if fw not in FRAMEWORK_MODULES]
    if unknown:
        raise pytest.UsageError(f"--conformance-frameworks: unknown {', '.join(unknown)}; "
                                f"known: {', '.join(FRAMEWORK_MODULES)}")
    available = [fw for fw in frameworks if framework_available(fw)]
    only = metafunc.definition.get_closest_marker("conformance_frameworks")
    wanted = set(only.args) if only is not None else set(frameworks)  # this test's frameworks
    params = [pytest.param(None, id=f"{fw}-missing", marks=pytest.mark.skip(reason=f"{fw} is not installed"))
              for fw in frameworks if fw not in available and fw in wanted]
    try:
        chosen = select_paths(available, split_names(cfg.getoption("conformance_paths")) or None) if available else []
    except UnknownPathError as e:
        raise pytest.UsageError(f"--conformance-paths: {e}")
    device = cfg.getoption("conformance_device")
    mine = [p for p in chosen if p.framework in wanted]
    refused = _refused_onnx_paths(cfg, [p for p in mine if not missing_requirements(p)])
    # as a campaign does: a variant running another path's code on this device runs only when named
    same = {} if cfg.getoption("conformance_paths") else duplicate_work(mine, device)
    for p in mine:
        missing = missing_requirements(p)
        marks = [pytest.mark.skip(reason=f"{p.id} needs {', '.join(missing)}")] if missing else []
        if p.id in same:
            marks = [pytest.mark.skip(reason=f"{p.id} (name it with --conformance-paths to run it): {same[p.id]}")]
        elif not missing and device not in load_framework(p.framework).devices():
            marks = [pytest.mark.skip(reason=f"{p.framework} has no {device} device here")]
        elif not missing and (why := unavailable_reason(p, device)):
            marks = [pytest.mark.skip(reason=f"{p.id}: {why}")]
        elif p.id in refused:  # the runtime cannot load what the exporter would write: not a finding
            marks = [pytest.mark.skip(reason=f"configuration error: {refused[p.id]}")]
        params.append(pytest.param(p, id=p.id, marks=marks))
    metafunc.parametrize("conformance_path", params)


def pytest_collection_modifyitems(config, items):
    shard = config.getoption("conformance_shard")
    if not shard:
        return
    import zlib

    try:
        i, n = (int(x) for x in shard.split("/"))
        assert 0 <= i < n
    except (ValueError, AssertionError):
        raise pytest.UsageError(f"--conformance-shard takes I/N with 0 <= I < N, got {shard!r}")
    keep = [item for item in items if zlib.crc32(item.nodeid.encode()) % n == i]  # stable across runs
    config.hook.pytest_deselected(items=[item for item in items if item not in keep])
    items[:] = keep


@pytest.fixture(scope="session")
def conformance_device(request):
    device = request.config.getoption("conformance_device")
    if device == "cuda":
        try:
            import torch

            if not torch.cuda.is_available():
                pytest.skip("--conformance-device cuda: no CUDA device here")
        except ImportError:
            pytest.skip("--conformance-device cuda: torch is not installed")
    return device


# ------------------------------------------------------------------ --conformance-results

_RECORDS_ATTR = "conformance_records"  # on a test report: its records as results lines (xdist serialises it)
_records_key = pytest.StashKey[list]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    if not item.config.getoption("conformance_results"):
        return (yield)
    from conformance.run.records import results_line
    from conformance.run.runner import RECORD_HOOKS

    records = item.stash[_records_key] = []

    def keep(record: ResultRecord):
        records.append(results_line(dataclasses.replace(record, test=item.nodeid)))

    RECORD_HOOKS.append(keep)
    try:
        return (yield)
    finally:
        RECORD_HOOKS.remove(keep)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if call.when == "call" and _records_key in item.stash:
        setattr(report, _RECORDS_ATTR, item.stash[_records_key])
    return report


class _ResultsWriter:
    """Appends the records that test reports carry, from this process or from xdist workers."""

    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.file = path.open("w")
        self.count = 0

    def pytest_runtest_logreport(self, report):
        lines = getattr(report, _RECORDS_ATTR, None) or ()
        for line in lines:
            self.file.write(line)
        self.count += len(lines)
        self.file.flush()

    def pytest_terminal_summary(self, terminalreporter):
        terminalreporter.write_line(f"conformance: {self.count} records in {self.path} "
                                    f"(see them with: conformance report {self.path} --out DIR)")

    def pytest_unconfigure(self, config):
        self.file.close()
