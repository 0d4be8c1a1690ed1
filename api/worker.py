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
- Slow clients: gevent's server reads a request's head and body for as long as the client takes
  to send them, so clients that send a header line now and then (a slowloris) would hold every
  slot of ``worker_connections``. The whole head (request line and headers) must arrive within
  ``ROADS_HEAD_TIMEOUT`` seconds (10) of its first byte, or of the accept on a new connection;
  then the connection closes, with a 408 once any of the head has come. The body must arrive
  within ``ROADS_BODY_TIMEOUT`` seconds (30) of the head's end, in all, however it is split
  into reads: past it, the read raises a 408 (:class:`BodyLate`) and the connection closes. Both
  bound reading the request only: an answer (an event stream) lasts as long as it lasts, and a
  keep-alive connection waiting for its next request is bounded by ``keepalive`` alone.
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
from http import client as stdlib_http
from typing import ClassVar

import gevent
from gevent.pywsgi import Input
from gunicorn.workers.ggevent import GeventPyWSGIWorker, PyWSGIHandler
from werkzeug.exceptions import RequestTimeout

from api.config import Settings
from api.http.securityheaders import ALWAYS, ANSWER, POLICY
from api.http.traffic import HEADER, request_id_of
from api.metrics import request_counted

access_log = logging.getLogger("roads.access")
log = logging.getLogger("roads")
# What a client's malformed request raises while it is read (gevent's own kinds, and the
# standard library's header parser: over 100 headers, a line over 64 KB).
CLIENT_ERRORS = (ValueError, OSError, stdlib_http.HTTPException)

REFUSED = "refused"  # the route label of a request refused before it reached the app
# What a refused connection is read for before it closes (see IdleClosingHandler.linger).
LINGER_SECONDS, LINGER_BYTES = 1.0, 1024 * 1024
REFUSALS = {
    "414": ("Request-URI Too Long", "the request line (method, path and query) is over 8 KB"),
    "400": ("Bad Request", "the request is not well-formed HTTP"),
    "408": ("Request Timeout", "the request's line and headers did not arrive in time"),
}


# The same headers as every answer the app makes (api/http/securityheaders.py).
GUARDS = "".join(f"{name}: {value}\r\n" for name, value in (*ALWAYS, (POLICY, ANSWER)))


def refusal(status: str, request_id: str) -> bytes:
    """The whole HTTP answer to a request refused before it reached the app."""
    name, message = REFUSALS.get(status, ("Bad Request", "the request was refused"))
    body = json.dumps(
        {"code": int(status), "status": name, "message": message, "request_id": request_id}
    ).encode()
    head = (
        f"HTTP/1.1 {status} {name}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n{HEADER}: {request_id}\r\n{GUARDS}"
        "Connection: close\r\n\r\n"
    )
    return head.encode("latin-1") + body


class HeadLate(gevent.Timeout):
    """A request's head (its line and headers) did not arrive within ``head_timeout``."""


class BodyLate(RequestTimeout):
    """A request's body did not arrive within ``body_timeout`` of its head (408)."""

    description = "the request's body did not arrive in time"


class BoundedInput(Input):
    """gevent's ``wsgi.input`` whose reads must all be done by ``deadline`` (monotonic): a body
    sent a byte at a time cannot hold the connection longer than that, however many reads it
    takes. Past it a read raises :class:`BodyLate`, and the rest of the body is not read."""

    __slots__ = ("deadline", "late")

    def __init__(self, source: Input, deadline: float) -> None:
        super().__init__(source.rfile, source.content_length, source.socket, source.chunked_input)
        self.deadline = deadline
        self.late = False

    def read(self, length: int | None = None) -> bytes:
        return self._within(Input.read, length)

    def readline(self, size: int | None = None) -> bytes:
        return self._within(Input.readline, size)

    def _within(self, read, size):  # type: ignore[no-untyped-def]
        left = self.deadline - time.monotonic()
        if left > 0 and not self.late:
            with gevent.Timeout(left, False):
                return read(self, size)
        self.late = True  # the connection is in an unknown state now: it closes
        raise BodyLate()

    def _discard(self) -> None:
        # After the answer: what the app left unread, within the same deadline.
        with contextlib.suppress(BodyLate):
            super()._discard()


class IdleClosingHandler(PyWSGIHandler):
    """gevent's request handler, giving up on a connection idle for ``keepalive`` seconds, on
    every idle one once the worker drains, and on a request whose head or body comes too slowly
    (see the module doc)."""

    keepalive: float = 5.0
    head_timeout: float = 10.0
    body_timeout: float = 30.0
    draining: ClassVar[bool] = False
    idle: ClassVar[weakref.WeakSet] = weakref.WeakSet()  # greenlets waiting for a next request
    head: HeadLate | None = None  # this connection's head timer (one, started per request)
    begun = False  # whether any of the current request's head has come

    def handle(self):  # type: ignore[no-untyped-def]
        try:
            return super().handle()
        finally:
            if self.head is not None:
                self.head.close()

    def read_requestline(self) -> str:
        if self.draining:
            return ""  # an empty request line closes the connection
        # Let every other ready connection have its turn first. A busy keep-alive client's next
        # request is often in the socket before this greenlet has finished the last one (its
        # access-log line, its metrics), and then reading it would not wait and so not yield:
        # that client would be served over and over while the others wait (measured: p99 of a
        # cached read from 16 connections 740 ms, against 3.7 ms with this yield).
        gevent.sleep(0)
        self.begun = False
        accepted = self.head is None
        if accepted:  # a new connection: its first head is due from the accept
            self.head = HeadLate(self.head_timeout)
            self.head.start()
        if not self.next_request():
            return ""
        self.begun = True
        if not accepted:  # a keep-alive connection: its head is due from its first byte
            self.head.start()
        return super().read_requestline()

    def next_request(self) -> bool:
        """Wait for a request's first byte: whether it came within ``keepalive`` seconds (an
        idle connection, or one the client closed: no)."""
        waiting = gevent.getcurrent()
        self.idle.add(waiting)
        try:
            with gevent.Timeout(self.keepalive or None, False):  # keepalive 0: no limit
                return bool(self.rfile.peek(1))
        except OSError:  # reset by the client
            return False
        finally:
            self.idle.discard(waiting)
        return False  # nothing came in time

    def read_request(self, raw_requestline: str) -> bool:
        try:
            return super().read_request(raw_requestline)
        finally:
            self.head.cancel()  # the head is in: the bound is on reading it, not the answer

    def get_environ(self) -> dict:
        environ = super().get_environ()
        source = self.wsgi_input
        if environ["wsgi.input"] is source and (source.content_length or source.chunked_input):
            self.wsgi_input = BoundedInput(source, time.monotonic() + self.body_timeout)
            environ["wsgi.input"] = self.wsgi_input
        return environ

    def handle_one_response(self) -> None:
        super().handle_one_response()
        if getattr(self.wsgi_input, "late", False):
            self.close_connection = True  # the rest of its body may still be on its way

    def handle_one_request(self):  # type: ignore[no-untyped-def]
        self.refused: str | None = None
        try:
            result = super().handle_one_request()
        except HeadLate as late:
            if late is not self.head:
                raise
            result = ("408", b"") if self.begun else None  # nothing came: just close
        finally:
            if self.head is not None:
                self.head.cancel()  # (a request line over 8 KB is refused before its headers)
        if isinstance(result, tuple):  # (status, the whole answer): refused before the app
            self.refused = request_id_of(None)
            answer = refusal(result[0], self.refused)
            self.status, self.response_length = result[0], len(answer)
            with contextlib.suppress(OSError):  # the client may be gone already
                self.socket.sendall(answer)
            self.time_finish = time.time()
            self.log_request()
            self.linger()
            return None  # the connection closes
        if result is None and (getattr(self, "code", None) or 0) >= 400:
            self.linger()  # a refused body may be left unread (a Content-Length that lied)
        return result

    def _handle_client_error(self, ex: Exception):  # type: ignore[no-untyped-def]
        # gevent writes the client's address and its request line (which may hold a ``?key=``)
        # to standard error in plain text. The refusal's JSON access-log line is the record; an
        # error no client could cause is logged by its class, its text scrubbed (api.logs).
        if not isinstance(ex, CLIENT_ERRORS):
            log.error("a request could not be read: %s", type(ex).__name__, exc_info=ex)
        return ("400", b"")

    def _log_error(self, t, v, tb) -> None:  # type: ignore[no-untyped-def]
        # An error that escaped the app: gevent prints it in plain text; here it is a JSON line
        # like every other, scrubbed of addresses (api.logs).
        if not issubclass(t, gevent.GreenletExit):
            log.error("an error escaped the app: %s", t.__name__, exc_info=(t, v, tb))

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
    """``gevent_pywsgi`` with the idle timeout of gunicorn's ``keepalive`` setting, the bounds on
    a request's head and body (``ROADS_HEAD_TIMEOUT``, ``ROADS_BODY_TIMEOUT``), JSON refusals,
    and a drain on SIGTERM."""

    def init_process(self) -> None:
        # The app's own settings (read from the environment with the rest); an app that is not
        # the service (the benchmarks' bare one) gets the defaults.
        app = self.app.wsgi()  # loaded already: gunicorn.conf.py preloads it
        settings = getattr(app, "extensions", {}).get("roads.settings") or Settings()
        self.wsgi_handler = type(
            "Handler",
            (IdleClosingHandler,),
            {
                "keepalive": float(self.cfg.keepalive),
                "head_timeout": settings.head_timeout,
                "body_timeout": settings.body_timeout,
                "idle": weakref.WeakSet(),
            },
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
