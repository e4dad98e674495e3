"""How each framework spells the parts of a model that are not ops: imports, weights, dtypes, reductions in
conditions, type annotations, and how tensors cross to and from numpy. The ops themselves are spelled by
the op records' emitters (:mod:`conformance.program.ops`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from conformance.program.ir import DTYPES


def spellings(module: str) -> dict:
    """``module.<dtype>`` for every IR dtype (torch, paddle and tensorflow name them alike)."""
    return {dtype: f"{module}.{dtype}" for dtype in DTYPES}


@dataclass(frozen=True)
class Dialect:
    """How one framework spells the parts of a model that are not ops."""

    framework: str
    imports: str
    base_class: str
    param: str  # "{name}", "{value}" (a float32 numpy array expression), "{np_float}" ("float32"/"float64")
    dtypes: Mapping[str, str]
    reduce: Mapping[str, str]
    tensor_type: str
    list_type: str
    dict_type: str
    tuple_type: str
    to_numpy: str  # expression turning a tensor `t` into a numpy array
    #: expression turning a numpy array ``{a}`` into a tensor on ``device`` (a variable: ``cpu`` or ``cuda``;
    #: TensorFlow places a constant where the op reading it runs)
    from_numpy: str
    method: str = "forward"  # the method a call of the model runs
    #: the size of dim ``{dim}`` of ``{var}`` in a shape test (TensorFlow: ``tf.shape``, as a traced model
    #: needs for a dim that is None in its input_signature)
    dim_size: str = "{var}.shape[{dim}]"
    #: first statement of a while loop whose variable ``{var}`` changes shape across iterations (TensorFlow:
    #: the shape invariant AutoGraph needs to make it a tf.while_loop); empty: none needed
    loop_shape_invariant: str = ""
    buffer: str = ""  # like ``param``, for state that is not trained (Param.trainable False)
    #: set in ``__init__`` of a model whose ops read ``self.training``, where the base class has no such flag
    training_init: str = ""
    #: the module also defines ``build_graph``, the model as a TensorFlow 1 graph
    #: (:class:`~conformance.render.tf1_graph.GraphWriter`)
    graph_builder: bool = False


TORCH = Dialect(
    framework="torch",
    imports="from typing import Dict, List, Tuple\n\nimport numpy as np\nimport torch\n"
            "import torch.nn.functional as F\n",
    base_class="torch.nn.Module",
    param="self.{name} = torch.nn.Parameter(torch.from_numpy({value}))",
    dtypes=spellings("torch"),
    reduce={"sum": "{0}.sum()", "mean": "{0}.mean()", "amax": "{0}.amax()", "amin": "{0}.amin()"},
    tensor_type="torch.Tensor",
    list_type="List[{0}]",
    dict_type="Dict[str, {0}]",
    tuple_type="Tuple[{0}]",
    to_numpy="{t}.detach().cpu().double().numpy().copy()",  # double: exact, and numpy has no bfloat16
    from_numpy="torch.from_numpy({a}).to(device)",
    buffer="self.register_buffer({name!r}, torch.from_numpy({value}))",
)

PADDLE = Dialect(
    framework="paddle",
    imports="from typing import Dict, List, Tuple\n\nimport numpy as np\nimport paddle\n"
            "import paddle.nn.functional as F\n",
    base_class="paddle.nn.Layer",
    param="self.{name} = self.create_parameter({value}.shape, dtype={np_float!r}, "
          "default_initializer=paddle.nn.initializer.Assign({value}.astype({np_float!r})))",
    dtypes=spellings("paddle"),
    reduce={"sum": "{0}.sum()", "mean": "{0}.mean()", "amax": "{0}.max()", "amin": "{0}.min()"},
    tensor_type="paddle.Tensor",
    list_type="List[{0}]",
    dict_type="Dict[str, {0}]",
    tuple_type="Tuple[{0}]",
    to_numpy="{t}.numpy().copy()",
    from_numpy="paddle.to_tensor({a}, place='gpu' if device == 'cuda' else 'cpu')",
    buffer="self.register_buffer({name!r}, paddle.to_tensor({value}.astype({np_float!r})))",
)

TF = Dialect(
    framework="tf",
    imports="from typing import Dict, List, Tuple\n\nimport numpy as np\nimport tensorflow as tf\n",
    base_class="tf.Module",
    param="self.{name} = tf.Variable({value}.astype({np_float!r}), name={name!r})",
    dtypes=spellings("tf"),
    reduce={"sum": "tf.reduce_sum({0})", "mean": "tf.reduce_mean({0})", "amax": "tf.reduce_max({0})",
            "amin": "tf.reduce_min({0})"},
    tensor_type="tf.Tensor",
    list_type="List[{0}]",
    dict_type="Dict[str, {0}]",
    tuple_type="Tuple[{0}]",
    to_numpy="np.array({t}).copy()",
    from_numpy="tf.constant({a})",
    method="__call__",
    dim_size="tf.shape({var})[{dim}]",
    loop_shape_invariant="tf.autograph.experimental.set_loop_options(shape_invariants=[({var}, "
                         "tf.TensorShape([None] * len({var}.shape)))])",
    buffer="self.{name} = tf.Variable({value}.astype({np_float!r}), name={name!r}, trainable=False)",
    training_init="self.training = False  # train()/eval() of torch and paddle: set before conversion",
    graph_builder=True,
)

DIALECTS = {"torch": TORCH, "paddle": PADDLE, "tf": TF}
