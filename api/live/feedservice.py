"""The live feeds of ``/v1/events``: which way a viewer's feed is delivered, and the delivery.

A viewer asks for a channel (:class:`FeedAsk`): the lobby, in frames (or, deprecated, every
table's events, ``frames=0``), or some tables' events. :meth:`FeedService.deliver` chooses:

- a request of the GRIP proxy's own (its ``Grip-Sig`` verified, :mod:`api.live.gripsig`) gets
  what its client missed and the hold instructions (:mod:`api.live.heldfeeds`), the proxy
  holding the client;
- any other viewer of the lobby's frames gets a stream from this process's ring
  (:mod:`api.live.framefeed`), written under gunicorn's gevent worker by the process's
  broadcaster (:mod:`api.live.broadcast`), elsewhere by the request's own loop;
- any other viewer of events gets a stream from the process's event hub
  (:mod:`api.live.eventhub`).

A new viewer of the lobby is paced (``ROADS_FEED_ACCEPTS`` a second: past it, a stream that only
says when to come back) and every streamed viewer counts against ``ROADS_FEED_CLIENTS``
(:class:`FeedFull` past it). What comes back is a :class:`Delivery`: the body (text, or a stream
of it) and the headers; the web layer makes it an answer.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from api.codecs.feedevents import RESET, Channel, Event, stream_key
from api.live.broadcast import END, SLOW, Broadcaster, Viewer
from api.live.eventhub import EventHub, Subscription
from api.live.framefeed import FrameFeed, frame_data
from api.live.grip import names_odds, parse_grip_last
from api.live.gripsig import verified
from api.live.heldfeeds import HeldFeeds
from api.metrics import FEED_CLIENTS, FEED_EVENTS, FEED_LAG, UNAVAILABLE, lag_of

# How long a browser waits before it reconnects, in ms: from 2 s to 5 s at random, so the
# viewers of a process that ends (or a proxy that restarts) do not all come back at once.
RETRY_MS, RETRY_SPREAD_MS = 2000, 3000
SENT, LAG = FEED_EVENTS.labels("direct"), FEED_LAG.labels("direct")
FRAMES_SENT, FRAME_LAG = FEED_EVENTS.labels("frames"), FEED_LAG.labels("frames")
STREAMED = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}  # passed on at once


def retry() -> str:
    """The SSE field that tells a browser when to reconnect."""
    return f"retry: {RETRY_MS + random.randrange(RETRY_SPREAD_MS)}\n\n"


@dataclass(frozen=True)
class Delivery:
    """A feed's answer: its body (the text, or the stream of it) and headers; the stream ends
    with ``on_close``, whether it ever started or not."""

    body: str | bytes | Iterable[str | bytes]
    headers: Mapping[str, str]
    on_close: Callable[[], None] | None = None


class FeedFull(Exception):
    """This process holds ``ROADS_FEED_CLIENTS`` live-feed clients already (a 503): the rest of
    its connections stay for everything else."""

    retry_after = 2  # seconds


@dataclass(frozen=True)
class FeedAsk:
    """What a viewer of the feed asks for, as the request says it."""

    channel: Channel  # None: the lobby; else the tables whose events it follows
    last: str | None = None  # the event or frame it saw last (Last-Event-ID)
    frames: bool = True  # the lobby in frames (False: every table's events, deprecated)
    whole: bool = True  # the whole lobby first (``snapshot``)
    reads_odds: bool = False  # its key reads the odds
    grip_sig: str | None = None  # the request's ``Grip-Sig``
    grip_last: str | None = None  # and ``Grip-Last``
    sock: Any = field(default=None, compare=False)  # its socket, under gunicorn's gevent worker


class FeedService:
    """This process's live feeds (each part started on first use)."""

    def __init__(
        self,
        events: EventHub,
        frames: FrameFeed,
        broadcaster: Broadcaster,
        *,
        admit: Callable[[], bool],
        prefix: str,
        heartbeat: float,
        most_clients: int,
        public_odds: bool,
        proxy_key: str | None,
    ) -> None:
        self._events = events
        self._frames = frames
        self._broadcaster = broadcaster
        self._admit = admit  # a new lobby viewer, this second (ROADS_FEED_ACCEPTS)
        self._prefix = prefix
        self._heartbeat = heartbeat
        self._most = most_clients
        self._public_odds = public_odds
        self._proxy_key = proxy_key  # the GRIP proxy's key, when there is a proxy
        self._held = HeldFeeds(events, frames, prefix=prefix, heartbeat=heartbeat)

    def deliver(self, ask: FeedAsk) -> Delivery:
        """The feed ``ask`` is answered with (see the module doc). Raises :class:`FeedFull`."""
        proxied = self.from_the_proxy(ask.grip_sig)
        # Only the proxy's own (signed) request says what it delivered: any other Grip-Last,
        # nothing.
        delivered = parse_grip_last(ask.grip_last) if proxied else {}
        odds = ask.reads_odds or names_odds(self._prefix, delivered)
        twin = odds and not self._public_odds  # a held client on the odds: channels
        if ask.channel is None and ask.frames:
            # The proxy's request for what its clients missed is no new viewer.
            refused = None if delivered else self._refused_viewer()
            if refused is not None:
                return refused
            if proxied:
                opening = b"" if delivered else retry().encode()
                held = self._held.frames(ask.last, odds, delivered, ask.whole, twin, opening)
                return Delivery(*held)
            return self._frames_stream(ask.last, odds, ask.whole, ask.sock)
        if proxied:
            opening = "" if delivered else retry()
            return Delivery(
                *self._held.events(ask.channel, ask.last, odds, delivered, twin, opening)
            )
        return self._events_stream(ask.channel, ask.last, odds)

    def from_the_proxy(self, grip_sig: str | None) -> bool:
        """Whether a request came through the GRIP proxy: a proxy is configured and the
        request's ``Grip-Sig`` verifies with its key (:mod:`api.live.gripsig`). Anything else is
        an ordinary viewer, under every bound, whatever ``Grip-*`` headers it sends."""
        return self._proxy_key is not None and verified(grip_sig, self._proxy_key)

    def lobby_frame(self, odds: bool) -> bytes | None:
        """The whole lobby at the latest frame, as JSON (``None``: no frame yet)."""
        self._frames.latest()
        whole = self._frames.whole(odds)
        return None if whole is None else frame_data(whole[1])

    def _refuse_past_the_bound(self) -> None:
        """:class:`FeedFull` when this process holds ``ROADS_FEED_CLIENTS`` live-feed clients
        (frames and events) already."""
        if self._frames.clients + self._events.clients >= self._most:
            UNAVAILABLE.labels("feed_full").inc()
            raise FeedFull(
                f"this process holds {self._most} live-feed clients already; retry shortly"
            )

    def _refused_viewer(self) -> Delivery | None:
        """``None`` for a new lobby viewer, unless this process took its share of them this
        second (``ROADS_FEED_ACCEPTS``) or holds ``ROADS_FEED_CLIENTS`` already
        (:class:`FeedFull`). Past the pace the answer is a stream that only says when to come
        back (a browser's EventSource reconnects after ``retry``; a 503 would end it for
        good)."""
        self._refuse_past_the_bound()
        if self._admit():
            return None
        UNAVAILABLE.labels("feed_paced").inc()
        return Delivery(retry(), {"Cache-Control": "no-store"})

    def _frames_stream(self, last: str | None, odds: bool, whole: bool, sock: Any) -> Delivery:
        """The lobby in frames: every tile at the latest frame (unless ``last`` is a frame the
        process still holds), then each frame after it, from the process's ring: written by
        the broadcaster where the request hands over its socket (``sock``, gunicorn's gevent
        worker), elsewhere by the stream's own loop."""
        feed, broadcaster, heartbeat = self._frames, self._broadcaster, self._heartbeat
        # Counted from admission, before anything below can wait (and let another request past
        # the bound meanwhile), until the answer closes, whether its stream ever started or not.
        seat = _Seat(feed)
        feed.latest()

        def stream() -> Iterator[str | bytes]:
            viewer = None
            try:
                yield retry()
                cursor, text = feed.first(last, odds, whole)
                if text:
                    yield text
                if sock is None:
                    yield from _follow(feed, cursor, odds, heartbeat)
                else:
                    viewer = Viewer(sock, cursor, odds)
                    yield from _broadcast(broadcaster, viewer)
            finally:
                if viewer is not None:
                    broadcaster.leave(viewer)
                seat.leave()

        return Delivery(stream(), STREAMED, on_close=seat.leave)

    def _events_stream(self, channel: Channel, last: str | None, odds: bool) -> Delivery:
        """The events of ``channel`` after ``last`` (kept in the stream), then each live one,
        from the process's event hub."""
        hub, heartbeat = self._events, self._heartbeat
        self._refuse_past_the_bound()
        subscription = hub.subscribe(channel)
        try:
            backlog = hub.backlog(last, channel) if last else []
        except Exception:
            hub.unsubscribe(subscription)
            raise

        def stream() -> Iterator[str]:
            FEED_CLIENTS.inc()
            try:
                yield from _feed(subscription, last, backlog, heartbeat, odds)
            finally:
                FEED_CLIENTS.dec()
                hub.unsubscribe(subscription)

        # The stream needs nothing from the request, so it does not keep its context alive.
        return Delivery(stream(), STREAMED)


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


def _feed(
    subscription: Subscription,
    last: str | None,
    backlog: list[Event] | None,
    heartbeat: float,
    odds: bool,
) -> Iterator[str]:
    """An events client's stream: the backlog (or ``reset`` when it is no longer kept), then
    each live event of its channel, a heartbeat when idle."""
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
