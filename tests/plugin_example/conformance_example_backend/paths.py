"""The backend's paths, registered with conformance's public path API (``conformance.paths``).

``pyproject.toml`` names this module, and its ``faulty_paths``, in the ``conformance.paths`` entry-point
group: importing the module registers ``torch.example_backend``; calling ``faulty_paths`` returns the
planted-fault variant, ``torch.example_backend_faulty``. Both are selected only when named
(``default=False``), so installing the example changes no default campaign.
"""

from conformance.paths import PathRecord, register
from conformance_example_backend.backend import call, compile_example, compile_faulty

register(PathRecord(
    "torch", "example_backend", "torch.compile(backend=example_backend): an example of a path of your own "
    "(tests/plugin_example)", compile_example, call, default=False))


def faulty_paths():
    """The same backend with a planted bug (its first float output is 0.1% off): the self-test that shows a
    path of your own is judged like the built-in ones."""
    return [PathRecord("torch", "example_backend_faulty", "example_backend with a planted bug "
                       "(tests/plugin_example)", compile_faulty, call, default=False)]
