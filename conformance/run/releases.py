"""Environments with other releases: ``--with onnxruntime==1.18.1`` runs the same project, the same frameworks and
everything else as installed here, but with those releases.

An environment is an *overlay*: a new virtual environment (``uv venv``) whose site-packages holds one ``.pth`` line,
``import site; site.addsitedir(BASE)`` (BASE: this environment's site-packages), and, installed with ``uv pip install
--no-deps``, only the releases that differ from BASE's; they come first on ``sys.path`` and shadow BASE's.

What goes into it is resolved by uv: the requested set, with the installed versions as preferences (so a
dependency moves only where the requested release needs another: onnxruntime 1.18.1 asks for ``numpy<2``). A set
that resolves but does not import (onnxruntime 1.15.1 was compiled against numpy 1.x yet does not say so) is tried
again, first with ``numpy<2`` where the error names numpy, then with the dependencies of its time (uv's
``--exclude-newer`` at the newest requested release's upload date); what was added is said, and the error names the
pins tried where none imports. Environments are kept in a cache folder keyed by their resolved set and reused; uv's
own cache makes a new one a matter of hard links.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

#: The environment variable a command started in a release environment finds its ``--with`` set in.
WITH_ENV = "CONFORMANCE_WITH"
#: Where environments are kept (default: ``$XDG_CACHE_HOME/conformance/envs``, else ``~/.cache/conformance/envs``).
CACHE_ENV = "CONFORMANCE_ENVS"
DEFAULT_INDEX = "https://pypi.org/simple"
_MARKER = "conformance-env.json"
_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")
_NUMPY_ABI = "A module that was compiled using NumPy 1.x cannot be run in"
_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;#]+)")

_PROBE = r"""
import importlib, importlib.metadata as md, json, re, sys, traceback
names, modules = json.loads(sys.argv[1]), json.loads(sys.argv[2])
canon = lambda n: re.sub(r"[-_.]+", "-", n).lower()
tops = md.packages_distributions()
found, errors = {}, {}
for name in names:
    try:
        found[name] = md.version(name)
    except md.PackageNotFoundError:
        errors[name] = "not installed"
        continue
    modules += sorted(m for m, ds in tops.items() if m.isidentifier() and not m.startswith("_")
                      and any(canon(d) == name for d in ds))
for module in dict.fromkeys(modules):
    try:
        importlib.import_module(module)
    except BaseException as e:
        errors[module] = "".join(traceback.format_exception_only(type(e), e)).strip()[-1500:]
print("\n" + json.dumps({"versions": found, "errors": errors}))
"""


class ReleaseError(Exception):
    """A release set that cannot be resolved, installed or imported; the message says what failed and what to try.
    A configuration error: said once, before any case runs."""


class IndexUnreachable(ReleaseError):
    """The package index cannot be reached (no network, or a wrong ``--index-url``)."""


def canonical(name: str) -> str:
    """A distribution's name as PEP 503 compares it."""
    return re.sub(r"[-_.]+", "-", name).lower()


def spec_name(spec: str) -> str:
    """The distribution a requirement names (``onnxruntime==1.18.1`` -> ``onnxruntime``)."""
    m = _NAME.match(spec)
    if not m or not spec.strip():
        raise ReleaseError(f"--with {spec!r}: not a requirement like onnxruntime==1.18.1")
    return canonical(m.group(1))


@dataclass(frozen=True)
class Index:
    """Where releases come from: an index (``url``) and/or folders of wheels (``find_links``); ``no_index``: the
    folders only (no network at all)."""

    url: str = ""
    find_links: tuple[str, ...] = ()
    no_index: bool = False

    @classmethod
    def from_options(cls, url: Optional[str] = None, find_links=None, no_index: bool = False) -> "Index":
        """The options' index, else the environment's: ``$UV_DEFAULT_INDEX``, ``$UV_INDEX_URL`` or
        ``$PIP_INDEX_URL``, ``$UV_FIND_LINKS`` (space separated) and ``$UV_NO_INDEX``, else PyPI."""
        url = url or os.environ.get("UV_DEFAULT_INDEX") or os.environ.get("UV_INDEX_URL") or \
            os.environ.get("PIP_INDEX_URL") or DEFAULT_INDEX
        find_links = find_links or os.environ.get("UV_FIND_LINKS", "").split()
        no_index = no_index or os.environ.get("UV_NO_INDEX", "").lower() in ("1", "true", "yes")
        return cls(url.rstrip("/"), tuple(str(Path(f).resolve()) if "://" not in f else f for f in find_links or ()),
                   no_index)

    def uv_args(self) -> list[str]:
        args = ["--no-index"] if self.no_index else ["--index-url", self.url or DEFAULT_INDEX]
        for f in self.find_links:
            args += ["--find-links", f]
        return args

    def check_reachable(self, package: str, timeout: float = 5.0) -> None:
        """Raise :class:`IndexUnreachable` unless the index answers for ``package`` within ``timeout`` seconds."""
        if self.no_index:
            return
        url = f"{self.url or DEFAULT_INDEX}/{canonical(package)}/"
        try:
            with urllib.request.urlopen(urllib.request.Request(url, method="HEAD"), timeout=timeout):
                pass
        except urllib.error.HTTPError as e:
            if e.code >= 500 or e.code in (401, 403, 407):
                raise IndexUnreachable(f"the package index {self.url} answered {e.code} for {url}") from None
        except (urllib.error.URLError, OSError) as e:
            reason = getattr(e, "reason", e)
            raise IndexUnreachable(f"the package index {self.url} cannot be reached ({reason}): building an "
                                   "environment with other releases needs it (or --find-links with wheels)") from None

    def release_dates(self, package: str, timeout: float = 10.0) -> dict:
        """``{version: first upload time (ISO)}`` from the index's JSON simple API (PEP 691/700); {} without it."""
        if self.no_index:
            return {}
        request = urllib.request.Request(f"{self.url or DEFAULT_INDEX}/{canonical(package)}/",
                                         headers={"Accept": "application/vnd.pypi.simple.v1+json"})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as r:
                data = json.load(r)
        except (OSError, ValueError):
            return {}
        dates: dict = {}
        for f in data.get("files", []):
            version = _file_version(f.get("filename", ""))
            when = f.get("upload-time")
            if version and when and (version not in dates or when < dates[version]):
                dates[version] = when
        return dates

    def versions(self, package: str, timeout: float = 20.0, pre: bool = False) -> list[str]:
        """The releases of ``package`` with a wheel this interpreter installs, oldest first (from the index's
        JSON simple API and the ``find_links`` folders); pre-releases only with ``pre``."""
        from packaging.tags import sys_tags
        from packaging.utils import InvalidWheelFilename, parse_wheel_filename
        from packaging.version import InvalidVersion

        names = []
        for folder in self.find_links:
            if "://" not in folder and Path(folder).is_dir():
                names += [p.name for p in Path(folder).iterdir()]
        if not self.no_index:
            request = urllib.request.Request(f"{self.url or DEFAULT_INDEX}/{canonical(package)}/",
                                             headers={"Accept": "application/vnd.pypi.simple.v1+json"})
            try:
                with urllib.request.urlopen(request, timeout=timeout) as r:
                    names += [f.get("filename", "") for f in json.load(r).get("files", []) if not f.get("yanked")]
            except (OSError, ValueError) as e:
                raise IndexUnreachable(f"cannot list the releases of {package} on {self.url}: {e}") from None
        here = set(sys_tags())
        found = set()
        for name in names:
            try:
                dist, version, _, tags = parse_wheel_filename(name)
            except (InvalidWheelFilename, InvalidVersion):
                continue
            if canonical(str(dist)) == canonical(package) and tags & here and (pre or not version.is_prerelease):
                found.add(version)
        return [str(v) for v in sorted(found)]


def _file_version(filename: str) -> Optional[str]:
    from packaging.utils import InvalidSdistFilename, InvalidWheelFilename, parse_sdist_filename, parse_wheel_filename
    from packaging.version import InvalidVersion

    try:
        if filename.endswith(".whl"):
            return str(parse_wheel_filename(filename)[1])
        return str(parse_sdist_filename(filename)[1])
    except (InvalidWheelFilename, InvalidSdistFilename, InvalidVersion):
        return None


@dataclass
class ReleaseEnv:
    """A built environment: ``python`` runs there."""

    folder: Path
    requested: tuple[str, ...]
    #: What the overlay installs over BASE: ``{name: version}``.
    packages: dict
    #: What was added so that the set imports (pins beyond the request), said to the user.
    added: str = ""
    #: ``{distribution: version}`` as the environment imports them (the probe's answer).
    versions: dict = field(default_factory=dict)

    @property
    def python(self) -> Path:
        return self.folder / "bin" / "python"

    def describe(self) -> str:
        shown = ", ".join(f"{n} {v}" for n, v in sorted(self.packages.items())) or "nothing (all as installed)"
        return f"{shown}{f'; {self.added}' if self.added else ''} ({self.folder})"


def cache_root() -> Path:
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "conformance" / "envs"


def uv_binary() -> str:
    """The uv executable (the ``uv`` package's, else one on PATH)."""
    try:
        from uv import find_uv_bin

        return find_uv_bin()
    except (ImportError, FileNotFoundError):
        found = shutil.which("uv")
        if found:
            return found
    raise ReleaseError("uv is not installed; it builds the release environments: "
                       "pip install -c constraints.txt 'conformance[releases]'")


def base_site_packages() -> list[str]:
    """This interpreter's site-packages, which an overlay adds after its own."""
    paths = sysconfig.get_paths()
    return list(dict.fromkeys([paths["purelib"], paths["platlib"]]))


def installed() -> dict:
    """``{name: version}`` of every distribution this interpreter sees (the first of a name on ``sys.path``)."""
    from importlib.metadata import distributions

    found: dict = {}
    for d in distributions():
        name = d.metadata["Name"]
        if name:
            found.setdefault(canonical(name), d.version)
    return found


def _uv(args: list[str], what: str, timeout: float = 600.0) -> str:
    env = {**os.environ, "UV_PYTHON_DOWNLOADS": "never", "UV_HTTP_TIMEOUT": os.environ.get("UV_HTTP_TIMEOUT", "30")}
    try:
        proc = subprocess.run([uv_binary(), *args], capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        raise ReleaseError(f"{what}: uv ran past {timeout:g} s") from None
    if proc.returncode != 0:
        raise ReleaseError(f"{what}: {proc.stderr.strip()[-2000:]}")
    return proc.stdout


def resolve(specs: list[str], index: Index, extra: tuple[str, ...] = (), exclude_newer: str = "") -> dict:
    """``{name: version}``: the requested set and its dependencies, resolved by uv with the installed versions as
    preferences (an existing output file's pins are uv's preferences)."""
    with tempfile.TemporaryDirectory(prefix="conformance-resolve-") as tmp:
        req, out = Path(tmp) / "requested.in", Path(tmp) / "resolved.txt"
        req.write_text("\n".join([*specs, *extra]) + "\n")
        out.write_text("".join(f"{n}=={v}\n" for n, v in sorted(installed().items()) if _plain_version(v)))
        args = ["pip", "compile", str(req), "-o", str(out), "--python", sys.executable, "--no-header",
                "--no-annotate", "--quiet", "--no-config", *index.uv_args()]
        if exclude_newer:
            args += ["--exclude-newer", exclude_newer]
        _uv(args, f"cannot resolve {' '.join([*specs, *extra])}")
        resolved = {}
        for line in out.read_text().splitlines():
            m = _PIN.match(line.strip())
            if m:
                resolved[canonical(m.group(1))] = m.group(2)
        return resolved


def _plain_version(version: str) -> bool:
    return re.fullmatch(r"[0-9][0-9A-Za-z.+!_-]*", version) is not None


def _key(data) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


@contextlib.contextmanager
def _locked(path: Path):
    import fcntl

    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def build(packages: dict, index: Index, root: Optional[Path] = None) -> Path:
    """The overlay environment that installs ``packages`` over this one: built once, then reused."""
    root = root or cache_root()
    base = base_site_packages()
    folder = root / _key({"python": sys.version, "base": base, "packages": packages})
    with _locked(root / f".{folder.name}.lock"):
        if (folder / _MARKER).exists():
            return folder
        if folder.exists():  # a build that was interrupted
            shutil.rmtree(folder)
        _uv(["venv", str(folder), "--python", sys.executable, "--quiet", "--no-config"],
            "cannot create a virtual environment")
        site = Path(subprocess.run([str(folder / "bin" / "python"), "-c", "import sysconfig; "
                                    "print(sysconfig.get_paths()['purelib'])"], capture_output=True, text=True,
                                   check=True).stdout.strip())
        # sorted after pip's and setuptools' own .pth files: BASE is added behind the overlay's packages
        (site / "zz_conformance_base.pth").write_text(
            "".join(f"import site; site.addsitedir({p!r})\n" for p in base))
        if packages:
            pins = [f"{n}=={v}" for n, v in sorted(packages.items())]
            _uv(["pip", "install", "--python", str(folder / "bin" / "python"), "--no-deps", "--quiet", "--no-config",
                 *index.uv_args(), *pins], f"cannot install {' '.join(pins)}")
        (folder / _MARKER).write_text(json.dumps({"packages": packages, "base": base}, indent=1) + "\n")
    return folder


def probe(python: Path, names: list[str], modules: list[str], timeout: float = 600.0) -> tuple[dict, dict]:
    """Import ``names``' modules and ``modules`` with ``python``: ``({name: version}, {module: error})``."""
    try:
        proc = subprocess.run([str(python), "-c", _PROBE, json.dumps(names), json.dumps(modules)],
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {}, {"(import)": f"importing ran past {timeout:g} s"}
    try:
        answer = json.loads(proc.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        return {}, {"(interpreter)": (proc.stderr or proc.stdout).strip()[-1500:] or f"exit {proc.returncode}"}
    errors = answer["errors"]
    if _NUMPY_ABI in proc.stderr:  # an extension built for numpy 1.x imports, then fails at its first call
        errors["numpy"] = f"{_NUMPY_ABI} NumPy {proc.stderr.split('NumPy ')[-1].split()[0]} (numpy's warning)"
    return answer["versions"], errors


def environment(specs: list[str], index: Optional[Index] = None, modules: tuple[str, ...] = (),
                root: Optional[Path] = None, say: Callable[[str], None] = lambda _: None) -> ReleaseEnv:
    """The environment with the releases ``specs`` (pip requirements) and everything else as installed, where
    ``modules`` import too (e.g. ``conformance`` and the frameworks a command runs). Reused from the cache where
    it was built before (then no network is needed); raises :class:`ReleaseError` (:class:`IndexUnreachable`
    without the index) naming what failed and the pins to try."""
    index = index or Index.from_options()
    root = root or cache_root()
    names = [spec_name(s) for s in specs]
    request_key = _key({"specs": sorted(specs), "index": [index.url, index.find_links, index.no_index],
                        "modules": sorted(modules), "python": sys.version, "installed": installed()})
    remembered = root / "resolved" / f"{request_key}.json"
    if remembered.exists():
        data = json.loads(remembered.read_text())
        folder = Path(data["folder"])
        if (folder / _MARKER).exists():
            return ReleaseEnv(folder, tuple(specs), data["packages"], data["added"], data["versions"])
    index.check_reachable(names[0])
    here = installed()
    tried, failures = [], []
    attempts: list[tuple[tuple[str, ...], str, str]] = [((), "", "")]
    while attempts:
        extra, newer, why = attempts.pop(0)
        resolved = resolve(specs, index, extra, newer)
        packages = {n: v for n, v in resolved.items() if here.get(n) != v}
        tried.append(" ".join(f"{n}=={v}" for n, v in sorted(packages.items())) or "(as installed)")
        say(f"release environment: {tried[-1]}{f' ({why})' if why else ''}")
        folder = build(packages, index, root)
        versions, errors = probe(folder / "bin" / "python", names, list(modules))
        wrong = {n: versions[n] for n in names if n in packages and versions.get(n) not in (None, packages[n])}
        if wrong:  # the overlay did not shadow BASE
            errors["(shadowing)"] = f"the environment imports {wrong}, not the releases installed there"
        if not errors:
            env = ReleaseEnv(folder, tuple(specs), packages, why, versions)
            remembered.parent.mkdir(parents=True, exist_ok=True)
            remembered.write_text(json.dumps({"folder": str(folder), "packages": packages, "added": why,
                                              "versions": versions}, indent=1) + "\n")
            return env
        failures.append("; ".join(f"{m}: {e.splitlines()[-1] if e else e}" for m, e in errors.items()))
        if not extra and not newer:
            text = " ".join(errors.values()).lower()
            if "numpy" in text and "numpy" not in names and resolved.get("numpy", "0").split(".")[0] >= "2":
                attempts.append((("numpy<2",), "", "numpy<2 added: the release was built against numpy 1.x"))
            when = newest_upload(specs, index)
            if when:
                attempts.append(((), when, f"its dependencies as of {when[:10]}, when it was released"))
    lines = [f"{' '.join(specs)} does not import here:"]
    lines += [f"  with {t}: {f}" for t, f in zip(tried, failures)]
    lines.append("pin the dependencies it needs with --with too (e.g. --with 'numpy<2', --with protobuf==3.20.3), "
                 "or try another release")
    raise ReleaseError("\n".join(lines))


def newest_upload(specs: list[str], index: Index) -> str:
    """The newest first-upload time among the releases ``specs`` pin exactly ('' where none is known)."""
    times = []
    for spec in specs:
        m = _PIN.match(spec.replace(" ", ""))
        if m:
            when = index.release_dates(m.group(1)).get(m.group(2))
            if when:
                times.append(when)
    if not times:
        return ""
    from datetime import datetime, timedelta

    newest = datetime.fromisoformat(max(times).replace("Z", "+00:00")) + timedelta(days=1)
    return newest.strftime("%Y-%m-%dT%H:%M:%SZ")
