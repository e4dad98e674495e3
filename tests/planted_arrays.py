"""Deliberately wrong TensorFlow and Paddle paths for the frameworks' own tensor arrays (``--load
tests.planted_arrays``).

Each runs the eager model re-rendered with one bug a converted loop over a tensor array could have:

* ``tf.planted_fixed_array_drops_last``: each fixed-size ``tf.TensorArray`` (``l = [v] * n`` written at ``l[i]``)
  is stacked without its last write (``l.gather(tf.range(l.size() - 1))``), a loop one write short;
* ``paddle.planted_array_drops_last``: each Paddle tensor array (``paddle.tensor.create_array``) is stacked without
  its last write (``paddle.stack(l[:-1])``).

The frameworks are imported when a path runs, not with this module.
"""

from conformance.paths.records import PathRecord, register
from conformance.program.pyops import arrays, fixed_arrays
from conformance.render.source import cache_dir, load_source, render


def _short(ctx, framework: str, names, stacked: str, short: str):
    """The eager model of ``ctx.program`` rendered for ``framework`` with ``stacked`` (of each list in ``names``)
    replaced by ``short``."""
    source = render(ctx.program, framework)
    for name in sorted(names):
        source = source.replace(stacked.format(name), short.format(name))
    path = cache_dir() / framework / ctx.program.id / "planted_array_drops_last.py"
    return load_source(source, path, f"planted_array_drops_last_{framework}_{ctx.program.id}").Model()


def _tf_model(ctx):
    return _short(ctx, "tf", fixed_arrays(ctx.program), "{}.stack()", "{0}.gather(tf.range({0}.size() - 1))")


def _tf_run(model, args, kwargs):
    from conformance.paths.tf.conversions import call

    return call(model, args, kwargs)


def _paddle_model(ctx):
    model = _short(ctx, "paddle", arrays(ctx.program, "paddle"), "paddle.stack({})", "paddle.stack({}[:-1])")
    return model.train() if ctx.model.training else model.eval()


def _paddle_run(model, args, kwargs):
    import paddle

    with paddle.no_grad():
        return model(*args, **kwargs)


register(
    PathRecord("tf", "planted_fixed_array_drops_last", "eager, each fixed-size tf.TensorArray stacked without its "
               "last write", _tf_model, _tf_run, default=False),
    PathRecord("paddle", "planted_array_drops_last", "eager, each Paddle tensor array stacked without its last "
               "write", _paddle_model, _paddle_run, default=False),
)
