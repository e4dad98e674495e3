"""What a path's known limitations select: a :class:`Failure` (what went wrong, as a record may look at it) and a
:class:`Limitation` (a documented refusal, divergence or known bug, as a selector), with the precedence of the most
specific record. The records themselves are data in :mod:`conformance.paths.known`; paths are in
:mod:`conformance.paths.records`."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Optional

#: What went wrong, as far as a limitation may look: the phase (``convert``, ``run``, ``compare``: a mismatch
#: found by the oracle, ``eager``: eager itself in a mode, ``crash``: the path's process died, ``timeout``: it gave
#: no result in time), and what the oracle calls each kind of divergence.
#: The longest a record's one-sentence ``reason`` may be (the rest goes in its ``details``).
REASON_MAX = 160

PHASES = ("convert", "run", "compare", "eager", "crash", "timeout")
DIVERGENCES = ("structure", "key_order", "shape", "dtype", "nonfinite", "value", "extra_gradient", "missing_gradient")


@dataclass(frozen=True)
class Failure:
    """A failure of a path on a case, as :class:`Limitation` selectors see it.

    ``error_types``: the exception's class name and the names of its bases (``convert``, ``run``, ``eager``), or the
    signal that killed the path's process (``crash``: ``SIGSEGV``, ``SIGABRT``, ``SIGFPE``); ``message``: the
    exception's own text, the framework's words (never this project's), or the end of the dead or hung process's
    log (``crash``, ``timeout``: a C++ check, an abort message, the stack of the crash); ``divergences``:
    ``(kind, where)`` for each output leaf the oracle rejected (``compare``): ``kind`` one of
    :data:`DIVERGENCES`, ``where`` the leaf's path in the compared structure (``['sgd']['buffers'][0]``);
    ``constructs`` and ``ops``: those of the case's program (``Program.constructs()``, ``Program.ops()``; empty for a
    model of its own).
    """

    phase: str
    mode: str = "infer"
    error_types: tuple[str, ...] = ()
    message: str = ""
    divergences: tuple[tuple[str, str], ...] = ()
    constructs: tuple[str, ...] = ()
    ops: tuple[str, ...] = ()
    #: What the conversion observed about itself that a failure's kind alone cannot tell (``zero_size_input``,
    #: ``wrote_inputs``, ``branch_repeats_output`` ...: :attr:`ConvertContext.facts` that hold), sorted.
    facts: tuple[str, ...] = ()

    def of_program(self, program) -> "Failure":
        """This failure with the constructs and ops of ``program`` (a ``Program``; None: a model of its own)."""
        if program is None:
            return self
        return replace(self, constructs=tuple(sorted(program.constructs())), ops=tuple(sorted(set(program.ops()))))

    def of_context(self, ctx) -> "Failure":
        """This failure with the facts the conversion in ``ctx`` (a :class:`ConvertContext`, or None) observed."""
        facts = getattr(ctx, "facts", None) or {}
        return replace(self, facts=tuple(sorted(k for k, v in facts.items() if v)))

    @classmethod
    def of_exception(cls, e: BaseException, phase: str, mode: str = "infer") -> "Failure":
        types = tuple(t.__name__ for t in type(e).__mro__ if t not in (object, BaseException))
        return cls(phase, mode, types, str(e))


def steer_item(item: str) -> tuple[str, dict]:
    """A :attr:`Limitation.steer` item as ``(op or "", {feature: bin})``."""
    op, _, bins = item.rpartition(":")
    return op, dict(b.partition("=")[::2] for b in bins.split("&"))


@dataclass(frozen=True)
class Limitation:
    """A documented refusal or divergence of a component, as a structured selector (like OpInfo's
    ``DecorateInfo`` or onnxscript's ``.xfail(matcher=..., enabled_if=...)``).

    It applies to a :class:`Failure` when every selector it sets matches: ``phases`` (of :data:`PHASES`: the
    failure's must be one); ``modes`` (empty: every mode); ``errors``, exception class names of which the failure's
    exception (or a base) must be one; ``divergences``, oracle divergence kinds of which one leaf must show one, and
    ``where``, a regular expression one such leaf's path must contain; ``constructs``, program constructs of which
    the case's program must exercise one (``module_flag``: a divergence that only a program with that construct has
    by design), and ``ops``, op names of which it must use one (a converter's bug in one op's translation: a
    divergence kind alone would name every other op's too); ``facts``, what the conversion observed
    (:attr:`Failure.facts`), every one of which must hold; then, only where needed, ``message``, a regular
    expression searched in the *framework's* message; and ``versions``, a PEP 440 specifier on the framework's
    version, or on the installed distribution ``package`` where the limitation is a converter's (``paddle2onnx``,
    ``tf2onnx``). Where several records of a path apply, the most specific wins (:attr:`specificity`).

    ``outcome``: what a matching failure becomes: ``unsupported`` for a documented refusal,
    ``expected_divergence`` for a mismatch that is the path's documented behaviour (a Python attribute frozen
    into a trace), or ``None`` for a known bug (the outcome stays an error or a mismatch, the record names the
    bug in ``detail.known_issue``, and the pytest suite xfails it; the minimal case in ``cases/`` pins its
    outcome, so an upstream fix shows up there).

    ``reason`` is one sentence (at most :data:`REASON_MAX` characters); ``details`` the longer explanation
    (mechanism, reproducer, what other paths do: ``conformance paths --long``). Provenance: ``issue`` (the upstream
    report), ``case`` (a file in ``cases/``), ``script`` (a file in ``cases/standalone/``), ``reference`` (the
    documentation of a refusal), ``found`` (when and with which versions). ``name`` (``component.slug``) names the
    record in results; ``paths``: the paths of its component that carry it (empty: all of them); ``example``: the
    recorded failure it names, which it must match and win on every path that carries it.

    ``steer``: for a known bug that needs more of its op's statement than the op (an unbatched input, a zero-size
    dim), what a campaign's known-bug steering (:mod:`conformance.run.steering`) reads before converting: a program
    meets the bug only if a statement of one of its ``ops`` holds every ``feature=bin`` of one item, in the binned
    features of :mod:`conformance.program.coverage` (``"zero_size=True"``; ``"avg_pool2d:rank=3"`` for that op
    alone; several bins joined by ``&``). Steering only: matching a failure does not read it, so a program steered
    by the wider selector would only have cost the budget.
    """

    reason: str
    phases: tuple[str, ...] = ("convert",)
    errors: tuple[str, ...] = ()
    message: str = ""
    divergences: tuple[str, ...] = ()
    where: str = ""
    modes: frozenset = frozenset()
    outcome: Optional[str] = "unsupported"
    versions: str = ""
    package: str = ""
    constructs: tuple[str, ...] = ()
    ops: tuple[str, ...] = ()
    facts: tuple[str, ...] = ()
    steer: tuple[str, ...] = ()
    name: str = ""
    paths: tuple[str, ...] = ()
    issue: str = ""
    case: str = ""
    script: str = ""
    reference: str = ""
    found: str = ""
    details: str = ""
    example: Optional[Failure] = None

    def __post_init__(self):
        if isinstance(self.phases, str):
            object.__setattr__(self, "phases", (self.phases,))
        unknown_phases = set(self.phases) - set(PHASES)
        if not self.phases or unknown_phases:
            raise ValueError(f"limitation {self.reason!r}: unknown phases {sorted(unknown_phases) or '(none)'}; "
                             f"known: {', '.join(PHASES)}")
        unknown = set(self.divergences) - set(DIVERGENCES)
        if unknown:
            raise ValueError(f"limitation {self.reason!r}: unknown divergences {sorted(unknown)}; "
                             f"known: {', '.join(DIVERGENCES)}")
        if "compare" in self.phases and (self.errors or self.message):
            raise ValueError(f"limitation {self.reason!r}: a mismatch has no exception: select it by divergences "
                             f"and where")
        if set(self.phases) != {"compare"} and (self.divergences or self.where):
            raise ValueError(f"limitation {self.reason!r}: divergences and where select mismatches (phase "
                             f"'compare') only")
        if not (self.errors or self.message or self.divergences or self.where or self.constructs or self.ops
                or self.facts):
            raise ValueError(f"limitation {self.reason!r}: selects nothing (set errors, message, divergences, "
                             f"where, constructs, ops or facts)")
        for item in self.steer:
            op, bins = steer_item(item)
            if not self.ops or (op and op not in self.ops) or not all(k and v for k, v in bins.items()):
                raise ValueError(f"limitation {self.reason!r}: steer item {item!r} is not '[op:]feature=bin[&...]' "
                                 f"with op one of its ops {list(self.ops)}")

    @property
    def links(self) -> tuple[str, ...]:
        """Where to read more: the upstream issue, the case, the standalone script, the documentation."""
        return tuple(x for x in (self.issue, self.case and f"cases/{self.case}",
                                 self.script and f"cases/standalone/{self.script}", self.reference) if x)

    @property
    def text(self) -> str:
        """The name, the reason and the links, as a result record names the limitation."""
        return " ".join((f"{self.name}: {self.reason}" if self.name else self.reason,) + self.links)

    @property
    def specificity(self) -> int:
        """How many selectors the record sets besides its phases: of the records that apply, the most specific
        names the failure."""
        return sum(bool(x) for x in (self.modes, self.errors, self.message, self.divergences, self.where,
                                     self.constructs, self.ops, self.facts, self.versions))

    def covers(self, kind: str, where: str) -> bool:
        """Whether the record speaks of a diverging leaf at ``where`` of divergence ``kind`` (a record without
        divergence selectors speaks of every leaf)."""
        return (not self.divergences or kind in self.divergences) and bool(re.search(self.where, where))

    def applies(self, failure: Failure, version: str) -> bool:
        if failure.phase not in self.phases or (self.modes and failure.mode not in self.modes):
            return False
        if self.facts and not set(self.facts) <= set(failure.facts):
            return False
        if self.constructs and not set(self.constructs) & set(failure.constructs):
            return False
        if self.ops and not set(self.ops) & set(failure.ops):
            return False
        if self.errors and not set(self.errors) & set(failure.error_types):
            return False
        if (self.divergences or self.where) and not any(self.covers(*d) for d in failure.divergences):
            return False
        if self.message and not re.search(self.message, failure.message, re.S):
            return False
        if self.versions:
            from packaging.specifiers import SpecifierSet
            from packaging.version import Version

            if self.package:
                from importlib.metadata import PackageNotFoundError
                from importlib.metadata import version as installed_version

                try:
                    version = installed_version(self.package)
                except PackageNotFoundError:  # a bug of a package that is not installed is not this failure's
                    return False
            return SpecifierSet(self.versions).contains(Version(version.split("+")[0]), prereleases=True)
        return True
