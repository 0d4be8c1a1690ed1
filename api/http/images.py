"""Rendered scorecards: PNGs of every road and the classic composite, cached per version."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from flask import Response, request
from flask_smorest import Blueprint, abort

from api.http.answers import held, services, shoe_read, unchanged
from api.http.catalogues import catalogue
from api.http.hotreads import mark
from api.http.parsing import QueryMemoParser
from api.http.requests import ImageQuerySchema
from api.http.responses import ErrorSchema
from api.http.roads import current_shoe
from api.images.fonts import can_draw
from api.images.scene import MAX_PIXELS, Bead, new_cells_of, picture_scene, picture_size
from roads import Scorecard

blp = Blueprint("images", __name__, description="Scorecards as PNG images.")
blp.ARGUMENTS_PARSER = QueryMemoParser()

PICTURES = "bead_plate,big_road,big_eye_boy,small_road,cockroach_road,scorecard"
PNG_CONTENT = {"image/png": {"schema": {"type": "string", "format": "binary"}}}
TOO_LARGE = (
    f"cols and scale together ask for a picture over {MAX_PIXELS // 1_000_000} megapixels: "
    "lower one of them."
)


def png_response(body: bytes, etag: str) -> Response:
    # Headers given whole: this is the hottest answer of a busy lobby.
    headers = [("Content-Type", "image/png"), ("ETag", f'"{etag}"'), ("Cache-Control", "no-cache")]
    return Response(body, headers=headers)


def painter(road: str, query: dict) -> Callable[[int, Scorecard], bytes]:
    """What draws ``road`` as the query asks, from a scorecard."""

    def draw(version: int, scorecard: Scorecard) -> bytes:
        # A painter's place first: a picture refused (503) costs no work at all.
        with services().painters.slot() as paint:
            shape = scorecard.as_dict()
            new_cells = None
            ask = query.get("ask")
            if ask is not None:
                preview = scorecard.preview(ask).as_dict()
                new_cells, shape = new_cells_of(shape, preview), preview
            options = {
                "cols": query.get("cols"),
                "theme": query["theme"],
                "scale": query["scale"],
                "bead": Bead(query["bead"], letters_of(query["lang"])),
                "new_cells": new_cells,
            }
            return paint(picture_scene(shape, road, **options))

    return draw


def letters_of(lang: str) -> tuple[tuple[str, str], ...]:
    """The Bead Plate's letter for each result in ``lang`` (the page's catalogue), or B/P/T when
    this host has no font for that language's letters (:mod:`api.images.fonts`)."""
    letters = tuple((side, catalogue(lang)[f"side.{side}.short"]) for side in "BPT")
    return letters if all(can_draw(letter) for _, letter in letters) else Bead().letters


# The pictures a lobby embeds (the columns of its tiles and table view, at 1x and 2x, either
# theme, any preview, the Bead Plate in any catalogue's letters; the lobby page itself draws SVG
# from data since clients/js, and asks for none): cached in Redis
# for every process. Any other variant is kept in a process's own bounded memory only, so no
# reader can grow Redis: a shoe holds at most 960 such pictures of about 5 KB, each with its TTL
# (docs/operations.md, "Memory no reader controls").
CANONICAL_COLS = (None, 10, 14, 16, 24)
CANONICAL_SCALES = (1.0, 2.0)


def is_canonical(query: dict) -> bool:
    return (
        query.get("cols") in CANONICAL_COLS
        and query["scale"] in CANONICAL_SCALES
        and query["bead"] == "letters"
    )


def image_answer(table: str, shoe: str, road: str, query: dict) -> Response:
    cols, scale, ask = query.get("cols"), query["scale"], query.get("ask")
    width, height = picture_size(road, cols, scale)
    if width * height > MAX_PIXELS:
        abort(422, message=f"a {width}x{height} picture is too large; lower cols or scale")
    # Only the Bead Plate has letters: other pictures are the same in every language.
    lang = query["lang"] if road in ("bead_plate", "scorecard") else "en"
    name = f"png:{road}:{cols or '-'}:{query['theme']}:{scale:g}:{query['bead']}:{ask or '-'}"
    name += f":{lang}" if lang != "en" else ""
    shared = is_canonical(query)
    version, etag, body = shoe_read(table, shoe, name, painter(road, query), shared=shared)
    if body is None:
        return unchanged(etag)
    # Remember the answer for this exact URL too (see served_from_recent).
    services().picture_urls.put((table, shoe, road, request.query_string, version), (etag, body))
    return png_response(body, etag)


def served_from_recent(view):
    """Answer a picture this process served lately for this exact URL at the shoe's current
    version, when this process knows that version for sure (:mod:`api.live.versions`), before
    the query is even parsed; otherwise run the view (which validates the query, goes through
    the read cache and remembers its answer under the same key). The raw query string is only a
    key into this process's memory, and only answers to valid queries are ever stored under it."""

    @wraps(view)
    def serve(*args, table: str, road: str, shoe: str | None = None, **kwargs):
        shoe_id = shoe if shoe is not None else services().tables.current_shoe(table)
        version = services().versions.get(table, shoe_id) if shoe_id is not None else None
        if version is not None:
            hit = services().picture_urls.get((table, shoe_id, road, request.query_string, version))
            if hit is not None:
                etag, body = hit
                mark(table, shoe_id, version, None)
                return unchanged(etag) if held(etag) else png_response(body, etag)
        return view(*args, table=table, road=road, shoe=shoe_id, **kwargs)

    return serve


@blp.route(f"/v1/tables/<id:table>/shoes/<id:shoe>/roads/<any({PICTURES}):road>.png")
@blp.route(f"/v1/tables/<id:table>/roads/<any({PICTURES}):road>.png", endpoint="table_image")
@served_from_recent
@blp.arguments(ImageQuerySchema(), location="query", error_status_code=400)
@blp.doc(responses={"200": {"description": "The picture, PNG.", "content": PNG_CONTENT}})
@blp.alt_response(422, schema=ErrorSchema, description=TOO_LARGE)
def image(query, table, road, shoe=None):
    """A road as a PNG picture.

    One road, or ``scorecard``, the classic composite, of a shoe or of the table's current
    shoe."""
    if shoe is None:
        shoe = current_shoe(table)
    return image_answer(table, shoe, road, query)
