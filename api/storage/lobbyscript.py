"""How a committed write reaches the lobby: the script that applies its lobby update
(``lobby_publish.lua``), the one that takes a retired table out (``lobby_retire.lua``), and the
one that sets a table's status as the studio reports it (``lobby_status.lua``), and the one
that sends an event of the table that changes no tile (``lobby_event.lua``).

A write is committed by a script on its table's slot (:mod:`api.storage.writescripts`), which also
keeps the lobby update its plan carries (:mod:`api.codecs.lobbyupdate`) at ``{t:TABLE}:lobby``.
:data:`LOBBY_PUBLISH` then applies it to the lobby-wide keys, on the lobby's slot: on a single
Redis server in the same round trip, reading the update from the table's key; on Redis Cluster in
a second one, with the update passed in.

**Why the Good Road and edge transitions are made in Lua.** A ``good_road`` or ``edge`` event
fires when a table starts or stops matching, which depends on the membership the lobby held when
the update is applied. Updates of one table may be applied late, twice (a retried write hands its
stored update over again) or by two processes at once; only the script, reading the old
membership and writing the new one atomically and skipping any update older than the last one
applied, can fire each transition once and in order. The rule itself is
:func:`roads.lobby.transitions`, and the tests hold the script to it. So with the lobby's chance
of a Good Road (:func:`roads.rarity.lobby_chance` of the pattern's chance, which Python states,
and the tables the lobby lists as the event is added).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from api.codecs import lobbyupdate, shoefacts, tiles
from api.codecs.tiles import registry_entry
from api.storage.integrity import watchapply
from api.storage.integrity.watchapply import IntegrityApply
from api.storage.keys import IntegrityKeys, LobbyKeys
from api.storage.luascript import Bound, Script
from roads.lobby import LOBBY_ROADS
from roads.patterns import PATTERNS
from roads.rarity import figure, pattern_chance

# Events kept for clients that resume (approximate, trimmed by Redis). A round's event holds its
# road patch and the tile, about 3 KB, so the stream holds at most about 30 MB.
STREAM_LENGTH = 10_000
PATTERN_IDS = ",".join(pattern.id for pattern in PATTERNS)

LOBBY_PUBLISH = Script(
    __package__, "lobby_publish.lua", uses=[lobbyupdate.LUA, tiles.LUA, *watchapply.USES]
)
LOBBY_RETIRE = Script(__package__, "lobby_retire.lua")
LOBBY_STATUS = Script(__package__, "lobby_status.lua")
LOBBY_EVENT = Script(__package__, "lobby_event.lua", uses=[shoefacts.LUA])


def _tile_indexes(keys: LobbyKeys) -> dict[str, Any]:
    """Each lobby road's "grown" hash and each pattern's member hash, as both scripts name
    them."""
    return {
        **{f"{road}_grown_key": keys.grown(road) for road in LOBBY_ROADS},
        "member_keys": [keys.good(pattern.id) for pattern in PATTERNS],
    }


def retire_named(keys: LobbyKeys, table: str) -> dict[str, Any]:
    """The call of :data:`LOBBY_RETIRE` that takes ``table`` out of the lobby."""
    return {
        "tables_key": keys.tables,
        "summaries_key": keys.summaries,
        "shapes_key": keys.shapes,
        "matched_key": keys.matched,
        "edges_key": keys.edges,
        "seq_key": keys.seq,
        "events_key": keys.events,
        "retired_key": keys.retired,
        "last_of_key": keys.last_of,
        **_tile_indexes(keys),
        "statuses_key": keys.statuses,
        "dealers_key": keys.dealers,
        "shoe_facts_key": keys.shoe_facts,
        "table_id": table,
        "stream_length": STREAM_LENGTH,
    }


def status_named(keys: LobbyKeys, table: str, stored: str, data: str) -> dict[str, Any]:
    """The call of :data:`LOBBY_STATUS` that sets ``table``'s status to ``stored``, with the
    event whose data is ``data``."""
    return {
        "tables_key": keys.tables,
        "statuses_key": keys.statuses,
        "seq_key": keys.seq,
        "events_key": keys.events,
        "last_of_key": keys.last_of,
        "table_id": table,
        "stored": stored,
        "data": data,
        "stream_length": STREAM_LENGTH,
    }


@dataclass(frozen=True)
class LobbyPublish:
    """Hand a committed write's lobby update to the lobby: applied once and in table write order
    (an older or repeated one changes nothing), so a retried write may hand it over again, in
    case the first answer was lost before the lobby had it. With the integrity watch on
    (``watch``), its part of the update is applied in the same call."""

    keys: LobbyKeys
    watch: IntegrityApply | None = None
    hands: int | None = None  # the shoe a Good Road's chance is stated for (None: none)

    @cached_property
    def chances(self) -> str:
        """Each pattern's chance in a shoe of ``hands`` hands, in :data:`PATTERN_IDS`' order,
        as a ``good_road`` start event states it (:func:`roads.rarity.figure`)."""
        if self.hands is None:
            return ""
        return ",".join(str(figure(pattern_chance(p, self.hands).value)) for p in PATTERNS)

    @cached_property
    def _watch(self) -> IntegrityApply:
        """The watch's keys and arguments: passed with the watch off too (``watch_on`` 0)."""
        return self.watch or IntegrityApply(IntegrityKeys(self.keys.tag))

    @cached_property
    def _fixed(self) -> dict[str, Any]:
        """What every call holds alike."""
        keys = self.keys
        return {
            "applied_key": keys.applied,
            "tables_key": keys.tables,
            "summaries_key": keys.summaries,
            "shapes_key": keys.shapes,
            "matched_key": keys.matched,
            "seq_key": keys.seq,
            "events_key": keys.events,
            "edges_key": keys.edges,
            "retired_key": keys.retired,
            "last_of_key": keys.last_of,
            **_tile_indexes(keys),
            **self._watch.fixed,
            "dealers_key": keys.dealers,
            "shoe_facts_key": keys.shoe_facts,
            "stream_length": STREAM_LENGTH,
            "pattern_ids": PATTERN_IDS,
            "chances": self.chances,
            "watch_on": int(self.watch is not None),
        }

    @cached_property
    def _bound(self) -> Bound:
        """The script's call with :attr:`_fixed` laid out once (what :meth:`named` adds to it
        is filled in per write)."""
        return LOBBY_PUBLISH.bind(self._fixed)

    def named(self, table: str, stored: bytes | str, update_key: str, day: str) -> dict[str, Any]:
        """The call applying ``table``'s ``stored`` update (``""``: read from ``update_key``)."""
        return {**self._fixed, **self._varying(table, stored, update_key, day)}

    def _varying(self, table: str, stored: bytes | str, update_key: str, day: str) -> dict:
        """What differs from one call to the next (the rest is :attr:`_fixed`)."""
        return {
            "lobby_update_key": update_key,
            "found_key": self._watch.found_key(table),
            "table_id": table,
            "default_entry": registry_entry(table, "standard"),
            "stored": stored,
            "day": day,
        }

    def queue(self, commands: Any, table: str, stored: bytes | str, day: str = "") -> None:
        """The update as the write script stored it (passed in: Redis Cluster); ``day``: the
        UTC day the watch tallies the write under."""
        # The table's key lies in another slot: a lobby key stands in for it, unread.
        self._bound.queue(commands, **self._varying(table, stored, self.keys.applied, day))

    def queue_stored(self, commands: Any, table: str, stored_key: str, day: str = "") -> None:
        """The update read by the script from ``stored_key`` (one Redis server: the write and
        this travel in one round trip; the key is in another Cluster slot than the lobby)."""
        self._bound.queue(commands, **self._varying(table, "", stored_key, day))


def raised_kinds(reply: Any) -> list[str]:
    """The kinds of the integrity alerts a :data:`LOBBY_PUBLISH` reply says were raised."""
    if not isinstance(reply, list) or len(reply) < 3:
        return []
    text = reply[2].decode() if isinstance(reply[2], bytes) else str(reply[2])
    return [kind for kind in text.split(",") if kind]
