"""The access log under gunicorn, under load and across a SIGTERM: every answered request's line
is written once, a worker's lines in the order it answered them, and a full queue counts its
drops in /metrics."""

from __future__ import annotations

import http.client
import json
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

from tests.conftest import KEY
from tests.gunicorn_server import service as served


def ask(base: str, request_id: str) -> bool:
    """A cheap read with its own request id; whether it was answered (the server may be going)."""
    parts = urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        connection.request("GET", "/v1/patterns", headers={"X-Request-ID": request_id})
        answer = connection.getresponse()
        answer.read()
        return answer.status == 200
    except OSError:
        return False
    finally:
        connection.close()


def test_every_answered_request_is_logged_once_and_in_order_across_a_sigterm(redis_server):
    log = Path(tempfile.mkdtemp(prefix="roads-log-")) / "service.log"
    answered: list[str] = []
    stop = threading.Event()
    with served(redis_server.url, KEY, workers=1, log=log) as base:

        def client(name: str) -> None:
            number = 0
            while not stop.is_set():
                request_id = f"{name}-{number}"
                if ask(base, request_id):
                    answered.append(request_id)
                number += 1

        clients = [threading.Thread(target=client, args=(f"c{n}",)) for n in range(4)]
        for thread in clients:
            thread.start()
        time.sleep(1.5)
        base.process.terminate()  # SIGTERM to the master, with requests in flight
        base.process.wait(timeout=20)
        stop.set()
        for thread in clients:
            thread.join()
    lines = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    logged = [line["request_id"] for line in lines if line.get("logger") == "roads.access"]
    assert len(answered) > 20, "the clients kept the worker busy"
    assert len(logged) == len(set(logged)), "no line twice"
    assert set(answered) <= set(logged), "every answered request's line is there"
    for name in ("c0", "c1", "c2", "c3"):  # each client's requests, in the order answered
        mine = [int(i.split("-")[1]) for i in logged if i.startswith(f"{name}-")]
        assert mine == sorted(mine)
