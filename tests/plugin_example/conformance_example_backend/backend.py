"""The backend a compiler team would own: ``torch.compile(model, backend=example_backend)``.

It "compiles" each graph TorchDynamo captures by running one optimisation pass over it (here: a ``x * 1``
and ``x + 0`` eliminator) and then the FX graph itself. ``faulty_backend`` is the same with a planted bug:
its pass also rewrites the graph's first floating-point output to be a little off, as a wrong fusion would.

Standalone: it imports only torch, so ``conformance triage`` copies these functions into a reproducer.
"""

import operator

import torch

#: (op, the operand that makes it the identity) for the eliminator pass
IDENTITIES = {operator.mul: 1, torch.mul: 1, operator.add: 0, torch.add: 0}


def eliminate_identities(gm: torch.fx.GraphModule) -> torch.fx.GraphModule:
    """Replace ``x * 1`` and ``x + 0`` (a Python number) by ``x`` where ``x`` is a node of the graph."""
    for node in list(gm.graph.nodes):
        if node.op != "call_function" or node.target not in IDENTITIES or len(node.args) != 2 or node.kwargs:
            continue
        lhs, rhs = node.args
        if isinstance(lhs, torch.fx.Node) and type(rhs) in (int, float) and rhs == IDENTITIES[node.target]:
            value = lhs.meta.get("example_value")
            out = node.meta.get("example_value")
            if value is not None and out is not None and (value.dtype, value.shape) == (out.dtype, out.shape):
                node.replace_all_uses_with(lhs)
                gm.graph.erase_node(node)
    gm.graph.lint()
    gm.recompile()
    return gm


def example_backend(gm: torch.fx.GraphModule, example_inputs):
    """The backend: the pass, then the graph as Python."""
    return eliminate_identities(gm).forward


def skew_first_float_output(gm: torch.fx.GraphModule) -> torch.fx.GraphModule:
    """The planted bug: the graph's first floating-point output comes out multiplied by 1.001."""
    output = next(n for n in gm.graph.nodes if n.op == "output")
    flat = list(output.args[0]) if isinstance(output.args[0], (list, tuple)) else [output.args[0]]
    for i, node in enumerate(flat):
        value = node.meta.get("example_value") if isinstance(node, torch.fx.Node) else None
        if isinstance(value, torch.Tensor) and value.is_floating_point():
            with gm.graph.inserting_before(output):
                flat[i] = gm.graph.call_function(operator.mul, (node, 1.001))
            break
    output.args = (type(output.args[0])(flat) if isinstance(output.args[0], (list, tuple)) else flat[0],)
    gm.graph.lint()
    gm.recompile()
    return gm


def faulty_backend(gm: torch.fx.GraphModule, example_inputs):
    """The backend with the planted bug."""
    return skew_first_float_output(eliminate_identities(gm)).forward


def compile_with(ctx, backend):
    """The conversion: ``torch.compile`` with the backend, compiled now by a first call (so a compiler error is
    a conversion error)."""
    import torch._dynamo

    torch._dynamo.reset()
    compiled = torch.compile(ctx.model, backend=backend)
    with torch.no_grad():
        compiled(*ctx.args, **ctx.kwargs)
    return compiled


def compile_example(ctx):
    """The path's conversion."""
    return compile_with(ctx, example_backend)


def compile_faulty(ctx):
    """The planted-fault variant's conversion."""
    return compile_with(ctx, faulty_backend)


def call(fn, args, kwargs):
    """Run the compiled model for inference."""
    with torch.no_grad():
        return fn(*args, **kwargs)
