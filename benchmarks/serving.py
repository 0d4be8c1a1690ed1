"""Helpers of the HTTP benchmarks: a private redis-server and gunicorn on loopback ports, and
wrk as the load generator (bounded in time; loopback only)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import urllib.request
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.gunicorn_server import gunicorn  # noqa: E402, F401
from tests.redis_server import RedisServer  # noqa: E402


@contextmanager
def redis_server(*extra: str):
    """A private redis-server; ``extra`` options override the tests' (no persistence)."""
    server = RedisServer(None, *extra).start()
    try:
        yield server
    finally:
        server.cleanup()


def post(base: str, path: str, body: dict, key: str, method: str = "POST") -> None:
    """POST (or ``method``) a JSON body with an ingest key; raises on any answer but 2xx."""
    request = urllib.request.Request(
        base + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "X-API-Key": key},
        method=method,
    )
    urllib.request.urlopen(request, timeout=5).read()


def wrk(url: str, seconds: int = 5, connections: int = 16, threads: int = 2) -> dict[str, float]:
    """Requests per second and latency percentiles of ``url`` under wrk."""
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is missing: apt-get install wrk")
    out = subprocess.run(
        ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency", url],
        capture_output=True,
        text=True,
        check=True,
        timeout=seconds + 30,
    ).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    latency = {p: _ms(re.search(rf"\s{p}%\s+([\d.]+\w+)", out).group(1)) for p in ("50", "99")}
    return {
        "rps": rps,
        "p50_ms": latency["50"],
        "p99_ms": latency["99"],
        "non_2xx": int(errors.group(1)) if errors else 0,
    }


def _ms(text: str) -> float:
    value, unit = re.match(r"([\d.]+)(\w+)", text).groups()
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]
