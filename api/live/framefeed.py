"""The lobby's frames, served: one reader of the frames stream per process, and one shared ring
of the latest frames, each rendered once as Server-Sent Events text with the odds and once
without (:mod:`api.live.framer` builds them). A client is a cursor into the ring, not a queue:
however many clients, a frame is rendered twice and kept once.

The reader starts from the keyframe (every tile at one frame) and applies each frame after it,
so the process always holds every tile at its latest frame: a client that connects (or resumes
from a frame no longer kept) first gets that whole lobby as one full frame (rendered again at
most every :data:`WHOLE_FRESH` seconds, its ``server_time`` that fresh), then the frames after
it.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any, NamedTuple

from api.codecs.frames import apply
from api.codecs.jsontext import dumps, loads
from api.codecs.times import now_text
from api.live.reconnecting import keep_serving
from api.storage.framestream import FrameReader, FrameStream, StoredFrame
from api.storage.processthread import ProcessThread

RING = 240  # frames kept in the process: two minutes at a frame every 500 ms
# How long the whole lobby rendered for new viewers is served again: its ``server_time`` is at
# most this old (a countdown that far off), and a crowd connecting at once costs one rendering.
WHOLE_FRESH = 0.25


class Rendered(NamedTuple):
    id: str
    full: bytes  # the SSE text of the frame, with the odds, encoded once for every client
    public: bytes  # without them (only the id when it changed nothing a client without them sees)

    def text(self, odds: bool) -> bytes:
        return self.full if odds else self.public


def sse(frame_id: str, data: bytes) -> bytes:
    return b"id: %s\nevent: frame\ndata: %s\n\n" % (frame_id.encode(), data)


def frame_data(text: bytes) -> bytes | None:
    """The JSON of a rendered frame; ``None`` for one sent as its id alone."""
    _, found, data = text.partition(b"\ndata: ")
    return data[:-2] if found else None


def id_only(frame_id: str) -> bytes:
    """A frame with nothing for the client: an event without data is not dispatched, but its
    id still becomes the client's ``Last-Event-ID``, so it resumes from here."""
    return b"id: %s\n\n" % frame_id.encode()


class FrameFeed:
    """This process's frames (started on first use, after any fork). ``wanted`` is told each
    time a reader asks for the latest frame: the process's frame builder, which builds only
    once the process serves frames (:meth:`api.live.framer.FrameBuilder.want`)."""

    def __init__(
        self,
        stream: FrameStream,
        *,
        ring: int = RING,
        block_ms: int = 2000,
        wanted: Callable[[], None] = lambda: None,
    ) -> None:
        self._stream = stream
        self._wanted = wanted
        self._ring: deque[Rendered] = deque(maxlen=ring)
        # Where each frame of the ring is, as a count of frames taken: a client finds its place
        # without scanning the ring (every client looks once a frame).
        self._number: dict[str, int] = {}
        self._taken = 0
        self._block_ms = block_ms
        self._changed = threading.Condition()
        self._tiles: dict[str, dict[str, Any]] | None = None  # "full"/"public" -> tiles
        self._cursor = 0
        # With the odds and without: (frame id, when rendered, SSE text) of the whole lobby.
        self._snapshot: dict[bool, tuple[str, float, bytes]] = {}
        self._latest: str | None = None
        self._base: str | None = None  # the id of the frame the ring starts after
        self._stop = threading.Event()
        self._reader = ProcessThread(self._read, "frame-feed")
        self.clients = 0  # connected to this process now
        self.draining = False  # the process is exiting: every stream ends

    # -- what a client reads -------------------------------------------------------------------

    def latest(self, wait_seconds: float = 2.0) -> str | None:
        """The id of the latest frame this process holds (waiting briefly for the first)."""
        self._wanted()
        self._reader.ensure_running(self._afresh)
        with self._changed:
            if self._latest is None:
                self._changed.wait(wait_seconds)
            return self._latest

    def whole(self, odds: bool) -> tuple[str, bytes] | None:
        """Every tile at the latest frame, as one full frame: (its id, its SSE text). Its
        ``server_time`` is the clock as it is sent, to :data:`WHOLE_FRESH` (a quiet lobby builds
        no frame for minutes, and a viewer that starts here counts down from it); within that,
        a crowd of new viewers shares one rendering."""
        with self._changed:
            if self._tiles is None or self._latest is None:
                return None
            now = time.monotonic()
            cached = self._snapshot.get(odds)
            if cached is None or cached[0] != self._latest or now - cached[1] > WHOLE_FRESH:
                whole = {"cursor": self._cursor, "full": True, "server_time": now_text()}
                tiles = self._tiles["full" if odds else "public"]
                text = sse(self._latest, dumps({**whole, "tables": tiles}))
                cached = self._snapshot[odds] = (self._latest, now, text)
            return cached[0], cached[2]

    def after(self, last: str) -> list[Rendered] | None:
        """The frames after id ``last``, oldest first; ``None`` when the ring no longer reaches
        back to it (send the whole lobby instead)."""
        with self._changed:
            if last == self._latest:
                return []
            if last == self._base:  # the frame the ring starts after (its keyframe, or dropped)
                return list(self._ring)
            number = self._number.get(last)
            if number is None:
                return None
            behind = self._taken - number  # frames after it, all in the ring
            return [self._ring[at] for at in range(len(self._ring) - behind, len(self._ring))]

    def since(self, last: str | None, odds: bool) -> tuple[str | None, bytes]:
        """What a client at frame ``last`` reads next, as (the frame it is then at, SSE text):
        the frames after ``last``, or the whole lobby when there is no ``last`` or the ring no
        longer reaches back to it; no text when nothing is newer (or no frame is held yet)."""
        frames = self.after(last) if last else None
        if frames is None:
            whole = self.whole(odds)
            return (last, b"") if whole is None else whole
        if not frames:
            return last, b""
        if len(frames) == 1:
            return frames[0].id, frames[0].text(odds)
        return frames[-1].id, b"".join(frame.text(odds) for frame in frames)

    def first(self, last: str | None, odds: bool, whole: bool) -> tuple[str | None, bytes]:
        """A client's first answer: the frames after ``last``, or the whole lobby; without
        ``whole`` (and no ``last``) nothing, the client starting at the latest frame."""
        if whole or last is not None:
            return self.since(last, odds)
        return self.latest(0), b""

    def wait(self, last: str | None, timeout: float) -> None:
        """Until a frame newer than ``last`` is held, or ``timeout`` seconds."""
        with self._changed:
            if (self._latest == last or self._latest is None) and not self.draining:
                self._changed.wait(timeout)

    def stop(self) -> None:
        self._stop.set()

    def drain(self) -> None:
        """End every client's stream now, and any that opens after (the process is exiting)."""
        with self._changed:
            self.draining = True
            self._changed.notify_all()

    # -- the reader ------------------------------------------------------------------------------

    def _afresh(self) -> None:
        self._stop = threading.Event()

    def _read(self) -> None:
        keep_serving(
            self._stream.reader, self._follow, stop=self._stop, retry_seconds=0.5, name="frames"
        )

    def _follow(self, reader: FrameReader) -> None:
        last = "0-0"
        # The keyframe may be 10 s old: a client waits for the frames after it too (the lock
        # is reentrant), not only for the first tile.
        with self._changed:
            start = self._stream.keyframe()
            if start is not None:
                self._take(start, whole=True)
                last = start.id
                for frame in self._stream.after(last):
                    self._take(frame)
                    last = frame.id
        while not self._stop.is_set():
            for frame in reader.after(last, block_ms=self._block_ms):
                self._take(frame)
                last = frame.id

    def _take(self, frame: StoredFrame, *, whole: bool = False) -> None:
        full, public = loads(frame.full), loads(frame.public)
        with self._changed:
            if self._tiles is None or full.get("full"):
                self._tiles = {"full": {}, "public": {}}
            apply(self._tiles["full"], full)
            apply(self._tiles["public"], public)
            self._cursor = full["cursor"]
            if whole:
                self._ring.clear()
                self._number.clear()
                self._base = frame.id
            else:
                if len(self._ring) == self._ring.maxlen:
                    self._base = self._ring[0].id
                    del self._number[self._base]
                self._taken += 1
                self._number[frame.id] = self._taken
                rendered = Rendered(
                    frame.id,
                    sse(frame.id, frame.full),
                    sse(frame.id, frame.public) if public["tables"] else id_only(frame.id),
                )
                self._ring.append(rendered)
            self._latest = frame.id
            self._changed.notify_all()
