"""Every request's id, access-log line and request metrics, kept by one WSGI middleware around
the Flask app (:class:`Traffic`), so they cover every answer: errors, 304s, compressed bodies
(counted as sent) and event streams (logged when they end).

- ``X-Request-ID``: the client's when it is a sane token (:data:`SANE_ID`), else a new one. It
  is echoed on every answer, set for the request's log lines (:data:`api.logs.REQUEST_ID`) and
  put in every JSON error body (:mod:`api.http.errorreplies`).
- The access log (the ``roads.access`` lines, on unless ``ROADS_ACCESS_LOG=0``): one JSON line
  a request with method, route, path, status, duration_ms, bytes, request_id, table when the
  route names one, and ``key``, the name of the valid API key it offered (never a secret: the
  path is logged without its query, where an event stream's ``?key=`` is), queued and written
  off the request path (:mod:`api.accesslog`).
- Metrics (:mod:`api.metrics`, on unless ``ROADS_REQUEST_METRICS=0``): requests by route
  template, method and status; latency by route.
"""

from __future__ import annotations

import functools
import re
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from flask import Flask, request

from api.accesslog import AccessLog
from api.logs import REQUEST_ID
from api.metrics import request_counted

HEADER = "X-Request-ID"
SANE_ID = re.compile(r"^[A-Za-z0-9._:+/=-]{1,128}$")
ROUTE = "roads.route"  # the environ keys the Flask app fills in for the middleware
TABLE = "roads.table"
KEY = "roads.key"  # the name of the request's valid key (api.http.auth)
METHODS = frozenset(("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"))
UNMATCHED = "unmatched"  # the route label of a request no route matched (404, 405)


def request_id_of(offered: str | None) -> str:
    """The id a request is known by: the client's ``X-Request-ID`` when it is a sane token (it
    is logged and echoed, so nothing else is taken), else a new random one."""
    if offered and SANE_ID.match(offered):
        return offered
    return uuid.uuid4().hex


@functools.cache  # one entry per route of the app
def route_label(rule: str) -> str:
    """A Flask rule as its route template: ``/v1/tables/<id:table>`` -> ``/v1/tables/{table}``."""
    return re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", rule)


class Traffic:
    """The WSGI middleware (see the module doc). ``log``: where the access log's lines go
    (``None``: off); ``metrics``: whether requests are counted."""

    def __init__(
        self, app: Callable, *, log: AccessLog | None = None, metrics: bool = True
    ) -> None:
        self.app = app
        self.log = log
        self.metrics = metrics

    def __call__(self, environ: dict[str, Any], start_response: Callable) -> Iterable[bytes]:
        started = time.perf_counter()
        request_id = request_id_of(environ.get("HTTP_X_REQUEST_ID"))
        environ["HTTP_X_REQUEST_ID"] = request_id
        status: list[str] = []

        def start(code: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Callable:
            status[:] = [code]
            headers = [(name, value) for name, value in headers if name.lower() != "x-request-id"]
            headers.append((HEADER, request_id))
            return start_response(code, headers, exc_info)

        REQUEST_ID.set(request_id)
        body = self.app(environ, start)

        def record(sent: int) -> None:
            code = status[0].split(" ", 1)[0] if status else "500"
            self._record(environ, code, time.perf_counter() - started, sent, request_id)

        return Counted(body, record)

    def _record(
        self, environ: dict[str, Any], status: str, seconds: float, sent: int, request_id: str
    ) -> None:
        method = environ.get("REQUEST_METHOD", "")
        route = environ.get(ROUTE, UNMATCHED)
        if self.metrics:
            # A client may send any method name; only the standard ones become label values.
            request_counted(route, method if method in METHODS else "other", status, seconds)
        if self.log is not None:
            fields = {
                "method": method,
                "route": route,
                "path": environ.get("PATH_INFO", ""),  # no query: a ?key= is never logged
                "status": int(status),
                "duration_ms": round(seconds * 1000, 3),
                "bytes": sent,
                "request_id": request_id,
            }
            if environ.get(TABLE):
                fields["table"] = environ[TABLE]
            if environ.get(KEY):
                fields["key"] = environ[KEY]
            self.log.write(fields)


class Counted:
    """An answer's body passed on as it is sent, counting its bytes; ``done(bytes)`` is called
    once, when the server closes it (after the last byte, or when the client went away)."""

    def __init__(self, body: Iterable[bytes], done: Callable[[int], None]) -> None:
        self.body = body
        self.done: Callable[[int], None] | None = done
        self.sent = 0

    def __iter__(self) -> Iterator[bytes]:
        for chunk in self.body:
            self.sent += len(chunk)
            yield chunk

    def close(self) -> None:
        try:
            close = getattr(self.body, "close", None)
            if close is not None:
                close()
        finally:
            done, self.done = self.done, None
            if done is not None:
                done(self.sent)


def install(app: Flask, *, log: AccessLog | None, metrics: bool = True) -> None:
    """Wrap ``app`` in :class:`Traffic`; the app names each request's route and table for it."""

    @app.before_request
    def name_the_route() -> None:
        rule = request.url_rule
        if rule is not None:
            request.environ[ROUTE] = route_label(rule.rule)
            table = (request.view_args or {}).get("table")
            if table is not None:
                request.environ[TABLE] = table

    app.wsgi_app = Traffic(app.wsgi_app, log=log, metrics=metrics)  # type: ignore[method-assign]
