"""The scorecard of each table's last write made by this process, so the next append to that
table can skip reading the shoe back from Redis.

A dealer's rounds come one after another, usually through the same service process, and each
append needs the shoe's version, its round count and its scorecard. The process that committed
round n already holds all three for round n + 1. They are only a guess: the write script checks
the shoe's version, its round count, the table's current shoe and its pay table, and changes
nothing if any differs, and the caller then reads the shoe from Redis and computes again. So a
stale guess costs a retry, never a wrong write.

An entry is taken out when it is used (the scorecard is then changed in place) and put back only
by the write that succeeded with it, so two requests never share one.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from cachetools import LRUCache

from api.plan.plan import Base
from roads import Scorecard
from roads.paytables import PayTable
from roads.shoe import ShoeHead, Verdict, check_append


@dataclass(frozen=True)
class LastWrite:
    """A table's shoe as this process's last write left it."""

    shoe: str
    version: int
    count: int
    variant: str
    scorecard: Scorecard
    paytable: PayTable | None = None  # the pay table ``variant`` names, when not a preset

    @property
    def head(self) -> ShoeHead:
        """The shoe as this write left it: the table's current shoe then."""
        return ShoeHead(self.shoe, self.count, self.shoe)

    @property
    def base(self) -> Base:
        """The next append to the shoe, computed from what this write left."""
        return Base(self.head, self.version, self.variant, self.scorecard, paytable=self.paytable)


class RecentWrites:
    """At most ``max_tables`` tables' last writes, least recently written dropped first."""

    def __init__(self, max_tables: int = 2000) -> None:
        self.max_tables = max_tables
        self._entries: LRUCache[str, LastWrite] = LRUCache(maxsize=max_tables)
        self._lock = threading.Lock()

    def take(self, table: str, shoe: str) -> LastWrite | None:
        """The table's last write if it was to ``shoe``; it is no longer kept here."""
        with self._lock:
            entry = self._entries.pop(table, None)
        return entry if entry is not None and entry.shoe == shoe else None

    def take_next(self, table: str, shoe: str, number: int) -> LastWrite | None:
        """The table's last write if round ``number`` of ``shoe`` comes right after it; it is
        then no longer kept here (any other entry stays)."""
        with self._lock:
            entry = self._entries.get(table)
            if entry is None or entry.shoe != shoe:
                return None
            if check_append(entry.head, number) is not Verdict.NEXT:
                return None
            del self._entries[table]
        return entry

    def keep(self, table: str, write: LastWrite) -> None:
        with self._lock:
            self._entries.pop(table, None)
            self._entries[table] = write
