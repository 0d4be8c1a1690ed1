"""What the views share: the store, ETags, and JSON answers that may come from the cache."""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from typing import Any

from flask import Response, current_app, request
from werkzeug.routing import BaseConverter

from api.schemas import ID_PATTERN
from api.store import Lookup, Store
from roads import Scorecard

LOCK_MS = 2000  # the single-flight claim outlives any build
WAIT_SECONDS = 1.0  # how long the others wait for the builder's bytes before building themselves
POLL_SECONDS = 0.02


class IdConverter(BaseConverter):
    """Table and shoe ids: ``^[A-Za-z0-9_-]{1,64}$``; anything else is not a route (404), so no
    key is ever built from raw input."""

    regex = ID_PATTERN


def store() -> Store:
    return current_app.extensions["roads.store"]


def etag_of(*parts: object) -> str:
    """A strong ETag value for a representation identified by ``parts`` (table, shoe, version,
    what is shown)."""
    return hashlib.sha1("\x1f".join(map(str, parts)).encode()).hexdigest()[:24]


def not_modified(etag: str) -> Response | None:
    """A 304 when the client already holds this representation."""
    if "If-None-Match" in request.headers and etag in request.if_none_match:
        response = Response(status=304)
        response.set_etag(etag)
        return response
    return None


def json_response(body: bytes, etag: str) -> Response:
    response = Response(body, mimetype="application/json")
    response.set_etag(etag)
    # Clients may keep it but must ask again (cheaply, with If-None-Match) before using it.
    response.headers["Cache-Control"] = "no-cache"
    return response


def dumps(payload: Any) -> bytes:
    return json.dumps(payload, separators=(",", ":")).encode()


def build_once(
    table: str, shoe: str, name: str, found: Lookup, build: Callable[[int, Scorecard], bytes]
) -> tuple[int, bytes]:
    """A response missing from the cache at ``found.version``: the request that claimed it
    builds it (from the scorecard the look-up brought, or the shoe's) while the others wait
    briefly for its bytes (single-flight), and it is cached for everyone. Returns (version
    built at, body)."""
    if not found.claimed:
        deadline = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < deadline:
            time.sleep(POLL_SECONDS)
            now, cached = store().cached(table, shoe, name)
            if cached is not None:
                return now, cached
            if now != found.version:
                break  # the shoe moved on: build the newer one here
    if found.claimed and found.scorecard is not None:
        version, scorecard = found.version, found.scorecard
    else:
        version, scorecard = store().scorecard(table, shoe)
    body = build(version, scorecard)
    store().put_cached(table, shoe, name, version, body)
    return version, body


def shoe_answer(
    table: str, shoe: str, name: str, build: Callable[[Scorecard], dict[str, Any]]
) -> Response:
    """Answer a JSON read of one shoe: 304 if the client is current, else the body built at the
    shoe's version: from this process's memory when it served it lately and knows the version
    without asking Redis (:mod:`api.versions`), from the Redis cache, or built once and cached.
    """
    known = store().versions.get(table, shoe)
    if known is not None:
        recent = store().responses.get((table, shoe, name, known))
        if recent is not None:
            return _answer(recent, etag_of(table, shoe, known, name))
    found = store().look_up(table, shoe, name, LOCK_MS)
    etag = etag_of(table, shoe, found.version, name)
    unchanged = not_modified(etag)
    if unchanged is not None:
        if found.claimed:
            store().release_claim(table, shoe, name)
        return unchanged
    if found.body is not None:
        store().responses.put((table, shoe, name, found.version), found.body)
        return json_response(found.body, etag)

    def body_of(version: int, scorecard: Scorecard) -> bytes:
        return dumps({"table": table, "shoe": shoe, "version": version, **build(scorecard)})

    version, body = build_once(table, shoe, name, found, body_of)
    store().responses.put((table, shoe, name, version), body)
    return json_response(body, etag_of(table, shoe, version, name))


def _answer(body: bytes, etag: str) -> Response:
    unchanged = not_modified(etag)
    return unchanged if unchanged is not None else json_response(body, etag)
