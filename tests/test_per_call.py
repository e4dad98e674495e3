"""The per-call paths (issue 17 item 4): ``tf.function`` and XLA as most users call them, without an input signature
and with the Python keyword arguments passed on every call; and Paddle's ``to_static`` (AST) without an
``input_spec`` (SOT and ``torch.compile`` already take the kwargs on every call).

Each new kwargs value must give the eager answer (a trace reused for another Python value is a mismatch: the
planted ``tf.planted_*_first_trace`` paths, one per per-call path, and Paddle's ``planted_per_call_first_program``
do exactly that and are caught), the traces are counted per call signature (a new Python value or shape traces once
more; ``reduce_retracing`` generalises a varying batch), and drawn programs with kwargs flag nothing along them.
"""

import functools

import pytest
from hypothesis import HealthCheck, given, settings

pytest.importorskip("conformance.paths.tf", reason="tensorflow is not installed")  # the adapter imports it

from conformance.paths.records import PATHS, PathRecord, register  # noqa: E402
from conformance.paths.tf import conversions as conv  # noqa: E402
from conformance.program.case import Case, InputSet  # noqa: E402
from conformance.program.ops import TRIAGED_OPS  # noqa: E402
from conformance.program.strategies import cases  # noqa: E402
from conformance.run.runner import prepare, run_path  # noqa: E402

from .test_paths_tf import kwarg_program  # noqa: E402

PER_CALL = ["tf.function_per_call", "tf.xla_per_call", "tf.function_reduce_retracing"]


class _FirstTrace(conv.PerCall):
    """Calls the function with the first kwargs value it was given, whatever the call brings: the trace of the
    first Python value reused for every other one."""

    first = None

    def __call__(self, *args, **kwargs):
        self.first = kwargs if self.first is None else self.first
        return super().__call__(*args, **self.first)


def _first_trace(ctx, jit_compile: bool, reduce_retracing: bool):
    function = _FirstTrace(ctx.model, ctx.device, jit_compile, reduce_retracing)
    function(*ctx.args, **ctx.kwargs)
    return function


#: Each TensorFlow per-call path, planted: (its name, the planted one's name, jit_compile, reduce_retracing).
PLANTED_TF = [("tf.function_per_call", "planted_function_first_trace", False, False),
              ("tf.xla_per_call", "planted_xla_first_trace", True, False),
              ("tf.function_reduce_retracing", "planted_reduce_retracing_first_trace", False, True)]


def _paddle_first_program(ctx):
    from conformance.paths.paddle.conversions import to_static_per_call

    static, first = to_static_per_call(ctx), dict(ctx.kwargs)
    return lambda *args, **kwargs: static(*args, **first)


register(*(PathRecord("tf", name, f"{path} reusing the first kwargs' trace", functools.partial(
                          _first_trace, jit_compile=jit, reduce_retracing=relax), conv.run,
                      counters=conv.PerCall.counters, default=False) for path, name, jit, relax in PLANTED_TF),
         PathRecord("paddle", "planted_per_call_first_program", "to_static per call running the first kwargs' program",
                    _paddle_first_program, lambda artifact, args, kwargs: artifact(*args, **kwargs), default=False))


A = (("alpha", 0.5), ("flag", True))
B = (("alpha", 2.0), ("flag", False))
#: example (A, batch 2); new batches 5 and 3 with A; a new kwargs value B at batch 2; A again at batch 2
CASE = Case(kwarg_program(), (InputSet("example", 2, 1, A), InputSet("batch", 5, 2, A), InputSet("batch", 3, 3, A),
                         InputSet("kwargs", 2, 4, B), InputSet("kwargs", 2, 5, A)))


@pytest.fixture(scope="module")
def prep():
    return prepare(CASE, "tf")


@pytest.fixture(scope="module")
def paddle_prep():
    pytest.importorskip("conformance.paths.paddle", reason="paddle is not installed")
    return prepare(CASE, "paddle")


def test_paddle_to_static_per_call_builds_a_program_per_python_value_and_shape(paddle_prep):
    record = run_path(CASE, paddle_prep, PATHS["paddle.to_static_per_call"])
    assert [e.outcome for e in record.detail.inputs] == ["pass"] * 5, record.detail.message
    assert [e.counters["programs"] for e in record.detail.inputs] == [1, 2, 3, 4, 4]


def test_paddle_running_the_first_program_for_a_new_python_value_is_a_mismatch(paddle_prep):
    record = run_path(CASE, paddle_prep, PATHS["paddle.planted_per_call_first_program"])
    assert [e.outcome for e in record.detail.inputs] == ["pass", "pass", "pass", "mismatch", "pass"]
    assert record.outcome == "mismatch"


@pytest.mark.parametrize("path", PER_CALL)
def test_every_kwargs_value_passed_per_call_gives_the_eager_answer(prep, path):
    record = run_path(CASE, prep, PATHS[path])
    assert record.outcome == "pass", record.detail.message
    assert [e.outcome for e in record.detail.inputs] == ["pass"] * 5


@pytest.mark.parametrize("path, traces", [
    ("tf.function_per_call", [1, 2, 3, 4, 4]),  # one trace per (kwargs value, shape); A at batch 2 is reused
    ("tf.xla_per_call", [1, 2, 3, 4, 4]),
    ("tf.function_reduce_retracing", [1, 2, 2, 3, 3]),  # batch 5 retraces with B generalised; batch 3 reuses it
])
def test_a_new_python_value_or_shape_traces_once_more(prep, path, traces):
    record = run_path(CASE, prep, PATHS[path])
    assert record.detail.counters == {"traces": 1, "kwargs_values": 1, "call_signatures": 1}
    counted = [e.counters for e in record.detail.inputs]
    assert [c["traces"] for c in counted] == traces
    assert [c["kwargs_values"] for c in counted] == [1, 1, 1, 2, 2]
    assert [c["call_signatures"] for c in counted] == [1, 2, 3, 4, 4]


@pytest.mark.parametrize("planted", [f"tf.{name}" for _, name, _, _ in PLANTED_TF])
def test_reusing_the_first_trace_for_a_new_python_value_is_a_mismatch(prep, planted):
    record = run_path(CASE, prep, PATHS[planted])
    assert [(e.role, e.outcome) for e in record.detail.inputs] == [
        ("example", "pass"), ("batch", "pass"), ("batch", "pass"), ("kwargs", "mismatch"), ("kwargs", "pass")]
    assert record.outcome == "mismatch"
    assert "kwargs" in record.detail.message


@pytest.mark.parametrize("path", PER_CALL)
@settings(max_examples=6, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(case=cases(ops=TRIAGED_OPS, constructs=frozenset({"kwargs", "if_kwarg", "if_tensor", "dynamic_dim"}))
       .filter(lambda c: any(i.role == "kwargs" for i in c.inputs)))
def test_drawn_programs_with_kwargs_flag_nothing(path, case):
    """A clean run: programs whose answer depends on kwargs, with an input set of other kwargs values passed on
    its call, give the eager answer (or a documented refusal) on every input set."""
    from conformance.run.runner import check

    record = check(case, PATHS[path])
    assert record.outcome in ("pass", "unsupported", "discarded"), (record.outcome, record.detail.message)
