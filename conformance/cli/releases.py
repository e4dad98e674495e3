"""``--with SPEC``: run a command in an environment with other releases (:mod:`conformance.run.releases`).

The whole command runs again there, less its ``--with`` options: its workers, its configuration checks (which
opset the onnxruntime there loads) and the versions its records carry are the environment's.
"""

from __future__ import annotations

import os
import subprocess
import sys

#: The options this module adds, and whether each takes a value: they are left out of the command run there.
OPTIONS = {"--with": True, "--index-url": True, "--find-links": True, "--no-index": False}


def add_with_options(parser) -> None:
    parser.add_argument("--with", dest="with_", action="append", metavar="SPEC",
                        help="run with this release (pip requirement syntax, repeatable: --with onnxruntime==1.18.1 "
                             "--with 'numpy<2') and everything else as installed, in an environment built with uv "
                             "and cached (needs the package index once)")
    add_index_options(parser)


def add_index_options(parser) -> None:
    parser.add_argument("--index-url", metavar="URL", help="the package index releases come from (default: "
                        "$UV_DEFAULT_INDEX, $UV_INDEX_URL or $PIP_INDEX_URL, else PyPI)")
    parser.add_argument("--find-links", action="append", metavar="DIR", help="a folder of wheels to take releases "
                        "from too (repeatable)")
    parser.add_argument("--no-index", action="store_true", help="take releases from --find-links only")


def index_of(args):
    from conformance.run.releases import Index

    return Index.from_options(args.index_url, args.find_links, args.no_index)


def without_with(argv: list[str]) -> list[str]:
    """``argv`` less the options of :data:`OPTIONS` (``--with X`` and ``--with=X`` alike)."""
    out, skip = [], False
    for arg in argv:
        if skip:
            skip = False
            continue
        name = arg.split("=", 1)[0]
        if name in OPTIONS:
            skip = OPTIONS[name] and "=" not in arg
            continue
        out.append(arg)
    return out


def framework_modules(args) -> tuple[str, ...]:
    """What must import in the environment: the project and the frameworks the command names."""
    from conformance.cli.common import names_of
    from conformance.paths.records import FRAMEWORK_PACKAGES

    return ("conformance", *(FRAMEWORK_PACKAGES.get(fw, fw) for fw in names_of(getattr(args, "frameworks", None))))


def release_env(args, modules: tuple[str, ...] = ("conformance",)):
    """The environment of ``args.with_``, or exit 2 with the configuration error (said once, on stderr)."""
    from conformance.run.releases import IndexUnreachable, ReleaseError, environment

    try:
        return environment(list(args.with_), index_of(args), modules, say=lambda s: print(s, file=sys.stderr))
    except IndexUnreachable as e:
        print(f"conformance: {e}", file=sys.stderr)
        raise SystemExit(2)
    except ReleaseError as e:
        print(f"conformance: configuration error: {e}", file=sys.stderr)
        raise SystemExit(2)


def run_with(args, argv: list[str], prefix: tuple[str, ...] = ("-m", "conformance")) -> int:
    """Run ``argv`` (less ``--with``) with ``python`` of the release environment ``args.with_``: its exit status."""
    from conformance.run.releases import WITH_ENV

    env = release_env(args, framework_modules(args))
    print(f"running with {env.describe()}", file=sys.stderr)
    child = {**os.environ, WITH_ENV: " ".join(args.with_)}
    proc = subprocess.Popen([str(env.python), *prefix, *without_with(argv)], env=child)
    try:
        return proc.wait()
    except KeyboardInterrupt:  # the child has its own Ctrl-C: let it finish its summary
        return proc.wait()
