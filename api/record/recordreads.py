"""The record's reads: a table's shoes newest first (paginated by an opaque cursor), one shoe's
summary and export, and what a shoe or a table that left Redis is brought back from.

What is served of a shoe is what its chain covers (:mod:`api.record.readback`): a shoe or a
table brought back is rebuilt from the canonical lines, never from the ``record`` column; a
summary's counts, head and writes are the chain's, and the shoe's row (``record_shoes``) must
agree with them. A page of summaries reads its shoes' writes in one statement and checks each
chain: four statements a page, and about 1.2 ms of CPU a shoe of 80 rounds (25 ms for the
default page of 20, 0.25 s for the largest, 200).

Every read is one read-only snapshot under the statement timeout
(:meth:`~api.record.database.Database.reading`); a record that does not answer in time is a 503
to retry (:class:`~api.record.database.RecordBusy`), never a table taken as new. At most the
pool's size less one reads hold a connection at once in a process, whoever asks (a keyed read
of the past, or an anonymous read that brings a shoe or a table back): one more is a 503 at
once, and the connection left is a writer's, to ask whether a table is known to the record
(:meth:`RecordReads.table` with ``writing``), which waits at most the pool's wait."""

from __future__ import annotations

import base64
import binascii
import logging
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any, NamedTuple

import orjson

from api.codecs.times import utc_text
from api.record.database import Database, RecordBusy, RecordUnavailable
from api.record.readback import (
    Row,
    Summary,
    TableChain,
    check_row,
    shoe_from,
    summary_of,
    table_chain,
)
from roads.chain import GENESIS

log = logging.getLogger("roads.record")


class BadCursor(ValueError):
    """A cursor this service did not hand out."""


class ShoeSummary(NamedTuple):
    """A shoe as listed: its times from its row, the rest from its chain (checked)."""

    table: str
    shoe: str
    opened_at: datetime
    closed_at: datetime | None
    outcomes: str  # one letter a round: B, P, T, x (void)
    head: str
    writes: int

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
            "opened_at": utc_text(self.opened_at),
            "closed_at": utc_text(self.closed_at) if self.closed_at else None,
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
    limits: dict[str, Any] | None = None
    # The documents of the pay tables not presets its chain names, by name (their JSON text).
    paytables: tuple[tuple[str, str], ...] = ()
    waits: bool = False  # its last table write's pay table waits for its next shoe
    before: str = "standard"  # what was in force before that one


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

SUMMARY = "shoe, opened_at, closed_at, outcomes, head, writes"  # a shoe's row, as read
READERS_BUSY = "the record (PostgreSQL) is busy with other reads; retry shortly"


class RecordReads:
    def __init__(self, database: Database, hot_seconds: int) -> None:
        self.database = database
        self.hot_seconds = hot_seconds
        self._down_until = 0.0  # the record was found unreachable: not asked before this
        # Readers hold at most all the pool's connections but one: that one is a writer's.
        self.readers = max(1, database.max_size - 1)
        self._reads = threading.BoundedSemaphore(self.readers)

    @contextmanager
    def reading(self, *, writing: bool = False) -> Iterator[Any]:
        """:meth:`Database.reading`, a reader's slot taken first without waiting (none free:
        :class:`RecordBusy`); a writer's lookup takes none."""
        if writing:
            with self.database.reading() as conn:
                yield conn
            return
        if not self._reads.acquire(blocking=False):
            raise RecordBusy(READERS_BUSY)
        try:
            with self.database.reading() as conn:
                yield conn
        finally:
            self._reads.release()

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
        of the next page (``None``: no more). Each summary is its chain's (checked); raises
        :class:`~api.storage.coldshoes.RecordTampered` for the first shoe whose chain breaks
        or whose row disagrees with it."""
        after = _decode_cursor(cursor) if cursor else None
        with self.reading() as conn:
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
            page = rows[:limit]
            writes = _writes(conn, table, [row[0] for row in page])
            older = rows[limit][0] if len(rows) > limit else None
            firsts = _first_links(conn, table, page, writes, older)
        found = [
            _summarized(table, row, writes[row[0]], first)
            for row, first in zip(page, firsts, strict=True)
        ]
        more = len(rows) > limit
        return found, _encode_cursor(found[-1]) if more and found else None

    def shoe(self, table: str, shoe: str) -> ShoeSummary | None:
        """The shoe's summary, its chain's (checked: raises as :meth:`shoes`)."""
        with self.reading() as conn:
            found = _one(conn, table, shoe)
        if found is None:
            return None
        row, rows, first_prev = found
        return _summarized(table, row, rows, first_prev)

    def has_shoe(self, table: str, shoe: str) -> bool:
        """Whether the record lists the shoe (its export is served as stored, unchecked)."""
        with self.reading() as conn:
            row = conn.execute(
                "SELECT 1 FROM record_shoes WHERE table_id = %s AND shoe = %s", (table, shoe)
            ).fetchone()
        return row is not None

    def known(self, table: str) -> bool:
        with self.reading() as conn:
            row = conn.execute(
                "SELECT 1 FROM record_tables WHERE table_id = %s", (table,)
            ).fetchone()
        return row is not None

    def export(self, table: str, shoe: str) -> Iterator[ExportLine]:
        """The shoe's recorded writes in order, each with its links."""
        with self.reading() as conn:
            rows = conn.execute(
                "SELECT canonical, prev_hash, hash FROM record_writes"
                " WHERE table_id = %s AND shoe = %s ORDER BY number",
                (table, shoe),
            ).fetchall()
        return (ExportLine(*row) for row in rows)

    def table(self, table: str, *, writing: bool = False) -> TableRecord | None:
        """The table as the record knows it; ``None`` when it does not, or cannot be reached
        (a write to a table Redis does not know goes on then, as a new table's). A writer's
        lookup (``writing``) takes no reader's slot: readers never starve it."""
        if time.monotonic() < self._down_until:
            return None
        try:
            return self._table(table, writing)
        except RecordBusy:
            raise  # not answering in time is not "unknown": retry
        except RecordUnavailable:
            # Not asked again for a while: each new table's first round would wait for it.
            self._down_until = time.monotonic() + DOWN_SECONDS
            log.warning("the record is unreachable: table %s taken as new", table)
            return None

    def _table(self, table: str, writing: bool) -> TableRecord | None:
        """The table's row; its name, variant and retirement from its own chain, checked (its
        shoe list, current shoe and last number are the record's rows: each shoe's chain is
        checked when the shoe comes back)."""
        with self.reading(writing=writing) as conn:
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
        return TableRecord(
            own.name,
            own.variant,
            current,
            retired,
            recorded,
            names,
            own.limits,
            own.paytables,
            own.waits,
            own.before,
        )

    def rounds(self, table: str, shoe: str, *, writing: bool = False) -> ShoeRecord | None:
        """The shoe's version and each round's latest record (a correction's or a void's),
        rebuilt from its writes' canonical lines once its chain holds and its row agrees;
        ``None`` when the record has no such shoe. Raises
        :class:`~api.storage.coldshoes.RecordTampered` naming the first bad write."""
        with self.reading(writing=writing) as conn:
            found = _one(conn, table, shoe)
            if found is None:
                return None
            own = _own_chain(conn, table)
        row, rows, first_prev = found
        rebuilt = shoe_from(table, shoe, rows, first_prev, own)
        check_row(table, shoe, _stated(row), rebuilt.summary)
        return ShoeRecord(rebuilt.version, rebuilt.records)


def _one(conn: Any, table: str, shoe: str) -> tuple[tuple, list[Row], str] | None:
    """The shoe's row (:data:`SUMMARY`), its writes in order and what its first links to."""
    row = conn.execute(
        f"SELECT {SUMMARY} FROM record_shoes WHERE table_id = %s AND shoe = %s", (table, shoe)
    ).fetchone()
    if row is None:
        return None
    rows = _writes(conn, table, [shoe])[shoe]
    first = rows[0].number if rows else 0
    previous = conn.execute(
        "SELECT shoe FROM record_shoes WHERE table_id = %s AND (opened_at, shoe) < (%s, %s)"
        " ORDER BY opened_at DESC, shoe DESC LIMIT 1",
        (table, row[1], shoe),
    ).fetchone()
    return row, rows, GENESIS if previous is None else _head_before(conn, table, previous[0], first)


def _writes(conn: Any, table: str, shoes: list[str]) -> dict[str, list[Row]]:
    """Each shoe's writes in order, in one statement."""
    found: dict[str, list[Row]] = {shoe: [] for shoe in shoes}
    for shoe, *row in conn.execute(
        f"SELECT shoe, {WRITE_ROWS} FROM record_writes WHERE table_id = %s AND shoe = ANY(%s)"
        " ORDER BY shoe, number",
        (table, shoes),
    ):
        found[shoe].append(Row(*row))
    return found


def _first_links(
    conn: Any, table: str, page: list[tuple], writes: dict[str, list[Row]], older: str | None
) -> list[str]:
    """What each shoe of a page (newest first) links its first write to: the head its previous
    shoe had then, read from the page's writes (the next on the page) or the record (``older``,
    the shoe before the page's last), ``GENESIS`` for the table's first."""
    firsts = []
    for at, row in enumerate(page):
        rows = writes[row[0]]
        first = rows[0].number if rows else 0
        if at + 1 < len(page):
            before = [r.hash for r in writes[page[at + 1][0]] if r.number < first]
            firsts.append(before[-1] if before else GENESIS)
        else:
            firsts.append(GENESIS if older is None else _head_before(conn, table, older, first))
    return firsts


def _summarized(table: str, row: tuple, rows: list[Row], first_prev: str) -> ShoeSummary:
    """The shoe's summary from its chain, once its row agrees with it."""
    chain = summary_of(table, row[0], rows, first_prev)
    check_row(table, row[0], _stated(row), chain)
    return ShoeSummary(table, row[0], row[1], row[2], *chain)


def _stated(row: tuple) -> Summary:
    """What the shoe's row (:data:`SUMMARY`) states: outcomes, head, writes."""
    return Summary(row[3], row[4], row[5])


def _own_chain(conn: Any, table: str) -> TableChain:
    """The table's own writes (its name and variant, retirements: the shoe ``''``), checked."""
    rows = conn.execute(
        f"SELECT {WRITE_ROWS} FROM record_writes WHERE table_id = %s AND shoe = '' ORDER BY number",
        (table,),
    ).fetchall()
    return table_chain(table, [Row(*row) for row in rows])


def _head_before(conn: Any, table: str, previous: str, first: int) -> str:
    """The head shoe ``previous`` had when write ``first`` was recorded (:mod:`api.record.ledger`
    links a shoe's first write to it): its last write before ``first``; ``GENESIS`` if none."""
    head = conn.execute(
        "SELECT hash FROM record_writes WHERE table_id = %s AND shoe = %s AND number < %s"
        " ORDER BY number DESC LIMIT 1",
        (table, previous, first),
    ).fetchone()
    return head[0] if head else GENESIS


def _written_after(conn: Any, table: str, number: int) -> bool:
    """Whether a shoe's write follows write ``number`` (a write brings a retired table back)."""
    found = conn.execute(
        "SELECT 1 FROM record_writes WHERE table_id = %s AND shoe <> '' AND number > %s LIMIT 1",
        (table, number),
    ).fetchone()
    return found is not None


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
