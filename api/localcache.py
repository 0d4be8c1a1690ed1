"""A small per-process cache of immutable responses, bounded by total size.

Entries are keyed by the shoe version they were built at, so an entry never goes stale: a new
round makes a new version and readers look up the new key. It saves fetching the same bytes from
Redis again and again for a busy picture; Redis stays the shared cache between processes.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any


class LocalCache:
    """Least-recently-used, thread-safe, at most ``max_bytes`` of values."""

    def __init__(self, max_bytes: int = 32 * 1024 * 1024) -> None:
        self.max_bytes = max_bytes
        self._entries: OrderedDict[Hashable, Any] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Any:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            self._entries.move_to_end(key)
            return entry[1]

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._size = 0

    def put(self, key: Hashable, value: Any) -> None:
        """Keep ``value``: bytes, or a tuple whose last item is the bytes (it is what counts)."""
        size = len(value[-1] if isinstance(value, tuple) else value)
        if size > self.max_bytes:
            return
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._size -= old[0]
            self._entries[key] = (size, value)
            self._size += size
            while self._size > self.max_bytes:
                _, (dropped, _) = self._entries.popitem(last=False)
                self._size -= dropped
