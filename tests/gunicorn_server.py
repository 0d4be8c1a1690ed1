"""The service under gunicorn (the project's gunicorn.conf.py) on a free loopback port, for the
browser test and the benchmarks."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import redis

from .redis_server import free_port

ROOT = Path(__file__).resolve().parent.parent


class Served(str):
    """The base URL of a running gunicorn, with its master process."""

    process: subprocess.Popen

    def workers(self) -> list[int]:
        """The pids of the master's worker processes now (its children, from /proc)."""
        children = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue  # gone meanwhile
            if int(fields[1]) == self.process.pid:
                children.append(int(stat.parent.name))
        return children


@contextmanager
def gunicorn(
    app: str,
    env: dict[str, str],
    port: int | None = None,
    log: Path | None = None,
    root: Path = ROOT,
) -> Iterator[Served]:
    """gunicorn with the project's gunicorn.conf.py, serving ``app`` on ``port`` (a free one by
    default), in a session of its own (a test may kill its whole process group); what it writes
    to standard error goes to ``log`` when given. ``root``: the checkout it runs (a benchmark
    may run an earlier commit's, to compare)."""
    port = port or free_port()
    environment = {**os.environ, **env, "ROADS_BIND": f"127.0.0.1:{port}"}
    if root != ROOT:
        environment["PYTHONPATH"] = str(root)
    errors = log.open("ab") if log is not None else subprocess.DEVNULL
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", app],
        cwd=root,
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=errors,
        start_new_session=True,
    )
    base = Served(f"http://127.0.0.1:{port}")
    base.process = process
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(
                    base + "/livez" if "wsgi" in app else base + "/ok", timeout=1
                )
                break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError(f"gunicorn {app} did not start") from None
                time.sleep(0.2)
        yield base
    finally:
        if process.poll() is None:
            process.terminate()
            process.wait(timeout=20)
        if log is not None:
            errors.close()


@contextmanager
def service(
    redis_url: str, key: str, *, workers: int = 1, log: Path | None = None, **env: str
) -> Iterator[Served]:
    """The roads service (``wsgi:app``) on an emptied Redis database, with ``key`` as its
    ingest key, ``workers`` workers and any other ``ROADS_`` settings in ``env``."""
    redis.Redis.from_url(redis_url).flushdb()
    settings = {
        "REDIS_URL": redis_url,
        "ROADS_INGEST_KEYS": key,
        "ROADS_WORKERS": str(workers),
        **env,
    }
    with gunicorn("wsgi:app", settings, log=log) as base:
        yield base


def send(base: str, method: str, path: str, body: dict, key: str) -> dict:
    """A JSON request with an ingest key to a running service; its JSON answer (an answer
    other than 2xx raises)."""
    request = urllib.request.Request(
        base + path,
        data=json.dumps(body).encode(),
        method=method,
        headers={"Content-Type": "application/json", "X-API-Key": key},
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)
