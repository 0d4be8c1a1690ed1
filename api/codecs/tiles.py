"""A table's lobby tile, and the lobby's answers made of tiles.

A tile is the table's id, its registry entry (``name``, ``variant``, :func:`registry_entry`) and
its current shoe's summary (:func:`roads.lobby.summary` with ``shoe`` and ``version``; a table
with no round yet has :data:`EMPTY`). Each tile is encoded once while its stored values are
unchanged, in full and without the odds (its ``edge`` empty), and the answers embed the encoded
tiles whole.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from api.codecs.jsontext import Fragment, dumps, dumps_text, loads
from roads.lobby import LOBBY_ROADS

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
    "roads": {road: {"from": 0, "cols": ""} for road in LOBBY_ROADS},
}


def registry_entry(name: str, variant: str) -> str:
    """A table's entry in the lobby's registry (``{lobby}:tables``)."""
    return dumps_text({"name": name, "variant": variant})


def encode_summary(shoe: str, version: int, summary: dict[str, Any]) -> str:
    """A shoe's stored tile summary."""
    return dumps_text({"shoe": shoe, "version": version, **summary})


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

    @classmethod
    def of(cls, table: str, entry: bytes, summary: bytes | None) -> Tile:
        parsed = loads(summary) if summary is not None else None
        if parsed is not None and "roads" not in parsed:
            # Stored before tiles carried their roads: empty until the table's next write.
            parsed["roads"] = EMPTY["roads"]
        tile = {"table": table, **loads(entry), **(parsed or EMPTY)}
        return cls(table, dumps(tile), dumps({**tile, "edge": {}}), parsed)

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
