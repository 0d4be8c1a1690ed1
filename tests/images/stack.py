"""deploy/compose.yaml brought up by podman-compose for a test, with the images it names built
locally and everything it makes removed afterwards.

``with Stack(tmp) as stack``: a project of its own (a unique name), nginx's published port a
free one (``stack.url``), the three env files with fresh random secrets in ``tmp``. Leaving the
block runs ``podman-compose down -v`` and then removes whatever still carries the project's
label (containers, volumes, networks) and its pod, by name.

Podman here: rootful podman 4.3 with ``runc`` (Debian bookworm). Its defaults need a
containers.conf of the test's own (``CONTAINERS_CONF``, the one setting podman-compose passes
on to every podman it runs): ``runtime = "runc"``, and limits that runc may set here (podman
asks for 1,048,576 open files and more processes than this host allows: every container start
fails with "error setting rlimit"). podman-compose needs podman 4.6 for ``service_healthy``
(``podman wait --condition=healthy``) and podman 4.3 cannot start a container whose dependency
has dependencies of its own (``--requires`` chains); so :meth:`Stack.up` brings the services up
in the compose file's order itself (``up -d --no-deps``), waiting on each healthcheck with
``podman healthcheck run`` (no systemd here to run them on a timer) and on the migration's exit.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import subprocess
import sys
import time
from pathlib import Path

from tests import imagebase, netlock
from tests.conftest import KEY
from tests.images.standins import images
from tests.redis_server import free_port

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "deploy" / "compose.yaml"
# The compose file's order: the stores healthy, the migration done, then the doors, the
# recorder and nginx, which is started with the doors rather than once they answer (it needs
# their names at start, not their answers: a request before they answer is a 502), which saves
# a step. Each step: the services started, those that must then be healthy.
STEPS = (
    (("redis", "postgres"), ("redis", "postgres")),
    (("migrate",), ()),
    (("ingest", "public", "recorder", "nchan"), ("ingest", "public", "nchan")),
)


def podman_compose() -> str | None:
    """The podman-compose beside this Python (the test extra installs it), or on the PATH."""
    beside = Path(sys.executable).parent / "podman-compose"
    return str(beside) if beside.exists() else shutil.which("podman-compose")


def available() -> bool:
    """Whether podman, runc, debootstrap (:mod:`tests.imagebase`) and podman-compose are here."""
    return imagebase.available() and podman_compose() is not None


def containers_conf(folder: Path) -> Path:
    """A containers.conf podman can start containers with here (the module doc says why): the
    runtime and the limits :mod:`tests.imagebase` runs its own containers with."""
    limits = [value for value in imagebase.RUN_LIMITS if value != "--ulimit"]
    path = folder / "containers.conf"
    path.write_text(
        f'[containers]\ndefault_ulimits = {json.dumps(limits)}\n[engine]\nruntime = "runc"\n'
    )
    return path


def env_files(folder: Path) -> Path:
    """The three env files of deploy/secrets.example, filled in with fresh passwords."""
    folder.mkdir(mode=0o700)
    owner, service = secrets.token_hex(16), secrets.token_hex(16)
    files = {
        "postgres.env": (
            f"POSTGRES_PASSWORD={secrets.token_hex(16)}\n"
            f"ROADS_OWNER_PASSWORD={owner}\nROADS_SERVICE_PASSWORD={service}\n"
        ),
        "migrate.env": (
            f"ROADS_DATABASE_URL=postgresql://roads_owner:{owner}@postgres:5432/roads\n"
            "ROADS_RECORD_ROLE=roads\n"
        ),
        # One worker a door: the test's whole stack shares two cores with the suite.
        "roads.env": (
            f"ROADS_INGEST_KEYS={KEY}\n"
            f"ROADS_DATABASE_URL=postgresql://roads:{service}@postgres:5432/roads\n"
            "ROADS_WORKERS=1\nROADS_INGEST_WORKERS=1\nROADS_FRAME_MS=100\n"
        ),
    }
    for name, text in files.items():
        (folder / name).write_text(text)
        (folder / name).chmod(0o600)
    return folder


class Stack:
    """One compose project of deploy/compose.yaml (see the module doc)."""

    def __init__(self, folder: Path) -> None:
        self.project = "roadstest" + secrets.token_hex(4)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {
            **os.environ,
            "CONTAINERS_CONF": str(containers_conf(folder)),
            "ROADS_ENV_DIR": str(env_files(folder / "env")),
            "ROADS_HTTP_PORT": str(self.port),
        }
        self.env.update(images())
        self.folder = folder

    def __enter__(self) -> Stack:
        return self

    def __exit__(self, *_: object) -> None:
        try:
            self.compose("down", "-v", "-t", "5", check=False)
        finally:
            self._remove_leftovers()

    def compose(self, *args: str, check: bool = True) -> str:
        command = [podman_compose(), "-p", self.project, "-f", str(COMPOSE), *args]
        with netlock.changing(settle=True):  # the stack's containers are on its own bridge
            done = subprocess.run(
                command, env=self.env, cwd=self.folder, capture_output=True, text=True, timeout=600
            )
        if check and done.returncode != 0:
            raise AssertionError(f"podman-compose {' '.join(args)}: {done.stderr[-3000:]}")
        return done.stdout

    def podman(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        with netlock.changing(settle=args[0] in netlock.CHANGING):
            done = subprocess.run(
                ["podman", *args], env=self.env, capture_output=True, text=True, timeout=120
            )
        if check and done.returncode != 0:
            raise AssertionError(f"podman {args[0]}: {done.stderr[-2000:]}")
        return done

    def name(self, service: str) -> str:
        return f"{self.project}_{service}_1"

    def up(self, seconds: float = 180.0) -> None:
        """Every service up, in the compose file's order, each step's healthchecks passing."""
        deadline = time.monotonic() + seconds
        for services, healthy in STEPS:
            self.compose("up", "-d", "--no-deps", *services)
            if services == ("migrate",):
                self._completed("migrate")
            for service in healthy:
                self._healthy(service, deadline)

    def down(self) -> None:
        """``podman-compose down``: the containers gone, the volumes kept."""
        self.compose("down", "-t", "5")

    def containers(self) -> list[str]:
        return self._labelled("ps", "-a", "--format", "{{.Names}}")

    def sql(self, query: str) -> list[tuple[str, ...]]:
        """``query``'s rows, run by psql in the postgres container (its own socket)."""
        done = self.podman(
            "exec", self.name("postgres"), "psql", "-U", "postgres", "-d", "roads", "-X", "-A",
            "-t", "-F", "\t", "-v", "ON_ERROR_STOP=1", "-c", query,
        )  # fmt: skip
        return [tuple(line.split("\t")) for line in done.stdout.splitlines() if line]

    def logs(self, service: str, lines: int = 40) -> str:
        """The service's container's log: its last ``lines`` lines (0: all of it)."""
        done = self.podman("logs", "--tail", str(lines or -1), self.name(service), check=False)
        return done.stdout + done.stderr

    def _healthy(self, service: str, deadline: float) -> None:
        while self.podman("healthcheck", "run", self.name(service), check=False).returncode:
            state = self.podman("inspect", "--format", "{{.State.Status}}", self.name(service))
            if state.stdout.strip() != "running" or time.monotonic() > deadline:
                raise AssertionError(f"{service} is not healthy:\n{self.logs(service)}")
            time.sleep(0.3)

    def _completed(self, service: str) -> None:
        code = self.podman("wait", self.name(service)).stdout.strip()
        assert code == "0", f"{service} exited {code}:\n{self.logs(service)}"

    def _labelled(self, what: str, *args: str) -> list[str]:
        label = f"label=io.podman.compose.project={self.project}"
        done = self.podman(*what.split(), *args, "--filter", label, check=False)
        return done.stdout.split()

    def _remove_leftovers(self) -> None:
        for name in self.containers():
            self.podman("rm", "-f", "-t", "0", name, check=False)
        for name in self._labelled("volume ls", "-q"):
            self.podman("volume", "rm", "-f", name, check=False)
        for name in self._labelled("network ls", "-q"):
            self.podman("network", "rm", "-f", name, check=False)
        self.podman("pod", "rm", "-f", f"pod_{self.project}", check=False)
