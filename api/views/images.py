"""Rendered scorecards: PNGs of every road and the classic composite, cached per version."""

from __future__ import annotations

import time
from functools import wraps

from flask import Response, request
from flask_smorest import Blueprint, abort

from api.images.paint import paint
from api.images.scene import (
    MAX_PIXELS,
    new_cells_of,
    picture_size,
    road_scene,
    scorecard_scene,
)
from api.parsing import QueryMemoParser
from api.schemas import ImageQuerySchema
from api.store import NotFound
from api.views.common import etag_of, not_modified, store
from api.views.roads import current_shoe

blp = Blueprint("images", __name__, description="Scorecards as PNG images.")
blp.ARGUMENTS_PARSER = QueryMemoParser()

PICTURES = "bead_plate,big_road,big_eye_boy,small_road,cockroach_road,scorecard"
LOCK_MS = 2000  # the single-flight lock outlives any render
WAIT_SECONDS = 1.0  # how long the others wait for the renderer's bytes before drawing themselves
POLL_SECONDS = 0.02


def png_response(body: bytes, etag: str) -> Response:
    # Headers given whole: this is the hottest answer of a busy lobby.
    headers = [("Content-Type", "image/png"), ("ETag", f'"{etag}"'), ("Cache-Control", "no-cache")]
    return Response(body, headers=headers)


def image_answer(table: str, shoe: str, road: str, query: dict) -> Response:
    cols, scale = query.get("cols"), query["scale"]
    width, height = picture_size(road, cols, scale)
    if width * height > MAX_PIXELS:
        abort(400, message=f"a {width}x{height} picture is too large; lower cols or scale")
    ask = query.get("ask")
    name = f"png:{road}:{cols or '-'}:{query['theme']}:{scale:g}:{query['bead']}:{ask or '-'}"

    # Every request checks the shoe's version (a tiny read), so no stale picture is ever served;
    # the bytes come from this process's cache, else Redis, else a render.
    version = store().version(table, shoe)
    etag = etag_of(table, shoe, version, name)
    unchanged = not_modified(etag)
    if unchanged is not None:
        return unchanged
    body = store().pictures.get((table, shoe, name, version))
    if body is not None:
        return remembered(table, shoe, road, version, etag, body)
    now, cached = store().cached(table, shoe, name)
    if (
        cached is None
        and now == version
        and not store().claim_render(table, shoe, name, version, LOCK_MS)
    ):
        # Another request is drawing this picture: wait briefly for its bytes.
        deadline = time.monotonic() + WAIT_SECONDS
        while cached is None and now == version and time.monotonic() < deadline:
            time.sleep(POLL_SECONDS)
            now, cached = store().cached(table, shoe, name)
    if cached is not None:
        store().pictures.put((table, shoe, name, now), cached)
        return remembered(table, shoe, road, now, etag_of(table, shoe, now, name), cached)

    version, scorecard = store().scorecard(table, shoe)
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
    if road == "scorecard":
        scene = scorecard_scene(shape, **options)
    else:
        scene = road_scene(shape, road, **options)
    body = paint(scene)
    store().put_cached(table, shoe, name, version, body)
    store().pictures.put((table, shoe, name, version), body)
    return remembered(table, shoe, road, version, etag_of(table, shoe, version, name), body)


def remembered(table: str, shoe: str, road: str, version: int, etag: str, body: bytes):
    """Answer with the picture and remember it for this exact URL at this version."""
    store().picture_urls.put((table, shoe, road, request.query_string, version), (etag, body))
    return png_response(body, etag)


PNG_CONTENT = {"image/png": {"schema": {"type": "string", "format": "binary"}}}


def served_from_recent(view):
    """Answer a picture this process served lately for this exact URL at the shoe's current
    version, before the query is even parsed; otherwise run the view (which validates the query
    and remembers its answer under the same key). The raw query string is only a key into this
    process's memory, and only answers to valid queries are ever stored under it."""

    @wraps(view)
    def serve(*args, table: str, shoe: str | None = None, road: str, **kwargs):
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
        if shoe is not None:
            kwargs["shoe"] = shoe
        return view(*args, table=table, road=road, **kwargs)

    return serve


@blp.route(f"/v1/tables/<id:table>/shoes/<id:shoe>/roads/<any({PICTURES}):road>.png")
@served_from_recent
@blp.arguments(ImageQuerySchema(), location="query", error_status_code=400)
@blp.doc(responses={"200": {"description": "The picture, PNG.", "content": PNG_CONTENT}})
def shoe_image(query, table, shoe, road):
    """A road of a shoe as a PNG, or ``scorecard`` for the classic composite."""
    return image_answer(table, shoe, road, query)


@blp.route(f"/v1/tables/<id:table>/roads/<any({PICTURES}):road>.png")
@served_from_recent
@blp.arguments(ImageQuerySchema(), location="query", error_status_code=400)
@blp.doc(responses={"200": {"description": "The picture, PNG.", "content": PNG_CONTENT}})
def table_image(query, table, road):
    """A road of the table's current shoe as a PNG (same options)."""
    return image_answer(table, current_shoe(table), road, query)
