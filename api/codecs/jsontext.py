"""The JSON encoder and decoder of the service's stored and streamed formats: orjson (compact
output, UTF-8, and :class:`Fragment` to embed a stored JSON value whole, without decoding it
first). A request's body is decoded by :mod:`api.codecs.requestbody` (the standard library's
decoder, for its hooks); the ingest answers (the stored record, as stored) are encoded here, and
the other views' answers by :func:`api.http.answers.dumps` (the standard library's ``json``)."""

from __future__ import annotations

from typing import Any

import orjson

Fragment = orjson.Fragment
JSONDecodeError = orjson.JSONDecodeError


def dumps(value: Any) -> bytes:
    """``value`` as compact JSON (no spaces), UTF-8."""
    return orjson.dumps(value)


def dumps_text(value: Any) -> str:
    """:func:`dumps` as a string (for Redis arguments and SSE text)."""
    return orjson.dumps(value).decode()


def loads(text: bytes | str) -> Any:
    return orjson.loads(text)
