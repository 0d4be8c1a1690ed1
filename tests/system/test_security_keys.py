"""The keys under a real gunicorn and Redis (issue 42, items 4 and 5): a scoped ingest key is
refused another studio's table on every write route; keys rotate through the key file and a
SIGHUP to the master, and a revoked key stays revoked through a file that no longer reads;
``?key=`` reaches no log line; the access log names the key; a start without ``REDIS_URL``
outside the demo, or with ``demo-key``, is refused with a clear message."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from tests.gunicorn_server import ROOT
from tests.gunicorn_server import service as served
from tests.redis_server import free_port

OLD, NEW, OPS = "old-secret-1a2b3c", "new-secret-4d5e6f", "ops-secret-7a8b9c"
READ = "read-secret-9f8e7d"
ENV_KEY = "env-ingest-key"


def call(base: str, method: str, path: str, key: str | None, body: dict | None = None) -> int:
    """The status of one request (``key`` in ``X-API-Key``)."""
    headers = {"Content-Type": "application/json"}
    if key is not None:
        headers["X-API-Key"] = key
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            answer.read()
            return answer.status
    except urllib.error.HTTPError as error:
        error.read()
        return error.code


def key_file(path: Path, ingest_secret: str) -> None:
    path.write_text(
        "# name   role      secret   tables\n"
        f"game     ingest    {ingest_secret}   studio-a-*\n"
        f"ops      operator  {OPS}\n"
        f"lobby    read      {READ}\n"
    )


def test_a_scoped_key_is_refused_other_tables_and_rotates_on_sighup(redis_server, tmp_path):
    keys = tmp_path / "keys"
    key_file(keys, OLD)
    with served(redis_server.url, ENV_KEY, workers=2, ROADS_KEY_FILE=str(keys)) as base:
        assert call(base, "PUT", "/v1/tables/studio-b-1", ENV_KEY, {"name": "B"}) == 200
        assert call(base, "POST", "/v1/tables/studio-b-1/shoes/s1/rounds", ENV_KEY,
                    {"round": 1, "result": "B"}) == 201  # fmt: skip
        shoe = "/v1/tables/studio-b-1/shoes/s1/rounds"
        batch = {"rounds": [{"table": "studio-b-1", "shoe": "s1", "round": 2, "result": "P"}]}
        for method, path, body in [
            ("POST", shoe, {"round": 2, "result": "P"}),
            ("PUT", f"{shoe}/1", {"result": "P"}),
            ("POST", f"{shoe}/1/void", None),
            ("PUT", "/v1/tables/studio-b-1", {"name": "Taken"}),
            ("DELETE", "/v1/tables/studio-b-1", None),
            ("POST", "/v1/rounds", batch),
        ]:
            assert call(base, method, path, OLD, body) == 403, (method, path)
        assert call(base, "POST", "/v1/tables/studio-a-1/shoes/s1/rounds", OLD,
                    {"round": 1, "result": "B"}) == 201  # fmt: skip

        key_file(keys, NEW)  # rotated: the old secret out, a new one in
        hang_up(base, workers=2)
        for number in (2, 3, 4, 5):  # several requests: both workers answer some
            path = "/v1/tables/studio-a-1/shoes/s1/rounds"
            assert call(base, "POST", path, OLD, {"round": number, "result": "B"}) == 401
            assert call(base, "POST", path, NEW, {"round": number, "result": "B"}) == 201
        assert call(base, "POST", f"{shoe}", NEW, {"round": 2, "result": "B"}) == 403


def hang_up(base, *, workers: int) -> None:
    """SIGHUP to the master, then wait until each of its ``workers`` is one started after."""
    before = set(base.workers())
    os.kill(base.process.pid, signal.SIGHUP)
    replaced(base, before, workers)


def replaced(base, before: set[int], workers: int) -> None:
    """Wait until the master has ``workers`` workers, none of them one of ``before``."""
    deadline = time.monotonic() + 30
    while True:
        now = set(base.workers())
        if len(now) == workers and not now & before:
            return
        assert time.monotonic() < deadline, "the workers were not replaced"
        time.sleep(0.2)


def test_a_key_file_that_no_longer_reads_never_brings_back_a_revoked_key(redis_server, tmp_path):
    """Keys a and b; b revoked (SIGHUP); then a typo in the file (SIGHUP): b stays revoked, in
    the worker forked on that SIGHUP and in one forked later to replace a killed worker (the
    master reads the file on SIGHUP, the workers inherit the last keys that read)."""
    a, b = "operator-a-secret-0001", "operator-b-secret-0002"
    keys = tmp_path / "keys"
    keys.write_text(f"a operator {a}\nb operator {b}\n")
    log = tmp_path / "service.log"
    with served(redis_server.url, ENV_KEY, log=log, ROADS_KEY_FILE=str(keys)) as base:

        def statuses() -> list[int]:
            return [call(base, "GET", "/v1/integrity/drift", key) for key in (a, b)]

        assert statuses() == [200, 200]
        keys.write_text(f"a operator {a}\n")  # b revoked
        hang_up(base, workers=1)
        assert statuses() == [200, 401]
        keys.write_text(f"a operator {a}\nb operator\n")  # a typo: the file does not read
        hang_up(base, workers=1)
        assert statuses() == [200, 401]
        (worker,) = base.workers()
        os.kill(worker, signal.SIGKILL)  # its replacement is forked while the file is bad
        replaced(base, {worker}, workers=1)
        assert statuses() == [200, 401]
    text = log.read_text()
    assert "the keys were not reloaded" in text and "line 2" in text
    assert a not in text and b not in text


def test_query_keys_reach_no_log_line_and_the_access_log_names_keys(redis_server, tmp_path):
    keys = tmp_path / "keys"
    key_file(keys, OLD)
    log = tmp_path / "service.log"
    env = {"ROADS_KEY_FILE": str(keys), "ROADS_SSE_HEARTBEAT": "0.3"}  # a closed stream ends soon
    with served(redis_server.url, ENV_KEY, log=log, **env) as base:
        for path in (
            f"/v1/tables?key={OPS}",
            f"/v1/tables/nowhere/odds?key={READ}",
            f"/v1/integrity/drift?key={OPS}",
            f"/no/such/route?key={OPS}",
            f"/v1/tables/studio-a-1/shoes/s1/rounds?key={OLD}",
        ):
            call(base, "GET", path, None)
        assert call(base, "GET", f"/v1/integrity/drift?key={OPS}", None) == 401  # not a stream
        assert call(base, "POST", f"/v1/tables/studio-a-1/shoes/s1/rounds?key={OLD}", None,
                    {"round": 1, "result": "B"}) == 401  # fmt: skip
        request = urllib.request.Request(f"{base}/v1/integrity/events?key={OPS}")
        with urllib.request.urlopen(request, timeout=10) as stream:  # a stream: it counts
            assert stream.status == 200
        assert call(base, "GET", "/v1/integrity/drift", OPS) == 200
        assert call(base, "PUT", "/v1/tables/studio-a-2", OLD, {"name": "A2"}) == 200
        deadline = time.monotonic() + 15
        while '"/v1/integrity/events"' not in log.read_text():  # logged once the stream ends
            assert time.monotonic() < deadline, "the alert stream's line was not written"
            time.sleep(0.2)
        base.process.terminate()
        base.process.wait(timeout=20)
    text = log.read_text()
    for secret in (OLD, OPS, READ):
        assert secret not in text
    lines = [json.loads(line) for line in text.splitlines() if line.startswith("{")]
    access = [line for line in lines if line.get("logger") == "roads.access"]
    named = {(line["route"], line.get("key")) for line in access if line["status"] < 300}
    assert ("/v1/integrity/drift", "ops") in named
    assert ("/v1/integrity/events", "ops") in named
    assert ("/v1/tables/{table}", "game") in named
    assert all(line.get("key") is None for line in access if line["status"] == 401)


def start(env: dict[str, str]) -> subprocess.CompletedProcess:
    """gunicorn with the service and ``env`` (over a clean environment): it must stop."""
    environment = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith("ROADS_") and name not in ("REDIS_URL",)
    }
    environment.update(env, ROADS_BIND=f"127.0.0.1:{free_port()}")
    return subprocess.run(
        [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "wsgi:app"],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_start_without_redis_url_outside_the_demo_is_refused():
    stopped = start({"ROADS_INGEST_KEYS": "game:a-secret-1234"})
    assert stopped.returncode != 0
    assert "no REDIS_URL: set REDIS_URL" in stopped.stderr and "ROADS_DEMO=1" in stopped.stderr
    assert "a-secret-1234" not in stopped.stderr + stopped.stdout


def test_the_demo_key_is_refused_outside_the_demo(redis_server):
    stopped = start({"REDIS_URL": redis_server.url, "ROADS_INGEST_KEYS": "demo-key"})
    assert stopped.returncode != 0
    assert "the key demo-key is the embedded demo's" in stopped.stderr
