"""A table's lobby tile, and the lobby's answers made of tiles.

A tile is the table's id, its registry entry (``name``, ``variant``, ``limits``,
:func:`registry_entry`), its status (``status``, ``status_until``, :mod:`.tablestatus`), its
current ``dealer`` (``{"id", "name"}``, :mod:`.roundfacts`; ``null`` when none was reported) and
its current shoe's summary (:func:`roads.lobby.summary` with ``shoe``, ``version`` and ``format``;
a table with no round yet has :data:`EMPTY`). Each tile is encoded once while its stored values
are unchanged, in full and without the odds (its ``edge`` empty), and the answers embed the
encoded tiles whole.

**Formats.** A stored summary names its format (:data:`TILE_FORMAT`); one stored without it is
format 1 (every release up to 0.10.0; those before 0.8.0 stored no ``roads``). A summary of an
older format than this release's is :attr:`Tile.stale`: the lobby makes it again from its shoe's
rounds (:mod:`api.storage.tilerebuild`) before it serves it, so an upgrade, or an earlier release
still writing beside this one, never shows a tile short of what this release's tiles hold. A
newer format (a rollback) is served as it is: a format only adds fields.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from importlib.resources import files
from typing import Any

from api.codecs.jsontext import Fragment, dumps, dumps_text, loads
from api.codecs.tablestatus import tile_fields
from roads.lobby import LOBBY_ROADS

# The Lua side: the registry entry as the lobby script keeps it (api.storage.luascript).
LUA = files(__package__).joinpath("tiles.lua")

# The format of the summaries this release stores: raise it whenever a summary's fields change
# (and say so in CHANGELOG.md), so that the tiles an earlier release stored are made again.
TILE_FORMAT = 2
FIRST_FORMAT = 1  # the format of a summary stored without one

EMPTY: dict[str, Any] = {
    "format": TILE_FORMAT,
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
    "roads": {road: {"from": 0, "cols": ""} for road in LOBBY_ROADS},
}


def registry_entry(
    name: str,
    variant: str,
    limits: dict[str, Any] | None = None,
    next_variant: str | None = None,
) -> str:
    """A table's entry in the lobby's registry (``{lobby}:tables``): ``variant`` the pay table
    in force; ``limits`` only when it has some (an entry without them is a table without
    limits), ``next_variant`` only when a pay table waits for the next shoe."""
    entry: dict[str, Any] = {"name": name, "variant": variant}
    if next_variant is not None:
        entry["next_variant"] = next_variant
    if limits:
        entry["limits"] = limits
    return dumps_text(entry)


def in_force(entry: str, variant: str) -> str:
    """A registry entry whose table's current shoe is priced under ``variant``: its
    ``variant`` that one, and its ``next_variant`` gone when it was that one (it waited for the
    shoe); else the entry as it is. What the lobby script does to an entry at each write of the
    current shoe (``registry_in_force`` of :data:`LUA`, held to this by the tests), on the text:
    a name is a JSON string (its quotes escaped) and a pay table's name is snake_case, so
    ``,"variant":"`` begins the field, and the limits' numbers keep their spelling."""
    entry_fields = loads(entry)
    if entry_fields["variant"] == variant and entry_fields.get("next_variant") != variant:
        return entry
    head, _, rest = entry.partition(',"variant":"')
    rest = rest.partition('"')[2]
    waiting = f',"next_variant":"{entry_fields.get("next_variant")}"'
    if rest.startswith(waiting) and entry_fields.get("next_variant") == variant:
        rest = rest[len(waiting) :]
    return f'{head},"variant":"{variant}"{rest}'


def encode_summary(shoe: str, version: int, summary: dict[str, Any]) -> str:
    """A shoe's stored tile summary, in this release's format."""
    return dumps_text({"format": TILE_FORMAT, "shoe": shoe, "version": version, **summary})


def public_summary(summary: str | bytes) -> bytes:
    """A stored summary as a client without the odds sees it: no edge flags."""
    return dumps({**loads(summary), "edge": {}})


@dataclass(frozen=True)
class Tile:
    """A table's tile encoded in full (``json``) and without the odds (``public``), and its
    summary (``None`` for a table with no round yet)."""

    table: str
    json: bytes
    public: bytes
    summary: dict[str, Any] | None
    limits: dict[str, Any] | None = None

    @classmethod
    def of(
        cls,
        table: str,
        entry: bytes,
        summary: bytes | None,
        status: bytes | None = None,
        dealer: bytes | None = None,
    ) -> Tile:
        """The tile of ``table`` from its registry entry, its shoe's stored summary (``None``:
        no round yet), its stored status (``None``: never reported) and its current dealer
        (``None``: none reported)."""
        parsed = loads(summary) if summary is not None else None
        if parsed is not None and "roads" not in parsed:
            # Stored before tiles carried their roads: empty until the table's next write.
            parsed["roads"] = EMPTY["roads"]
        table_fields = tile_fields(loads(entry), status)
        current = loads(dealer) if dealer is not None else None
        tile = {"table": table, **table_fields, "dealer": current, **(parsed or EMPTY)}
        return cls(table, dumps(tile), dumps({**tile, "edge": {}}), parsed, tile["limits"])

    @property
    def format(self) -> int:
        """The format its summary was stored in (this release's for a table with no round)."""
        if self.summary is None:
            return TILE_FORMAT
        return int(self.summary.get("format", FIRST_FORMAT))

    @property
    def stale(self) -> bool:
        """Its summary was stored in an older format than this release's: make it again."""
        return self.format < TILE_FORMAT

    def encoded(self, odds: bool) -> Fragment:
        return Fragment(self.json if odds else self.public)


def lobby_answer(cursor: int, grown: int | None, tiles: Sequence[Tile], odds: bool) -> bytes:
    """``GET /v1/tables``: the cursor, how many tables' runs grew since the client's cursor (when
    asked), and the tiles in order."""
    answer: dict[str, Any] = {"cursor": cursor}
    if grown is not None:
        answer["grown"] = grown
    answer["tables"] = [tile.encoded(odds) for tile in tiles]
    return dumps(answer)


def good_roads_answer(found: Sequence[tuple[str, str, int]], tiles: dict[str, Tile], odds: bool):
    """``GET /v1/good-roads``: each (table, pattern, since_round) found, with the table's tile."""
    items = [
        {
            "table": table,
            "pattern": pattern,
            "since_round": since,
            "summary": tiles[table].encoded(odds),
        }
        for table, pattern, since in found
        if table in tiles
    ]
    return dumps({"good_roads": items})
