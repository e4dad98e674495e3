"""Callers of a model with ``forward``'s parameters spelled out, as ``paddle.jit.to_static`` needs them: it refuses
``*args`` with an ``input_spec``, and it reads a function's source from its file.

A template: :func:`conformance.paths.paddle.conversions.callers` writes a copy of this file with the model's
parameter names (its tensor inputs, then its keyword arguments) in place of the capitalised placeholder
identifier, and imports that copy. A reproducer reads this file beside it.
"""

import paddle


class AutoCast(paddle.nn.Layer):
    """The model called under ``paddle.amp.auto_cast`` inside the converted forward, where Paddle builds the
    reduced-precision program on every device (around a call, on the CPU, it does nothing but warn)."""

    def __init__(self, model, level: str, dtype: str):
        super().__init__()
        self.model = model
        self.amp_level = level
        self.amp_dtype = dtype

    def forward(self, PARAMETERS):
        with paddle.amp.auto_cast(level=self.amp_level, dtype=self.amp_dtype):
            out = self.model(PARAMETERS)
        return out


def function_of(model):
    """A plain function of the model's inputs that calls it: the layer is a closure variable."""

    def apply(PARAMETERS):
        return model(PARAMETERS)

    return apply
