"""The live event feed: one reader of the lobby's Redis Stream per process, fanned out to every
Server-Sent Events client the process serves.

Events are written to the lobby's stream (``{lobby}:events``, see :mod:`api.storage.keys`) by the
lobby script (:mod:`api.storage.lobbyscript`) when a write is committed; their stream ids are the
SSE ids. A client that reconnects with ``Last-Event-ID`` gets what it missed from the stream
itself (:meth:`EventHub.backlog`), then the live events; if what it missed has already been
trimmed from the stream it is told to start afresh (a ``reset`` event) rather than silently
skipping events.

One blocking ``XREAD`` per process feeds every client, so an idle client costs a queue and a
waiting request (a greenlet under gevent workers), not a Redis connection.
"""

from __future__ import annotations

import queue
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass

import redis

from api.live.reconnecting import ProcessThread, keep_serving
from api.storage.lobby import without_edge

BLOCK_SECONDS = 2.0  # how long one XREAD waits for new events
# A stream id; ``0`` alone too (with ``0-0``: from the start).
EVENT_ID = re.compile(r"^[0-9]{1,20}(-[0-9]{1,20})?$")
BAD_EVENT_ID = "Last-Event-ID must be an event id such as 1700000000000-0 (0: every event kept)"


HIDDEN = ":\n\n"  # what a client without the odds gets of an ``edge`` event: a comment


@dataclass(frozen=True, slots=True)
class Event:
    """One event of the stream, rendered once for each kind of channel: ``lobby`` (a table's
    events with its tile ``summary``) and ``table`` (with the road ``patch``), each in full and
    without the odds (the tile's edge flags emptied, an ``edge`` event a bare comment)."""

    id: str
    type: str
    table: str | None
    prev: str | None  # the table's event before this one
    lobby: str  # the SSE text on the lobby channel
    detail: str  # on a table's channel
    lobby_public: str  # the same, without the odds
    detail_public: str

    @property
    def key(self) -> tuple[int, int]:
        return stream_key(self.id)

    def sse(self, channel: Channel, odds: bool = True) -> str:
        """The event in the ``text/event-stream`` format, as ``channel`` carries it to a client
        who reads the odds, or one who does not."""
        if channel is None:
            return self.lobby if odds else self.lobby_public
        return self.detail if odds else self.detail_public

    @classmethod
    def of(cls, entry_id: str, type: str, data: str, extras: dict[str, str]) -> Event:
        """An event from a stream entry's fields: ``data``, and when it has them ``table``,
        ``summary`` (the tile, added on the lobby channel) and ``patch`` (``base_version`` and
        ``patch``, added on a table's channel)."""
        lobby, detail = data, data
        if "summary" in extras:
            lobby = f'{data[:-1]},"summary":{extras["summary"]}}}'
        if "patch" in extras:
            detail = f"{data[:-1]},{extras['patch'][1:]}"
        head = f"id: {entry_id}\nevent: {type}\ndata: "
        lobby, detail = f"{head}{lobby}\n\n", f"{head}{detail}\n\n"
        if type == "edge":
            hidden_lobby = hidden_detail = f"id: {entry_id}\n{HIDDEN}"
        elif "summary" in extras:
            hidden_lobby = without_edge(lobby.encode()).decode()
            hidden_detail = without_edge(detail.encode()).decode()
        else:
            hidden_lobby, hidden_detail = lobby, detail
        return cls(
            entry_id,
            type,
            extras.get("table"),
            extras.get("prev") or None,
            lobby,
            detail,
            hidden_lobby,
            hidden_detail,
        )


# Which events a client gets: ``None`` for the lobby channel, else the tables it watches.
Channel = frozenset[str] | None


def carries(channel: Channel, event: Event) -> bool:
    """Whether ``channel`` carries ``event``: the lobby channel every event, a table channel
    the events of its tables."""
    return channel is None or event.table in channel


def stream_key(event_id: str) -> tuple[int, int]:
    """A stream id as a comparable pair (``"1700000000000-3"`` -> ``(1700000000000, 3)``)."""
    millis, _, sequence = event_id.partition("-")
    return int(millis), int(sequence or 0)


def entry_event(entry_id: bytes, fields: dict[bytes, bytes]) -> Event:
    extras = {
        name.decode(): value.decode()
        for name, value in fields.items()
        if name not in (b"type", b"data")
    }
    return Event.of(entry_id.decode(), fields[b"type"].decode(), fields[b"data"].decode(), extras)


class Subscription:
    """One client's queue of live events. A client too slow to keep up is cut off
    (``overflowed``) rather than holding events without bound; it resumes from its last id."""

    def __init__(self, size: int, channel: Channel = None) -> None:
        # ``None`` in the queue wakes the client when its stream must end (``ended``).
        self.queue: queue.Queue[Event | None] = queue.Queue(maxsize=size)
        self.channel = channel
        self.overflowed = False
        self.ended = False

    def end(self) -> None:
        """End the client's stream now (the process is shutting down); it will reconnect."""
        self.ended = True
        try:
            self.queue.put_nowait(None)
        except queue.Full:
            self.overflowed = True

    def offer(self, event: Event) -> None:
        if not carries(self.channel, event):
            return
        try:
            self.queue.put_nowait(event)
        except queue.Full:
            self.overflowed = True

    def next(self, timeout: float) -> list[Event]:
        """The live events waiting, at least one, or none after ``timeout`` seconds without
        one. A client that fell behind gets what piled up in one write, not one per event: the
        cost of a delivery is mostly per write, so a busy process catches up instead of falling
        further behind."""
        try:
            events = [self.queue.get(timeout=timeout)]
        except queue.Empty:
            return []
        while True:
            try:
                events.append(self.queue.get_nowait())
            except queue.Empty:
                return [event for event in events if event is not None]


class EventHub:
    """The process's reader of the event stream (started on first use, after any fork)."""

    def __init__(
        self,
        factory: Callable[[], redis.Redis],
        stream: str,
        *,
        block_ms: int = int(BLOCK_SECONDS * 1000),
        queue_size: int = 1000,
        retry_seconds: float = 0.5,
        last_of: str = "",
    ) -> None:
        self._factory = factory
        self._stream = stream
        self._last_of = last_of
        self._block_ms = block_ms
        self._queue_size = queue_size
        self._retry = retry_seconds
        self._subscribers: set[Subscription] = set()
        self._lock = threading.Lock()
        self._reader = ProcessThread(self._read, "event-hub")
        self._stop = threading.Event()
        self._started = threading.Event()
        self._last: str | None = None  # the id of the last event read from the stream
        self._draining = False

    def subscribe(self, channel: Channel = None) -> Subscription:
        """A new client's queue: it gets every event of ``channel`` added to the stream from
        now on (once the reader has found the stream's end, which the first client waits for
        briefly)."""
        self._ensure_running()
        subscription = Subscription(self._queue_size, channel)
        with self._lock:
            self._subscribers.add(subscription)
            if self._draining:
                subscription.end()
        self._started.wait(self._block_ms / 1000)
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        with self._lock:
            self._subscribers.discard(subscription)

    @property
    def clients(self) -> int:
        return len(self._subscribers)

    def backlog(
        self, client: redis.Redis, after: str, channel: Channel = None, limit: int = 10_000
    ) -> list[Event] | None:
        """The events of ``channel`` after id ``after`` still in the stream, oldest first;
        ``None`` when some of them were already trimmed, or there are more than ``limit``
        (the client must start afresh). ``0`` (or ``0-0``) asks for every event kept."""
        millis, sequence = stream_key(after)
        if (millis, sequence) == (0, 0):
            return self._everything(client, channel, limit)
        after = f"{millis}-{sequence}"
        entries = client.xrange(self._stream, min=after, max="+", count=limit + 2)
        events = [entry_event(entry_id, fields) for entry_id, fields in entries]
        if events and events[0].id == after:
            events = events[1:]
        else:
            first = client.xrange(self._stream, min="-", max="+", count=1) if not events else None
            oldest = events[0].id if events else first[0][0].decode() if first else None
            if oldest is not None and stream_key(oldest) > stream_key(after):
                return None  # the stream no longer reaches back to where the client was
        if len(events) > limit:
            return None
        return [event for event in events if carries(channel, event)]

    def _everything(self, client: redis.Redis, channel: Channel, limit: int) -> list[Event] | None:
        """Every event kept, or ``None`` when the stream was ever trimmed (it has fewer entries
        than were added) or keeps more than ``limit``."""
        try:
            info = client.xinfo_stream(self._stream)
        except redis.ResponseError:  # no stream yet: nothing was ever added
            return []
        if int(info["entries-added"]) > int(info["length"]) or int(info["length"]) > limit:
            return None
        entries = client.xrange(self._stream, min="-", max="+", count=limit)
        events = [entry_event(entry_id, fields) for entry_id, fields in entries]
        return [event for event in events if carries(channel, event)]

    def heads(self, client: redis.Redis, channel: Channel) -> dict[str | None, str | None]:
        """The id of the newest event of each table of ``channel`` (``None``: none kept), or of
        the stream (under the key ``None``) for the lobby channel."""
        if channel is None:
            newest = client.xrevrange(self._stream, count=1)
            return {None: newest[0][0].decode() if newest else None}
        tables = sorted(channel)
        found = client.hmget(self._last_of, tables)
        return {
            table: value.decode() if value else None
            for table, value in zip(tables, found, strict=True)
        }

    def stop(self) -> None:
        self._stop.set()

    def drain(self) -> None:
        """End every client's stream now, and any that opens after (the process is exiting)."""
        with self._lock:
            self._draining = True
            subscribers = list(self._subscribers)
        for subscription in subscribers:
            subscription.end()

    def _ensure_running(self) -> None:
        self._reader.ensure_running(self._start_afresh)

    def _start_afresh(self) -> None:
        with self._lock:
            self._subscribers = set()
            self._started = threading.Event()

    def _read(self) -> None:
        # Redis away: read again from the last id seen, so nothing is skipped.
        self._last = None
        keep_serving(
            self._factory,
            self._follow,
            stop=self._stop,
            retry_seconds=self._retry,
            name="event hub",
        )

    def _follow(self, client: redis.Redis) -> None:
        if self._last is None:
            newest = client.xrevrange(self._stream, count=1)
            self._last = newest[0][0].decode() if newest else "0-0"
        self._started.set()
        while not self._stop.is_set():
            answer = client.xread({self._stream: self._last}, block=self._block_ms, count=500)
            for _, entries in answer or []:
                for entry_id, fields in entries:
                    event = entry_event(entry_id, fields)
                    self._last = event.id
                    self._deliver(event)

    def _deliver(self, event: Event) -> None:
        with self._lock:
            subscribers = list(self._subscribers)
        for subscription in subscribers:
            subscription.offer(event)
