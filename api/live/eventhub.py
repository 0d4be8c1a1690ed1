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

from api.codecs.feedevents import Channel, Event, stream_key
from api.live.reconnecting import keep_serving
from api.storage.eventstream import EventStream, StreamReader
from api.storage.processthread import ProcessThread

BLOCK_SECONDS = 2.0  # how long one XREAD waits for new events
# A stream id; ``0`` alone too (with ``0-0``: from the start). Each part is at most 2^64 - 1
# (api.codecs.feedevents.is_event_id); this is the form the OpenAPI document states.
EVENT_ID = re.compile(r"^[0-9]{1,20}(-[0-9]{1,20})?$")
BAD_EVENT_ID = (
    "Last-Event-ID must be an event id such as 1700000000000-0, each part at most 2^64-1 "
    "(0: every event kept)"
)


def carries(channel: Channel, event: Event) -> bool:
    """Whether ``channel`` carries ``event``: the lobby channel every event, a table channel
    the events of its tables."""
    return channel is None or event.table in channel


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
        stream: EventStream,
        *,
        block_ms: int = int(BLOCK_SECONDS * 1000),
        queue_size: int = 1000,
        retry_seconds: float = 0.5,
    ) -> None:
        self._stream = stream
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
        self, after: str, channel: Channel = None, limit: int = 10_000
    ) -> list[Event] | None:
        """The events of ``channel`` after id ``after`` still in the stream, oldest first;
        ``None`` when some of them were already trimmed, or there are more than ``limit``
        (the client must start afresh). ``0`` (or ``0-0``) asks for every event kept."""
        millis, sequence = stream_key(after)
        if (millis, sequence) == (0, 0):
            return self._everything(channel, limit)
        after = f"{millis}-{sequence}"
        events = self._stream.between(after, "+", limit + 2)
        if events and events[0].id == after:
            events = events[1:]
        else:
            oldest = events[0].id if events else self._stream.oldest()
            if oldest is not None and stream_key(oldest) > stream_key(after):
                return None  # the stream no longer reaches back to where the client was
        if len(events) > limit:
            return None
        return [event for event in events if carries(channel, event)]

    def _everything(self, channel: Channel, limit: int) -> list[Event] | None:
        """Every event kept, or ``None`` when the stream was ever trimmed (it has fewer entries
        than were added) or keeps more than ``limit``."""
        added, kept = self._stream.counts()
        if added > kept or kept > limit:
            return None
        events = self._stream.between("-", "+", limit) if kept else []
        return [event for event in events if carries(channel, event)]

    def heads(self, channel: Channel) -> dict[str | None, str | None]:
        """The id of the newest event of each table of ``channel`` (``None``: none kept), or of
        the stream (under the key ``None``) for the lobby channel."""
        if channel is None:
            return {None: self._stream.newest()}
        tables = sorted(channel)
        return dict(zip(tables, self._stream.newest_of(tables), strict=True))

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
            self._stream.reader,
            self._follow,
            stop=self._stop,
            retry_seconds=self._retry,
            name="event hub",
        )

    def _follow(self, reader: StreamReader) -> None:
        if self._last is None:
            self._last = reader.newest() or "0-0"
        self._started.set()
        while not self._stop.is_set():
            for event in reader.after(self._last, block_ms=self._block_ms, count=500):
                self._last = event.id
                self._deliver(event)

    def _deliver(self, event: Event) -> None:
        with self._lock:
            subscribers = list(self._subscribers)
        for subscription in subscribers:
            subscription.offer(event)
