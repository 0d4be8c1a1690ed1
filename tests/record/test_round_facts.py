"""Migration 0005 and a round's own facts in the record (issue 45, part 1): a record made by
the earlier migrations keeps its rows, its rounds then dealt when the service took them; a round
recorded since carries its game id, when it was dealt and its dealer's id in their columns, and
in its canonical bytes, so the chain covers them."""

from __future__ import annotations

from datetime import UTC, datetime

import orjson
import psycopg

from api.codecs.records import encode, record_of
from api.codecs.roundfacts import RoundFacts
from api.codecs.writelog import LoggedWrite
from api.record.database import Database
from api.record.ledger import Ledger
from api.resources import MIGRATIONS
from roads import Round
from roads.chain import link

BEFORE = "0004_recorded_at"  # the last migration before the facts


def round_write(table: str, number: int, at_ms: int, facts: RoundFacts) -> LoggedWrite:
    record = record_of(number, Round.from_result("B"), number, facts)
    fields = {
        "shoe": "s1",
        "number": str(number),
        "version": str(number),
        "record": encode(record),
        "opens": "1" if number == 1 else "0",
        "by": "",
    }
    return LoggedWrite(table, number, at_ms, "round", fields)


def test_a_record_made_before_keeps_its_rows_and_its_rounds_are_dealt_when_taken(database_url):
    earlier = sorted(MIGRATIONS.glob("[0-9][0-9][0-9][0-9]_*.sql"))
    earlier = [path for path in earlier if path.stem <= BEFORE]
    at = datetime(2026, 11, 1, 12, 0, 0, 250000, tzinfo=UTC)
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute(
            "CREATE TABLE record_migrations (name text PRIMARY KEY, applied_at timestamptz)"
        )
        for path in earlier:
            conn.execute(path.read_text())
            conn.execute("INSERT INTO record_migrations (name) VALUES (%s)", (path.stem,))
        conn.execute("SELECT record_month(%s)", (at.date(),))
        conn.execute(
            "INSERT INTO record_writes (table_id, shoe, number, at, kind, round, version,"
            " record, canonical, prev_hash, hash) VALUES"
            " ('old', 's1', 1, %s, 'round', 1, 1, '{}', '{}', 'p', 'h'),"
            " ('old', '', 2, %s, 'table', NULL, NULL, NULL, '{}', 'p', 'h')",
            (at, at),
        )
    assert Database(database_url).migrate() == ["0005_round_facts"]
    with psycopg.connect(database_url) as conn:
        rows = conn.execute(
            "SELECT kind, dealt_at, game_id, dealer_id, canonical FROM record_writes"
            " ORDER BY number"
        ).fetchall()
    assert rows == [("round", at, None, None, "{}"), ("table", None, None, None, "{}")]


def test_a_rounds_facts_are_in_their_columns_and_its_chain(database_url):
    Database(database_url).migrate()
    dealt = "2026-11-27T08:00:15.125Z"
    facts = RoundFacts("G-77", dealt, {"id": "d-3", "name": "Mei"})
    at_ms = int(datetime(2026, 11, 27, 8, 0, 16, tzinfo=UTC).timestamp() * 1000)
    writes = [round_write("t1", 1, at_ms, facts), round_write("t1", 2, at_ms + 5, RoundFacts())]
    with psycopg.connect(database_url) as conn:
        Ledger(hot_seconds=60).record(conn, {"t1": writes})
        conn.commit()
        rows = conn.execute(
            "SELECT game_id, dealt_at, dealer_id, canonical, prev_hash, hash FROM record_writes"
            " ORDER BY number"
        ).fetchall()
    (game, moment, dealer, canonical, prev, hashed), plain = rows
    assert (game, dealer) == ("G-77", "d-3")
    assert moment == datetime(2026, 11, 27, 8, 0, 15, 125000, tzinfo=UTC)
    entry = orjson.loads(canonical)
    assert entry["record"]["game_id"] == "G-77" and entry["record"]["dealt_at"] == dealt
    assert entry["record"]["dealer"] == {"id": "d-3", "name": "Mei"}
    assert link(prev, entry) == hashed  # the chain covers the facts
    # A round without facts: dealt, as far as the record knows, when the service took it.
    assert plain[:3] == (None, datetime.fromtimestamp((at_ms + 5) / 1000, tz=UTC), None)
