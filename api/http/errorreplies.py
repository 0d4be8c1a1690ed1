"""JSON errors for every failure: one shape (:class:`api.http.responses.ErrorSchema`), the reason
named, standard headers kept (``Allow`` on 405, ``WWW-Authenticate`` on 401). Which status each
exception of the storage layer and the domain answers is said once, in :data:`STATUS`."""

from __future__ import annotations

from typing import Any

from flask import Flask, request
from flask_smorest import Api
from werkzeug.exceptions import HTTPException, default_exceptions

from api.admission import Busy as ReadersBusy
from api.http.archive import archive_path
from api.http.responses import ErrorSchema
from api.http.traffic import HEADER as REQUEST_ID_HEADER
from api.logs import scrubbed
from api.metrics import UNAVAILABLE
from api.record.database import UNREACHABLE, RecordBusy, RecordUnavailable
from api.storage.coldshoes import RecordTampered
from api.storage.failures import (
    REFUSED,
    STORE_UNAVAILABLE,
    Contended,
    NotFound,
    NotReplicated,
    Retired,
)
from api.storage.paytablestore import UnknownPayTable
from api.writes.refusals import Conflict
from roads import RoadsError, RoundError, RuleError, ShoeError

# Headers of werkzeug's own exceptions worth passing on.
_KEPT_HEADERS = ("Allow", "WWW-Authenticate", "Retry-After")


class RoadsApi(Api):
    """flask-smorest's Api with richer error payloads."""

    ERROR_SCHEMA = ErrorSchema

    def handle_http_exception(self, error: HTTPException) -> tuple[dict[str, Any], int, dict]:
        payload, code, headers = super().handle_http_exception(error)
        headers = dict(headers or {})
        for name, value in error.get_headers():
            if name in _KEPT_HEADERS:
                headers.setdefault(name, value)
        data = getattr(error, "data", None) or {}
        if "message" not in payload:
            errors = payload.get("errors")
            payload["message"] = _summary(errors) if errors else error.description or error.name
        for key, value in data.items():
            if key not in ("message", "errors", "messages", "headers", "exc", "schema"):
                payload[key] = value
        payload["request_id"] = request.headers.get(REQUEST_ID_HEADER)
        return payload, code, headers


def _summary(errors: Any, path: str = "") -> str:
    """The first validation error as one line, naming where it is (``json.round: ...``)."""
    if isinstance(errors, dict):
        for key, value in errors.items():
            where = key if key == "_schema" else f"{path}.{key}" if path else str(key)
            return _summary(value, "" if key == "_schema" else where)
    if isinstance(errors, list) and errors:
        return _summary(errors[0], path)
    text = str(errors)
    return f"{path}: {text}" if path else text


# (exception, status, message or None for the exception's own, the cause a 503 is counted
# under); the first that matches answers. A store's 503 says a fixed message: a store client's
# own text is for no one outside (the log line keeps its class, scrubbed: api.logs). A request
# that breaks its schema is a 400 (flask-smorest answers it before any of these); one the
# schema admits but the game's rules refuse (the drawing rules, totals against the result) is a
# 422; one that contradicts what the shoe already holds (a 9th copy of a card in 8 decks) is a
# 409, like a round out of turn.
STATUS: tuple[tuple[type[Exception], int, str | None, str | None], ...] = (
    (RuleError, 422, None, None),
    (RoundError, 422, None, None),
    (ShoeError, 409, None, None),
    (RoadsError, 400, None, None),
    (NotFound, 404, None, None),
    (Conflict, 409, None, None),
    (Contended, 503, None, "contention"),
    (NotReplicated, 503, None, "not_replicated"),
    (ReadersBusy, 503, None, "readers_busy"),
    (RecordBusy, 503, None, "record_busy"),
    # Said in the record's own fixed words, never psycopg's (host, port, user: docs/security.md).
    (RecordUnavailable, 503, UNREACHABLE, "record_down"),
    (RecordTampered, 409, None, None),  # a shoe whose record fails its chain: never served
    (UnknownPayTable, 503, None, "paytable_missing"),
    *((kind, 503, message, cause) for kind, message, cause in STORE_UNAVAILABLE),
    (REFUSED, 400, None, None),
)


def status_of(error: Exception) -> int:
    """The status a request failing with ``error`` answers (400 for anything unlisted)."""
    return next((status for kind, status, _, _ in STATUS if isinstance(error, kind)), 400)


def register(app: Flask, api: RoadsApi) -> None:
    """Map the storage layer's and the domain's exceptions to HTTP answers."""

    def answer(error: Exception):
        kind, status, message, cause = next(e for e in STATUS if isinstance(error, e[0]))
        if cause is not None:
            UNAVAILABLE.labels(cause).inc()
        exception = default_exceptions[status]()
        details = error.details if isinstance(error, Conflict) else {}
        headers = {"Retry-After": "1"} if status == 503 else {}
        text = message or (error.message if isinstance(error, Conflict) else str(error))
        if kind is REFUSED:  # (not a subclass listed before it: out of memory is a 503)
            said = scrubbed(str(error))  # Redis's own words, without an address
            text = f"the round store (Redis) refused an argument of this request: {said}"
        if isinstance(error, Retired):
            details = {"archive": archive_path(error.table)}
            text = f"{text}; its shoes and rounds are kept at {details['archive']}"
        exception.data = {"message": text, "headers": headers, **details}
        return api.handle_http_exception(exception)

    for kind, *_ in STATUS:
        app.register_error_handler(kind, answer)
