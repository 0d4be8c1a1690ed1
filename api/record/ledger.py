"""A batch of logged writes recorded in one transaction: each write a row of ``record_writes``
with its link in its chain (:mod:`roads.chain`), each shoe's and table's row brought up to date.

Recording is idempotent and ordered: a table's writes are numbered without gaps (its log,
:mod:`api.codecs.writelog`) and its row holds the last number recorded, read ``FOR UPDATE``;
a write at or below it is skipped, so a batch recorded again (its recorder died before trimming
the log) adds nothing. The chains:

- a shoe's writes (rounds, corrections, voids) chain in order; the shoe's first write links to
  the head of the table's current shoe at that moment (a table's first shoe: GENESIS);
- a table's own writes (its name and variant, what the studio reported between rounds, a
  retirement) form the table's chain.

A shoe closes when the table's next shoe opens; it may leave Redis ``hot_seconds`` later.

A write logged with the name of the key that made it (its ``by`` field) carries it as ``by`` in
its canonical bytes and in ``key_name``; a write logged without one is recorded as before.
Each batch returns the chain heads it advanced (:class:`Head`), which the recorder's signed
checkpoints state (:mod:`api.record.checkpoints`) once the batch has committed.

Month partitions are made by ``record_month(date)`` (migration 0003), a function the owner of
the schema owns, so the service's role needs no right to create tables.

A batch costs a fixed number of statements whatever the tables in it: the tables' rows and the
shoes' rows are read in one statement each, and the writes, tables and shoes written in one
``executemany`` each (pipelined by psycopg).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any, NamedTuple

import orjson
import psycopg

from api.codecs.roundfacts import in_record
from api.codecs.times import read_rfc3339
from api.codecs.writelog import LoggedWrite
from roads.chain import GENESIS

SHOE_KINDS = ("round", "correction", "void", "burn")


class Head(NamedTuple):
    """A chain's head after a batch: a shoe's (``writes`` its count of recorded writes) or the
    table's own (``shoe`` ``""``, ``writes`` ``None``); ``number`` is the table's log number of
    the write whose hash it is."""

    table: str
    shoe: str
    head: str
    number: int
    writes: int | None


class Recorded(NamedTuple):
    """What a batch recorded: each table's last number, and the heads it advanced."""

    numbers: dict[str, int]
    heads: list[Head]


def moment(at_ms: int) -> datetime:
    return datetime.fromtimestamp(at_ms / 1000, tz=UTC)


def stamp(at_ms: int) -> str:
    """``at`` as the chain states it: UTC, to the millisecond."""
    return moment(at_ms).strftime("%Y-%m-%dT%H:%M:%S.") + f"{at_ms % 1000:03d}Z"


def outcome(record: dict[str, Any]) -> str:
    """A round's letter in a shoe's outcomes: its result, or ``x`` when void."""
    return "x" if record.get("void") else record["result"]


@dataclass
class TableRow:
    table_id: str
    name: str | None = None
    variant: str = "standard"
    current_shoe: str | None = None
    retired: bool = False
    recorded: int = 0
    shoe_head: str = GENESIS
    table_head: str = GENESIS


@dataclass
class ShoeRow:
    shoe: str
    opened_at: datetime
    version: int
    head: str
    outcomes: list[str] = field(default_factory=list)
    writes: int = 0
    closed_at: datetime | None = None
    hot_until: datetime | None = None
    changed: bool = False
    # Recorded from its first round on (a shoe begun before the record was on is not: it never
    # leaves Redis, whose rounds the record lacks).
    complete: bool = True


TABLE_FIELDS = "table_id, name, variant, current_shoe, retired, recorded, shoe_head, table_head"
SHOE_FIELDS = "shoe, opened_at, version, head, outcomes, writes, closed_at, hot_until"


class Ledger:
    """Records batches into the database (the recorder's one connection at a time)."""

    def __init__(self, hot_seconds: int) -> None:
        self.hot = timedelta(seconds=hot_seconds)

    def record(self, conn: psycopg.Connection, batch: dict[str, list[LoggedWrite]]) -> Recorded:
        """Record each table's writes (oldest first) in ``conn``'s transaction; each table's
        last number recorded, and the heads advanced."""
        tables = sorted(table for table, writes in batch.items() if writes)
        if not tables:
            return Recorded({}, [])
        writes = [write for table in tables for write in batch[table]]
        self._partitions(conn, {moment(write.at_ms).date().replace(day=1) for write in writes})
        rows = self._table_rows(conn, tables)
        shoes = self._shoe_rows(conn, rows, batch)
        inserts: list[tuple] = []
        heads: dict[tuple[str, str], Head] = {}
        for table in tables:
            self._table(rows[table], shoes.setdefault(table, {}), batch[table], inserts, heads)
        with conn.cursor() as cursor:
            # COPY: the cheapest way in for many rows. A number is never inserted twice: the
            # tables' rows are locked and every number at or below ``recorded`` skipped.
            with cursor.copy(
                "COPY record_writes (table_id, number, at, kind, shoe, round, version, record,"
                " canonical, prev_hash, hash, key_name, game_id, dealt_at, dealer_id) FROM STDIN"
            ) as copy:
                for insert in inserts:
                    copy.write_row(insert)
            cursor.executemany(
                "UPDATE record_tables SET name = %s, variant = %s, current_shoe = %s,"
                " retired = %s, recorded = %s, shoe_head = %s, table_head = %s"
                " WHERE table_id = %s",
                [
                    (
                        r.name,
                        r.variant,
                        r.current_shoe,
                        r.retired,
                        r.recorded,
                        r.shoe_head,
                        r.table_head,
                        r.table_id,
                    )
                    for r in rows.values()
                ],
            )
            cursor.executemany(
                "INSERT INTO record_shoes (table_id, shoe, opened_at, closed_at, version,"
                " outcomes, head, writes, hot_until, complete)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
                " ON CONFLICT (table_id, shoe) DO UPDATE SET closed_at = excluded.closed_at,"
                " version = excluded.version, outcomes = excluded.outcomes,"
                " head = excluded.head, writes = excluded.writes,"
                " hot_until = excluded.hot_until",
                [
                    (
                        table,
                        s.shoe,
                        s.opened_at,
                        s.closed_at,
                        s.version,
                        "".join(s.outcomes),
                        s.head,
                        s.writes,
                        s.hot_until,
                        s.complete,
                    )
                    for table, found in shoes.items()
                    for s in found.values()
                    if s is not None and s.changed
                ],
            )
        return Recorded({table: rows[table].recorded for table in tables}, list(heads.values()))

    @staticmethod
    def _partitions(conn: psycopg.Connection, months: set[date]) -> None:
        """Each month's partition, made when missing by ``record_month`` (in the batch's
        transaction: a batch rolled back takes its new partition with it)."""
        for month in sorted(months):
            name = f"record_writes_{month:%Y_%m}"
            (found,) = conn.execute("SELECT to_regclass(%s)", (name,)).fetchone()
            if found is None:
                conn.execute("SELECT record_month(%s)", (month,))

    @staticmethod
    def _table_rows(conn: psycopg.Connection, tables: list[str]) -> dict[str, TableRow]:
        """The tables' rows, locked (in name order: two recorders never deadlock)."""
        conn.execute(
            "INSERT INTO record_tables (table_id, shoe_head, table_head)"
            " SELECT t, %s, %s FROM unnest(%s::text[]) AS t ORDER BY t ON CONFLICT DO NOTHING",
            (GENESIS, GENESIS, tables),
        )
        found = conn.execute(
            f"SELECT {TABLE_FIELDS} FROM record_tables WHERE table_id = ANY(%s)"
            " ORDER BY table_id FOR UPDATE",
            (tables,),
        ).fetchall()
        return {row[0]: TableRow(*row) for row in found}

    @staticmethod
    def _shoe_rows(
        conn: psycopg.Connection, rows: dict[str, TableRow], batch: dict[str, list[LoggedWrite]]
    ) -> dict[str, dict[str, ShoeRow | None]]:
        """The rows of every shoe the batch may touch (its writes', retirements', and each
        table's current shoe, which a new shoe closes); ``None`` for a shoe not yet recorded."""
        wanted = set()
        for table, row in rows.items():
            if row.current_shoe is not None:
                wanted.add((table, row.current_shoe))
            for write in batch[table]:
                if write.shoe is not None:
                    wanted.add((table, write.shoe))
                wanted |= {(table, shoe) for shoe in write.versions}
        shoes: dict[str, dict[str, ShoeRow | None]] = {}
        for table, shoe in wanted:
            shoes.setdefault(table, {})[shoe] = None
        pairs = sorted(wanted)
        found = conn.execute(
            f"SELECT table_id, {SHOE_FIELDS} FROM record_shoes WHERE (table_id, shoe) IN"
            " (SELECT * FROM unnest(%s::text[], %s::text[]))",
            ([t for t, _ in pairs], [s for _, s in pairs]),
        ).fetchall()
        for table, shoe, opened, version, head, outcomes, writes, closed, hot in found:
            shoes[table][shoe] = ShoeRow(
                shoe, opened, version, head, list(outcomes), writes, closed, hot
            )
        return shoes

    def _table(
        self,
        row: TableRow,
        shoes: dict[str, ShoeRow | None],
        writes: list[LoggedWrite],
        inserts: list[tuple],
        heads: dict[tuple[str, str], Head],
    ) -> None:
        """Chain the table's writes after its row and shoes, adding their rows to ``inserts``
        and the heads they advance to ``heads``."""
        for write in writes:
            if write.number <= row.recorded:
                continue  # recorded already (a batch again after a crash)
            at = moment(write.at_ms)
            entry: dict[str, Any] = {
                "table": row.table_id,
                "number": write.number,
                "at": stamp(write.at_ms),
                "kind": write.kind,
            }
            by = write.fields.get("by")
            if by is not None:  # the key's name, from the writes that log one on
                entry["by"] = by
            facts: tuple = (None, None, None)  # a round's game id, dealt at and dealer's id
            if write.kind in SHOE_KINDS:
                shoe_row = self._shoe_of(row, shoes, write, at)
                prev = shoe_row.head
                assert write.record is not None  # every write of a shoe logs its round
                record = orjson.loads(write.record)
                number, version = write.round_number, write.version
                entry |= {"shoe": write.shoe, "round": number, "version": version, "record": record}
                facts = round_facts(record, at)
                text, hashed = chained(prev, entry)
                while len(shoe_row.outcomes) < number:
                    shoe_row.outcomes.append("x")
                shoe_row.outcomes[number - 1] = outcome(record)
                shoe_row.head, shoe_row.version, shoe_row.changed = hashed, version, True
                shoe_row.writes += 1
                heads[(row.table_id, write.shoe)] = Head(
                    row.table_id, write.shoe, hashed, write.number, shoe_row.writes
                )
                if write.shoe == row.current_shoe:
                    row.shoe_head = hashed
                row.retired = False
            else:
                prev = row.table_head
                if write.kind == "table":
                    entry |= {"name": write.name, "variant": write.variant}
                    if write.limits is not None:  # a table without keeps its chain's old form
                        entry["limits"] = write.limits  # their JSON text
                    if write.paytable is not None:  # a pay table of the deployment's own
                        entry["paytable"] = write.paytable  # its JSON text, as the limits'
                    if write.applies is not None:
                        entry["applies"] = write.applies
                    row.name, row.variant = write.name, write.variant
                    row.retired = False
                elif write.kind == "studio":
                    entry["event"] = write.event  # its JSON text, as the limits'
                else:  # retire
                    entry["versions"] = write.versions
                    row.retired = True
                    for shoe, version in write.versions.items():
                        found = shoes.get(shoe)
                        if found is not None:
                            found.version, found.changed = version, True
                text, hashed = chained(prev, entry)
                row.table_head = hashed
                heads[(row.table_id, "")] = Head(row.table_id, "", hashed, write.number, None)
            inserts.append(
                (
                    row.table_id,
                    write.number,
                    at,
                    write.kind,
                    entry.get("shoe", ""),  # a table's own write: no shoe
                    entry.get("round"),
                    entry.get("version"),
                    write.record,
                    text,
                    prev,
                    hashed,
                    by,
                    *facts,
                )
            )
            row.recorded = write.number

    def _shoe_of(
        self, row: TableRow, shoes: dict[str, ShoeRow | None], write: LoggedWrite, at: datetime
    ) -> ShoeRow:
        """The shoe's row; a shoe not yet recorded opens, linked to the head of the table's
        current shoe, which closes."""
        shoe = write.shoe
        assert shoe is not None
        found = shoes.get(shoe)
        if found is not None:
            return found
        if row.current_shoe is not None and row.current_shoe != shoe:
            previous = shoes.get(row.current_shoe)
            if previous is not None and previous.closed_at is None:
                previous.closed_at, previous.hot_until = at, at + self.hot
                previous.changed = True
        complete = write.kind == "round" and write.round_number == 1
        opened = ShoeRow(shoe, at, write.version, row.shoe_head, changed=True, complete=complete)
        shoes[shoe] = opened
        row.current_shoe = shoe
        return opened


def round_facts(record: dict[str, Any], at: datetime) -> tuple[str | None, datetime, str | None]:
    """A round's own facts as their columns hold them (:mod:`api.codecs.roundfacts`): its game
    id and its dealer's id (``None`` when it has none), and when it was dealt: a round that does
    not say (written by a release before the facts, or by the demo) was dealt, as far as the
    record knows, when the service took it (``at``), as migration 0005 says of the rounds
    before it, so every round is found by its time."""
    facts = in_record(record)
    dealt = read_rfc3339(facts.dealt_at) if facts.dealt_at is not None else at
    return facts.game_id, dealt, facts.dealer_id


def chained(prev_hash: str, entry: dict[str, Any]) -> tuple[str, str]:
    """The canonical text of ``entry`` and its hash chained after ``prev_hash``: what
    :func:`roads.chain.link` computes, made by orjson (the same bytes for the values a write
    holds, and several times faster than the standard library's encoder the verifier uses;
    ``tests/record/test_ledger.py`` holds them equal)."""
    body = canonical_bytes(entry)
    return body.decode(), hashlib.sha256(bytes.fromhex(prev_hash) + body).hexdigest()


def canonical_bytes(entry: dict[str, Any]) -> bytes:
    """:func:`roads.chain.canonical` of a write: sorted keys, no whitespace, UTF-8."""
    return orjson.dumps(entry, option=orjson.OPT_SORT_KEYS)
