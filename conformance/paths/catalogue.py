"""The tables generated from the path records and the catalogue of known limitations (:mod:`conformance.paths.known`):
``conformance paths`` (terminal, ``--long`` with each record's details, or ``--markdown``) and the documentation's
reference page of paths and their limitations."""

from __future__ import annotations

from conformance.paths.records import (
    FRAMEWORK_MODULES,
    MODES,
    PATHS,
    Limitation,
    PathRecord,
    framework_available,
    load_framework,
)


def registered_paths(builtin_only: bool = False) -> list[PathRecord]:
    """Every registered path of the installed frameworks, framework by framework (in :data:`FRAMEWORK_MODULES`
    order, whichever was loaded first), each in registration order; ``builtin_only``: leave out the paths other
    packages registered (entry points of ``conformance.paths``)."""
    for fw in FRAMEWORK_MODULES:
        if framework_available(fw):
            load_framework(fw)
    order = list(FRAMEWORK_MODULES)
    paths = sorted(PATHS.values(), key=lambda p: order.index(p.framework) if p.framework in order else len(order))
    return [p for p in paths if not builtin_only or _defined_in(p).startswith("conformance.")]


def _defined_in(path: PathRecord) -> str:
    convert = path.convert
    while hasattr(convert, "func"):  # functools.partial
        convert = convert.func
    return convert.__module__


def selector(lim: Limitation) -> str:
    """What a limitation selects, in words: ``convert: UserError ~ "Constraints violated" (torch >=2.1)``."""
    parts = ["/".join(lim.phases) + (f" in {'/'.join(m for m in MODES if m in lim.modes)}" if lim.modes else "") + ":"]
    if lim.errors:
        parts.append(" or ".join(lim.errors))
    if lim.divergences:
        parts.append(" or ".join(lim.divergences) + " divergence")
    if lim.where:
        parts.append(f"at /{lim.where}/")
    if lim.constructs:
        parts.append("with " + " or ".join(lim.constructs))
    if lim.ops:
        parts.append(("and " if lim.constructs else "with ") + "op " + " or ".join(lim.ops))
    if lim.facts:
        parts.append("where the conversion saw " + " and ".join(lim.facts))
    if lim.message:
        parts.append(f"~ /{lim.message if len(lim.message) <= 60 else lim.message[:57] + '...'}/")
    if lim.versions:
        parts.append(f"({lim.package or 'framework'} {lim.versions})")
    return " ".join(parts)


def kind(lim: Limitation) -> str:
    return {"unsupported": "refusal", "expected_divergence": "documented divergence"}.get(lim.outcome, "known bug")


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def links(lim: Limitation) -> str:
    """A record's provenance in words: its upstream issue, case, script, documentation, and when it was found."""
    return "; ".join(lim.links + ((f"found {lim.found}",) if lim.found else ()))


def markdown(paths: list[PathRecord]) -> str:
    """Markdown: the paths; every limitation of each path with its selector, reason and provenance; then each record
    of the catalogue once, by component, with its details (``conformance paths --long`` in the terminal)."""
    lines = ["| path | what | modes | specialises on | components | refusals | documented divergences | known bugs |",
             "|---|---|---|---|---|---|---|---|"]
    for p in paths:
        kinds = [kind(lim) for lim in p.records]
        lines.append(f"| `{p.id}` | {_cell(p.description)} | {', '.join(m for m in MODES if m in p.modes)} | "
                     f"{', '.join(sorted(p.specializes)) or '-'} | {', '.join(p.components) or '-'} | "
                     f"{kinds.count('refusal')} | {kinds.count('documented divergence')} | "
                     f"{kinds.count('known bug')} |")
    lines += ["", "| path | record | kind | selects | reason | provenance |", "|---|---|---|---|---|---|"]
    shown = {}
    for p in paths:
        for lim in p.records:
            shown.setdefault(lim.name or lim.reason, lim)
            lines.append(f"| `{p.id}` | `{lim.name or '-'}` | {kind(lim)} | {_cell(selector(lim))} | "
                         f"{_cell(lim.reason)} | {_cell(links(lim)) or '-'} |")
    lines += ["", "### Records by component", ""]
    for lim in sorted(shown.values(), key=lambda lim: lim.name):
        lines += [f"- `{lim.name or '-'}` ({kind(lim)}): {_cell(lim.reason)}. {_cell(lim.details)}".rstrip()]
    return "\n".join(lines) + "\n"
