"""Conversion paths as records: the public API for paths, built-in and your own.

A :class:`PathRecord` names a way to turn an eager model into something else (``torch.script``,
``torch.onnx_dynamo`` ...): how to convert, how to run the result, what it specialises on, and its
known :class:`Limitation` records. Each framework's paths live in a subpackage (``paths.torch``,
``paths.paddle``, ``paths.tf``) that registers them when its framework is asked for, so
``import conformance`` never imports a framework.

Paths of your own: a package registers :class:`PathRecord` s under the entry-point group
:data:`ENTRY_POINT_GROUP` (``conformance.paths``), an entry named ``<framework>.<name>`` pointing at a module
that registers them when imported or a callable that returns them; :func:`load_plugins` loads them with their
framework's built-in paths, and :data:`PLUGIN_ERRORS` names the entries that failed (``tests/plugin_example``).
"""

from conformance.paths.records import (
                                       ENTRY_POINT_GROUP,
                                       FRAMEWORK_MODULES,
                                       FRAMEWORKS,
                                       MODES,
                                       PATHS,
                                       PLUGIN_ERRORS,
                                       SPECIALISATIONS,
                                       Autograd,
                                       ConvertContext,
                                       FlatOutputs,
                                       Framework,
                                       FrameworkUnavailable,
                                       Limitation,
                                       PathRecord,
                                       UnknownPathError,
                                       framework_available,
                                       load_framework,
                                       load_plugins,
                                       missing_requirements,
                                       module_versions,
                                       register,
                                       select_paths,
                                       split_names,
)

__all__ = ["ENTRY_POINT_GROUP", "FRAMEWORK_MODULES", "FRAMEWORKS", "MODES", "PATHS", "PLUGIN_ERRORS",
           "SPECIALISATIONS", "Autograd", "ConvertContext", "FlatOutputs", "Framework", "FrameworkUnavailable",
           "Limitation", "PathRecord", "UnknownPathError", "framework_available", "load_framework", "load_plugins",
           "missing_requirements", "module_versions", "register", "select_paths", "split_names"]
