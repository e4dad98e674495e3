"""Op records: one declarative record per op, one module per op family, all in one table.

:mod:`conformance.program.ops.record` holds the record type (:class:`OpRecord`, what each field means)
and the helpers the family modules share; each family module registers its records into :data:`OPS`
when it is imported. Importing this package imports them all, in a fixed order: the order of
:data:`OPS`, which is the order the generator draws from (reordering changes every drawn stream).
``conformance ops`` prints the table.
"""

# isort: off
from conformance.program.ops import elementwise  # noqa: F401 - each import registers a family's records
from conformance.program.ops import reductions  # noqa: F401
from conformance.program.ops import linalg  # noqa: F401
from conformance.program.ops import shape  # noqa: F401
from conformance.program.ops import comparison  # noqa: F401
from conformance.program.ops import inplace  # noqa: F401
from conformance.program.ops import training  # noqa: F401
from conformance.program.ops import activations  # noqa: F401
from conformance.program.ops import pooling  # noqa: F401
from conformance.program.ops import resize  # noqa: F401
from conformance.program.ops import indexing  # noqa: F401
from conformance.program.ops import sorting  # noqa: F401
from conformance.program.ops import padding  # noqa: F401
from conformance.program.ops import rearrange  # noqa: F401
from conformance.program.ops import convolution  # noqa: F401
from conformance.program.ops import layers  # noqa: F401
from conformance.program.ops import integer  # noqa: F401
from conformance.program.ops import mixed  # noqa: F401
from conformance.program.ops import effects  # noqa: F401
# isort: on

from conformance.program.ops.record import (  # noqa: F401 - the package's public names
    FLOAT_KWARG_RANGE,
    MAX_ABS,
    MAX_BATCH,
    OPS,
    Interval,
    OpRecord,
    Weight,
    broadcast,
    check_op,
)

#: The ops whose findings along every path are named (known bugs, documented refusals, cases): the derandomised
#: parity properties that CI runs draw from these. Ops added since (issue 16's families) are checked op by op
#: (tests/test_ops_*.py) and in campaigns; they join these once their campaigns' findings are triaged.
TRIAGED_OPS = ("neg", "abs", "square", "exp", "log", "sqrt", "sin", "cos", "relu", "sigmoid", "tanh", "gelu", "silu",
               "softplus", "leaky_relu", "clamp", "add_scalar", "mul_scalar", "mul_kwarg", "add", "sub", "mul", "div",
               "maximum", "minimum", "sum", "mean", "amax", "amin", "softmax", "log_softmax", "linear", "matmul",
               "conv2d", "layer_norm", "flatten", "reshape", "unsqueeze", "transpose", "concat", "slice", "index",
               "gt", "lt", "where", "to_int", "to_float", "add_", "mul_", "clamp_", "relu_", "dropout", "batch_norm",
               "detach")
