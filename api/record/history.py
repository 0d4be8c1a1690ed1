"""The record's reads: a table's shoes newest first (paginated by an opaque cursor), one shoe's
summary and export, and what a shoe or a table that left Redis is brought back from.

What a shoe or a table is brought back from is rebuilt from the canonical bytes the chain
covers, its chain checked as it comes back (:mod:`api.record.readback`): never from the
``record`` column. Every read is one read-only snapshot under the statement timeout
(:meth:`~api.record.database.Database.reading`); a record that does not answer in time is a 503
to retry (:class:`~api.record.database.RecordBusy`), never a table taken as new."""

from __future__ import annotations

import base64
import binascii
import logging
import time
from collections.abc import Iterator
from datetime import datetime
from typing import Any, NamedTuple

import orjson

from api.record.database import Database, RecordBusy, RecordUnavailable
from api.record.readback import Row, TableChain, shoe_from, table_chain
from roads.chain import GENESIS

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
    latest record, as Redis held it (rebuilt from the chain's canonical bytes, checked)."""

    version: int
    records: list[str]


class ExportLine(NamedTuple):
    canonical: str
    prev_hash: str
    hash: str


DOWN_SECONDS = 5.0  # how long a write takes the record as unreachable once it found it so
WRITE_ROWS = "number, canonical, prev_hash, hash"

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
        with self.database.reading() as conn:
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
        with self.database.reading() as conn:
            row = conn.execute(
                f"SELECT {SUMMARY} FROM record_shoes WHERE table_id = %s AND shoe = %s",
                (table, shoe),
            ).fetchone()
        return ShoeSummary(*row) if row else None

    def known(self, table: str) -> bool:
        with self.database.reading() as conn:
            row = conn.execute(
                "SELECT 1 FROM record_tables WHERE table_id = %s", (table,)
            ).fetchone()
        return row is not None

    def export(self, table: str, shoe: str) -> Iterator[ExportLine]:
        """The shoe's recorded writes in order, each with its links."""
        with self.database.reading() as conn:
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
        except RecordBusy:
            raise  # not answering in time is not "unknown": retry
        except RecordUnavailable:
            # Not asked again for a while: each new table's first round would wait for it.
            self._down_until = time.monotonic() + DOWN_SECONDS
            log.warning("the record is unreachable: table %s taken as new", table)
            return None

    def _table(self, table: str) -> TableRecord | None:
        """The table's row; its name, variant and retirement from its own chain, checked (its
        shoe list, current shoe and last number are the record's rows: each shoe's chain is
        checked when the shoe comes back)."""
        with self.database.reading() as conn:
            row = conn.execute(
                "SELECT current_shoe, recorded FROM record_tables WHERE table_id = %s",
                (table,),
            ).fetchone()
            if row is None:
                return None
            own = _own_chain(conn, table)
            shoes = conn.execute(
                "SELECT shoe FROM record_shoes WHERE table_id = %s ORDER BY opened_at, shoe",
                (table,),
            ).fetchall()
            retired = bool(own.retirements) and not _written_after(
                conn, table, own.retirements[-1][0]
            )
        current, recorded = row
        names = [shoe for (shoe,) in shoes]
        return TableRecord(own.name, own.variant, current, retired, recorded, names)

    def rounds(self, table: str, shoe: str) -> ShoeRecord | None:
        """The shoe's version and each round's latest record (a correction's or a void's),
        rebuilt from its writes' canonical bytes once its chain holds; ``None`` when the record
        has no such shoe. Raises :class:`~api.storage.coldshoes.RecordTampered` naming the
        first bad write."""
        with self.database.reading() as conn:
            found = conn.execute(
                "SELECT opened_at FROM record_shoes WHERE table_id = %s AND shoe = %s",
                (table, shoe),
            ).fetchone()
            if found is None:
                return None
            rows = [
                Row(*row)
                for row in conn.execute(
                    f"SELECT {WRITE_ROWS} FROM record_writes"
                    " WHERE table_id = %s AND shoe = %s ORDER BY number",
                    (table, shoe),
                ).fetchall()
            ]
            first = rows[0].number if rows else 0
            first_prev = _previous_head(conn, table, shoe, found[0], first)
            own = _own_chain(conn, table)
        rebuilt = shoe_from(table, shoe, rows, first_prev, own)
        return ShoeRecord(rebuilt.version, rebuilt.records)


def _own_chain(conn: Any, table: str) -> TableChain:
    """The table's own writes (its name and variant, retirements: the shoe ``''``), checked."""
    rows = conn.execute(
        f"SELECT {WRITE_ROWS} FROM record_writes WHERE table_id = %s AND shoe = '' ORDER BY number",
        (table,),
    ).fetchall()
    return table_chain(table, [Row(*row) for row in rows])


def _previous_head(conn: Any, table: str, shoe: str, opened_at: datetime, first: int) -> str:
    """What the shoe's first write links to (:mod:`api.record.ledger`): the head the table's
    previous shoe (opened before it) had then, its last write before ``first``; ``GENESIS``
    for the table's first shoe."""
    previous = conn.execute(
        "SELECT shoe FROM record_shoes WHERE table_id = %s AND (opened_at, shoe) < (%s, %s)"
        " ORDER BY opened_at DESC, shoe DESC LIMIT 1",
        (table, opened_at, shoe),
    ).fetchone()
    if previous is None:
        return GENESIS
    head = conn.execute(
        "SELECT hash FROM record_writes WHERE table_id = %s AND shoe = %s AND number < %s"
        " ORDER BY number DESC LIMIT 1",
        (table, previous[0], first),
    ).fetchone()
    return head[0] if head else GENESIS


def _written_after(conn: Any, table: str, number: int) -> bool:
    """Whether a shoe's write follows write ``number`` (a write brings a retired table back)."""
    found = conn.execute(
        "SELECT 1 FROM record_writes WHERE table_id = %s AND shoe <> '' AND number > %s LIMIT 1",
        (table, number),
    ).fetchone()
    return found is not None


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
