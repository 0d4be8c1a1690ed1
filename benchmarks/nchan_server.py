"""nginx with nchan (Debian's ``nginx-light`` and ``libnginx-mod-nchan``) for the feed
benchmark: one channel, ``lobby``, published to at ``/pub`` and read as Server-Sent Events at
``/v1/events``, on free ports, in a temporary folder; stopped by its master's pid."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from tests.redis_server import free_port

MODULE = Path("/usr/lib/nginx/modules/ngx_nchan_module.so")
CONFIG = """
load_module {module};
worker_processes {workers};
worker_rlimit_nofile 20000;
pid {dir}/nginx.pid;
error_log {dir}/error.log warn;
events {{ worker_connections 19000; }}
http {{
    access_log off;
    client_body_temp_path {dir}/body;
    nchan_shared_memory_size 256M;
    server {{
        listen 127.0.0.1:{port} backlog=4096;
        location = /pub {{
            nchan_publisher;
            nchan_channel_id lobby;
            nchan_message_buffer_length 240;
            nchan_message_timeout 2m;
        }}
        location = /v1/events {{
            nchan_subscriber eventsource;
            nchan_channel_id lobby;
            nchan_subscriber_first_message -1;
        }}
    }}
}}
"""


def available() -> bool:
    return shutil.which("nginx") is not None and MODULE.exists()


class Nchan:
    def __init__(self, workers: int = 1) -> None:
        self.port = free_port()
        self.workers = workers
        self.dir = tempfile.mkdtemp(prefix="roads-nchan-")
        self.process: subprocess.Popen | None = None

    def __enter__(self) -> Nchan:
        config = Path(self.dir) / "nginx.conf"
        config.write_text(
            CONFIG.format(module=MODULE, workers=self.workers, dir=self.dir, port=self.port)
        )
        self.process = subprocess.Popen(
            ["nginx", "-c", str(config), "-p", self.dir, "-g", "daemon off;"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while not self.pids()[1:] and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(0.3)
        return self

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
