"""A table's first page of shoes (``GET /v1/tables/T/shoes`` without a cursor) as this process
last read it from the record, kept a few seconds.

Every table view of the lobby page lists its table's earlier shoes (its history window), and a
listing is a record read that checks each listed shoe's chain: a crowd opening one table's view
would make one such read each, and find the record's readers busy (503). Kept :data:`SECONDS`,
one read serves every view of the table in that time, taking no reader's slot (the view asks
here before it enters the record's bound), and the views that ask while it is being read wait for
it rather than read it again (one read at a time a listing).

The rule: a listing is at most :data:`SECONDS` behind the record (a shoe closed a moment ago
shows a moment later, and a row tampered with a moment ago is refused a moment later; the shoe's
own summary, ``GET /v1/tables/T/shoes/S``, and its export are never kept); at most :data:`MOST`
listings a process, the least recently used leaving first; only first pages of up to
:data:`LONGEST` shoes are kept (the page's, and what a client picks beyond that is read each
time). What a read raises (a broken chain, the record busy) is never kept: the next view asks
again.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TypeVar

from cachetools import TTLCache

SECONDS = 5.0  # how long a listing serves
MOST = 256  # listings a process keeps
LONGEST = 20  # the longest page kept (the lobby page's): a few hundred bytes a shoe

T = TypeVar("T")


class ShoeListings:
    """The first pages this process read lately, by table and page size."""

    def __init__(
        self,
        seconds: float = SECONDS,
        most: int = MOST,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._kept: TTLCache = TTLCache(maxsize=most, ttl=seconds, timer=clock)
        self._lock = threading.Lock()
        self._reading: dict[tuple[str, int], threading.Lock] = {}  # one read at a time a key

    @staticmethod
    def kept(limit: int, cursor: str | None) -> bool:
        """Whether a listing of this page is kept (a first page of up to ``LONGEST`` shoes)."""
        return cursor is None and limit <= LONGEST

    def get(self, table: str, limit: int, cursor: str | None, read: Callable[[], T]) -> T:
        """The listing kept for these, else ``read()``'s (kept when :meth:`kept` says so)."""
        if not self.kept(limit, cursor):
            return read()
        key = (table, limit)
        found = self._found(key)
        if found is not None:
            return found
        with self._lock:
            turn = self._reading.setdefault(key, threading.Lock())
        try:
            with turn:
                found = self._found(key)  # read by the one before, while this one waited
                if found is not None:
                    return found
                listing = read()
                with self._lock:
                    self._kept[key] = listing
                return listing
        finally:
            with self._lock:
                if self._reading.get(key) is turn and not turn.locked():
                    del self._reading[key]

    def _found(self, key: tuple[str, int]) -> T | None:
        with self._lock:
            return self._kept.get(key)
