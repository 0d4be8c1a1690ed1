"""The live event feed for lobby clients (Server-Sent Events): the request parsed, the feed
asked of the process's feed service (:mod:`api.live.feedservice`, which chooses how it is
delivered), its delivery answered."""

from __future__ import annotations

from flask import Response, request
from flask_smorest import Blueprint, abort

from api.codecs.feedevents import is_event_id
from api.http.answers import services
from api.http.auth import reads_odds
from api.http.requests import EventsQuerySchema, LobbyFrameQuerySchema
from api.live.eventhub import BAD_EVENT_ID
from api.live.feedservice import FeedAsk, FeedFull

blp = Blueprint("events", __name__, description="Live events for lobby clients (SSE).")

EVENT_TYPES = "frame; on a table channel round, shoe, correction, void, good_road, edge, retired"


@blp.route("/v1/events")
@blp.arguments(EventsQuerySchema(), location="query", error_status_code=400)
@blp.doc(
    responses={
        "200": {
            "description": "A ``text/event-stream``: events "
            f"({EVENT_TYPES}), each with its stream id as ``id:``; ``reset`` when the events "
            "after ``Last-Event-ID`` are no longer kept (reload); a comment every 15 s keeps "
            "the connection open.",
            "content": {"text/event-stream": {"schema": {"type": "string"}}},
        }
    }
)
def events(query):
    """Live events for lobby clients (Server-Sent Events).

    The lobby (no ``tables``) in frames: a full ``frame`` first, every tile as ``GET /v1/tables``
    answers it (none with ``snapshot=0``), then at most one ``frame`` every ``ROADS_FRAME_MS``
    with what changed per table; a client at a frame no longer kept gets the whole lobby again.
    A table channel (``?tables=a,b``): each event of those tables, ``round``, ``shoe``,
    ``correction``, ``void``, ``good_road``, ``edge`` and ``retired``, each road-changing one
    with ``base_version`` and ``patch``, the JSON Patch from the roads document at
    ``base_version`` to the one at ``version``. ``frames=0`` without ``tables``: every table's
    events, each ``round`` with the table's tile ``summary`` (deprecated). Send
    ``Last-Event-ID`` (or ``?last_event_id=``) to resume after the event or frame you saw last."""
    last = request.headers.get("Last-Event-ID") or query.get("last_event_id")
    if last is not None and not is_event_id(last):
        abort(400, message=BAD_EVENT_ID)
    channel = frozenset(query["tables"]) if "tables" in query else None
    odds = reads_odds()
    if channel is not None and query.get("frames"):
        abort(400, message="frames carry the whole lobby: ask without tables")
    ask = FeedAsk(
        channel,
        last,
        frames=query.get("frames", True),
        whole=query["snapshot"],
        reads_odds=odds,
        grip_sig=request.headers.get("Grip-Sig"),
        grip_last=request.headers.get("Grip-Last"),
        sock=request.environ.get("gunicorn.sock"),
    )
    try:
        delivery = services().feeds.deliver(ask)
    except FeedFull as full:
        abort(503, message=str(full), headers={"Retry-After": str(full.retry_after)})
    response = Response(delivery.body, mimetype="text/event-stream")
    if delivery.on_close is not None:
        response.call_on_close(delivery.on_close)
    response.headers.update(delivery.headers)
    return response


@blp.route("/v1/lobby/frame")
@blp.arguments(LobbyFrameQuerySchema(), location="query", error_status_code=400)
@blp.doc(
    responses={
        "200": {
            "description": "The whole lobby at the latest frame: ``{cursor, full: true, "
            "server_time, tables: {TABLE: tile}}`` (``server_time``: as it is sent).",
            "content": {"application/json": {"schema": {"type": "object"}}},
        },
        "503": {"description": "No frame yet (the service just started): retry shortly."},
    }
)
def lobby_frame(query):
    """The whole lobby at the latest frame, as the first frame of ``/v1/events`` holds it: where
    a viewer of a fan-out tier without a first answer of its own (nchan) starts, applying the
    frames whose ``after`` follows its ``cursor``. Served from memory, built once a frame."""
    frame = services().feeds.lobby_frame(reads_odds())
    if frame is None:
        abort(503, message="no lobby frame yet; retry shortly", headers={"Retry-After": "1"})
    response = Response(frame, mimetype="application/json")
    response.headers["Cache-Control"] = "no-cache"
    return response
