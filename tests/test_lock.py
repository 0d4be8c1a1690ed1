"""The lock (requirements/*.txt, written by scripts/lock) is in step with pyproject.toml: every
dependency declared for a lock file, with its extras' own, is pinned there, each pin inside its
declared range, and every pin hashed (pip installs it with --require-hashes). When one fails,
run scripts/lock (docs/operations.md, "The lock")."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
# Each lock file and the extras it holds beside the service's own dependencies.
LOCKS = {"service": ("otel",), "test": ("otel", "demo", "test")}
# What the lock is resolved for (scripts/lock): CPython 3.11 on Linux.
TARGET = {
    "python_version": "3.11",
    "python_full_version": "3.11.0",
    "sys_platform": "linux",
    "platform_system": "Linux",
    "os_name": "posix",
    "implementation_name": "cpython",
    "platform_python_implementation": "CPython",
}
PIN = re.compile(r"^(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)==(?P<version>\S+)$")
HASH = re.compile(r"^--hash=sha256:[0-9a-f]{64}$")


@dataclass(frozen=True)
class Pin:
    version: Version
    hashes: int


def project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def declared(lock: str) -> list[Requirement]:
    """The requirements a lock file answers for: the service's and its extras'."""
    extras = project()["optional-dependencies"]
    texts = project()["dependencies"] + [text for name in LOCKS[lock] for text in extras[name]]
    return [Requirement(text) for text in texts]


def logical_lines(text: str) -> list[str]:
    """The file's requirement lines, each with its continuations joined, comments left out."""
    lines, current = [], ""
    for raw in text.splitlines():
        line = raw.split(" #", 1)[0].strip() if not raw.lstrip().startswith("#") else ""
        current += " " + line.rstrip("\\").strip()
        if not line.endswith("\\"):
            if current.strip():
                lines.append(current.strip())
            current = ""
    return lines


@cache
def pins(lock: str) -> dict[str, Pin]:
    """Each pinned package of ``requirements/LOCK.txt`` (a line that pins nothing, or carries
    anything but hashes, fails here)."""
    found: dict[str, Pin] = {}
    for line in logical_lines((ROOT / "requirements" / f"{lock}.txt").read_text("utf-8")):
        spec, *options = line.split()
        match = PIN.match(spec)
        assert match, f"{lock}.txt: {spec!r} is not an exact pin (name==version)"
        name = canonicalize_name(match["name"])
        assert name not in found, f"{lock}.txt pins {name} twice"
        assert all(HASH.match(option) for option in options), f"{lock}.txt: {line[:80]}..."
        found[name] = Pin(Version(match["version"]), len(options))
    return found


def applies(requirement: Requirement, extra: str = "") -> bool:
    marker = requirement.marker
    return marker is None or marker.evaluate({**TARGET, "extra": extra})


def extras_requirements(requirement: Requirement) -> list[Requirement]:
    """What the requirement's extras bring (``redis[hiredis]``: hiredis), from the installed
    distribution's metadata: the suite's venv is installed from the test lock (scripts/test)."""
    if not requirement.extras:
        return []
    try:
        texts = metadata.requires(requirement.name) or []
    except metadata.PackageNotFoundError:
        pytest.fail(f"{requirement.name} is not installed: pip install -r requirements/test.txt")
    brought = []
    for text in texts:
        each = Requirement(text)
        if any(applies(each, extra) and not applies(each) for extra in requirement.extras):
            brought.append(each)
    return brought


@pytest.mark.parametrize("lock", sorted(LOCKS))
def test_every_pin_is_exact_and_hashed(lock):
    assert pins(lock), f"requirements/{lock}.txt pins nothing"
    unhashed = [name for name, pin in pins(lock).items() if pin.hashes == 0]
    assert not unhashed, f"requirements/{lock}.txt pins without a hash: {unhashed}"


@pytest.mark.parametrize("lock", sorted(LOCKS))
def test_every_declared_dependency_is_pinned_within_its_range(lock):
    locked = pins(lock)
    for requirement in filter(applies, declared(lock)):
        name = canonicalize_name(requirement.name)
        assert name in locked, f"{requirement} is declared but requirements/{lock}.txt lacks it"
        version = locked[name].version
        assert requirement.specifier.contains(version, prereleases=True), (
            f"requirements/{lock}.txt pins {name}=={version}, outside {requirement} "
            "(pyproject.toml): run scripts/lock"
        )


@pytest.mark.parametrize("lock", sorted(LOCKS))
def test_what_each_declared_extra_brings_is_pinned(lock):
    """``redis[hiredis]`` pins hiredis too. By name: the range is the installed release's
    metadata, which pip checks against the locked release's own as it installs."""
    locked = pins(lock)
    for requirement in filter(applies, declared(lock)):
        for brought in extras_requirements(requirement):
            assert canonicalize_name(brought.name) in locked, (
                f"{requirement} brings {brought.name}, which requirements/{lock}.txt lacks"
            )


def test_the_test_lock_runs_the_services_pins():
    """What the suite runs is what is deployed: the test lock is resolved under the service's."""
    service, test = pins("service"), pins("test")
    differ = {
        name: (pin.version, test[name].version)
        for name, pin in service.items()
        if name not in test or test[name].version != pin.version
    }
    assert not differ, f"requirements/test.txt departs from service.txt: {differ}"


def test_the_service_lock_leaves_the_demos_redis_out():
    """fakeredis and lupa (compiled Lua) are the demo extra's alone."""
    assert {"fakeredis", "lupa"} & set(pins("service")) == set()
    assert {"fakeredis", "lupa"} <= set(pins("test"))


def test_a_pin_outside_its_range_is_caught():
    """The range check itself: a pin below a declared floor does not satisfy it."""
    floor = next(r for r in declared("service") if canonicalize_name(r.name) == "flask-smorest")
    assert not floor.specifier.contains(Version("0.45.0"))
    assert floor.specifier.contains(pins("service")["flask-smorest"].version)
