"""JSON errors for every failure: one shape (:class:`api.schemas.ErrorSchema`), the reason named,
standard headers kept (``Allow`` on 405, ``WWW-Authenticate`` on 401)."""

from __future__ import annotations

from typing import Any

import redis
from flask import Flask
from flask_smorest import Api
from werkzeug.exceptions import HTTPException, default_exceptions

from api.schemas import ErrorSchema
from api.store import Conflict, Contended, NotFound, NotReplicated
from roads import RoadsError

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


def register(app: Flask, api: RoadsApi) -> None:
    """Map the store's and the domain's exceptions to HTTP answers."""

    def answer(code: int, message: str, headers: dict[str, str] | None = None, **extra: Any):
        error = default_exceptions[code]()
        error.data = {"message": message, "headers": headers or {}, **extra}
        return api.handle_http_exception(error)

    @app.errorhandler(RoadsError)
    def bad_round(error: RoadsError):
        return answer(400, str(error))

    @app.errorhandler(NotFound)
    def not_found(error: NotFound):
        return answer(404, str(error))

    @app.errorhandler(Conflict)
    def conflict(error: Conflict):
        return answer(409, error.message, **error.details)

    @app.errorhandler(Contended)
    def contended(error: Contended):
        return answer(503, str(error), {"Retry-After": "1"})

    @app.errorhandler(NotReplicated)
    def not_replicated(error: NotReplicated):
        return answer(503, str(error), {"Retry-After": "1"})

    @app.errorhandler(redis.exceptions.ConnectionError)
    @app.errorhandler(redis.exceptions.TimeoutError)
    def redis_down(error: Exception):
        message = "the round store (Redis) is unreachable; retry shortly"
        return answer(503, message, {"Retry-After": "1"})

    # A Redis Cluster failing over: a master is down, a slot moves, a replica is read-only
    # until it is promoted. All pass within seconds; the client's retry is safe.
    @app.errorhandler(redis.exceptions.ClusterError)
    @app.errorhandler(redis.exceptions.RedisClusterException)
    @app.errorhandler(redis.exceptions.TryAgainError)
    @app.errorhandler(redis.exceptions.ReadOnlyError)
    @app.errorhandler(redis.exceptions.AskError)
    def cluster_changing(error: Exception):
        message = "the round store (Redis Cluster) is failing over; retry shortly"
        return answer(503, message, {"Retry-After": "1"})
