"""Rounds read from the record by what the studio knows of them (migration 0005): one round by
its game id, a table's last rounds across shoes, a table's rounds by the time they were dealt (a
page at a time), every table's rounds of a time range as one stream, and each dealer's rounds of
a day (how many were voided and corrected, and how long a round took).

A round is listed by the write that appended it (``kind = 'round'``) and answered as its latest
write left it (a correction's or a void's record, found beside it by the partial index of
rewrites), from the canonical bytes the chain covers, with its place in the chain: the table's
log number and the hash of that latest write. Reads take a reader's slot of
:class:`~api.record.recordreads.RecordReads` like every read of the record; the stream holds its
slot and its connection until it ends, reading a batch at a time through a server-side cursor,
so a long export never holds more than one batch in memory.

``dealt_at`` is within a day before and 5 s after the moment the service took the round
(:mod:`api.codecs.roundfacts`), so a range of ``dealt_at`` is also a range of ``at``, the
partition key: a read scans only the months it may find rounds in.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterator
from contextlib import ExitStack
from datetime import datetime, timedelta
from typing import Any, NamedTuple

import orjson

from api.codecs.roundfacts import DEALT_AHEAD, DEALT_BEFORE
from api.record.readback import in_record_order
from api.record.recordreads import BadCursor, RecordReads

# The columns of a listed round: the append's, then its latest rewrite's (NULL: none), then
# whether any rewrite was a correction.
LISTED = (
    "r.table_id, r.shoe, r.round, r.number, r.dealt_at, r.canonical, r.hash,"
    " x.number, x.canonical, x.hash, EXISTS (SELECT 1 FROM record_writes c"
    " WHERE c.table_id = r.table_id AND c.shoe = r.shoe AND c.round = r.round"
    " AND c.kind = 'correction')"
)
LATEST = (
    " LEFT JOIN LATERAL (SELECT w.number, w.canonical, w.hash FROM record_writes w"
    " WHERE w.table_id = r.table_id AND w.shoe = r.shoe AND w.round = r.round"
    " AND w.kind IN ('correction', 'void', 'burn') ORDER BY w.number DESC LIMIT 1) x ON true"
)
#: The rows an export reads from PostgreSQL at a time.
BATCH = 2000


class RecordedRound(NamedTuple):
    """A round as the record holds it after its latest write."""

    table: str
    shoe: str
    round: int
    record: dict[str, Any]  # the latest record (api.codecs.records), from the chain's bytes
    corrected: bool
    number: int  # the table's log number of the latest write
    hash: str  # that write's hash in its chain
    dealt_at: datetime | None

    def as_dict(self) -> dict[str, Any]:
        """The round as the lookups and the export answer it."""
        return {
            "table": self.table,
            "shoe": self.shoe,
            **self.record,
            "corrected": self.corrected,
            "chain": {"number": self.number, "hash": self.hash},
        }


def _round(row: tuple) -> RecordedRound:
    table, shoe, number, logged, dealt, canonical, hashed, later, later_text, later_hash, fixed = (
        row
    )
    if later is not None:
        logged, canonical, hashed = later, later_text, later_hash
    record = in_record_order(orjson.loads(canonical).get("record") or {})
    return RecordedRound(table, shoe, number, record, fixed, logged, hashed, dealt)


class RoundReads:
    """The record's reads of rounds (see the module doc), through ``reads``' reader slots."""

    def __init__(self, reads: RecordReads) -> None:
        self.reads = reads

    def game(self, table: str, game_id: str) -> RecordedRound | None:
        """The round of the table's game ``game_id`` (the newest, were an id ever reused after
        its shoe left Redis); ``None`` when the record has none."""
        with self.reads.reading() as conn:
            row = conn.execute(
                f"SELECT {LISTED} FROM record_writes r {LATEST}"
                " WHERE r.table_id = %s AND r.game_id = %s AND r.kind = 'round'"
                " ORDER BY r.number DESC LIMIT 1",
                (table, game_id),
            ).fetchone()
        return _round(row) if row is not None else None

    def last(self, table: str, count: int, skip: list[str]) -> list[RecordedRound]:
        """The table's last ``count`` rounds across shoes, oldest first, leaving out the shoes
        in ``skip`` (those read from Redis)."""
        with self.reads.reading() as conn:
            rows = conn.execute(
                f"SELECT {LISTED} FROM record_writes r {LATEST}"
                " WHERE r.table_id = %s AND r.kind = 'round' AND NOT (r.shoe = ANY(%s))"
                " ORDER BY r.number DESC LIMIT %s",
                (table, skip, count),
            ).fetchall()
        return [_round(row) for row in reversed(rows)]

    def between(
        self, table: str, start: datetime, end: datetime, cursor: str | None, limit: int
    ) -> tuple[list[RecordedRound], str | None]:
        """The table's rounds dealt from ``start`` to before ``end``, in the order they were
        dealt, ``limit`` at a time after ``cursor``; and the next page's cursor (``None``: no
        more). Raises :class:`BadCursor` for a cursor this service did not hand out."""
        after = decode_cursor(cursor) if cursor else (start - timedelta(microseconds=1), 0)
        with self.reads.reading() as conn:
            rows = conn.execute(
                f"SELECT {LISTED} FROM record_writes r {LATEST}"
                " WHERE r.table_id = %s AND r.kind = 'round'"
                " AND r.dealt_at >= %s AND r.dealt_at < %s AND (r.dealt_at, r.number) > (%s, %s)"
                " AND r.at >= %s AND r.at < %s"
                " ORDER BY r.dealt_at, r.number LIMIT %s",
                (table, start, end, *after, *_at_range(start, end), limit + 1),
            ).fetchall()
        found = [_round(row) for row in rows[:limit]]
        more = len(rows) > limit
        return found, encode_cursor(rows[limit - 1]) if more else None

    def conduct(self, start: datetime, end: datetime) -> dict[str, DealerConduct]:
        """Each dealer's rounds dealt from ``start`` to before ``end``: how many, how many were
        voided and corrected, and the mean time a round took them."""
        at_start, at_end = _at_range(start, end)
        named = {"start": start, "end": end, "at_start": at_start, "at_end": at_end}
        with self.reads.reading() as conn:
            rows = conn.execute(CONDUCT, named).fetchall()
        return {
            dealer: DealerConduct(rounds, voids, fixed, None if mean is None else float(mean))
            for dealer, rounds, voids, fixed, mean in rows
        }

    def stream(self, start: datetime, end: datetime, stack: ExitStack) -> Iterator[RecordedRound]:
        """Every table's rounds dealt from ``start`` to before ``end``, in the order they were
        dealt, read :data:`BATCH` at a time. The reader's slot and the connection are taken
        now, into ``stack`` (a busy record raises here, before anything is sent); the rounds are
        read as the iterator is, until ``stack`` closes."""
        conn = stack.enter_context(self.reads.reading())
        cursor = stack.enter_context(conn.cursor(name="rounds_export"))
        cursor.itersize = BATCH
        cursor.execute(
            f"SELECT {LISTED} FROM record_writes r {LATEST}"
            " WHERE r.kind = 'round' AND r.dealt_at >= %s AND r.dealt_at < %s"
            " AND r.at >= %s AND r.at < %s"
            " ORDER BY r.dealt_at, r.table_id, r.number",
            (start, end, *_at_range(start, end)),
        )
        return (_round(row) for row in cursor)


# Per dealer, over the rounds dealt in a range (their appends, by the index of dealt_at): the
# rounds dealt, how many were voided and corrected (whenever that was: the index of rewrites),
# and the mean time from the round before in the same shoe to the round, when the same dealer
# dealt both (the round before taken whoever dealt it).
CONDUCT = """
WITH dealt AS (
    SELECT table_id, shoe, round, dealer_id, dealt_at,
           lag(dealt_at) OVER shoe AS before, lag(dealer_id) OVER shoe AS dealer_before
    FROM record_writes
    WHERE kind = 'round'
      AND dealt_at >= %(start)s AND dealt_at < %(end)s AND at >= %(at_start)s AND at < %(at_end)s
    WINDOW shoe AS (PARTITION BY table_id, shoe ORDER BY number)
)
SELECT d.dealer_id,
       count(*),
       count(*) FILTER (WHERE EXISTS (SELECT 1 FROM record_writes v WHERE v.table_id = d.table_id
           AND v.shoe = d.shoe AND v.round = d.round AND v.kind = 'void')),
       count(*) FILTER (WHERE EXISTS (SELECT 1 FROM record_writes c WHERE c.table_id = d.table_id
           AND c.shoe = d.shoe AND c.round = d.round AND c.kind = 'correction')),
       avg(extract(epoch FROM d.dealt_at - d.before)) FILTER (WHERE d.dealer_before = d.dealer_id)
FROM dealt d WHERE d.dealer_id IS NOT NULL GROUP BY d.dealer_id
"""


class DealerConduct(NamedTuple):
    """A dealer's rounds of a range as the record holds them."""

    rounds: int
    voids: int
    corrections: int
    mean_round_seconds: float | None

    def as_dict(self) -> dict[str, Any]:
        dealt = max(self.rounds, 1)
        mean = self.mean_round_seconds
        return {
            "rounds_dealt": self.rounds,
            "voids": self.voids,
            "corrections": self.corrections,
            "void_rate": round(self.voids / dealt, 4),
            "correction_rate": round(self.corrections / dealt, 4),
            "mean_round_seconds": None if mean is None else round(mean, 2),
        }


def _at_range(start: datetime, end: datetime) -> tuple[datetime, datetime]:
    """The moments the service took the rounds dealt from ``start`` to before ``end`` at."""
    return start - DEALT_AHEAD, end + DEALT_BEFORE


def encode_cursor(row: tuple) -> str:
    """The cursor after a listed round: when it was dealt and its log number."""
    text = orjson.dumps([row[4].isoformat(), row[3]])
    return base64.urlsafe_b64encode(text).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[datetime, int]:
    """The position a cursor names; :class:`BadCursor` for anything else."""
    try:
        dealt, number = orjson.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
        if type(number) is not int or not 0 <= number < 2**63:
            raise ValueError(number)
        moment = datetime.fromisoformat(dealt)
        if moment.tzinfo is None or not 1970 <= moment.year < 9000:
            raise ValueError(dealt)
        return moment, number
    except (ValueError, TypeError, binascii.Error, orjson.JSONDecodeError):
        raise BadCursor("cursor is not one this service handed out") from None
