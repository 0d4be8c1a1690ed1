"""What the GRIP publisher (:mod:`api.live.publisher`) keeps in Redis: its lease
(``{lobby}:publisher``, held by one process of the deployment at a time) and its cursor
(``{lobby}:published``, the id of the last event it published), on a connection of its own."""

from __future__ import annotations

import redis

from api.codecs.feedevents import Event
from api.storage.eventstream import StreamReader
from api.storage.keys import LobbyKeys
from api.storage.leases import take_on
from api.storage.luascript import Script

# Move the cursor only while holding the lease.
ADVANCE = Script(__package__, "advance.lua")


class PublishingSession:
    """One connection's use of the lease, the cursor and the stream."""

    def __init__(self, client: redis.Redis, keys: LobbyKeys) -> None:
        self._client = client
        self._keys = keys
        self._stream = StreamReader(client, keys.events)

    def lease(self, holder: str, ttl_ms: int) -> int:
        """Take or renew the lease: 0 held by another, 1 renewed, 2 taken."""
        return take_on(self._client, self._keys.publisher, holder, ttl_ms)

    def advance(self, holder: str, event_id: str) -> bool:
        """Move the cursor to ``event_id``, only while ``holder`` holds the lease."""
        keys = self._keys
        moved = ADVANCE.run(
            self._client,
            lease_key=keys.publisher,
            cursor_key=keys.published,
            holder=holder,
            event_id=event_id,
        )
        return bool(moved)

    def cursor(self) -> str:
        """Where publishing goes on: the cursor, or the stream's end for the first publisher."""
        cursor = self._client.get(self._keys.published)
        if cursor is not None:
            return cursor.decode()
        self._client.set(self._keys.published, self._stream.newest() or "0-0", nx=True)
        return self._client.get(self._keys.published).decode()

    def after(self, last: str, *, block_ms: int, count: int) -> list[Event]:
        return self._stream.after(last, block_ms=block_ms, count=count)

    def close(self) -> None:
        self._client.close()
