"""A real local Redis Cluster for the tests and the benchmarks: ``redis-server`` processes on
loopback ports (3 masters with 1 replica each by default), joined by ``redis-cli --cluster
create``, torn down with their files. Each node keeps an AOF (``appendfsync everysec``).

A replica's first sync starts at once (Redis waits 5 s by default, for more replicas to share
one transfer), and the nodes are killed when torn down (Redis 7 gives a master stopped with
SIGTERM up to 10 s to wait for its replicas, already gone): starting and tearing down a cluster
costs about 2 s, not 27, in each process that starts one."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import redis
from redis.cluster import RedisCluster


def _free(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def cluster_ports(count: int, start: int | None = None) -> list[int]:
    """``count`` ports whose cluster bus ports (port + 10000) are free too. Each pytest-xdist
    worker looks in a range of its own: two clusters starting at once would otherwise both find
    the same ports free."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
    ports: list[int] = []
    port = start if start is not None else 21000 + 1000 * int(worker or 0)
    while len(ports) < count:
        if _free(port) and _free(port + 10000):
            ports.append(port)
        port += 1
        if port > 29999:
            raise RuntimeError("no free ports for a Redis Cluster")
    return ports


class LocalCluster:
    """Starts ``masters * (1 + replicas)`` nodes and makes them a cluster; never uses 6379."""

    def __init__(self, masters: int = 3, replicas: int = 1, node_timeout_ms: int = 1000) -> None:
        for tool in ("redis-server", "redis-cli"):
            if shutil.which(tool) is None:
                raise RuntimeError(f"{tool} is not installed (scripts/test installs it)")
        self.masters, self.replicas = masters, replicas
        self.node_timeout_ms = node_timeout_ms
        self.ports = cluster_ports(masters * (1 + replicas))
        self.dir = Path(tempfile.mkdtemp(prefix="roads-cluster-"))
        self.processes: dict[int, subprocess.Popen] = {}

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.ports[0]}/0"

    def start(self) -> LocalCluster:
        for port in self.ports:
            self.start_node(port)
        subprocess.run(
            [
                "redis-cli",
                "--cluster",
                "create",
                *(f"127.0.0.1:{port}" for port in self.ports),
                "--cluster-replicas",
                str(self.replicas),
                "--cluster-yes",
            ],
            check=True,
            capture_output=True,
            timeout=60,
        )
        self.wait_until_ready()
        return self

    def start_node(self, port: int) -> None:
        folder = self.dir / str(port)
        folder.mkdir(exist_ok=True)
        self.processes[port] = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(port),
                "--bind",
                "127.0.0.1",
                "--dir",
                str(folder),
                "--cluster-enabled",
                "yes",
                "--cluster-config-file",
                "nodes.conf",
                "--cluster-node-timeout",
                str(self.node_timeout_ms),
                "--appendonly",
                "yes",
                "--appendfsync",
                "everysec",
                "--save",
                "",
                "--repl-diskless-sync-delay",
                "0",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while True:
            try:
                redis.Redis(port=port, socket_timeout=0.5).ping()
                return
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"cluster node {port} did not start") from None
                time.sleep(0.05)

    def wait_until_ready(self, seconds: float = 30) -> None:
        """Until every live node says the cluster is ok and every master has its replicas."""
        deadline = time.monotonic() + seconds
        while True:
            try:
                if self._ready():
                    return
            except redis.RedisError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the Redis Cluster did not become ready")
            time.sleep(0.1)

    def _ready(self) -> bool:
        for port, process in self.processes.items():
            if process.poll() is not None:
                continue
            info = redis.Redis(port=port, socket_timeout=0.5).cluster("info")
            if info["cluster_state"] != "ok":
                return False
        client = self.client()
        try:
            masters = [node for node in client.get_nodes() if node.server_type == "primary"]
            live = [n for n in masters if self.processes[int(n.port)].poll() is None]
            if len(live) < self.masters:
                return False
            # Every master streams to its replicas (a write can be confirmed with WAIT).
            for node in live:
                info = redis.Redis(port=int(node.port), socket_timeout=0.5).info("replication")
                online = [
                    key
                    for key, value in info.items()
                    if key.startswith("slave")
                    and isinstance(value, dict)
                    and value.get("state") == "online"
                ]
                if len(online) < self.replicas:
                    return False
            return True
        finally:
            client.close()

    def client(self, **kwargs) -> RedisCluster:
        return RedisCluster.from_url(self.url, **kwargs)

    def master_of(self, key: str) -> int:
        """The port of the master that holds ``key``'s slot now."""
        client = self.client()
        try:
            return int(client.get_node_from_key(key).port)
        finally:
            client.close()

    def kill(self, port: int) -> None:
        process = self.processes[port]
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)

    def flush(self) -> None:
        client = self.client()
        try:
            client.flushall(target_nodes=RedisCluster.PRIMARIES)
        finally:
            client.close()

    def cleanup(self) -> None:
        """Kill every node and remove their files (nothing of a test cluster is kept)."""
        for process in self.processes.values():
            if process.poll() is None:
                process.kill()
        for process in self.processes.values():
            process.wait(timeout=10)
        shutil.rmtree(self.dir, ignore_errors=True)
