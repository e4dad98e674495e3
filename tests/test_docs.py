"""Docs generated from records stay equal to the records: the README's table of paths and limitations."""

from pathlib import Path

import pytest

from conformance.paths.catalogue import markdown, registered_paths, with_readme_table
from conformance.paths.records import FRAMEWORK_MODULES, framework_available

README = Path(__file__).resolve().parent.parent / "README.md"


@pytest.mark.skipif(not all(framework_available(fw) for fw in FRAMEWORK_MODULES),
                    reason="the README lists every framework's paths: needs torch, paddle and tensorflow installed")
def test_the_readme_paths_table_is_generated_from_the_records():
    readme = README.read_text()
    expected = with_readme_table(readme, markdown(registered_paths(builtin_only=True)))
    assert readme == expected, ("README.md's paths table is out of date: regenerate it with "
                                "python -c 'from conformance.paths.catalogue import update_readme; update_readme()'")
