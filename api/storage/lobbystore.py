"""The lobby-wide view in Redis: every table's summary, Good Roads membership and the events.

A lobby request reads every table at once, so its data lives in a few keys that hold all tables,
read in one round trip whatever the number of tables:

- ``{lobby}:tables``: hash table -> ``{"name", "variant", "next_variant", "limits"}`` (the
  registry of tables, :func:`api.codecs.tiles.registry_entry`);
- ``{lobby}:paytables``: hash name -> a pay table of the deployment's own
  (:mod:`api.storage.paytablestore`);
- ``{lobby}:statuses``: hash table -> its status as the studio last reported it
  (:mod:`api.codecs.tablestatus`; none: open);
- ``{lobby}:dealers``: hash table -> its current dealer, JSON ``{"id", "name"}`` (the name
  once the studio named the dealer: :mod:`api.codecs.roundfacts`; none: no dealer reported);
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

import secrets
import time
from collections.abc import Sequence
from typing import Any, Literal

from api.codecs.jsontext import dumps_text, loads
from api.codecs.shoefacts import Fact
from api.codecs.tiles import EMPTY, Tile, registry_entry
from api.storage.keys import LobbyKeys
from api.storage.lobbyscript import (
    LOBBY_EVENT,
    LOBBY_RETIRE,
    LOBBY_STATUS,
    STREAM_LENGTH,
    retire_named,
    status_named,
)
from api.storage.tilerebuild import Stale, TileRebuild
from api.storage.transport import Transport
from roads.lobby import RoadShape, sort_key
from roads.patterns import Pattern

#: What :meth:`Lobby.emit` did.
Emitted = Literal["sent", "unlisted", "repeated"]

# How many times a read makes stale tiles again before it serves what it has (an earlier
# release writing beside this one may store its format again meanwhile; Tile.of still fills in
# what such a tile lacks).
REBUILD_PASSES = 2


class Lobby:
    """Reads of the lobby-wide structures, and naming a table in them. With ``rebuild``, a
    tile stored in an older format is made again before a read serves it
    (:mod:`api.storage.tilerebuild`)."""

    def __init__(
        self, transport: Transport, keys: LobbyKeys, rebuild: TileRebuild | None = None
    ) -> None:
        self.transport = transport
        self.keys = keys
        self.rebuild = rebuild
        # Each table's tile, encoded again only when its stored values change.
        self._tiles: dict[str, tuple[tuple[bytes, bytes | None, bytes | None], Tile]] = {}
        self._shapes: dict[str, tuple[bytes, RoadShape]] = {}

    def register(
        self,
        table: str,
        name: str,
        variant: str,
        limits: dict[str, Any] | None = None,
        *,
        next_variant: str | None = None,
    ) -> None:
        """Name a table in the lobby with its pay table, limits and the pay table waiting for
        its next shoe (and move the lobby's cursor: its answers changed)."""
        entry = registry_entry(name, variant, limits, next_variant)
        self.transport.multi(
            [
                ("HSET", self.keys.tables, table, entry),
                ("HDEL", self.keys.retired, table),
                ("INCR", self.keys.seq),
            ]
        )

    def retire(self, table: str) -> bool:
        """Take the table out of the lobby, Good Roads and the event feed until a round for it
        starts it again (:data:`~api.storage.lobbyscript.LOBBY_RETIRE`); its rounds are not
        touched. ``False`` when the lobby did not list it."""
        found = self.transport.script(LOBBY_RETIRE, **retire_named(self.keys, table))
        return bool(found)

    def set_status(self, table: str, fields: dict[str, Any], report: dict[str, Any]) -> bool:
        """Set the table's status (:func:`api.codecs.tablestatus.status_fields`), with a
        ``status`` event of ``report``; ``False`` when the lobby does not list the table
        (:data:`~api.storage.lobbyscript.LOBBY_STATUS`)."""
        named = status_named(self.keys, table, dumps_text(fields), dumps_text(report))
        return bool(self.transport.script(LOBBY_STATUS, **named))

    def lists(self, table: str) -> bool:
        """Whether the lobby lists the table (named or dealt, not retired)."""
        return bool(self.transport.command("HEXISTS", self.keys.tables, table))

    def emit(self, table: str, kind: str, data: str, fact: Fact | None = None) -> Emitted:
        """Send an event of ``kind`` (``data`` JSON) on the table's channel and the lobby's,
        changing no tile, and keep the ``fact`` it states of a shoe for the integrity watch
        (:func:`api.codecs.shoefacts.fact_of`): ``sent``; ``unlisted`` when the lobby does not
        list the table; ``repeated`` (no event) when the fact changes nothing."""
        shoe, name, value, keep = fact or ("", "", 0, False)
        named = {
            "tables_key": self.keys.tables,
            "events_key": self.keys.events,
            "last_of_key": self.keys.last_of,
            "shoe_facts_key": self.keys.shoe_facts,
            "table_id": table,
            "kind": kind,
            "data": data,
            "stream_length": STREAM_LENGTH,
            "fact_shoe": shoe,
            "fact": name,
            "fact_value": value,
            "fact_keep": int(keep),
        }
        return ("unlisted", "sent", "repeated")[int(self.transport.script(LOBBY_EVENT, **named))]

    def shoe_facts(self, table: str) -> bytes | None:
        """What the studio reported of the table's latest shoe it reported on, as kept
        (:func:`api.codecs.shoefacts.facts_of` reads it)."""
        return self.transport.command("HGET", self.keys.shoe_facts, table)

    def size(self) -> int:
        """How many tables the lobby lists."""
        return int(self.transport.command("HLEN", self.keys.tables))

    def cursor(self) -> tuple[str, int]:
        """(epoch, lobby sequence number): what every lobby answer is cached under."""
        epoch, seq = self.transport.multi([("GET", self.keys.epoch), ("GET", self.keys.seq)])
        return self._epoch(epoch), int(seq or 0)

    def tables(self, *, grown_road: str | None = None) -> tuple[tuple[str, int], list[Tile], dict]:
        """((epoch, lobby sequence number), every table's tile, the ``grown`` hash of
        ``grown_road``), all read at one instant, no tile of an older format among them."""
        for _ in range(REBUILD_PASSES):
            read, stale, listed = self._tables(grown_road)
            if not self._rebuilt(stale, listed):
                return read
        return self._tables(grown_road)[0]

    def _tables(
        self, grown_road: str | None
    ) -> tuple[tuple[tuple[str, int], list[Tile], dict], list[Stale], int]:
        """One read of :meth:`tables`, the stale tiles it found and the tables listed."""
        keys = self.keys
        commands = [
            ("GET", keys.epoch),
            ("GET", keys.seq),
            ("HGETALL", keys.tables),
            ("HGETALL", keys.summaries),
            ("HGETALL", keys.statuses),
            ("HGETALL", keys.dealers),
        ]
        if grown_road is not None:
            commands.append(("HGETALL", keys.grown(grown_road)))
        epoch, seq, registry, summaries, statuses, dealers, *grown = self.transport.multi(commands)
        tiles = [
            self._tile(
                table.decode(), entry, summaries.get(table), statuses.get(table), dealers.get(table)
            )
            for table, entry in registry.items()
        ]
        stale = [
            (tile.table, registry[tile.table.encode()], summaries[tile.table.encode()])
            for tile in tiles
            if tile.stale
        ]
        read = (self._epoch(epoch), int(seq or 0)), tiles, (grown[0] if grown else {})
        return read, stale, len(registry)

    def _rebuilt(self, stale: list[Stale], listed: int) -> bool:
        """Whether stale tiles were made again (and the lobby is to be read again)."""
        return bool(stale) and self.rebuild is not None and self.rebuild.rebuild(stale, listed) > 0

    def _epoch(self, epoch: bytes | None) -> str:
        if epoch is None:  # a new lobby, or one Redis lost: name this life of it
            self.transport.command("SET", self.keys.epoch, secrets.token_hex(8), "NX")
            epoch = self.transport.command("GET", self.keys.epoch)
        return epoch.decode()

    def members(self, patterns: Sequence[str]) -> list[tuple[str, str, int]]:
        """(table, pattern, since_round) of every table that matches each built-in pattern."""
        if not patterns:
            return []
        replies = self.transport.multi(
            [("HGETALL", self.keys.good(pattern)) for pattern in patterns], atomic=False
        )
        found = []
        for pattern, members in zip(patterns, replies, strict=True):
            found += [(table.decode(), pattern, int(since)) for table, since in members.items()]
        return found

    def custom_members(self, patterns: Sequence[Pattern]) -> list[tuple[str, str, int]]:
        """(table, pattern id, since_round) of every table whose Big Road matches a client's
        own pattern now."""
        found = []
        for count, (table, raw) in enumerate(
            self.transport.command("HGETALL", self.keys.shapes).items()
        ):
            if count % 64 == 63:
                time.sleep(0)  # under gevent, let the process's other requests (ingest) run
            for good in self._shape(table.decode(), raw).good_roads(patterns):
                found.append((table.decode(), good["pattern"], good["since_round"]))
        return found

    def tiles_of(self, tables: Sequence[str]) -> dict[str, Tile]:
        """The tiles of these tables (one round trip; another after making stale ones again)."""
        if not tables:
            return {}
        for _ in range(REBUILD_PASSES):
            found, stale = self._tiles_of(tables)
            if not stale or not self._rebuilt(stale, self.size()):
                return found
        return self._tiles_of(tables)[0]

    def _tiles_of(self, tables: Sequence[str]) -> tuple[dict[str, Tile], list[Stale]]:
        """One read of :meth:`tiles_of`, and the stale tiles it found."""
        entries, summaries, statuses, dealers = self.transport.multi(
            [
                ("HMGET", self.keys.tables, *tables),
                ("HMGET", self.keys.summaries, *tables),
                ("HMGET", self.keys.statuses, *tables),
                ("HMGET", self.keys.dealers, *tables),
            ]
        )
        found, stale = {}, []
        stored = zip(tables, entries, summaries, statuses, dealers, strict=True)
        for table, entry, summary, status, dealer in stored:
            if entry is not None:
                found[table] = self._tile(table, entry, summary, status, dealer)
                if found[table].stale:
                    stale.append((table, entry, summary))
        return found, stale

    def _tile(
        self,
        table: str,
        entry: bytes,
        summary: bytes | None,
        status: bytes | None = None,
        dealer: bytes | None = None,
    ) -> Tile:
        stored = (entry, summary, status, dealer)
        known = self._tiles.get(table)
        if known is not None and known[0] == stored:
            return known[1]
        tile = Tile.of(table, entry, summary, status, dealer)
        self._tiles[table] = (stored, tile)
        return tile

    def _shape(self, table: str, raw: bytes) -> RoadShape:
        known = self._shapes.get(table)
        if known is not None and known[0] == raw:
            return known[1]
        shape = RoadShape.from_dict(loads(raw))
        self._shapes[table] = (raw, shape)
        return shape


def sorted_by_streak(tiles: list[Tile], road: str) -> list[Tile]:
    """Longest current run on ``road`` first, then longest run of the shoe, then by id."""
    by_id = sorted(tiles, key=lambda tile: tile.table)
    return sorted(by_id, key=lambda tile: sort_key(road, tile.summary or EMPTY), reverse=True)
