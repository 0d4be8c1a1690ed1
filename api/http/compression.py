"""Compressed answers, with flask-compress: zstd, br or gzip as the client accepts, for JSON, the
API document and the files of ``static/``; never PNGs (compressed already) nor the event stream
(each event must leave at once). Each encoding has its own ETag (``VALUE:gzip``), and an
``If-None-Match`` of any of them gets its 304 (:func:`api.http.answers.held_tag`).

An answer that is the same for many clients, the lobby's above all (600 KB for 1,000 tables, and
4.7 ms to gzip against 0.3 ms to answer from memory), is compressed once per encoding and kept:
a view names it with :func:`keep_compressed`, and flask-compress's cache (its
``COMPRESS_CACHE_BACKEND`` and ``COMPRESS_CACHE_KEY``) keeps only what is named. Every other
answer is compressed afresh.
"""

from __future__ import annotations

from flask import Flask, Request, Response, g, request
from flask_compress import Compress

from api.http.answers import held, unchanged
from api.storage.memo import Memo

# The endpoints that send a file: the pages and their scripts, styles and pictures, and the
# JavaScript client's modules.
FILES = frozenset({"static", "pages.lobby", "pages.reference", "pages.client_module"})


def keep_compressed(name: str) -> None:
    """Keep this request's answer compressed under ``name`` (one entry per encoding): the name
    must say everything the answer's bytes depend on, a version or a cursor among them."""
    g.roads_compressed_as = name


def _name_of(request: Request) -> str:
    return g.get("roads_compressed_as", "")


class Kept:
    """flask-compress's cache, keyed ``ENCODING;NAME``: only named answers are kept (an unnamed
    one's key ends at the ``;``), at most ``max_bytes`` of them, the least used first out."""

    def __init__(self, max_bytes: int = 16 * 1024 * 1024) -> None:
        self.memo = Memo(max_bytes)

    def get(self, key: str) -> bytes | None:
        return None if key.endswith(";") else self.memo.get(key)

    def set(self, key: str, value: bytes) -> None:
        if not key.endswith(";"):
            self.memo.put(key, value)


def install(app: Flask) -> None:
    """Compress ``app``'s answers as above."""
    app.config.update(
        COMPRESS_STREAMS=False,
        COMPRESS_CACHE_BACKEND=Kept,
        COMPRESS_CACHE_KEY=_name_of,
    )
    Compress(app)
    # Registered after Compress: Flask runs the after_request functions last registered first.
    app.after_request(_read_files_whole)


def _read_files_whole(response: Response) -> Response:
    """A file of ``static/`` is sent streamed, which flask-compress leaves alone: read it whole so
    it is compressed (and kept, by its ETag), after a 304 for a client holding it in any
    encoding (its ETag then ends ``:gzip``, which the file's own check cannot match)."""
    if request.endpoint not in FILES or not response.direct_passthrough:
        return response
    etag, _ = response.get_etag()
    if etag is not None and held(etag):
        return unchanged(etag)
    response.direct_passthrough = False
    response.set_data(response.get_data())
    if etag is not None:
        keep_compressed(f"file:{request.path}:{etag}")
    return response
