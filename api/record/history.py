"""The record's reads: a table's shoes newest first (paginated by an opaque cursor), one shoe's
summary and export, and what a shoe or a table that left Redis is brought back from."""

from __future__ import annotations

import base64
import binascii
import logging
import time
from collections.abc import Iterator
from datetime import datetime
from typing import Any, NamedTuple

import orjson

from api.record.database import Database, RecordUnavailable

log = logging.getLogger("roads.record")


class BadCursor(ValueError):
    """A cursor this service did not hand out."""


class ShoeSummary(NamedTuple):
    table: str
    shoe: str
    opened_at: datetime
    closed_at: datetime | None
    outcomes: str  # one letter a round: B, P, T, x (void)
    head: str
    writes: int
    version: int

    def as_dict(self) -> dict[str, Any]:
        """A shoe as ``GET /v1/tables/T/shoes`` lists it."""
        played = self.outcomes.replace("x", "")
        return {
            "shoe": self.shoe,
            "rounds": len(self.outcomes),
            "rounds_played": len(played),
            "banker": played.count("B"),
            "player": played.count("P"),
            "tie": played.count("T"),
            "opened_at": _iso(self.opened_at),
            "closed_at": _iso(self.closed_at) if self.closed_at else None,
            "head": self.head,
            "writes": self.writes,
        }


class TableRecord(NamedTuple):
    """A table as the record knows it, to bring it back into Redis."""

    name: str | None
    variant: str
    current_shoe: str | None
    retired: bool
    recorded: int
    shoes: list[str]  # oldest first


class ShoeRecord(NamedTuple):
    """A shoe as the record knows it, to bring it back into Redis: its version and each round's
    latest record, as Redis held it."""

    version: int
    records: list[str]


class ExportLine(NamedTuple):
    canonical: str
    prev_hash: str
    hash: str


DOWN_SECONDS = 5.0  # how long a write takes the record as unreachable once it found it so

SUMMARY = "table_id, shoe, opened_at, closed_at, outcomes, head, writes, version"


class History:
    def __init__(self, database: Database, hot_seconds: int) -> None:
        self.database = database
        self.hot_seconds = hot_seconds
        self._down_until = 0.0  # the record was found unreachable: not asked before this

    def warmed(self, table: str, shoe: str) -> None:
        """The shoe is in Redis again: it leaves again ``hot_seconds`` from now."""
        with self.database.transaction() as conn:
            conn.execute(
                "UPDATE record_shoes SET evicted = false,"
                " hot_until = now() + make_interval(secs => %s)"
                " WHERE table_id = %s AND shoe = %s AND closed_at IS NOT NULL",
                (self.hot_seconds, table, shoe),
            )

    def shoes(
        self, table: str, limit: int, cursor: str | None
    ) -> tuple[list[ShoeSummary], str | None]:
        """Up to ``limit`` of the table's shoes, newest first, after ``cursor``; and the cursor
        of the next page (``None``: no more)."""
        after = _decode_cursor(cursor) if cursor else None
        with self.database.transaction() as conn:
            if after is None:
                rows = conn.execute(
                    f"SELECT {SUMMARY} FROM record_shoes WHERE table_id = %s"
                    " ORDER BY opened_at DESC, shoe DESC LIMIT %s",
                    (table, limit + 1),
                ).fetchall()
            else:
                rows = conn.execute(
                    f"SELECT {SUMMARY} FROM record_shoes WHERE table_id = %s"
                    " AND (opened_at, shoe) < (%s, %s)"
                    " ORDER BY opened_at DESC, shoe DESC LIMIT %s",
                    (table, *after, limit + 1),
                ).fetchall()
        found = [ShoeSummary(*row) for row in rows[:limit]]
        more = len(rows) > limit
        return found, _encode_cursor(found[-1]) if more and found else None

    def shoe(self, table: str, shoe: str) -> ShoeSummary | None:
        with self.database.transaction() as conn:
            row = conn.execute(
                f"SELECT {SUMMARY} FROM record_shoes WHERE table_id = %s AND shoe = %s",
                (table, shoe),
            ).fetchone()
        return ShoeSummary(*row) if row else None

    def known(self, table: str) -> bool:
        with self.database.transaction() as conn:
            row = conn.execute(
                "SELECT 1 FROM record_tables WHERE table_id = %s", (table,)
            ).fetchone()
        return row is not None

    def export(self, table: str, shoe: str) -> Iterator[ExportLine]:
        """The shoe's recorded writes in order, each with its links."""
        with self.database.transaction() as conn:
            rows = conn.execute(
                "SELECT canonical, prev_hash, hash FROM record_writes"
                " WHERE table_id = %s AND shoe = %s ORDER BY number",
                (table, shoe),
            ).fetchall()
        return (ExportLine(*row) for row in rows)

    def table(self, table: str) -> TableRecord | None:
        """The table as the record knows it; ``None`` when it does not, or cannot be reached
        (a write to a table Redis does not know goes on then, as a new table's)."""
        if time.monotonic() < self._down_until:
            return None
        try:
            return self._table(table)
        except RecordUnavailable:
            # Not asked again for a while: each new table's first round would wait for it.
            self._down_until = time.monotonic() + DOWN_SECONDS
            log.warning("the record is unreachable: table %s taken as new", table)
            return None

    def _table(self, table: str) -> TableRecord | None:
        with self.database.transaction() as conn:
            row = conn.execute(
                "SELECT name, variant, current_shoe, retired, recorded FROM record_tables"
                " WHERE table_id = %s",
                (table,),
            ).fetchone()
            if row is None:
                return None
            shoes = conn.execute(
                "SELECT shoe FROM record_shoes WHERE table_id = %s ORDER BY opened_at, shoe",
                (table,),
            ).fetchall()
        return TableRecord(*row, [shoe for (shoe,) in shoes])

    def rounds(self, table: str, shoe: str) -> ShoeRecord | None:
        """The shoe's version and each round's latest record (a correction's or a void's)."""
        with self.database.transaction() as conn:
            found = conn.execute(
                "SELECT version FROM record_shoes WHERE table_id = %s AND shoe = %s",
                (table, shoe),
            ).fetchone()
            if found is None:
                return None
            rows = conn.execute(
                "SELECT DISTINCT ON (round) record FROM record_writes"
                " WHERE table_id = %s AND shoe = %s AND round IS NOT NULL"
                " ORDER BY round, number DESC",
                (table, shoe),
            ).fetchall()
        return ShoeRecord(found[0], [record for (record,) in rows])


def _iso(moment: datetime) -> str:
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _encode_cursor(last: ShoeSummary) -> str:
    text = orjson.dumps([last.opened_at.isoformat(), last.shoe])
    return base64.urlsafe_b64encode(text).decode().rstrip("=")


def _decode_cursor(cursor: str) -> tuple[datetime, str]:
    """The position a cursor names; :class:`BadCursor` for anything this service did not hand
    out (PostgreSQL's text holds no NUL: such a shoe would fail the query, not answer 400)."""
    try:
        opened, shoe = orjson.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
        if not isinstance(shoe, str) or "\x00" in shoe:
            raise ValueError(shoe)
        return datetime.fromisoformat(opened), shoe
    except (ValueError, TypeError, binascii.Error, orjson.JSONDecodeError):
        raise BadCursor("cursor is not one this service handed out") from None
