"""``torch.fx`` symbolic tracing: what it refuses and gets wrong.
"""

from conformance.paths.known.factories import Failure, known_bug, refusal, refuses_with

RECORDS = (
    refuses_with(
        "fx.control_flow",
        reason=("Symbolic tracing cannot follow Python control flow on tensor values or shapes (FX's documented "
                "limitation)"),
        errors=('TraceError',),
        message="symbolically traced variables cannot be used as inputs to control flow",
        reference="https://pytorch.org/docs/stable/fx.html#dynamic-control-flow",
        details=("symbolic tracing cannot follow Python control flow on tensor values or shapes (FX's documented "
                 "limitation: dynamic control flow). Provenance: "
                 "https://pytorch.org/docs/stable/fx.html#dynamic-control-flow."),
        example=Failure('convert',
                        error_types=('TraceError', 'ValueError', 'Exception'),
                        message="symbolically traced variables cannot be used as inputs to control flow"),
    ),
    refusal(
        "fx.proxy_python",
        reason=("Symbolic tracing records operations on Proxies, so Python that needs a concrete value (iterating a "
                "Proxy, int() or range() of one, item assignment) fails"),
        errors=('TraceError', 'TypeError'),
        message=("Proxy object cannot be iterated|argument must be a string, a bytes-like object or a real number, "
                 "not 'Proxy'|'Proxy' object does not support item assignment|'Proxy' object cannot be interpreted "
                 "as an integer"),
        reference="https://pytorch.org/docs/stable/fx.html#limitations-of-symbolic-tracing",
        details=("symbolic tracing records tensor operations on Proxies: Python that needs a concrete value "
                 "(iterating a Proxy, as tuple unpacking and *args do; int() of one; range() of one, as `for i in "
                 "range(x.shape[0])` gives it, the shape being a Proxy too; item assignment) is refused. "
                 "Provenance: https://pytorch.org/docs/stable/fx.html#limitations-of-symbolic-tracing. It also "
                 "covers what a record of its own said (every failure it selected is this record's): symbolic "
                 "tracing cannot trace assignment into a traced tensor (x[...] = v)."),
        example=Failure('convert', error_types=('TraceError',), message="Proxy object cannot be iterated"),
    ),
    refuses_with(
        "fx.cond",
        reason="torch.cond under symbolic tracing gets a Proxy predicate and refuses it",
        errors=('RuntimeError',),
        message="Expected pred to be bool or tensor, but got Proxy",
        reference="https://pytorch.org/docs/stable/generated/torch.cond.html",
        details=("torch.cond under symbolic tracing gets a Proxy predicate and refuses it: torch.cond is for "
                 "torch.compile and torch.export. Provenance: "
                 "https://pytorch.org/docs/stable/generated/torch.cond.html."),
        example=Failure('convert',
                        error_types=('RuntimeError',),
                        message="Expected pred to be bool or tensor, but got Proxy"),
    ),
    refusal(
        "fx.no_python_value",
        reason="Symbolic tracing has no Python value for a traced tensor, so int(t) and a for loop over its rows fail",
        errors=('TypeError', 'TraceError'),
        message="(?<!a bytes-like object or a real number, )not 'Proxy'",
        reference="https://pytorch.org/docs/stable/fx.html#limitations-of-symbolic-tracing",
        details=("symbolic tracing has no Python value for a traced tensor: int(t) and a for over its rows fail. "
                 "Provenance: https://pytorch.org/docs/stable/fx.html#limitations-of-symbolic-tracing."),
        example=Failure('convert', error_types=('TypeError',), message="not 'Proxy'"),
    ),
    known_bug(
        "fx.buffer_update_dropped",
        reason=("Symbolic tracing runs an in-place update of a buffer (self.b.add_(1)) once, while tracing, and "
                "bakes the buffer into the graph as a constant"),
        phases=('compare',),
        versions=">=2.13",
        constructs=('state_counter', 'state_running'),
        found="2026-11-23 (torch 2.13.0, paddlepaddle 3.3.1, tensorflow 2.21.0)",
        details=("known bug: symbolic tracing runs an in-place update of a buffer (self.b.add_(1)) once, while "
                 "tracing, and bakes the buffer into the graph as a constant: the traced module never updates it. "
                 "Provenance: found by conformance 2026-11-23 (torch 2.13.0, paddlepaddle 3.3.1, tensorflow 2.21.0)."),
        example=Failure('compare', divergences=(('value', '[0]'),), constructs=('state_counter',)),
    ),
)
