"""What keeps a reader from holding a process's event loop: a :class:`Gate` bounds how many of
one kind of CPU-heavy read (a Good Roads query with custom patterns over every table) run at once
in a process; one more is refused at once (:class:`Busy`, a 503 with ``Retry-After``). Writes are
never gated. Pictures are bounded by their painters' queue (:mod:`api.images.pool`), live-feed
clients by ``ROADS_FEED_CLIENTS`` (:mod:`api.live.feedservice`). It stands beside the layers, as the
metrics do: the services hold the gates, the views enter them."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager


class Busy(Exception):
    """Too many readers of this kind at once here (a gate, or the pictures' queue of
    :mod:`api.images.pool`): retry shortly (503)."""


class Gate:
    def __init__(self, limit: int, what: str) -> None:
        self.limit = limit
        self.what = what
        self._open = threading.BoundedSemaphore(limit)

    @contextmanager
    def entered(self) -> Iterator[None]:
        if not self._open.acquire(blocking=False):
            raise Busy(f"{self.limit} {self.what} are being computed here already; retry shortly")
        try:
            yield
        finally:
            self._open.release()


class Pace:
    """At most ``rate`` admissions a second, in bursts of up to ``rate`` (a token bucket);
    ``rate`` 0 admits all. New live-feed viewers pass one, so a reconnecting crowd (a proxy or an
    instance restarted under 10,000 viewers) is spread over seconds instead of landing at once:
    each new viewer first reads the whole lobby, the costliest answer of the feed."""

    def __init__(self, rate: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self._clock = clock
        self._tokens = rate
        self._at = clock()
        self._lock = threading.Lock()

    def admit(self) -> bool:
        if self.rate <= 0:
            return True
        with self._lock:
            now = self._clock()
            self._tokens = min(self.rate, self._tokens + (now - self._at) * self.rate)
            self._at = now
            if self._tokens < 1:
                return False
            self._tokens -= 1
            return True
