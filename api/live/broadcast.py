"""The built-in lobby feed's fan-out under gunicorn's gevent worker: one loop per process writes
each frame to every viewer's socket itself, instead of waking one greenlet per viewer to pass
the frame through the WSGI layers.

A viewer's request answers its first frame (the whole lobby, or the frames after its
``Last-Event-ID``) through WSGI as usual, which sends the headers and starts the chunked body;
then its greenlet parks and the viewer joins the broadcaster with the frame it is at. For each
new frame the loop encodes the chunk once per (frame the viewer is at, odds), the same bytes for
every viewer alike, and hands it to each socket with one non-blocking ``write``. A socket that
cannot take it all (the viewer reads slowly) leaves the loop: its own greenlet writes the rest,
blocking only itself, and rejoins at the frame after it. A socket that fails ends its stream.
Every ``heartbeat`` seconds without a frame a comment goes out the same way (and finds the
viewers that left). The loop yields to the process's other greenlets every
:data:`YIELD_EVERY` viewers, so ingest is never held for a whole sweep.
"""

from __future__ import annotations

import os
import threading
import time
from typing import Any

from api.live.framefeed import FrameFeed
from api.metrics import FEED_EVENTS, FEED_LAG, lag_of
from api.storage.processthread import ProcessThread

SENT, LAG = FEED_EVENTS.labels("frames"), FEED_LAG.labels("frames")
YIELD_EVERY = 256  # viewers written between two yields to the other greenlets
HEARTBEAT = b": heartbeat\n\n"
SLOW, END, GONE = "slow", "end", "gone"


def chunk(data: bytes) -> bytes:
    """``data`` as one chunk of a chunked HTTP/1.1 body."""
    return b"%x\r\n%s\r\n" % (len(data), data)


HEARTBEAT_CHUNK = chunk(HEARTBEAT)  # the same for every viewer: encoded once


class Viewer:
    """One viewer in the broadcaster: its socket, the frame it is at, and what its greenlet is
    told when it leaves the loop (:data:`SLOW` with the ``pending`` bytes to write, :data:`END`,
    :data:`GONE`)."""

    __slots__ = ("cursor", "odds", "order", "pending", "socket", "woken")

    def __init__(self, sock: Any, cursor: str | None, odds: bool) -> None:
        self.socket = sock
        self.cursor = cursor
        self.odds = odds
        self.order: str | None = None
        self.pending = b""
        self.woken = threading.Event()

    def wait(self) -> str:
        """Until the broadcaster hands this viewer back; why."""
        self.woken.wait()
        self.woken.clear()
        order, self.order = self.order, None
        return order or END


class Broadcaster:
    """This process's writer of frames to its viewers (started on the first viewer)."""

    def __init__(self, feed: FrameFeed, heartbeat: float) -> None:
        self._feed = feed
        self._heartbeat = heartbeat
        self._viewers: set[Viewer] = set()
        self._lock = threading.Lock()
        self._draining = False
        self._thread = ProcessThread(self._run, "broadcaster")

    def join(self, viewer: Viewer) -> None:
        """Write each next frame to ``viewer`` from now on (until it is handed back)."""
        self._thread.ensure_running(self._afresh)
        with self._lock:
            if self._draining:
                self._hand_back(viewer, END)
                return
            self._viewers.add(viewer)

    def leave(self, viewer: Viewer) -> None:
        with self._lock:
            self._viewers.discard(viewer)

    def drain(self) -> None:
        """Hand every viewer back to end its stream (the process is exiting), and any after."""
        with self._lock:
            self._draining = True
            viewers, self._viewers = self._viewers, set()
        for viewer in viewers:
            self._hand_back(viewer, END)

    def _afresh(self) -> None:
        with self._lock:
            self._viewers = set()

    def _run(self) -> None:
        last = self._feed.latest()
        while not self._draining:
            self._feed.wait(last, self._heartbeat)
            latest = self._feed.latest(0)
            if latest == last:
                self._sweep(beat=True)
                continue
            last = latest
            written = self._sweep()
            if written and latest is not None:
                SENT.inc(written)
                LAG.observe(lag_of(latest))

    def _sweep(self, *, beat: bool = False) -> int:
        """Write to every viewer what it has not had (or a heartbeat); the viewers written."""
        with self._lock:
            viewers = list(self._viewers)
        # (frame a viewer is at, odds) -> (the frame it is then at, the chunk): encoded once.
        chunks: dict[tuple[str | None, bool], tuple[str | None, bytes]] = {}
        written = 0
        for count, viewer in enumerate(viewers, start=1):
            if beat:
                data = HEARTBEAT_CHUNK
            else:
                key = (viewer.cursor, viewer.odds)
                if key not in chunks:
                    cursor, text = self._feed.since(viewer.cursor, viewer.odds)
                    chunks[key] = (cursor, chunk(text) if text else b"")
                viewer.cursor, data = chunks[key]
            if data:
                written += self._write(viewer, data)
            if count % YIELD_EVERY == 0:
                time.sleep(0)  # under gevent: let the other greenlets (ingest) run
        return written

    def _write(self, viewer: Viewer, data: bytes) -> int:
        # The socket is non-blocking underneath (gevent's): a write takes what fits, now.
        try:
            sent = os.write(viewer.socket.fileno(), data)
        except BlockingIOError:
            sent = 0
        except OSError:
            self._leave(viewer, GONE)
            return 0
        if sent < len(data):
            viewer.pending = data[sent:]
            self._leave(viewer, SLOW)
            return 0
        return 1

    def _leave(self, viewer: Viewer, order: str) -> None:
        self.leave(viewer)
        self._hand_back(viewer, order)

    @staticmethod
    def _hand_back(viewer: Viewer, order: str) -> None:
        viewer.order = order
        viewer.woken.set()
