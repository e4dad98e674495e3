"""What a program does with Python values: the constructs it exercises (for coverage and reports).

The statements are :class:`~conformance.program.ir.PyStmt` (records in :mod:`conformance.program.pyops`), the
conditions :class:`~conformance.program.ir.PyCond`, and ``for`` loops over ``range(n)`` of a Python int ``n``;
the type checker follows each variable's type through them (:mod:`conformance.program.typecheck`).
"""

from __future__ import annotations

from conformance.program.ir import For, ProgramError, PyCond, PyStmt, TensorType, While, out_leaves, walk
from conformance.program.pyops import arrays
from conformance.program.typecheck import TypeChecker

#: The constructs of Python values a program may exercise (``Program.constructs()``):
#: ``python_values`` (any Python-value statement or condition), ``type_differs_if`` (a variable whose type differs
#: between the branches of a data-dependent ``if``), ``type_change_while`` (a variable whose type changes across
#: iterations of a tensor-conditioned ``while``), ``list_grown_data_loop`` (a list grown in a loop whose trip count
#: depends on the data), ``py_number_control`` (a Python number from a tensor deciding an ``if`` or a trip count),
#: ``py_output`` (a Python value among the outputs), ``list_value``, ``dict_value``, ``none_value``, ``list_repeat``
#: (``[v] * n``),
#: ``tensor_array`` (a list some framework renders as its own tensor array: :func:`~conformance.program.pyops.arrays`)
#: and ``tensor_array_len`` (``len()`` of one).
PY_CONSTRUCTS = ("python_values", "type_differs_if", "type_change_while", "list_grown_data_loop",
                 "py_number_control", "py_output", "list_value", "dict_value", "none_value", "list_repeat",
                 "tensor_array", "tensor_array_len")
_GROW = ("append", "extend", "iadd")
#: Python-value ops by the construct name the records of paths' known issues use for them.
_NAMED = {"item": "item_arith", "int_of": "int_cast", "bool_of": "int_cast", "list_fill": "list_repeat"}


def python_constructs(program) -> set:
    """The constructs of :data:`PY_CONSTRUCTS` that ``program`` exercises."""
    stmts = list(program.walk())
    uses = [s for s in stmts if isinstance(s, PyStmt)]
    if not uses:
        return set()
    checker = TypeChecker(program)
    try:
        checker.run(outputs=False)
    except ProgramError:
        return set()
    data = checker.data_derived
    found = {"python_values"} | checker.events
    for s in stmts:
        cond = getattr(s, "cond", None)
        if isinstance(cond, PyCond) and cond.var in data:
            found.add("py_number_control")
        if isinstance(s, For) and isinstance(s.count, str) and s.count in data:
            found.add("py_number_control")
        if isinstance(s, While) or (isinstance(s, For) and isinstance(s.count, str) and s.count in data):
            if any(isinstance(t, PyStmt) and t.op in _GROW for t in walk(s.body)):
                found.add("list_grown_data_loop")
    ops = {s.op for s in uses}
    # the constructs the known-issue records of conversion paths name (tracing bakes .item() and int(t) in)
    found |= {construct for op, construct in _NAMED.items() if op in ops}
    if ops & {"list_new", "list_of"}:
        found.add("list_value")
    if ops & {"dict_new"}:
        found.add("dict_value")
    if "none" in ops:
        found.add("none_value")
    if any(not isinstance(checker.env.get(n), TensorType) for n in out_leaves(program.output)):
        found.add("py_output")
    framework_arrays = arrays(program, "tf") | arrays(program, "paddle")
    if framework_arrays:
        found.add("tensor_array")
        if any(s.op == "len_of" and s.args[0] in framework_arrays for s in uses):
            found.add("tensor_array_len")
    return found
