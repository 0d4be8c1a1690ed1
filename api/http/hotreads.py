"""The hottest reads answered before Flask: a shoe's roads document and its pictures, when this
process answered the same request at the shoe's same version lately.

A lobby asks for the same few answers again and again (every viewer of a table, every few
seconds), and the framework's layers (routing, the request context, the schemas, compression
and CORS hooks) cost more than the answer itself, which the read cache holds already. So the
first answer to a request goes through the whole app, which marks it (:func:`mark`) with the
shoe and version it was read at; :class:`HotReads` keeps that answer whole, status, headers and
body as the app made them, and answers the same request again with them while this process
knows the shoe is at that version (:mod:`api.live.versions`, kept by pub/sub, as the read
cache's own memory is). The same request: the same path and query, and the same value of every
header an answer depends on (:data:`VARYING`: compression, CORS, the held ETag, the keys). So
every header, ETag, CORS and compression rule holds exactly: they are the app's own answer.

Kept answers are bounded by their total size (a hostile client varying a header only fills and
churns the bound); request ids, the access log and the request metrics stay around it, in
:mod:`api.http.traffic`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from flask import request

from api.http.traffic import ROUTE, TABLE
from api.metrics import read_cache
from api.storage.known import KnownVersions
from api.storage.memo import Memo

HOT = "roads.hot"  # the environ key the app marks a hot answer with
PATHS = re.compile(r"^/v1/tables/[^/]+(?:/shoes/[^/]+)?/roads(?:/[a-z_]+\.png)?$")
# Every request header an answer of these routes depends on (flask-compress, CORS, the ETag a
# client holds, the read keys), as WSGI names them.
VARYING = (
    "HTTP_ACCEPT_ENCODING",
    "HTTP_ORIGIN",
    "HTTP_IF_NONE_MATCH",
    "HTTP_X_API_KEY",
    "HTTP_AUTHORIZATION",
)
KEPT_STATUSES = ("200 OK", "304 NOT MODIFIED")
MAX_BYTES = 16 * 1024 * 1024
MAX_KEY = 1024  # characters of path, query and headers: the keys stay small beside the answers


def mark(table: str, shoe: str, version: int, kind: str | None) -> None:
    """Say that this request's answer is the shoe's at ``version`` (``kind``: the read cache's
    kind of it, ``None`` when the app did not count it there), so :class:`HotReads` may keep
    it."""
    request.environ[HOT] = (table, shoe, version, kind)


@dataclass(frozen=True, slots=True)
class Kept:
    """An answer as the app made it, and what it was read at."""

    table: str
    shoe: str
    version: int
    current: str  # the table's current shoe then
    kind: str | None  # the read cache's kind of answer (None: the app did not count it)
    route: str
    status: str
    headers: tuple[tuple[str, str], ...]
    body: bytes

    def __len__(self) -> int:  # its size, for the memo's bound
        return len(self.body) + 512


class HotReads:
    """The WSGI middleware (see the module doc) in front of the Flask app ``app``."""

    def __init__(self, app: Callable, versions: KnownVersions, max_bytes: int = MAX_BYTES) -> None:
        self.app = app
        self.versions = versions
        self.kept = Memo(max_bytes)

    def __call__(self, environ: dict[str, Any], start_response: Callable) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") != "GET" or not PATHS.match(environ.get("PATH_INFO", "")):
            return self.app(environ, start_response)
        key = (
            environ.get("PATH_INFO"),
            environ.get("QUERY_STRING", ""),
            *(environ.get(name) for name in VARYING),
        )
        if sum(len(part) for part in key if part) > MAX_KEY:  # not a lobby's: not kept
            return self.app(environ, start_response)
        kept = self.kept.get(key)
        if kept is not None and self._current(kept):
            environ[ROUTE], environ[TABLE] = kept.route, kept.table
            if kept.kind is not None:  # counted as the read cache counts the app's answer
                read_cache(kept.kind, "held" if kept.status.startswith("304") else "memory").inc()
            start_response(kept.status, list(kept.headers))
            return [kept.body]
        return self._through(environ, start_response, key)

    def _current(self, kept: Kept) -> bool:
        versions = self.versions
        return (
            versions.get(kept.table, kept.shoe) == kept.version
            and versions.current(kept.table) == kept.current
        )

    def _through(self, environ: dict[str, Any], start_response: Callable, key: tuple) -> Any:
        """The app's answer, kept when the app marked it and its status is one to keep."""
        answered: list[Any] = []

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            answered[:] = [status, headers]
            return start_response(status, headers, exc_info)

        body = self.app(environ, start)
        marked = environ.get(HOT)
        if marked is None or not answered or answered[0] not in KEPT_STATUSES:
            return body
        try:
            data = b"".join(body)
        finally:
            close = getattr(body, "close", None)
            if close is not None:
                close()
        table, shoe, version, kind = marked
        current = self.versions.current(table)
        if current is not None and self.versions.get(table, shoe) == version:
            headers = tuple(
                (name, value) for name, value in answered[1] if name.lower() != "x-request-id"
            )
            route = environ.get(ROUTE, "")
            kept = Kept(table, shoe, version, current, kind, route, answered[0], headers, data)
            self.kept.put(key, kept)
        return [data]
