"""Slow clients against a real gunicorn (api.worker) on a real Redis: a request's head must
arrive within ``ROADS_HEAD_TIMEOUT`` and its body within ``ROADS_BODY_TIMEOUT``, so a slowloris
cannot hold the worker's ``worker_connections`` slots; an event stream and a keep-alive
connection waiting for its next request are not cut by either bound (issue 42, item 7).

One service for the module: one worker of 250 connections, a head bound of 2 s, a body bound
of 3 s. Waits are bounded by the clients' own socket timeouts; nothing here times the service."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.gunicorn_server import send, service

KEY = "slow-key"
HEAD_TIMEOUT, BODY_TIMEOUT = 2, 3
SLOTS = 250  # the worker's worker_connections
ATTACKERS = 400  # over the slots: without the head bound, they would hold every one


@pytest.fixture(scope="module")
def log(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("slowclients") / "service.log"


@pytest.fixture(scope="module")
def base(redis_server, log) -> Iterator[str]:
    env = {
        "ROADS_DEMO": "0",
        "ROADS_HEAD_TIMEOUT": str(HEAD_TIMEOUT),
        "ROADS_BODY_TIMEOUT": str(BODY_TIMEOUT),
        "ROADS_WORKER_CONNECTIONS": str(SLOTS),
        "ROADS_FEED_CLIENTS": "20",
        "ROADS_KEEPALIVE": "30",  # longer than both bounds: what closes is their doing
        "ROADS_SSE_HEARTBEAT": "1",
    }
    with service(redis_server.url, KEY, log=log, **env) as served:
        yield served


def connect(base: str, timeout: float = 10) -> socket.socket:
    address = urlsplit(base)
    return socket.create_connection((address.hostname, address.port), timeout=timeout)


def read_to_close(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes (a client timeout raises)."""
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    return data


def answer(sock: socket.socket) -> tuple[bytes, bytes]:
    """One whole answer with a Content-Length: its head and body."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, f"closed before an answer: {data!r}"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(
        int(line.split(b":")[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length")
    )
    while len(body) < length:
        body += sock.recv(65536)
    return head, body


class Slowloris:
    """``count`` connections, each sending a request line, then a header line every
    ``every`` seconds, never ending the head. A connection the server closes is opened again,
    so the slots are under attack for as long as it runs."""

    def __init__(self, base: str, count: int, every: float = 3.0) -> None:
        self.base, self.count, self.every = base, count, every
        self.stop = threading.Event()
        self.cut = 0  # connections the server closed
        self.thread = threading.Thread(target=self.run, daemon=True)

    def __enter__(self) -> Slowloris:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(timeout=30)

    def opened(self) -> socket.socket:
        sock = connect(self.base, timeout=5)
        sock.setblocking(False)
        sock.send(b"GET /livez HTTP/1.1\r\nHost: slow\r\n")
        return sock

    def run(self) -> None:
        socks = [self.opened() for _ in range(self.count)]
        try:
            while not self.stop.wait(self.every / 3):
                for index, sock in enumerate(socks):
                    try:
                        if sock.recv(65536) == b"":
                            raise ConnectionResetError  # closed by the server
                    except BlockingIOError:
                        pass  # still open, nothing said: the attack goes on
                    except OSError:
                        self.cut += 1
                        sock.close()
                        socks[index] = self.opened()
                for sock in socks:  # a header line now and then (errors: seen above next turn)
                    with contextlib.suppress(OSError):
                        sock.send(b"X-Slow: 1\r\n")
        finally:
            for sock in socks:
                sock.close()


def test_a_slowloris_holding_the_head_open_does_not_lock_out_the_service(base):
    with Slowloris(base, ATTACKERS) as attack:
        time.sleep(1)  # every slot taken, the rest queued behind them
        with urllib.request.urlopen(base + "/livez", timeout=15) as live:
            assert live.status == 200
        written = send(
            base, "POST", "/v1/tables/slow/shoes/s1/rounds", {"round": 1, "result": "B"}, KEY
        )
        assert written["round"]["round"] == 1
        deadline = time.monotonic() + 3 * HEAD_TIMEOUT
        while attack.cut == 0 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert attack.cut > 0  # the attackers were cut, not merely outlasted


def test_a_connection_sending_headers_forever_is_closed_with_a_408(base):
    with connect(base) as sock:
        sock.sendall(b"GET /livez HTTP/1.1\r\nHost: slow\r\n")
        started = time.monotonic()
        said = b""
        sock.settimeout(0.3)
        while time.monotonic() - started < 4 * HEAD_TIMEOUT:  # the bound, and more
            try:
                sock.sendall(b"X-Slow: 1\r\n")  # progress, but never the head's end
                chunk = sock.recv(65536)
            except TimeoutError:
                continue
            except OSError:  # reset once the server is done lingering
                break
            if not chunk:
                break
            said += chunk
        assert said.startswith(b"HTTP/1.1 408 Request Timeout"), said
        body = json.loads(said.partition(b"\r\n\r\n")[2])
        assert body["code"] == 408 and "headers" in body["message"]
        assert body["request_id"]


def test_a_connection_that_sends_nothing_is_closed(base):
    with connect(base) as sock:
        # ROADS_KEEPALIVE is 30 s: it is the head bound that closes it, silently (nothing came).
        assert read_to_close(sock) == b""


def test_a_body_sent_slowly_is_cut_at_the_body_bound(base):
    body = json.dumps({"round": 1, "result": "B"}).encode()
    with connect(base) as sock:
        sock.sendall(
            b"POST /v1/tables/slowbody/shoes/s1/rounds HTTP/1.1\r\nHost: slow\r\n"
            b"Content-Type: application/json\r\nX-API-Key: " + KEY.encode() + b"\r\n"
            b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n"
        )
        said = b""
        sock.settimeout(0.5)
        for byte in body[:-1]:  # a byte every 0.5 s: the whole would take far past the bound
            sock.sendall(bytes([byte]))
            try:
                said += sock.recv(65536)
            except TimeoutError:
                continue
            if said:
                break
        sock.settimeout(10)
        said += read_to_close(sock)
    assert said.startswith(b"HTTP/1.1 408"), said
    answer_body = json.loads(said.partition(b"\r\n\r\n")[2])
    assert answer_body["code"] == 408 and "body" in answer_body["message"]
    with pytest.raises(urllib.error.HTTPError) as stored:  # the cut write changed nothing
        urllib.request.urlopen(base + "/v1/tables/slowbody", timeout=10)
    assert stored.value.code == 404


def test_a_body_that_comes_in_time_is_taken(base):
    written = send(
        base, "POST", "/v1/tables/quick/shoes/s1/rounds", {"round": 1, "result": "P"}, KEY
    )
    assert written["round"]["round"] == 1


def test_an_event_stream_stays_open_past_both_bounds(base):
    with connect(base) as sock:
        sock.sendall(b"GET /v1/events HTTP/1.1\r\nHost: slow\r\nAccept: text/event-stream\r\n\r\n")
        started = time.monotonic()
        said = b""
        while time.monotonic() - started < max(HEAD_TIMEOUT, BODY_TIMEOUT) + 1:
            chunk = sock.recv(65536)
            assert chunk, f"the stream closed after {time.monotonic() - started:.1f} s: {said!r}"
            said += chunk
        assert said.startswith(b"HTTP/1.1 200"), said[:200]


def test_a_keep_alive_connection_serves_its_next_request_after_a_pause(base):
    with connect(base) as sock:
        sock.sendall(b"GET /livez HTTP/1.1\r\nHost: slow\r\n\r\n")
        assert answer(sock)[0].startswith(b"HTTP/1.1 200")
        time.sleep(HEAD_TIMEOUT + 0.5)  # idle past the head bound: keepalive (30 s) governs
        sock.sendall(b"GET /livez HTTP/1.1\r\nHost: slow\r\n\r\n")
        assert answer(sock)[0].startswith(b"HTTP/1.1 200")


def test_a_malformed_request_is_refused_without_its_line_in_the_log(base, log):
    secret = "key-in-a-bad-request-line-5e1"
    with connect(base) as sock:
        sock.sendall(f"GET /v1/events?key={secret} HTTP/9.9\r\nHost: slow\r\n\r\n".encode())
        said = read_to_close(sock)
    assert said.startswith(b"HTTP/1.1 400"), said
    time.sleep(0.5)  # the access log is written off the request path
    lines = log.read_text().splitlines()
    assert any('"refused: 400"' in line for line in lines)
    assert secret not in log.read_text()
    for line in lines:
        json.loads(line)  # every line JSON: nothing of gevent's own plain text
