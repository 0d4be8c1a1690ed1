"""What keeps a reader from holding a process's event loop: a :class:`Gate` bounds how many of
one kind of CPU-heavy read (a Good Roads query with custom patterns over every table) run at once
in a process; one more is refused at once (:class:`Busy`, a 503 with ``Retry-After``). Writes are
never gated. Pictures are bounded by their painters' queue (:mod:`api.images.pool`), live-feed
clients by ``ROADS_FEED_CLIENTS`` (:mod:`api.http.events`). It stands beside the layers, as the
metrics do: the services hold the gates, the views enter them."""

from __future__ import annotations

import threading
from collections.abc import Iterator
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
