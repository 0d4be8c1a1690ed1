"""A table's shoe listings (``GET /v1/tables/T/shoes``) as this process last read them from the
record, kept a few seconds.

Every table view of the lobby page lists its table's earlier shoes (its history window), and a
listing is a record read that checks each listed shoe's chain: a crowd opening one table's view
would make one such read each. Kept :data:`SECONDS`, one read serves every view of the table in
that time. The rule: a listing is at most :data:`SECONDS` behind the record (a shoe closed a
moment ago shows a moment later; the current shoe's counts likewise), at most :data:`MOST`
listings a process, the least recently used leaving first. What a read raises (a broken chain,
a bad cursor, the record busy) is never kept: the next view asks again.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TypeVar

from cachetools import TTLCache

SECONDS = 5.0  # how long a listing serves
MOST = 256  # listings a process keeps: a page of up to 200 shoes each, a few hundred bytes a shoe

T = TypeVar("T")


class ShoeListings:
    """The listings this process read lately, by table, page size and cursor."""

    def __init__(
        self,
        seconds: float = SECONDS,
        most: int = MOST,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._kept: TTLCache = TTLCache(maxsize=most, ttl=seconds, timer=clock)
        self._lock = threading.Lock()

    def get(self, table: str, limit: int, cursor: str | None, read: Callable[[], T]) -> T:
        """The listing kept for these, else ``read()``'s (then kept)."""
        key = (table, limit, cursor)
        with self._lock:
            found = self._kept.get(key)
        if found is not None:
            return found
        listing = read()
        with self._lock:
            self._kept[key] = listing
        return listing
