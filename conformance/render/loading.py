"""Rendered models as real files (TorchScript and AutoGraph read a model's source), imported as modules."""

from __future__ import annotations

import importlib.util
import os
import sys
import tempfile
from pathlib import Path


def cache_dir() -> Path:
    """Where rendered models are written: ``$CONFORMANCE_CACHE`` or a per-user temp folder."""
    root = os.environ.get("CONFORMANCE_CACHE") or os.path.join(tempfile.gettempdir(), f"conformance-{os.getuid()}")
    return Path(root)


def load_source(source: str, path: Path, module_name: str):
    """Write ``source`` to ``path`` (a real file, as TorchScript and AutoGraph need) and import it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text() != source:
        tmp = path.with_suffix(f".tmp{os.getpid()}")
        tmp.write_text(source)
        os.replace(tmp, path)
    if module_name in sys.modules:
        return sys.modules[module_name]
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module
