"""MkDocs hooks (mkdocs.yml ``hooks:``): add the reference pages generated from the records to the site being built
(docs/reference_pages.py writes them), so they are always what the installed records say; and turn the Sphinx roles
of the docstrings (``:func:`~conformance.check```) into links where they name a documented object."""

import html
import importlib.util
import re
from pathlib import Path

from mkdocs.structure.files import File

_spec = importlib.util.spec_from_file_location("reference_pages", Path(__file__).with_name("reference_pages.py"))
reference_pages = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(reference_pages)

#: a role as mkdocstrings renders a docstring's ``:func:`~conformance.x.y```: the role, then the code
ROLE = re.compile(r":(?:mod|func|class|data|meth|attr|exc|obj):<code>(~?)([\w.]+)</code>")


def on_files(files, config):
    for name, text in reference_pages.pages().items():
        files.append(File.generated(config, name, content=text))
    return files


def _role(match: re.Match) -> str:
    short, target = match.groups()
    code = f"<code>{html.escape(target.rpartition('.')[2] if short else target)}</code>"
    if not target.startswith("conformance."):
        return code
    # mkdocs-autorefs links it where an API page documents the object; "optional": plain code where none does
    return f'<autoref identifier="{target}" optional>{code}</autoref>'


def on_page_content(content, page, config, files):
    return ROLE.sub(_role, content)
