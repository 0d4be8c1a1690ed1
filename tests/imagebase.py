"""The suite's container images, built here: no image registry is reachable from this machine.

- :func:`base_image`: a Debian bookworm made by ``debootstrap --variant=minbase`` with what the
  official ``python:3.11-slim`` offers the project's Containerfile (``python3``, ``python3-venv``,
  ``ca-certificates``, ``netbase``, ``tzdata``), imported with ``podman import`` and tagged
  ``localhost/roads-test-base:HASH``, the hash of its recipe (this module's :data:`RECIPE`, the
  Debian mirror the host's apt uses, the host's CA bundle). It stays in podman's storage, so
  only the first run on a machine pays for it (two to three minutes here) and a later run
  finds the tag in a second; a change to the recipe makes a new tag.
- :func:`build`: an image from a Containerfile and its context, ``FROM`` that base (passed as
  the build argument ``BASE``, which every Containerfile here takes); podman's layer cache makes
  a rebuild of an unchanged context quick. :func:`service_image` is the project's Containerfile.
- :func:`podman`: podman as the suite runs it here, and :data:`RUN_LIMITS`, the limits every
  container started here needs (below).

Only the TEST base carries the host's CA bundle (its ``ca-certificates.crt``, and a copy an
``/etc/pip.conf`` names): the host reaches package indexes through a TLS proxy whose CA only
that bundle holds, and pip in a build stage must trust it. The Containerfile knows nothing of it.

Podman here (rootful 4.3, Debian's): ``--runtime runc`` (the configured crun is not installed);
each container and each ``RUN`` step is given ``--ulimit`` values at or under the host's hard
limits, since podman asks by default for 1,048,576 open files, which runc may not set here
("error setting rlimit"); images are built ``--format docker``, the one format that keeps a
``HEALTHCHECK``. A build's ``RUN`` steps reach the package indexes from podman's own network
here (no ``--network host`` needed); a container that must reach a server of the test on the
host's loopback is run with ``--network host``.

Builds are serialised across processes by a lock file, so that two test workers never
debootstrap or build the same image at once.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import re
import resource
import shutil
import subprocess
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path

from tests import netlock

ROOT = Path(__file__).resolve().parent.parent
HOST_CA = Path("/etc/ssl/certs/ca-certificates.crt")
PIP_CA = Path("/etc/ssl/host-ca-for-pip.crt")  # where the test base keeps it for pip
SUITE = "bookworm"
# What python:3.11-slim offers a Containerfile, as Debian's packages (its Python is 3.11 too).
PACKAGES = ("python3", "python3-venv", "ca-certificates", "netbase", "tzdata")
# Bump when the steps below change the image they make.
RECIPE = f"debootstrap --variant=minbase {SUITE} +{','.join(PACKAGES)}; pip.conf; LANG; v2"
BASE_NAME = "localhost/roads-test-base"
SERVICE_NAME = "localhost/baccarat-roads"
LOCK = Path(tempfile.gettempdir()) / "roads-test-images.lock"
FALLBACK_MIRROR = "http://deb.debian.org/debian"


def available() -> bool:
    """Whether podman, runc and debootstrap are installed (scripts/test installs them)."""
    return all(shutil.which(tool) for tool in ("podman", "runc", "debootstrap"))


def _limits() -> list[str]:
    # runc may set a limit no higher than the host's hard one, and a process count under
    # conmon's own (32768 here).
    _, files = resource.getrlimit(resource.RLIMIT_NOFILE)
    files = 65536 if files == resource.RLIM_INFINITY else min(files, 65536)
    return ["--ulimit", f"nofile={files}:{files}", "--ulimit", "nproc=16384:16384"]


RUN_LIMITS = _limits()


def podman(*args: str, timeout: float = 120, check: bool = True) -> subprocess.CompletedProcess:
    """``podman --runtime runc ARGS``, its output captured as text; a failure (with ``check``)
    raises RuntimeError with the end of podman's standard error."""
    # A build's RUN steps run in containers on podman's bridge (tests/netlock.py says why this
    # waits for the browser tests); the tests' own containers run on the host's network.
    with netlock.changing(settle=args[0] == "build"):
        done = subprocess.run(
            ["podman", "--runtime", "runc", *args], capture_output=True, text=True, timeout=timeout
        )
    if check and done.returncode != 0:
        raise RuntimeError(f"podman {args[0]} failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return done


def exists(image: str) -> bool:
    """Whether podman's storage holds ``image``."""
    return podman("image", "exists", image, check=False).returncode == 0


@contextlib.contextmanager
def _locked() -> Iterator[None]:
    with LOCK.open("a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(held, fcntl.LOCK_UN)


def mirror() -> str:
    """The Debian mirror the host's apt uses (its main archive), else Debian's redirector."""
    sources = [Path("/etc/apt/sources.list"), *Path("/etc/apt/sources.list.d").glob("*")]
    for path in sources:
        if path.is_file() and path.suffix in ("", ".list", ".sources"):
            text = path.read_text(errors="replace")
            found = re.search(r"(?m)^(?:URIs:\s*|deb\s+)(\S+/debian)/?\s", text + "\n")
            if found:
                return found.group(1)
    return FALLBACK_MIRROR


def base_image() -> str:
    """The local Debian base's name (module doc), made and imported when podman lacks it."""
    source = mirror()
    digest = hashlib.sha256(RECIPE.encode() + b"\0" + source.encode() + b"\0")
    digest.update(HOST_CA.read_bytes() if HOST_CA.exists() else b"")
    name = f"{BASE_NAME}:{digest.hexdigest()[:16]}"
    if exists(name):
        return name
    with _locked():
        if not exists(name):  # another worker may have made it while this one waited
            _make_base(name, source)
    return name


def _make_base(name: str, source: str) -> None:
    with tempfile.TemporaryDirectory(prefix="roads-base-", dir="/var/tmp") as folder:
        rootfs = Path(folder) / "rootfs"
        done = subprocess.run(
            ["debootstrap", "--variant=minbase", f"--include={','.join(PACKAGES)}", SUITE,
             str(rootfs), source],
            capture_output=True, text=True, timeout=900,
        )  # fmt: skip
        if done.returncode != 0:
            output = (done.stdout + done.stderr)[-3000:]
            raise RuntimeError(f"debootstrap failed ({done.returncode}):\n{output}")
        _trim(rootfs)
        if HOST_CA.exists():  # the test base only: see the module doc
            shutil.copyfile(HOST_CA, rootfs / "etc/ssl/certs/ca-certificates.crt")
            # pip's own copy: an apt-get install that runs update-ca-certificates (in an image
            # built on this base) writes Debian's bundle over the one above.
            shutil.copyfile(HOST_CA, rootfs / PIP_CA.relative_to("/"))
            (rootfs / "etc/pip.conf").write_text(f"[global]\ncert = {PIP_CA}\n")
        tar = subprocess.Popen(
            ["tar", "--numeric-owner", "-C", str(rootfs), "-cf", "-", "."],
            stdout=subprocess.PIPE,
        )
        imported = subprocess.run(
            ["podman", "import", "--change", "ENV LANG=C.UTF-8", "--change",
             'CMD ["/bin/bash"]', "-", name],
            stdin=tar.stdout, capture_output=True, text=True, timeout=600,
        )  # fmt: skip
        tar.stdout.close()
        tar.wait()
        if imported.returncode != 0 or tar.returncode != 0:
            raise RuntimeError(f"podman import failed:\n{imported.stderr[-3000:]}")


def _trim(rootfs: Path) -> None:
    """What an image needs none of: apt's downloads and lists (a Containerfile runs
    ``apt-get update`` first, as on the official images) and the device nodes (podman makes
    its own /dev)."""
    for folder in ("var/cache/apt/archives", "var/lib/apt/lists", "dev"):
        for path in (rootfs / folder).glob("*"):
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)
            else:
                path.unlink()


def build(
    context: Path,
    tag: str,
    containerfile: Path | None = None,
    build_args: Mapping[str, str] | None = None,
    timeout: float = 900,
) -> str:
    """``tag`` built from ``containerfile`` (default: ``context``'s Containerfile) FROM the
    local base (``BASE``) and any other ``build_args``; the tag. Layers come from podman's cache
    where their inputs are unchanged."""
    args = {"BASE": base_image(), **(build_args or {})}
    with _locked():
        _build(context, tag, containerfile, args, timeout)
    return tag


def _build(
    context: Path, tag: str, containerfile: Path | None, args: Mapping[str, str], timeout: float
) -> None:
    command = ["build", "--format", "docker", *RUN_LIMITS, "-t", tag]
    if containerfile is not None:
        command += ["-f", str(containerfile)]
    for key, value in args.items():
        command += ["--build-arg", f"{key}={value}"]
    podman(*command, str(context), timeout=timeout)


def service_image() -> str:
    """The project's Containerfile built on the local base (see :func:`build`), tagged
    ``localhost/baccarat-roads:test-HASH`` by a hash of the base and of the files the build
    sees: built only when podman lacks that tag (an unchanged checkout builds nothing, not even
    the cache checks, which take seconds here), the previous ones untagged when it is."""
    base = base_image()
    digest = hashlib.sha256(base.encode() + b"\0")
    for path in context_files(ROOT):
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0")
        digest.update(os.readlink(path).encode() if path.is_symlink() else path.read_bytes())
    tag = f"{SERVICE_NAME}:test-{digest.hexdigest()[:16]}"
    if exists(tag):
        return tag
    with _locked():
        if exists(tag):  # another worker built it while this one waited
            return tag
        _build(ROOT, tag, ROOT / "Containerfile", {"BASE": base}, 900)
    listed = podman("images", "--format", "{{.Repository}}:{{.Tag}}", SERVICE_NAME).stdout
    for older in set(listed.split()) - {tag}:
        if older.startswith(f"{SERVICE_NAME}:test-"):  # the suite's own, no other
            podman("rmi", older, check=False)  # one in use by a container stays
    return tag


def context_files(context: Path) -> list[Path]:
    """The files (and links) of ``context`` that a build sends: every one but those its
    ``.containerignore`` leaves out (its patterns in order, the last that matches deciding, a
    directory's pattern covering what is under it, ``!`` taking back)."""
    ignore = context / ".containerignore"
    lines = ignore.read_text().splitlines() if ignore.exists() else []
    patterns = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    rules = [(p.startswith("!"), _pattern(p.lstrip("!").strip("/"))) for p in patterns]
    prune = not any(negated for negated, _ in rules)  # else a folder left out may hold one
    found = []
    for folder, dirs, files in os.walk(context):
        here = Path(folder)
        if prune:
            dirs[:] = [
                d for d in dirs if not _ignored((here / d).relative_to(context).as_posix(), rules)
            ]
        dirs.sort()
        for name in sorted(files) + [d for d in dirs if (here / d).is_symlink()]:
            path = here / name
            relative = path.relative_to(context).as_posix()
            if not _ignored(relative, rules):
                found.append(path)
    return found


def _pattern(text: str) -> re.Pattern[str]:
    """A .containerignore pattern as a regular expression: ``**`` any folders, ``*``, ``?``
    and ``[...]`` within one name, the rest literal."""
    parts = re.split(r"(\*\*/?|\*|\?|\[[^\]]*\])", text)
    table = {"**/": "(?:.*/)?", "**": ".*", "*": "[^/]*", "?": "[^/]"}
    return re.compile("".join(table.get(part, _literal(part)) for part in parts))


def _literal(part: str) -> str:
    """A part of a pattern: a class (``[cod]``, ``[^a-z]``) as it is, the rest escaped."""
    return part if part.startswith("[") and part.endswith("]") else re.escape(part)


def _ignored(relative: str, rules: list[tuple[bool, re.Pattern[str]]]) -> bool:
    names = relative.split("/")
    prefixes = ["/".join(names[: count + 1]) for count in range(len(names))]
    ignored = False
    for negated, pattern in rules:
        if any(pattern.fullmatch(prefix) for prefix in prefixes):
            ignored = not negated
    return ignored
