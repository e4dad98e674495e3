"""Docs generated from records stay equal to the records: the README's table of paths and limitations."""

import subprocess
import sys
from pathlib import Path

import pytest

from conformance.paths.catalogue import with_readme_table
from conformance.paths.records import FRAMEWORK_MODULES, framework_available

README = Path(__file__).resolve().parent.parent / "README.md"


@pytest.mark.skipif(not all(framework_available(fw) for fw in FRAMEWORK_MODULES),
                    reason="the README lists every framework's paths: needs torch, paddle and tensorflow installed")
def test_the_readme_paths_table_is_generated_from_the_records():
    # a fresh interpreter: test modules register planted paths in this one
    code = ("from conformance.paths.catalogue import markdown, registered_paths; "
            "print(markdown(registered_paths(builtin_only=True)), end='')")
    table = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    readme = README.read_text()
    expected = with_readme_table(readme, table)
    assert readme == expected, ("README.md's paths table is out of date: regenerate it with "
                                "python -c 'from conformance.paths.catalogue import update_readme; update_readme()'")
