"""The service's doors as one deployment starts them (``python -m api.doors``: api/doors.py) on
free loopback ports, for the doors' system test and the abuse benchmark; stopped by the
supervisor's pid (SIGTERM, which it forwards to both doors)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from .redis_server import free_port

ROOT = Path(__file__).resolve().parent.parent


def children(pid: int) -> list[int]:
    """The pids of ``pid``'s child processes now (from /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone meanwhile
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def nice_of(pid: int) -> int:
    """A process's nice value (field 19 of /proc/PID/stat)."""
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])


def door_of_master(pid: int) -> str:
    """Which door a gunicorn master is (its ROADS_DOOR)."""
    for entry in Path(f"/proc/{pid}/environ").read_bytes().split(b"\0"):
        if entry.startswith(b"ROADS_DOOR="):
            return entry.split(b"=", 1)[1].decode()
    return ""


@dataclass
class Doors:
    """The base URLs of the public and the ingest door (the same one for a single door), and
    the supervisor's process."""

    public: str
    ingest: str
    process: subprocess.Popen

    def masters(self) -> dict[str, int]:
        """Each door's gunicorn master, by door name."""
        return {door_of_master(pid): pid for pid in children(self.process.pid)}


def _answers(url: str) -> bool:
    try:
        urllib.request.urlopen(url, timeout=1).read()
        return True
    except OSError:
        return False


@contextmanager
def doors(
    env: dict[str, str], *args: str, log: Path | None = None, wait: bool = True
) -> Iterator[Doors]:
    """``python -m api.doors *args`` with ``env`` over this environment, its doors on free
    ports (``ROADS_BIND``, ``ROADS_INGEST_BIND``), in a session of its own; what it writes to
    standard error goes to ``log`` when given. Waits for every door to answer ``/livez``
    (``wait``), and stops the supervisor at the end."""
    public, ingest = free_port(), free_port()
    environment = {
        **os.environ,
        **env,
        "ROADS_BIND": f"127.0.0.1:{public}",
        "ROADS_INGEST_BIND": f"127.0.0.1:{ingest}",
    }
    single = "--single" in args or not (env.get("REDIS_URL") or env.get("ROADS_REDIS_URL"))
    errors = log.open("ab") if log is not None else subprocess.DEVNULL
    process = subprocess.Popen(
        [sys.executable, "-m", "api.doors", *args],
        cwd=ROOT,
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=errors,
        start_new_session=True,
    )
    served = Doors(
        f"http://127.0.0.1:{public}",
        f"http://127.0.0.1:{public if single else ingest}",
        process,
    )
    try:
        deadline = time.monotonic() + 60
        while wait and not all(
            _answers(base + "/livez") for base in (served.public, served.ingest)
        ):
            if time.monotonic() > deadline or process.poll() is not None:
                raise RuntimeError("the doors did not start")
            time.sleep(0.2)
        yield served
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)  # its own session: it and its doors
                process.wait()
        if log is not None:
            errors.close()
