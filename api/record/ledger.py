"""A batch of logged writes recorded in one transaction: each write a row of ``record_writes``
with its link in its chain (:mod:`roads.chain`), each shoe's and table's row brought up to date.

Recording is idempotent and ordered: a table's writes are numbered without gaps (its log,
:mod:`api.codecs.writelog`) and its row holds the last number recorded, read ``FOR UPDATE``;
a write at or below it is skipped, so a batch recorded again (its recorder died before trimming
the log) adds nothing. The chains:

- a shoe's writes (rounds, corrections, voids) chain in order; the shoe's first write links to
  the head of the table's current shoe at that moment (a table's first shoe: GENESIS);
- a table's own writes (its name and variant, a retirement) form the table's chain.

A shoe closes when the table's next shoe opens; it may leave Redis ``hot_seconds`` later.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any

import orjson
import psycopg

from api.codecs.writelog import LoggedWrite
from roads.chain import GENESIS, canonical, link

SHOE_KINDS = ("round", "correction", "void")


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
    new: bool = False


class Ledger:
    """Records batches into the database (the recorder's one connection at a time)."""

    def __init__(self, hot_seconds: int) -> None:
        self.hot = timedelta(seconds=hot_seconds)

    def record(self, conn: psycopg.Connection, batch: dict[str, list[LoggedWrite]]) -> dict:
        """Record each table's writes (oldest first) in ``conn``'s transaction; each table's
        last number recorded."""
        rows = [write for writes in batch.values() for write in writes]
        self._partitions(conn, {moment(write.at_ms).date().replace(day=1) for write in rows})
        done = {}
        for table in sorted(batch):  # always the same order: no deadlock between recorders
            done[table] = self._table(conn, table, batch[table])
        return done

    @staticmethod
    def _partitions(conn: psycopg.Connection, months: set[date]) -> None:
        """Each month's partition, made when missing (in the batch's transaction: a batch
        rolled back takes its new partition with it)."""
        for month in sorted(months):
            following = (month + timedelta(days=32)).replace(day=1)
            name = f"record_writes_{month:%Y_%m}"
            (found,) = conn.execute("SELECT to_regclass(%s)", (name,)).fetchone()
            if found is None:
                conn.execute(
                    f"CREATE TABLE IF NOT EXISTS {name} PARTITION OF record_writes "
                    f"FOR VALUES FROM ('{month}') TO ('{following}')"
                )

    def _table(self, conn: psycopg.Connection, table: str, writes: list[LoggedWrite]) -> int:
        row = self._table_row(conn, table)
        shoes: dict[str, ShoeRow | None] = {}
        inserts = []
        for write in writes:
            if write.number <= row.recorded:
                continue  # recorded already (a batch again after a crash)
            at = moment(write.at_ms)
            entry: dict[str, Any] = {
                "table": table,
                "number": write.number,
                "at": stamp(write.at_ms),
                "kind": write.kind,
            }
            if write.kind in SHOE_KINDS:
                prev, shoe_row = self._shoe_write(conn, row, shoes, write, at)
                record = orjson.loads(write.fields["record"])
                entry |= {
                    "shoe": write.shoe,
                    "round": int(write.fields["number"]),
                    "version": int(write.fields["version"]),
                    "record": record,
                }
                hashed = link(prev, entry)
                self._apply_round(shoe_row, int(write.fields["number"]), record)
                shoe_row.head = hashed
                shoe_row.version = int(write.fields["version"])
                shoe_row.writes += 1
                if write.shoe == row.current_shoe:
                    row.shoe_head = hashed
                row.retired = False
            else:
                prev = row.table_head
                if write.kind == "table":
                    entry |= {"name": write.fields["name"], "variant": write.fields["variant"]}
                    row.name, row.variant = write.fields["name"], write.fields["variant"]
                    row.retired = False
                else:  # retire
                    versions = write.versions
                    entry["versions"] = versions
                    row.retired = True
                    for shoe, version in versions.items():
                        found = self._shoe(conn, table, shoes, shoe)
                        if found is not None:
                            found.version = version
                hashed = link(prev, entry)
                row.table_head = hashed
            text = canonical(entry).decode()
            inserts.append(
                (
                    table,
                    write.number,
                    at,
                    write.kind,
                    entry.get("shoe"),
                    entry.get("round"),
                    entry.get("version"),
                    write.fields.get("record"),
                    text,
                    prev,
                    hashed,
                )
            )
            row.recorded = write.number
        if inserts:
            with conn.cursor() as cursor:
                cursor.executemany(
                    "INSERT INTO record_writes (table_id, number, at, kind, shoe, round, version,"
                    " record, canonical, prev_hash, hash) VALUES"
                    " (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
                    inserts,
                )
        self._save(conn, row, shoes)
        return row.recorded

    def _shoe_write(
        self,
        conn: psycopg.Connection,
        row: TableRow,
        shoes: dict[str, ShoeRow | None],
        write: LoggedWrite,
        at: datetime,
    ) -> tuple[str, ShoeRow]:
        """The link a shoe's write chains after, and the shoe's row (opened when new)."""
        shoe = write.shoe
        assert shoe is not None
        found = self._shoe(conn, row.table_id, shoes, shoe)
        if found is not None:
            return found.head, found
        if row.current_shoe is not None and row.current_shoe != shoe:
            previous = self._shoe(conn, row.table_id, shoes, row.current_shoe)
            if previous is not None and previous.closed_at is None:
                previous.closed_at, previous.hot_until = at, at + self.hot
        opened = ShoeRow(shoe, at, int(write.fields["version"]), row.shoe_head, new=True)
        shoes[shoe] = opened
        row.current_shoe = shoe
        return row.shoe_head, opened

    @staticmethod
    def _apply_round(shoe: ShoeRow, number: int, record: dict[str, Any]) -> None:
        while len(shoe.outcomes) < number:
            shoe.outcomes.append("x")
        shoe.outcomes[number - 1] = outcome(record)

    @staticmethod
    def _table_row(conn: psycopg.Connection, table: str) -> TableRow:
        conn.execute(
            "INSERT INTO record_tables (table_id, shoe_head, table_head) VALUES (%s, %s, %s)"
            " ON CONFLICT DO NOTHING",
            (table, GENESIS, GENESIS),
        )
        found = conn.execute(
            "SELECT name, variant, current_shoe, retired, recorded, shoe_head, table_head"
            " FROM record_tables WHERE table_id = %s FOR UPDATE",
            (table,),
        ).fetchone()
        assert found is not None
        return TableRow(table, *found)

    @staticmethod
    def _shoe(
        conn: psycopg.Connection, table: str, shoes: dict[str, ShoeRow | None], shoe: str
    ) -> ShoeRow | None:
        if shoe not in shoes:
            found = conn.execute(
                "SELECT opened_at, version, head, outcomes, writes, closed_at, hot_until"
                " FROM record_shoes WHERE table_id = %s AND shoe = %s",
                (table, shoe),
            ).fetchone()
            if found is None:
                shoes[shoe] = None
            else:
                opened, version, head, outcomes, writes, closed, hot_until = found
                shoes[shoe] = ShoeRow(
                    shoe, opened, version, head, list(outcomes), writes, closed, hot_until
                )
        return shoes[shoe]

    @staticmethod
    def _save(conn: psycopg.Connection, row: TableRow, shoes: dict[str, ShoeRow | None]) -> None:
        conn.execute(
            "UPDATE record_tables SET name = %s, variant = %s, current_shoe = %s, retired = %s,"
            " recorded = %s, shoe_head = %s, table_head = %s WHERE table_id = %s",
            (
                row.name,
                row.variant,
                row.current_shoe,
                row.retired,
                row.recorded,
                row.shoe_head,
                row.table_head,
                row.table_id,
            ),
        )
        for shoe in shoes.values():
            if shoe is None:
                continue
            conn.execute(
                "INSERT INTO record_shoes (table_id, shoe, opened_at, closed_at, version,"
                " outcomes, head, writes, hot_until) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)"
                " ON CONFLICT (table_id, shoe) DO UPDATE SET closed_at = excluded.closed_at,"
                " version = excluded.version, outcomes = excluded.outcomes,"
                " head = excluded.head, writes = excluded.writes,"
                " hot_until = excluded.hot_until",
                (
                    row.table_id,
                    shoe.shoe,
                    shoe.opened_at,
                    shoe.closed_at,
                    shoe.version,
                    "".join(shoe.outcomes),
                    shoe.head,
                    shoe.writes,
                    shoe.hot_until,
                ),
            )
