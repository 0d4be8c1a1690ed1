"""Every table's rounds of a time range as one streamed export (issue 45, part 2): 50,000 rounds
recorded in PostgreSQL, streamed as NDJSON with the memory the process allocates flat (a batch
at a time, never the whole answer), in the order they were dealt; CSV with the same rounds; a
range too long a 422; the export held to the process's bound on reads of the record."""

from __future__ import annotations

import tracemalloc
from datetime import UTC, datetime, timedelta

import orjson
import psycopg
import pytest

from api.codecs.records import encode, record_of
from api.codecs.roundfacts import RoundFacts
from api.codecs.times import utc_text
from api.codecs.writelog import LoggedWrite
from api.jobs import stop_jobs
from api.record.ledger import Ledger
from roads.simulator import deal_shoe
from tests.conftest import make_app

TABLES = 25
ROUNDS = 2000  # a table's: 50,000 in all
START = datetime(2026, 11, 20, tzinfo=UTC)
READER = "test-read-key"
READ = {"X-API-Key": READER}


def recorded(database_url: str) -> None:
    """50,000 rounds of 25 tables, recorded as the recorder records them (the ledger), dealt a
    second apart from ``START``: round i of every table at the same second."""
    dealt = [round for seed in range(30) for round in deal_shoe(seed)][:80]
    ledger = Ledger(hot_seconds=3600)
    with psycopg.connect(database_url) as conn:
        for first in range(0, ROUNDS, 500):
            batch = {}
            for t in range(TABLES):
                table = f"x{t:02d}"
                writes = []
                for i in range(first, first + 500):
                    shoe, number = f"s{i // 80}", i % 80 + 1
                    moment = START + timedelta(seconds=i)
                    facts = RoundFacts(f"{table}-{i}", utc_text(moment), {"id": f"d{t % 3}"})
                    record = record_of(number, dealt[number - 1], number, facts)
                    fields = {
                        "shoe": shoe,
                        "number": str(number),
                        "version": str(number),
                        "record": encode(record),
                        "opens": "1" if number == 1 else "0",
                        "by": "",
                    }
                    at_ms = int(moment.timestamp() * 1000) + 20
                    writes.append(LoggedWrite(table, i + 1, at_ms, "round", fields))
                batch[table] = writes
            ledger.record(conn, batch)
            conn.commit()


@pytest.fixture(scope="module")
def exporting(redis_server, postgres_server):
    """An app whose record holds the 50,000 rounds (one database for the module; the export
    reads PostgreSQL alone)."""
    url = postgres_server.new_database()
    app = make_app(redis_server.url, database_url=url, read_keys=(READER,), stop_with_test=False)
    app.extensions["roads"].record.database.ready()  # the schema, migrated
    recorded(url)
    yield app
    stop_jobs(app.extensions["roads"])
    app.extensions["roads"].record.database.close()


def streamed(response, count_lines: bool = True) -> tuple[int, int, list[bytes]]:
    """Read a streamed answer chunk by chunk: its bytes, its lines and its first and last."""
    size, lines, first, last = 0, 0, None, b""
    for chunk in response.response:
        size += len(chunk)
        lines += chunk.count(b"\n")
        if first is None:
            first = chunk
        last = chunk
    response.close()
    return size, lines, [first or b"", last]


def test_fifty_thousand_rounds_stream_with_the_memory_flat(exporting):
    client = exporting.test_client()
    query = "from=2026-11-20&to=2026-11-20"
    tracemalloc.start()
    try:
        response = client.get(f"/v1/export/rounds?{query}", headers=READ, buffered=False)
        assert response.status_code == 200, response.get_data()
        assert response.mimetype == "application/x-ndjson"
        size, lines, (first, last) = streamed(response)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert lines == TABLES * ROUNDS
    # The answer is some 25 MB; what the process held at once while streaming it, a small
    # part of that (a batch of rows and what the test client buffers of a chunk).
    assert size > 20_000_000
    assert peak < size / 4, (peak, size)
    head = orjson.loads(first.split(b"\n")[0])
    assert head["dealt_at"] == "2026-11-20T00:00:00.000Z" and head["table"] == "x00"
    assert head["game_id"] == "x00-0" and head["dealer"] == {"id": "d0"}
    assert head["chain"]["number"] == 1 and head["corrected"] is False
    tail = orjson.loads(last.rstrip(b"\n").split(b"\n")[-1])
    assert tail["table"] == f"x{TABLES - 1:02d}" and tail["game_id"].endswith(f"-{ROUNDS - 1}")


def test_the_export_in_csv_and_its_range(exporting):
    client = exporting.test_client()
    moment = START + timedelta(seconds=100)
    query = f"from={utc_text(moment)}&to={utc_text(moment + timedelta(seconds=2))}&format=csv"
    answer = client.get(f"/v1/export/rounds?{query}", headers=READ)
    assert answer.status_code == 200 and answer.mimetype == "text/csv"
    rows = answer.get_data(as_text=True).splitlines()
    assert rows[0].startswith("table,shoe,round,game_id,dealt_at,dealer_id,dealer_name,result")
    assert len(rows) == 1 + 2 * TABLES  # two seconds of every table
    assert rows[1].startswith("x00,s1,21,x00-100,2026-11-20T00:01:40.000Z,d0,,")
    assert "attachment" in answer.headers["Content-Disposition"]
    too_long = client.get("/v1/export/rounds?from=2026-10-01&to=2026-11-20", headers=READ)
    assert too_long.status_code == 422 and "31 days" in too_long.json["message"]
    assert client.get("/v1/export/rounds?from=2026-11-20").status_code == 401
    assert client.get("/v1/export/rounds?from=nope", headers=READ).status_code == 400
    # The far ends of the calendar are refused, never a 500 (a day past 9999 cannot be named).
    for query in ("from=9999-12-31", "from=0001-01-01", "from=2020-01-01&to=9999-12-31"):
        answer = client.get(f"/v1/export/rounds?{query}", headers=READ)
        assert answer.status_code == 422, (query, answer.json)


def test_an_export_holds_its_place_among_the_reads_of_the_record(exporting):
    client = exporting.test_client()
    held = []
    try:
        # Each export holds its place until it ends: the process's bound on reads of the
        # record (ROADS_RECORD_READS, or the readers the pool leaves) is met, then a 503.
        for _ in range(exporting.extensions["roads"].settings.record_reads + 1):
            response = client.get("/v1/export/rounds?from=2026-11-20", headers=READ, buffered=False)
            if response.status_code != 200:
                break
            held.append(response)
        assert held and response.status_code == 503 and "Retry-After" in response.headers
    finally:
        for response in held:
            response.close()  # a client that goes away gives its place back
    # A HEAD request reads no body: its place is given back all the same.
    for _ in range(exporting.extensions["roads"].settings.record_reads + 1):
        assert client.head("/v1/export/rounds?from=2026-11-20", headers=READ).status_code == 200
    again = client.get(
        "/v1/export/rounds?from=2026-11-20T00:00:00Z&to=2026-11-20T00:00:01Z", headers=READ
    )
    assert again.status_code == 200 and again.get_data().count(b"\n") == TABLES
