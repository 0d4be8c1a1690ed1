"""The gunicorn worker the service runs in: gevent, with gevent's own HTTP server (pywsgi).

gunicorn's plain ``gevent`` worker parses HTTP with gunicorn's parser and sends every answer's
headers and body in two ``send`` calls. gunicorn's ``gevent_pywsgi`` worker hands connections to
gevent's WSGI server, which sends a short answer whole, in one call. Measured with the load
bench's ingest alone on a Redis Cluster, three runs of each: 0.99 ms of worker CPU a round
against 1.02-1.03 ms with the plain gevent worker.

What this worker adds to ``gevent_pywsgi``:

- Fairness: a keep-alive connection yields before each next request, so one busy client cannot
  keep the worker to itself while others wait (see :meth:`IdleClosingHandler.read_requestline`).

- gevent's server keeps an idle keep-alive connection open for as long as the client does; this
  worker closes one that sends no request for gunicorn's ``keepalive`` seconds, as the plain
  gevent worker does, so idle clients cannot fill the worker's ``worker_connections``.
- A request refused before it reaches the app (a request line over 8 KB: 414; a malformed
  request: 400) gets a JSON error body with a request id and one JSON access-log line, like
  every other error, instead of an empty body and gunicorn's access log failing on it.
- SIGTERM drains at once: every open event stream ends (a last ``retry:``, then the close, and
  the client reconnects to another worker) and idle keep-alive connections close, so the worker
  exits in about a second instead of waiting out ``graceful_timeout``.
"""

from __future__ import annotations

import contextlib
import json
import logging
import socket
import time
import weakref
from typing import ClassVar

import gevent
from gunicorn.workers.ggevent import GeventPyWSGIWorker, PyWSGIHandler

from api.http.traffic import HEADER, request_id_of
from api.metrics import request_counted

access_log = logging.getLogger("roads.access")

REFUSED = "refused"  # the route label of a request refused before it reached the app
# What a refused connection is read for before it closes (see IdleClosingHandler.linger).
LINGER_SECONDS, LINGER_BYTES = 1.0, 1024 * 1024
REFUSALS = {
    "414": ("Request-URI Too Long", "the request line (method, path and query) is over 8 KB"),
    "400": ("Bad Request", "the request is not well-formed HTTP"),
}


def refusal(status: str, request_id: str) -> bytes:
    """The whole HTTP answer to a request refused before it reached the app."""
    name, message = REFUSALS.get(status, ("Bad Request", "the request was refused"))
    body = json.dumps(
        {"code": int(status), "status": name, "message": message, "request_id": request_id}
    ).encode()
    head = (
        f"HTTP/1.1 {status} {name}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n{HEADER}: {request_id}\r\nConnection: close\r\n\r\n"
    )
    return head.encode("latin-1") + body


class IdleClosingHandler(PyWSGIHandler):
    """gevent's request handler, giving up on a connection idle for ``keepalive`` seconds, and
    on every idle one once the worker drains (see the module doc)."""

    keepalive: float = 5.0
    draining: ClassVar[bool] = False
    idle: ClassVar[weakref.WeakSet] = weakref.WeakSet()  # greenlets waiting for a next request

    def read_requestline(self) -> str:
        if self.draining:
            return ""  # an empty request line closes the connection
        # Let every other ready connection have its turn first. A busy keep-alive client's next
        # request is often in the socket before this greenlet has finished the last one (its
        # access-log line, its metrics), and then reading it would not wait and so not yield:
        # that client would be served over and over while the others wait (measured: p99 of a
        # cached read from 16 connections 740 ms, against 3.7 ms with this yield).
        gevent.sleep(0)
        waiting = gevent.getcurrent()
        self.idle.add(waiting)
        try:
            with gevent.Timeout(self.keepalive or None, False):  # keepalive 0: no limit
                return super().read_requestline()
        finally:
            self.idle.discard(waiting)
        return ""  # nothing came in time

    def handle_one_request(self):  # type: ignore[no-untyped-def]
        self.refused: str | None = None
        result = super().handle_one_request()
        if isinstance(result, tuple):  # (status, the whole answer): refused before the app
            self.refused = request_id_of(None)
            answer = refusal(result[0], self.refused)
            self.status, self.response_length = result[0], len(answer)
            self.socket.sendall(answer)
            self.time_finish = time.time()
            self.log_request()
            self.linger()
            return None  # the connection closes
        if result is None and (getattr(self, "code", None) or 0) >= 400:
            self.linger()  # a refused body may be left unread (a Content-Length that lied)
        return result

    def linger(self) -> None:
        """Half-close, then read what the client still sends (bounded) before the close. A
        refused request is often not read to its end (a request line over 8 KB, its headers
        and body; the rest of a body its Content-Length did not count): closing a socket with
        unread data makes the kernel answer with a reset, which can reach the client before it
        has read the refusal, so the client would see the connection reset, not the answer."""
        with contextlib.suppress(OSError):
            self.socket.shutdown(socket.SHUT_WR)
            read = 0
            with gevent.Timeout(LINGER_SECONDS, False):
                while read < LINGER_BYTES:
                    chunk = self.socket.recv(65536)
                    if not chunk:
                        break
                    read += len(chunk)

    def log_request(self) -> None:
        # The app logs every request it answers (api.http.traffic); only refusals remain.
        if getattr(self, "refused", None) is None:
            return
        took = max(0.0, (self.time_finish or self.time_start) - self.time_start)
        request_counted(REFUSED, "", str(self.status), took)
        fields = {
            "method": None,
            "route": REFUSED,
            "status": int(self.status),
            "duration_ms": round(took * 1000, 3),
            "bytes": self.response_length,
            "request_id": self.refused,
        }
        access_log.info("refused: %s", self.status, extra={"fields": fields})


class Worker(GeventPyWSGIWorker):
    """``gevent_pywsgi`` with the idle timeout of gunicorn's ``keepalive`` setting, JSON
    refusals, and a drain on SIGTERM."""

    def init_process(self) -> None:
        self.wsgi_handler = type(
            "Handler",
            (IdleClosingHandler,),
            {"keepalive": float(self.cfg.keepalive), "idle": weakref.WeakSet()},
        )
        super().init_process()

    def handle_exit(self, sig, frame) -> None:  # type: ignore[no-untyped-def]
        super().handle_exit(sig, frame)
        gevent.spawn(self.drain)  # out of the signal handler: it takes locks

    def drain(self) -> None:
        """End every event stream and idle connection of this worker (see the module doc)."""
        self.wsgi_handler.draining = True
        for waiting in list(self.wsgi_handler.idle):
            waiting.kill(block=False)
        services = self.wsgi.extensions.get("roads")  # absent in the benchmarks' bare app
        if services is not None:
            services.events.drain()
            services.frames.drain()
            services.broadcaster.drain()
