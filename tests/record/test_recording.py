"""Every acknowledged write is recorded in PostgreSQL once, in order, chained: rounds,
corrections, voids, new shoes, a table's name and variant, retiring and coming back (the writer,
the tables and the recorder, without the app)."""

from __future__ import annotations

import itertools
import json

import psycopg
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.codecs.writelog import LoggedWrite
from api.record.ledger import Ledger
from api.writes.refusals import Conflict
from roads import Round
from roads.chain import GENESIS
from roads.verify import verify
from tests.layer_parts import Parts
from tests.record.conftest import record_all

TABLES = itertools.count()

OPERATIONS = st.lists(
    st.one_of(
        st.tuples(st.just("round"), st.sampled_from("BPT")),
        st.tuples(st.just("round"), st.sampled_from("BPT")),
        st.tuples(st.just("new_shoe"), st.sampled_from("BPT")),
        st.tuples(st.just("correct"), st.integers(1, 6), st.sampled_from("BPT")),
        st.tuples(st.just("void"), st.integers(1, 6)),
        st.tuples(st.just("correct_old"), st.integers(1, 6), st.sampled_from("BPT")),
        st.tuples(st.just("put"), st.sampled_from(["speed", "standard", "no_commission"])),
        st.tuples(st.just("retire")),
        st.tuples(st.just("record")),
    ),
    min_size=1,
    max_size=25,
)


class Dealer:
    """Sends operations to the writer as a game server would, keeping its shoes."""

    def __init__(self, parts: Parts, table: str) -> None:
        self.parts = parts
        self.table = table
        self.shoes: list[tuple[str, int]] = []  # (shoe, rounds)

    def round(self, result: str, *, new_shoe: bool = False) -> None:
        if new_shoe or not self.shoes:
            self.shoes.append((f"s{len(self.shoes) + 1}", 0))
        shoe, count = self.shoes[-1]
        written = self.parts.writer.append(self.table, shoe, count + 1, Round.from_result(result))
        assert written.changed
        self.shoes[-1] = (shoe, count + 1)

    def rewrite(self, which: int, number: int, result: str | None) -> None:
        if len(self.shoes) < -which:
            return
        shoe, count = self.shoes[which]
        if number > count:
            return
        writer = self.parts.writer
        try:
            if result is None:
                writer.void(self.table, shoe, number)
            else:
                writer.replace(self.table, shoe, number, Round.from_result(result))
        except Conflict as refused:
            assert "is void and cannot be corrected" in refused.message

    def put(self, variant: str) -> None:
        self.parts.tables.put(self.table, "Table", variant)

    def retire(self) -> None:
        self.parts.tables.retire(self.table)  # None for a table never seen: nothing to retire


def check_record(pg, redis_client, keys, table: str) -> None:
    """The record holds every write of the table once, numbered without gaps, each shoe's
    chain holds, and each shoe's rounds and version are what Redis holds."""
    logged = int(redis_client.hget(keys.table(table).meta, "logged") or 0)
    numbers = [
        n
        for (n,) in pg.execute(
            "SELECT number FROM record_writes WHERE table_id = %s ORDER BY number", (table,)
        )
    ]
    assert numbers == list(range(1, logged + 1))
    shoes = [
        s
        for (s,) in pg.execute(
            "SELECT shoe FROM record_shoes WHERE table_id = %s ORDER BY opened_at, shoe", (table,)
        )
    ]
    assert shoes == [s.decode() for s in redis_client.lrange(keys.table(table).shoes, 0, -1)]
    previous_hashes = {GENESIS}
    for shoe in shoes:
        rows = pg.execute(
            "SELECT canonical, prev_hash, hash, kind, round FROM record_writes"
            " WHERE table_id = %s AND shoe = %s ORDER BY number",
            (table, shoe),
        ).fetchall()
        lines = [
            (i, {**json.loads(c), "prev_hash": p, "hash": h})
            for i, (c, p, h, _, _) in enumerate(rows, 1)
        ]
        verdict = verify(lines)
        assert verdict.holds, verdict
        # The shoe's first write links to the head the table's previous shoe had then (a later
        # correction of that shoe moves its head on).
        assert rows[0][1] in previous_hashes
        appended = [r for (_, _, _, kind, r) in rows if kind == "round"]
        assert appended == list(range(1, len(appended) + 1))
        (version, head) = pg.execute(
            "SELECT version, head FROM record_shoes WHERE table_id = %s AND shoe = %s",
            (table, shoe),
        ).fetchone()
        assert head == verdict.head
        shoe_keys = keys.shoe(table, shoe)
        assert version == int(redis_client.hget(shoe_keys.info, "version"))
        latest = pg.execute(
            "SELECT DISTINCT ON (round) record FROM record_writes WHERE table_id = %s"
            " AND shoe = %s AND round IS NOT NULL ORDER BY round, number DESC",
            (table, shoe),
        ).fetchall()
        assert [r.encode() for (r,) in latest] == redis_client.lrange(shoe_keys.rounds, 0, -1)
        previous_hashes = {h for (_, _, h, _, _) in rows}


@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(operations=OPERATIONS)
def test_every_write_is_recorded_once_in_order_and_chained(
    parts, recorder, redis_client, pg, operations
):
    table = f"h{next(TABLES)}"
    dealer = Dealer(parts, table)
    for operation in operations:
        kind, *args = operation
        if kind == "round":
            dealer.round(args[0])
        elif kind == "new_shoe":
            dealer.round(args[0], new_shoe=True)
        elif kind == "correct":
            dealer.rewrite(-1, args[0], args[1])
        elif kind == "void":
            dealer.rewrite(-1, args[0], None)
        elif kind == "correct_old":
            dealer.rewrite(-2, args[0], args[1])
        elif kind == "put":
            dealer.put(args[0])
        elif kind == "retire":
            dealer.retire()
        else:
            recorder.step()
    record_all(recorder)
    recorder.step()  # once more: nothing recorded twice
    check_record(pg, redis_client, parts.keys, table)
    assert redis_client.xlen(parts.keys.table(table).log) == 0


def test_a_batch_recorded_again_adds_nothing(parts, recorder, pg):
    """A recorder that committed and died before trimming the logs: the next records from the
    record's numbers, and the ledger skips what it holds."""
    dealer = Dealer(parts, "again")
    for result in "BPBPT":
        dealer.round(result)
    log = recorder.writelog
    batch = log.after({"again": 0}, 100)
    with parts.record.database.transaction() as conn:
        recorder.ledger.record(conn, batch)
    with parts.record.database.transaction() as conn:  # the same batch again
        recorder.ledger.record(conn, batch)
    record_all(recorder)  # reads the untrimmed log again
    (count,) = pg.execute("SELECT count(*) FROM record_writes WHERE table_id = 'again'").fetchone()
    assert count == 5


def test_a_batch_that_fails_midway_records_nothing_and_is_recorded_later(parts, recorder, pg):
    dealer = Dealer(parts, "midway")
    for result in "BPB":
        dealer.round(result)
    batch = recorder.writelog.after({"midway": 0}, 100)
    try:
        with parts.record.database.transaction() as conn:
            recorder.ledger.record(conn, batch)
            raise RuntimeError("the recorder dies here, before its commit")
    except RuntimeError:
        pass
    assert pg.execute("SELECT count(*) FROM record_writes").fetchone() == (0,)
    record_all(recorder)
    (count,) = pg.execute("SELECT count(*) FROM record_writes WHERE table_id = 'midway'").fetchone()
    assert count == 3


def test_a_table_name_variant_and_retirement_are_recorded_in_the_tables_chain(parts, recorder, pg):
    dealer = Dealer(parts, "named")
    dealer.put("speed")
    dealer.round("B")
    dealer.retire()
    dealer.round("P")  # back
    record_all(recorder)
    kinds = pg.execute(
        "SELECT kind, prev_hash, hash FROM record_writes WHERE table_id = 'named' ORDER BY number"
    ).fetchall()
    assert [k for k, _, _ in kinds] == ["table", "round", "retire", "round"]
    assert kinds[0][1] == GENESIS and kinds[2][1] == kinds[0][2]  # the table's own chain
    row = pg.execute(
        "SELECT name, variant, retired FROM record_tables WHERE table_id = 'named'"
    ).fetchone()
    assert row == ("Table", "speed", False)


def test_months_are_partitions(parts, recorder, pg):
    Dealer(parts, "parts").round("B")
    record_all(recorder)
    parts = pg.execute(
        "SELECT inhrelid::regclass::text FROM pg_inherits"
        " WHERE inhparent = 'record_writes'::regclass"
    ).fetchall()
    assert len(parts) == 1 and parts[0][0].startswith("record_writes_20")


def test_migrations_are_applied_once(parts, database_url):
    database = parts.record.database
    database.ready()
    assert database.migrate() == []
    with psycopg.connect(database_url) as conn:
        assert conn.execute("SELECT count(*) FROM record_migrations").fetchone() == (5,)


def test_each_write_carries_the_name_of_the_key_that_made_it(parts, pg):
    """A write logged with ``by`` is recorded with it: in ``key_name`` and in its canonical
    bytes (so the chain covers it); one logged without (before keys had names) is recorded as
    before, and the chain holds across both."""

    def entry(number, by=None):
        fields = {"shoe": "s1", "number": str(number), "version": str(number)}
        fields["record"] = json.dumps({"result": "B"})
        if by is not None:
            fields["by"] = by
        return LoggedWrite("keyed", number, 1_700_000_000_000 + number, "round", fields)

    batch = {"keyed": [entry(1), entry(2, "studio-a"), entry(3, "")]}
    with parts.record.database.transaction() as conn:
        recorded = Ledger(60).record(conn, batch)
    assert recorded.numbers == {"keyed": 3}
    assert [h.writes for h in recorded.heads] == [3]
    rows = pg.execute(
        "SELECT key_name, canonical, prev_hash, hash FROM record_writes"
        " WHERE table_id = 'keyed' ORDER BY number"
    ).fetchall()
    assert [r[0] for r in rows] == [None, "studio-a", ""]
    writes = [json.loads(r[1]) for r in rows]
    assert "by" not in writes[0]  # recorded as before keys had names
    assert writes[1]["by"] == "studio-a" and writes[2]["by"] == ""
    lines = [
        (i, {**w, "prev_hash": r[2], "hash": r[3]})
        for i, (w, r) in enumerate(zip(writes, rows, strict=True), 1)
    ]
    assert verify(lines).holds
    assert recorded.heads[0].head == rows[-1][3]
