"""The service's gunicorn worker (api.worker): keep-alive connections serve request after
request, and one left idle for the ``keepalive`` setting is closed."""

import socket
import time
from urllib.parse import urlsplit

from tests.gunicorn_server import gunicorn

REQUEST = b"GET /livez HTTP/1.1\r\nHost: test\r\n\r\n"


def answer(sock: socket.socket) -> bytes:
    """One whole answer to /livez (headers and its short body)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(4096)
        assert chunk, "the connection closed before an answer"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(
        next(
            line for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")
        ).split(b":")[1]
    )
    while len(body) < length:
        body += sock.recv(4096)
    return head


def test_an_idle_keep_alive_connection_is_closed_after_keepalive_seconds(redis_server):
    env = {
        "REDIS_URL": redis_server.url,
        "ROADS_DEMO": "0",
        "ROADS_WORKERS": "1",
        "ROADS_KEEPALIVE": "1",
    }
    with gunicorn("wsgi:app", env) as base:
        address = urlsplit(base)
        with socket.create_connection((address.hostname, address.port), timeout=5) as sock:
            for _ in range(3):  # one connection, several requests, each well within a second
                sock.sendall(REQUEST)
                assert answer(sock).startswith(b"HTTP/1.1 200")
                time.sleep(0.3)
            started = time.monotonic()
            assert sock.recv(4096) == b""  # closed by the server, not by this client's timeout
            assert 0.5 < time.monotonic() - started < 3
