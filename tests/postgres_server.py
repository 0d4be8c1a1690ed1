"""A real PostgreSQL server for the tests: Debian's ``initdb`` and ``postgres`` on a free loopback
port, its cluster in a temporary directory. Never the server on 5432.

PostgreSQL refuses to run as root; as root (CI here) the server runs as the ``postgres`` user
that Debian's package creates, in a directory handed to it.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time

import psycopg

from tests.redis_server import free_port


def _bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if not found:
        raise RuntimeError(f"{name} is not installed (scripts/test installs postgresql)")
    return found[-1]


class PostgresServer:
    """Starts and stops one ``postgres`` process; ``url`` reaches its database ``roads``."""

    def __init__(self) -> None:
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="roads-pg-")
        self.data = os.path.join(self.dir, "data")
        self.process: subprocess.Popen | None = None
        self._made = 0
        self._user = "postgres" if os.geteuid() == 0 else None
        if self._user:
            entry = pwd.getpwnam(self._user)
            os.chown(self.dir, entry.pw_uid, entry.pw_gid)

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/roads"

    def _as_owner(self, command: list[str]) -> list[str]:
        return ["runuser", "-u", self._user, "--", *command] if self._user else command

    def start(self) -> PostgresServer:
        if not os.path.exists(self.data):
            subprocess.run(
                self._as_owner(
                    [
                        _bin("initdb"),
                        "-D",
                        self.data,
                        "-U",
                        "postgres",
                        "--auth=trust",
                        "-E",
                        "UTF8",
                    ]
                ),
                check=True,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            created = True
        else:
            created = False
        self.process = subprocess.Popen(
            self._as_owner(
                [
                    _bin("postgres"),
                    "-D",
                    self.data,
                    "-p",
                    str(self.port),
                    "-k",
                    self.dir,
                    "-c",
                    "listen_addresses=127.0.0.1",
                    # A test server: its durability is not what is tested.
                    "-c",
                    "fsync=off",
                    "-c",
                    "synchronous_commit=off",
                    "-c",
                    "full_page_writes=off",
                ]
            ),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self._wait_ready("postgres")
        if created:
            with psycopg.connect(self._url("postgres"), autocommit=True) as conn:
                conn.execute("CREATE DATABASE roads")
        return self

    def new_database(self) -> str:
        """A new empty database; its URL."""
        self._made += 1
        name = f"roads_{self._made}"
        with psycopg.connect(self._url("postgres"), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self._url(name)

    def _url(self, database: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def _wait_ready(self, database: str) -> None:
        deadline = time.monotonic() + 30
        while True:
            try:
                psycopg.connect(self._url(database), connect_timeout=1).close()
                return
            except psycopg.OperationalError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise RuntimeError(f"postgres did not start on port {self.port}") from None
                time.sleep(0.1)

    def stop(self) -> None:
        """Stop it (a fast shutdown: SIGINT to its own pid), keeping its data for a restart."""
        if self.process is not None:
            os.kill(self.pid, signal.SIGINT)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
            self.process = None

    @property
    def pid(self) -> int:
        """The postmaster's own pid (under ``runuser`` the process started is not it)."""
        with open(os.path.join(self.data, "postmaster.pid")) as file:
            return int(file.readline())

    def cleanup(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)
