"""Replay the regression corpus in ``cases/``: every file, every path it names, its recorded outcome.

An expectation applies where the installed framework version matches its ``versions`` specifier;
elsewhere the test skips and says why. A changed outcome fails, so an upstream fix (or a new
regression) is noticed and the file is updated deliberately.
"""

import importlib.util
import json
from pathlib import Path

import pytest
from packaging.specifiers import SpecifierSet
from packaging.version import Version

from conformance.case import Case
from conformance.paths import PATHS, load_framework, missing_requirements
from conformance.runner import check

CASES = Path(__file__).resolve().parent.parent / "cases"


def _expectations():
    for file in sorted(CASES.glob("*.json")):
        doc = json.loads(file.read_text())
        for path_id, want in doc["expected"].items():
            yield pytest.param(file, path_id, want, id=f"{file.stem}-{path_id}")


@pytest.mark.parametrize("file, path_id, want", list(_expectations()))
def test_case_outcome(file, path_id, want):
    framework = path_id.split(".")[0]
    if importlib.util.find_spec(framework) is None:
        pytest.skip(f"{framework} is not installed")
    fw = load_framework(framework)
    version = Version(fw.version().split("+")[0])
    if want.get("versions") and not SpecifierSet(want["versions"]).contains(version, prereleases=True):
        pytest.skip(f"expectation is for {framework} {want['versions']}, installed {version}")
    path = PATHS[path_id]
    if missing_requirements(path):
        pytest.skip(f"{path_id} needs {', '.join(missing_requirements(path))}")
    case = Case.from_dict(json.loads(file.read_text())["case"])
    record = check(case, path)
    assert record["outcome"] == want["outcome"], record["detail"]["message"]
