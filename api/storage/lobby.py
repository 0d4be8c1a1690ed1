"""The lobby-wide view in Redis: every table's summary, Good Roads membership and the events.

A lobby request reads every table at once, so its data lives in a few keys that hold all tables,
read in one round trip whatever the number of tables:

- ``{lobby}:tables``: hash table -> ``{"name", "variant"}`` (the registry of tables);
- ``{lobby}:summaries``: hash table -> the current shoe's summary (:func:`roads.lobby.summary`
  plus ``shoe`` and ``version``);
- ``{lobby}:shapes``: hash table -> the Big Road's columns (:class:`roads.lobby.RoadShape`), for
  matching a client's own pattern;
- ``{lobby}:matched``: hash table -> the patterns it matches (``id=since_round,...``);
- ``{lobby}:edges``: hash table -> the bets with a return above 100% now (``bet=rtp,...``);
- ``{lobby}:good:PATTERN``: hash table -> since_round, one per built-in pattern (the members);
- ``{lobby}:grown:ROAD``: hash table -> the lobby sequence number at which the table's current
  run on ROAD last grew, removed when another run starts (for the "grew since" badge);
- ``{lobby}:seq``: the lobby sequence number, raised by every update (the badge cursor);
- ``{lobby}:epoch``: a random name for this lobby's life: if Redis loses the lobby, sequence
  numbers start again under a new epoch, so no answer cached under the old one is served;
- ``{lobby}:applied``: hash table -> the last table write applied here;
- ``{lobby}:events``: the Redis Stream the live event feed (``/v1/events``) reads.

(Their names come from :class:`api.storage.keys.LobbyKeys`, with the deployment's prefix.)

**No cross-slot command.** All of these share the hash tag ``{lobby}`` (one Redis Cluster slot),
and every table's own keys share ``{t:TABLE}``. A write is committed by a script on the table's
slot, which also keeps the lobby update it implies (``{t:TABLE}:lobby``, numbered by the table's
write sequence); the service then hands that update to a second script, on the lobby's slot
(:mod:`api.storage.lobbyscript`). That script applies each table's updates once and in order
(an older or repeated one changes nothing), so a retry of a write whose answer was lost hands the
stored update over again safely. Between the two steps the lobby
can lag the table by one write; the write is answered only after both. On a single Redis server
both scripts go in one round trip, the second reading the update from the table's key.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import redis

from api.storage.keys import LobbyKeys
from api.storage.lobbyscript import (
    LOBBY_RETIRE,
    STREAM_LENGTH,
    compact,
    registry_entry,
    retire_keys,
)
from roads.lobby import LOBBY_ROADS, RoadShape, sort_key
from roads.patterns import Pattern


class Lobby:
    """Reads of the lobby-wide structures, and naming a table in them."""

    def __init__(self, client: Callable[[], redis.Redis], keys: LobbyKeys) -> None:
        # ``client()``: this process's client (see api.storage.transport.Transport.client).
        self._client = client
        self.keys = keys
        # Parsed JSON per table, reused while the stored bytes are unchanged.
        self._parsed: dict[tuple[str, str], tuple[bytes, Any]] = {}

    def register(self, table: str, name: str, variant: str) -> None:
        """Name a table in the lobby (and move the lobby's cursor: its answers changed)."""
        pipe = self._client().pipeline(transaction=True)
        pipe.hset(self.keys.tables, table, registry_entry(name, variant))
        pipe.hdel(self.keys.retired, table)
        pipe.incr(self.keys.seq)
        pipe.execute()

    def retire(self, table: str) -> bool:
        """Take the table out of the lobby, Good Roads and the event feed until a round for it
        starts it again (:data:`~api.storage.lobbyscript.LOBBY_RETIRE`); its rounds are not
        touched. ``False`` when the lobby did not list it."""
        found = LOBBY_RETIRE.run(self._client(), retire_keys(self.keys), [table, STREAM_LENGTH])
        return bool(found)

    def cursor(self) -> tuple[str, int]:
        """(epoch, lobby sequence number): what every lobby answer is cached under."""
        pipe = self._client().pipeline(transaction=True)
        pipe.get(self.keys.epoch)
        pipe.get(self.keys.seq)
        epoch, seq = pipe.execute()
        return self._epoch(epoch), int(seq or 0)

    def tables(
        self, *, grown_road: str | None = None, parsed: bool = False
    ) -> tuple[tuple[str, int], list[Tile], dict]:
        """((epoch, lobby sequence number), every table's tile, the ``grown`` hash of
        ``grown_road``), all read at one instant; with ``parsed``, each tile's summary too."""
        keys = self.keys
        pipe = self._client().pipeline(transaction=True)
        pipe.get(keys.epoch)
        pipe.get(keys.seq)
        pipe.hgetall(keys.tables)
        pipe.hgetall(keys.summaries)
        if grown_road is not None:
            pipe.hgetall(keys.grown(grown_road))
        epoch, seq, registry, summaries, *grown = pipe.execute()
        tiles = [
            self._tile(table.decode(), entry, summaries.get(table), parsed)
            for table, entry in registry.items()
        ]
        return (self._epoch(epoch), int(seq or 0)), tiles, (grown[0] if grown else {})

    def _epoch(self, epoch: bytes | None) -> str:
        if epoch is None:  # a new lobby, or one Redis lost: name this life of it
            client: redis.Redis = self._client()
            client.set(self.keys.epoch, secrets.token_hex(8), nx=True)
            epoch = client.get(self.keys.epoch)
        return epoch.decode()

    def members(self, patterns: Sequence[str]) -> list[tuple[str, str, int]]:
        """(table, pattern, since_round) of every table that matches each built-in pattern."""
        pipe = self._client().pipeline(transaction=False)
        for pattern in patterns:
            pipe.hgetall(self.keys.good(pattern))
        found = []
        for pattern, members in zip(patterns, pipe.execute(), strict=True):
            found += [(table.decode(), pattern, int(since)) for table, since in members.items()]
        return found

    def custom_members(self, patterns: Sequence[Pattern]) -> list[tuple[str, str, int]]:
        """(table, pattern id, since_round) of every table whose Big Road matches a client's
        own pattern now."""
        found = []
        for table, raw in self._client().hgetall(self.keys.shapes).items():
            shape = RoadShape.from_dict(self._parse("shape", table.decode(), raw))
            for good in shape.good_roads(patterns):
                found.append((table.decode(), good["pattern"], good["since_round"]))
        return found

    def tiles_of(self, tables: Sequence[str]) -> dict[str, Tile]:
        """The tiles of these tables (one round trip)."""
        if not tables:
            return {}
        pipe = self._client().pipeline(transaction=True)
        pipe.hmget(self.keys.tables, tables)
        pipe.hmget(self.keys.summaries, tables)
        entries, summaries = pipe.execute()
        return {
            table: self._tile(table, entry, summary, False)
            for table, entry, summary in zip(tables, entries, summaries, strict=True)
            if entry is not None
        }

    def _tile(self, table: str, entry: bytes, raw: bytes | None, parsed: bool) -> Tile:
        summary = raw or EMPTY_JSON
        # Both stored values are JSON objects: the tile is the two spliced after the id, never
        # decoded and encoded again (a lobby answer holds every table's tile).
        text = b'{"table":"%s",%s,%s' % (table.encode(), entry[1:-1], summary[1:])
        return Tile(table, text, self._parse("summary", table, raw) if parsed and raw else None)

    def _parse(self, kind: str, table: str, raw: bytes) -> Any:
        known = self._parsed.get((kind, table))
        if known is not None and known[0] == raw:
            return known[1]
        value = json.loads(raw)
        self._parsed[(kind, table)] = (raw, value)
        return value


# The edge flags of a tile (``"edge":{"bet":rtp,...}``): only readers of the odds see them.
EDGE = re.compile(rb'"edge":\{[^{}]*\}')


def without_edge(text: bytes) -> bytes:
    """A tile's JSON (or JSON holding tiles) with the edge flags emptied."""
    return EDGE.sub(b'"edge":{}', text)


@dataclass(frozen=True)
class Tile:
    """A table's tile as JSON (``table``, ``name``, ``variant``, then the summary of
    :func:`api.storage.lobbyscript.update_of`), and the summary parsed when it was asked for
    (``None`` for a table with no rounds yet, or when not asked)."""

    table: str
    json: bytes
    summary: dict[str, Any] | None = None


EMPTY: dict[str, Any] = {
    "shoe": None,
    "version": 0,
    "rounds_played": 0,
    "recent": [],
    "streaks": {
        road: {
            "current": {"side": None, "length": 0},
            "longest": {"side": None, "length": 0},
        }
        for road in LOBBY_ROADS
    },
    "good_roads": [],
    "edge": {},
}


EMPTY_JSON = compact(EMPTY).encode()


def sorted_by_streak(tiles: list[Tile], road: str) -> list[Tile]:
    """Longest current run on ``road`` first, then longest run of the shoe, then by id (the
    tiles' summaries parsed)."""
    by_id = sorted(tiles, key=lambda tile: tile.table)
    return sorted(by_id, key=lambda tile: sort_key(road, tile.summary or EMPTY), reverse=True)
