"""A process's pictures, behind a bound, painted in the process or by painter processes.

With painters (``ROADS_RENDERERS``, :mod:`.renderer`, started when the worker boots) a render
never holds the worker's event loop: a picture takes an idle painter, or waits its turn while at
most ``ROADS_RENDER_QUEUE`` wait in the process. Without (the default) a picture is painted in
the process, at most ``ROADS_RENDER_RATE`` a second (50), in bursts of as many.
Past either bound a reader is refused at once (:class:`Busy`, a 503 with ``Retry-After``), which
no write ever is. Measured on this 2-core box, painters keep a flood of pictures from delaying
the rounds stored beside it, but under a heavy mixed load near the CPU's limit they cost the
rounds more than they save (docs/operations.md), so they are not the default.
"""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from api.admission import Busy
from api.images.renderer import receive, send
from api.images.scene import Scene


class Painter:
    """One painter process and its pipes (one picture at a time). It is this interpreter running
    :mod:`.renderer` as a module, found as this process found it (the installed package, or a
    checkout in the working directory both inherit): no path into a checkout is assumed."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "api.images.renderer"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )

    def paint(self, scene: Scene) -> bytes:
        send(self.process.stdin, scene)
        reply = receive(self.process.stdout)
        if isinstance(reply, str):
            raise RuntimeError(f"the painter failed: {reply}")
        return reply

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def _paint_here(scene: Scene) -> bytes:
    from api.images.paint import paint

    return paint(scene)


class RenderPool:
    """This process's painters (made on first use, and again in a forked child)."""

    def __init__(self, size: int, waiting: int, rate: float = 50.0) -> None:
        self.size = size
        self.waiting = waiting
        # Painting in the process holds its event loop: no queue forms where it can be counted
        # (each picture has finished before the next reaches its slot), so what is bounded there
        # is the rate: a bucket of a second's pictures (a lobby's first screen of tiles), refilled
        # at ``rate`` a second.
        self.rate = rate
        self._burst = max(float(waiting), rate)
        self._tokens = self._burst
        self._filled = time.monotonic()
        self._pid: int | None = None
        self._lock = threading.Lock()
        self._idle: queue.Queue[Painter] = queue.Queue()
        self._painters: list[Painter] = []
        self._in_flight = 0

    def paint(self, scene: Scene) -> bytes:
        """The scene as PNG bytes. Raises :class:`Busy` when the queue is full."""
        with self.slot() as paint:
            return paint(scene)

    @contextmanager
    def slot(self) -> Iterator[Callable[[Scene], bytes]]:
        """A place in this process's queue, taken before any work on a picture begins (so a
        picture refused costs nothing), and what paints in it. Raises :class:`Busy` when the
        queue is full."""
        self._start()
        with self._lock:
            if self._in_flight >= max(self.size, 1) + self.waiting or not self._budget():
                raise Busy("every picture painter is busy; retry shortly")
            self._in_flight += 1
        try:
            yield self._paint if self.size else _paint_here
        finally:
            with self._lock:
                self._in_flight -= 1

    def _budget(self) -> bool:
        """Whether a picture may be painted in the process now (always, with painters)."""
        if self.size:
            return True
        now = time.monotonic()
        self._tokens = min(self._burst, self._tokens + (now - self._filled) * self.rate)
        self._filled = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True

    def _paint(self, scene: Scene) -> bytes:
        painter = self._idle.get()
        try:
            return painter.paint(scene)
        except (EOFError, OSError):  # the painter died: replace it, the reader retries
            painter.stop()
            painter = self._replace(painter)
            raise Busy("a picture painter restarted; retry shortly") from None
        finally:
            self._idle.put(painter)

    @property
    def in_flight(self) -> int:
        return self._in_flight

    def start(self) -> None:
        """Start this process's painters now (a worker at boot: a painter takes a second to
        load matplotlib and warm up, which no picture should wait for)."""
        self._start()

    def _start(self) -> None:
        if self._pid == os.getpid():
            return
        with self._lock:
            if self._pid == os.getpid():
                return
            self._idle = queue.Queue()
            self._painters = [Painter() for _ in range(self.size)]
            for painter in self._painters:
                self._idle.put(painter)
            self._in_flight = 0
            self._pid = os.getpid()

    def _replace(self, painter: Painter) -> Painter:
        fresh = Painter()
        with self._lock:
            self._painters = [fresh if p is painter else p for p in self._painters]
        return fresh

    def stop(self) -> None:
        """Stop this process's painters (the process is exiting)."""
        if self._pid != os.getpid():
            return
        for painter in self._painters:
            painter.stop()
        self._painters = []
        self._pid = None
