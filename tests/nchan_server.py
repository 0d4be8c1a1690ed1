"""nginx with nchan (Debian's ``nginx-light`` and ``libnginx-mod-nchan``) in front of a service,
with the project's config (deploy/nchan/nginx.conf.in), on a free loopback port, in a temporary
folder; stopped by its master's pid."""

from __future__ import annotations

import os
import resource
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from .redis_server import free_port

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "deploy" / "nchan" / "nginx.conf.in"
MODULE = Path("/usr/lib/nginx/modules/ngx_nchan_module.so")


def available() -> bool:
    return shutil.which("nginx") is not None and MODULE.exists()


class Nchan:
    """``with Nchan(backend) as nchan``: viewers at ``nchan.url + "/v1/events/nchan"``, the
    service's publisher at ``nchan.publish_url`` (the internal listener, its own port),
    everything else passed to ``backend``."""

    def __init__(self, backend: str = "127.0.0.1:9", *, workers: int = 1, first: str = "newest"):
        if not available():
            raise RuntimeError("nginx with nchan is not installed (scripts/test installs it)")
        self.port = free_port()
        self.internal_port = free_port()
        self.backend = backend
        self.workers = workers
        self.first = first
        self.dir = tempfile.mkdtemp(prefix="roads-nchan-")
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def internal_url(self) -> str:
        return f"http://127.0.0.1:{self.internal_port}"

    @property
    def publish_url(self) -> str:
        return f"{self.internal_url}/pub"

    def __enter__(self) -> Nchan:
        _, nofile = resource.getrlimit(resource.RLIMIT_NOFILE)
        values = {
            "MODULE": MODULE,
            "WORKERS": self.workers,
            "NOFILE": nofile,
            "CONNECTIONS": max(1024, nofile - 100),
            "DIR": self.dir,
            "LISTEN": f"127.0.0.1:{self.port}",
            "INTERNAL": f"127.0.0.1:{self.internal_port}",
            "BACKEND": self.backend,
            "FIRST_MESSAGE": self.first,
        }
        text = TEMPLATE.read_text()
        for name, value in values.items():
            text = text.replace(f"@{name}@", str(value))
        config = Path(self.dir) / "nginx.conf"
        config.write_text(text)
        self.process = subprocess.Popen(
            ["nginx", "-c", str(config), "-p", self.dir, "-g", "daemon off;"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while not (self._listening(self.port) and self._listening(self.internal_port)):
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise RuntimeError(f"nginx did not start (its log: {self.dir}/error.log)")
            time.sleep(0.05)
        return self

    @staticmethod
    def _listening(port: int) -> bool:
        with socket.socket() as sock:
            sock.settimeout(0.2)
            return sock.connect_ex(("127.0.0.1", port)) == 0

    def pids(self) -> list[int]:
        """The master's and its workers'."""
        if self.process is None:
            return []
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        found = children.read_text().split() if children.exists() else []
        return [self.process.pid, *map(int, found)]

    def __exit__(self, *_: object) -> None:
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGQUIT)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.dir, ignore_errors=True)
