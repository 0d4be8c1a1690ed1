"""The live event feed for lobby clients (Server-Sent Events)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from flask import Response, current_app, request
from flask_smorest import Blueprint, abort

from api.codecs.feedevents import RESET, Channel, Event, is_event_id, stream_key
from api.http.answers import services
from api.http.auth import reads_odds
from api.http.requests import EventsQuerySchema, LobbyFrameQuerySchema
from api.live.broadcast import END, SLOW, Broadcaster, Viewer
from api.live.eventhub import BAD_EVENT_ID, Subscription
from api.live.framefeed import FrameFeed, frame_data
from api.live.grip import (
    channel_names,
    event_channel,
    frame_hold_headers,
    frames_channel,
    hold_headers,
    names_odds,
    page_headers,
    parse_grip_last,
)
from api.live.gripsig import verified
from api.metrics import FEED_CLIENTS, FEED_EVENTS, FEED_LAG, UNAVAILABLE, lag_of

blp = Blueprint("events", __name__, description="Live events for lobby clients (SSE).")

EVENT_TYPES = "frame; on a table channel round, shoe, correction, void, good_road, edge, retired"
# How long a browser waits before it reconnects, in ms: from 2 s to 5 s at random, so the
# viewers of a process that ends (or a proxy that restarts) do not all come back at once.
RETRY_MS, RETRY_SPREAD_MS = 2000, 3000
# A GRIP proxy's catch-up answer is paged past this size (Pushpin takes at most a megabyte).
PAGE_BYTES = 256 * 1024


def retry() -> str:
    return f"retry: {RETRY_MS + random.randrange(RETRY_SPREAD_MS)}\n\n"


SENT, LAG = FEED_EVENTS.labels("direct"), FEED_LAG.labels("direct")
FRAMES_SENT, FRAME_LAG = FEED_EVENTS.labels("frames"), FEED_LAG.labels("frames")


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
    proxied = _from_the_proxy()
    # Only the proxy's own (signed) request says what it delivered: any other Grip-Last, nothing.
    delivered = parse_grip_last(request.headers.get("Grip-Last")) if proxied else {}
    odds = reads_odds() or names_odds(services().keys.prefix, delivered)
    if channel is None and query.get("frames", True):
        refused = None if delivered else _refused_viewer()
        if refused is not None:
            return refused
        whole = query["snapshot"]
        return _held_frames(last, odds, delivered, whole) if proxied else _frames(last, odds, whole)
    if channel is not None and query.get("frames"):
        abort(400, message="frames carry the whole lobby: ask without tables")
    if proxied:
        return _held(channel, last, odds, delivered)
    hub = services().events
    _refuse_past_the_bound()
    subscription = hub.subscribe(channel)
    try:
        backlog = hub.backlog(last, channel) if last else []
    except Exception:
        hub.unsubscribe(subscription)
        raise
    heartbeat = current_app.extensions["roads.settings"].sse_heartbeat

    def stream() -> Iterator[str]:
        FEED_CLIENTS.inc()
        try:
            yield from _feed(subscription, last, backlog, heartbeat, odds)
        finally:
            FEED_CLIENTS.dec()
            hub.unsubscribe(subscription)

    # The stream needs nothing from the request context, so it does not keep one alive.
    response = Response(stream(), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"  # proxies must pass events on at once
    return response


def _feed(
    subscription: Subscription,
    last: str | None,
    backlog: list[Event] | None,
    heartbeat: float,
    odds: bool,
) -> Iterator[str]:
    channel = subscription.channel
    yield retry()
    if backlog is None:
        yield RESET
        backlog = []
    seen = stream_key(last) if last else (0, 0)
    for event in backlog:
        seen = event.key
        yield event.sse(channel, odds)
    while not subscription.overflowed and not subscription.ended:
        events = subscription.next(heartbeat)
        if not events:
            if not subscription.ended:
                yield ": heartbeat\n\n"
            continue
        fresh = [event for event in events if event.key > seen]  # the backlog may have had it
        if fresh:
            seen = fresh[-1].key
            # Counted per write, not per event: the oldest event of the write lagged most.
            SENT.inc(len(fresh))
            LAG.observe(lag_of(fresh[0].id))
            yield "".join(event.sse(channel, odds) for event in fresh)
    if subscription.ended:
        yield retry()  # the process is exiting: reconnect (to another worker) in that time


def _from_the_proxy() -> bool:
    """Whether this request came through the GRIP proxy: a proxy is configured and the
    request's ``Grip-Sig`` verifies with its key (:mod:`api.live.gripsig`). Anything else is an
    ordinary viewer, under every bound, whatever ``Grip-*`` headers it sends."""
    if services().publisher is None:
        return False
    key = current_app.extensions["roads.settings"].grip_key
    return verified(request.headers.get("Grip-Sig"), key)


def _held(channel: Channel, last: str | None, odds: bool, delivered: dict[str, str]) -> Response:
    """The answer to a client a GRIP proxy holds: the events it missed, and the instructions
    (see :mod:`api.live.grip`). A request of the proxy's own (``delivered``, its verified
    ``Grip-Last``: it found a gap) gets the events after the last one it delivered on each
    channel. A client who reads the odds is held on the ``odds:`` channels, unless the odds are
    public; past a page, such a client is held at the page's end (every channel complete up to
    it), and the proxy asks for the rest, naming those channels, at the next event."""
    svc = services()
    svc.publisher.start()
    prefix = svc.keys.prefix
    twin = odds and not current_app.extensions["roads.settings"].public_odds
    names = channel_names(prefix, channel, twin)
    tables = sorted(channel) if channel is not None else [None]
    # The proxy names what it delivered last; a page's next link, where the page ended (the
    # proxy still names where it was before the page): the later of the two.
    after = {name: _later(delivered.get(name), last) for name in names}
    found = svc.events.heads(channel)
    heads = {name: found[table] for name, table in zip(names, tables, strict=True)}
    body = [] if delivered else [retry()]
    starts = [point for point in after.values() if point]
    size, paged, previous = 0, None, ""
    if starts:
        backlog = svc.events.backlog(min(starts, key=stream_key), channel)
        if backlog is None:
            body.append(RESET)
            backlog = []
        for event in backlog:
            name = event_channel(prefix, channel, event, twin)
            if after[name] is None or event.key > stream_key(after[name]):
                if size >= PAGE_BYTES:  # the rest on the next page, asked for at once
                    paged = previous
                    break
                text = event.sse(channel, odds)
                body.append(text)
                size += len(text)
                heads[name] = max(heads[name] or event.id, event.id, key=stream_key)
                previous = event.id
    response = Response("".join(body), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    if paged is not None and not twin:
        response.headers.update(page_headers(channel, paged))
        return response
    if paged is not None:  # the page's link would name no channel: held where the page ends
        heads = dict.fromkeys(names, paged)
    heartbeat = current_app.extensions["roads.settings"].sse_heartbeat
    instructions = hold_headers(prefix, channel, heads, heartbeat=heartbeat, odds=twin)
    response.headers.update(instructions)
    return response


def _later(one: str | None, other: str | None) -> str | None:
    """The later of two event ids (either may be missing)."""
    known = [point for point in (one, other) if point]
    return max(known, key=stream_key) if known else None


def _refuse_past_the_bound() -> None:
    """A 503 when this process holds ``ROADS_FEED_CLIENTS`` live-feed clients (frames and
    events) already: the rest of its connections stay for everything else."""
    svc = services()
    most = current_app.extensions["roads.settings"].feed_clients
    if svc.frames.clients + svc.events.clients >= most:
        UNAVAILABLE.labels("feed_full").inc()
        abort(
            503,
            message=f"this process holds {most} live-feed clients already; retry shortly",
            headers={"Retry-After": "2"},
        )


def _refused_viewer() -> Response | None:
    """``None`` for a new lobby viewer, unless this process took its share of them this second
    (``ROADS_FEED_ACCEPTS``) or holds ``ROADS_FEED_CLIENTS`` already (503). Past the pace the
    answer is a stream that only says when to come back (a browser's EventSource reconnects
    after ``retry``; a 503 would end it for good)."""
    svc = services()
    _refuse_past_the_bound()
    if svc.feed_accepts.admit():
        return None
    UNAVAILABLE.labels("feed_paced").inc()
    response = Response(retry(), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-store"
    return response


def _frames(last: str | None, odds: bool, whole: bool = True) -> Response:
    """The lobby in frames: every tile at the latest frame (unless ``last`` is a frame the
    process still holds), then each frame after it, from the process's ring: under gunicorn's
    gevent worker written by the process's broadcaster (:mod:`api.live.broadcast`), elsewhere
    by the request's own loop."""
    svc = services()
    feed = svc.frames
    # Counted from admission, before anything below can wait (and let another request past
    # the bound meanwhile), until the answer closes, whether its stream ever started or not.
    seat = _Seat(feed)
    svc.framer.start()
    feed.latest()
    heartbeat = current_app.extensions["roads.settings"].sse_heartbeat
    sock = request.environ.get("gunicorn.sock")

    def stream() -> Iterator[str | bytes]:
        viewer = None
        try:
            yield retry()
            cursor, text = _first(feed, last, odds, whole)
            if text:
                yield text
            if sock is None:
                yield from _follow(feed, cursor, odds, heartbeat)
            else:
                viewer = Viewer(sock, cursor, odds)
                yield from _broadcast(svc.broadcaster, viewer)
        finally:
            if viewer is not None:
                svc.broadcaster.leave(viewer)
            seat.leave()

    response = Response(stream(), mimetype="text/event-stream")
    response.call_on_close(seat.leave)
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response


class _Seat:
    """A frames viewer counted against ``ROADS_FEED_CLIENTS``: taken at admission, left once."""

    def __init__(self, feed: FrameFeed) -> None:
        self._feed = feed
        self._taken = True
        feed.clients += 1
        FEED_CLIENTS.inc()

    def leave(self) -> None:
        if self._taken:
            self._taken = False
            self._feed.clients -= 1
            FEED_CLIENTS.dec()


def _broadcast(broadcaster: Broadcaster, viewer: Viewer) -> Iterator[str]:
    """A viewer's part once its first frame is out: parked while the broadcaster writes to its
    socket; when handed back, it writes what its socket could not take (blocking only itself)
    and rejoins, or ends its stream."""
    while True:
        broadcaster.join(viewer)
        order = viewer.wait()
        if order == SLOW:
            try:
                viewer.socket.sendall(viewer.pending)
            except OSError:
                return
            viewer.pending = b""
            continue
        if order == END:
            yield retry()  # the process is exiting: reconnect (to another worker) in that time
        return


def _follow(
    feed: FrameFeed, cursor: str | None, odds: bool, heartbeat: float
) -> Iterator[str | bytes]:
    """A viewer's part once its first frame is out, where no broadcaster writes for it: wait
    for each next frame and yield it."""
    while not feed.draining:
        before = cursor
        cursor, text = feed.since(cursor, odds)
        if text:
            if before is not None and cursor is not None:  # not the whole lobby
                FRAMES_SENT.inc()
                FRAME_LAG.observe(lag_of(cursor))
            yield text
            continue
        feed.wait(cursor, heartbeat)
        if feed.latest(0) == cursor and not feed.draining:
            yield ": heartbeat\n\n"
    yield retry()  # the process is exiting: reconnect (to another worker) in that time


def _first(feed: FrameFeed, last: str | None, odds: bool, whole: bool) -> tuple[str | None, bytes]:
    """A frames client's first answer: the frames after ``last``, or the whole lobby; without
    ``whole`` (and no ``last``) nothing, the stream starting at the latest frame."""
    if whole or last is not None:
        return feed.since(last, odds)
    return feed.latest(0), b""


def _held_frames(last: str | None, odds: bool, delivered: dict, whole: bool = True) -> Response:
    """The answer to a frames client a GRIP proxy holds, from this process's ring (no read of
    Redis): the frames after ``last`` (or after the proxy's verified ``Grip-Last``,
    ``delivered``, when it asks for what its clients missed), or the whole lobby, then the hold
    on the frames channel."""
    svc = services()
    svc.framer.start()
    svc.frame_publisher.start()
    settings = current_app.extensions["roads.settings"]
    twin = odds and not settings.public_odds
    since = delivered.get(frames_channel(svc.keys.prefix, twin), last)
    svc.frames.latest()
    head, text = _first(svc.frames, since, odds, whole or bool(delivered))
    body = text if delivered else retry().encode() + text
    response = Response(body, mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers.update(
        frame_hold_headers(
            svc.keys.prefix,
            head,
            heartbeat=settings.sse_heartbeat,
            odds=twin,
        )
    )
    return response


@blp.route("/v1/lobby/frame")
@blp.arguments(LobbyFrameQuerySchema(), location="query", error_status_code=400)
@blp.doc(
    responses={
        "200": {
            "description": "The whole lobby at the latest frame: ``{cursor, full: true, "
            "tables: {TABLE: tile}}``.",
            "content": {"application/json": {"schema": {"type": "object"}}},
        },
        "503": {"description": "No frame yet (the service just started): retry shortly."},
    }
)
def lobby_frame(query):
    """The whole lobby at the latest frame, as the first frame of ``/v1/events`` holds it: where
    a viewer of a fan-out tier without a first answer of its own (nchan) starts, applying the
    frames whose ``after`` follows its ``cursor``. Served from memory, built once a frame."""
    svc = services()
    svc.framer.start()
    svc.frames.latest()
    whole = svc.frames.whole(reads_odds())
    if whole is None:
        abort(503, message="no lobby frame yet; retry shortly", headers={"Retry-After": "1"})
    response = Response(frame_data(whole[1]), mimetype="application/json")
    response.headers["Cache-Control"] = "no-cache"
    return response
