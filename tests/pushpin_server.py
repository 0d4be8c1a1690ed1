"""A real Pushpin (Debian's package) in front of a service, on free loopback ports, started with
the project's config template (deploy/pushpin), signing what it passes on with a secret of its
own: give the service :attr:`Pushpin.service_env` (``ROADS_GRIP_URL``, ``ROADS_GRIP_KEY``)."""

from __future__ import annotations

import http.client
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .redis_server import free_port

ROOT = Path(__file__).resolve().parent.parent


def _listening(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.2)
        return sock.connect_ex(("127.0.0.1", port)) == 0


class Pushpin:
    """Starts and stops one Pushpin in front of ``backend`` (``host:port``), its ``sig_key``
    :attr:`grip_key`, a new secret."""

    def __init__(self, backend: str) -> None:
        if shutil.which("pushpin") is None:
            raise RuntimeError("pushpin is not installed (scripts/test installs it)")
        self.backend = backend
        self.port = free_port()
        self.publish_port = free_port()
        self.dir = tempfile.mkdtemp(prefix="roads-pushpin-")
        self.grip_key = secrets.token_hex(32)
        self.process: subprocess.Popen | None = None
        self._output = None  # the runner's own output: log/runner.log beside Pushpin's logs

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def run_dir(self) -> Path:
        return Path(self.dir) / "run"

    @property
    def log_dir(self) -> Path:
        """Where Pushpin's processes log (and the runner's own output, runner.log)."""
        return Path(self.dir) / "log"

    @property
    def publish_url(self) -> str:
        return f"http://127.0.0.1:{self.publish_port}"

    @property
    def service_env(self) -> dict[str, str]:
        """What the service behind it is given: where to publish, and the key to verify with."""
        return {"ROADS_GRIP_URL": self.publish_url, "ROADS_GRIP_KEY": self.grip_key}

    def start(self) -> Pushpin:
        command = [
            sys.executable,
            str(ROOT / "deploy" / "pushpin" / "run.py"),
            f"--backend={self.backend}",
            f"--port={self.port}",
            "--listen=127.0.0.1",
            f"--publish-port={self.publish_port}",
            f"--dir={self.dir}",
        ]
        self.log_dir.mkdir(parents=True, exist_ok=True)
        self._output = (self.log_dir / "runner.log").open("ab")
        self.process = subprocess.Popen(
            command,
            stdout=self._output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            env={**os.environ, "ROADS_GRIP_KEY": self.grip_key},  # never on the command line
        )
        deadline = time.monotonic() + 20
        while not (_listening(self.port) and _listening(self.publish_port) and self._holds()):
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise RuntimeError(f"pushpin did not start (logs in {self.dir}/log)")
            time.sleep(0.1)
        return self

    def _holds(self) -> bool:
        """Whether Pushpin holds a stream yet: its ports listen a moment before its handler
        accepts holds ("Accept service unavailable")."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
        try:
            connection.request("GET", "/v1/events?tables=ready")
            return connection.getresponse().status == 200
        except (OSError, http.client.HTTPException):
            return False
        finally:
            connection.close()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
        if self._output is not None:
            self._output.close()
            self._output = None
        deadline = time.monotonic() + 10
        while _listening(self.port) and time.monotonic() < deadline:
            time.sleep(0.1)

    def cleanup(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)
