"""Reproducers copy the conversion code a campaign ran (conformance.paths.standalone)."""

import functools

import pytest

from conformance.paths.standalone import NotStandalone, standalone_source

from . import standalone_sample


def test_a_conversion_is_copied_with_what_it_uses_and_runs_alone():
    source = standalone_source(functools.partial(standalone_sample.convert, offset=1), names=("convert_it",))
    assert "def unused" not in source and "import math" in source and "SCALE = 2.0" in source
    namespace: dict = {}
    exec(compile(source, "repro.py", "exec"), namespace)
    assert namespace["convert_it"](None)(2.5) == (2 + 1) * 2.0


def test_code_that_is_not_standalone_is_refused_by_name():
    def local(ctx):
        return ctx

    with pytest.raises(NotStandalone, match="inside a function"):
        standalone_source(local)
    with pytest.raises(NotStandalone, match="relative import"):
        standalone_source(not_standalone)  # this module imports standalone_sample relatively


def not_standalone(ctx):
    return standalone_sample.convert(ctx)


def test_names_from_standalone_conformance_modules_are_copied_not_imported():
    source = standalone_source(standalone_sample.run_flat)
    assert "import conformance" not in source and "from conformance" not in source
    assert "class FlatOutputs" in source and "def flatten" in source and "def unflatten" not in source
    namespace: dict = {}
    exec(compile(source, "repro.py", "exec"), namespace)
    assert namespace["run_flat"](lambda a: [a, (a,)], [1]) == [1, 1]
