"""A table's status as the game server reports it (``PUT /v1/tables/{table}/status``), and its
limits (set with the table, ``PUT /v1/tables/{table}``): the fields they give a lobby tile.

**The status model.** A table is in one of :data:`STATUSES` at a time, each reported when the
studio enters it (the service never moves a table on by itself, so a lobby never shows a state
the studio did not report):

- ``open``: open, between rounds (what a table never reported is: :data:`DEFAULT`);
- ``betting``: bets are taken until ``status_until`` (required: the countdown's end);
- ``dealing``: bets are closed and the round is dealt;
- ``shuffling``: the shoe is changed or shuffled, until ``status_until`` when known;
- ``paused``: play is stopped, until ``status_until`` when known;
- ``closed``: the table takes no bets until it opens again (at ``status_until`` when known).

Any status may carry ``status_reason``: why, as the studio says it to players.

``status_until`` and the frames' ``server_time`` are RFC 3339 UTC times with milliseconds: a
browser counts down to the end against the server's clock, not its own, without a request.

**Limits** are ``{"table": {"min", "max"}, "bets": {BET: {"min", "max"}}}`` in the table's
currency units, each part optional; a table named without them has ``limits: null``.

Both are kept in the lobby's hashes as JSON (:func:`status_fields`,
:func:`api.codecs.tiles.registry_entry`) and read back into tiles by :func:`tile_fields`.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from api.codecs.jsontext import loads
from api.codecs.times import now_text, utc_text

STATUSES = ("open", "betting", "dealing", "shuffling", "paused", "closed")
#: The statuses that need an end time (any may have one: when a shuffle or a pause is to end,
#: a closed table to open, an open one to close).
UNTIL_REQUIRED = ("betting",)

DEFAULT: dict[str, Any] = {"status": "open", "status_until": None, "status_reason": None}

#: How far an end time may lie from the service's clock: a little in the past (the game server's
#: clock and ours differ by that much at most, a studio keeps them in step), a day ahead.
UNTIL_PAST = timedelta(seconds=5)
UNTIL_AHEAD = timedelta(days=1)


def status_fields(
    status: str, until: datetime | None = None, reason: str | None = None
) -> dict[str, Any]:
    """A table's status as stored and shown: ``status``, ``status_until`` and ``status_reason``
    (each field always there, ``None`` when not given: a frame's delta names what changed, never
    what went)."""
    return {
        "status": status,
        "status_until": utc_text(until) if until is not None else None,
        "status_reason": reason or None,
    }


def decode_status(stored: bytes | str | None) -> dict[str, Any]:
    """The status fields of a tile: the stored ones, or :data:`DEFAULT` for a table never
    reported."""
    return dict(DEFAULT) if stored is None else loads(stored)


def status_report(table: str, fields: dict[str, Any]) -> dict[str, Any]:
    """A table's status as its ``status`` event and ``PUT .../status`` tell it: its
    :func:`status_fields`, with the table and the service's clock (``server_time``)."""
    return {"table": table, **fields, "server_time": now_text()}


def tile_fields(entry: dict[str, Any], stored_status: bytes | str | None) -> dict[str, Any]:
    """What a tile holds of the table beyond its shoe: its registry entry (``name``,
    ``variant``: the pay table in force, and ``next_variant``: the one waiting for the next
    shoe, ``None`` for none: a field a frame's delta names is always there), its ``limits``
    (``None`` when it has none) and its status fields."""
    return {
        "name": entry["name"],
        "variant": entry["variant"],
        "next_variant": entry.get("next_variant"),
        "limits": entry.get("limits"),
        **decode_status(stored_status),
    }


def admits(limits: dict[str, Any] | None, stake: float, bet: str | None = None) -> bool:
    """Whether a table's ``limits`` take a stake of ``stake`` (on ``bet``: its own limits where
    the table has them, else the table's). A table without limits admits nothing: a filter
    by stake asks for tables known to take it."""
    if not limits:
        return False
    bounds = (limits.get("bets") or {}).get(bet) if bet is not None else None
    bounds = bounds or limits.get("table")
    if not bounds:
        return False
    return bounds.get("min", 0) <= stake <= bounds.get("max", float("inf"))
