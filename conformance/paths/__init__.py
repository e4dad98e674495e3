"""Conversion paths as records: the public API for paths, built-in and your own.

A :class:`PathRecord` names a way to turn an eager model into something else (``torch.script``,
``torch.onnx_dynamo`` ...): how to convert, how to run the result, what it specialises on, and its
known :class:`Limitation` records. Each framework's paths live in a subpackage (``paths.torch``,
``paths.paddle``, ``paths.tf``) that registers them when its framework is asked for, so
``import conformance`` never imports a framework.
"""

from conformance.paths.records import (
                                       FRAMEWORK_MODULES,
                                       FRAMEWORKS,
                                       MODES,
                                       PATHS,
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
                                       missing_requirements,
                                       module_versions,
                                       register,
                                       select_paths,
                                       split_names,
)

__all__ = ["FRAMEWORK_MODULES", "FRAMEWORKS", "MODES", "PATHS", "SPECIALISATIONS", "Autograd", "ConvertContext",
           "FlatOutputs", "Framework", "FrameworkUnavailable", "Limitation", "PathRecord", "UnknownPathError",
           "framework_available", "load_framework", "missing_requirements", "module_versions", "register",
           "select_paths", "split_names"]
