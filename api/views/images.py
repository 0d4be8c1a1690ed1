"""Rendered scorecards: PNGs of every road and the classic composite, cached per version."""

from __future__ import annotations

from functools import wraps

from flask import Response, request
from flask_smorest import Blueprint, abort

from api.images.paint import paint
from api.images.scene import MAX_PIXELS, new_cells_of, picture_scene, picture_size
from api.parsing import QueryMemoParser
from api.schemas import ImageQuerySchema
from api.store import NotFound
from api.views.common import LOCK_MS, build_once, etag_of, not_modified, store
from api.views.roads import current_shoe
from roads import Scorecard

blp = Blueprint("images", __name__, description="Scorecards as PNG images.")
blp.ARGUMENTS_PARSER = QueryMemoParser()

PICTURES = "bead_plate,big_road,big_eye_boy,small_road,cockroach_road,scorecard"
PNG_CONTENT = {"image/png": {"schema": {"type": "string", "format": "binary"}}}


def png_response(body: bytes, etag: str) -> Response:
    # Headers given whole: this is the hottest answer of a busy lobby.
    headers = [("Content-Type", "image/png"), ("ETag", f'"{etag}"'), ("Cache-Control", "no-cache")]
    return Response(body, headers=headers)


def image_answer(table: str, shoe: str, road: str, query: dict) -> Response:
    cols, scale, ask = query.get("cols"), query["scale"], query.get("ask")
    width, height = picture_size(road, cols, scale)
    if width * height > MAX_PIXELS:
        abort(400, message=f"a {width}x{height} picture is too large; lower cols or scale")
    name = f"png:{road}:{cols or '-'}:{query['theme']}:{scale:g}:{query['bead']}:{ask or '-'}"

    # Every request checks the shoe's version (known in this process, else a tiny read), so no
    # stale picture is ever served; the bytes come from this process's cache, else Redis, else
    # one render shared by everyone asking at once.
    version = store().version(table, shoe)
    etag = etag_of(table, shoe, version, name)
    unchanged = not_modified(etag)
    if unchanged is not None:
        return unchanged
    body = store().pictures.get((table, shoe, name, version))
    if body is None:
        found = store().look_up(table, shoe, name, LOCK_MS)
        version, body = found.version, found.body
        if body is None:

            def draw(version: int, scorecard: Scorecard) -> bytes:
                shape = scorecard.as_dict()
                new_cells = None
                if ask is not None:
                    preview = scorecard.preview(ask).as_dict()
                    new_cells, shape = new_cells_of(shape, preview), preview
                options = {
                    "cols": cols,
                    "theme": query["theme"],
                    "scale": scale,
                    "bead": query["bead"],
                    "new_cells": new_cells,
                }
                return paint(picture_scene(shape, road, **options))

            version, body = build_once(table, shoe, name, found, draw)
        store().pictures.put((table, shoe, name, version), body)
    etag = etag_of(table, shoe, version, name)
    # Remember the answer for this exact URL too (see served_from_recent).
    store().picture_urls.put((table, shoe, road, request.query_string, version), (etag, body))
    return png_response(body, etag)


def served_from_recent(view):
    """Answer a picture this process served lately for this exact URL at the shoe's current
    version, before the query is even parsed; otherwise run the view (which validates the query
    and remembers its answer under the same key). The raw query string is only a key into this
    process's memory, and only answers to valid queries are ever stored under it."""

    @wraps(view)
    def serve(*args, table: str, road: str, shoe: str | None = None, **kwargs):
        shoe_id = shoe if shoe is not None else store().current_shoe(table)
        if shoe_id is not None:
            try:
                version = store().version(table, shoe_id)
            except NotFound:
                version = None
            hit = store().picture_urls.get((table, shoe_id, road, request.query_string, version))
            if hit is not None:
                etag, body = hit
                unchanged = not_modified(etag)
                return unchanged if unchanged is not None else png_response(body, etag)
        return view(*args, table=table, road=road, shoe=shoe_id, **kwargs)

    return serve


@blp.route(f"/v1/tables/<id:table>/shoes/<id:shoe>/roads/<any({PICTURES}):road>.png")
@blp.route(f"/v1/tables/<id:table>/roads/<any({PICTURES}):road>.png", endpoint="table_image")
@served_from_recent
@blp.arguments(ImageQuerySchema(), location="query", error_status_code=400)
@blp.doc(responses={"200": {"description": "The picture, PNG.", "content": PNG_CONTENT}})
def image(query, table, road, shoe=None):
    """A road as a PNG (or ``scorecard``, the classic composite), of a shoe or of the table's
    current shoe."""
    if shoe is None:
        shoe = current_shoe(table)
    return image_answer(table, shoe, road, query)
