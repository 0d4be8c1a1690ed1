"""The lobby's event stream (``{lobby}:events``), read: ranges for a client that resumes, each
table's newest event, and a blocking reader on a connection of its own for a process's event hub
(:mod:`api.live.eventhub`). Entries come back as :class:`api.codecs.feedevents.Event`."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import redis

from api.codecs.feedevents import Event, entry_event
from api.storage.keys import LobbyKeys
from api.storage.transport import Transport


class EventStream:
    def __init__(
        self, transport: Transport, keys: LobbyKeys, connect: Callable[[], redis.Redis]
    ) -> None:
        self.transport = transport
        self.keys = keys
        self._connect = connect  # a client whose timeout outlasts a blocking read

    def between(self, first: str, last: str, count: int) -> list[Event]:
        """Up to ``count`` events from id ``first`` to ``last`` (``-`` and ``+``: the ends)."""
        entries = self.transport.command("XRANGE", self.keys.events, first, last, "COUNT", count)
        return [entry_event(entry_id, fields) for entry_id, fields in entries]

    def oldest(self) -> str | None:
        events = self.transport.command("XRANGE", self.keys.events, "-", "+", "COUNT", 1)
        return events[0][0].decode() if events else None

    def newest(self) -> str | None:
        events = self.transport.command("XREVRANGE", self.keys.events, "+", "-", "COUNT", 1)
        return events[0][0].decode() if events else None

    def counts(self) -> tuple[int, int]:
        """(events ever added, events kept); (0, 0) before the first."""
        try:
            info = self.transport.command("XINFO STREAM", self.keys.events)
        except redis.ResponseError:  # no stream yet: nothing was ever added
            return 0, 0
        return int(info["entries-added"]), int(info["length"])

    def newest_of(self, tables: Sequence[str]) -> list[str | None]:
        """The id of each table's newest event (``None``: none kept)."""
        found = self.transport.command("HMGET", self.keys.last_of, *tables)
        return [value.decode() if value else None for value in found]

    def reader(self) -> StreamReader:
        """A blocking reader of the stream, on a connection of its own."""
        return StreamReader(self._connect(), self.keys.events)


class StreamReader:
    """Blocking reads of the stream on one connection (one thread's)."""

    def __init__(self, client: redis.Redis, stream: str) -> None:
        self._client = client
        self._stream = stream

    def newest(self) -> str | None:
        events = self._client.xrevrange(self._stream, count=1)
        return events[0][0].decode() if events else None

    def after(self, last: str, *, block_ms: int, count: int) -> list[Event]:
        """The events after id ``last``, waiting up to ``block_ms`` for the first one."""
        answer = self._client.xread({self._stream: last}, block=block_ms, count=count)
        return [entry_event(id, fields) for _, entries in answer or [] for id, fields in entries]

    def close(self) -> None:
        self._client.close()
