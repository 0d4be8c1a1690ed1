"""This process's memory of answers it served lately, bounded by their total size.

Entries are keyed by the version they were built at (a shoe's, or the lobby's cursor), so an
entry never goes stale: a new round makes a new version and readers look up the new key. It saves
fetching the same bytes from Redis again and again for a busy picture; Redis stays the shared
cache between processes.
"""

from __future__ import annotations

import threading
from collections.abc import Hashable
from typing import Any

from cachetools import LRUCache


def _size(value: Any) -> int:
    # bytes, or a tuple whose last item is the bytes (it is what counts)
    return len(value[-1] if isinstance(value, tuple) else value)


class Memo:
    """Least recently used first out, at most ``max_bytes`` of values; safe across threads."""

    def __init__(self, max_bytes: int = 32 * 1024 * 1024) -> None:
        self.max_bytes = max_bytes
        self._entries: LRUCache[Hashable, Any] = LRUCache(maxsize=max_bytes, getsizeof=_size)
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Any:
        with self._lock:
            return self._entries.get(key)

    def put(self, key: Hashable, value: Any) -> None:
        if _size(value) > self.max_bytes:
            return
        with self._lock:
            self._entries[key] = value

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
