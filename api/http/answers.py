"""What the views share: the app's services, ETags, and JSON answers built through the read cache
(:mod:`api.storage.readcache`)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

from flask import Response, current_app, request
from werkzeug.routing import BaseConverter

from api.codecs.roundfacts import GAME_ID_CHARS
from api.http.hotreads import mark
from api.http.requests import ID_PATTERN
from api.services import Services
from roads import Scorecard


class IdConverter(BaseConverter):
    """Table and shoe ids: ``^[A-Za-z0-9_-]{1,64}$``; anything else is not a route (404), so no
    key is ever built from raw input."""

    regex = ID_PATTERN


class GameIdConverter(BaseConverter):
    """A game id (:data:`api.codecs.roundfacts.GAME_ID_PATTERN`); anything else is not a
    route (404)."""

    regex = GAME_ID_CHARS + "{1,64}"


def services() -> Services:
    return current_app.extensions["roads"]


def etag_of(*parts: object) -> str:
    """A strong ETag value for a representation identified by ``parts`` (table, shoe, version,
    what is shown)."""
    return hashlib.sha1("\x1f".join(map(str, parts)).encode()).hexdigest()[:24]


# flask-compress gives a compressed answer the ETag ``VALUE:ENCODING`` (one per encoding).
ENCODED = ("", ":zstd", ":br", ":gzip", ":deflate")


def held_tag(etag: str) -> str | None:
    """The ETag the client holds of this representation, in whichever encoding it got it
    (``If-None-Match``), or ``None``."""
    if "If-None-Match" not in request.headers:
        return None
    return next((etag + e for e in ENCODED if etag + e in request.if_none_match), None)


def held(etag: str) -> bool:
    """Whether the client already holds this representation, in any encoding."""
    return held_tag(etag) is not None


def not_modified(etag: str) -> Response | None:
    """A 304 when the client already holds this representation."""
    if held(etag):
        return unchanged(etag)
    return None


def unchanged(etag: str) -> Response:
    """A 304 naming the ETag the client holds (the encoded one, when it got it compressed)."""
    response = Response(status=304)
    response.set_etag(held_tag(etag) or etag)
    return response


def json_response(body: bytes, etag: str) -> Response:
    response = Response(body, mimetype="application/json")
    response.set_etag(etag)
    # Clients may keep it but must ask again (cheaply, with If-None-Match) before using it.
    response.headers["Cache-Control"] = "no-cache"
    return response


def dumps(payload: Any) -> bytes:
    return json.dumps(payload, separators=(",", ":")).encode()


def shoe_read(
    table: str,
    shoe: str,
    name: str,
    build: Callable[[int, Scorecard], bytes],
    *,
    shared: bool = True,
) -> tuple[int, str, bytes | None]:
    """The answer ``name`` of the shoe, found or built once by the read cache: its version, its
    ETag, and its bytes, or ``None`` when the client holds it already (answer 304). The ETag of
    a version is made once, for both the client's check and the answer. ``shared``: whether the
    answer is cached in Redis for every process (see :meth:`ReadCache.get_or_build`)."""
    etags: dict[int, str] = {}

    def etag(version: int) -> str:
        if version not in etags:
            etags[version] = etag_of(table, shoe, version, name)
        return etags[version]

    answer = services().reads.get_or_build(
        table, shoe, name, build, held=lambda version: held(etag(version)), shared=shared
    )
    mark(table, shoe, answer.version, name.partition(":")[0])
    return answer.version, etag(answer.version), answer.body


def shoe_answer(
    table: str, shoe: str, name: str, build: Callable[[Scorecard], dict[str, Any]]
) -> Response:
    """Answer a JSON read of one shoe: 304 if the client is current, else the body ``build``
    makes of the shoe's scorecard at its version (see :func:`shoe_read`)."""

    def body_of(version: int, scorecard: Scorecard) -> bytes:
        return dumps({"table": table, "shoe": shoe, "version": version, **build(scorecard)})

    _, etag, body = shoe_read(table, shoe, name, body_of)
    return unchanged(etag) if body is None else json_response(body, etag)


def history_answer(table: str, shoe: str, *, archived: bool = False) -> Response:
    """A shoe's history (a retired table's from the archive), or 304 when the client has it."""
    version, records = services().rounds.shoe_rounds(table, shoe, archived=archived)
    etag = etag_of(table, shoe, version, "archived-rounds" if archived else "rounds")
    unchanged = not_modified(etag)
    if unchanged is not None:
        return unchanged
    body = {"table": table, "shoe": shoe, "version": version, "rounds": records}
    return json_response(dumps(body), etag)
