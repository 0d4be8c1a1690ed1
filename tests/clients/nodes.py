"""The Node.js versions the JavaScript client's tests can run on here: the machine's ``node``,
and Debian bookworm's Node 18 when the machine's is another major version and apt can fetch it.

Debian's ``nodejs`` and NodeSource's cannot be installed side by side (one package name), so
Debian's is fetched with ``apt-get download`` (``nodejs``, its ``libnode``, and each package it
depends on that the machine lacks) into a cache directory and unpacked there with ``dpkg -x``,
never installed. That node runs with ``LD_LIBRARY_PATH`` on the unpacked libraries; and since
Debian's build loads a few of its builtins (acorn, cjs-module-lexer, undici) from fixed paths
under ``/usr/share/nodejs``, it runs in a mount namespace of its own (``unshare -m``, as root)
where the unpacked ``usr/share/nodejs`` is bind-mounted there: the machine's own directory is
not touched, and nothing outlives the process.

The cache (``ROADS_TEST_CACHE``, else ``~/.cache/baccarat-roads-tests``) is filled once, under a
file lock (the suite's workers may ask at once), and used from then on without the network.
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

# A bind mount over /usr/share/nodejs in a private mount namespace, then Debian's node.
IN_NAMESPACE = (
    'share=$1 libraries=$2 node=$3; shift 3; mount --bind "$share" /usr/share/nodejs'
    ' && LD_LIBRARY_PATH="$libraries" exec "$node" "$@"'
)
LIBRARIES = "usr/lib/x86_64-linux-gnu"


@dataclass(frozen=True)
class NodeRuntime:
    """A node that can be run: ``command`` + its arguments; ``version`` as ``node`` says it."""

    command: tuple[str, ...]
    version: str  # "v18.20.4"
    where: str  # "the machine's node", "Debian's nodejs 18.20.4+dfsg-1~deb12u3 (unpacked)"

    @property
    def major(self) -> int:
        return int(self.version.lstrip("v").split(".")[0])

    def run(self, *args: str, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess:
        return subprocess.run(
            [*self.command, *args],
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=timeout,
        )


class Unavailable(Exception):
    """Why a Node version cannot be had here (the test that wanted it skips, saying this)."""


def version_of(command: tuple[str, ...]) -> str:
    """What ``process.version`` is when ``command`` runs a script (not only ``--version``: a
    node that cannot load its builtins still answers that)."""
    ran = subprocess.run(
        [*command, "-e", "process.stdout.write(process.version)"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    if ran.returncode != 0 or not re.fullmatch(r"v\d+\.\d+\.\d+", ran.stdout):
        raise Unavailable(f"{command[-1]} does not run a script: {ran.stderr.strip()[:300]}")
    return ran.stdout


def machine_node() -> NodeRuntime:
    """The machine's ``node`` (on PATH)."""
    node = shutil.which("node")
    if node is None:
        raise Unavailable("no node on PATH (scripts/test installs nodejs)")
    return NodeRuntime((node,), version_of((node,)), "the machine's node")


def cache_dir() -> Path:
    root = os.environ.get("ROADS_TEST_CACHE") or Path.home() / ".cache" / "baccarat-roads-tests"
    return Path(root)


def debian_node(major: int) -> NodeRuntime:
    """Debian's nodejs of ``major`` (18 on bookworm), unpacked in the cache (fetched once)."""
    for tool in ("apt-get", "apt-cache", "dpkg", "dpkg-query", "unshare", "mount"):
        if shutil.which(tool) is None:
            raise Unavailable(f"no {tool} here: Debian's nodejs {major} cannot be unpacked")
    if os.geteuid() != 0:
        raise Unavailable(f"Debian's nodejs {major} runs in a mount namespace: needs root")
    if not Path("/usr/share/nodejs").is_dir():
        raise Unavailable("no /usr/share/nodejs to bind Debian's node builtins over")
    cache = cache_dir()
    cache.mkdir(parents=True, exist_ok=True)
    with (cache / "lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        version = debian_version(major)
        root = cache / f"nodejs-{version}"
        if not (root / "usr/bin/node").exists():
            unpack(version, root)
    share, libraries = root / "usr/share/nodejs", root / LIBRARIES
    command = ("unshare", "-m", "sh", "-c", IN_NAMESPACE, "sh", str(share), str(libraries))
    command += (str(root / "usr/bin/node"),)
    return NodeRuntime(command, version_of(command), f"Debian's nodejs {version} (unpacked)")


def debian_version(major: int) -> str:
    """The newest version of Debian's ``nodejs`` of ``major`` apt offers."""
    listed = subprocess.run(
        ["apt-cache", "madison", "nodejs"], capture_output=True, text=True, timeout=60
    ).stdout
    versions = [
        line.split("|")[1].strip()
        for line in listed.splitlines()
        if "debian" in line and line.split("|")[1].strip().startswith(f"{major}.")
    ]
    if not versions:
        raise Unavailable(f"apt offers no Debian nodejs {major} (apt-get update?)")
    newest = subprocess.run(
        ["sh", "-c", 'printf "%s\\n" "$@" | sort -V | tail -n 1', "sh", *versions],
        capture_output=True,
        text=True,
        timeout=10,
    ).stdout.strip()
    return newest or versions[0]


def unpack(version: str, root: Path) -> None:
    """``nodejs=version``, its libnode and every dependency the machine lacks, downloaded and
    unpacked into ``root`` (made whole in a temporary directory, then renamed into place)."""
    wanted = [f"nodejs={version}"]
    for dependency in depends_of(f"nodejs={version}"):
        if dependency.startswith("libnode"):
            wanted.append(f"{dependency}={version}")
            wanted += [d for d in depends_of(f"{dependency}={version}") if not installed(d)]
        elif not installed(dependency):
            wanted.append(dependency)
    with tempfile.TemporaryDirectory(dir=root.parent) as work:
        debs, tree = Path(work, "debs"), Path(work, "root")
        debs.mkdir()
        fetched = subprocess.run(
            ["apt-get", "download", *sorted(set(wanted))],
            cwd=debs,
            capture_output=True,
            text=True,
            timeout=600,
        )
        if fetched.returncode != 0:
            raise Unavailable(f"apt-get download failed: {fetched.stderr.strip()[-300:]}")
        for deb in sorted(debs.glob("*.deb")):
            subprocess.run(["dpkg", "-x", str(deb), str(tree)], check=True, timeout=120)
        tree.rename(root)


def depends_of(package: str) -> list[str]:
    """The packages ``package`` depends on (first of each alternative), by name."""
    listed = subprocess.run(
        ["apt-cache", "depends", package], capture_output=True, text=True, timeout=60
    ).stdout
    names = re.findall(r"^\s+\|?Depends: <?([\w.+-]+?)(?::any)?>?$", listed, re.MULTILINE)
    return list(dict.fromkeys(names))


def installed(package: str) -> bool:
    ran = subprocess.run(
        ["dpkg-query", "-W", "-f=${Status}", package], capture_output=True, text=True, timeout=30
    )
    return ran.returncode == 0 and ran.stdout.endswith(" installed")


def node_of_major(major: int) -> NodeRuntime:
    """A node of ``major`` here: the machine's when it is that one, else Debian's (18)."""
    reasons = []
    try:
        machine = machine_node()
        if machine.major == major:
            return machine
        reasons.append(f"the machine's node is {machine.version}")
    except Unavailable as why:
        reasons.append(str(why))
    if major == 18:
        try:
            return debian_node(major)
        except Unavailable as why:
            reasons.append(str(why))
    raise Unavailable(f"no Node {major} here: " + "; ".join(reasons))
